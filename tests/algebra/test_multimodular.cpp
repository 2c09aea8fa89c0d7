#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "algebra/modp.hpp"
#include "algebra/multimodular.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

bool is_prime_trial(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t q = 2; q * q <= n; ++q)
    if (n % q == 0) return false;
  return true;
}

std::uint32_t residue(const Integer& x, std::uint32_t p) {
  Integer r = x % p;
  if (r < 0) r += p;
  return r.convert_to<std::uint32_t>();
}

std::vector<std::uint32_t> residues(const Integer& x, std::span<const std::uint32_t> primes) {
  std::vector<std::uint32_t> r;
  for (std::uint32_t p : primes) r.push_back(residue(x, p));
  return r;
}

std::vector<std::uint32_t> residues(const Rational& q, std::span<const std::uint32_t> primes) {
  std::vector<std::uint32_t> r;
  for (std::uint32_t p : primes) r.push_back(static_cast<std::uint32_t>(ModP(p).from_rational(q)));
  return r;
}

// Every n/d in lowest terms with n ≡ a·d (mod m), |n| ≤ N, 0 < d ≤ D, by trying each d.
std::vector<Rational> reconstruct_brute(long a, long m, long N, long D) {
  std::vector<Rational> found;
  for (long d = 1; d <= D; ++d)
    for (long n = -N; n <= N; ++n)
      if (((n - a * d) % m + m) % m == 0 && std::gcd(n, d) == 1) found.emplace_back(n, d);
  return found;
}

const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("the largest primes below 2^31, descending, with skips", "[algebra][multimodular]") {
  const auto ps = primes_below_2_31(8);
  REQUIRE(ps.size() == 8);
  CHECK(ps[0] == 2147483647u);  // 2^31 − 1, a Mersenne prime
  CHECK(ps[1] == 2147483629u);
  for (std::size_t i = 0; i < ps.size(); ++i) {
    REQUIRE(is_prime_trial(ps[i]));
    const std::uint64_t above = i == 0 ? (1ull << 31) : ps[i - 1];
    for (std::uint64_t n = ps[i] + 1; n < above; ++n) REQUIRE_FALSE(is_prime_trial(n));
  }
  const std::uint32_t skip[] = {ps[0], ps[2], 12345};
  const auto skipped = primes_below_2_31(4, skip);
  CHECK(skipped == std::vector<std::uint32_t>{ps[1], ps[3], ps[4], ps[5]});
  CHECK(primes_below_2_31(0).empty());
  CHECK_THROWS_AS(primes_below_2_31(std::size_t{1} << 40), std::invalid_argument);
}

TEST_CASE("primes_for_bits by hand", "[algebra][multimodular]") {
  const auto ps = primes_below_2_31(12);
  CHECK(primes_for_bits(-kInf, ps) == 0);  // the value 0
  CHECK(primes_for_bits(-0.5, ps) == 0);
  CHECK(primes_for_bits(0, ps) == 1);     // |N| ≤ 1 needs P > 2
  CHECK(primes_for_bits(29, ps) == 1);    // P > 2^30
  CHECK(primes_for_bits(29.5, ps) == 2);  // rounded up to 30 bits: P > 2^31 > 2^31 − 1
  CHECK(primes_for_bits(60, ps) == 2);    // (2^31 − 1)(2^31 − 19) > 2^61
  CHECK(primes_for_bits(61, ps) == 3);    // ... < 2^62
  CHECK_THROWS_AS(primes_for_bits(400, ps), std::invalid_argument);
  CHECK_THROWS_AS(primes_for_bits(kInf, ps), std::invalid_argument);
  CHECK_THROWS_AS(primes_for_bits(std::nan(""), ps), std::invalid_argument);
}

TEST_CASE("primes_for_bits is sufficient and minimal for ±2^b", "[algebra][multimodular]") {
  const auto ps = primes_below_2_31(12);
  for (unsigned b = 0; b <= 300; ++b) {
    const std::size_t k = primes_for_bits(b, ps);
    const std::span<const std::uint32_t> enough(ps.data(), k), fewer(ps.data(), k - 1);
    const Integer x = Integer(1) << b;
    REQUIRE(crt_symmetric(residues(x, enough), enough) == x);
    REQUIRE(crt_symmetric(residues(Integer(-x), enough), enough) == -x);
    REQUIRE(crt_symmetric(residues(Integer(-x), fewer), fewer) != -x);  // P ≤ 2^(b+1)
  }
}

TEST_CASE("CRT of tiny cases by hand", "[algebra][multimodular]") {
  using V = std::vector<std::uint32_t>;
  const V p357{3, 5, 7}, minus_one{2, 4, 6}, r52{1, 2, 3}, r53{2, 3, 4};
  const V p23{2, 3}, r3{1, 0}, big{5, 12, 700};
  for (auto crt : {crt_symmetric, crt_symmetric_plain}) {
    CHECK(crt(minus_one, p357) == -1);
    CHECK(crt(r52, p357) == 52);   // 52 ≤ 105/2
    CHECK(crt(r53, p357) == -52);  // 53 ≡ −52 (mod 105)
    CHECK(crt(r3, p23) == 3);      // P = 6 even: P/2 is in the range (−P/2, P/2]
    CHECK(crt(big, p357) == crt(V{2, 2, 0}, p357));  // reduced first
    CHECK(crt({}, {}) == 0);
    const V two{1, 2}, four{3, 4}, dup{5, 5};
    CHECK_THROWS_AS(crt(two, p357), std::invalid_argument);
    CHECK_THROWS_AS(crt(two, four), std::invalid_argument);
    CHECK_THROWS_AS(crt(two, dup), std::invalid_argument);
  }
}

TEST_CASE("CRT recovers random integers, fast equals plain", "[algebra][multimodular]") {
  INFO("FLINT: " << multimodular_has_flint());
  std::mt19937_64 rng(31);
  const auto ps = primes_below_2_31(12);
  for (int trial = 0; trial < 500; ++trial) {
    const unsigned bits = 1 + static_cast<unsigned>(rng() % 300);
    const Integer x = test::random_integer(rng, bits);
    const std::span<const std::uint32_t> use(ps.data(), primes_for_bits(bits, ps));
    const auto r = residues(x, use);
    REQUIRE(crt_symmetric(r, use) == x);
    REQUIRE(crt_symmetric_plain(r, use) == x);
  }
  // Arbitrary residues over arbitrary sets of distinct primes, small ones and 2 included.
  const auto pool = primes_below_2_31(40);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint32_t> use{2, 3, 65537};
    for (std::uint32_t p : pool)
      if (rng() % 3 == 0) use.push_back(p);
    std::shuffle(use.begin(), use.end(), rng);
    use.resize(1 + rng() % use.size());
    std::vector<std::uint32_t> r;
    for (std::size_t i = 0; i < use.size(); ++i) r.push_back(static_cast<std::uint32_t>(rng()));
    const Integer fast = crt_symmetric(r, use), plain = crt_symmetric_plain(r, use);
    REQUIRE(fast == plain);
    for (std::size_t i = 0; i < use.size(); ++i) REQUIRE(residue(fast, use[i]) == r[i] % use[i]);
  }
}

TEST_CASE("rational reconstruction by hand", "[algebra][multimodular]") {
  // m = 13, N = 1, D = 5 (2·N·D = 10 < 13): 0, ±1, ±1/2, …, ±1/5 hit every residue but 2, 11.
  for (auto rr : {rational_reconstruct, rational_reconstruct_plain}) {
    CHECK(rr(8, 13, 1, 5) == Rational(1, 5));  // 5·8 = 40 ≡ 1
    CHECK(rr(5, 13, 1, 5) == Rational(-1, 5));
    CHECK(rr(0, 13, 1, 5) == Rational(0));
    CHECK(rr(-1, 13, 1, 5) == Rational(-1));
    CHECK(rr(12, 13, 1, 5) == Rational(-1));
    CHECK_FALSE(rr(2, 13, 1, 5).has_value());
    CHECK_FALSE(rr(11, 13, 1, 5).has_value());
    CHECK(rr(1, 1, 0, 1) == Rational(0));                     // m = 1: everything is 0
    CHECK_THROWS_AS(rr(2, 13, 1, 7), std::invalid_argument);  // 2·1·7 = 14 ≥ 13
    CHECK_THROWS_AS(rr(2, 13, -1, 5), std::invalid_argument);
    CHECK_THROWS_AS(rr(2, 13, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(rr(2, 0, 0, 1), std::invalid_argument);
  }
}

TEST_CASE("rational reconstruction agrees with brute force on small moduli",
          "[algebra][multimodular]") {
  for (long m : {1L, 2L, 3L, 4L, 9L, 12L, 13L, 30L, 49L, 97L, 100L}) {
    for (long N = 0; 2 * N < m; ++N) {
      for (long D = 1; 2 * N * D < m && D <= m; ++D) {
        for (long a = 0; a < m; ++a) {
          const auto brute = reconstruct_brute(a, m, N, D);
          REQUIRE(brute.size() <= 1);  // uniqueness when 2·N·D < m
          const auto fast = rational_reconstruct(a, m, N, D);
          const auto plain = rational_reconstruct_plain(a, m, N, D);
          INFO("a = " << a << ", m = " << m << ", N = " << N << ", D = " << D);
          REQUIRE(fast == plain);
          REQUIRE(fast.has_value() == !brute.empty());
          if (fast) REQUIRE(*fast == brute[0]);
        }
      }
    }
  }
}

TEST_CASE("rationals of bounded height are recovered from residues", "[algebra][multimodular]") {
  std::mt19937_64 rng(5);
  const auto ps = primes_below_2_31(12);
  for (int trial = 0; trial < 300; ++trial) {
    const unsigned bits = 1 + static_cast<unsigned>(rng() % 150);
    const Rational q = test::random_rational(rng, bits);  // |n| < 2^bits, 0 < d ≤ 2^bits
    const Integer bound = Integer(1) << bits;
    const std::span<const std::uint32_t> use(ps.data(), primes_for_bits(2.0 * bits, ps));
    const auto r = residues(q, use);
    REQUIRE(rational_from_residues(r, use, bound, bound) == q);
    const Integer a = crt_symmetric(r, use), m = [&] {
      Integer P = 1;
      for (std::uint32_t p : use) P *= p;
      return P;
    }();
    REQUIRE(rational_reconstruct_plain(a, m, bound, bound) == q);
  }
  // A rational of 100-bit height has no reconstruction of height 2^50 mod a 124-bit m.
  const std::span<const std::uint32_t> four(ps.data(), 4);
  const Rational tall = test::random_rational(rng, 100);
  REQUIRE(abs(numerator(tall)) > (Integer(1) << 60));
  CHECK_FALSE(rational_from_residues(residues(tall, four), four, Integer(1) << 50, Integer(1) << 50)
                  .has_value());
}

TEST_CASE("rational reconstruction: fast equals plain on random inputs",
          "[algebra][multimodular]") {
  INFO("FLINT: " << multimodular_has_flint());
  std::mt19937_64 rng(77);
  int found = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const unsigned bits = 3 + static_cast<unsigned>(rng() % 200);
    Integer m = abs(test::random_integer(rng, bits));
    if (m < 3) m += 3;
    // N, D with 2·N·D < m: split the bits of m between them, then shrink at random.
    const unsigned nbits = static_cast<unsigned>(rng() % (bit_length(m) - 1));
    Integer N = abs(test::random_integer(rng, nbits + 1)) % (Integer(1) << nbits);
    Integer D = (m - 1) / (2 * std::max(N, Integer(1)));
    if (rng() % 2 == 1 && D > 1) D = 1 + abs(test::random_integer(rng, 64)) % D;
    // Every other trial, make a the image of some n/d within the bounds (d invertible mod m).
    Integer a = test::random_integer(rng, bits + 2);
    if (trial % 2 == 0) {
      const Integer n = test::random_integer(rng, 64) % (N + 1),
                    d = 1 + abs(test::random_integer(rng, 64)) % D;
      Integer inv;
      if (mpz_invert(inv.backend().data(), d.backend().data(), m.backend().data()) != 0)
        a = n * inv + m * test::random_integer(rng, 8);  // any representative
    }
    INFO("a = " << a << ", m = " << m << ", N = " << N << ", D = " << D);
    const auto fast = rational_reconstruct(a, m, N, D);
    REQUIRE(fast == rational_reconstruct_plain(a, m, N, D));
    found += fast.has_value();
  }
  CHECK(found > 900);
}

TEST_CASE("unlucky primes are skipped and replaced", "[algebra][multimodular]") {
  const auto ps = primes_below_2_31(5);
  const Integer den = Integer(ps[0]) * ps[1];  // the two largest 31-bit primes
  const Integer dens[] = {Integer(6), den, Integer(-35)};
  CHECK(divides_any(ps[0], dens));
  CHECK(divides_any(ps[1], dens));
  CHECK(divides_any(7, dens));  // −35
  CHECK_FALSE(divides_any(ps[2], dens));
  CHECK(lucky_primes(3, dens) == std::vector<std::uint32_t>{ps[2], ps[3], ps[4]});
  CHECK(lucky_primes(5, {}) == ps);
  const Integer zero[] = {Integer(0)};
  CHECK_THROWS_AS(divides_any(3, zero), std::invalid_argument);
  CHECK_THROWS_AS(lucky_primes(1, zero), std::invalid_argument);
}

TEST_CASE("log2_of: exact powers, leading bits beyond a double, non-positive values",
          "[algebra][multimodular]") {
  using rnncc::Integer;
  using rnncc::log2_of;
  CHECK(log2_of(Integer(1)) == 0.0);
  CHECK(log2_of(Integer(1) << 100) == 100.0);
  CHECK(log2_of(Integer(1) << 4000) == 4000.0);  // past a double's range: from the bit length
  CHECK(log2_of(Integer(3) << 200) == Approx(200 + std::log2(3.0)).epsilon(1e-15));
  CHECK(log2_of((Integer(1) << 60) - 1) == Approx(60.0).epsilon(1e-15));
  CHECK(log2_of(Integer(0)) == -std::numeric_limits<double>::infinity());
  CHECK(log2_of(Integer(-8)) == -std::numeric_limits<double>::infinity());
}
