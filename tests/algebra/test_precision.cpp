#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/precision.hpp"

using namespace rnncc;

TEST_CASE("precision specs parse", "[algebra][precision]") {
  CHECK(parse_precision("exact").kind == PrecisionSpec::Kind::exact);
  auto log = parse_precision("log:3");
  CHECK(log.kind == PrecisionSpec::Kind::log);
  CHECK(log.log_c == 3);
  auto mod = parse_precision("mod:29");
  CHECK(mod.kind == PrecisionSpec::Kind::mod);
  CHECK(mod.modulus == 29);
  CHECK(to_string(mod) == "mod:29");
  CHECK(parse_rounding("toward-zero") == Rounding::toward_zero);
  CHECK(parse_overflow("error") == Overflow::error);
}

TEST_CASE("bad precision specs are InputErrors naming the flag", "[algebra][precision]") {
  CHECK_THROWS_WITH(parse_precision("mod:15"),
                    Catch::Contains("--precision") && Catch::Contains("not prime"));
  CHECK_THROWS_WITH(parse_precision("mod:9223372036854775783"), Catch::Contains("2^62"));
  CHECK_THROWS_AS(parse_precision("mod:"), InputError);
  CHECK_THROWS_AS(parse_precision("mod:-7"), InputError);
  CHECK_THROWS_AS(parse_precision("log:0"), InputError);
  CHECK_THROWS_AS(parse_precision("log:65"), InputError);
  CHECK_THROWS_AS(parse_precision("log:x"), InputError);
  CHECK_THROWS_AS(parse_precision("float"), InputError);
  CHECK_THROWS_AS(parse_rounding("up"), InputError);
  CHECK_THROWS_AS(parse_overflow("wrap"), InputError);
}
