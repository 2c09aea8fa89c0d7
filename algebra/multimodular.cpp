#include "algebra/multimodular.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

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

// ---- dense matrices modulo a prime below 2^24
// ----------------------------------------------------

namespace rnncc {

std::vector<std::uint32_t> primes_below_2_24(std::size_t count,
                                             std::span<const std::uint32_t> skip) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t n = (1u << 24) - 1; out.size() < count && n >= 3; n -= 2)
    if (modp::is_prime(n) && std::find(skip.begin(), skip.end(), n) == skip.end()) out.push_back(n);
  if (out.size() < count)
    throw std::invalid_argument("fewer than " + std::to_string(count) + " primes below 2^24");
  return out;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // v8d in inlined helpers only

namespace {

#define RNNCC_MM_INLINE __attribute__((always_inline)) inline

constexpr std::size_t kMR = 6, kNR = 16, kKC = 256, kNC = 512;
typedef double v8d __attribute__((vector_size(64)));

RNNCC_MM_INLINE v8d mm_reduce(v8d x, v8d p, v8d pinv) {
  const v8d magic = {6755399441055744.0, 6755399441055744.0, 6755399441055744.0,
                     6755399441055744.0, 6755399441055744.0, 6755399441055744.0,
                     6755399441055744.0, 6755399441055744.0};
  const v8d q = (x * pinv + magic) - magic;
  return x - q * p;  // exact integer, |·| ≤ p/2 + 1
}

RNNCC_MM_INLINE v8d mm_canonical(v8d x, v8d p, v8d pinv) {
  const v8d zero = {0, 0, 0, 0, 0, 0, 0, 0};
  x = mm_reduce(x, p, pinv);
  return x < zero ? x + p : x;
}

// One 6×16 tile of C: C ← (C + A·Bp) mod p over kc columns of A (kc ≤ kKC), Bp packed kc×16.
RNNCC_MM_INLINE void mm_tile(double p_, const double* A, std::size_t lda, const double* Bp,
                             std::size_t kc, double* C, std::size_t ldc, std::size_t mr,
                             std::size_t nr) {
  const double pinv_ = 1.0 / p_;
  v8d p, pinv;
  for (int t = 0; t < 8; ++t) p[t] = p_, pinv[t] = pinv_;
  double init[kMR * kNR];
  for (std::size_t r = 0; r < kMR; ++r)
    for (std::size_t j = 0; j < kNR; ++j)
      init[r * kNR + j] = (r < mr && j < nr) ? C[r * ldc + j] : 0.0;
  v8d acc[kMR][2];
#pragma GCC unroll 6
  for (std::size_t r = 0; r < kMR; ++r)
#pragma GCC unroll 2
    for (std::size_t h = 0; h < 2; ++h) __builtin_memcpy(&acc[r][h], init + r * kNR + h * 8, 64);
  const double* arow[kMR];
  for (std::size_t r = 0; r < kMR; ++r) arow[r] = A + (r < mr ? r : 0) * lda;
  for (std::size_t k0 = 0; k0 < kc; k0 += 16) {
    const std::size_t k1 = std::min(kc, k0 + 16);
    for (std::size_t k = k0; k < k1; ++k) {
      v8d b0, b1;
      __builtin_memcpy(&b0, Bp + k * kNR, sizeof b0);
      __builtin_memcpy(&b1, Bp + k * kNR + 8, sizeof b1);
#pragma GCC unroll 6
      for (std::size_t r = 0; r < kMR; ++r) {
        const double a = arow[r][k];
        acc[r][0] += a * b0;
        acc[r][1] += a * b1;
      }
    }
#pragma GCC unroll 6
    for (std::size_t r = 0; r < kMR; ++r)
#pragma GCC unroll 2
      for (std::size_t h = 0; h < 2; ++h) acc[r][h] = mm_reduce(acc[r][h], p, pinv);
  }
#pragma GCC unroll 6
  for (std::size_t r = 0; r < kMR; ++r)
#pragma GCC unroll 2
    for (std::size_t h = 0; h < 2; ++h) {
      const v8d c = mm_canonical(acc[r][h], p, pinv);
      __builtin_memcpy(init + r * kNR + h * 8, &c, 64);
    }
  for (std::size_t r = 0; r < mr; ++r)
    for (std::size_t j = 0; j < nr; ++j) C[r * ldc + j] = init[r * kNR + j];
}

// Rows [m0, m1) of C.
RNNCC_MM_INLINE void mm_rows(double p, std::size_t m0, std::size_t m1, std::size_t n, std::size_t k,
                             const double* A, std::size_t lda, const double* B, std::size_t ldb,
                             double* C, std::size_t ldc) {
  std::vector<double> Bp(kKC * kNC);
  for (std::size_t k0 = 0; k0 < k; k0 += kKC) {
    const std::size_t kc = std::min(kKC, k - k0);
    for (std::size_t n0 = 0; n0 < n; n0 += kNC) {
      const std::size_t nc = std::min(kNC, n - n0);
      // Pack B[k0:k0+kc, n0:n0+nc] in panels of 16 columns (zero padded).
      for (std::size_t jp = 0; jp < nc; jp += kNR)
        for (std::size_t kk = 0; kk < kc; ++kk)
          for (std::size_t jj = 0; jj < kNR; ++jj)
            Bp[jp * kc + kk * kNR + jj] = jp + jj < nc ? B[(k0 + kk) * ldb + n0 + jp + jj] : 0.0;
      for (std::size_t i = m0; i < m1; i += kMR) {
        const std::size_t mr = std::min(kMR, m1 - i);
        for (std::size_t jp = 0; jp < nc; jp += kNR)
          mm_tile(p, A + i * lda + k0, lda, Bp.data() + jp * kc, kc, C + i * ldc + n0 + jp, ldc, mr,
                  std::min(kNR, nc - jp));
      }
    }
  }
}

using RowsFn = void (*)(double, std::size_t, std::size_t, std::size_t, std::size_t, const double*,
                        std::size_t, const double*, std::size_t, double*, std::size_t);

void mm_rows_generic(double p, std::size_t m0, std::size_t m1, std::size_t n, std::size_t k,
                     const double* A, std::size_t lda, const double* B, std::size_t ldb, double* C,
                     std::size_t ldc) {
  mm_rows(p, m0, m1, n, k, A, lda, B, ldb, C, ldc);
}
#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void mm_rows_avx2(double p, std::size_t m0, std::size_t m1,
                                                      std::size_t n, std::size_t k, const double* A,
                                                      std::size_t lda, const double* B,
                                                      std::size_t ldb, double* C, std::size_t ldc) {
  mm_rows(p, m0, m1, n, k, A, lda, B, ldb, C, ldc);
}
__attribute__((target("avx512f,fma"))) void mm_rows_avx512(double p, std::size_t m0, std::size_t m1,
                                                           std::size_t n, std::size_t k,
                                                           const double* A, std::size_t lda,
                                                           const double* B, std::size_t ldb,
                                                           double* C, std::size_t ldc) {
  mm_rows(p, m0, m1, n, k, A, lda, B, ldb, C, ldc);
}
#endif

RowsFn mm_rows_best() {
#if defined(__x86_64__)
  static const RowsFn best = __builtin_cpu_supports("avx512f") ? mm_rows_avx512
                             : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
                                 ? mm_rows_avx2
                                 : mm_rows_generic;
  return best;
#else
  return mm_rows_generic;
#endif
}

void check_modmat_prime(std::uint32_t p) {
  if (p < 2 || p >= (1u << 24))
    throw std::invalid_argument("modmat: modulus " + std::to_string(p) + " not in [2, 2^24)");
}

}  // namespace

#pragma GCC diagnostic pop

void modmat_muladd(std::uint32_t p, std::size_t m, std::size_t n, std::size_t k, const double* A,
                   std::size_t lda, const double* B, std::size_t ldb, double* C, std::size_t ldc) {
  check_modmat_prime(p);
  if (m == 0 || n == 0 || k == 0) return;
  const RowsFn rows = mm_rows_best();
  const std::size_t threads =
      std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), 8);
  // Threads only when each gets at least ~2^24 multiply-adds and a few row tiles.
  const std::size_t want = std::min(threads, std::max<std::size_t>(1, m / (4 * kMR)));
  if (want <= 1 || m * n * k < (std::size_t{1} << 25)) {
    rows(p, 0, m, n, k, A, lda, B, ldb, C, ldc);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t step = ((m + want - 1) / want + kMR - 1) / kMR * kMR;
  for (std::size_t m0 = 0; m0 < m; m0 += step)
    pool.emplace_back(rows, double(p), m0, std::min(m, m0 + step), n, k, A, lda, B, ldb, C, ldc);
  for (auto& t : pool) t.join();
}

void modmat_muladd_plain(std::uint32_t p, std::size_t m, std::size_t n, std::size_t k,
                         const double* A, std::size_t lda, const double* B, std::size_t ldb,
                         double* C, std::size_t ldc) {
  check_modmat_prime(p);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::uint64_t acc = static_cast<std::uint64_t>(C[i * ldc + j]);
      for (std::size_t t = 0; t < k; ++t)
        acc = (acc + static_cast<std::uint64_t>(A[i * lda + t]) *
                         static_cast<std::uint64_t>(B[t * ldb + j])) %
              p;
      C[i * ldc + j] = static_cast<double>(acc);
    }
}

}  // namespace rnncc
