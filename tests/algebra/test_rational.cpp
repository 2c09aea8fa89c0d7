#include <catch2/catch.hpp>

#include "algebra/rational.hpp"

using namespace rnncc;

TEST_CASE("rational text grammar: accepted forms are exact", "[algebra][rational]") {
  CHECK(*try_parse_rational("3/4") == Rational(3, 4));
  CHECK(*try_parse_rational("-2") == Rational(-2));
  CHECK(*try_parse_rational("+7") == Rational(7));
  CHECK(*try_parse_rational("6/8") == Rational(3, 4));  // canonicalized
  CHECK(*try_parse_rational("0.125") == Rational(1, 8));
  CHECK(*try_parse_rational("-1.5") == Rational(-3, 2));
  CHECK(*try_parse_rational("-0/5") == Rational(0));
  // leading zeros are decimal, never an octal prefix
  CHECK(*try_parse_rational("010") == Rational(10));
  CHECK(*try_parse_rational("08") == Rational(8));
  CHECK(*try_parse_rational("0.08") == Rational(2, 25));
  CHECK(*try_parse_rational("0.0125") == Rational(1, 80));
  CHECK(*try_parse_rational("1/010") == Rational(1, 10));
  CHECK(*try_parse_rational("123456789012345678901234567890") ==
        Rational(Integer("123456789012345678901234567890")));
}

TEST_CASE("rational text grammar: everything else is rejected", "[algebra][rational]") {
  for (const char* bad : {"", "-", "3/", "/4", "3/0", "1.", ".5", "1e3", " 1", "1 ", "1/-2", "0x10",
                          "1.2.3", "abc", "--1", "3/4/5", "½"})
    CHECK_FALSE(try_parse_rational(bad).has_value());
}

TEST_CASE("rational canonical output round-trips", "[algebra][rational]") {
  CHECK(to_string(Rational(3, 4)) == "3/4");
  CHECK(to_string(Rational(-6, 4)) == "-3/2");
  CHECK(to_string(Rational(5)) == "5");
  CHECK(to_string(Rational(0)) == "0");
  for (long n = -20; n <= 20; ++n)
    for (long d = 1; d <= 7; ++d)
      CHECK(*try_parse_rational(to_string(Rational(n, d))) == Rational(n, d));
}

TEST_CASE("floor, ceil and bit length", "[algebra][rational]") {
  CHECK(floor(Rational(7, 2)) == 3);
  CHECK(floor(Rational(-7, 2)) == -4);
  CHECK(floor(Rational(-4)) == -4);
  CHECK(ceil(Rational(7, 2)) == 4);
  CHECK(ceil(Rational(-7, 2)) == -3);
  CHECK(bit_length(Integer(0)) == 0);
  CHECK(bit_length(Integer(1)) == 1);
  CHECK(bit_length(Integer(-8)) == 4);
  CHECK(bit_length(Integer(255)) == 8);
  CHECK(bit_length(Integer(1) << 100) == 101);
}
