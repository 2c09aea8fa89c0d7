#include "verify/equivalence_report.hpp"

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

EquivalenceInputs equivalence_inputs(const SubjectFile& a, const SubjectFile& b,
                                     const std::string& method) {
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
  for (const SubjectFile* s : {&a, &b}) {
    try {
      (s == &a ? in.f : in.g) = subject_representation(*s);
    } catch (const NotLinearError& e) {
      not_linear = s->path + ": " + e.what();
      break;
    }
  }
  if (not_linear.empty()) return in;
  in.f.reset();
  in.g.reset();
  std::string not_finite;
  for (const SubjectFile* s : {&a, &b}) {
    try {
      (s == &a ? in.mf : in.mg) = finite_machine(s->content);
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
  j["proved"] = r.equivalent;
  j["method"] = r.method;
  j["field"] = r.field;
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
  j["proved"] = r.equivalent;
  j["method"] = r.method;
  j["field"] = "Q";
  j["states"] = {r.states_f, r.states_g};
  j["states_visited"] = r.states_visited;
  if (timing) j["seconds"] = r.seconds;
  j["certificate"] = nullptr;
  j["counterexample"] = counterexample_json(r.counterexample, Alphabet(f.symbols, "alphabet"));
  return j;
}

}  // namespace rnncc
