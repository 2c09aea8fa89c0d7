// Dead-gate removal: remove_dead_gates (re-emitted through the builder) and sweep_dead_gates
// (copied raw, `keep` honoured) on hand-checked circuits with exact stats; seeded random
// arithmetic and boolean circuits evaluate identically before and after, with fewer gates.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

using namespace rnncc;

TEST_CASE("remove_dead_gates: hand-checked stats", "[circuits][passes][dead_gates]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y"), z = b.input("z");
  b.add(x, y);  // dead
  const GateId m = b.mul(x, z);
  b.neg(m);  // dead
  const Circuit c = b.finish({m}, {"m"});
  DeadGateStats st;
  const Circuit d = remove_dead_gates(c, &st);
  CHECK(st.gates_in == 6);
  CHECK(st.dead == 2);
  CHECK(st.gates_out == 4);  // x, y, z (every input kept) and x·z
  CHECK(d.size() == 4);
  CHECK(d.input_names() == c.input_names());
  CHECK(d.output_names() == c.output_names());
  CHECK(d.kind(d.outputs()[0]) == GateKind::mul);
  const Rational in[] = {Rational(3), Rational(7), Rational(-2)};
  CHECK(evaluate(d, RationalField(), std::span<const Rational>(in)) ==
        std::vector<Rational>{Rational(-6)});
}

TEST_CASE("sweep_dead_gates copies raw, keeps what it is told", "[circuits][passes][dead_gates]") {
  CircuitBuilder b;
  const GateId x = b.input(), y = b.input();
  const std::array<GateId, 2> xy{x, y};
  const GateId a1 = b.raw(GateKind::and_, xy), a2 = b.raw(GateKind::and_, xy);  // duplicates
  const std::array<GateId, 1> xo{x};
  const GateId nx = b.raw(GateKind::not_, xo);  // dead
  const Circuit c = b.finish({a1, a2});

  DeadGateStats st;
  const Circuit swept = sweep_dead_gates(c, {}, &st);
  CHECK(st.gates_in == 5);
  CHECK(st.dead == 1);
  CHECK(st.gates_out == 4);  // the duplicates stay: nothing is shared
  CHECK(swept.outputs()[0] != swept.outputs()[1]);

  const GateId keep[] = {nx};
  const Circuit kept = sweep_dead_gates(c, keep, &st);
  CHECK(st.dead == 0);
  CHECK(kept.size() == c.size());
  CHECK(kept.kind(3) == GateKind::and_);
  CHECK(kept.kind(4) == GateKind::not_);

  const Circuit shared = remove_dead_gates(c, &st);  // the builder shares the duplicates
  CHECK(st.dead == 1);
  CHECK(st.gates_out == 3);
  CHECK(shared.outputs()[0] == shared.outputs()[1]);
}

TEST_CASE("dead-gate removal keeps the function of random circuits",
          "[circuits][passes][dead_gates]") {
  std::mt19937_64 rng(808);
  const RationalField Q;
  for (int trial = 0; trial < 30; ++trial) {
    const std::size_t k = 2 + trial % 4;
    // Few outputs over many gates, so much of the circuit is dead.
    const Circuit c = testing::random_arithmetic_circuit(rng, k, 40, 2, false);
    std::size_t live = 0, unread_inputs = 0;
    const auto table = live_table(c);
    for (GateId g = 0; g < c.size(); ++g) {
      live += table[g];
      unread_inputs += !table[g] && c.kind(g) == GateKind::input;
    }
    DeadGateStats st, raw;
    const Circuit d = remove_dead_gates(c, &st);
    const Circuit s = sweep_dead_gates(c, {}, &raw);
    CHECK(st.dead == c.size() - live - unread_inputs);
    CHECK(raw.dead == st.dead);
    CHECK(s.size() == live + unread_inputs);
    for (int round = 0; round < 10; ++round) {
      std::vector<Rational> x;
      for (std::size_t i = 0; i < k; ++i) x.push_back(test::small_rational(rng));
      const auto want = evaluate(c, Q, std::span<const Rational>(x));
      CHECK(evaluate(d, Q, std::span<const Rational>(x)) == want);
      CHECK(evaluate(s, Q, std::span<const Rational>(x)) == want);
    }
    const Circuit bc = testing::random_boolean_circuit(rng, 3 + trial % 5, 60, 3);
    testing::check_same_function(bc, remove_dead_gates(bc), rng);
    testing::check_same_function(bc, sweep_dead_gates(bc), rng);
  }
}
