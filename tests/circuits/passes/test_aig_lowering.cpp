// lower_to_aig: hand-checked AND/NOT counts for and, or, xor and constant operands (the rules of
// circuits/passes/aig_lowering.hpp); seeded random boolean circuits keep their function; the
// lowered graph is the one write_aiger writes (same AND count and levels after a round trip);
// gates an AIG cannot hold are refused.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "circuits/io/aiger.hpp"
#include "circuits/passes/aig_lowering.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using testing::truth_table;

TEST_CASE("lower_to_aig: and, or and xor as AND nodes, hand-checked",
          "[circuits][passes][aig_lowering]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y");
  const std::array<GateId, 2> xy{x, y};
  const Circuit c =
      b.finish({b.raw(GateKind::and_, xy), b.raw(GateKind::or_, xy), b.raw(GateKind::xor_, xy)},
               {"a", "o", "p"});
  AigLoweringStats st;
  const Circuit d = lower_to_aig(c, &st);
  // x∧y; or = ¬(¬x∧¬y); xor = ¬(¬(x∧¬y) ∧ ¬(¬x∧y)): 1 + 1 + 3 nodes. NOTs: ¬y, ¬x, the two
  // complemented xor halves, and the complemented or and xor roots the outputs read.
  CHECK(st.gates_in == 5);
  CHECK(st.and_nodes == 5);
  CHECK(st.not_gates == 6);
  CHECK(st.folded == 0);
  CHECK(st.gates_out == 2 + 5 + 6);
  CHECK(d.size() == st.gates_out);
  CHECK(and_count(d) == 5);
  CHECK(aig_levels(d) == 2);
  CHECK(d.output_names() == c.output_names());
  CHECK(d.input_names() == c.input_names());
  for (GateId g = 0; g < d.size(); ++g) {
    const GateKind k = d.kind(g);
    CHECK((k == GateKind::input || k == GateKind::not_ || k == GateKind::and_));
    if (k == GateKind::and_) CHECK(d.operands(g).size() == 2);
  }
  CHECK(truth_table(d, 0) == 0x8);
  CHECK(truth_table(d, 1) == 0xE);
  CHECK(truth_table(d, 2) == 0x6);
}

TEST_CASE("lower_to_aig: constant operands fold, no node is made for them",
          "[circuits][passes][aig_lowering]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y");
  const GateId one = b.constant(Rational(1)), zero = b.constant(Rational(0));
  const std::array<GateId, 3> x1y{x, one, y};
  const std::array<GateId, 2> x0{x, zero};
  const Circuit c =
      b.finish({b.raw(GateKind::and_, x1y), b.raw(GateKind::or_, x0), b.raw(GateKind::and_, x0)});
  AigLoweringStats st;
  const Circuit d = lower_to_aig(c, &st);
  CHECK(st.folded == 3);  // x∧1 = x, ¬x∧1 = ¬x (the or), x∧0 = 0
  CHECK(st.and_nodes == 1);
  CHECK(st.not_gates == 0);
  CHECK(st.gates_out == 2 + 1 + 1);  // x, y, x∧y, the constant 0 the third output reads
  CHECK(d.outputs()[1] == d.inputs()[0]);
  CHECK(d.kind(d.outputs()[2]) == GateKind::constant);
  CHECK(d.constant(d.outputs()[2]) == 0);
}

TEST_CASE("lower_to_aig keeps the function and is the graph write_aiger writes",
          "[circuits][passes][aig_lowering]") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const Circuit c =
        lower_threshold_gates(testing::random_boolean_circuit(rng, 2 + trial % 9, 30, 5));
    AigLoweringStats st;
    const Circuit d = lower_to_aig(c, &st);
    testing::check_same_function(c, d, rng);
    CHECK(st.and_nodes == and_count(d));
    const Circuit back = parse_aiger(write_aiger(c, AigerFormat::binary), "x.aig");
    CHECK(and_count(back) == st.and_nodes);
    CHECK(aig_levels(back) == aig_levels(d));
    CHECK(write_aiger(d, AigerFormat::ascii) == write_aiger(c, AigerFormat::ascii));
  }
}

TEST_CASE("lower_to_aig refuses what an AIG cannot hold", "[circuits][passes][aig_lowering]") {
  CircuitBuilder b;
  const GateId x = b.input(), y = b.input();
  CircuitBuilder t = b;
  const Circuit sum = b.finish({b.add(x, y)});
  CHECK_THROWS_AS(lower_to_aig(sum), InputError);
  const std::array<GateId, 2> xy{x, y};
  const Circuit maj = t.finish({t.raw(GateKind::maj, xy)});
  test::expect_input_error([&] { lower_to_aig(maj); }, "aiger", "maj");
}
