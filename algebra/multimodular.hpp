// Multi-modular arithmetic: run an exact computation over Q modulo several 31-bit primes
// (the GPU evaluator does this) and reconstruct the exact value on the host.
//
// The scheme. Let an exact value be v = N/D with N, D integers and D known in advance
// (circuits/analysis.hpp, height_table, gives D and a bound |N| ≤ 2^h). Evaluate mod primes
// p_1..p_k with p_i ∤ D (and p_i dividing no constant's denominator, so every constant a/b
// has a value a·b⁻¹ mod p_i). The map Z_(p) → F_p is a ring homomorphism (algebra/modp.hpp),
// so the residue of v mod p_i, times D, is N mod p_i. Then:
//
//   CRT: with P = Π p_i, the residues determine N mod P, and N is the unique integer of the
//   symmetric range (−P/2, P/2] with those residues as soon as P > 2·|N|. Sufficient:
//   P > 2^(h+1), since |N| ≤ 2^h. primes_for_bits() counts the primes this takes.
//
//   Rational reconstruction (when D is not known): from a ≡ v (mod m), m = P, find n/d with
//   n ≡ a·d (mod m), |n| ≤ N_max, 0 < d ≤ D_max. If 2·N_max·D_max < m there is at most one
//   such fraction in lowest terms (Wang, Guy & Davenport, "p-adic reconstruction of rational
//   numbers", SIGSAM Bull. 16(2), 1982; von zur Gathen & Gerhard, Modern Computer Algebra
//   (MCA), 3rd ed., §5.10), and the extended Euclidean algorithm finds it.
//
// Every fast routine (FLINT, when the build has it: RNNCC_HAVE_FLINT) has a plain twin on
// Boost/GMP integers that is always compiled; the tests compare the two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "algebra/rational.hpp"

namespace rnncc {

// True when the fast routines below use FLINT (RNNCC_HAVE_FLINT); otherwise they are their
// plain twins.
bool multimodular_has_flint();

// ---- primes ----------------------------------------------------------------------------------

// The `count` largest primes below 2^31, in descending order (2147483647 = 2^31 − 1 first),
// leaving out those listed in `skip`. Deterministic (modp::is_prime is a deterministic
// Miller–Rabin). Throws std::invalid_argument if fewer than `count` such primes exist.
std::vector<std::uint32_t> primes_below_2_31(std::size_t count,
                                             std::span<const std::uint32_t> skip = {});

// The least k such that the first k primes of `primes` (distinct) recover every integer N
// with |N| ≤ 2^bits by crt_symmetric, i.e. 2·|N| < P = Π_{i<k} p_i. Computed exactly (on
// integers, not floating point) as:
//   bits < 0:  k = 0 (the only such integer is 0, and the empty product P = 1 works);
//   bits ≥ 0:  the least k with P > 2^(⌈bits⌉+1)  — hence P > 2^(bits+1) ≥ 2·|N|.
// Rounding bits up to an integer costs at most one bit, rarely one prime. Throws
// std::invalid_argument for NaN or +∞, or when all of `primes` together fall short.
std::size_t primes_for_bits(double bits, std::span<const std::uint32_t> primes);

// log₂ v of a positive integer from its bit length and leading 53 bits (−∞ for v ≤ 0): a few
// ulps, enough to report a bound and size a prime count, which callers then check exactly.
double log2_of(const Integer& v);

// ---- Chinese remaindering ----------------------------------------------------------------------

// The unique integer x with x ≡ residues[i] (mod primes[i]) for all i and x in the symmetric
// range (−P/2, P/2], P = Π primes[i] (P = 1 and x = 0 for no primes). Residues are reduced mod
// their prime first. Throws std::invalid_argument when the spans differ in length or the
// primes are not distinct primes. Fast path: FLINT's fmpz_multi_CRT.
Integer crt_symmetric(std::span<const std::uint32_t> residues,
                      std::span<const std::uint32_t> primes);

// Plain twin: Garner's algorithm (Garner, "The residue number system", IRE Trans. Electron.
// Comput. EC-8, 1959; Knuth, TAOCP vol. 2, §4.3.2). The mixed-radix
// digits v_i ∈ [0, p_i) of x = v_0 + v_1·p_0 + v_2·p_0·p_1 + … are found in word arithmetic,
//   v_i = (r_i − (v_0 + v_1·p_0 + … + v_{i−1}·p_0⋯p_{i−2})) · (p_0⋯p_{i−1})⁻¹  mod p_i,
// then x ∈ [0, P) is assembled by Horner's rule on Integers and shifted by −P if 2x > P.
Integer crt_symmetric_plain(std::span<const std::uint32_t> residues,
                            std::span<const std::uint32_t> primes);

// ---- rational reconstruction -------------------------------------------------------------------

// The fraction n/d in lowest terms with n ≡ a·d (mod m), |n| ≤ num_bound and
// 0 < d ≤ den_bound, or std::nullopt if there is none. Requires m ≥ 1, num_bound ≥ 0,
// den_bound ≥ 1 and 2·num_bound·den_bound < m (which makes the answer unique); throws
// std::invalid_argument otherwise. `a` may be any integer (it is reduced mod m). Fast path:
// FLINT's fmpq_reconstruct_fmpz_2.
std::optional<Rational> rational_reconstruct(const Integer& a, const Integer& m,
                                             const Integer& num_bound, const Integer& den_bound);

// Plain twin: Wang's algorithm. Run the extended Euclidean algorithm on (m, a mod m), keeping
// r_j ≡ t_j·a (mod m), and stop at the first remainder r_j ≤ num_bound. If some n/d meets the
// bounds, it is r_j/t_j (up to sign) — MCA §5.10 — so the answer is sign(t_j)·r_j/|t_j| when
// |t_j| ≤ den_bound and gcd(r_j, t_j) = 1, and none exists otherwise.
std::optional<Rational> rational_reconstruct_plain(const Integer& a, const Integer& m,
                                                   const Integer& num_bound,
                                                   const Integer& den_bound);

// crt_symmetric followed by rational_reconstruct with m = Π primes.
std::optional<Rational> rational_from_residues(std::span<const std::uint32_t> residues,
                                               std::span<const std::uint32_t> primes,
                                               const Integer& num_bound, const Integer& den_bound);

// ---- unlucky primes ----------------------------------------------------------------------------

// Whether p divides some denominator: then a constant with that denominator has no value mod p
// (ModP::from_rational throws DomainError), so p is unusable. Denominators must be nonzero
// (std::invalid_argument otherwise).
bool divides_any(std::uint32_t p, std::span<const Integer> denominators);

// The `count` largest primes below 2^31 that divide none of `denominators`, descending: an
// unlucky prime is skipped and the next smaller prime takes its place, so exactly `count` come
// back. (p | some d ⟺ p | lcm of them, for p prime, so one lcm is tested per candidate.)
std::vector<std::uint32_t> lucky_primes(std::size_t count, std::span<const Integer> denominators);

// ---- dense matrices modulo a prime below 2^24 -----------------------------------------------
//
// The forward-basis decider (verify/equivalence.hpp) works modulo primes p < 2^24 on dense
// matrices stored as doubles with entries in [0, p). A product of two entries is < 2^48, so 16
// of them and a value in (−p, p) sum exactly in a double (< 2^53); the kernel accumulates 16
// products per register, then reduces (x − p·round(x/p), an exact integer of absolute value
// ≤ p/2 + 1), and finally maps into [0, p). Register-blocked (6 rows × 16 columns), compiled for
// AVX-512, AVX2+FMA and plain x86-64 and chosen at run time; two threads for large products.

// The `count` largest primes below 2^24, descending, leaving out those in `skip`.
std::vector<std::uint32_t> primes_below_2_24(std::size_t count,
                                             std::span<const std::uint32_t> skip = {});

// C ← (C + A·B) mod p for row-major A (m×k, row stride lda), B (k×n, ldb), C (m×n, ldc), every
// entry an integer in [0, p), 2 ≤ p < 2^24 (std::invalid_argument otherwise).
void modmat_muladd(std::uint32_t p, std::size_t m, std::size_t n, std::size_t k, const double* A,
                   std::size_t lda, const double* B, std::size_t ldb, double* C, std::size_t ldc);

// Plain twin: the triple loop in 64-bit integers, reduced after every product.
void modmat_muladd_plain(std::uint32_t p, std::size_t m, std::size_t n, std::size_t k,
                         const double* A, std::size_t lda, const double* B, std::size_t ldb,
                         double* C, std::size_t ldc);

// x mod p in [0, p) for an integer-valued double |x| < 2^52.
inline double modmat_reduce(double x, double p, double pinv) {
  const double magic = 6755399441055744.0;  // 1.5·2^52: adding it rounds to an integer
  const double q = (x * pinv + magic) - magic;
  double r = x - q * p;
  if (r < 0) r += p;
  if (r >= p) r -= p;
  return r;
}

}  // namespace rnncc
