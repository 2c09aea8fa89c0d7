#include "verify/acceptance_equivalence.hpp"

#include <chrono>
#include <cmath>

#include "algebra/error.hpp"

namespace rnncc {
namespace {

struct Rule {
  bool positive = true;   // accept iff y > 0; else iff y = 0
  std::size_t index = 0;  // the coordinate of y it reads
  bool accepts(const Rational& y) const { return positive ? y > 0 : y == 0; }
  std::string text() const { return positive ? "y > 0" : "y = 0"; }
};

Rule rule_of(const SubjectFile& s) {
  if (s.is_wfa()) return {};
  const Model& m = std::get<Model>(s.content);
  const Layer& top = m.layers.back().layer;
  return {m.accept.mode == Acceptance::Mode::positive,
          m.accept.row * output_cols(top) + m.accept.col};
}

// The machine's value at the accepting coordinate after w (nonempty).
Rational machine_value(const FiniteMachine& m, const Rule& r, const std::vector<std::size_t>& w) {
  std::size_t q = 0;
  for (std::size_t s : w) q = m.next[q][s];
  return m.output[q][r.index];
}

// The same machine with a start state of its own that no string re-enters, without output: ε is
// not compared, while a WFA's start vector reached again by a nonempty string still is (the
// product search does not revisit a pair, so the start pair must not stand for both).
FiniteMachine with_fresh_start(const FiniteMachine& m) {
  FiniteMachine out;
  out.symbols = m.symbols;
  out.outputs = m.outputs;
  out.start_has_output = false;
  out.next.push_back({});
  for (std::size_t t : m.next[0]) out.next[0].push_back(t + 1);
  out.output.push_back({});
  out.parent.push_back(0);
  out.symbol.push_back(0);
  for (std::size_t q = 0; q < m.states(); ++q) {
    out.next.push_back({});
    for (std::size_t t : m.next[q]) out.next.back().push_back(t + 1);
    out.output.push_back(m.output[q]);
    out.parent.push_back(q == 0 ? 0 : m.parent[q] + 1);
    out.symbol.push_back(m.symbol[q]);
  }
  return out;
}

// The machine with one output: 1 where the rule accepts, 0 where it rejects (no output at ε).
FiniteMachine accept_machine(const FiniteMachine& machine, const Rule& r) {
  FiniteMachine out = with_fresh_start(machine);
  const FiniteMachine& m = out;
  out.outputs = 1;
  for (std::size_t q = 0; q < m.states(); ++q)
    out.output[q] = {Rational(m.output[q].empty() ? 0 : (r.accepts(m.output[q][r.index]) ? 1 : 0))};
  return out;
}

std::vector<Rational> row_times(const std::vector<Rational>& v, const Matrix<Rational>& m) {
  std::vector<Rational> out(m.cols(), Rational(0));
  for (std::size_t k = 0; k < m.rows(); ++k)
    if (v[k] != 0)
      for (std::size_t j = 0; j < m.cols(); ++j)
        if (m(k, j) != 0) out[j] += v[k] * m(k, j);
  return out;
}

// Depth-first in lex order over every word of length 1..L, keeping the shortest disagreement
// (the first found at a length is the lex-least of it; deeper words are not expanded past it).
struct Search {
  const LinearRepresentation &f, &g;  // one output each: the accepting coordinate
  Rule rf, rg;
  std::size_t max_length;
  std::size_t visited = 0;
  std::optional<std::vector<std::size_t>> best;
  std::vector<std::size_t> word;

  void run(const std::vector<Rational>& vf, const std::vector<Rational>& vg) {
    const std::size_t depth = word.size();
    if (depth >= max_length || (best && depth + 1 >= best->size())) return;
    for (std::size_t s = 0; s < f.symbols.size(); ++s) {
      ++visited;
      const Rational yf = row_times(vf, f.output[s])[0], yg = row_times(vg, g.output[s])[0];
      word.push_back(s);
      if (rf.accepts(yf) != rg.accepts(yg) && (!best || word.size() < best->size())) best = word;
      word.pop_back();
    }
    for (std::size_t s = 0; s < f.symbols.size(); ++s) {
      if (best && depth + 2 >= best->size()) return;
      word.push_back(s);
      run(row_times(vf, f.transition[s]), row_times(vg, g.transition[s]));
      word.pop_back();
    }
  }
};

double words_up_to(std::size_t symbols, std::size_t length) {
  double total = 0, level = 1;
  for (std::size_t n = 1; n <= length; ++n) total += (level *= static_cast<double>(symbols));
  return total;
}

}  // namespace

AcceptanceResult decide_acceptance(const SubjectFile& a, const SubjectFile& b,
                                   const EquivalenceInputs& in, const AcceptanceParams& params) {
  const auto start = std::chrono::steady_clock::now();
  AcceptanceResult r;
  Rule rf = rule_of(a), rg = rule_of(b);
  r.rule_f = rf.text();
  r.rule_g = rg.text();
  const bool same_rule = rf.positive == rg.positive;
  auto done = [&]() -> AcceptanceResult {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  auto counterexample = [&](const std::vector<std::size_t>& w, const Rational& yf,
                            const Rational& yg) {
    EquivalenceCounterexample c;
    c.input = w;
    c.position = w.size();
    c.expected = {to_string(yf)};
    c.got = {to_string(yg)};
    r.counterexample = std::move(c);
    r.accepts = {rf.accepts(yf), rg.accepts(yg)};
  };

  // The machines, when both are finite-state (the product search decides acceptance).
  std::optional<FiniteMachine> mf = in.mf, mg = in.mg;
  if (in.linear()) {
    try {
      FiniteMachineParams fp;
      fp.max_states = params.max_states;
      mf = finite_machine(a.content, fp);
      mg = finite_machine(b.content, fp);
      if (in.reordered) mg = reorder_symbols(*mg, symbol_permutation(mf->symbols, mg->symbols));
    } catch (const NotFiniteError&) {
      mf.reset(), mg.reset();
    }
  }

  // 1. Equal outputs at the accepting coordinates.
  std::optional<LinearRepresentation> lf, lg;
  if (in.linear()) {
    lf = select_outputs(*in.f, {rf.index});
    lg = select_outputs(*in.g, {rg.index});
    lf->empty.reset(), lg->empty.reset();
    EquivalenceParams ep;
    ep.certificate = false;
    const EquivalenceResult e = decide_equivalence(*lf, *lg, ep);
    r.outputs_equal = e.equivalent;
    if (e.counterexample) r.outputs_differ_at = e.counterexample->input;
    if (e.equivalent && same_rule) {
      r.verdict = "proved";
      r.method = "equal outputs at the accepting coordinates, proved by the " + e.method +
                 ", imply equal acceptance";
      return done();
    }
  } else {
    FiniteMachine of = with_fresh_start(*mf), og = with_fresh_start(*mg);
    for (auto [m, rule] : {std::pair{&of, &rf}, std::pair{&og, &rg}}) {
      m->outputs = 1;
      for (auto& y : m->output)
        if (!y.empty()) y = {y[rule->index]};
    }
    const FiniteEquivalenceResult e = decide_finite_equivalence(of, og);
    r.outputs_equal = e.equivalent;
    if (e.counterexample) r.outputs_differ_at = e.counterexample->input;
    if (e.equivalent && same_rule) {
      r.verdict = "proved";
      r.method = "equal outputs at the accepting coordinates, proved by the " + e.method +
                 ", imply equal acceptance";
      return done();
    }
  }

  // 2. Finitely many configurations: the product search over the accept verdicts.
  if (mf && mg) {
    const FiniteEquivalenceResult e =
        decide_finite_equivalence(accept_machine(*mf, rf), accept_machine(*mg, rg));
    r.method = e.method + " over the accept verdicts";
    if (e.equivalent) {
      r.verdict = "proved";
      return done();
    }
    r.verdict = "refuted";
    const std::vector<std::size_t>& w = e.counterexample->input;
    counterexample(w, machine_value(*mf, rf, w), machine_value(*mg, rg, w));
    return done();
  }

  // 3. Search every string up to a length.
  const std::size_t S = lf->symbols.size();
  std::size_t L = 0;
  if (params.max_length) {
    L = *params.max_length;
    if (words_up_to(S, L) > static_cast<double>(std::size_t{1} << 24))
      throw InputError("--accept-length",
                       "searching every string of length 1.." + std::to_string(L) + " over " +
                           std::to_string(S) + " symbols means " +
                           std::to_string(words_up_to(S, L)) + " strings, over 2^24");
  } else {
    while (L < 16 && S > 0 && words_up_to(S, L + 1) <= static_cast<double>(params.max_words)) ++L;
  }
  Search search{*lf, *lg, rf, rg, L, 0, std::nullopt, {}};
  search.run(lf->initial, lg->initial);
  r.method = "exhaustive search in length-lexicographic order";
  r.strings_searched = search.visited;
  if (search.best) {
    r.verdict = "refuted";
    const std::vector<std::size_t>& w = *search.best;
    counterexample(w, evaluate_prefixes(*lf, w).back()[0], evaluate_prefixes(*lg, w).back()[0]);
    r.searched_up_to = w.size();
    return done();
  }
  r.verdict = "tested";
  r.searched_up_to = L;
  return done();
}

nlohmann::ordered_json acceptance_json(const AcceptanceResult& r,
                                       const std::vector<std::string>& symbols, bool timing) {
  using json = nlohmann::ordered_json;
  const Alphabet alphabet(symbols, "alphabet");
  json j;
  j["compare"] = "accept";
  j["verdict"] = r.verdict;
  j["proved"] = r.verdict == "proved";
  j["method"] = r.method;
  j["field"] = "Q";
  j["modulus"] = nullptr;
  j["acceptance"] = {r.rule_f, r.rule_g};
  j["outputs_equal"] = r.outputs_equal ? json(*r.outputs_equal) : json(nullptr);
  j["outputs_differ_at"] =
      r.outputs_differ_at ? json(alphabet.join(*r.outputs_differ_at)) : json(nullptr);
  j["searched_up_to"] = r.searched_up_to;
  j["strings_searched"] = r.strings_searched;
  if (timing) j["seconds"] = r.seconds;
  j["certificate"] = nullptr;
  j["counterexample"] = counterexample_json(r.counterexample, alphabet);
  if (r.counterexample) j["counterexample"]["accepts"] = {r.accepts.first, r.accepts.second};
  return j;
}

}  // namespace rnncc
