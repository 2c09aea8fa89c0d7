// The circuit IR: hash-consing, constant folding, topological arena, analyses.
#include <catch2/catch.hpp>

#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/circuit.hpp"
#include "circuits/eval/evaluate.hpp"

using namespace rnncc;

TEST_CASE("gate kind table is consistent", "[circuits][ir]") {
  for (std::size_t i = 0; i < kGateKindCount; ++i) {
    auto k = static_cast<GateKind>(i);
    REQUIRE(parse_gate_kind(name(k)) == k);
    REQUIRE(info(k).min_arity <= info(k).max_arity);
  }
  CHECK_FALSE(parse_gate_kind("nand").has_value());
  CHECK(name(GateKind::and_) == "and");
}

TEST_CASE("hash-consing shares identical gates, commutative operands ordered", "[circuits][ir]") {
  CircuitBuilder b;
  GateId x = b.input("x"), y = b.input("y"), z = b.input("z");
  CHECK(b.mul(x, y) == b.mul(y, x));
  CHECK(b.add(x, y) == b.add(y, x));
  CHECK(b.sub(x, y) != b.sub(y, x));
  const GateId s1[] = {x, y, z}, s2[] = {z, x, y};
  CHECK(b.sum(s1) == b.sum(s2));
  CHECK(b.view().kind(b.sum(s1)) == GateKind::sum);
  CHECK(b.and_(s1) == b.and_(s2));
  const std::size_t before = b.size();
  b.mul(y, x);
  CHECK(b.size() == before);
  CHECK(b.requests() > b.size() - 3);  // requests counted, shared ones not re-created
  CHECK(b.input("x") != x);            // inputs are never shared
}

TEST_CASE("constant folding", "[circuits][ir]") {
  CircuitBuilder b;
  GateId x = b.input(), y = b.input();
  GateId zero = b.constant(Rational(0)), one = b.constant(Rational(1)),
         half = b.constant(Rational(1, 2));
  CHECK(b.constant(Rational(2, 4)) == half);
  CHECK(b.add(x, zero) == x);
  CHECK(b.mul(x, one) == x);
  CHECK(b.mul(x, zero) == zero);
  CHECK(b.sub(x, zero) == x);
  CHECK(b.sub(x, x) == zero);
  CHECK(b.neg(b.neg(x)) == x);
  CHECK(b.view().constant(b.add(half, half)) == 1);
  CHECK(b.view().constant(b.mul(half, b.constant(Rational(6)))) == 3);
  const GateId ops[] = {half, x, half, y};
  GateId s = b.sum(ops);  // x + y + 1: constants merged into one operand
  CHECK(b.view().kind(s) == GateKind::sum);
  CHECK(b.view().operands(s).size() == 3);
  const GateId two[] = {x, zero, y};
  CHECK(b.view().kind(b.sum(two)) == GateKind::add);  // a sum of two is an add
  const GateId prod[] = {x, b.constant(Rational(2)), half};
  CHECK(b.product(prod) == x);  // 2 · ½ = 1 dropped
  CHECK(b.view().constant(b.positive(b.constant(Rational(-1)))) == 0);
  CHECK(b.view().constant(b.is_zero(zero)) == 1);
  const GateId bools[] = {x, one};
  CHECK(b.and_(bools) == x);
  CHECK(b.or_(bools) == one);
  CHECK(b.xor_(bools) == b.not_(x));
  CHECK(b.not_(b.not_(x)) == x);
  const GateId w_ops[] = {x, one, y};
  const std::int32_t w[] = {2, 3, 0};
  GateId t = b.thr(w_ops, w, 4);  // 2x + 3 ≥ 4  ⇔  2x ≥ 1
  CHECK(b.view().operands(t).size() == 1);
  CHECK(b.view().threshold(t) == 1);
  CHECK(b.view().weights(t)[0] == 2);
}

TEST_CASE("raw() keeps circuits topological and arities legal", "[circuits][ir]") {
  CircuitBuilder b;
  GateId x = b.input();
  const GateId fwd[] = {x, 5};
  CHECK_THROWS_WITH(b.raw(GateKind::add, fwd), Catch::Contains("not an earlier gate"));
  const GateId one[] = {x};
  CHECK_THROWS_WITH(b.raw(GateKind::add, one), Catch::Contains("takes 2"));
  CHECK_THROWS_WITH(b.raw(GateKind::sum, one), Catch::Contains("3 or more"));
  const GateId two[] = {x, x};
  CHECK(b.raw(GateKind::add, two) == 1);
  CHECK(b.raw(GateKind::add, two) == 2);  // raw never shares
}

TEST_CASE("depths, fan-in, critical path and width by hand", "[circuits][ir][analysis]") {
  CircuitBuilder b;
  std::vector<GateId> xs;
  for (int i = 0; i < 5; ++i) xs.push_back(b.input());
  GateId s = b.sum(xs);        // fan-in 5: bounded cost ⌈log₂ 5⌉ = 3
  GateId m = b.mul(s, xs[0]);  // depth 2 / 4
  GateId n = b.neg(m);         // 3 / 5
  Circuit c = b.finish({n, s});
  auto un = depth_table(c, FaninModel::unbounded), bo = depth_table(c, FaninModel::bounded);
  CHECK(un[s] == 1);
  CHECK(bo[s] == 3);
  CHECK(un[n] == 3);
  CHECK(bo[n] == 5);
  CircuitStats st = compute_stats(c);
  CHECK(st.depth == 3);
  CHECK(st.bounded_fanin_depth == 5);
  CHECK(st.max_fanin == 5);
  CHECK(st.size == 8);
  CHECK(st.operations() == 3);
  CHECK(st.width == std::vector<std::size_t>{5, 1, 1, 1});
  auto path = critical_path(c, FaninModel::unbounded);
  CHECK(path == std::vector<GateId>{xs[0], s, m, n});
  auto fo = fanout_table(c);
  CHECK(fo[xs[0]] == 2);
  CHECK(fo[n] == 0);
}

TEST_CASE("exact evaluation of every gate kind by hand", "[circuits][ir][eval]") {
  CircuitBuilder b;
  GateId x = b.input(), y = b.input(), z = b.input();
  const GateId xyz[] = {x, y, z};
  const std::int32_t w[] = {2, -1, 3};
  std::vector<GateId> outs{b.add(x, y),
                           b.sub(x, y),
                           b.neg(x),
                           b.mul(x, y),
                           b.sum(xyz),
                           b.product(xyz),
                           b.and_(xyz),
                           b.or_(xyz),
                           b.xor_(xyz),
                           b.not_(x),
                           b.maj(xyz),
                           b.thr(xyz, w, 4),
                           b.positive(b.sub(x, y)),
                           b.is_zero(b.sub(x, x))};
  Circuit c = b.finish(outs);
  RationalField Q;
  std::vector<Rational> in{Rational(3, 2), Rational(0), Rational(-2)};
  auto v = evaluate(c, Q, std::span<const Rational>(in));
  std::vector<Rational> expect{Rational(3, 2),
                               Rational(3, 2),
                               Rational(-3, 2),
                               0,
                               Rational(-1, 2),
                               0,
                               0,
                               1,
                               0,
                               0,
                               1,
                               1,
                               1,
                               1};
  // and(3/2, 0, −2) = 0; or = 1; xor(1,0,1) = 0; maj(1,0,1) = 1; thr: 2·1 − 0 + 3·1 = 5 ≥ 4
  CHECK(v == expect);
}
