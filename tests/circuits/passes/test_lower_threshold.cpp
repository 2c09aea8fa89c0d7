// lower_threshold_gates: every maj/thr gate of seeded random threshold circuits (small, large
// and extreme weights, thresholds at the boundary) lowered to and/or/xor/not computes the same
// function on every input; the stats on hand-checked cases (a majority of three, thresholds
// that fold to constants); other gates are copied as they are.
#include <catch2/catch.hpp>

#include <random>

#include "../netlist_testing.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/passes/lower_threshold.hpp"

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
    const Circuit d = lower_threshold_gates(c, &st);
    // S = x + y + z ≥ T = 2 = 0b10: column 0 is one full adder (t = x⊕y, sum = t⊕z,
    // carry = (x∧y) ∨ (z∧t)); the comparator reads bit 1 only (bit 0 of T is 0, and g₋₁ = 1),
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
