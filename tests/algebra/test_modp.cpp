#include <catch2/catch.hpp>
#include <random>

#include "algebra/error.hpp"
#include "algebra/modp.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {
bool is_prime_trial(std::uint64_t n) {  // the plain twin of modp::is_prime
  if (n < 2) return false;
  for (std::uint64_t q = 2; q * q <= n; ++q)
    if (n % q == 0) return false;
  return true;
}
}  // namespace

TEST_CASE("Miller-Rabin agrees with trial division below 200000", "[algebra][modp]") {
  for (std::uint64_t n = 0; n < 200000; ++n) REQUIRE(modp::is_prime(n) == is_prime_trial(n));
}

TEST_CASE("Miller-Rabin on large primes and strong pseudoprimes", "[algebra][modp]") {
  CHECK(modp::is_prime(2305843009213693951ull));  // 2^61 − 1, Mersenne prime
  CHECK(modp::is_prime(4611686018427387847ull));  // largest prime below 2^62
  CHECK(modp::is_prime(1000000007ull));
  CHECK(modp::is_prime(18446744073709551557ull));       // largest prime below 2^64
  CHECK_FALSE(modp::is_prime(3215031751ull));           // strong pseudoprime to bases 2, 3, 5, 7
  CHECK_FALSE(modp::is_prime(3825123056546413051ull));  // strong pseudoprime to bases 2..23
  CHECK_FALSE(modp::is_prime(561));                     // Carmichael number
  CHECK_FALSE(modp::is_prime(2305843009213693951ull * 3));
  CHECK_FALSE(modp::is_prime(4611686018427387847ull - 2));  // = 5 · 922337203685477569
}

TEST_CASE("mod-p operations equal GMP arithmetic reduced mod p", "[algebra][modp]") {
  std::mt19937_64 rng(2026);
  for (std::uint64_t p :
       {3ull, 29ull, 1000000007ull, 2305843009213693951ull, 4611686018427387847ull}) {
    ModP k(p);
    for (int i = 0; i < 2000; ++i) {
      std::uint64_t a = rng() % p, b = rng() % p;
      Integer P(p), A(a), B(b);
      REQUIRE(k.mul(a, b) == Integer(A * B % P).convert_to<std::uint64_t>());
      REQUIRE(k.add(a, b) == Integer((A + B) % P).convert_to<std::uint64_t>());
      REQUIRE(k.sub(a, b) == Integer(((A - B) % P + P) % P).convert_to<std::uint64_t>());
      if (a != 0) REQUIRE(k.mul(a, modp::inv(a, p)) == 1);
    }
  }
}

TEST_CASE("rationals map to F_p as a ring homomorphism", "[algebra][modp]") {
  ModP k(1000000007);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    Rational x = test::random_rational(rng, 80), y = test::random_rational(rng, 80);
    REQUIRE(k.from_rational(x + y) == k.add(k.from_rational(x), k.from_rational(y)));
    REQUIRE(k.from_rational(x * y) == k.mul(k.from_rational(x), k.from_rational(y)));
  }
  CHECK(k.from_rational(Rational(-1)) == 1000000006);
  CHECK(k.mul(k.from_rational(Rational(1, 2)), 2) == 1);
}

TEST_CASE("a denominator divisible by p is a DomainError", "[algebra][modp]") {
  ModP k(3);
  CHECK(k.from_rational(Rational(1, 2)) == 2);
  CHECK_THROWS_AS(k.from_rational(Rational(1, 3)), DomainError);
  CHECK_THROWS_WITH(k.from_rational(Rational(2, 9)), Catch::Contains("divisible by p = 3"));
  CHECK(k.from_rational(Rational(3, 1)) == 0);
}

TEST_CASE("ModP rejects composite and oversized moduli", "[algebra][modp]") {
  CHECK_THROWS_AS(ModP(15), InputError);
  CHECK_THROWS_AS(ModP(1), InputError);
  CHECK_THROWS_WITH(ModP(18446744073709551557ull), Catch::Contains("2^62"));
  CHECK_NOTHROW(ModP(4611686018427387847ull));
}
