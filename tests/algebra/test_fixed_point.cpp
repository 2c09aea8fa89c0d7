#include <catch2/catch.hpp>
#include <random>

#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {
FixedPoint fmt(unsigned F, unsigned I, Rounding r = Rounding::nearest_even,
               Overflow o = Overflow::saturate) {
  return FixedPoint(FixedFormat{F, I, r, o});
}
Rational val(const FixedPoint& k, const FixedPoint::Element& e) {
  return k.to_rational(e);
}
}  // namespace

TEST_CASE("log-precision format: F = c·⌈log2(n+1)⌉, I defaults to F", "[algebra][fixed]") {
  CHECK(ceil_log2_plus1(0) == 0);
  CHECK(ceil_log2_plus1(1) == 1);
  CHECK(ceil_log2_plus1(3) == 2);
  CHECK(ceil_log2_plus1(4) == 3);
  CHECK(ceil_log2_plus1(7) == 3);
  CHECK(ceil_log2_plus1(8) == 4);
  CHECK(ceil_log2_plus1(1000) == 10);
  FixedFormat f = log_precision(3, 1000, std::nullopt, Rounding::toward_zero, Overflow::error);
  CHECK(f.frac_bits == 30);
  CHECK(f.int_bits == 30);
  CHECK(f.rounding == Rounding::toward_zero);
  CHECK(log_precision(2, 5, 7u, Rounding::nearest_even, Overflow::saturate).int_bits == 7);
}

TEST_CASE("rounding modes on hand-picked values", "[algebra][fixed]") {
  FixedPoint ne = fmt(2, 4), tz = fmt(2, 4, Rounding::toward_zero);
  // quarter steps: ties go to the even multiple of 1/4 under nearest-even
  CHECK(val(ne, ne.from_rational(Rational(1, 8))) == 0);               // 0.5 ulp → 0 (even)
  CHECK(val(ne, ne.from_rational(Rational(3, 8))) == Rational(1, 2));  // 1.5 ulp → 2
  CHECK(val(ne, ne.from_rational(Rational(5, 8))) == Rational(1, 2));  // 2.5 ulp → 2
  CHECK(val(ne, ne.from_rational(Rational(-3, 8))) == Rational(-1, 2));
  CHECK(val(ne, ne.from_rational(Rational(1, 3))) == Rational(1, 4));
  CHECK(val(ne, ne.from_rational(Rational(2, 3))) == Rational(3, 4));
  CHECK(val(tz, tz.from_rational(Rational(3, 8))) == Rational(1, 4));
  CHECK(val(tz, tz.from_rational(Rational(-3, 8))) == Rational(-1, 4));
  CHECK(val(tz, tz.from_rational(Rational(-2, 3))) == Rational(-1, 2));
  CHECK(round_shift(Integer(-6), 2, Rounding::nearest_even) == -2);   // −1.5 → −2
  CHECK(round_shift(Integer(-10), 2, Rounding::nearest_even) == -2);  // −2.5 → −2
  CHECK(round_shift(Integer(-7), 2, Rounding::toward_zero) == -1);
}

TEST_CASE("overflow saturates or errors by policy", "[algebra][fixed]") {
  FixedPoint sat = fmt(3, 3), err = fmt(3, 3, Rounding::nearest_even, Overflow::error);
  CHECK(sat.max_raw() == 63);
  CHECK(val(sat, sat.from_rational(Rational(11))) == Rational(63, 8));
  CHECK(val(sat, sat.from_rational(Rational(-11))) == Rational(-63, 8));
  CHECK(val(sat, sat.add(sat.from_rational(Rational(7)), sat.from_rational(Rational(7)))) ==
        Rational(63, 8));
  CHECK_NOTHROW(err.from_rational(Rational(63, 8)));
  CHECK_THROWS_AS(err.from_rational(Rational(8)), DomainError);
  CHECK_THROWS_WITH(err.mul(err.from_rational(Rational(3)), err.from_rational(Rational(3))),
                    Catch::Contains("overflows"));
}

TEST_CASE("exact decimal printing of dyadic values", "[algebra][fixed]") {
  FixedPoint k = fmt(4, 4);
  CHECK(k.to_string(k.from_rational(Rational(11, 16))) == "0.6875");
  CHECK(k.to_string(k.from_rational(Rational(-11, 16))) == "-0.6875");
  CHECK(k.to_string(k.from_rational(Rational(5))) == "5");
  CHECK(k.to_string(k.from_rational(Rational(-1, 16))) == "-0.0625");
  CHECK(k.to_string(k.zero()) == "0");
  FixedPoint z = fmt(0, 4);
  CHECK(z.to_string(z.from_rational(Rational(-3))) == "-3");
}

TEST_CASE("fused wide path equals rounding the exact rational (plain twin)", "[algebra][fixed]") {
  std::mt19937_64 rng(11);
  for (Rounding mode : {Rounding::nearest_even, Rounding::toward_zero}) {
    FixedPoint k = fmt(12, 12, mode);
    for (int i = 0; i < 3000; ++i) {
      auto a = k.from_rational(test::random_rational(rng, 12));
      auto b = k.from_rational(test::random_rational(rng, 12));
      auto c = k.from_rational(test::random_rational(rng, 12));
      // a·b + c through the wide accumulator vs. one rounding of the exact rational value
      auto fused = k.narrow(k.wide_add(k.wide_mul(a, b), k.widen(c)));
      auto plain = k.from_rational(val(k, a) * val(k, b) + val(k, c));
      REQUIRE(k.equal(fused, plain));
      // error of one rounding: ≤ ½ ulp (nearest) or < 1 ulp (toward zero), away from overflow
      Rational exact = val(k, a) * val(k, b), ulp(1, 1 << 12);
      Rational e = val(k, k.mul(a, b)) - exact;
      if (boost::multiprecision::abs(exact) < 4000) {
        if (mode == Rounding::nearest_even)
          REQUIRE(boost::multiprecision::abs(e) <= ulp / 2);
        else
          REQUIRE((boost::multiprecision::abs(e) < ulp && e * exact <= 0));
      }
    }
  }
}
