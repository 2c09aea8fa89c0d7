#include "verify/equivalence_report.hpp"

#include <map>
#include <set>

#include "algebra/error.hpp"
#include "algebra/suggest.hpp"
#include "verify/certificate.hpp"

namespace rnncc {

namespace {

LinearRepresentation representation_or_refuse(const SubjectFile& s) {
  try {
    return subject_representation(s);
  } catch (const NotLinearError& e) {
    throw InputError(s.path, std::string(e.what()));
  }
}

FiniteMachine machine_or_refuse(const SubjectFile& s) {
  try {
    return finite_machine(s.content);
  } catch (const NotFiniteError& e) {
    throw InputError(s.path, std::string(e.what()));
  }
}

}  // namespace

std::vector<std::size_t> symbol_permutation(const std::vector<std::string>& a,
                                            const std::vector<std::string>& b) {
  std::map<std::string, std::size_t> in_b;
  for (std::size_t i = 0; i < b.size(); ++i) in_b.emplace(b[i], i);
  std::vector<std::size_t> perm;
  std::vector<std::string> only_a, only_b;
  for (const std::string& x : a) {
    const auto it = in_b.find(x);
    if (it == in_b.end())
      only_a.push_back(x);
    else
      perm.push_back(it->second);
  }
  const std::set<std::string> in_a(a.begin(), a.end());
  for (const std::string& x : b)
    if (!in_a.count(x)) only_b.push_back(x);
  if (!only_a.empty() || !only_b.empty() || a.size() != b.size()) {
    auto list = [](const std::vector<std::string>& s) {
      std::string out;
      for (const std::string& x : s) out += (out.empty() ? "" : " ") + x;
      return "{" + out + "}";
    };
    throw InputError("", "the alphabets differ: " + list(a) + " vs " + list(b) +
                             " (only in A: " + list(only_a) + ", only in B: " + list(only_b) +
                             "; symbols are matched by name)");
  }
  return perm;
}

LinearRepresentation reorder_symbols(const LinearRepresentation& r,
                                     const std::vector<std::size_t>& perm) {
  LinearRepresentation out = r;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    out.symbols[i] = r.symbols[perm[i]];
    out.transition[i] = r.transition[perm[i]];
    out.output[i] = r.output[perm[i]];
    if (!r.readout.empty()) out.readout[i] = r.readout[perm[i]];
  }
  return out;
}

FiniteMachine reorder_symbols(const FiniteMachine& m, const std::vector<std::size_t>& perm) {
  FiniteMachine out = m;
  std::vector<std::size_t> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = i;
  for (std::size_t i = 0; i < perm.size(); ++i) out.symbols[i] = m.symbols[perm[i]];
  for (std::size_t q = 0; q < m.states(); ++q)
    for (std::size_t i = 0; i < perm.size(); ++i) out.next[q][i] = m.next[q][perm[i]];
  // The BFS tree keeps its shape (word(q) still reaches q, no longer the llex-least word).
  for (std::size_t q = 1; q < m.states(); ++q) out.symbol[q] = inverse[m.symbol[q]];
  return out;
}

namespace {

// b re-indexed in a's symbol order, when the same symbols come in another order.
void match_symbols(EquivalenceInputs& in) {
  const std::vector<std::string>& sa = in.linear() ? in.f->symbols : in.mf->symbols;
  const std::vector<std::string>& sb = in.linear() ? in.g->symbols : in.mg->symbols;
  if (sa == sb) return;
  const std::vector<std::size_t> perm = symbol_permutation(sa, sb);
  in.reordered = true;
  if (in.linear())
    in.g = reorder_symbols(*in.g, perm);
  else
    in.mg = reorder_symbols(*in.mg, perm);
}

EquivalenceInputs inputs_of(const SubjectFile& a, const SubjectFile& b, const std::string& method);

}  // namespace

EquivalenceInputs equivalence_inputs(const SubjectFile& a, const SubjectFile& b,
                                     const std::string& method) {
  EquivalenceInputs in = inputs_of(a, b, method);
  match_symbols(in);
  return in;
}

namespace {

EquivalenceInputs inputs_of(const SubjectFile& a, const SubjectFile& b, const std::string& method) {
  EquivalenceInputs in;
  if (method == "linear") {
    in.f = representation_or_refuse(a);
    in.g = representation_or_refuse(b);
    return in;
  }
  if (method == "product") {
    in.mf = machine_or_refuse(a);
    in.mg = machine_or_refuse(b);
    return in;
  }
  if (method != "auto")
    throw InputError("--method",
                     with_suggestion("expected linear, product or auto, got '" + method + "'",
                                     method, {"linear", "product", "auto"}));
  std::string not_linear;
  // By position, not by address: a and b may be the same object.
  for (int i = 0; i < 2; ++i) {
    const SubjectFile* s = i == 0 ? &a : &b;
    try {
      (i == 0 ? in.f : in.g) = subject_representation(*s);
    } catch (const NotLinearError& e) {
      not_linear = s->path + ": " + e.what();
      break;
    }
  }
  if (not_linear.empty()) return in;
  in.f.reset();
  in.g.reset();
  std::string not_finite;
  for (int i = 0; i < 2; ++i) {
    const SubjectFile* s = i == 0 ? &a : &b;
    try {
      (i == 0 ? in.mf : in.mg) = finite_machine(s->content);
    } catch (const NotFiniteError& e) {
      not_finite = s->path + ": " + e.what();
      break;
    }
  }
  if (!not_finite.empty())
    throw InputError("", "neither decision procedure applies. Forward basis: " + not_linear +
                             ". Product search: " + not_finite + ".");
  return in;
}

}  // namespace

nlohmann::ordered_json counterexample_json(const std::optional<EquivalenceCounterexample>& c,
                                           const Alphabet& alphabet) {
  if (!c) return nullptr;
  return {{"input", c->input.empty() ? std::string("ε") : alphabet.join(c->input)},
          {"position", c->position},
          {"expected", c->expected},
          {"got", c->got}};
}

nlohmann::ordered_json equivalence_json(const EquivalenceResult& r, const LinearRepresentation& f,
                                        bool timing,
                                        const std::optional<std::string>& certificate) {
  nlohmann::ordered_json j;
  j["compare"] = "outputs";
  j["verdict"] = r.equivalent ? "proved" : "refuted";
  j["proved"] = r.equivalent;
  j["method"] = r.method;
  j["field"] = r.modulus ? "F_p" : "Q";
  j["modulus"] = r.modulus ? nlohmann::ordered_json(*r.modulus) : nlohmann::ordered_json();
  j["dimensions"] = {r.dim_f, r.dim_g};
  j["basis_size"] = r.basis_size;
  j["candidates"] = r.candidates;
  if (timing) j["seconds"] = r.seconds;
  j["max_bits"] = r.max_bits;
  j["certificate"] = certificate ? nlohmann::ordered_json(*certificate) : nlohmann::ordered_json();
  j["counterexample"] = counterexample_json(r.counterexample, Alphabet(f.symbols, "alphabet"));
  return j;
}

nlohmann::ordered_json finite_equivalence_json(const FiniteEquivalenceResult& r,
                                               const FiniteMachine& f, bool timing) {
  nlohmann::ordered_json j;
  j["compare"] = "outputs";
  j["verdict"] = r.equivalent ? "proved" : "refuted";
  j["proved"] = r.equivalent;
  j["method"] = r.method;
  j["field"] = "Q";
  j["modulus"] = nullptr;
  j["states"] = {r.states_f, r.states_g};
  j["states_visited"] = r.states_visited;
  if (timing) j["seconds"] = r.seconds;
  j["certificate"] = nullptr;
  j["counterexample"] = counterexample_json(r.counterexample, Alphabet(f.symbols, "alphabet"));
  return j;
}

}  // namespace rnncc
