// Constant-depth threshold circuits (circuits/compile/threshold.hpp): iterated addition against
// Integer arithmetic (hand-checked, exhaustive up to 10 terms, random up to 1000 terms; negative,
// zero and multi-block weights; one and two levels; words), the int32 limits of every thr gate,
// the stated depth and the size estimate; time-invariant LRNNs against evaluate_convolution
// (every string up to length 6, exact and log precision, on non-one-hot inputs too), counting
// models against the rnn reference evaluator, a model where the sequential log-precision rule
// and the convolution-rounded one differ, depth constant in n; every diagnostic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/threshold.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "tests/circuits/string_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

using Assignment = std::vector<bool>;
using Strings = std::vector<std::vector<std::size_t>>;

using testing::one_hot;  // tests/circuits/string_testing.hpp
using testing::require_thr_limits;
using testing::run_bits;

// The first `count` outputs as a two's-complement integer.
Integer decode(const std::vector<bool>& outs, std::size_t count) {
  return decode_twos_complement(std::vector<bool>(outs.begin(), outs.begin() + count));
}

std::vector<Assignment> all_assignments(std::size_t n) {
  std::vector<Assignment> xs;
  for (std::size_t m = 0; m < (std::size_t{1} << n); ++m) {
    Assignment x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = (m >> i) & 1;
    xs.push_back(x);
  }
  return xs;
}

std::vector<Assignment> random_assignments(std::mt19937_64& rng, std::size_t n, std::size_t count) {
  std::vector<Assignment> xs(count, Assignment(n));
  for (auto& x : xs)
    for (std::size_t i = 0; i < n; ++i) x[i] = rng() & 1;
  return xs;
}

struct BuiltSum {
  Circuit circuit;
  SumWord word;
};

BuiltSum build_sum(const std::vector<Integer>& weights, const Integer& constant, std::size_t width,
                   const IteratedSumOptions& o) {
  CircuitBuilder b;
  std::vector<WeightedBit> terms;
  for (std::size_t i = 0; i < weights.size(); ++i)
    terms.push_back({b.input("x" + std::to_string(i)), weights[i]});
  BuiltSum r;
  r.word = iterated_sum(b, terms, constant, width, o);
  r.circuit = b.finish(r.word.bits);
  return r;
}

std::size_t wires(const Circuit& c) {
  std::size_t w = 0;
  for (GateId g = 0; g < c.size(); ++g) w += c.operands(g).size();
  return w;
}

// Checks a built sum against the Integer twin on the given assignments.
void check_sum(const std::vector<Integer>& weights, const Integer& constant, std::size_t width,
               const IteratedSumOptions& o, const std::vector<Assignment>& xs) {
  const BuiltSum s = build_sum(weights, constant, width, o);
  require_thr_limits(s.circuit);
  const auto outs = run_bits(s.circuit, xs);
  for (std::size_t r = 0; r < xs.size(); ++r) {
    Integer expected = iterated_sum_reference(weights, xs[r], constant);
    if (width) expected = wrap_twos_complement(expected, width);
    INFO("assignment " << r << " of " << weights.size() << " terms, width " << s.word.width());
    REQUIRE(decode(outs[r], s.word.width()) == expected);
  }
  // Depth ≤ the stated bound; size ≤ the estimate.
  const SumSize est = estimate_iterated_sum(weights, constant, width, o);
  REQUIRE(est.width == s.word.width());
  REQUIRE(compute_stats(s.circuit).depth <= iterated_sum_depth_bound(o, est));
  REQUIRE(s.circuit.size() <= est.gates + weights.size());
  REQUIRE(wires(s.circuit) <= est.wires);
}

Integer random_weight(std::mt19937_64& rng, unsigned max_bits) {
  const unsigned kind = rng() % 6;
  if (kind == 0) return 0;
  return test::random_integer(rng, 1 + static_cast<unsigned>(rng() % max_bits));
}

// ---- models ------------------------------------------------------------------------------

Model one_layer(LrnnLayer layer, std::vector<std::string> symbols = {"a", "b"},
                Acceptance::Mode mode = Acceptance::Mode::positive) {
  Model m;
  m.name = "test";
  m.alphabet = Alphabet(std::move(symbols), "test");
  m.layers.push_back(StackLayer{std::nullopt, Layer(std::move(layer))});
  m.accept.mode = mode;
  return m;
}

// S4: A = diag(decay) for every symbol, B_σ and C, S_0 given (d = decay.size(), m = 1).
// The frame of a d = C.size() layer with one output: S_0, the readout row C and its bias.
LayerFrame frame(std::size_t features, const Vector& C, const Vector& s0, const Rational& bias) {
  const std::size_t d = C.size();
  LayerFrame f;
  f.d = d;
  f.features = features;
  f.initial_state = Matrix<Rational>(d, 1);
  f.readout = Matrix<Rational>(1, d);
  for (std::size_t i = 0; i < d; ++i) {
    f.initial_state(i, 0) = s0[i];
    f.readout(0, i) = C[i];
  }
  if (bias != 0) {
    f.readout_bias = Matrix<Rational>(1, 1);
    f.readout_bias(0, 0) = bias;
  }
  return f;
}

LrnnLayer s4_layer(const Vector& decay, const std::vector<Vector>& B, const Vector& C,
                   const Vector& s0, const Rational& bias = 0) {
  const std::size_t d = decay.size();
  LayerFrame f = frame(B.size(), C, s0, bias);
  std::vector<DecayStep> steps;
  for (const Vector& b : B) {
    Matrix<Rational> Bm(d, 1);
    for (std::size_t i = 0; i < d; ++i) Bm(i, 0) = b[i];
    steps.push_back({decay, Bm});
  }
  return make_diagonal(Family::s4, std::move(f), std::move(steps));
}

// A counting model: A = I (d×d), integer B_σ: y = c·(S_0 + Σ_t B_{w_t}) + bias.
LrnnLayer counting_layer(const std::vector<Vector>& B, const Vector& C, const Vector& s0,
                         const Rational& bias = 0) {
  const std::size_t d = C.size();
  LayerFrame f = frame(B.size(), C, s0, bias);
  std::vector<AffineStep> steps;
  for (const Vector& b : B) {
    Matrix<Rational> A(d, d), Bm(d, 1);
    for (std::size_t i = 0; i < d; ++i) {
      A(i, i) = 1;
      Bm(i, 0) = b[i];
    }
    steps.push_back({A, Bm});
  }
  return make_general(std::move(f), std::move(steps));
}

Rational random_decay(std::mt19937_64& rng) {  // in (0, 1)
  const long den = 2 + static_cast<long>(rng() % 7);
  return Rational(1 + static_cast<long>(rng() % (den - 1)), den);
}

Model random_s4(std::mt19937_64& rng, std::size_t d, std::size_t S, Acceptance::Mode mode) {
  Vector decay, C, s0;
  std::vector<Vector> B(S);
  for (std::size_t i = 0; i < d; ++i) {
    decay.push_back(random_decay(rng));
    C.push_back(test::small_rational(rng));
    s0.push_back(test::small_rational(rng));
    for (auto& b : B) b.push_back(test::small_rational(rng));
  }
  std::vector<std::string> names;
  for (std::size_t s = 0; s < S; ++s) names.push_back(std::string(1, char('a' + s)));
  return one_layer(s4_layer(decay, B, C, s0, test::small_rational(rng)), names, mode);
}

Model random_counter(std::mt19937_64& rng, std::size_t d, std::size_t S, Acceptance::Mode mode) {
  Vector C, s0;
  std::vector<Vector> B(S);
  auto small_int = [&] { return Rational(static_cast<long>(rng() % 7) - 3); };
  for (std::size_t i = 0; i < d; ++i) {
    C.push_back(small_int());
    s0.push_back(small_int());
    for (auto& b : B) b.push_back(small_int());
  }
  std::vector<std::string> names;
  for (std::size_t s = 0; s < S; ++s) names.push_back(std::string(1, char('a' + s)));
  return one_layer(counting_layer(B, C, s0, small_int()), names, mode);
}

// The representative s4 model of the docs: d = 3, |Σ| = 2, generic rational decays and B.
Model docs_s4() {
  return one_layer(s4_layer({Rational(1, 2), Rational(2, 3), Rational(5, 7)},
                            {{Rational(1), Rational(-1, 3), Rational(2, 5)},
                             {Rational(-1, 2), Rational(3, 4), Rational(1, 6)}},
                            {Rational(1), Rational(1), Rational(-1)},
                            {Rational(1, 3), Rational(0), Rational(1, 2)}, Rational(-1, 8)));
}

ThresholdOptions exact_options() {
  ThresholdOptions o;
  o.precision = Precision{};
  return o;
}

ThresholdOptions log_options(unsigned c = 1) {
  ThresholdOptions o;
  o.precision = Precision::log(c);
  return o;
}

// Compiled circuit vs evaluate_convolution on every string of length n.
void check_model(const Model& m, std::size_t n, const ThresholdOptions& o) {
  const std::size_t S = m.alphabet.size();
  const CompiledCircuit cc = compile_time_invariant_threshold(m, n, o);
  const Circuit& c = cc.circuit;
  require_thr_limits(c);
  REQUIRE(c.output_names().back() == "accept");
  const std::size_t W = c.outputs().size() - 1;
  REQUIRE(c.output_names()[0] == "y.b[0]");
  const auto ws = test::all_strings(S, n, n);
  const auto outs = run_bits(c, one_hot(ws, S));
  for (std::size_t r = 0; r < ws.size(); ++r) {
    const ConvolutionValue v = evaluate_convolution(m, ws[r], o);
    INFO("n = " << n << ", string " << r << ", precision " << to_string(o.precision));
    REQUIRE(decode(outs[r], W) == v.scaled);
    REQUIRE(outs[r].back() == v.accepted);
  }
}

}  // namespace

// ---- iterated addition ----------------------------------------------------------------------

TEST_CASE("iterated_sum: hand-checked three terms", "[threshold][sum]") {
  // 3·x0 − 5·x1 + 7·x2 + 2 ranges over [−3, 12]: width 5.
  const std::vector<Integer> w{3, -5, 7};
  for (unsigned levels : {1u, 2u}) {
    IteratedSumOptions o;
    o.levels = levels;
    const BuiltSum s = build_sum(w, 2, 0, o);
    REQUIRE(s.word.width() == 5);
    REQUIRE(s.word.min == -3);
    REQUIRE(s.word.max == 12);
    const auto outs = run_bits(s.circuit, all_assignments(3));
    const long expected[8] = {2, 5, -3, 0, 9, 12, 4, 7};  // x0 + 2x1 + 4x2 = index
    for (std::size_t m = 0; m < 8; ++m) REQUIRE(decode(outs[m], 5) == expected[m]);
  }
}

TEST_CASE("iterated_sum: exhaustive on random weights, up to 10 terms", "[threshold][sum]") {
  std::mt19937_64 rng(61);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t N = 1 + rng() % 10;
    std::vector<Integer> w;
    for (std::size_t i = 0; i < N; ++i) w.push_back(random_weight(rng, trial % 3 == 0 ? 90 : 12));
    const Integer c = random_weight(rng, 20);
    IteratedSumOptions o;
    o.levels = 1 + trial % 2;
    o.block_bits = trial % 4 == 0 ? 3 : 0;  // b = 3 forces many blocks (and the adder)
    const std::size_t width = trial % 5 == 0 ? 1 + rng() % 8 : 0;  // explicit widths wrap
    INFO("trial " << trial);
    check_sum(w, c, width, o, all_assignments(N));
  }
}

TEST_CASE("iterated_sum: many terms on random inputs", "[threshold][sum]") {
  std::mt19937_64 rng(62);
  for (std::size_t N : {100u, 333u, 1000u}) {
    std::vector<Integer> w;
    for (std::size_t i = 0; i < N; ++i) w.push_back(random_weight(rng, N == 333 ? 70 : 16));
    IteratedSumOptions o;
    INFO(N << " terms");
    check_sum(w, -17, 0, o, random_assignments(rng, N, 256));
    // All ones and all zeros: the extremes of the range.
    check_sum(w, 5, 0, o, {Assignment(N, true), Assignment(N, false)});
  }
}

TEST_CASE("iterated_sum: one level refuses a block of too many terms", "[threshold][sum]") {
  // 40000 terms of 20-bit weights: b + log₂ N ≤ 29 and log₂ N ≤ b cannot both hold.
  std::mt19937_64 rng(60);
  std::vector<Integer> w;
  for (int i = 0; i < 40000; ++i) w.push_back(Integer((1 << 19) + rng() % (1 << 19)));
  IteratedSumOptions one;
  one.levels = 1;
  REQUIRE_THROWS_AS(estimate_iterated_sum(w, 0, 0, one), InputError);
  IteratedSumOptions bad;
  bad.levels = 3;
  REQUIRE_THROWS_WITH(estimate_iterated_sum(w, 0, 0, bad),
                      Catch::Contains("levels must be 1 or 2"));
  CircuitBuilder b;
  std::vector<WeightedBit> terms{{b.input("x"), 1}};
  REQUIRE_THROWS_AS(iterated_sum(b, terms, 0, 0, bad), InputError);
  // Two levels (groups of ⌈√N⌉ = 200) accept it.
  IteratedSumOptions two;
  REQUIRE(estimate_iterated_sum(w, 0, 0, two).width == 36);
}

TEST_CASE("iterated_sum: merged duplicates and constant gates", "[threshold][sum]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y");
  const GateId one = b.constant(Rational(1)), zero = b.constant(Rational(0));
  // 5x − 2x + 4y + 7·1 + 9·0 − 1 = 3x + 4y + 6.
  const std::vector<WeightedBit> terms{{x, 5}, {x, -2}, {y, 4}, {one, 7}, {zero, 9}};
  const SumWord s = iterated_sum(b, terms, -1);
  REQUIRE(s.min == 6);
  REQUIRE(s.max == 13);
  const Circuit c = b.finish(s.bits);
  const auto outs = run_bits(c, all_assignments(2));
  for (std::size_t m = 0; m < 4; ++m)
    REQUIRE(decode(outs[m], s.width()) == 6 + 3 * long(m & 1) + 4 * long(m >> 1));
}

TEST_CASE("iterated_sum_words: unsigned and two's-complement words", "[threshold][sum]") {
  std::mt19937_64 rng(63);
  for (bool tc : {false, true}) {
    for (std::size_t count : {2u, 7u, 40u}) {
      CircuitBuilder b;
      std::vector<std::vector<GateId>> words;
      std::vector<Integer> weights;
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t p = 1 + rng() % 9;
        words.emplace_back();
        for (std::size_t i = 0; i < p; ++i) {
          words.back().push_back(b.input());
          weights.push_back(tc && i + 1 == p ? -(Integer(1) << i) : Integer(1) << i);
        }
      }
      const SumWord s = iterated_sum_words(b, words, tc);
      const Circuit c = b.finish(s.bits);
      require_thr_limits(c);
      const auto xs = random_assignments(rng, weights.size(), 200);
      const auto outs = run_bits(c, xs);
      for (std::size_t r = 0; r < xs.size(); ++r)
        REQUIRE(decode(outs[r], s.width()) == iterated_sum_reference(weights, xs[r]));
    }
  }
}

TEST_CASE("iterated_sum: scalar evaluator agrees with the bit-parallel one", "[threshold][sum]") {
  std::mt19937_64 rng(64);
  std::vector<Integer> w;
  for (int i = 0; i < 9; ++i) w.push_back(random_weight(rng, 40));
  const BuiltSum s = build_sum(w, 11, 0, {});
  IntegerRing ring;
  for (const Assignment& x : all_assignments(9)) {
    std::vector<Integer> in(x.begin(), x.end());
    const auto out = evaluate(s.circuit, ring, std::span<const Integer>(in));
    std::vector<bool> bits;
    for (const Integer& v : out) bits.push_back(v != 0);
    REQUIRE(decode_twos_complement(bits) == iterated_sum_reference(w, x, 11));
  }
}

TEST_CASE("iterated_sum: depth is constant in the number of terms", "[threshold][sum][depth]") {
  std::mt19937_64 rng(65);
  std::vector<std::size_t> depths;
  for (std::size_t N : {16u, 64u, 256u, 1024u}) {
    std::vector<Integer> w;
    for (std::size_t i = 0; i < N; ++i) w.push_back(test::random_integer(rng, 40));
    IteratedSumOptions o;
    const BuiltSum s = build_sum(w, 0, 0, o);
    const SumSize est = estimate_iterated_sum(w, 0, 0, o);
    REQUIRE(est.last_level_blocks > 1);
    REQUIRE(iterated_sum_depth_bound(o, est) == 8);
    depths.push_back(compute_stats(s.circuit).depth);
  }
  REQUIRE(depths == std::vector<std::size_t>(4, 8));
}

TEST_CASE("iterated_sum: two levels cut the wires", "[threshold][sum][size]") {
  std::mt19937_64 rng(66);
  std::vector<Integer> w;
  for (int i = 0; i < 400; ++i) w.push_back(test::random_integer(rng, 12));
  IteratedSumOptions one, two;
  one.levels = 1;
  const BuiltSum a = build_sum(w, 0, 0, one), b = build_sum(w, 0, 0, two);
  REQUIRE(wires(b.circuit) * 4 < wires(a.circuit));
}

// ---- time-invariant LRNNs ---------------------------------------------------------------------

TEST_CASE("threshold LRNN: counting model, hand-checked", "[threshold][lrnn]") {
  // y = #a − 2·#b + 1 over {a, b}; accept y > 0.
  const Model m =
      one_layer(counting_layer({{Rational(1)}, {Rational(-2)}}, {Rational(1)}, {Rational(1)}));
  const ConvolutionForm f = convolution_form(m, 3, exact_options());
  REQUIRE(f.weights == std::vector<Integer>{1, -2, 1, -2, 1, -2});
  REQUIRE(f.constant == 1);
  REQUIRE(f.scale == 1);
  const CompiledCircuit cc = compile_time_invariant_threshold(m, 3, exact_options());
  // Range [1 − 6, 1 + 3] = [−5, 4]: 4 bits, then accept.
  REQUIRE(cc.circuit.outputs().size() == 5);
  const auto outs = run_bits(cc.circuit, one_hot({{0, 0, 1}, {1, 1, 0}, {0, 0, 0}}, 2));
  REQUIRE(decode(outs[0], 4) == 1);
  REQUIRE(outs[0].back());
  REQUIRE(decode(outs[1], 4) == -2);
  REQUIRE(!outs[1].back());
  REQUIRE(decode(outs[2], 4) == 4);
  // The acceptance is one thr gate over the six inputs (depth 1).
  const GateId acc = cc.circuit.outputs().back();
  REQUIRE(cc.circuit.kind(acc) == GateKind::thr);
  REQUIRE(cc.circuit.operands(acc).size() == 6);
}

TEST_CASE("threshold LRNN: exhaustive against evaluate_convolution", "[threshold][lrnn]") {
  std::mt19937_64 rng(67);
  for (int trial = 0; trial < 12; ++trial) {
    const auto mode = trial % 3 == 2 ? Acceptance::Mode::zero : Acceptance::Mode::positive;
    const std::size_t S = 2 + trial % 2;
    const Model m =
        trial % 2 == 0 ? random_s4(rng, 1 + trial % 3, S, mode) : random_counter(rng, 2, S, mode);
    for (std::size_t n : {1u, 3u, S == 2 ? 6u : 4u}) {
      check_model(m, n, exact_options());
      check_model(m, n, log_options(1 + trial % 2));
    }
  }
}

TEST_CASE("threshold LRNN: every 0/1 input, not only one-hot", "[threshold][lrnn]") {
  std::mt19937_64 rng(68);
  const Model m = docs_s4();
  for (const ThresholdOptions& o : {exact_options(), log_options()}) {
    const std::size_t n = 5;
    const ConvolutionForm f = convolution_form(m, n, o);
    const CompiledCircuit cc = compile_time_invariant_threshold(m, n, o);
    const std::size_t W = cc.circuit.outputs().size() - 1;
    const auto xs = all_assignments(n * 2);
    const auto outs = run_bits(cc.circuit, xs);
    for (std::size_t r = 0; r < xs.size(); ++r) {
      const Integer y = iterated_sum_reference(f.weights, xs[r], f.constant);
      REQUIRE(decode(outs[r], W) == y);
      REQUIRE(outs[r].back() == (y > 0));
    }
  }
}

TEST_CASE("threshold LRNN: counting models agree with the reference evaluator",
          "[threshold][lrnn][semantics]") {
  std::mt19937_64 rng(69);
  for (int trial = 0; trial < 6; ++trial) {
    const Model m = random_counter(rng, 1 + trial % 3, 2 + trial % 2,
                                   trial % 2 ? Acceptance::Mode::zero : Acceptance::Mode::positive);
    const std::size_t S = m.alphabet.size();
    const std::size_t n = S == 2 ? 6 : 4;
    const CompiledCircuit exact = compile_time_invariant_threshold(m, n, exact_options());
    const auto ws = test::all_strings(S, n, n);
    const auto outs = run_bits(exact.circuit, one_hot(ws, S));
    const std::size_t W = exact.circuit.outputs().size() - 1;
    RationalField q;
    // I = 16 integer bits: the sequential run must not saturate (the convolution never does).
    const FixedPoint fx(log_precision(1, n, 16, Rounding::nearest_even, Overflow::saturate));
    for (std::size_t r = 0; r < ws.size(); ++r) {
      const auto y = evaluate(m, q, ws[r]).outputs().back();
      REQUIRE(Rational(decode(outs[r], W)) == y(0, 0));  // integer model: D = 1
      REQUIRE(outs[r].back() == *accepts(m.accept, q, y));
      // Integer parameters: the sequential log-precision run never rounds, so it equals the
      // convolution-rounded value too.
      const auto yf = evaluate(m, fx, ws[r]).outputs().back();
      const ConvolutionValue v = evaluate_convolution(m, ws[r], log_options());
      REQUIRE(fx.to_rational(yf(0, 0)) == v.value);
      REQUIRE(v.value == y(0, 0));
    }
  }
}

TEST_CASE("threshold LRNN: exact convolution equals the exact reference on s4 models",
          "[threshold][lrnn][semantics]") {
  std::mt19937_64 rng(70);
  for (int trial = 0; trial < 4; ++trial) {
    const Model m = random_s4(rng, 2, 2, Acceptance::Mode::positive);
    RationalField q;
    for (const auto& w : test::all_strings(2, 1, 6)) {
      const ConvolutionValue v = evaluate_convolution(m, w, exact_options());
      REQUIRE(v.value == evaluate(m, q, w).outputs().back()(0, 0));
      REQUIRE(v.value * Rational(v.scale) == Rational(v.scaled));
    }
  }
}

TEST_CASE("threshold LRNN: convolution rounding differs from sequential rounding",
          "[threshold][lrnn][semantics]") {
  // d = 1, A = 1/2, B_a = 1/3, B_b = −1/3, C = 1, S_0 = 0: the sequential rule rounds S_t
  // every step, the convolution form rounds each K_j = 2^{−j}/3 once.
  const Model m = one_layer(s4_layer({Rational(1, 2)}, {{Rational(1, 3)}, {Rational(-1, 3)}},
                                     {Rational(1)}, {Rational(0)}));
  const std::size_t n = 6;
  const FixedPoint fx(
      log_precision(1, n, std::nullopt, Rounding::nearest_even, Overflow::saturate));
  std::size_t differ = 0;
  for (const auto& w : test::all_strings(2, n, n)) {
    const Rational seq = fx.to_rational(evaluate(m, fx, w).outputs().back()(0, 0));
    const ConvolutionValue v = evaluate_convolution(m, w, log_options());
    if (seq != v.value) ++differ;
  }
  REQUIRE(differ > 0);
  // One witness: aaaaaa. F = 3: sequential S = 0.375 after rounding every step; convolution
  // Σ_j round(8/(3·2^j))/8 = (3 + 1 + 1 + 0 + 0 + 0)/8 = 0.625.
  const std::vector<std::size_t> a6(6, 0);
  REQUIRE(evaluate_convolution(m, a6, log_options()).value == Rational(5, 8));
  REQUIRE(fx.to_rational(evaluate(m, fx, a6).outputs().back()(0, 0)) != Rational(5, 8));
}

TEST_CASE("threshold LRNN: depth does not grow with n", "[threshold][lrnn][depth]") {
  const Model m = docs_s4();
  std::vector<std::size_t> depths;
  for (std::size_t n : {4u, 16u, 64u, 256u}) {
    const ThresholdOptions o = log_options();
    const CompiledCircuit cc = compile_time_invariant_threshold(m, n, o);
    const ThresholdEstimate e = estimate_time_invariant_threshold_size(m, n, o);
    const auto stats = compute_stats(cc.circuit);
    REQUIRE(stats.depth <= e.depth);
    REQUIRE(cc.circuit.size() <= e.gates);
    REQUIRE(wires(cc.circuit) <= e.wires);
    require_thr_limits(cc.circuit);
    depths.push_back(stats.depth);
  }
  REQUIRE(depths == std::vector<std::size_t>(4, depths[0]));
  REQUIRE(depths[0] == 4);
}

TEST_CASE("threshold LRNN: acceptance from the word when the weights are wide",
          "[threshold][lrnn]") {
  // Exact s4 at n = 24: D = lcm of 2^j 3^j 7^j … exceeds int32, so acceptance reads the word.
  const Model m = docs_s4();
  const ThresholdOptions o = exact_options();
  const ThresholdEstimate e = estimate_time_invariant_threshold_size(m, 24, o);
  REQUIRE(!e.accept_direct);
  check_model(m, 6, o);  // n = 6 still exhaustive; check the word path at n = 24 on samples
  const CompiledCircuit cc = compile_time_invariant_threshold(m, 24, o);
  std::mt19937_64 rng(71);
  Strings ws;
  for (int i = 0; i < 64; ++i) {
    std::vector<std::size_t> w(24);
    for (auto& s : w) s = rng() % 2;
    ws.push_back(w);
  }
  const auto outs = run_bits(cc.circuit, one_hot(ws, 2));
  const std::size_t W = cc.circuit.outputs().size() - 1;
  for (std::size_t r = 0; r < ws.size(); ++r) {
    const ConvolutionValue v = evaluate_convolution(m, ws[r], o);
    REQUIRE(decode(outs[r], W) == v.scaled);
    REQUIRE(outs[r].back() == v.accepted);
  }
}

TEST_CASE("threshold LRNN: refusals", "[threshold][lrnn][errors]") {
  const Model good = docs_s4();
  REQUIRE_THROWS_WITH(compile_time_invariant_threshold(good, 0), Catch::Contains("n ≥ 1"));
  // A differing A (a general layer whose symbols have different transitions).
  {
    LayerFrame f;
    f.d = 1;
    f.features = 2;
    f.initial_state = Matrix<Rational>(1, 1);
    f.readout = Matrix<Rational>(1, 1, Rational(1));
    Matrix<Rational> A1(1, 1, Rational(1)), A2(1, 1, Rational(1, 2)), B(1, 1, Rational(1));
    const Model m = one_layer(make_general(f, {{A1, B}, {A2, B}}), {"up", "half"});
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(m, 4),
                        Catch::Contains("A of symbol 'half' differs"));
    REQUIRE_THROWS_AS(estimate_time_invariant_threshold_gates(m, 4), InputError);
  }
  // Per-symbol readouts.
  {
    LrnnLayer l = std::get<LrnnLayer>(good.layers[0].layer);
    l.readout_feature.assign(2, l.readout);
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(one_layer(l), 4),
                        Catch::Contains("per-symbol readouts"));
  }
  // Two layers; a non-LRNN layer.
  {
    Model m = good;
    m.layers.push_back(m.layers[0]);
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(m, 4),
                        Catch::Contains("exactly one layer"));
    Model e = good;
    ElmanLayer el;
    el.d = 1;
    el.features = 2;
    e.layers[0].layer = el;
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(e, 4), Catch::Contains("LRNN layer"));
  }
  // An acceptance entry outside the output.
  {
    Model m = good;
    m.accept.row = 3;
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(m, 4), Catch::Contains("outside"));
  }
  // Estimates above the limits.
  {
    ThresholdOptions o;
    o.budget.max_gates = 40;
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(good, 16, o), Catch::Contains("gates"));
    o.budget.max_gates = std::size_t{1} << 26;
    o.max_wires = 100;
    REQUIRE_THROWS_WITH(compile_time_invariant_threshold(good, 16, o),
                        Catch::Contains("wires), more than the limit of 100 wires"));
  }
}
