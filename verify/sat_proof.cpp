#include "verify/sat_proof.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>

#include <unistd.h>

#if RNNCC_HAVE_CADICAL
#include <cadical.hpp>
#endif

#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "verify/bitvec.hpp"
#include "verify/cnf.hpp"
#include "verify/model_circuit.hpp"
#include "verify/sat_specs.hpp"
#include "verify/verify_tm.hpp"

namespace rnncc::sat {

std::string to_string(SatOutcome::Verdict v) {
  switch (v) {
    case SatOutcome::Verdict::proved:
      return "proved";
    case SatOutcome::Verdict::refuted:
      return "refuted";
    case SatOutcome::Verdict::inconclusive:
      return "inconclusive";
    case SatOutcome::Verdict::unavailable:
      break;
  }
  return "unavailable";
}

bool sat_available(std::string* why) {
#if RNNCC_HAVE_CADICAL
  (void)why;
  return true;
#else
  if (why) *why = "rnncc was built without CaDiCaL (install libcadical-dev and reconfigure)";
  return false;
#endif
}

namespace {

// A temporary file for the proof, removed when done.
struct TempFile {
  std::string path;
  TempFile() {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/rnncc-drat-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd >= 0) {
      ::close(fd);
      path = pattern;
    }
  }
  ~TempFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

[[maybe_unused]] double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The circuit of one attempt: the miter and what reads a solution back.
struct Miter {
  Aig aig;
  Lit root = kFalse;
  std::vector<std::vector<Lit>> code;  // per position, the input bits of its symbol (LSB first)
  std::vector<Lit> bad;                // per position t: the miter's disjunct at t
};

[[maybe_unused]] std::size_t bits_for(std::size_t count) {
  std::size_t b = 0;
  while ((std::size_t{1} << b) < count) ++b;
  return b;
}

// Builds the miter; throws SatUnsupported.
[[maybe_unused]] std::unique_ptr<Miter> build(const Construction& c, std::size_t N,
                                              std::size_t width, std::string& statement) {
  auto m = std::make_unique<Miter>();
  Aig& g = m->aig;
  WordBuilder words(g, width);
  if (c.modulus) throw SatUnsupported("X runs modulo a prime; the encoding is over the integers");
  std::unique_ptr<SpecCircuit> spec = make_spec(c.target.boolean_spec, words);
  statement = spec->statement();
  const std::size_t S = c.target.alphabet.size(), SX = c.model.alphabet.size();
  // How the model's one-hot input at position t reads f's symbols.
  std::vector<InputSource> forms;
  if (spec->reads_encoded()) {
    if (c.model.alphabet.symbols() != c.target.alphabet.symbols())
      throw SatUnsupported("the specification is stated on X's input, but X's alphabet differs");
  } else {
    if (!c.input_forms)
      throw SatUnsupported("encode is not given as per-position input forms (input_forms)");
    forms = c.input_forms(N);
    if (forms.size() != N * SX)
      throw SatUnsupported("encode does not map each symbol to one token (" +
                           std::to_string(forms.size() / std::max<std::size_t>(SX, 1)) +
                           " tokens for " + std::to_string(N) + " symbols)");
  }
  ModelCircuit model(c.model, words);
  const std::size_t cols = output_cols(c.model.layers.back().layer);
  const std::size_t out = c.out_row * cols + c.out_col;
  const std::size_t b = bits_for(S);
  std::vector<Lit> all_x;  // x[t,σ] at index (t−1)·S + σ
  Lit valid = kTrue, flags = kFalse;
  std::vector<Lit> disjuncts;
  for (std::size_t t = 1; t <= N; ++t) {
    std::vector<Lit> code;
    for (std::size_t i = 0; i < b; ++i) code.push_back(g.input());
    m->code.push_back(code);
    std::vector<Lit> x;
    for (std::size_t s = 0; s < S; ++s) {
      std::vector<Lit> match;
      for (std::size_t i = 0; i < b; ++i) match.push_back(negate_if(code[i], !((s >> i) & 1u)));
      x.push_back(g.and_all(match));
    }
    valid = g.land(valid, g.or_all(x));
    all_x.insert(all_x.end(), x.begin(), x.end());
    std::vector<Lit> sel;
    if (spec->reads_encoded()) {
      sel = x;
    } else {
      for (std::size_t tau = 0; tau < SX; ++tau) {
        const InputSource& f = forms[(t - 1) * SX + tau];
        for (std::uint32_t v : f.variables)
          if (v / S != t - 1)
            throw SatUnsupported("encode's token at position " + std::to_string(t) +
                                 " reads another position's symbol");
        if (f.constant != 0 && f.constant != 1)
          throw SatUnsupported("an input form with a constant other than 0 or 1");
        std::vector<Lit> vs;
        for (std::uint32_t v : f.variables) vs.push_back(all_x[v]);
        if (f.constant == 1 && !vs.empty()) throw SatUnsupported("an input form 1 + x");
        sel.push_back(f.constant == 1 ? kTrue : g.or_all(vs));
      }
    }
    const std::vector<Word> y = model.step(sel);
    const SpecStep f = spec->step(x);
    flags = g.lor(flags, words.take_flag());
    const Lit differ = negate(words.equal(y.at(out), words.mul_const(f.value, model.scale())));
    flags = g.lor(flags, words.take_flag());
    const Lit bad = g.land(valid, g.land(f.promise, g.lor(differ, flags)));
    m->bad.push_back(bad);
    disjuncts.push_back(bad);
  }
  m->root = g.or_all(disjuncts);
  return m;
}

#if RNNCC_HAVE_CADICAL
// Decides whether `root` can be true: CaDiCaL on its Tseitin CNF, writing a text DRAT proof that
// check_drat re-checks against the CNF read back from DIMACS. Returns 20 (UNSAT, proof checked:
// r.check), 10 (SAT: `inputs` = the Aig's inputs) or 0 (r.verdict/r.reason say why not).
int solve(const Aig& aig, Lit root, bool check, SatOutcome& r, std::vector<bool>& inputs) {
  std::vector<int> var;
  const Cnf cnf = tseitin(aig, root, &var);
  const std::string dimacs = to_dimacs(cnf);
  r.gates = aig.gates();
  r.variables = static_cast<std::size_t>(cnf.vars);
  r.clauses = cnf.clauses.size();
  const auto t1 = std::chrono::steady_clock::now();
  const TempFile proof;
  if (proof.path.empty()) {
    r.reason = "no temporary file for the DRAT proof";
    return 0;
  }
  int result = 0;
  {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    solver.set("binary", 0);  // text DRAT, which the checker reads
    if (!solver.trace_proof(proof.path.c_str())) {
      r.reason = "cannot write the DRAT proof to " + proof.path;
      return 0;
    }
    for (const auto& clause : cnf.clauses) {
      for (int l : clause) solver.add(l);
      solver.add(0);
    }
    result = solver.solve();
    r.solve_seconds = since(t1);
    if (result == 10) {
      inputs.clear();
      for (std::uint32_t node : aig.input_nodes()) {
        const int v = var[node];
        inputs.push_back(v != 0 && solver.val(v) > 0);
      }
      return 10;
    }
    solver.close_proof_trace();
  }
  if (result != 20) {
    r.verdict = SatOutcome::Verdict::inconclusive;
    r.reason = "the solver gave no answer";
    return 0;
  }
  std::string text;
  {
    std::ifstream in(proof.path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  r.proof_bytes = text.size();
  if (!check) {
    r.verdict = SatOutcome::Verdict::inconclusive;
    r.reason = "UNSAT by the solver; the DRAT proof was not checked";
    return 0;
  }
  const auto t2 = std::chrono::steady_clock::now();
  r.check = check_drat(parse_dimacs(dimacs), text);
  r.check_seconds = since(t2);
  if (!r.check.valid) {
    r.verdict = SatOutcome::Verdict::inconclusive;
    r.reason = "the solver's DRAT proof was rejected: " + r.check.reason;
    return 0;
  }
  return 20;
}
#endif

}  // namespace

SatOutcome prove_by_sat(const Construction& c, const SatOptions& o) {
  SatOutcome r;
  r.max_length = o.max_length;
  std::string why;
  if (!sat_available(&why)) {
    r.reason = why;
    return r;
  }
  if (o.max_length == 0) {
    r.reason = "a length of at least 1";
    return r;
  }
#if RNNCC_HAVE_CADICAL
  r.solver = std::string("CaDiCaL ") + CaDiCaL::Solver::version();
  for (std::size_t width = o.width;; width *= 2) {
    r.width = width;
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Miter> m;
    try {
      m = build(c, o.max_length, width, r.statement);
    } catch (const SatUnsupported& e) {
      r.reason = e.what();
      return r;
    }
    r.encode_seconds = since(t0);
    std::vector<bool> inputs;
    const int result = solve(m->aig, m->root, o.check_proof, r, inputs);
    if (result == 0) return r;
    if (result == 10) {
      // Read the string back and find the first position whose disjunct holds.
      const std::vector<bool> values = m->aig.evaluate(inputs);
      std::vector<std::size_t> w;
      std::size_t t = 0;
      for (; t < m->bad.size(); ++t) {
        std::size_t s = 0;
        for (std::size_t i = 0; i < m->code[t].size(); ++i)
          if (Aig::value(values, m->code[t][i])) s |= std::size_t{1} << i;
        w.push_back(s);
        if (Aig::value(values, m->bad[t])) break;
      }
      // Exactly: f against the reference evaluator on encode(w).
      bool differs = false;
      try {
        const Rational expected = c.target.value(w);
        const RationalField Q;
        const auto u = c.encode(w);
        const auto trace = evaluate(c.model, Q, u);
        const Rational got = trace.outputs().back()(c.out_row, c.out_col);
        differs = got != expected;
        r.expected = rnncc::to_string(expected);
        r.got = rnncc::to_string(got);
      } catch (const DomainError&) {
        differs = false;  // outside f's domain: not a counterexample
      }
      if (differs) {
        r.verdict = SatOutcome::Verdict::refuted;
        r.counterexample = w;
        return r;
      }
      if (width >= 128) {
        r.verdict = SatOutcome::Verdict::inconclusive;
        r.reason = "a value does not fit " + std::to_string(width) +
                   " bits or is not a multiple of 1/D on " + c.target.alphabet.join(w);
        return r;
      }
      continue;  // a flag only: wider words
    }
    r.verdict = SatOutcome::Verdict::proved;
    return r;
  }
#else
  (void)c;
  return r;
#endif
}

SatOutcome prove_tm_by_sat(const TuringMachine& m, std::size_t n, std::size_t T,
                           const TmHybridOptions& hybrid, const SatOptions& o) {
  SatOutcome r;
  r.max_length = n;
  std::string why;
  if (!sat_available(&why)) {
    r.reason = why;
    return r;
  }
  if (T == 0) {
    r.reason = "at least one step";
    return r;
  }
#if RNNCC_HAVE_CADICAL
  r.solver = std::string("CaDiCaL ") + CaDiCaL::Solver::version();
  r.statement = "greedy generation emits the transition M takes at each of the first " +
                std::to_string(T) + " steps (until M halts), on every tape of " +
                std::to_string(n) + " symbols";
  const TmHybrid h = turing_machine_hybrid(m, {}, hybrid);
  const std::size_t V = h.model.alphabet.size(), G = m.symbols, b = bits_for(G);
  for (std::size_t width = o.width;; width *= 2) {
    r.width = width;
    const auto t0 = std::chrono::steady_clock::now();
    Aig g;
    WordBuilder words(g, width);
    std::optional<ModelCircuit> model;
    try {
      model.emplace(h.model, words);
    } catch (const SatUnsupported& e) {
      r.reason = e.what();
      return r;
    }
    std::vector<std::vector<Lit>> code, tape;
    Lit valid = kTrue;
    for (std::size_t i = 0; i < n; ++i) {
      code.push_back({});
      for (std::size_t k = 0; k < b; ++k) code.back().push_back(g.input());
      std::vector<Lit> x;
      for (std::size_t a = 0; a < G; ++a) {
        std::vector<Lit> match;
        for (std::size_t k = 0; k < b; ++k)
          match.push_back(negate_if(code[i][k], !((a >> k) & 1u)));
        x.push_back(g.and_all(match));
      }
      valid = g.land(valid, g.or_all(x));
      tape.push_back(x);
    }
    TmSpec spec(g, m, h.step_token, V, tape, T);
    Lit flags = kFalse;
    // The prompt: "^", then the input token of each tape symbol.
    std::vector<Word> y = model->step([&] {
      std::vector<Lit> x(V, kFalse);
      x[h.bos] = kTrue;
      return x;
    }());
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Lit> x(V, kFalse);
      for (std::size_t a = 0; a < G; ++a)
        x[h.input_token[a]] = g.lor(x[h.input_token[a]], tape[i][a]);
      y = model->step(x);
    }
    std::vector<Lit> bad;
    std::vector<std::vector<Lit>> generated;
    for (std::size_t j = 1; j <= T; ++j) {
      flags = g.lor(flags, words.take_flag());
      // argmax over y, ties to the lowest index
      std::vector<Lit> pick(V, kFalse);
      pick[0] = kTrue;
      Word best = y.at(0);
      for (std::size_t k = 1; k < V; ++k) {
        const Lit better = words.less(best, y.at(k));
        best = words.mux(better, y.at(k), best);
        for (std::size_t l = 0; l < k; ++l) pick[l] = g.land(negate(better), pick[l]);
        pick[k] = better;
      }
      flags = g.lor(flags, words.take_flag());
      const TmSpec::Step want = spec.step();
      std::vector<Lit> differ;
      for (std::size_t k = 0; k < V; ++k) differ.push_back(g.lxor(pick[k], want.token[k]));
      bad.push_back(g.land(valid, g.land(want.running, g.lor(g.or_all(differ), flags))));
      generated.push_back(pick);
      if (j < T) y = model->step(pick);
    }
    const Lit root = g.or_all(bad);
    r.encode_seconds = since(t0);
    std::vector<bool> inputs;
    const int result = solve(g, root, o.check_proof, r, inputs);
    if (result == 0) return r;
    if (result == 20) {
      r.verdict = SatOutcome::Verdict::proved;
      return r;
    }
    const std::vector<bool> values = g.evaluate(inputs);
    std::vector<std::size_t> x;
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t a = 0;
      for (std::size_t k = 0; k < b; ++k)
        if (Aig::value(values, code[i][k])) a |= std::size_t{1} << k;
      x.push_back(a);
    }
    TmVerifyOptions vo;
    vo.max_steps = T;
    vo.reference_max_steps = 0;
    vo.hybrid = hybrid;
    const TmVerifyReport check = verify_tm(m, x, vo);
    if (!check.report.holds && check.first_differing_step) {
      r.verdict = SatOutcome::Verdict::refuted;
      r.counterexample = x;
      if (check.report.counterexample) {
        r.expected = check.report.counterexample->expected;
        r.got = check.report.counterexample->got;
      }
      r.reason = "step " + std::to_string(*check.first_differing_step);
      return r;
    }
    if (width >= 128) {
      r.verdict = SatOutcome::Verdict::inconclusive;
      r.reason = "a value does not fit " + std::to_string(width) + " bits on some tape";
      return r;
    }
  }
#else
  (void)m;
  (void)hybrid;
  (void)o;
  return r;
#endif
}

nlohmann::ordered_json to_json(const SatOutcome& r, bool timing) {
  nlohmann::ordered_json j;
  j["verdict"] = to_string(r.verdict);
  if (!r.reason.empty()) j["reason"] = r.reason;
  j["statement"] = r.statement;
  j["solver"] = r.solver;
  j["max_length"] = r.max_length;
  j["gates"] = r.gates;
  j["variables"] = r.variables;
  j["clauses"] = r.clauses;
  j["width"] = r.width;
  if (r.verdict == SatOutcome::Verdict::proved)
    j["drat"] = {{"checked", r.check.valid},
                 {"lemmas", r.check.lemmas},
                 {"rat_lemmas", r.check.rat_lemmas},
                 {"deletions", r.check.deletions},
                 {"ignored_deletions", r.check.ignored_deletions},
                 {"bytes", r.proof_bytes}};
  if (r.verdict == SatOutcome::Verdict::refuted)
    j["counterexample"] = {{"input", r.counterexample}, {"expected", r.expected}, {"got", r.got}};
  if (timing)
    j["seconds"] = {
        {"encode", r.encode_seconds}, {"solve", r.solve_seconds}, {"check", r.check_seconds}};
  return j;
}

std::string tm_sat_text(const std::string& name, const SatOutcome& r, std::size_t steps,
                        bool timing) {
  const std::string scope = "every tape of " + std::to_string(r.max_length) +
                            " symbols, the first " + std::to_string(steps) + " steps";
  std::string sizes = std::to_string(r.gates) + " gates, " + std::to_string(r.variables) +
                      " variables, " + std::to_string(r.clauses) + " clauses, " +
                      std::to_string(r.width) + "-bit words";
  if (timing) {
    char buf[64];
    std::snprintf(buf, sizeof buf, ", %.2f s",
                  r.encode_seconds + r.solve_seconds + r.check_seconds);
    sizes += buf;
  }
  if (r.verdict == SatOutcome::Verdict::proved)
    return name + ": HOLDS — proved: " + scope + " (SAT: " + r.solver + ", DRAT proof checked, " +
           std::to_string(r.check.lemmas) + " lemmas; " + sizes + ")\n  what: " + r.statement +
           "\n";
  std::string tape;
  for (std::size_t a : r.counterexample) tape += std::to_string(a);
  return name + ": FAILS — refuted: " + scope + " decided (SAT: " + r.solver + "; " + sizes +
         "); counterexample tape " + (tape.empty() ? "ε" : tape) + ", " + r.reason + ": expected " +
         r.expected + ", got " + r.got + " (confirmed by the step-by-step checker)\n";
}

}  // namespace rnncc::sat
