#include "verify/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/modp_ops.hpp"
#include "algebra/sharded_run.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/json_text.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/run_report.hpp"
#include "verify/certificate.hpp"
#include "verify/check_circuit.hpp"
#include "verify/device_check.hpp"
#include "verify/equivalence.hpp"
#include "verify/k_induction.hpp"
#include "verify/minimize.hpp"
#include "verify/model_walk_check.hpp"
#include "verify/prefix_check.hpp"
#include "verify/product_certificate.hpp"
#include "verify/promise_search.hpp"
#include "verify/sat_proof.hpp"

namespace rnncc {

namespace {

// Identity testing draws its prime uniformly from the primes in [2^61, 2^62) (ModP takes
// p < 2^62). There are more than N = 3.8·10^16 of them: by Rosser–Schoenfeld,
// x/ln x < π(x) < 1.25506·x/ln x for x ≥ 17, so π(2^62) − π(2^61) > 2^62/ln 2^62 −
// 1.25506·2^61/ln 2^61 = 2^61·(2/(62 ln 2) − 1.25506/(61 ln 2)) ≈ 3.886·10^16.
constexpr double kPrimesInRange = 3.8e16;
constexpr unsigned kPrimeBits = 61;  // every prime of the range exceeds 2^61

// A prime drawn uniformly from [2^61, 2^62): odd candidates until one is prime (modp::is_prime
// is deterministic for 64-bit inputs).
std::uint64_t random_identity_prime(std::mt19937_64& rng) {
  while (true) {
    const std::uint64_t candidate = (std::uint64_t{1} << 61) | (rng() >> 3) | 1u;
    if (modp::is_prime(candidate)) return candidate;
  }
}

// Per gate, an upper bound on the degree in each position's block of variables (saturating at
// 2: identity testing only asks whether some output has degree > 1 in some block). `blocks[i]`
// lists the blocks input i depends on (affinely). Boolean and test gates count as degree 2.
std::uint8_t max_block_degree(const Circuit& c, const std::vector<std::vector<std::size_t>>& blocks,
                              std::size_t n) {
  std::vector<std::uint8_t> deg(c.size() * n, 0);
  auto at = [&](GateId g) { return deg.data() + static_cast<std::size_t>(g) * n; };
  for (GateId id = 0; id < c.size(); ++id) {
    std::uint8_t* out = at(id);
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::constant:
        break;
      case GateKind::input:
        for (std::size_t b : blocks.at(c.input_index(id))) out[b] = 1;
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum:
        for (GateId o : ops)
          for (std::size_t b = 0; b < n; ++b) out[b] = std::max(out[b], at(o)[b]);
        break;
      case GateKind::mul:
      case GateKind::product:
        for (GateId o : ops)
          for (std::size_t b = 0; b < n; ++b)
            out[b] = static_cast<std::uint8_t>(std::min(2, out[b] + at(o)[b]));
        break;
      default:
        for (std::size_t b = 0; b < n; ++b) out[b] = 2;
    }
  }
  std::uint8_t worst = 0;
  for (GateId o : c.outputs())
    for (std::size_t b = 0; b < n; ++b) worst = std::max(worst, at(o)[b]);
  return worst;
}

// log₂ of an integer bound: (num, den) with den·v ∈ Z and |den·v| ≤ num for the value v of a
// gate on every input within the input bounds. Sums: den = Π den_i, num = Σ num_i·Π_{j≠i} den_j;
// products: both multiply. Kept as log₂ (−∞ for num = 0).
struct HeightBound {
  double log_num = -std::numeric_limits<double>::infinity();
  double log_den = 0;
};

double log2_sum(double a, double b) {  // log₂(2^a + 2^b), rounded up a little
  if (a < b) std::swap(a, b);
  if (b == -std::numeric_limits<double>::infinity()) return a;
  return a + std::log2(1 + std::exp2(b - a)) + 1e-9;
}

HeightBound height_of(const Rational& q) {
  HeightBound h;
  const std::size_t num_bits = bit_length(numerator(q));
  if (num_bits > 0) h.log_num = static_cast<double>(num_bits);
  h.log_den = static_cast<double>(bit_length(denominator(q)));
  return h;
}

// The bound at the circuit's output `out` (an index into outputs()).
HeightBound output_height(const Circuit& c, const std::vector<HeightBound>& inputs,
                          std::size_t out) {
  std::vector<HeightBound> h(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    HeightBound& g = h[id];
    switch (c.kind(id)) {
      case GateKind::constant:
        g = height_of(c.constant(id));
        break;
      case GateKind::input:
        g = inputs.at(c.input_index(id));
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum: {
        for (GateId o : ops) g.log_den += h[o].log_den;
        for (GateId o : ops)
          g.log_num = log2_sum(g.log_num, h[o].log_num + g.log_den - h[o].log_den);
        break;
      }
      case GateKind::mul:
      case GateKind::product:
        g.log_num = 0;
        for (GateId o : ops) {
          g.log_num += h[o].log_num;
          g.log_den += h[o].log_den;
        }
        break;
      default:  // boolean and test gates take the values 0 and 1
        g.log_num = 0;
        g.log_den = 0;
    }
  }
  return h[c.outputs().at(out)];
}

// One verdict on one string: empty when f, X and (if compiled) X's circuit agree.
struct Mismatch {
  std::string expected, got, disagreeing;
};

class Checker {
 public:
  Checker(const Construction& c, const VerifyOptions& o) : c_(c), o_(o) {
    if (c.modulus) mod_.emplace(*c.modulus);
    // Three-way needs X's arithmetic circuit: LRNN stacks (compile_lrnn), one Elman layer
    // (compile_nonlinear_sequential), LRNN layers under one hard-attention layer
    // (compile_attention_arith) — compile_model's arith routes; softmax has no exact circuit.
    TargetOptions t;
    try {
      (void)compiler_name(c.model, t);
      const auto* a = std::get_if<AttentionLayer>(&c.model.layers.back().layer);
      compilable_ = !a || a->kind != AttentionKind::softmax;
    } catch (const InputError&) {
      compilable_ = false;
    }
  }

  bool compilable() const { return compilable_; }

  // f(w) vs X(encode(w)) [vs X's circuit]. Returns the mismatch, if any.
  std::optional<Mismatch> check(const std::vector<std::size_t>& w, bool three_way) {
    const Rational expected = c_.target.value(w);
    const std::vector<std::size_t> x = c_.encode(w);
    if (x.empty())
      throw std::logic_error("verify: the encoding of a string is empty; X has no output for it");
    if (mod_) return check_in(*mod_, expected, x, three_way);
    return check_in(RationalField{}, expected, x, three_way);
  }

  // (f(w), X's compared output) over Q; nullopt for a mod-p construction.
  std::optional<std::pair<Rational, Rational>> exact_values(const std::vector<std::size_t>& w) {
    if (mod_) return std::nullopt;
    const auto trace = evaluate(prepared(RationalField{}), c_.encode(w));
    return std::pair{c_.target.value(w), trace.outputs().back()(c_.out_row, c_.out_col)};
  }

  std::size_t circuits_compiled() const { return compiled_.size(); }
  // The shortest encoding length whose circuit was not compiled (over the work budget).
  std::optional<std::size_t> first_over_budget() const { return first_over_budget_; }
  // What checks on other ranks compiled or found over budget (a sharded run folds them in, so
  // every rank's figures are those of the whole run): (length, mod) pairs and a length.
  const std::set<std::pair<std::size_t, bool>>& compiled() const { return compiled_; }
  void merge(const std::set<std::pair<std::size_t, bool>>& compiled,
             std::optional<std::size_t> over_budget) {
    compiled_.insert(compiled.begin(), compiled.end());
    if (over_budget && (!first_over_budget_ || *over_budget < *first_over_budget_))
      first_over_budget_ = over_budget;
  }

  // Multiply-adds compile_model spends on X at length n: a Sklansky scan makes
  // (n/2)·⌈log₂ n⌉ compositions of d×d maps (d³ + d²·m each, zeros included: the builder folds
  // them one by one) per LRNN layer; other layers cost about n·d² (one step per position).
  double compile_work(std::size_t n) const {
    double work = 0,
           levels = std::ceil(std::log2(static_cast<double>(std::max<std::size_t>(n, 2))));
    for (const StackLayer& sl : c_.model.layers) {
      if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
        const double d = static_cast<double>(l->d), m = static_cast<double>(l->m);
        work += (static_cast<double>(n) / 2) * levels * (d * d * d + d * d * m);
      } else {
        const double k = static_cast<double>(output_rows(sl.layer) + input_features(sl.layer));
        work += static_cast<double>(n) * k * k;
      }
    }
    return work;
  }

 private:
  // Three-way compiles a circuit per length; past the budget (a 100-state WFA's model at length
  // 40 needs ≈ 10^8 multiply-adds per length, minutes in all) the longer lengths are not
  // compiled and the report says from which length on (VerifyOptions::three_way_max_work).
  bool within_compile_budget(std::size_t n) {
    if (compile_work(n) <= o_.three_way_max_work) return true;
    if (!first_over_budget_ || n < *first_over_budget_) first_over_budget_ = n;
    return false;
  }

  template <Domain K>
  std::optional<Mismatch> check_in(const K& k, const Rational& expected_q,
                                   const std::vector<std::size_t>& x, bool three_way) {
    const auto want = k.from_rational(expected_q);
    const auto trace = evaluate(prepared(k), x);
    const auto& got = trace.outputs().back()(c_.out_row, c_.out_col);
    const std::string expected_text = c_.modulus
                                          ? k.to_string(want) + " (= " + to_string(expected_q) +
                                                " mod " + std::to_string(*c_.modulus) + ")"
                                          : to_string(expected_q);
    if (!k.equal(want, got)) return Mismatch{expected_text, k.to_string(got), "model"};
    if (three_way && compilable_ && !x.empty() && x.size() <= o_.three_way_max_tokens &&
        within_compile_budget(x.size())) {
      const Circuit& circ =
          circuit_for(x.size(), std::is_same_v<K, ModP>);  // exact circuits serve Z and Q
      std::vector<typename K::Element> in(x.size() * c_.model.alphabet.size(), k.zero());
      for (std::size_t t = 0; t < x.size(); ++t) in[t * c_.model.alphabet.size() + x[t]] = k.one();
      const auto out = evaluate(circ, k, std::span<const typename K::Element>(in));
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      const auto& y = out.at(c_.out_row * cols + c_.out_col);
      if (!k.equal(y, got))
        return Mismatch{k.to_string(got) + " (model)", k.to_string(y), "circuit"};
    }
    return std::nullopt;
  }

  // X with its parameters converted once per domain (rnn/evaluate.hpp, PreparedModel).
  template <Domain K>
  const PreparedModel<K>& prepared(const K& k) {
    if constexpr (std::is_same_v<K, ModP>) {
      if (!prepared_mod_) prepared_mod_.emplace(c_.model, k);
      return *prepared_mod_;
    } else {
      if (!prepared_q_) prepared_q_.emplace(c_.model, k);
      return *prepared_q_;
    }
  }

  const Circuit& circuit_for(std::size_t n, bool mod) {  // one per length (Z and Q share one)
    auto& cache = mod ? circuits_mod_ : circuits_rational_;
    auto it = cache.find(n);
    if (it == cache.end()) {
      TargetOptions o;  // arith, exact
      o.compile.acceptance = false;
      o.compile.scan = ScanKind::sklansky;
      it = cache.emplace(n, compile_model(c_.model, n, o).circuit).first;
      compiled_.emplace(n, mod);
    }
    return it->second;
  }

  const Construction& c_;
  const VerifyOptions& o_;
  std::optional<ModP> mod_;
  bool compilable_ = false;
  std::optional<std::size_t> first_over_budget_;
  std::map<std::size_t, Circuit> circuits_rational_, circuits_mod_;
  std::set<std::pair<std::size_t, bool>> compiled_;  // (length, mod) of every circuit compiled
  std::optional<PreparedModel<RationalField>> prepared_q_;
  std::optional<PreparedModel<ModP>> prepared_mod_;
};

// Strings of length n in lexicographic order of symbol ids: calls f until it returns true.
template <class F>
bool for_each_string(std::size_t sigma, std::size_t n, F&& f) {
  std::vector<std::size_t> w(n, 0);
  while (true) {
    if (f(w)) return true;
    std::size_t i = n;
    while (i > 0 && ++w[i - 1] == sigma) w[--i] = 0;
    if (i == 0) return false;
  }
}

double count_strings(std::size_t sigma, std::size_t n) {
  return std::pow(static_cast<double>(sigma), static_cast<double>(n));
}

std::string join(const Alphabet& a, const std::vector<std::size_t>& w) {
  return w.empty() ? "ε" : a.join(w);
}

// One run of verify(): the construction, the options, the report being written and the first
// failing string found. Each checking method is one member function, and verify() is the script
// that calls them in order; a method that finds a failing string hands it to record(), later
// methods skip once one is found, and shrink() minimizes it. A new method is one more member
// function (reading c_ and o_, writing report_.checked / notes, calling record()) and one more
// line in verify().
class Verification {
 public:
  Verification(const Construction& c, const VerifyOptions& o)
      : c_(c),
        o_(o),
        checker_(c, o),
        sigma_(c.target.alphabet),
        S_(sigma_.size()),
        seed_(o.seed ? *o.seed : shared_seed(o.ranks)) {
    report_.construction = c.name;
    report_.claims = c.claims;
    report_.seed = seed_;
    report_.seed_given = o.seed.has_value();
    report_.notes = c.notes;
    report_.spectral = spectral_report(c.model);
  }

  // prove: decide X ≡ f for every length where both are linear (docs/constructions.md,
  // "Proving for every length"). f = from_wfa(target.automaton); X = from_model(model) read
  // through encode's input map (input_map_from_encode, period encode_period), restricted to
  // the compared output (out_row, out_col); over F_p when the construction has a modulus.
  // Every symbol boundary of every string is compared, so a refutation is the shortest,
  // llex-least string whose last output differs (earlier prefixes agree): the same string the
  // exhaustive method finds first. A fixed-length target instead has the exhaustive method
  // enumerate its whole (finite) domain, which is a proof when it completes (domain_proof).
  void prove() {
    if (!o_.prove) return;
    // --k-induction chooses that proof (k_induction below) over the grammar's product search.
    if (c_.grammar && !o_.k_induction) prove_on_valid_encodings();
    if (c_.target.fixed_length) {
      const double total = count_strings(S_, *c_.target.fixed_length);
      // Decided on every valid encoding by the grammar: the domain is enumerated only when
      // asked (--exhaustive); random strings still cross-check the grammar against f.
      force_domain_ = !grammar_proved_ && total <= static_cast<double>(o_.exhaustive_cap);
      if (!force_domain_ && !grammar_proved_)
        report_.notes.push_back(
            fmt::format("no proof: the finite domain has {:.0f} strings, over the cap of {}", total,
                        o_.exhaustive_cap));
      return;
    }
    if (!c_.target.automaton) return;
    if (c_.target.promise) {
      report_.notes.push_back("no proof: f is claimed under a promise only");
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    LinearRepresentation f, x;
    bool certifiable = false;
    try {
      f = from_wfa(*c_.target.automaton);
      const LinearRepresentation full = from_model(c_.model);
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      x = select_outputs(full, {c_.out_row * cols + c_.out_col});
      const InputMapSpec map =
          input_map_from_encode(c_.target.alphabet.symbols(), c_.encode, c_.encode_period);
      // X reads f's symbols one token each, in the same order: no input map to compose, and
      // then (one LRNN layer, one output) the certificate checker can recompute X's states.
      bool identity = map.prefix.empty() && map.control.states == 1 &&
                      c_.model.alphabet.symbols() == c_.target.alphabet.symbols();
      for (std::size_t s = 0; identity && s < S_; ++s)
        identity = map.tokens[0][s] == std::vector<std::size_t>{s};
      certifiable = identity && full.outputs == 1 && c_.model.layers.size() == 1 &&
                    std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer);
      if (!identity) x = through_input_map(x, map);
      if (c_.modulus) f.modulus = x.modulus = *c_.modulus;
    } catch (const NotLinearError& e) {
      report_.notes.push_back(std::string("no proof: X is not linear in its state (") + e.what() +
                              "); tested only");
      return;
    } catch (const std::invalid_argument& e) {
      report_.notes.push_back(std::string("no proof: encode is not a sequential input map (") +
                              e.what() + "); tested only");
      return;
    }
    EquivalenceParams params;
    params.modulus = c_.modulus;
    params.certificate = o_.certificate;
    const EquivalenceResult r = decide_equivalence(f, x, params);
    Proof p;
    p.proved = r.equivalent;
    p.scope = "every length";
    p.method = r.method;
    p.field = r.modulus ? "F_p" : "Q";
    p.modulus = r.modulus;
    p.basis_size = r.basis_size;
    p.dim_f = r.dim_f;
    p.dim_x = r.dim_g;
    if (o_.timing)
      p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool one_layer =
        c_.model.layers.size() == 1 && std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer);
    if (o_.certificate && !certifiable && r.equivalent && one_layer && !r.coefficients.empty()) {
      // Through an input map: the input-map certificate (the checker composes the map itself).
      const std::size_t cols = output_cols(c_.model.layers.back().layer);
      p.certificate_json =
          json_text(
              input_map_certificate(
                  r, *c_.target.automaton, SubjectFile{"X: the model of " + c_.name, c_.model},
                  input_map_from_encode(c_.target.alphabet.symbols(), c_.encode, c_.encode_period),
                  c_.out_row * cols + c_.out_col),
              1) +
          "\n";
    } else if (o_.certificate && !certifiable)
      p.no_certificate =
          "the certificate checker recomputes one LRNN layer with one output reading f's "
          "symbols one token each; this model " +
          std::string(c_.model.layers.size() != 1
                          ? "has " + std::to_string(c_.model.layers.size()) + " layers"
                          : "reads its input through an input map or "
                            "has several outputs");
    else if (o_.certificate && !r.equivalent)
      p.no_certificate = "refuted: a counterexample, not a certificate";
    else if (o_.certificate) {
      const SubjectFile fa{"f: the target WFA of " + c_.name, *c_.target.automaton};
      const SubjectFile xm{"X: the model of " + c_.name, c_.model};
      p.certificate_json = json_text(equivalence_certificate(r, fa, xm), 1) + "\n";
    }
    if (!r.equivalent) {
      const EquivalenceCounterexample& ce = *r.counterexample;
      failing_ = {ce.input, "proof"};
      failing_mismatch_ = Mismatch{ce.expected.at(0), ce.got.at(0), "model"};
    }
    report_.proof = std::move(p);
  }

  // sat (--sat N): X computes f on every input of length ≤ N, by CaDiCaL on the miter of X's and
  // f's boolean circuits with its DRAT proof re-checked (verify/sat_proof.hpp), where prove
  // established nothing for every length. A satisfying assignment is a counterexample only once
  // the exact evaluators confirm it; it is then shrunk like any other.
  void sat() {
    if (!o_.sat_length) return;
    if (report_.proof) {
      report_.notes.push_back("--sat: not run, " +
                              std::string(report_.proof->proved ? "proved" : "refuted") +
                              " for every length already");
      return;
    }
    sat::SatOptions so;
    so.max_length = *o_.sat_length;
    so.width = o_.sat_width;
    const sat::SatOutcome s = sat::prove_by_sat(c_, so);
    if (s.verdict == sat::SatOutcome::Verdict::unavailable ||
        s.verdict == sat::SatOutcome::Verdict::inconclusive) {
      report_.notes.push_back("--sat " + std::to_string(so.max_length) + ": no proof (" + s.reason +
                              ")");
      return;
    }
    Proof p;
    p.proved = s.verdict == sat::SatOutcome::Verdict::proved;
    p.scope = fmt::format("every input of length ≤ {}{}", s.max_length,
                          c_.target.promise ? " in f's promise" : "");
    p.method = fmt::format("SAT: {}, DRAT proof checked", s.solver);
    if (!p.proved)
      p.method = fmt::format("SAT: {}, the model confirmed by exact evaluation", s.solver);
    p.field = "Q";  // the model's exact semantics over Q, every word's range proved (bitvec.hpp)
    p.detail = fmt::format("{} gates, {} variables, {} clauses, {}-bit words", s.gates, s.variables,
                           s.clauses, s.width);
    // The solver's proof size depends on its search (not only on the formula): a reproducible
    // report (--no-timing) leaves it out; JSON keeps it under proof.sat.drat.
    if (p.proved && o_.timing)
      p.detail += fmt::format(", {} lemmas checked ({} RAT), {} deletions", s.check.lemmas,
                              s.check.rat_lemmas, s.check.deletions);
    p.sat = {{"solver", s.solver},       {"max_length", s.max_length}, {"gates", s.gates},
             {"variables", s.variables}, {"clauses", s.clauses},       {"width", s.width},
             {"statement", s.statement}};
    if (p.proved)
      p.sat["drat"] = {{"checked", true},
                       {"lemmas", s.check.lemmas},
                       {"rat_lemmas", s.check.rat_lemmas},
                       {"deletions", s.check.deletions},
                       {"ignored_deletions", s.check.ignored_deletions},
                       {"bytes", s.proof_bytes}};
    if (o_.timing) {
      p.seconds = s.encode_seconds + s.solve_seconds + s.check_seconds;
      p.sat["seconds"] = {
          {"encode", s.encode_seconds}, {"solve", s.solve_seconds}, {"check", s.check_seconds}};
    }
    if (o_.certificate) p.no_certificate = "a SAT proof's DRAT file is checked, not kept";
    if (!p.proved) {
      failing_ = {s.counterexample, "sat"};
      failing_mismatch_ = Mismatch{s.expected, s.got, "model"};
    }
    report_.proof = std::move(p);
  }

  // prove_on_valid_encodings: the promise-restricted product search (verify/promise_search.hpp)
  // of X against the construction's encoding grammar: proved on every token string that
  // encodes an instance within the promise, or refuted on the shortest such encoding. Strings
  // the grammar rejects stay tested. Too many pairs: a note, and the other methods go on.
  void prove_on_valid_encodings() {
    const EncodingGrammar& g = *c_.grammar;
    const std::size_t cols = output_cols(c_.model.layers.back().layer);
    const std::size_t out = c_.out_row * cols + c_.out_col;
    PromiseSearchResult r;
    try {
      r = promise_search(c_.model, out, g, o_.certificate);
    } catch (const InputError& e) {
      report_.notes.push_back(std::string("no proof on valid encodings: ") + e.what());
      return;
    }
    Proof p;
    p.proved = r.proved;
    p.scope = "every string that encodes an instance (promise: " + g.promise + ")";
    p.method = "promise-restricted product search";
    p.field = "Q";  // exact rational outputs compared
    p.strings = r.comparisons;
    p.pairs = r.pairs;
    if (o_.timing) p.seconds = r.seconds;
    report_.notes.push_back(fmt::format(
        "promise-restricted product search: {} (grammar state, configuration) pairs, {} grammar "
        "states, {} configurations of X, {} transitions into a complete encoding compared; "
        "token strings that encode no instance are outside the claim",
        r.pairs, r.grammar_states, r.configurations, r.comparisons));
    if (o_.certificate && r.proved)
      p.certificate_json =
          json_text(
              promise_certificate(r, g, SubjectFile{"X: the model of " + c_.name, c_.model}, out),
              1) +
          "\n";
    else if (o_.certificate)
      p.no_certificate = "refuted: a counterexample, not a certificate";
    if (!r.proved) {
      const std::vector<std::size_t> w = g.decode(*r.counterexample);
      failing_ = {w, "proof"};
      failing_mismatch_ = Mismatch{to_string(r.expected), to_string(r.got), "model"};
      report_.notes.push_back("the shortest failing encoding (llex-least of its length): " +
                              c_.model.alphabet.join(*r.counterexample));
    }
    report_.proof = std::move(p);
    grammar_proved_ = true;
  }

  // k_induction (--k-induction K): X computes f on every input, by k-induction over the
  // recurrent state with Z3 (verify/k_induction.hpp), where nothing before proved it. A failed
  // base or step is reported (with its counterexample to induction) and the verdict stays what
  // testing finds.
  void k_induction() {
    if (!o_.k_induction) return;
    if (report_.proof) {
      report_.notes.push_back("--k-induction: not run, " +
                              std::string(report_.proof->proved ? "proved" : "refuted") +
                              " already");
      return;
    }
    kind::InductionOutcome s;
    try {
      s = kind::prove_by_k_induction(c_, *o_.k_induction);
    } catch (const std::exception& e) {  // Z3 answered unknown, or threw: no proof, say why
      s.verdict = kind::InductionOutcome::Verdict::failed;
      s.reason = e.what();
    }
    if (s.verdict != kind::InductionOutcome::Verdict::proved) {
      std::string note =
          "--k-induction " + std::to_string(*o_.k_induction) + ": no proof (" + s.reason + ")";
      if (!s.counterexample.empty()) note += ": " + s.counterexample;
      report_.notes.push_back(note);
      return;
    }
    // The finite domain was too large to enumerate: say so without "no proof".
    for (std::string& note : report_.notes)
      if (note.rfind("no proof: the finite domain", 0) == 0)
        note = "not enumerated (k-induction proved it instead): " + note.substr(10);
    Proof p;
    p.proved = true;
    p.scope = "every input in f's promise (edge blocks of any number and order)";
    p.method = fmt::format("k-induction over the recurrent state, k = {}, {}", s.k, s.solver);
    p.field = "Q";  // the model's exact step over Q (Z3 reals), f's state over Z3 integers
    p.detail = fmt::format("invariant: {}; assumed: {}; {} queries unsat", s.invariant, s.assumed,
                           s.queries);
    p.induction = {{"solver", s.solver},
                   {"k", s.k},
                   {"invariant", s.invariant},
                   {"assumed", s.assumed},
                   {"queries", s.queries}};
    if (o_.timing) {
      p.seconds = s.seconds;
      p.induction["seconds"] = s.seconds;
    }
    if (o_.certificate) p.no_certificate = "a k-induction proof by Z3 has no certificate";
    report_.proof = std::move(p);
  }

  // domain_proof: the exhaustive method enumerated a fixed-length target's whole domain (on the
  // CPU, or on the GPU with every agreement proved exact): X computes f on all of it.
  void domain_proof() {
    if (!force_domain_ || !domain_complete_) return;
    if (grammar_proved_) {  // the grammar's proof stands; the enumeration confirms it
      report_.notes.push_back("the exhaustive method also checked every string of the domain");
      return;
    }
    if (report_.proof && !report_.proof->induction.is_null() &&
        !failing_) {  // k-induction proved it
      report_.notes.push_back("also proved by enumerating the finite domain");
      return;
    }
    Proof p;
    p.proved = !failing_;
    p.scope = "the finite domain (length " + std::to_string(*c_.target.fixed_length) + ")";
    p.method = "exhaustive over the finite domain";
    p.finite_domain = true;
    p.field = c_.modulus ? "F_p" : "Q";  // every value compared exactly (or mod p)
    p.modulus = c_.modulus;
    const auto it = report_.checked.find(gpu_ ? "exhaustive (gpu)" : "exhaustive");
    p.strings = it == report_.checked.end() ? 0 : it->second;
    if (o_.certificate)
      p.no_certificate = "a finite domain is proved by enumeration, which has no certificate";
    report_.proof = std::move(p);
  }

  // minimal_state_size: for a model linear in its state with per-step readouts (one LRNN
  // layer), the claim "state size d vs minimal d_min": d_min is the dimension of the reduction
  // of X (verify/minimize.hpp), the least of an LRNN computing X's function on nonempty token
  // strings (an upper bound with per-token readouts). d_min ≤ d always holds.
  void minimal_state_size() {
    try {
      const LinearRepresentation rep = from_model(c_.model);
      if (rep.readout.empty()) return;    // a product with a finite control
      const std::size_t d = rep.dim - 1;  // from_lrnn_layer: [vec(S), 1]
      const MinimizeResult m = minimize(rep, c_.name);
      report_.claims.push_back({"state size d vs minimal d_min", "d = " + std::to_string(d),
                                "d_min = " + std::to_string(m.dimension), m.dimension <= d});
    } catch (const InputError&) {  // NotLinearError and kin: no such claim
    } catch (const DomainError&) {
    }
  }

  // gpu (--device gpu): whether the GPU takes the exhaustive and random methods — it needs a
  // device and the construction's check circuit (verify/device_check.hpp); else a note says why
  // and the CPU runs them.
  void choose_device() {
    if (!o_.gpu) return;
    const gpu::DeviceInfo dev = gpu::probe();
    std::string why;
    const std::size_t n0 = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    if (!dev.available)
      why = dev.why_not;
    else if (!build_check_circuit(c_, n0, &why))
      why = "no check circuit: " + why;
    gpu_ = why.empty();
    if (!gpu_) report_.notes.push_back("--device gpu: " + why + "; the CPU ran the checks instead");
  }

  // exhaustive: every string of length 1..L (a fixed-length domain: every string of that
  // length), in (length, lex) order, so the first failure is already minimal. The model has
  // outputs at positions 1..n only, hence non-empty strings (ε only as the fixed-length domain
  // of a constant formula). InputError when the strings exceed the (CPU or GPU) cap.
  void exhaustive() {
    if ((!o_.exhaustive && !force_domain_) || failing_) return;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    const std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : *o_.exhaustive;
    // Summed only until far past any cap: --exhaustive 10^18 must be refused, not looped over.
    double total = S_ == 1 ? static_cast<double>(hi - lo + 1) : 0;
    for (std::size_t n = lo; S_ != 1 && n <= hi && total < 1e30; ++n) total += count_strings(S_, n);
    const double cap =
        gpu_ ? static_cast<double>(o_.gpu_exhaustive_cap) : static_cast<double>(o_.exhaustive_cap);
    if (total > cap)
      throw InputError(
          "--exhaustive",
          fmt::format("{:.0f} strings (|Σ| = {}, lengths {}..{}) exceed the {}cap of {:.0f}", total,
                      S_, lo, hi, gpu_ ? "GPU " : "", cap));
    if (o_.ranks) return exhaustive_sharded(lo, hi);
    if (gpu_) {
      std::uint64_t count = 0;
      DeviceSummary summary;
      for (std::size_t n = lo; n <= hi && !failing_; ++n) {
        DeviceCheckOptions d;
        d.length = n;
        d.threads = o_.gpu_threads;
        count += on_device(d, "exhaustive (gpu)", summary);
      }
      summarize("exhaustive (gpu)", summary);
      report_.checked["exhaustive (gpu)"] = count;
      domain_complete_ = summary.all_exact && !summary.modulus;
      covered("exhaustive (gpu)", lo, hi);
      return;
    }
    std::size_t count = 0;
    ProgressTask task(progress(), "exhaustive", static_cast<std::uint64_t>(total), "strings");
    std::optional<PrefixSubject> subject;  // prefix sharing where no per-string circuit runs
    if (!c_.target.fixed_length) subject = prefix_subject(c_);
    std::optional<ModelWalkSubject> walk;  // nonlinear and hybrid models: the model walk
    if (!subject) walk = model_walk_subject(c_);
    std::size_t shared_lo = 0, shared_hi = 0, walked_lo = 0, walked_hi = 0;
    for (std::size_t n = lo; n <= hi && !failing_; ++n) {
      const bool circuit =
          o_.three_way && checker_.compilable() &&
          c_.encode(std::vector<std::size_t>(n, 0)).size() <= o_.three_way_max_tokens;
      if (subject && !circuit && !prefix_not_applicable(*subject, n)) {
        PrefixCheckOptions po;
        po.length = n;
        const DeviceCheckReport r = prefix_check(*subject, po);
        if (!shared_lo) shared_lo = n;
        shared_hi = n;
        if (r.first_counterexample) {
          std::uint64_t index = 0;  // strings up to the failure, as the loop below counts
          for (std::size_t x : *r.first_counterexample) index = index * S_ + x;
          count += index + 1;
          if (!record(*r.first_counterexample, "exhaustive", o_.three_way))
            report_.notes.push_back("prefix sharing reported a mismatch on " +
                                    join(sigma_, *r.first_counterexample) +
                                    " that the CPU does not reproduce");
        } else {
          count += r.strings;
        }
        task.set(count);
        continue;
      }
      if (walk && !circuit && !model_walk_not_applicable(*walk, n)) {
        ModelWalkOptions mo;
        mo.length = n;
        const DeviceCheckReport r = model_walk_check(*walk, mo);
        // Strings that overflowed 64 bits were not compared: the length goes string by string.
        if (r.overflowed == 0) {
          if (!walked_lo) walked_lo = n;
          walked_hi = n;
          count += r.strings - r.skipped;
          outside_promise_ += r.skipped;
          task.set(count);
          if (r.first_counterexample &&
              !record(*r.first_counterexample, "exhaustive", o_.three_way))
            report_.notes.push_back("the model walk reported a mismatch on " +
                                    join(sigma_, *r.first_counterexample) +
                                    " that the CPU does not reproduce");
          continue;
        }
        report_.notes.push_back(fmt::format(
            "exhaustive: length {}: {} strings overflowed 64 bits in the model walk; the length "
            "was checked string by string in exact arithmetic",
            n, r.overflowed));
      }
      for_each_string(S_, n, [&](const std::vector<std::size_t>& w) {
        count += in_domain(w);
        task.add();
        return record(w, "exhaustive", o_.three_way);
      });
    }
    if (shared_lo)
      report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", shared_lo,
                                          shared_hi, kPrefixMethod));
    if (walked_lo)
      report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", walked_lo,
                                          walked_hi, kModelWalkMethod));
    report_.checked["exhaustive"] = count;
    domain_complete_ = true;
    covered("exhaustive", lo, hi);
  }

  // The exhaustive method sharded (VerifyOptions::ranks; algebra/sharded_run.hpp). Blocks are
  // slices [first, first + count) of Σ^n in lex order, n = lo..hi, of a size fixed by the path
  // that checks length n (the GPU: 2^26 strings; prefix sharing: 2^20; string by string: 2^12),
  // so the plan is the same on every rank and for any R. A block is checked without touching
  // the run's state and returns its figures and its first failure (the CPU checker confirms a
  // failure the GPU or prefix sharing reports); the fold, on every rank, adds the figures in
  // block order and records the first failure — the (length, lex)-least failing string, as the
  // unsharded method finds it. Which path runs is rank 0's choice (a rank without the GPU runs
  // the GPU's blocks with the device program's CPU twin).
  void exhaustive_sharded(std::size_t lo, std::size_t hi) {
    enum class Path { plain, prefix, device };
    struct Block {
      std::size_t n;
      std::uint64_t first, count;
      Path path;
    };
    gpu_ = o_.ranks->broadcast(gpu_ ? "1" : "0") == "1";
    const bool local_gpu = gpu_ && gpu::probe().available;
    std::optional<PrefixSubject> subject;
    if (!c_.target.fixed_length && !gpu_) subject = prefix_subject(c_);
    std::vector<Block> blocks;
    for (std::size_t n = lo; n <= hi; ++n) {
      std::uint64_t strings = 1;
      for (std::size_t i = 0; i < n; ++i) strings *= S_;  // ≤ the cap (checked above)
      Path path = Path::plain;
      if (gpu_) {
        path = Path::device;
      } else {
        const bool circuit =
            o_.three_way && checker_.compilable() &&
            c_.encode(std::vector<std::size_t>(n, 0)).size() <= o_.three_way_max_tokens;
        if (subject && !circuit && !prefix_not_applicable(*subject, n)) path = Path::prefix;
      }
      const std::uint64_t size = path == Path::device   ? std::uint64_t{1} << 26
                                 : path == Path::prefix ? std::uint64_t{1} << 20
                                                        : std::uint64_t{1} << 12;
      for (std::uint64_t f = 0; f < strings; f += size)
        blocks.push_back({n, f, std::min(size, strings - f), path});
    }
    auto string_at = [&](std::size_t n, std::uint64_t index) {
      std::vector<std::size_t> w(n);
      for (std::size_t i = n; i-- > 0; index /= S_) w[i] = static_cast<std::size_t>(index % S_);
      return w;
    };
    auto index_of = [&](const std::vector<std::size_t>& w) {
      std::uint64_t index = 0;
      for (std::size_t x : w) index = index * S_ + x;
      return index;
    };
    // Confirmed by the CPU checker without recording (the fold records it on every rank).
    auto confirmed = [&](const std::vector<std::size_t>& w) {
      return in_domain(w) && checker_.check(w, o_.three_way).has_value();
    };
    ShardedRunOptions so;
    so.blocks = blocks.size();
    so.checkpoint = o_.checkpoint;
    so.progress = o_.progress;
    so.progress_label = "exhaustive";
    so.job =
        fmt::format("verify {} ({}): exhaustive lengths {}..{}, {} blocks, {}{}", c_.name, o_.job,
                    lo, hi, blocks.size(), gpu_ ? "gpu" : "cpu", o_.three_way ? ", three-way" : "");
    const ShardedRunResult run = run_sharded(*o_.ranks, so, [&](std::uint64_t b) {
      const Block& k = blocks[b];
      nlohmann::json j;
      std::optional<std::uint64_t> fail, unconfirmed;
      std::uint64_t strings = 0, outside = 0;
      if (k.path == Path::plain) {
        std::vector<std::size_t> w = string_at(k.n, k.first);
        for (std::uint64_t i = 0; i < k.count; ++i) {
          if (!in_domain(w)) {
            ++outside;
          } else {
            ++strings;
            if (checker_.check(w, o_.three_way)) {
              fail = k.first + i;
              break;
            }
          }
          std::size_t at = k.n;  // the next string in lex order
          while (at > 0 && ++w[at - 1] == S_) w[--at] = 0;
        }
      } else {
        DeviceCheckReport r;
        if (k.path == Path::prefix) {
          PrefixCheckOptions po;
          po.length = k.n;
          po.first = k.first;
          po.count = k.count;
          r = prefix_check(*subject, po);
        } else {
          DeviceCheckOptions d;
          d.length = k.n;
          d.first = k.first;
          d.count = k.count;
          d.threads = o_.gpu_threads;
          d.device = local_gpu ? CheckDevice::gpu : CheckDevice::cpu;
          r = device_check(c_, d);
          j["device"] = r.device;
          j["prefix"] = r.method == kPrefixMethod;
          j["mismatches"] = r.mismatches;
          j["primes"] = r.primes.size();
          j["float_proof"] = r.float_proof;
          j["exact"] = r.exact;
          if (std::isfinite(r.log2_bound)) j["log2_bound"] = r.log2_bound;  // else −∞: absent
          j["kernel_seconds"] = r.kernel_seconds;
          j["work"] = r.gate_evaluations_per_second * r.kernel_seconds;
          if (r.modulus) j["modulus"] = *r.modulus;
        }
        strings = r.strings;
        if (r.first_counterexample) {
          const std::uint64_t index = index_of(*r.first_counterexample);
          if (confirmed(*r.first_counterexample)) {
            fail = index;
            if (k.path == Path::prefix) strings = index - k.first + 1;
          } else {
            unconfirmed = index;
          }
        }
      }
      j["strings"] = strings;
      j["outside"] = outside;
      nlohmann::json compiled = nlohmann::json::array();
      for (const auto& [n, mod] : checker_.compiled()) compiled.push_back({n, mod});
      j["compiled"] = compiled;
      if (checker_.first_over_budget()) j["over_budget"] = *checker_.first_over_budget();
      if (fail) j["fail"] = *fail;
      if (unconfirmed) j["unconfirmed"] = *unconfirmed;
      return BlockResult{j.dump(), fail.has_value()};
    });
    const std::string method = gpu_ ? "exhaustive (gpu)" : "exhaustive";
    std::uint64_t count = 0;
    DeviceSummary summary;
    std::size_t shared_lo = 0, shared_hi = 0;
    for (std::size_t b = 0; b < run.payloads.size(); ++b) {
      const Block& k = blocks[b];
      const nlohmann::json j = nlohmann::json::parse(run.payloads[b]);
      count += j.at("strings").get<std::uint64_t>();
      outside_promise_ += j.at("outside").get<std::size_t>();
      std::set<std::pair<std::size_t, bool>> compiled;
      for (const auto& x : j.at("compiled"))
        compiled.emplace(x.at(0).get<std::size_t>(), x.at(1).get<bool>());
      checker_.merge(compiled, j.contains("over_budget")
                                   ? std::optional(j.at("over_budget").get<std::size_t>())
                                   : std::nullopt);
      if (k.path == Path::prefix) {
        if (!shared_lo) shared_lo = k.n;
        shared_hi = k.n;
      }
      if (k.path == Path::device) {
        if (summary.runs == 0) summary.lo = k.n;
        if (k.first == 0) ++summary.runs;
        summary.hi = k.n;
        summary.device = j.at("device").get<std::string>();
        if (j.contains("modulus")) summary.modulus = j.at("modulus").get<std::uint64_t>();
        summary.prefix_runs += k.first == 0 && j.at("prefix").get<bool>();
        summary.strings += j.at("strings").get<std::uint64_t>();
        summary.mismatches += j.at("mismatches").get<std::uint64_t>();
        summary.max_primes = std::max(summary.max_primes, j.at("primes").get<std::size_t>());
        summary.float_proofs += k.first == 0 && j.at("float_proof").get<bool>();
        summary.all_exact = summary.all_exact && j.at("exact").get<bool>();
        if (j.contains("log2_bound"))
          summary.max_log2_bound =
              std::max(summary.max_log2_bound, j.at("log2_bound").get<double>());
        summary.work_seconds += j.at("kernel_seconds").get<double>();
        summary.work += j.at("work").get<double>();
      }
      if (j.contains("unconfirmed"))
        report_.notes.push_back(
            fmt::format("{} reported a mismatch on {} that the CPU does not reproduce",
                        k.path == Path::device ? "the GPU" : "prefix sharing",
                        join(sigma_, string_at(k.n, j.at("unconfirmed").get<std::uint64_t>()))));
      if (j.contains("fail"))
        record(string_at(k.n, j.at("fail").get<std::uint64_t>()), method, o_.three_way);
    }
    report_.sharding = fmt::format("exhaustive: {} blocks over {}, {} resumed from the checkpoint",
                                   blocks.size(), describe(*o_.ranks), run.resumed);
    if (gpu_) {
      summarize(method, summary);
      domain_complete_ = summary.all_exact && !summary.modulus;
    } else {
      if (shared_lo)
        report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", shared_lo,
                                            shared_hi, kPrefixMethod));
      domain_complete_ = true;
    }
    report_.checked[method] = count;
    covered(method, lo, hi);
  }

  // random: `random` seeded strings, lengths uniform in 1..max with a third of them at the
  // maximum (on the GPU: `random` strings at every length 1..max).
  void random() {
    const std::size_t wanted = report_.proof && report_.proof->proved && o_.random_after_proof
                                   ? std::min(o_.random, *o_.random_after_proof)
                                   : o_.random;
    if (wanted == 0 || failing_) return;
    if (gpu_) {
      std::uint64_t count = 0;
      DeviceSummary summary;
      const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
      const std::size_t hi =
          c_.target.fixed_length ? *c_.target.fixed_length : o_.max_random_length;
      for (std::size_t n = lo; n <= hi && !failing_; ++n) {
        DeviceCheckOptions d;
        d.length = n;
        d.exhaustive = false;
        d.random = wanted;
        d.seed = seed_ * 0x9E3779B97F4A7C15ull + n;
        d.threads = o_.gpu_threads;
        count += on_device(d, "random (gpu)", summary);
      }
      summarize("random (gpu)", summary);
      report_.checked["random (gpu)"] = count;
      covered("random (gpu)", lo, hi);
      return;
    }
    std::mt19937_64 rng(seed_);
    std::size_t count = 0, shortest = SIZE_MAX, longest = 0;
    ProgressTask task(progress(), "random", wanted, "strings");
    for (std::size_t i = 0; i < wanted && !failing_; ++i) {
      task.set(i);
      std::size_t n = c_.target.fixed_length ? *c_.target.fixed_length
                      : (i % 3 == 2)         ? o_.max_random_length
                                     : 1 + rng() % std::max<std::size_t>(1, o_.max_random_length);
      std::vector<std::size_t> w(n);
      for (auto& s : w) s = rng() % S_;
      count += in_domain(w);
      shortest = std::min(shortest, n);
      longest = std::max(longest, n);
      record(w, "random", o_.three_way);
    }
    report_.checked["random"] = count;
    if (longest > 0) covered("random", shortest, longest);
  }

  // The strings exhaustive and random skipped because they lie outside the target's promise.
  void count_skipped() {
    if (outside_promise_ > 0) report_.checked["skipped (outside the promise)"] = outside_promise_;
  }

  // three-way: every string the methods above checked was also run through X's compiled
  // arithmetic circuit (Checker::check); this reports how many lengths were compiled, or why
  // none could be.
  void three_way() {
    if (report_.proof && !report_.proof->proved && !report_.proof->finite_domain)
      return;  // refuted by the decision: no string was run
    if (o_.three_way && !checker_.compilable())
      report_.notes.push_back(
          "three-way agreement skipped: no arithmetic circuit for this model (compile_model's "
          "arith routes: LRNN stacks, one Elman layer, LRNN layers under one hard-attention "
          "layer)");
    else if (o_.three_way)
      report_.checked["three-way (lengths compiled)"] = checker_.circuits_compiled();
    if (o_.three_way && checker_.first_over_budget())
      report_.notes.push_back(fmt::format(
          "three-way agreement skipped from length {} on: compiling X there takes ≈ {:.1e} "
          "multiply-adds, over the limit of {:.1e} (VerifyOptions::three_way_max_work)",
          *checker_.first_over_budget(), checker_.compile_work(*checker_.first_over_budget()),
          o_.three_way_max_work));
  }

  // identity: polynomial identity testing over F_p, p a prime drawn from [2^61, 2^62) by the
  // seed, of f's circuit against X's compiled circuit (dense structure: A(x) = Σ_σ x_σ A_σ) for
  // n = 1..identity_max_length, at `identity_rounds` random points of the variety
  // Σ_σ x[t,σ] = 1 (every t). Applies when X reads one token per symbol (an embedding), f is a
  // circuit and X is one LRNN layer with a token-independent readout — and only where both
  // circuits are checked to have degree ≤ 1 in every position's block of inputs; otherwise it
  // is declined with a note. A length that passes adds (deg_n/p)^K (Schwartz–Zippel over the
  // points) + ⌊b_n/61⌋/N (the chance that the random prime divides the nonzero numerator of some
  // X(w) − f(w), of at most b_n bits) to the error bound; a length that fails adds nothing, and
  // no bound is printed once one fails. A differing point proves X ≠ f on some string of that
  // length: the witness is found by fixing positions one by one (witness()).
  void identity() {
    if (o_.identity_rounds == 0 || failing_) return;
    const bool single_lrnn = c_.model.layers.size() == 1 &&
                             std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer) &&
                             std::get<LrnnLayer>(c_.model.layers[0].layer).readout_feature.empty();
    if (!c_.embedding || !c_.target.circuit || !single_lrnn || c_.modulus) {
      report_.notes.push_back(
          "identity test not applicable: it needs X to read one token per symbol (an embedding), "
          "f as a circuit, and a single LRNN layer with a token-independent readout, so that both "
          "circuits are affine in each position's indicators");
      return;
    }
    std::mt19937_64 rng(seed_ ^ 0x5DEECE66Dull);
    IdentityScope scope;
    scope.prime = random_identity_prime(rng);
    scope.rounds = o_.identity_rounds;
    const ModP F(scope.prime);
    const double p = static_cast<double>(scope.prime);
    double bound = 0;
    std::size_t points = 0;
    bool failed = false;
    ProgressTask task(progress(), "identity test", o_.identity_max_length, "lengths");
    for (std::size_t n = 1; n <= o_.identity_max_length && !failing_ && !failed; ++n) {
      task.set(n - 1);
      IdentityProbe probe{c_.target.circuit(n), {}, c_.embedding(n), F, 0};
      CompileOptions co;
      co.acceptance = false;
      co.scan = ScanKind::brent_kung;
      co.structure = Structure::dense;  // A(x) = Σ_σ x_σ A_σ: affine in the block (PD's P·D is not)
      probe.x =
          compile_lrnn(c_.model, probe.embedding.size() / c_.model.alphabet.size(), co).circuit;
      probe.out = c_.out_row * output_cols(c_.model.layers.back().layer) + c_.out_col;
      std::vector<std::vector<std::size_t>> f_blocks(probe.f.inputs().size()), x_blocks;
      for (std::size_t i = 0; i < f_blocks.size(); ++i) f_blocks[i] = {i / S_};
      std::vector<HeightBound> x_inputs;
      for (const InputSource& src : probe.embedding) {
        auto& blocks = x_blocks.emplace_back();
        for (std::uint32_t v : src.variables) blocks.push_back(v / S_);
        HeightBound h = height_of(src.constant);  // |constant + Σ vars| on one-hot inputs
        h.log_num =
            log2_sum(h.log_num, std::log2(static_cast<double>(src.variables.size())) + h.log_den);
        x_inputs.push_back(h);
      }
      if (max_block_degree(probe.f, f_blocks, n) > 1 ||
          max_block_degree(probe.x, x_blocks, n) > 1) {
        report_.notes.push_back(fmt::format(
            "identity test declined from n = {}: a circuit has degree > 1 in one position's block "
            "of inputs, so agreeing on the variety Σ_σ x[t,σ] = 1 is not the same as agreeing on "
            "one-hot inputs (the argument of docs/constructions.md, \"Identity testing\")",
            n));
        break;
      }
      std::optional<std::pair<std::uint64_t, std::uint64_t>> differing;
      try {
        for (std::size_t round = 0; round < o_.identity_rounds && !differing; ++round) {
          ++points;
          differing = probe.differs(random_point(rng, F, n, {}));
        }
      } catch (const DomainError& e) {
        report_.notes.push_back(fmt::format("identity test: length {} skipped: {}", n, e.what()));
        continue;
      }
      if (!differing) {
        const HeightBound hf =
            output_height(probe.f, std::vector<HeightBound>(f_blocks.size(), HeightBound{0, 0}), 0);
        const HeightBound hx = output_height(probe.x, x_inputs, probe.out);
        // |den_x·den_f·(X − f)| ≤ num_x·den_f + num_f·den_x: the bits b_n of an integer the prime
        // must divide for X(w) ≢ f(w) to vanish mod p.
        const double bits = log2_sum(hx.log_num + hf.log_den, hf.log_num + hx.log_den);
        bound += std::pow(static_cast<double>(std::max(degree(probe.f), degree(probe.x))) / p,
                          static_cast<double>(o_.identity_rounds)) +
                 std::floor(std::max(bits, 0.0) / kPrimeBits) / kPrimesInRange;
        scope.lengths_passed.push_back(n);
        continue;
      }
      failed = true;
      report_.notes.push_back(fmt::format(
          "identity test: the circuits differ at a random point for n = {} (f = {}, X = {} mod "
          "p), so X ≠ f on some string of length {}; searching for it",
          n, differing->first, differing->second, n));
      witness(probe, rng, n, points);
    }
    report_.checked["identity (points)"] = points;
    if (!scope.lengths_passed.empty())
      covered("identity", scope.lengths_passed.front(), scope.lengths_passed.back());
    if (!failed && !failing_ && !scope.lengths_passed.empty())
      report_.error_bound = fmt::format(
          "{:.3g} (Schwartz–Zippel over {} random points per length and the random prime p = {} "
          "from [2^61, 2^62), lengths {}..{})",
          bound, o_.identity_rounds, scope.prime, scope.lengths_passed.front(),
          scope.lengths_passed.back());
    if (report_.error_bound && report_.seed_given)
      report_.notes.push_back(
          "the seed was given (--seed): the identity error bound is a probability over random "
          "choices that the seed fixes, so it does not apply to a model chosen by someone who "
          "knows the seed (without --seed the seed is drawn from std::random_device)");
    report_.identity = std::move(scope);
  }

  // shrinking: the first failing string becomes the shortest, then lexicographically least,
  // failing string — exactly, by enumeration in that order, when the search space is under
  // shrink_cap (exhaustive failures are minimal already); greedily otherwise (delete symbols,
  // then lower them, while it still fails; the report says "locally minimal") — and is reported
  // with X's state trace on its encoding.
  void shrink() {
    if (!failing_) return;
    // Two variables, not a structured binding: clang 14 cannot capture one in a lambda.
    auto w = failing_->first;
    const auto method = failing_->second;
    Counterexample ce;
    ce.found_by = method;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    double space = 0;
    for (std::size_t n = lo; n <= w.size(); ++n) space += count_strings(S_, n);
    // exhaustive: (length, lex) order; proof: the decider's shortest, llex-least string
    const bool minimal_already = method.rfind("exhaustive", 0) == 0 || method == "proof";
    if (!minimal_already && space <= static_cast<double>(o_.shrink_cap)) {
      bool found = false;
      for (std::size_t n = lo; n <= w.size() && !found; ++n)
        found = for_each_string(S_, n, [&](const std::vector<std::size_t>& cand) {
          if (in_domain(cand) && checker_.check(cand, false)) {
            w = cand;
            return true;
          }
          return false;
        });
    } else if (!minimal_already) {
      ce.minimal = false;
      bool progress = true;
      while (progress) {
        progress = false;
        for (std::size_t i = 0; i < w.size() && w.size() > 1 && !c_.target.fixed_length; ++i) {
          auto cand = w;
          cand.erase(cand.begin() + static_cast<long>(i));
          if (in_domain(cand) && checker_.check(cand, false)) {
            w = cand;
            progress = true;
            break;
          }
        }
        for (std::size_t i = 0; i < w.size() && !progress; ++i)
          for (std::size_t s = 0; s < w[i] && !progress; ++s) {
            auto cand = w;
            cand[i] = s;
            if (in_domain(cand) && checker_.check(cand, false)) {
              w = cand;
              progress = true;
            }
          }
      }
    }
    const auto m = checker_.check(w, true).value_or(*failing_mismatch_);
    ce.input = w;
    ce.input_text = join(sigma_, w);
    ce.expected = m.expected;
    ce.got = m.got;
    ce.disagreeing = m.disagreeing;
    ce.trace = trace_of(w);
    ce.position = w.size();
    if (ce.disagreeing == "model") ce.verdict = verdict_difference(w);
    report_.counterexample = std::move(ce);
  }

  // claims: the verdict — holds when no method found a counterexample and every claim the
  // construction makes was measured ok.
  // The report says what was tested: the methods and lengths covered (TestedScope), set when no
  // counterexample was found — testing is never reported as a proof for every length.
  VerifyReport verdict() {
    report_.holds = !report_.counterexample && !refuted_ &&
                    std::all_of(report_.claims.begin(), report_.claims.end(),
                                [](const Claim& cl) { return cl.ok; });
    if (!report_.counterexample && !refuted_) {
      if (const auto it = report_.checked.find("three-way (lengths compiled)");
          it != report_.checked.end() && it->second > 0)
        tested_.methods.push_back("three-way");
      report_.tested = std::move(tested_);
    }
    return std::move(report_);
  }

 private:
  // GPU runs, one per length, summarized in one note per method.
  struct DeviceSummary {
    std::size_t lo = 0, hi = 0;
    std::uint64_t strings = 0, mismatches = 0;
    std::size_t max_primes = 0, float_proofs = 0, runs = 0;
    bool all_exact = true;
    double max_log2_bound = -INFINITY, work_seconds = 0, work = 0;
    std::string device;
    std::optional<std::uint64_t> modulus;
    std::size_t prefix_runs = 0;  // lengths checked by prefix sharing (verify/prefix_check.hpp)
  };

  static std::uint64_t drawn_seed() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  // Sharded: rank 0's drawn seed on every rank, so every rank checks the same random strings.
  static std::uint64_t shared_seed(Ranks* ranks) {
    const std::uint64_t mine = drawn_seed();
    return ranks ? std::stoull(ranks->broadcast(std::to_string(mine))) : mine;
  }

  // Records that `method` checked lengths lo..hi (TestedScope).
  void covered(const std::string& method, std::size_t lo, std::size_t hi) {
    tested_.methods.push_back(method);
    tested_.lengths[method] = {lo, hi};
    tested_.max_length = std::max(tested_.max_length, hi);
    if (c_.target.fixed_length && method.rfind("exhaustive", 0) == 0) tested_.complete = true;
  }

  // Identity testing at one length: f's circuit and X's compiled circuit, X's inputs as linear
  // forms in f's (the embedding), over F_p.
  struct IdentityProbe {
    Circuit f, x;
    std::vector<InputSource> embedding;
    ModP F;
    std::size_t out = 0;  // X's output compared
    // (f, X) at the point u of f's inputs, when they differ.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> differs(
        const std::vector<std::uint64_t>& u) const {
      std::vector<std::uint64_t> v;
      v.reserve(embedding.size());
      for (const InputSource& src : embedding) {
        std::uint64_t value = F.from_rational(src.constant);
        for (std::uint32_t var : src.variables) value = F.add(value, u[var]);
        v.push_back(value);
      }
      const auto fy = evaluate(f, F, std::span<const std::uint64_t>(u)).at(0);
      const auto xy = evaluate(x, F, std::span<const std::uint64_t>(v)).at(out);
      if (fy == xy) return std::nullopt;
      return std::pair{fy, xy};
    }
  };

  // A point of f's inputs for length n: position t < |prefix| one-hot at prefix[t], the others
  // uniform on Σ_σ u[t,σ] = 1 (free coordinates uniform in F_p, by rejection).
  std::vector<std::uint64_t> random_point(std::mt19937_64& rng, const ModP& F, std::size_t n,
                                          const std::vector<std::size_t>& prefix) const {
    std::vector<std::uint64_t> u(n * S_, 0);
    for (std::size_t t = 0; t < n; ++t) {
      if (t < prefix.size()) {
        u[t * S_ + prefix[t]] = 1;
        continue;
      }
      std::uint64_t rest = 0;
      for (std::size_t s = 1; s < S_; ++s) {
        std::uint64_t r = rng() >> 2;
        while (r >= F.modulus()) r = rng() >> 2;
        u[t * S_ + s] = r;
        rest = F.add(rest, r);
      }
      u[t * S_] = F.sub(F.one(), rest);
    }
    return u;
  }

  // The circuits differ at a point of length n, so (both affine per block) X ≠ f on a string of
  // length n. Fix positions one at a time: with w₁..w_{t−1} fixed, the difference restricted to
  // the variety is Σ_σ u[t,σ]·D(w₁..w_{t−1}, e_σ, …), so some σ keeps it nonzero; the least σ
  // that differs at a random point is taken (n·|Σ| points in all). A string that fails is
  // recorded (and shrunk later). If this finds none, the strings of length n are enumerated —
  // within exhaustive_cap; beyond it the verdict fails with a note and no witness.
  void witness(const IdentityProbe& probe, std::mt19937_64& rng, std::size_t n,
               std::size_t& points) {
    std::vector<std::size_t> w;
    for (std::size_t t = 0; t < n; ++t) {
      std::optional<std::size_t> next;
      for (std::size_t s = 0; s < S_ && !next; ++s) {
        std::vector<std::size_t> prefix = w;
        prefix.push_back(s);
        ++points;
        if (probe.differs(random_point(rng, probe.F, n, prefix))) next = s;
      }
      if (!next) break;
      w.push_back(*next);
    }
    if (w.size() == n && record(w, "identity", false)) return;
    const double strings = count_strings(S_, n);
    if (strings <= static_cast<double>(o_.exhaustive_cap)) {
      std::size_t enumerated = 0;
      const bool found = for_each_string(S_, n, [&](const std::vector<std::size_t>& cand) {
        ++enumerated;
        return record(cand, "identity", false);
      });
      report_.checked["identity (strings enumerated)"] = enumerated;
      if (!found)
        report_.notes.push_back(fmt::format(
            "identity test inconclusive at n = {}: the circuits differ but no string of length {} "
            "does, so X's compiled circuit disagrees with X's evaluator or f's circuit with f "
            "(please report)",
            n, n));
      return;
    }
    refuted_ = true;
    report_.notes.push_back(fmt::format(
        "X ≠ f on some string of length {} (identity testing: the circuits, both affine per "
        "block, differ at a point), but the witness search found none and the {:.0f} strings of "
        "that length exceed the cap of {}",
        n, strings, o_.exhaustive_cap));
  }

  // For a value mismatch on w: do the accept verdicts (X's acceptance rule on f(w) and on X's
  // value) agree on w, and if so, which string is the first, in (length, lex) order, whose
  // verdict differs? Searched over every string up to the longest length tested (at least |w|),
  // within shrink_cap strings. Unset for mod-p constructions (positivity is undefined there).
  std::optional<Counterexample::VerdictDifference> verdict_difference(
      const std::vector<std::size_t>& w) {
    const Acceptance& rule = c_.model.accept;
    auto accepts = [&](const Rational& v) {
      return rule.mode == Acceptance::Mode::zero ? v == 0 : v > 0;
    };
    auto verdict_of =
        [&](const std::vector<std::size_t>& x) -> std::optional<std::pair<bool, bool>> {
      const auto values = checker_.exact_values(x);
      if (!values) return std::nullopt;
      return std::pair{accepts(values->first), accepts(values->second)};
    };
    const auto on_w = verdict_of(w);
    if (!on_w) return std::nullopt;
    Counterexample::VerdictDifference d;
    d.agree_on_input = on_w->first == on_w->second;
    if (!d.agree_on_input) return d;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : w.size();
    for (const auto& [method, range] : tested_.lengths) hi = std::max(hi, range.second);
    double budget = static_cast<double>(o_.shrink_cap);
    for (std::size_t n = lo; n <= hi && !d.first_differing; ++n) {
      if ((budget -= count_strings(S_, n)) < 0) break;
      for_each_string(S_, n, [&](const std::vector<std::size_t>& x) {
        if (!in_domain(x)) return false;
        const auto v = verdict_of(x);
        if (!v || v->first == v->second) return false;
        d.first_differing =
            fmt::format("{} (expected {}, got {})", join(sigma_, x), v->first ? "accept" : "reject",
                        v->second ? "accept" : "reject");
        return true;
      });
      if (!d.first_differing) d.searched_up_to = n;
    }
    return d;
  }

  bool in_domain(const std::vector<std::size_t>& w) const {
    return !c_.target.promise || c_.target.promise(w);
  }

  // Checks w (outside the promise: counted and skipped); the first failure is kept, with the
  // method that found it. Returns whether w fails.
  bool record(const std::vector<std::size_t>& w, const std::string& method, bool with_circuit) {
    if (!in_domain(w)) {
      ++outside_promise_;
      return false;
    }
    auto m = checker_.check(w, with_circuit);
    if (m && !failing_) {
      failing_ = {w, method};
      failing_mismatch_ = m;
    }
    return m.has_value();
  }

  // One device run; a string the GPU finds failing goes to the CPU checker, which confirms it.
  std::uint64_t on_device(const DeviceCheckOptions& d, const std::string& method,
                          DeviceSummary& s) {
    const DeviceCheckReport dr = device_check(c_, d);
    if (s.runs++ == 0) s.lo = d.length;
    s.hi = d.length;
    s.device = dr.device;
    s.modulus = dr.modulus;
    s.prefix_runs += dr.method == kPrefixMethod;
    s.strings += dr.strings;
    s.mismatches += dr.mismatches;
    s.max_primes = std::max(s.max_primes, dr.primes.size());
    s.float_proofs += dr.float_proof;
    s.all_exact = s.all_exact && dr.exact;
    s.max_log2_bound = std::max(s.max_log2_bound, dr.log2_bound);
    s.work_seconds += dr.kernel_seconds;
    s.work += dr.gate_evaluations_per_second * dr.kernel_seconds;
    if (dr.first_counterexample && !record(*dr.first_counterexample, method, o_.three_way))
      report_.notes.push_back("the GPU reported a mismatch on " +
                              join(sigma_, *dr.first_counterexample) +
                              " that the CPU does not reproduce");
    return dr.strings;
  }

  void summarize(const std::string& method, const DeviceSummary& s) {
    const std::string exactness =
        s.modulus ? fmt::format("compared mod {}", *s.modulus)
        : s.all_exact
            ? fmt::format(
                  "every agreement proved exact ({} of {} lengths by the float bound alone, "
                  "the others with ≤ {} prime(s))",
                  s.float_proofs, s.runs, s.max_primes)
            : "NOT every agreement proved exact (the bound exceeds the primes)";
    report_.notes.push_back(fmt::format(
        "{}: lengths {}..{}, {} strings on {}, {} mismatching; max |X − f|·D ≤ 2^{:.1f}; {}; "
        "{:.3g} gate evaluations/s",
        method, s.lo, s.hi, s.strings, s.device, s.mismatches, s.max_log2_bound, exactness,
        s.work_seconds > 0 ? s.work / s.work_seconds : 0.0));
    if (s.prefix_runs)
      report_.notes.push_back(fmt::format("{}: {} of {} lengths {} (operations: multiply-adds)",
                                          method, s.prefix_runs, s.runs, kPrefixMethod));
  }

  // X's state trace on encode(w), as `rnncc run --trace` prints it.
  std::string trace_of(const std::vector<std::size_t>& w) const {
    try {
      const std::vector<std::size_t> x = c_.encode(w);
      if (x.empty()) return {};
      PrecisionSpec p;
      if (c_.modulus) {
        p.kind = PrecisionSpec::Kind::mod;
        p.modulus = *c_.modulus;
      }
      RunReport run = run_model(c_.model, c_.model.alphabet.join(x), "counterexample", p);
      return format_text(c_.model, {run}, true);
    } catch (const std::exception& e) {
      return std::string("(no trace: ") + e.what() + ")";
    }
  }

  const Construction& c_;
  const VerifyOptions& o_;
  Progress& progress() const { return o_.progress ? *o_.progress : no_progress(); }
  Checker checker_;
  const Alphabet& sigma_;
  const std::size_t S_;
  VerifyReport report_;
  bool gpu_ = false;              // choose_device: the GPU runs exhaustive and random
  bool force_domain_ = false;     // prove: exhaustive enumerates the finite domain by default
  bool domain_complete_ = false;  // exhaustive ran over its whole range (exactly)
  std::size_t outside_promise_ = 0;
  bool grammar_proved_ = false;  // prove_on_valid_encodings set the proof
  std::optional<std::pair<std::vector<std::size_t>, std::string>> failing_;  // (w, method)
  std::optional<Mismatch> failing_mismatch_;
  const std::uint64_t seed_;
  TestedScope tested_;
  bool refuted_ = false;  // identity testing proved X ≠ f without a witness string
};

}  // namespace

VerifyReport verify(const Construction& c, const VerifyOptions& o) {
  Verification v(c, o);
  v.prove();
  v.sat();
  v.k_induction();
  v.minimal_state_size();
  v.choose_device();
  v.exhaustive();
  v.domain_proof();
  v.random();
  v.count_skipped();
  v.three_way();
  v.identity();
  v.shrink();
  return v.verdict();
}

namespace {

// "exhaustive 1..4, random 1..40, identity 1..8, three-way"
std::string describe(const TestedScope& t) {
  std::string out;
  for (const std::string& m : t.methods) {
    if (!out.empty()) out += ", ";
    out += m;
    if (const auto it = t.lengths.find(m); it != t.lengths.end())
      out += it->second.first == it->second.second
                 ? fmt::format(" {}", it->second.first)
                 : fmt::format(" {}..{}", it->second.first, it->second.second);
  }
  return out;
}

// What the testing methods covered, in words: "tested up to length L, no counterexample (…)".
std::string tested_text(const TestedScope& t) {
  if (t.complete)
    return fmt::format("tested on every string of its domain, no counterexample ({})", describe(t));
  return fmt::format("tested up to length {}, no counterexample ({})", t.max_length, describe(t));
}

}  // namespace

namespace {

// The spectral section (constructions/spectral.hpp): JSON and text.
nlohmann::ordered_json spectral_json(const std::vector<LayerSpectrum>& layers) {
  using json = nlohmann::ordered_json;
  json out = json::array();
  for (const LayerSpectrum& l : layers) {
    json props = json::array();
    for (const Claim& cl : l.properties)
      props.push_back(
          {{"name", cl.name}, {"claimed", cl.claimed}, {"measured", cl.measured}, {"ok", cl.ok}});
    json spectra = json::array();
    for (const MatrixSpectrum& s : l.spectra) {
      json coeffs = json::array(), roots = json::array();
      for (const Rational& c : s.charpoly) coeffs.push_back(to_string(c));
      for (const RealRoot& r : s.real_roots)
        roots.push_back({{"lo", to_string(r.lo)},
                         {"hi", to_string(r.hi)},
                         {"exact", r.exact()},
                         {"multiplicity", r.multiplicity}});
      spectra.push_back({{"tokens", s.tokens},
                         {"charpoly", poly_to_string(s.charpoly)},
                         {"coefficients", coeffs},
                         {"real_roots", roots},
                         {"complex_pairs", s.complex_pairs},
                         {"radius_bound", to_string(s.radius_bound)}});
    }
    out.push_back({{"layer", l.layer},
                   {"family", l.family},
                   {"d", l.d},
                   {"tokens", l.tokens},
                   {"properties", props},
                   {"spectra", spectra}});
  }
  return out;
}

std::string spectral_text(const std::vector<LayerSpectrum>& layers) {
  std::string out;
  for (const LayerSpectrum& l : layers) {
    out += fmt::format(
        "  spectral layer {} ({}, d = {}, {} tokens, {} distinct characteristic polynomials)\n",
        l.layer, l.family, l.d, l.tokens, l.spectra.size());
    for (const Claim& cl : l.properties)
      out += fmt::format("    property {:<32} claimed {:<8} measured {}  {}\n", cl.name, cl.claimed,
                         cl.measured, cl.ok ? "ok" : "FAILS");
    for (const MatrixSpectrum& s : l.spectra) {
      std::string toks;
      for (std::size_t i = 0; i < s.tokens.size() && i < 4; ++i)
        toks += (i ? " " : "") + s.tokens[i];
      if (s.tokens.size() > 4) toks += fmt::format(" … ({} tokens)", s.tokens.size());
      std::string roots;
      for (const RealRoot& r : s.real_roots) roots += (roots.empty() ? "" : ", ") + to_string(r);
      out += fmt::format(
          "    A of {}: det(xI − A) = {}; real roots {}; complex pairs {}; "
          "|λ| ≤ {}\n",
          toks, poly_to_string(s.charpoly), roots.empty() ? "none" : roots, s.complex_pairs,
          to_string(s.radius_bound));
    }
  }
  return out;
}

}  // namespace

nlohmann::ordered_json to_json(const VerifyReport& r) {
  using json = nlohmann::ordered_json;
  json j;
  j["construction"] = r.construction;
  // What was established (verdict_text in words): proved (every length, or the finite domain;
  // over Q or modulo p), refuted, or only tested.
  j["verdict"] = verdict(r);
  const Proof* p = r.proof ? &*r.proof : nullptr;
  j["proved"] = p && p->proved;
  j["field"] = p ? json(p->field) : json(nullptr);
  j["modulus"] = p && p->modulus ? json(*p->modulus) : json(nullptr);
  j["method"] = p ? json(p->method) : json(nullptr);
  j["basis_size"] = p && p->basis_size ? json(*p->basis_size) : json(nullptr);
  j["certificate"] = p && p->certificate ? json(*p->certificate) : json(nullptr);
  if (p) {
    j["proof"] = {
        {"proved", p->proved}, {"scope", p->scope}, {"method", p->method}, {"field", p->field}};
    if (p->modulus) j["proof"]["modulus"] = *p->modulus;
    if (!p->sat.is_null())
      j["proof"]["sat"] = p->sat;
    else if (!p->induction.is_null())
      j["proof"]["k_induction"] = p->induction;
    else if (p->pairs) {
      j["proof"]["pairs"] = p->pairs;
      j["proof"]["compared"] = p->strings;
    } else if (!p->finite_domain)
      j["proof"]["dimensions"] = {p->dim_f, p->dim_x};
    else
      j["proof"]["strings"] = p->strings;
    if (p->seconds) j["proof"]["seconds"] = *p->seconds;
    if (p->no_certificate) j["proof"]["no_certificate"] = *p->no_certificate;
  } else {
    j["proof"] = nullptr;
  }
  if (r.tested) {
    const TestedScope& t = *r.tested;
    json lengths = json::object();
    for (const auto& [m, range] : t.lengths) lengths[m] = {range.first, range.second};
    j["tested"] = {{"methods", t.methods},
                   {"max_length", t.max_length},
                   {"lengths", lengths},
                   {"complete", t.complete}};
  } else {
    j["tested"] = nullptr;
  }
  j["seed"] = r.seed ? json(*r.seed) : json(nullptr);
  j["seed_given"] = r.seed_given;
  j["checked"] = json::object();
  for (const auto& [k, v] : r.checked) j["checked"][k] = v;
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    j["counterexample"] = {{"input", c.input_text},        {"position", c.position},
                           {"expected", c.expected},       {"got", c.got},
                           {"disagreeing", c.disagreeing}, {"found_by", c.found_by},
                           {"minimal", c.minimal},         {"trace", c.trace}};
    if (c.verdict)
      j["counterexample"]["verdict"] = {
          {"agree_on_input", c.verdict->agree_on_input},
          {"first_differing",
           c.verdict->first_differing ? json(*c.verdict->first_differing) : json(nullptr)},
          {"searched_up_to", c.verdict->searched_up_to}};
  } else {
    j["counterexample"] = nullptr;
  }
  j["claims"] = json::array();
  for (const Claim& cl : r.claims)
    j["claims"].push_back(
        {{"name", cl.name}, {"claimed", cl.claimed}, {"measured", cl.measured}, {"ok", cl.ok}});
  if (!r.spectral.empty()) j["spectral"] = spectral_json(r.spectral);
  if (r.identity)
    j["identity"] = {{"prime", r.identity->prime},
                     {"rounds", r.identity->rounds},
                     {"lengths_passed", r.identity->lengths_passed}};
  else
    j["identity"] = nullptr;
  j["error_bound"] = r.error_bound ? json(*r.error_bound) : json(nullptr);
  j["notes"] = r.notes;
  return j;
}

std::string verdict(const VerifyReport& r) {
  if (!r.holds) return "refuted";  // a counterexample, a refuting decision, or a failing claim
  return r.proof && r.proof->proved ? "proved" : "tested";
}

std::string proof_field_words(const Proof& p) {
  if (p.field == "Q") return "over Q";
  if (p.field == "F_p" && p.modulus) return fmt::format("modulo p = {}", *p.modulus);
  return "";
}

std::string verdict_text(const VerifyReport& r) {
  const bool claims_ok =
      std::all_of(r.claims.begin(), r.claims.end(), [](const Claim& cl) { return cl.ok; });
  // What a decision established, in words: "proved over Q — every length (…)".
  auto decided = [](const Proof& p) {
    // A per-length proof by SAT (Proof::detail set) names its figures; enumeration its strings.
    const std::string detail =
        !p.detail.empty()
            ? fmt::format("{}; {}{}", p.method, p.detail,
                          p.seconds ? fmt::format(", {:.2f} s", *p.seconds) : std::string())
        : p.finite_domain
            ? fmt::format("{}, {} strings", p.method, p.strings)
            : fmt::format("{}, basis size {} of at most {}{}", p.method, p.basis_size.value_or(0),
                          p.dim_f + p.dim_x,
                          p.seconds ? fmt::format(", {:.3f} s", *p.seconds) : std::string());
    const std::string scope = p.finite_domain ? "every string of " + p.scope : p.scope;
    if (p.proved) return fmt::format("proved {} — {} ({})", proof_field_words(p), scope, detail);
    return fmt::format("refuted — shortest counterexample below ({} decided {}: {})", scope,
                       proof_field_words(p), detail);
  };
  std::string what;
  if (r.proof && r.proof->pairs) {  // the promise-restricted product search
    const Proof& p = *r.proof;
    const std::string detail =
        fmt::format("{}, {} pairs closed under the grammar's tokens{}", p.method, p.pairs,
                    p.seconds ? fmt::format(", {:.3f} s", *p.seconds) : std::string());
    what = p.proved ? fmt::format(
                          "proved {} — {} ({}); strings outside the promise are not "
                          "claimed",
                          proof_field_words(p), p.scope, detail)
                    : fmt::format("refuted — shortest failing encoding below ({} decided {}: {})",
                                  p.scope, proof_field_words(p), detail);
    if (!claims_ok)
      what = p.proved ? "refuted — a claim fails (below); X computes f: " + what
                      : what + "; a claim fails too";
  } else if (r.proof && r.proof->proved) {
    what = decided(*r.proof);
    if (!claims_ok) what = "refuted — a claim fails (below); X computes f: " + what;
  } else if (r.proof) {  // refuted by the decision (or by enumerating the finite domain)
    what = decided(*r.proof) + (claims_ok ? "" : "; a claim fails too");
  } else if (r.counterexample) {
    what = "refuted — a counterexample found by testing (" + r.counterexample->found_by + ")" +
           (claims_ok ? "" : ", and a claim fails");
  } else if (r.tested) {
    what = (claims_ok ? "" : "refuted — a claim fails (below); ") + tested_text(*r.tested) +
           "; not proved for every length";
  } else {
    // A report without a TestedScope (the Turing-machine checker): what it counted.
    std::string methods;
    for (const auto& [k, v] : r.checked)
      if (k.rfind("skipped", 0) != 0)
        methods += (methods.empty() ? "" : ", ") + k + " " + std::to_string(v);
    what = (claims_ok ? "" : "refuted — a claim fails (below); ") + std::string("tested — ") +
           (methods.empty() ? std::string("nothing") : methods) + "; not proved for every length";
  }
  return r.construction + ": " + what;
}

std::string format_text(const VerifyReport& r) {
  std::string out = verdict_text(r) + "\n";
  if (r.proof && r.proof->certificate)
    out +=
        fmt::format("  certificate {} ({})\n", *r.proof->certificate, proof_field_words(*r.proof));
  if (r.proof && r.proof->no_certificate)
    out += fmt::format("  no certificate: {}\n", *r.proof->no_certificate);
  for (const auto& [k, v] : r.checked) out += fmt::format("  checked {:<28} {}\n", k, v);
  if (r.seed && (r.checked.count("random") || r.checked.count("random (gpu)") || r.identity))
    out +=
        fmt::format("  seed                          {} (--seed reproduces this run)\n", *r.seed);
  if (r.identity) out += fmt::format("  identity prime                {}\n", r.identity->prime);
  if (r.error_bound) out += fmt::format("  identity error bound          {}\n", *r.error_bound);
  for (const Claim& cl : r.claims)
    out += fmt::format("  claim {:<40} claimed {:<14} measured {:<14} {}\n", cl.name, cl.claimed,
                       cl.measured, cl.ok ? "ok" : "FAILS");
  out += spectral_text(r.spectral);
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    out += fmt::format(
        "  counterexample ({}{}, found by {}): {}\n", c.minimal ? "minimal" : "locally minimal",
        c.disagreeing == "circuit" ? ", compiled circuit vs model" : "",
        c.found_by == "proof" ? "the every-length decision" : c.found_by + " search", c.input_text);
    out += fmt::format("    expected {}\n    got      {}\n", c.expected, c.got);
    if (c.verdict && c.verdict->agree_on_input)
      out += c.verdict->first_differing
                 ? fmt::format(
                       "    the accept verdicts agree on it; the first string whose "
                       "verdict differs: {}\n",
                       *c.verdict->first_differing)
                 : fmt::format(
                       "    the accept verdicts agree on it, and on every string of "
                       "length ≤ {}\n",
                       c.verdict->searched_up_to);
    if (!c.trace.empty()) {
      out += "    trace of the model on the encoded input:\n";
      std::size_t start = 0;
      while (start < c.trace.size()) {
        std::size_t end = c.trace.find('\n', start);
        if (end == std::string::npos) end = c.trace.size();
        out += "      " + c.trace.substr(start, end - start) + "\n";
        start = end + 1;
      }
    }
  }
  for (const std::string& n : r.notes) out += "  note: " + n + "\n";
  return out;
}

// ---- Errata as results (verify.hpp, docs/errata.md) ----

const std::vector<Erratum>& errata() {
  static const std::vector<Erratum> list = {
      {.kinds = {"matmul3"},
       .source = "[MJLLS26, Thm 5] (RWKV-7 layer that multiplies 3×3 matrices)",
       .paper = "the overwrite schedule starts from the zero state and initializes the product "
                "buffer with the first data token (no BOS token)",
       .correction = "a BOS token resets buffer 0 to vec(I) (an affine RWKV-7 step); the printed "
                     "reset is a property of a token, so it fires again at every odd matrix",
       .printed = {{"--no-bos", ""}},
       .corrected = {}},
      {.kinds = {"graph-walk", "dgc"},
       .source = "[MJLLS26, Thm 2] (sorted deterministic graph connectivity by a ReLU RNN)",
       .paper = "the RNN accepts iff its final counter S equals the target t, on every instance",
       .correction = "accept iff S ever equals t (--variant ever), or claim the final test only "
                     "under the promise that t is a sink (--variant final)",
       .printed = {{"--variant", "final-no-promise"}},
       .corrected = {{"--variant", "ever"}}},
      {.kinds = {"router"},
       .source = "[MJLLS26, Thm 5, DeltaNet version] (the position router)",
       .paper = "a position router of period 1404 whose transitions are products of 2×2 "
                "rational reflections",
       .correction = "over Q a 2×2 matrix of finite order has order 1, 2, 3, 4 or 6, so no such "
                     "router exists; cyclic shifts of prime-power sizes (1404: 4 + 27 + 13 = 44 "
                     "coordinates) by transposition reflections I − 2vvᵀ have period exactly P",
       .printed = {},
       .corrected = {{"--permutation", ""}}},
  };
  return list;
}

const Erratum* find_erratum(std::string_view kind) {
  for (const Erratum& e : errata())
    if (std::find(e.kinds.begin(), e.kinds.end(), kind) != e.kinds.end()) return &e;
  return nullptr;
}

namespace {

std::string command_text(const std::string& kind, const ConstructionArgs& a) {
  std::string out = "verify " + kind;
  if (!a.input.empty()) out += " " + a.input;
  for (const auto& [name, value] : a.options)
    out += " " + name + (value.empty() ? "" : " " + value);
  return out;
}

}  // namespace

AsPrintedReport verify_as_printed(const std::string& kind, const ConstructionArgs& args,
                                  const Registry& registry, const VerifyOptions& options,
                                  const std::function<void(const Construction&)>& before_check) {
  const Erratum* e = find_erratum(kind);
  if (!e) {
    std::vector<std::string> kinds;
    for (const Erratum& x : errata()) kinds.insert(kinds.end(), x.kinds.begin(), x.kinds.end());
    throw InputError("--as-printed",
                     kind + " has no erratum (kinds with one: " + one_of(kinds, "and") + ")");
  }
  const ConstructionKind* k = registry.find(kind);
  if (!k) throw std::logic_error("verify_as_printed: no kind " + kind);
  auto named = [](const std::vector<std::pair<std::string, std::string>>& list,
                  const std::string& name) {
    return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == name; });
  };
  ConstructionArgs printed, corrected;
  printed.input = corrected.input = args.input;
  for (const auto& opt : args.options) {
    if (!named(e->printed, opt.first) && !named(e->corrected, opt.first))
      printed.options.push_back(opt);
    if (std::find(e->printed.begin(), e->printed.end(), opt) == e->printed.end())
      corrected.options.push_back(opt);
  }
  for (const auto& opt : e->printed) printed.options.push_back(opt);
  for (const auto& opt : e->corrected)
    if (!named(corrected.options, opt.first)) corrected.options.push_back(opt);

  AsPrintedReport r;
  r.kind = kind;
  r.erratum = *e;
  r.printed_command = command_text(kind, printed);
  r.corrected_command = command_text(kind, corrected);
  const Construction cp = k->build(printed, registry);
  const Construction cc = k->build(corrected, registry);
  before_check(cp);
  before_check(cc);
  r.printed = verify(cp, options);
  r.corrected = verify(cc, options);
  r.reproduced = !r.printed.holds && r.corrected.holds;
  return r;
}

std::string as_printed_summary(const VerifyReport& r) {
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    return fmt::format("{}: refuted — {} counterexample {}: expected {}, got {}", r.construction,
                       c.minimal ? "shortest" : "locally minimal", c.input_text, c.expected, c.got);
  }
  for (const Claim& cl : r.claims)
    if (!cl.ok)
      return fmt::format("{}: refuted — claim '{}': claimed {}, measured {}", r.construction,
                         cl.name, cl.claimed, cl.measured);
  return verdict_text(r);
}

nlohmann::ordered_json to_json(const AsPrintedReport& r) {
  nlohmann::ordered_json j;
  j["kind"] = r.kind;
  j["erratum"] = {{"source", r.erratum.source},
                  {"paper", r.erratum.paper},
                  {"correction", r.erratum.correction}};
  j["reproduced"] = r.reproduced;
  j["as_printed"] = {{"command", r.printed_command},
                     {"summary", as_printed_summary(r.printed)},
                     {"report", to_json(r.printed)}};
  j["corrected"] = {{"command", r.corrected_command},
                    {"summary", verdict_text(r.corrected)},
                    {"report", to_json(r.corrected)}};
  return j;
}

std::string format_text(const AsPrintedReport& r) {
  std::string out = fmt::format("erratum of {}: {}\n", r.kind, r.erratum.source);
  out += "  the paper:      " + r.erratum.paper + "\n";
  out += "  the correction: " + r.erratum.correction + "\n";
  out += fmt::format("as printed ({}):\n  {}\n", r.printed_command, as_printed_summary(r.printed));
  out += fmt::format("corrected ({}):\n  {}\n", r.corrected_command, verdict_text(r.corrected));
  out += fmt::format("erratum {}reproduced: the printed version is {}, the corrected one {}\n",
                     r.reproduced ? "" : "NOT ", verdict(r.printed), verdict(r.corrected));
  out += "\n--- as printed ---\n" + format_text(r.printed);
  out += "\n--- corrected ---\n" + format_text(r.corrected);
  return out;
}

}  // namespace rnncc
