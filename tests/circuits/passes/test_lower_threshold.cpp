// lower_threshold_gates: every maj/thr gate of seeded random threshold circuits (small, large
// and extreme weights, thresholds at the boundary) lowered to and/or/xor/not computes the same
// function on every input; the stats on hand-checked cases (a majority of three, thresholds
// that fold to constants); other gates are copied as they are. The Dadda lowering against its
// ripple twin and a direct Σ wᵢxᵢ ≥ θ oracle (exhaustive and 64-bit-parallel random patterns),
// its O(log k) depth on k-input majorities, and ABC's cec of the two lowerings.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "circuits/analysis.hpp"
#include "circuits/arith/integer_arith.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "tests/circuits/abc_testing.hpp"
#include "tests/circuits/netlist_testing.hpp"

using namespace rnncc;
using testing::truth_table;

TEST_CASE("lower_threshold_gates: the adder-comparator computes every threshold gate",
          "[circuits][passes][lower_threshold]") {
  std::mt19937_64 rng(62);
  for (int trial = 0; trial < 300; ++trial) {
    INFO("trial " << trial);
    CircuitBuilder b;
    std::vector<GateId> in;
    const std::size_t n = 1 + trial % 6;
    for (std::size_t i = 0; i < n; ++i) in.push_back(b.input());
    in.push_back(b.constant(Rational(1)));
    in.push_back(b.constant(Rational(0)));
    std::vector<GateId> outs;
    for (int g = 0; g < 6; ++g) {
      std::vector<GateId> ops;
      std::vector<std::int32_t> w;
      const std::size_t k = 1 + rng() % 8;
      for (std::size_t i = 0; i < k; ++i) {
        ops.push_back(in[rng() % in.size()]);
        const int scale = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 40 : 1 << 20;
        w.push_back(static_cast<std::int32_t>(rng() % (2 * scale + 1)) - scale);
      }
      std::int64_t lo = 0, hi = 0;  // the range of Σ wᵢxᵢ, so thresholds hit the boundary
      for (std::int32_t x : w) (x < 0 ? lo : hi) += x;
      const std::int32_t theta =
          static_cast<std::int32_t>(lo - 1 + static_cast<std::int64_t>(rng() % (hi - lo + 3)));
      outs.push_back(g % 3 == 0 ? b.raw(GateKind::maj, ops) : b.raw(GateKind::thr, ops, w, theta));
    }
    const std::int32_t extreme_w[] = {INT32_MIN, INT32_MAX, 1};
    const GateId extreme_ops[] = {in[0], in[n > 1 ? 1 : 0], in[0]};
    outs.push_back(b.raw(GateKind::thr, extreme_ops, extreme_w, -1));
    Circuit c = b.finish(outs);
    LowerThresholdStats st;
    Circuit lowered = lower_threshold_gates(c, &st);
    CHECK(st.lowered == outs.size());
    CHECK(st.gates_in == c.size());
    CHECK(st.gates_out == lowered.size());
    for (GateId id = 0; id < lowered.size(); ++id) {
      CHECK(lowered.kind(id) != GateKind::maj);
      CHECK(lowered.kind(id) != GateKind::thr);
    }
    // Exhaustive: n ≤ 6 inputs fit one word.
    std::vector<bits::Word> words(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t m = 0; m < 64; ++m)
        if ((m >> i) & 1) words[i] |= bits::Word{1} << m;
    REQUIRE(evaluate_bits(lowered, words) == evaluate_bits(c, words));
  }
}

TEST_CASE("lower_threshold_gates: stats on hand-checked cases",
          "[circuits][passes][lower_threshold]") {
  SECTION("maj(x, y, z): one full adder; its sum bit is not read") {
    CircuitBuilder b;
    const GateId in[] = {b.input("x"), b.input("y"), b.input("z")};
    const Circuit c = b.finish({b.raw(GateKind::maj, in)}, {"m"});
    LowerThresholdStats st;
    const Circuit d = lower_threshold_gates_ripple(c, &st);
    // The ripple twin: S = x + y + z ≥ T = 2 = 0b10: column 0 is one full adder (t = x⊕y, sum =
    // t⊕z, carry = (x∧y) ∨ (z∧t)); the comparator reads bit 1 only (bit 0 of T is 0, and g₋₁ = 1),
    // so the output is the carry and the sum bit is swept.
    CHECK(st.gates_in == 4);
    CHECK(st.lowered == 1);
    CHECK(st.swept == 1);
    CHECK(st.gates_out == 3 + 4);  // inputs, t, x∧y, z∧t, carry
    CHECK(d.size() == st.gates_out);
    CHECK(d.kind(d.outputs()[0]) == GateKind::or_);
    CHECK(d.output_names() == c.output_names());
    CHECK(d.input_names() == c.input_names());
    CHECK(truth_table(d, 0) == 0xE8);  // majority of three: minterms 3, 5, 6, 7
    // The Dadda lowering: S + 2² − 2 = x + y + z + 0b10; Dadda's one stage (target 2) takes a
    // half adder x⊕y, x∧y in column 0 (rows x⊕y, z; column 1: x∧y and the constant 1); the
    // carry out of the low two columns folds to (x∧y) ∨ 1∧((x⊕y)∧z) = (x∧y) ∨ ((x⊕y)∧z):
    // 4 gates, as the ripple twin.
    const Circuit e = lower_threshold_gates(c, &st);
    CHECK(st.gates_out == 3 + 4);
    CHECK(e.kind(e.outputs()[0]) == GateKind::or_);
    CHECK(truth_table(e, 0) == 0xE8);
  }
  SECTION("common factors divide out; all-ones and any-one thresholds are one gate") {
    CircuitBuilder b;
    const GateId x = b.input(), y = b.input(), z = b.input();
    const GateId xyz[] = {x, y, z};
    const std::int32_t w3[] = {3, 3, 3}, w46[] = {4, 6, -6};
    const GateId all = b.raw(GateKind::thr, xyz, w3, 7);    // 3(x+y+z) ≥ 7 ⇔ x+y+z ≥ 3: and
    const GateId any = b.raw(GateKind::thr, xyz, w46, -5);  // 4x + 6y + 6¬z ≥ 1: or(x, y, ¬z)
    const Circuit c = b.finish({all, any});
    LowerThresholdStats st;
    const Circuit d = lower_threshold_gates(c, &st);
    CHECK(st.gates_out == 3 + 3);  // inputs, x∧y∧z, ¬z, x∨y∨¬z
    CHECK(d.kind(d.outputs()[0]) == GateKind::and_);
    CHECK(d.operands(d.outputs()[0]).size() == 3);
    CHECK(d.kind(d.outputs()[1]) == GateKind::or_);
    CHECK(truth_table(d, 0) == 0x80);
    CHECK(truth_table(d, 1) == truth_table(lower_threshold_gates_ripple(c), 1));
  }
  SECTION("thresholds out of reach fold to constants; other gates are copied") {
    CircuitBuilder b;
    const GateId x = b.input(), y = b.input();
    const GateId xy[] = {x, y};
    const std::int32_t w[] = {2, -3};
    const GateId never = b.raw(GateKind::thr, xy, w, 3);    // 2x − 3y ≥ 3: never
    const GateId always = b.raw(GateKind::thr, xy, w, -3);  // 2x − 3y ≥ −3: always
    const GateId both = b.raw(GateKind::and_, xy);
    const Circuit c = b.finish({never, always, both});
    LowerThresholdStats st;
    const Circuit d = lower_threshold_gates(c, &st);
    CHECK(st.lowered == 2);
    CHECK(st.swept == 1);              // the ¬y of the negative weight, read by no adder
    CHECK(st.gates_out == 2 + 2 + 1);  // x, y, the constants 0 and 1, x∧y
    CHECK(d.kind(d.outputs()[0]) == GateKind::constant);
    CHECK(d.constant(d.outputs()[0]) == 0);
    CHECK(d.constant(d.outputs()[1]) == 1);
    CHECK(d.kind(d.outputs()[2]) == GateKind::and_);
  }
}

namespace {

// A circuit of `gates` maj/thr gates over n inputs and the two constants (fan-in 1..40, weights
// of up to ±2^30, negative ones, repeated operands), each gate an output; `spec` records them for
// the direct oracle.
struct GateSpec {
  bool maj;
  std::vector<std::size_t> ops;  // index into inputs, n = constant 1, n + 1 = constant 0
  std::vector<std::int32_t> w;
  std::int32_t theta;
};

Circuit random_threshold_circuit(std::mt19937_64& rng, std::size_t n, int gates,
                                 std::vector<GateSpec>& spec) {
  CircuitBuilder b;
  std::vector<GateId> in;
  for (std::size_t i = 0; i < n; ++i) in.push_back(b.input());
  in.push_back(b.constant(Rational(1)));
  in.push_back(b.constant(Rational(0)));
  std::vector<GateId> outs;
  spec.clear();
  for (int g = 0; g < gates; ++g) {
    GateSpec s;
    s.maj = rng() % 4 == 0;
    const std::size_t k = 1 + rng() % 40;
    const int bits = static_cast<int>(rng() % 31);  // |w| < 2^bits + 1, up to 2^30
    for (std::size_t i = 0; i < k; ++i) {
      s.ops.push_back(rng() % 8 == 0 ? n + rng() % 2 : rng() % n);
      const std::int64_t scale = std::int64_t{1} << bits;
      s.w.push_back(static_cast<std::int32_t>(
          static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * scale + 1)) - scale));
    }
    std::int64_t lo = 0, hi = 0;
    for (std::int32_t x : s.w) (x < 0 ? lo : hi) += x;
    // Thresholds near the boundary, anywhere in between, or out of range (constants).
    const std::int64_t t =
        rng() % 3 == 0
            ? (rng() % 2 ? lo : hi) + static_cast<int>(rng() % 3) - 1
            : lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    s.theta = static_cast<std::int32_t>(std::clamp<std::int64_t>(t, INT32_MIN, INT32_MAX));
    std::vector<GateId> ops;
    for (std::size_t o : s.ops) ops.push_back(in[o]);
    outs.push_back(s.maj ? b.raw(GateKind::maj, ops) : b.raw(GateKind::thr, ops, s.w, s.theta));
    spec.push_back(std::move(s));
  }
  return b.finish(outs);
}

// The direct oracle: bit m of output g is [Σ wᵢxᵢ ≥ θ] (maj: [Σ xᵢ > k/2]) on pattern m.
std::vector<bits::Word> direct(const std::vector<GateSpec>& spec,
                               const std::vector<bits::Word>& words) {
  std::vector<bits::Word> out;
  const std::size_t n = words.size();
  for (const GateSpec& s : spec) {
    bits::Word r = 0;
    for (unsigned m = 0; m < 64; ++m) {
      std::int64_t sum = 0;
      for (std::size_t i = 0; i < s.ops.size(); ++i) {
        const bool x = s.ops[i] == n       ? true
                       : s.ops[i] == n + 1 ? false
                                           : (words[s.ops[i]] >> m) & 1;
        if (x) sum += s.maj ? 1 : s.w[i];
      }
      const bool v = s.maj ? 2 * sum > static_cast<std::int64_t>(s.ops.size()) : sum >= s.theta;
      if (v) r |= bits::Word{1} << m;
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("lower_threshold_gates: Dadda lowering == ripple twin == Σ wᵢxᵢ ≥ θ",
          "[circuits][passes][lower_threshold]") {
  std::mt19937_64 rng(1616);
  std::vector<GateSpec> spec;
  for (int trial = 0; trial < 120; ++trial) {
    INFO("trial " << trial);
    const bool exhaustive = trial % 2 == 0;
    const std::size_t n = exhaustive ? 1 + trial % 6 : 7 + rng() % 34;
    const Circuit c = random_threshold_circuit(rng, n, 8, spec);
    const Circuit dadda = lower_threshold_gates(c), ripple = lower_threshold_gates_ripple(c);
    // The stated depth (header): 2·s(h) + 2 + 2⌈log₃ m⌉, +1 for the not of a negative weight;
    // h ≤ 41, m ≤ 36 (W ≤ 40·2^30), ⌈log₃ 36⌉ = 4.
    CHECK(compute_stats(dadda).depth <= 2 * compressor_stages(Reduction::dadda, 41) + 11);
    for (GateId id = 0; id < dadda.size(); ++id) {
      REQUIRE(dadda.kind(id) != GateKind::maj);
      REQUIRE(dadda.kind(id) != GateKind::thr);
    }
    for (int round = 0; round < (exhaustive ? 1 : 8); ++round) {
      std::vector<bits::Word> words(n, 0);
      for (std::size_t i = 0; i < n; ++i)
        if (exhaustive) {
          for (std::size_t m = 0; m < 64; ++m)
            if ((m >> i) & 1) words[i] |= bits::Word{1} << m;
        } else {
          words[i] = rng();
        }
      const auto want = direct(spec, words);
      REQUIRE(evaluate_bits(c, words) == want);
      REQUIRE(evaluate_bits(dadda, words) == want);
      REQUIRE(evaluate_bits(ripple, words) == want);
    }
  }
}

TEST_CASE("lower_threshold_gates: a k-input majority has depth O(log k)",
          "[circuits][passes][lower_threshold]") {
  // Stated: unbounded fan-in depth ≤ 3.5·log₂k + 6, fan-in-2 depth ≤ 6·log₂k + 6, for
  // k = 1 … 256 (Dadda: ⌈log_{3/2} k⌉ stages of depth 2 (3 bounded), then the lookahead carry
  // 3 (2⌈log₂ log₂ k⌉ + 2) and an xor). A lowering of depth Ω(k) (a ripple over the
  // inputs) fails at k = 256: 3.5·8 + 6 = 34.
  for (std::size_t k = 1; k <= 256; k += (k < 40 ? 1 : 9)) {
    INFO("k = " << k);
    CircuitBuilder b;
    std::vector<GateId> in;
    for (std::size_t i = 0; i < k; ++i) in.push_back(b.input());
    const Circuit c = b.finish({b.raw(GateKind::maj, in)});
    const double lg = std::log2(static_cast<double>(k));
    const auto d = compute_stats(lower_threshold_gates(c));
    CHECK(d.depth <= 3.5 * lg + 6);
    CHECK(d.bounded_fanin_depth <= 6 * lg + 6);
  }
}

TEST_CASE("lower_threshold_gates: ABC's cec proves the Dadda and ripple lowerings equivalent",
          "[circuits][passes][lower_threshold][abc]") {
  REQUIRE_ABC();
  testing::TempDir tmp;
  std::mt19937_64 rng(4242);
  std::vector<GateSpec> spec;
  for (int trial = 0; trial < 3; ++trial) {
    const Circuit c = random_threshold_circuit(rng, 12 + 4 * trial, 4, spec);
    const std::string a =
        tmp.file("a.aig", write_aiger(lower_threshold_gates(c), AigerFormat::binary));
    const std::string r =
        tmp.file("r.aig", write_aiger(lower_threshold_gates_ripple(c), AigerFormat::binary));
    const std::string out = testing::abc("cec -n " + a + " " + r);
    INFO(out);
    CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
  }
}

TEST_CASE("lower_threshold_gates: every threshold θ from below 0 to above W, against the twin",
          "[circuits][passes][lower_threshold]") {
  // The constant 2^m − T of the comparator takes every value: for each weight vector (unit,
  // common factors, powers of two as in a comparison of two words, mixed signs), every θ with
  // T from 0 to W + 1, exhaustively on n ≤ 6 inputs: the Dadda lowering (folded constant,
  // gcd, and/or cases) == the ripple twin == Σ wᵢxᵢ ≥ θ.
  const std::vector<std::vector<std::int32_t>> weight_sets = {{1, 1, 1, 1, 1, 1},
                                                              {6, 6, -6, 12, 18},
                                                              {1, 2, 4, -1, -2, -4},
                                                              {64, 64, -64, -64},
                                                              {5, -3, 7, 1, 9, -11},
                                                              {1},
                                                              {-2},
                                                              {1000003, -999999, 3, 1 << 20}};
  for (const auto& w : weight_sets) {
    const std::size_t n = w.size();
    std::int64_t lo = 0, hi = 0;
    for (std::int32_t a : w) (a < 0 ? lo : hi) += a;
    for (std::int64_t theta = lo - 1; theta <= hi + 1; theta += (hi - lo > 200 ? 997 : 1)) {
      INFO("n = " << n << ", θ = " << theta);
      CircuitBuilder b;
      std::vector<GateId> in;
      for (std::size_t i = 0; i < n; ++i) in.push_back(b.input());
      const Circuit c = b.finish({b.raw(GateKind::thr, in, w, static_cast<std::int32_t>(theta))});
      const Circuit d = lower_threshold_gates(c), r = lower_threshold_gates_ripple(c);
      std::uint64_t want = 0;
      for (std::size_t p = 0; p < (std::size_t{1} << n); ++p) {
        std::int64_t s = 0;
        for (std::size_t i = 0; i < n; ++i)
          if ((p >> i) & 1) s += w[i];
        if (s >= theta) want |= std::uint64_t{1} << p;
      }
      const std::uint64_t mask = n == 6 ? ~std::uint64_t{0} : (std::uint64_t{1} << (1u << n)) - 1;
      CHECK((truth_table(d, 0) & mask) == want);
      CHECK((truth_table(r, 0) & mask) == want);
    }
  }
}

TEST_CASE("at_least: the comparator with a constant operand == its ripple twin == s ≥ T",
          "[circuits][passes][lower_threshold]") {
  // Every width w ≤ 6 and every constant T = 0 … 2^w + 1, exhaustively: the folded comparator
  // (runs of T's 1-bits as ands, 0-bits as ors, a radix-3 lookahead tree) against the plain
  // twin g₋₁ = 1, g_j = s_j ∧ g_{j−1} (bit j of T is 1) or s_j ∨ g_{j−1} (0), and against the
  // value of s; its stated depth ≤ 2⌈log₃(w + 1)⌉ and size ≤ 2w.
  for (std::size_t w = 1; w <= 6; ++w)
    for (std::uint64_t T = 0; T <= (std::uint64_t{1} << w) + 1; ++T) {
      INFO("w = " << w << ", T = " << T);
      CircuitBuilder b;
      std::vector<GateId> s;
      for (std::size_t j = 0; j < w; ++j) s.push_back(b.input());
      const GateId folded = at_least(b, s, T);
      GateId g = b.constant(Rational(1));
      for (std::size_t j = 0; j < w; ++j) {
        const GateId sg[] = {s[j], g};
        g = ((T >> j) & 1) ? b.and_(sg) : b.or_(sg);
      }
      const GateId twin = T >> w ? b.constant(Rational(0)) : g;
      const Circuit c = b.finish({folded, twin});
      std::uint64_t want = 0;
      for (std::uint64_t p = 0; p < (std::uint64_t{1} << w); ++p)
        if (p >= T) want |= std::uint64_t{1} << p;
      CHECK(truth_table(c, 0) == want);
      CHECK(truth_table(c, 1) == want);
      CircuitBuilder alone;
      std::vector<GateId> t;
      for (std::size_t j = 0; j < w; ++j) t.push_back(alone.input());
      const GateId out = at_least(alone, t, T);
      const Circuit only = sweep_dead_gates(alone.finish({out}));
      std::size_t levels = 0;
      for (std::size_t k = 1; k < w + 1; k *= 3) ++levels;
      CHECK(compute_stats(only).depth <= 2 * levels);
      CHECK(only.size() <= w + 1 + 2 * w);  // inputs, a constant, gates
    }
}
