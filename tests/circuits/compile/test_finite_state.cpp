// Finite-state models to fan-in-2 boolean circuits (circuits/compile/finite_state.hpp):
// hand-checked machines; the compiled prefix circuit against direct simulation, the model's
// reference semantics and the sequential reference circuit (exhaustive up to n = 8 under every
// scan, random strings up to n = 1024); random machines; fan-in 2 and the stated depth bound up
// to n = 4096; ABC's `cec` proving the prefix circuit equal to the reference (and refuting it
// after one transition is corrupted); every diagnostic.
#include <catch2/catch.hpp>

#include "tests/circuits/abc_testing.hpp"
#include "tests/circuits/string_testing.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/aiger.hpp"
#include "constructions/wfa.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

using Word = std::vector<std::size_t>;
using Strings = std::vector<Word>;

constexpr std::array<ScanKind, 5> kScans = {ScanKind::sequential, ScanKind::sklansky,
                                            ScanKind::kogge_stone, ScanKind::brent_kung,
                                            ScanKind::ladner_fischer};

FiniteStateOptions scan_options(ScanKind k, OutputMode outputs = OutputMode::last) {
  FiniteStateOptions o;
  o.scan = k;
  o.outputs = outputs;
  return o;
}

// Parity of a's over {a, b}: accept an odd number of a's.
FiniteStateMachine parity_machine() {
  FiniteStateMachine m;
  m.symbols = 2;
  m.delta = {{1, 0}, {0, 1}};
  m.start = 0;
  m.accepting = {false, true};
  m.alphabet = {"a", "b"};
  return m;
}

// A mod-3 counter over {0, 1, 2}: symbol i adds i; accept a sum ≡ 0 (mod 3).
FiniteStateMachine mod3_machine() {
  FiniteStateMachine m;
  m.symbols = 3;
  for (std::size_t q = 0; q < 3; ++q) m.delta.push_back({q, (q + 1) % 3, (q + 2) % 3});
  m.start = 0;
  m.accepting = {true, false, false};
  return m;
}

FiniteStateMachine random_machine(std::mt19937_64& rng, std::size_t Q, std::size_t S) {
  FiniteStateMachine m;
  m.symbols = S;
  m.delta.assign(Q, std::vector<std::size_t>(S));
  for (auto& row : m.delta)
    for (auto& to : row) to = rng() % Q;
  m.start = rng() % Q;
  for (std::size_t q = 0; q < Q; ++q) m.accepting.push_back(rng() % 2 == 1);
  return m;
}

TrackedMachine random_tracked(std::mt19937_64& rng, std::size_t Q, std::size_t S, std::size_t k) {
  TrackedMachine m;
  m.symbols = S;
  m.delta.assign(Q, std::vector<std::size_t>(S));
  for (auto& row : m.delta)
    for (auto& to : row) to = rng() % Q;
  auto small = [&] { return static_cast<long>(rng() % 5) - 2; };
  for (std::size_t j = 0; j < k; ++j) {
    const std::size_t start = rng() % Q;
    const long num = small(), den = 1 + static_cast<long>(rng() % 2);
    m.tracks.push_back({start, Rational(num, den)});
  }
  for (std::size_t q = 0; q < Q; ++q) m.value.push_back(Rational(small()));
  m.bias = Rational(small());
  m.mode = rng() % 2 ? Acceptance::Mode::positive : Acceptance::Mode::zero;
  return m;
}

Model load_example(const std::string& name) {
  return load_model(test::example(name));
}

// A one-layer PD model over {a, b} with d = 2: a swaps the coordinates, b keeps them; S_0 = e_0,
// C = (0 1): y > 0 iff the number of a's is odd.
LrnnLayer parity_layer(Vector s0 = {Rational(1), Rational(0)}) {
  LayerFrame f;
  f.d = 2;
  f.features = 2;
  f.initial_state = Matrix<Rational>(2, 1);
  for (std::size_t i = 0; i < 2; ++i) f.initial_state(i, 0) = s0[i];
  f.readout = Matrix<Rational>(1, 2);
  f.readout(0, 1) = 1;
  std::vector<PdStep> steps;
  steps.push_back({{1, 0}, {Rational(1), Rational(1)}, Matrix<Rational>(2, 1)});
  steps.push_back({{0, 1}, {Rational(1), Rational(1)}, Matrix<Rational>(2, 1)});
  return make_pd(std::move(f), std::move(steps), false);
}

Model one_layer_model(LrnnLayer layer) {
  Model m;
  m.name = "test";
  m.alphabet = Alphabet({"a", "b"}, "test");
  m.layers.push_back(StackLayer{std::nullopt, Layer(std::move(layer))});
  return m;
}

// Direct simulation: acceptance of every prefix (all) or of the whole string (last).
template <class M>
std::vector<bool> expected(const M& m, const Word& w, OutputMode mode) {
  std::vector<bool> out;
  for (std::size_t t = 1; t <= w.size(); ++t)
    if (mode == OutputMode::all || t == w.size())
      out.push_back(accepts(m, std::span<const std::size_t>(w.data(), t)));
  return out;
}

// The model's reference semantics (rnn/evaluate.hpp, exact) on every prefix or the last.
std::vector<bool> model_expected(const Model& model, const Word& w, OutputMode mode) {
  RationalField k;
  const auto trace = evaluate(model, k, w);
  std::vector<bool> out;
  for (std::size_t t = 0; t < w.size(); ++t)
    if (mode == OutputMode::all || t + 1 == w.size())
      out.push_back(*accepts(model.accept, k, trace.outputs()[t]));
  return out;
}

// A random string of length n; with `aim`, drawn among strings the machine accepts when there
// are any (so that acceptance is not almost always false, as for the S5 word problem).
Word random_string(const FiniteStateMachine& m, std::size_t n, std::mt19937_64& rng, bool aim) {
  Word w(n);
  if (!aim) {
    for (auto& s : w) s = rng() % m.symbols;
    return w;
  }
  std::vector<std::vector<char>> reach(n + 1, std::vector<char>(m.states()));
  for (std::size_t q = 0; q < m.states(); ++q) reach[0][q] = m.accepting[q];
  for (std::size_t r = 1; r <= n; ++r)
    for (std::size_t q = 0; q < m.states(); ++q)
      for (std::size_t s = 0; s < m.symbols; ++s) reach[r][q] |= reach[r - 1][m.delta[q][s]];
  if (!reach[n][m.start]) return random_string(m, n, rng, false);
  std::size_t q = m.start;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> ok;
    for (std::size_t s = 0; s < m.symbols; ++s)
      if (reach[n - i - 1][m.delta[q][s]]) ok.push_back(s);
    w[i] = ok[rng() % ok.size()];
    q = m.delta[q][w[i]];
  }
  return w;
}

Strings random_strings(const FiniteStateMachine& m, std::size_t n, std::size_t count,
                       std::mt19937_64& rng) {
  Strings out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(random_string(m, n, rng, i % 2 == 0));
  return out;
}

// The compiled circuit (and the sequential reference) on `ws` against direct simulation.
template <class M>
void check_strings(const M& m, const Strings& ws, const FiniteStateOptions& o,
                   bool with_reference = true) {
  const std::size_t n = ws.front().size();
  INFO("scan " << to_string(o.scan) << ", n = " << n);
  const CompiledCircuit cc = compile_finite_state(m, n, o);
  const auto got = rnncc::testing::run_on_strings(cc.circuit, ws, m.symbols);
  std::vector<std::vector<bool>> ref;
  if (with_reference)
    ref = rnncc::testing::run_on_strings(reference_sequential_fsm(m, n, o.outputs), ws, m.symbols);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const auto want = expected(m, ws[i], o.outputs);
    REQUIRE(got[i] == want);
    if (with_reference) REQUIRE(ref[i] == want);
  }
}

bool every_gate_binary(const Circuit& c) {
  for (GateId g = 0; g < c.size(); ++g) {
    const GateKind k = c.kind(g);
    if (k == GateKind::input || k == GateKind::constant) continue;
    if ((k != GateKind::and_ && k != GateKind::or_) || c.operands(g).size() != 2) return false;
  }
  return true;
}

std::size_t depth_of(const Circuit& c) {
  const auto d = depth_table(c, FaninModel::bounded);
  std::size_t out = 0;
  for (GateId o : c.outputs()) out = std::max<std::size_t>(out, d[o]);
  return out;
}

// Some string of length exactly n on which the two machines disagree (product reachability).
bool differ_at_length(const FiniteStateMachine& a, const FiniteStateMachine& b, std::size_t n) {
  std::set<std::pair<std::size_t, std::size_t>> pairs{{a.start, b.start}};
  for (std::size_t t = 0; t < n; ++t) {
    std::set<std::pair<std::size_t, std::size_t>> next;
    for (auto [p, q] : pairs)
      for (std::size_t s = 0; s < a.symbols; ++s) next.insert({a.delta[p][s], b.delta[q][s]});
    pairs.swap(next);
  }
  for (auto [p, q] : pairs)
    if (a.accepting[p] != b.accepting[q]) return true;
  return false;
}

// ABC's combinational equivalence check of two circuits (binary AIGER files); its output.
std::string abc_cec(const Circuit& a, const Circuit& b) {
  const rnncc::testing::TempDir tmp;
  return rnncc::testing::abc("cec " + tmp.file("a.aig", write_aiger(a, AigerFormat::binary)) + " " +
                             tmp.file("b.aig", write_aiger(b, AigerFormat::binary)));
}

}  // namespace

TEST_CASE("hand-checked machines: parity of a's and a mod-3 counter", "[circuits][finite_state]") {
  const FiniteStateMachine parity = parity_machine();
  CHECK_FALSE(accepts(parity, Word{}));
  CHECK(accepts(parity, Word{0}));
  CHECK_FALSE(accepts(parity, Word{0, 0}));
  CHECK(accepts(parity, Word{1, 0, 1}));
  CHECK_FALSE(accepts(parity, Word{0, 1, 0, 1}));

  const FiniteStateMachine mod3 = mod3_machine();
  CHECK(accepts(mod3, Word{}));
  CHECK(accepts(mod3, Word{1, 2}));
  CHECK_FALSE(accepts(mod3, Word{1, 1}));
  CHECK(accepts(mod3, Word{1, 1, 1}));
  CHECK(run_machine(mod3, Word{2, 2, 1, 0}) == 2);

  // The circuits, read exactly over Q with the plain evaluator: accept[t] for every prefix.
  RationalField k;
  auto eval = [&](const Circuit& c, const Word& w, std::size_t S) {
    std::vector<Rational> in(w.size() * S, Rational(0));
    for (std::size_t t = 0; t < w.size(); ++t) in[t * S + w[t]] = 1;
    std::vector<int> out;
    for (const Rational& y : evaluate(c, k, std::span<const Rational>(in)))
      out.push_back(y != 0 ? 1 : 0);
    return out;
  };
  for (ScanKind scan : kScans) {
    INFO(to_string(scan));
    const auto o = scan_options(scan, OutputMode::all);
    CHECK(eval(compile_finite_state(parity, 5, o).circuit, Word{0, 1, 1, 0, 0}, 2) ==
          std::vector<int>{1, 1, 1, 0, 1});
    CHECK(eval(compile_finite_state(mod3, 4, o).circuit, Word{2, 1, 1, 0}, 3) ==
          std::vector<int>{0, 1, 0, 0});
    CHECK(eval(reference_sequential_fsm(mod3, 4, OutputMode::all), Word{2, 1, 1, 0}, 3) ==
          std::vector<int>{0, 1, 0, 0});
  }
  const CompiledCircuit cc = compile_finite_state(mod3, 4, scan_options(ScanKind::brent_kung));
  REQUIRE(cc.circuit.inputs().size() == 12);
  CHECK(cc.circuit.input_names()[0] == "x[1,0]");
  CHECK(cc.circuit.input_names()[5] == "x[2,2]");  // index (t−1)·|Σ| + σ
  CHECK(cc.circuit.output_names() == std::vector<std::string>{"accept"});
}

TEST_CASE("the S5 word-problem model as a finite-state machine", "[circuits][finite_state]") {
  const Model model = load_example("s5_word_problem.json");
  // S_0 = vec(I) has five ones: one state per reachable vector gives the 120 permutations.
  const FiniteStateMachine dfa = fsm_from_model(model);
  CHECK(dfa.states() == 120);
  CHECK(dfa.labels[dfa.start] == "e0+e6+e12+e18+e24");
  CHECK(std::count(dfa.accepting.begin(), dfa.accepting.end(), true) == 1);
  CHECK(dfa.accepting[dfa.start]);
  // …or five tracks over the 25 coordinates, accepting iff Σ_j C e_{q_j} − 5 = 0.
  const TrackedMachine tracked = tracked_fsm_from_model(model);
  CHECK(tracked.states() == 25);
  REQUIRE(tracked.tracks.size() == 5);
  CHECK(tracked.tracks[1].start == 6);
  CHECK(tracked.bias == -5);
  CHECK(tracked.mode == Acceptance::Mode::zero);
  // s = (1 2), c = (1 2 3 4 5): s² = c⁵ = 1, (sc) is a 4-cycle, s, c, sc ≠ 1.
  const std::size_t s = 0, c = 1;
  for (const auto& [w, want] : std::vector<std::pair<Word, bool>>{{{s, s}, true},
                                                                  {{c, c, c, c, c}, true},
                                                                  {{s}, false},
                                                                  {{c}, false},
                                                                  {{s, c}, false},
                                                                  {{s, c, s, c, s, c, s, c}, true},
                                                                  {{c, s, s, c, c, c, c}, true},
                                                                  {{c, s, c, c, c, c, s}, false}}) {
    CHECK(accepts(dfa, w) == want);
    CHECK(accepts(tracked, w) == want);
    CHECK(model_expected(model, w, OutputMode::last) == std::vector<bool>{want});
  }
}

TEST_CASE("the DWFA dwfa_mod3.att via fsm_from_dwfa", "[circuits][finite_state]") {
  const Wfa wfa = load_wfa(test::example("dwfa_mod3.att"));
  const FiniteStateMachine m = fsm_from_dwfa(wfa);
  CHECK(m.states() == 3);  // complete: no sink
  CHECK(m.alphabet == std::vector<std::string>{"0", "1"});
  CHECK(m.accepting == std::vector<bool>{true, false, false});
  // Binary numbers, MSB first: 11 = 3 and 110 = 6 are divisible by 3, 10 = 2 and 111 = 7 not.
  CHECK(accepts(m, Word{1, 1}));
  CHECK(accepts(m, Word{1, 1, 0}));
  CHECK_FALSE(accepts(m, Word{1, 0}));
  CHECK_FALSE(accepts(m, Word{1, 1, 1}));
  for (const Word& w : test::all_strings(2, 0, 8)) CHECK(accepts(m, w) == (evaluate(wfa, w) == 1));

  // A partial DWFA gains a non-accepting sink.
  Wfa partial = wfa;
  partial.transition[0](1, 2) = 0;  // drop 1 --0--> 2
  const FiniteStateMachine p = fsm_from_dwfa(partial);
  REQUIRE(p.states() == 4);
  CHECK(p.labels[3] == "sink");
  CHECK(p.delta[1][0] == 3);
  for (const Word& w : test::all_strings(2, 0, 7))
    CHECK(accepts(p, w) == (evaluate(partial, w) == 1));
}

TEST_CASE("differential: every scan, every string up to n = 8", "[circuits][finite_state]") {
  const Model s5 = load_example("s5_word_problem.json");
  const Model parity_model = one_layer_model(parity_layer());
  const FiniteStateMachine parity_pd = fsm_from_model(parity_model);
  CHECK(parity_pd.states() == 2);
  CHECK(parity_pd.accepting == std::vector<bool>{false, true});
  const FiniteStateMachine s5_dfa = fsm_from_model(s5);
  const TrackedMachine s5_tracked = tracked_fsm_from_model(s5);
  const FiniteStateMachine dwfa = fsm_from_dwfa(load_wfa(test::example("dwfa_mod3.att")));
  const FiniteStateMachine parity = parity_machine(), mod3 = mod3_machine();

  for (std::size_t n = 1; n <= 8; ++n) {
    const Strings binary = test::all_strings(2, n, n);
    const Strings ternary = test::all_strings(3, n, n);
    for (ScanKind scan : kScans) {
      const auto o = scan_options(scan, OutputMode::all);
      check_strings(parity, binary, o);
      check_strings(parity_pd, binary, o);
      check_strings(dwfa, binary, o);
      check_strings(mod3, ternary, o);
      check_strings(s5_dfa, binary, o);
      check_strings(s5_tracked, binary, o);
      // The models' reference semantics, on the circuits of their machines.
      const auto got_s5 =
          rnncc::testing::run_on_strings(compile_finite_state(s5_tracked, n, o).circuit, binary, 2);
      const auto got_parity =
          rnncc::testing::run_on_strings(compile_finite_state(parity_pd, n, o).circuit, binary, 2);
      for (std::size_t i = 0; i < binary.size(); ++i) {
        REQUIRE(got_s5[i] == model_expected(s5, binary[i], OutputMode::all));
        REQUIRE(got_parity[i] == model_expected(parity_model, binary[i], OutputMode::all));
      }
    }
  }
}

TEST_CASE("differential: random strings, n = 64, 257, 1024", "[circuits][finite_state]") {
  std::mt19937_64 rng(64);
  const Model s5 = load_example("s5_word_problem.json");
  const FiniteStateMachine s5_dfa = fsm_from_model(s5);  // generates accepted words
  const TrackedMachine s5_tracked = tracked_fsm_from_model(s5);
  const FiniteStateMachine dwfa = fsm_from_dwfa(load_wfa(test::example("dwfa_mod3.att")));
  const FiniteStateMachine parity = parity_machine(), mod3 = mod3_machine();
  const FiniteStateMachine rand5 = random_machine(rng, 5, 3);

  for (std::size_t n : {64, 257, 1024}) {
    const OutputMode mode = n == 64 ? OutputMode::all : OutputMode::last;
    const Strings s5_words = random_strings(s5_dfa, n, 64, rng);
    std::size_t accepted_words = 0;
    for (const Word& w : s5_words) accepted_words += accepts(s5_dfa, w);
    CHECK(accepted_words >= 16);  // the aimed half is accepted
    for (ScanKind scan : kScans) {
      const auto o = scan_options(scan, mode);
      check_strings(parity, random_strings(parity, n, 64, rng), o);
      check_strings(mod3, random_strings(mod3, n, 64, rng), o);
      check_strings(dwfa, random_strings(dwfa, n, 64, rng), o);
      check_strings(rand5, random_strings(rand5, n, 64, rng), o);
      check_strings(s5_tracked, s5_words, o);
    }
    // The S5 model's exact semantics on a few of the words, against the Brent–Kung circuit.
    const auto got = rnncc::testing::run_on_strings(
        compile_finite_state(s5_tracked, n, scan_options(ScanKind::brent_kung)).circuit, s5_words,
        2);
    for (std::size_t i = 0; i < 6; ++i) {
      REQUIRE(model_expected(s5, s5_words[i], OutputMode::last) == got[i]);
      REQUIRE(accepts(s5_dfa, s5_words[i]) == accepts(s5_tracked, s5_words[i]));
    }
  }
}

TEST_CASE("random machines and tracked machines against direct simulation",
          "[circuits][finite_state]") {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t Q = 1 + rng() % 7, S = 1 + rng() % 4;
    const ScanKind scan = kScans[trial % kScans.size()];
    INFO("trial " << trial << ": Q = " << Q << ", |Σ| = " << S);
    const FiniteStateMachine m = random_machine(rng, Q, S);
    const TrackedMachine t = random_tracked(rng, Q, S, rng() % 4);
    for (std::size_t n = 1; n <= 6; ++n) {
      if (std::pow(double(S), double(n)) > 4096) break;
      const Strings all = test::all_strings(S, n, n);
      check_strings(m, all, scan_options(scan, OutputMode::all));
      check_strings(t, all, scan_options(scan, OutputMode::all));
    }
    for (std::size_t n : {17, 40}) {
      Strings ws;
      for (int i = 0; i < 64; ++i) ws.push_back(random_string(m, n, rng, i % 2 == 0));
      check_strings(m, ws, scan_options(scan));
      check_strings(t, ws, scan_options(scan, OutputMode::all));
    }
  }
}

TEST_CASE("fan-in 2 and the stated depth bound, up to n = 4096", "[circuits][finite_state]") {
  const TrackedMachine s5 = tracked_fsm_from_model(load_example("s5_word_problem.json"));
  const FiniteStateMachine mod3 = mod3_machine(), parity = parity_machine();
  std::mt19937_64 rng(7);
  const FiniteStateMachine rand7 = random_machine(rng, 7, 4);

  // Every scan: fan-in 2, depth ≤ the bound, for n up to 1024 (all outputs).
  for (ScanKind scan : kScans)
    for (std::size_t n : {1, 2, 3, 5, 8, 31, 100, 513}) {
      INFO(to_string(scan) << ", n = " << n);
      const auto o = scan_options(scan, OutputMode::all);
      const CompiledCircuit a = compile_finite_state(mod3, n, o);
      const CompiledCircuit b = compile_finite_state(rand7, n, o);
      CHECK(every_gate_binary(a.circuit));
      CHECK(every_gate_binary(b.circuit));
      CHECK(compute_stats(b.circuit).max_fanin <= 2);
      CHECK(depth_of(a.circuit) <= finite_state_depth_bound(mod3, n, o));
      CHECK(depth_of(b.circuit) <= finite_state_depth_bound(rand7, n, o));
      if (n <= 100) {
        const CompiledCircuit cc = compile_finite_state(s5, n, o);
        CHECK(every_gate_binary(cc.circuit));
        CHECK(depth_of(cc.circuit) <= finite_state_depth_bound(s5, n, o));
      }
    }

  // Brent–Kung up to 4096: the bound holds and doubling n adds one combine (≤ ⌈log₂Q⌉ + 1).
  const auto bk = scan_options(ScanKind::brent_kung);
  auto grow = [&](const auto& m, std::size_t Q) {
    std::vector<std::size_t> depth;
    for (std::size_t n : {512, 1024, 2048, 4096}) {
      INFO("Q = " << Q << ", n = " << n);
      const CompiledCircuit cc = compile_finite_state(m, n, bk);
      CHECK(every_gate_binary(cc.circuit));
      depth.push_back(depth_of(cc.circuit));
      CHECK(depth.back() <= finite_state_depth_bound(m, n, bk));
      CHECK(cc.combine_levels == ceil_log2(n));  // the up-sweep alone reaches position n
    }
    for (std::size_t i = 1; i < depth.size(); ++i) {
      CHECK(depth[i] > depth[i - 1]);
      CHECK(depth[i] - depth[i - 1] <= ceil_log2(Q) + 2);
    }
  };
  grow(parity, 2);
  grow(mod3, 3);
  grow(rand7, 7);
  grow(s5, 25);

  // The sequential reference grows linearly: every position adds an AND and an OR level.
  const std::size_t r64 = depth_of(reference_sequential_fsm(mod3, 64));
  const std::size_t r128 = depth_of(reference_sequential_fsm(mod3, 128));
  CHECK(r64 >= 64);
  CHECK(r128 - r64 >= 64);
  CHECK(depth_of(compile_finite_state(mod3, 128, bk).circuit) < r128 / 4);
}

TEST_CASE("ABC cec: prefix circuit = sequential reference, a corrupted transition is caught",
          "[circuits][finite_state][abc]") {
  REQUIRE_ABC();
  const FiniteStateMachine mod3 = mod3_machine(), parity = parity_machine();
  const auto bk = scan_options(ScanKind::brent_kung);
  for (std::size_t n : {16, 64}) {
    INFO("n = " << n);
    for (ScanKind scan : {ScanKind::brent_kung, ScanKind::sklansky}) {
      const auto o = scan_options(scan);
      CHECK_THAT(
          abc_cec(compile_finite_state(mod3, n, o).circuit, reference_sequential_fsm(mod3, n)),
          Catch::Contains("Networks are equivalent"));
    }
    CHECK_THAT(abc_cec(compile_finite_state(parity, n, scan_options(ScanKind::kogge_stone)).circuit,
                       reference_sequential_fsm(parity, n)),
               Catch::Contains("Networks are equivalent"));
    // One transition changed on the reference side: ABC must find the difference.
    FiniteStateMachine bad = mod3;
    bad.delta[2][1] = 2;  // 2 + 1 should be 0
    REQUIRE(differ_at_length(mod3, bad, n));
    CHECK_THAT(abc_cec(compile_finite_state(mod3, n, bk).circuit, reference_sequential_fsm(bad, n)),
               Catch::Contains("NOT EQUIVALENT"));
  }
  // Every prefix at once (Kogge–Stone, n = 16).
  CHECK_THAT(
      abc_cec(compile_finite_state(mod3, 16, scan_options(ScanKind::kogge_stone, OutputMode::all))
                  .circuit,
              reference_sequential_fsm(mod3, 16, OutputMode::all)),
      Catch::Contains("Networks are equivalent"));

  // The S5 word problem at n = 16 (five tracks). At n = 32 ABC's cec runs past a minute and at
  // n = 64 past two: the composed 5×5 relations are hard for SAT sweeping (S5's word problem is
  // NC¹-complete), so the larger lengths are covered by the differential tests instead.
  const Model s5_model = load_example("s5_word_problem.json");
  const TrackedMachine s5 = tracked_fsm_from_model(s5_model);
  const FiniteStateMachine s5_dfa = fsm_from_model(s5_model);
  const std::size_t n = 16;
  CHECK_THAT(abc_cec(compile_finite_state(s5, n, bk).circuit, reference_sequential_fsm(s5, n)),
             Catch::Contains("Networks are equivalent"));
  TrackedMachine s5_bad = s5;
  s5_bad.delta[0][0] = 0;  // coordinate 0 stays put under s
  {
    std::mt19937_64 g(n);
    bool differs = false;
    for (int i = 0; i < 256 && !differs; ++i) {
      const Word w = random_string(s5_dfa, n, g, true);
      differs = accepts(s5, w) != accepts(s5_bad, w);
    }
    REQUIRE(differs);
  }
  CHECK_THAT(abc_cec(compile_finite_state(s5, n, bk).circuit, reference_sequential_fsm(s5_bad, n)),
             Catch::Contains("NOT EQUIVALENT"));
}

TEST_CASE("finite-state diagnostics", "[circuits][finite_state][diagnostics]") {
  // D ≠ 1: not a 0/1 matrix.
  {
    LrnnLayer l = parity_layer();
    l.A[0](1, 0) = Rational(1, 2);
    CHECK_THROWS_AS(fsm_from_model(one_layer_model(l)), InputError);
    CHECK_THROWS_WITH(fsm_from_model(one_layer_model(l)),
                      Catch::Contains("layer 0: symbol 'a': A is not a deterministic transition") &&
                          Catch::Contains("entry [1][0] = 1/2"));
  }
  // D = 0: a state without successor.
  {
    LrnnLayer l = parity_layer();
    l.A[1](1, 1) = 0;
    CHECK_THROWS_WITH(fsm_from_model(one_layer_model(l)),
                      Catch::Contains("symbol 'b'") && Catch::Contains("column 1 is zero"));
  }
  // Two 1s in a column (a general layer): non-deterministic.
  {
    LayerFrame f;
    f.d = 2;
    f.features = 2;
    f.initial_state = Matrix<Rational>(2, 1);
    f.initial_state(0, 0) = 1;
    f.readout = Matrix<Rational>(1, 2, Rational(1));
    Matrix<Rational> a(2, 2, Rational(1)), id(2, 2);
    id(0, 0) = id(1, 1) = 1;
    std::vector<AffineStep> steps{{a, Matrix<Rational>(2, 1)}, {id, Matrix<Rational>(2, 1)}};
    CHECK_THROWS_WITH(fsm_from_pd_layer(make_general(f, steps)),
                      Catch::Contains("layer: feature 0: A is not a deterministic transition") &&
                          Catch::Contains("column 0 has 1s in rows 0 and 1"));
  }
  // B ≠ 0.
  {
    LrnnLayer l = parity_layer();
    l.B[1](0, 0) = 3;
    CHECK_THROWS_WITH(tracked_fsm_from_model(one_layer_model(l)),
                      Catch::Contains("symbol 'b': B[0][0] = 3 ≠ 0"));
  }
  // A per-symbol readout.
  {
    LrnnLayer l = parity_layer();
    l.readout_feature.assign(2, Matrix<Rational>(1, 2));
    l.readout_feature[1](0, 0) = 1;
    CHECK_THROWS_WITH(fsm_from_model(one_layer_model(l)),
                      Catch::Contains("symbol 'b' has a per-symbol readout"));
  }
  // S_0 not one-hot: refused without explore_orbit; the orbit has a cap.
  {
    const Model m = one_layer_model(parity_layer({Rational(1), Rational(1)}));
    CHECK_THROWS_WITH(fsm_from_model(m, {.explore_orbit = false, .max_states = 4096}),
                      Catch::Contains("layer 0: S_0 (column 0) is not one-hot: entries 0, 1 are "
                                      "nonzero"));
    CHECK_THROWS_WITH(fsm_from_model(one_layer_model(parity_layer({Rational(0), Rational(0)})),
                                     {.explore_orbit = false, .max_states = 4096}),
                      Catch::Contains("is not one-hot: it is zero"));
    CHECK(fsm_from_model(m).states() == 1);  // (1,1) is fixed by the swap
    CHECK_THROWS_WITH(fsm_from_model(load_example("s5_word_problem.json"),
                                     {.explore_orbit = true, .max_states = 100}),
                      Catch::Contains("more than 100 state vectors are reachable"));
  }
  // Several layers; a non-LRNN layer.
  {
    Model m = one_layer_model(parity_layer());
    m.layers.push_back(m.layers[0]);
    m.layers[1].input = InputMap{Matrix<Rational>(2, 1, Rational(1)), {}};
    CHECK_THROWS_WITH(fsm_from_model(m), Catch::Contains("layers: the model has 2 layers"));
    CHECK_THROWS_WITH(tracked_fsm_from_model(m), Catch::Contains("the model has 2 layers"));
    Model e = one_layer_model(parity_layer());
    ElmanLayer elman;
    elman.d = 2;
    elman.features = 2;
    e.layers[0].layer = elman;
    CHECK_THROWS_WITH(fsm_from_model(e), Catch::Contains("layer 0: is elman"));
  }
  // DWFAs that are not finite-state machines.
  {
    const Wfa base = load_wfa(test::example("dwfa_mod3.att"));
    Wfa w = base;
    w.transition[1](0, 0) = 1;  // a second 1-arc from state 0
    CHECK_THROWS_WITH(fsm_from_dwfa(w), Catch::Contains("wfa: state '0' has two '1'-arcs"));
    w = base;
    w.transition[0](1, 2) = 2;
    CHECK_THROWS_WITH(fsm_from_dwfa(w), Catch::Contains("the arc '1' --0--> '2' has weight 2"));
    w = base;
    w.final[0] = Rational(1, 2);
    CHECK_THROWS_WITH(fsm_from_dwfa(w), Catch::Contains("final weight of state '0' is 1/2"));
    w = base;
    w.initial[1] = 1;
    CHECK_THROWS_WITH(fsm_from_dwfa(w),
                      Catch::Contains("expected exactly one initial state, got 2"));
  }
  // Compilation: n = 0, a broken machine, the gate limit.
  {
    FiniteStateMachine m = mod3_machine();
    CHECK_THROWS_WITH(compile_finite_state(m, 0), Catch::Contains("n ≥ 1"));
    CHECK_THROWS_WITH(reference_sequential_fsm(m, 0), Catch::Contains("n ≥ 1"));
    FiniteStateOptions small;
    small.budget.max_gates = 100;
    CHECK_THROWS_WITH(compile_finite_state(m, 64, small), Catch::Contains("--max-gates"));
    m.delta[1][2] = 7;
    CHECK_THROWS_WITH(compile_finite_state(m, 4),
                      Catch::Contains("machine: delta[1][2] = 7 is not a state"));
    std::mt19937_64 rng(1);
    TrackedMachine t = random_tracked(rng, 3, 2, 2);
    t.tracks[1].start = 9;
    CHECK_THROWS_WITH(compile_finite_state(t, 4), Catch::Contains("track 1 starts at 9"));
  }
}
