#include "algebra/multimodular.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "algebra/modp_ops.hpp"

#if RNNCC_HAVE_FLINT
#include <flint/flint.h>
#include <flint/fmpq.h>
#include <flint/fmpz.h>
#include <flint/fmpz_vec.h>
#endif

namespace rnncc {

bool multimodular_has_flint() {
  return RNNCC_HAVE_FLINT != 0;
}

namespace {

// π(2^31): how many primes lie below 2^31.
constexpr std::size_t kPrimesBelow2To31 = 105097565;

// The `count` largest primes below 2^31 for which keep(p) holds, descending.
template <class Keep>
std::vector<std::uint32_t> collect_primes(std::size_t count, Keep keep) {
  if (count > kPrimesBelow2To31)
    throw std::invalid_argument("asked for " + std::to_string(count) +
                                " primes below 2^31; there are only " +
                                std::to_string(kPrimesBelow2To31));
  std::vector<std::uint32_t> out;
  out.reserve(count);
  // 2^31 − 1 is odd; walk the odd numbers down, then 2.
  for (std::uint32_t n = 0x7FFFFFFFu; out.size() < count && n >= 3; n -= 2)
    if (modp::is_prime(n) && keep(n)) out.push_back(n);
  if (out.size() < count && keep(2)) out.push_back(2);
  if (out.size() < count)
    throw std::invalid_argument("fewer than " + std::to_string(count) +
                                " usable primes below 2^31");
  return out;
}

void check_moduli(std::span<const std::uint32_t> residues, std::span<const std::uint32_t> primes) {
  if (residues.size() != primes.size())
    throw std::invalid_argument("CRT: " + std::to_string(residues.size()) + " residues for " +
                                std::to_string(primes.size()) + " primes");
  for (std::uint32_t p : primes)
    if (!modp::is_prime(p))
      throw std::invalid_argument("CRT: " + std::to_string(p) + " is not prime");
  std::vector<std::uint32_t> sorted(primes.begin(), primes.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw std::invalid_argument("CRT: the primes are not distinct");
}

// x ∈ [0, P) ↦ the representative of x mod P in (−P/2, P/2].
Integer symmetric(Integer x, const Integer& P) {
  if (2 * x > P) x -= P;
  return x;
}

Integer product(std::span<const std::uint32_t> primes) {
  Integer P = 1;
  for (std::uint32_t p : primes) P *= p;
  return P;
}

void check_bounds(const Integer& m, const Integer& num_bound, const Integer& den_bound) {
  if (m < 1 || num_bound < 0 || den_bound < 1)
    throw std::invalid_argument("rational reconstruction needs m ≥ 1, N ≥ 0 and D ≥ 1");
  if (2 * num_bound * den_bound >= m)
    throw std::invalid_argument(
        "rational reconstruction needs 2·N·D < m (N = " + to_string(num_bound) +
        ", D = " + to_string(den_bound) + ", m = " + to_string(m) + ")");
}

Integer reduce(const Integer& a, const Integer& m) {
  Integer r = a % m;  // sign follows a
  if (r < 0) r += m;
  return r;
}

#if RNNCC_HAVE_FLINT
// Owning FLINT integers, converted to and from Boost/GMP through mpz_t.
struct Fmpz {
  fmpz_t v;
  Fmpz() { fmpz_init(v); }
  explicit Fmpz(const Integer& z) {
    fmpz_init(v);
    fmpz_set_mpz(v, z.backend().data());
  }
  ~Fmpz() { fmpz_clear(v); }
  Fmpz(const Fmpz&) = delete;
  Fmpz& operator=(const Fmpz&) = delete;
  Integer get() const {
    Integer z;
    fmpz_get_mpz(z.backend().data(), v);
    return z;
  }
};

struct FmpzVec {
  fmpz* v;
  slong n;
  explicit FmpzVec(std::size_t size)
      : v(_fmpz_vec_init(static_cast<slong>(size))), n(static_cast<slong>(size)) {}
  ~FmpzVec() { _fmpz_vec_clear(v, n); }
  FmpzVec(const FmpzVec&) = delete;
  FmpzVec& operator=(const FmpzVec&) = delete;
};

struct MultiCrt {
  fmpz_multi_CRT_t crt;
  MultiCrt() { fmpz_multi_CRT_init(crt); }
  ~MultiCrt() { fmpz_multi_CRT_clear(crt); }
  MultiCrt(const MultiCrt&) = delete;
  MultiCrt& operator=(const MultiCrt&) = delete;
};
#endif

}  // namespace

std::vector<std::uint32_t> primes_below_2_31(std::size_t count,
                                             std::span<const std::uint32_t> skip) {
  std::vector<std::uint32_t> sorted(skip.begin(), skip.end());
  std::sort(sorted.begin(), sorted.end());
  return collect_primes(
      count, [&](std::uint32_t p) { return !std::binary_search(sorted.begin(), sorted.end(), p); });
}

double log2_of(const Integer& v) {
  if (v <= 0) return -INFINITY;
  const std::size_t bits = msb(v) + 1;
  if (bits <= 53) return std::log2(v.convert_to<double>());
  const Integer top = v >> (bits - 53);
  return std::log2(top.convert_to<double>()) + static_cast<double>(bits - 53);
}

std::size_t primes_for_bits(double bits, std::span<const std::uint32_t> primes) {
  if (std::isnan(bits) || bits == HUGE_VAL)
    throw std::invalid_argument("primes_for_bits: the bit bound must be finite or −∞");
  if (bits < 0) return 0;
  const double e = std::ceil(bits) + 1;  // need P > 2^e
  // Each prime is below 2^31, so k primes give P < 2^(31k): stop before building 2^e if hopeless.
  if (e >= 31.0 * static_cast<double>(primes.size()))
    throw std::invalid_argument("primes_for_bits: " + std::to_string(primes.size()) +
                                " primes cannot cover " + std::to_string(bits) + " bits");
  const Integer target = Integer(1) << static_cast<unsigned>(e);
  Integer P = 1;
  for (std::size_t k = 0; k < primes.size(); ++k) {
    if (P > target) return k;
    P *= primes[k];
  }
  if (P > target) return primes.size();
  throw std::invalid_argument("primes_for_bits: " + std::to_string(primes.size()) +
                              " primes cannot cover " + std::to_string(bits) + " bits");
}

Integer crt_symmetric_plain(std::span<const std::uint32_t> residues,
                            std::span<const std::uint32_t> primes) {
  check_moduli(residues, primes);
  const std::size_t k = primes.size();
  // Mixed-radix digits: all quantities are below 2^31, so products fit in 64 bits.
  std::vector<std::uint64_t> v(k);
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint64_t p = primes[i];
    std::uint64_t partial = 0, radix = 1;  // Σ_{j<i} v_j·p_0⋯p_{j−1} and p_0⋯p_{i−1}, mod p
    for (std::size_t j = 0; j < i; ++j) {
      partial = (partial + v[j] % p * radix) % p;
      radix = radix * primes[j] % p;
    }
    const std::uint64_t r = residues[i] % p;
    v[i] = (r + p - partial) % p * modp::inv(radix, p) % p;
  }
  Integer x = 0;
  for (std::size_t j = k; j-- > 0;) x = x * primes[j] + v[j];  // Horner on the digits
  return symmetric(x, product(primes));
}

Integer crt_symmetric(std::span<const std::uint32_t> residues,
                      std::span<const std::uint32_t> primes) {
#if RNNCC_HAVE_FLINT
  check_moduli(residues, primes);
  if (primes.empty()) return 0;
  FmpzVec moduli(primes.size()), values(primes.size());
  for (std::size_t i = 0; i < primes.size(); ++i) {
    fmpz_set_ui(moduli.v + i, primes[i]);
    fmpz_set_ui(values.v + i, residues[i] % primes[i]);
  }
  MultiCrt crt;
  if (!fmpz_multi_CRT_precompute(crt.crt, moduli.v, moduli.n))
    throw std::logic_error("fmpz_multi_CRT_precompute rejected distinct primes");
  Fmpz x;
  fmpz_multi_CRT_precomp(x.v, crt.crt, values.v, 0);  // x ∈ [0, P)
  Fmpz twice;
  fmpz_mul_2exp(twice.v, x.v, 1);
  if (fmpz_cmp(twice.v, crt.crt->final_modulus) > 0) fmpz_sub(x.v, x.v, crt.crt->final_modulus);
  return x.get();
#else
  return crt_symmetric_plain(residues, primes);
#endif
}

std::optional<Rational> rational_reconstruct_plain(const Integer& a, const Integer& m,
                                                   const Integer& num_bound,
                                                   const Integer& den_bound) {
  check_bounds(m, num_bound, den_bound);
  // Invariant: r_j ≡ t_j·a (mod m) for both rows.
  Integer r0 = m, r1 = reduce(a, m), t0 = 0, t1 = 1;
  while (r1 > num_bound) {
    const Integer q = r0 / r1;
    Integer r2 = r0 - q * r1, t2 = t0 - q * t1;
    r0 = std::move(r1);
    r1 = std::move(r2);
    t0 = std::move(t1);
    t1 = std::move(t2);
  }
  if (t1 == 0) return std::nullopt;
  const Integer n = t1 < 0 ? Integer(-r1) : r1, d = abs(t1);
  if (d > den_bound || gcd(n, d) != 1) return std::nullopt;
  return Rational(n, d);
}

std::optional<Rational> rational_reconstruct(const Integer& a, const Integer& m,
                                             const Integer& num_bound, const Integer& den_bound) {
#if RNNCC_HAVE_FLINT
  check_bounds(m, num_bound, den_bound);
  if (m <= 2) return rational_reconstruct_plain(a, m, num_bound, den_bound);  // FLINT wants m > 2
  Fmpz A(reduce(a, m)), M(m), N(num_bound), D(den_bound), n, d;
  if (!_fmpq_reconstruct_fmpz_2(n.v, d.v, A.v, M.v, N.v, D.v)) return std::nullopt;
  return Rational(n.get(), d.get());
#else
  return rational_reconstruct_plain(a, m, num_bound, den_bound);
#endif
}

std::optional<Rational> rational_from_residues(std::span<const std::uint32_t> residues,
                                               std::span<const std::uint32_t> primes,
                                               const Integer& num_bound, const Integer& den_bound) {
  return rational_reconstruct(crt_symmetric(residues, primes), product(primes), num_bound,
                              den_bound);
}

bool divides_any(std::uint32_t p, std::span<const Integer> denominators) {
  for (const Integer& d : denominators) {
    if (d == 0) throw std::invalid_argument("divides_any: a denominator is 0");
    if (d % p == 0) return true;
  }
  return false;
}

std::vector<std::uint32_t> lucky_primes(std::size_t count, std::span<const Integer> denominators) {
  Integer l = 1;
  for (const Integer& d : denominators) {
    if (d == 0) throw std::invalid_argument("lucky_primes: a denominator is 0");
    l = lcm(l, abs(d));
  }
  return collect_primes(count, [&](std::uint32_t p) { return l % p != 0; });
}

}  // namespace rnncc
