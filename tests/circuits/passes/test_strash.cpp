// strash: ABC's structural hashing rules and the stats on a hand-checked circuit; seeded
// random boolean circuits (thresholds lowered first) keep their function, strash is idempotent
// on its own output, and it never has more AND nodes than the unhashed AIG lowering.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/passes/aig_lowering.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/strash.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"

using namespace rnncc;

TEST_CASE("strash: ABC's structural hashing rules, hand-checked", "[circuits][passes][strash]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y"), z = b.input("z");
  // raw gates, so that nothing is folded before strash sees it
  auto raw2 = [&](GateKind k, GateId p, GateId q) {
    const std::array<GateId, 2> ops{p, q};
    return b.raw(k, ops);
  };
  const std::array<GateId, 1> xo{x};
  const GateId nx = b.raw(GateKind::not_, xo);
  const GateId contradiction = raw2(GateKind::and_, x, nx);                       // x ∧ ¬x = 0
  const GateId idem = raw2(GateKind::and_, y, y);                                 // y ∧ y = y
  const GateId a1 = raw2(GateKind::and_, x, y), a2 = raw2(GateKind::and_, y, x);  // one node
  const GateId both = raw2(GateKind::or_, a1, a2);   // ¬(¬a ∧ ¬a) = a
  raw2(GateKind::and_, z, x);                        // dead: no output reads it
  const GateId parity = raw2(GateKind::xor_, x, y);  // three ANDs
  const Circuit c = b.finish({contradiction, idem, both, parity});
  StrashStats st;
  const Circuit s = strash(c, &st);
  REQUIRE(s.inputs().size() == 3);
  REQUIRE(and_count(s) == 1 + 3);  // x∧y, and xor's three nodes (x∧¬y, ¬x∧y, their NOR)
  REQUIRE(aig_levels(s) == 2);
  REQUIRE(s.kind(s.outputs()[0]) == GateKind::constant);
  REQUIRE(s.outputs()[1] == s.inputs()[1]);
  // Requests: x∧¬x, y∧y, x∧y, y∧x, ¬a∧¬a, z∧x, x∧¬y, ¬x∧y, and their NOR's ¬p∧¬q.
  CHECK(st.gates_in == c.size());
  CHECK(st.and_nodes == 4);
  CHECK(st.merged == 1);  // y∧x is x∧y
  CHECK(st.folded == 3);  // x∧¬x = 0, y∧y = y, ¬a∧¬a = ¬a
  CHECK(st.dead == 1);    // z∧x
  // 3 inputs, 4 ANDs, NOTs of y, x, the two xor halves and the NOR, the constant 0 output.
  CHECK(st.gates_out == 3 + 4 + 5 + 1);
  CHECK(st.gates_out == s.size());
  for (std::uint32_t m = 0; m < 8; ++m) {
    std::vector<Rational> in{Rational(m & 1), Rational(m >> 1 & 1), Rational(m >> 2 & 1)};
    REQUIRE(evaluate(c, RationalField(), std::span<const Rational>(in)) ==
            evaluate(s, RationalField(), std::span<const Rational>(in)));
  }
  CircuitBuilder t;
  const GateId u = t.input("u");
  const std::array<GateId, 1> uo{u};
  const std::int32_t w = 1;
  REQUIRE_THROWS_AS(strash(t.finish({t.raw(GateKind::thr, uo, std::span(&w, 1), 1)})),
                    std::invalid_argument);
}

TEST_CASE("strash keeps the function of random boolean circuits", "[circuits][passes][strash]") {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t inputs = 3 + trial % 8;
    const Circuit c =
        lower_threshold_gates(testing::random_boolean_circuit(rng, inputs, 20 + trial, 6));
    StrashStats st;
    const Circuit s = strash(c, &st);
    testing::check_same_function(c, s, rng);
    CHECK(st.and_nodes == and_count(s));
    CHECK(st.gates_out == s.size());
    AigLoweringStats lower;
    lower_to_aig(c, &lower);
    // Both see the same number of AND requests (fixed by c's shape): each one a node, a hash
    // hit or a fold.
    CHECK(lower.and_nodes + lower.folded == st.and_nodes + st.dead + st.merged + st.folded);
    CHECK(st.and_nodes <= lower.and_nodes);
    StrashStats again;
    const Circuit s2 = strash(s, &again);
    CHECK(again.and_nodes == st.and_nodes);
    CHECK(again.merged == 0);
    CHECK(again.dead == 0);
    CHECK(aig_levels(s2) == aig_levels(s));
    testing::check_same_function(s, s2, rng);
  }
}
