// The ring laws of algebra/domain.hpp, on seeded random elements of every domain; for fixed
// point, the laws it keeps and counterexamples to the ones rounding breaks.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/domain.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

template <Domain K>
void check_ring_laws(const K& k, std::mt19937_64& rng, int rounds) {
  static_assert(K::exact);
  auto draw = [&] { return k.from_rational(test::random_rational(rng, 40)); };
  const auto zero = k.zero(), one = k.one();
  for (int i = 0; i < rounds; ++i) {
    const auto a = draw(), b = draw(), c = draw();
    REQUIRE(k.equal(k.add(a, k.add(b, c)), k.add(k.add(a, b), c)));
    REQUIRE(k.equal(k.add(a, b), k.add(b, a)));
    REQUIRE(k.equal(k.add(a, zero), a));
    REQUIRE(k.equal(k.add(a, k.neg(a)), zero));
    REQUIRE(k.equal(k.sub(a, b), k.add(a, k.neg(b))));
    REQUIRE(k.equal(k.mul(a, k.mul(b, c)), k.mul(k.mul(a, b), c)));
    REQUIRE(k.equal(k.mul(a, b), k.mul(b, a)));
    REQUIRE(k.equal(k.mul(a, one), a));
    REQUIRE(k.equal(k.mul(a, zero), zero));
    REQUIRE(k.equal(k.mul(a, k.add(b, c)), k.add(k.mul(a, b), k.mul(a, c))));
    // the fused dot product is the plain one for exact domains
    REQUIRE(k.equal(k.narrow(k.wide_add(k.wide_mul(a, b), k.widen(c))), k.add(k.mul(a, b), c)));
  }
}

}  // namespace

static_assert(Domain<RationalField> && OrderedDomain<RationalField>);
static_assert(Domain<IntegerRing> && OrderedDomain<IntegerRing>);
static_assert(Domain<ModP> && !OrderedDomain<ModP>);
static_assert(Domain<FixedPoint> && OrderedDomain<FixedPoint>);

TEST_CASE("ring laws: rationals", "[algebra][laws]") {
  std::mt19937_64 rng(1);
  check_ring_laws(RationalField{}, rng, 2000);
}

TEST_CASE("ring laws: integers", "[algebra][laws]") {
  std::mt19937_64 rng(2);
  IntegerRing z;
  // IntegerRing only accepts integral rationals: draw through floor.
  struct Wrapped : IntegerRing {
    Element from_rational(const Rational& q) const { return floor(q) * 7919 + 3; }
  };
  check_ring_laws(Wrapped{}, rng, 2000);
  CHECK_THROWS_AS(z.from_rational(Rational(1, 2)), DomainError);
}

TEST_CASE("ring laws: F_p for small and word-size primes", "[algebra][laws]") {
  std::mt19937_64 rng(3);
  for (std::uint64_t p :
       {2ull, 5ull, 29ull, 2147483647ull, 2305843009213693951ull, 4611686018427387847ull}) {
    INFO("p = " << p);
    struct Safe : ModP {  // random rationals may have denominators divisible by small p
      using ModP::ModP;
      Element from_rational(const Rational& q) const {
        return from_integer(numerator(q) * denominator(q));
      }
    };
    check_ring_laws(Safe(p), rng, 2000);
  }
}

TEST_CASE("fixed point keeps the laws that do not involve rounding", "[algebra][laws][fixed]") {
  std::mt19937_64 rng(4);
  FixedPoint k(FixedFormat{10, 30, Rounding::nearest_even, Overflow::error});
  auto draw = [&] { return k.from_rational(test::random_rational(rng, 12)); };
  for (int i = 0; i < 2000; ++i) {
    const auto a = draw(), b = draw(), c = draw();
    REQUIRE(k.equal(k.add(a, k.add(b, c)), k.add(k.add(a, b), c)));  // exact below overflow
    REQUIRE(k.equal(k.add(a, b), k.add(b, a)));
    REQUIRE(k.equal(k.add(a, k.neg(a)), k.zero()));
    REQUIRE(k.equal(k.mul(a, b), k.mul(b, a)));                // rounding is symmetric
    REQUIRE(k.equal(k.mul(a, k.one()), a));                    // 1 is exact
    REQUIRE(k.equal(k.mul(a, k.neg(b)), k.neg(k.mul(a, b))));  // both modes are odd
  }
}

TEST_CASE("fixed point breaks associativity and distributivity, as documented",
          "[algebra][laws][fixed]") {
  FixedPoint k(FixedFormat{2, 8, Rounding::nearest_even, Overflow::saturate});
  auto q = [&](long n, long d) { return k.from_rational(Rational(n, d)); };
  // (1/4 · 1/4) · 4 = 0 · 4 = 0, but 1/4 · (1/4 · 4) = 1/4
  CHECK_FALSE(
      k.equal(k.mul(k.mul(q(1, 4), q(1, 4)), q(4, 1)), k.mul(q(1, 4), k.mul(q(1, 4), q(4, 1)))));
  // 3/4 · (1/2 + 1/4) = round(9/16) = 1/2, but 3/4·1/2 + 3/4·1/4 = round(3/8) + round(3/16) = 1/2 +
  // 1/4
  CHECK_FALSE(k.equal(k.mul(q(3, 4), k.add(q(1, 2), q(1, 4))),
                      k.add(k.mul(q(3, 4), q(1, 2)), k.mul(q(3, 4), q(1, 4)))));
  // saturation breaks additive associativity: (max + 1) − 1 ≠ max + (1 − 1) once clamped
  FixedPoint s(FixedFormat{0, 2, Rounding::nearest_even, Overflow::saturate});
  auto three = s.from_rational(Rational(3)), one = s.one();
  CHECK_FALSE(s.equal(s.sub(s.add(three, one), one), s.add(three, s.sub(one, one))));
}
