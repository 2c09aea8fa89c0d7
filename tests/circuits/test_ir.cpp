// The circuit IR: hash-consing, constant folding, topological arena, analyses.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/multimodular.hpp"
#include "circuits/analysis.hpp"
#include "circuits/circuit.hpp"
#include "circuits/eval/evaluate.hpp"
#include "tests/support.hpp"

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

namespace {

// log₂|z| for z ≠ 0, to about 1e-15 relative (z's top 53 bits as a double).
double log2_abs(const Integer& z) {
  const std::size_t bits = bit_length(z), s = bits > 53 ? bits - 53 : 0;
  return std::log2(Integer(abs(z) >> s).convert_to<double>()) + static_cast<double>(s);
}

// Random circuit over `inputs` inputs: small rational constants, arithmetic gates with the
// multiplicative depth capped (so values stay a few hundred bits), and, when `tests`, boolean,
// threshold and test gates mixed in and fed back into arithmetic.
Circuit random_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates, bool tests,
                       int max_mul_depth) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  std::vector<int> mul_depth;
  auto push = [&](GateId g, int depth) {
    pool.push_back(g);
    mul_depth.push_back(depth);
  };
  for (std::size_t i = 0; i < inputs; ++i) push(b.input(), 0);
  for (int i = 0; i < 4; ++i) push(b.constant(test::small_rational(rng)), 0);
  for (std::size_t n = 0; n < gates; ++n) {
    auto pick = [&] {  // biased to recent gates, for depth
      const std::size_t k = pool.size(), back = rng() % std::min<std::size_t>(k, 8);
      return rng() % 2 ? k - 1 - back : static_cast<std::size_t>(rng() % k);
    };
    const std::size_t i = pick(), j = pick(), l = pick();
    const int d = std::max({mul_depth[i], mul_depth[j], mul_depth[l]});
    const GateId three[] = {pool[i], pool[j], pool[l]};
    switch (rng() % (tests ? 11 : 7)) {
      case 0:
        push(b.add(pool[i], pool[j]), d);
        break;
      case 1:
        push(b.sub(pool[i], pool[j]), d);
        break;
      case 2:
        push(b.neg(pool[i]), d);
        break;
      case 3:
        push(b.sum(three), d);
        break;
      case 4:
        push(d < max_mul_depth ? b.mul(pool[i], pool[j]) : b.add(pool[i], pool[j]), d + 1);
        break;
      case 5:
        push(d < max_mul_depth ? b.product(three) : b.sum(three), d + 1);
        break;
      case 6:
        push(b.constant(test::small_rational(rng)), 0);
        break;
      case 7:
        push(b.positive(pool[i]), 0);
        break;
      case 8:
        push(b.is_zero(b.sub(pool[i], pool[j])), 0);
        break;
      case 9:
        push(b.xor_(three), 0);
        break;
      default:
        push(b.maj(three), 0);
    }
  }
  return b.finish(pool);
}

// value·D is an integer N with |N| ≤ 2^h, for every gate.
void check_heights(const Circuit& c, const std::vector<HeightBound>& t,
                   const std::vector<Rational>& v) {
  for (GateId g = 0; g < c.size(); ++g) {
    INFO("gate " << g << " (" << name(c.kind(g)) << ") = " << to_string(v[g])
                 << ", D = " << t[g].denominator << ", h = " << t[g].log2_numerator);
    REQUIRE(t[g].denominator > 0);
    const Rational scaled = v[g] * Rational(t[g].denominator);
    REQUIRE(denominator(scaled) == 1);
    const Integer N = numerator(scaled);
    if (N != 0)
      REQUIRE(log2_abs(N) <=
              t[g].log2_numerator + 1e-12 * std::max(1.0, std::fabs(t[g].log2_numerator)));
  }
}

}  // namespace

TEST_CASE("height bounds by hand", "[circuits][analysis][height]") {
  CircuitBuilder b;
  const GateId x = b.input("x");
  const GateId half = b.constant(Rational(1, 2)), third = b.constant(Rational(1, 3));
  const GateId f = b.mul(b.add(x, half), b.sub(x, third));  // (x + 1/2)(x − 1/3)
  const GateId zero = b.constant(Rational(0)), q = b.constant(Rational(-3, 4));
  const GateId thirds[] = {b.mul(x, half), b.mul(x, third), b.mul(x, b.constant(Rational(1, 6)))};
  const GateId s = b.sum(thirds);  // x/2 + x/3 + x/6: D = 6, N = 3x + 2x + x
  const GateId test = b.positive(f), minus = b.neg(f);
  const Circuit c = b.finish({f, s, test});
  const auto near = [](double h, double exact) { return h >= exact && h <= exact + 1e-6; };

  const auto t = height_table(c);  // |x| ≤ 1
  // 6·f = (2x + 1)(3x − 1): D = lcm(1,2)·lcm(1,3) = 6, |N| ≤ (2 + 1)(3 + 1) = 12.
  CHECK(t[f].denominator == 6);
  CHECK(near(t[f].log2_numerator, std::log2(12.0)));
  CHECK(t[s].denominator == 6);
  CHECK(near(t[s].log2_numerator, std::log2(6.0)));
  CHECK(t[x].denominator == 1);
  CHECK(t[x].log2_numerator == 0);
  CHECK(t[zero].log2_numerator == -std::numeric_limits<double>::infinity());
  CHECK(t[q].denominator == 4);
  CHECK(near(t[q].log2_numerator, std::log2(3.0)));
  CHECK(t[minus].denominator == 6);
  CHECK(t[minus].log2_numerator == t[f].log2_numerator);
  CHECK(t[test].denominator == 1);
  CHECK(t[test].log2_numerator == 0);

  const auto t5 = height_table(c, 5);  // |x| ≤ 32: |N| ≤ (64 + 1)(96 + 1)
  CHECK(t5[x].log2_numerator == 5);
  CHECK(near(t5[f].log2_numerator, std::log2(65.0 * 97.0)));
  const auto outs = output_heights(c, 5);
  REQUIRE(outs.size() == 3);
  CHECK(outs[0].denominator == t5[f].denominator);
  CHECK(outs[1].log2_numerator == t5[s].log2_numerator);
  CHECK(constant_denominators(c) == std::vector<Integer>{2, 3, 4, 6});
  CHECK_THROWS_AS(height_table(c, std::nan("")), std::invalid_argument);
}

TEST_CASE("height bounds hold on random circuits", "[circuits][analysis][height]") {
  std::mt19937_64 rng(2718);
  RationalField Q;
  for (int trial = 0; trial < 60; ++trial) {
    const Circuit c = random_circuit(rng, 4, 60, trial % 2 == 0, 4);
    const auto t01 = height_table(c, 0), t8 = height_table(c, 3);
    for (int run = 0; run < 10; ++run) {
      std::vector<Rational> bits, small;
      for (std::size_t i = 0; i < 4; ++i) {
        bits.emplace_back(static_cast<long>(rng() % 2));
        small.emplace_back(static_cast<long>(rng() % 17) - 8);  // |x| ≤ 8 = 2^3
      }
      check_heights(c, t01, evaluate_gates(c, Q, std::span<const Rational>(bits)));
      check_heights(c, t8, evaluate_gates(c, Q, std::span<const Rational>(small)));
    }
  }
}

TEST_CASE("multi-modular evaluation with the height bound recovers exact outputs",
          "[circuits][analysis][height]") {
  std::mt19937_64 rng(161);
  RationalField Q;
  std::size_t most_primes = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Circuit c = random_circuit(rng, 4, 80, false, 6);  // arithmetic only
    const auto heights = output_heights(c, 3);
    double h = -std::numeric_limits<double>::infinity();
    for (const auto& o : heights) h = std::max(h, o.log2_numerator);
    const auto pool = lucky_primes(64, constant_denominators(c));
    const std::size_t k = primes_for_bits(h, pool);
    const std::span<const std::uint32_t> primes(pool.data(), k);
    most_primes = std::max(most_primes, k);
    std::vector<Rational> in;
    for (std::size_t i = 0; i < 4; ++i) in.emplace_back(static_cast<long>(rng() % 17) - 8);
    const auto exact = evaluate(c, Q, std::span<const Rational>(in));
    std::vector<std::vector<std::uint32_t>> residues(exact.size());  // [output][prime]
    for (std::uint32_t p : primes) {
      const ModP F(p);
      std::vector<ModP::Element> in_p;
      for (const Rational& x : in) in_p.push_back(F.from_rational(x));
      const auto out = evaluate(c, F, std::span<const ModP::Element>(in_p));
      for (std::size_t o = 0; o < out.size(); ++o)  // N mod p = (value mod p)·D
        residues[o].push_back(
            static_cast<std::uint32_t>(F.mul(out[o], F.from_integer(heights[o].denominator))));
    }
    for (std::size_t o = 0; o < exact.size(); ++o) {
      const Integer N = crt_symmetric(residues[o], primes);
      REQUIRE(Rational(N, heights[o].denominator) == exact[o]);
    }
  }
  CHECK(most_primes >= 3);  // the CRT had real work to do
}
