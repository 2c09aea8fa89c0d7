// The inner loop of exhaustive checks by prefix sharing (verify/prefix_check.hpp), one definition
// for the CPU and the GPU (verify/cuda/prefix_check.cu): the same functions run on both, so the
// two agree bit for bit.
//
// The subject is one linear representation g = X ⊕ (−f) of dimension d with one output (the
// difference of the model's and the WFA's outputs), its entries as residues mod k primes in
// Montgomery form (algebra/mont31.hpp). String number n of Σ^L (w₁ the most significant digit in
// base |Σ|, as circuits/eval/patterns.hpp numbers them) differs iff
//     g(w) = α·M_{w₁}⋯M_{w_{L−1}}·O_{w_L} ≢ 0 mod some p_i.
// walk() takes the strings [first, first + count) in order and keeps the stack of prefix states
// v_j = α·M_{w₁}⋯M_{w_j} (j = 0..L−1): stepping n → n + 1 changes the digits from the lowest
// carried position t on, so only v_t, …, v_{L−1} are recomputed (the digit w_L changes every
// string and needs no state: the leaf is v_{L−1}·O_{w_L}). Over a range of |Σ|^s aligned strings
// that is Σ_j |Σ|^j ≈ |Σ|^s·|Σ|/(|Σ| − 1) / |Σ| mat-vecs plus one dot product per string,
// against L − 1 mat-vecs per string evaluated from scratch (walk_plain, the plain twin).
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"
#include "algebra/mont31.hpp"

namespace rnncc::prefix {

inline constexpr std::uint32_t kMaxPrimes = 4;
inline constexpr std::uint32_t kMaxDim = 64;
inline constexpr std::uint32_t kMaxLength = 64;
inline constexpr std::uint64_t kNone = ~std::uint64_t{0};
// The GPU kernels (verify/cuda/prefix_check.cu): dimension padded to 8, 16 or 32, primes to 1, 2
// or 4, (padded d)·(padded k) ≤ 32 words of state per level (compile time grows with it),
// tables in constant memory. Larger subjects take the CPU walk or the check circuit.
inline constexpr std::uint32_t kGpuMaxDim = 32;
inline constexpr std::uint32_t kGpuMaxStateWords = 32;
inline constexpr std::uint32_t kGpuMatrixWords = 14336;  // S·K·D² (constant memory: 64 KiB)
inline constexpr std::uint32_t kGpuOutputWords = 1536;   // S·K·D
RNNCC_HD std::uint32_t gpu_padded_dim(std::uint32_t d) {
  return d <= 8 ? 8 : d <= 16 ? 16 : d <= 32 ? 32 : 0;
}
RNNCC_HD std::uint32_t gpu_padded_primes(std::uint32_t k) {
  return k == 1 ? 1 : k == 2 ? 2 : k <= 4 ? 4 : 0;
}
// Whether the GPU kernels take a subject of dimension d, k primes, S symbols.
RNNCC_HD bool gpu_fits(std::uint32_t d, std::uint32_t k, std::uint32_t S) {
  const std::uint32_t D = gpu_padded_dim(d), K = gpu_padded_primes(k);
  return D != 0 && K != 0 && D * K <= kGpuMaxStateWords &&
         static_cast<std::uint64_t>(S) * K * D * D <= kGpuMatrixWords &&
         static_cast<std::uint64_t>(S) * K * D <= kGpuOutputWords;
}

// Flat tables: alpha[i·d + a], M[((i·S + σ)·d + a)·d + b], O[(i·S + σ)·d + a] for prime i.
struct Tables {
  std::uint32_t symbols = 0, dim = 0, primes = 0, length = 0;
  mont31::Field field[kMaxPrimes];
  const std::uint32_t* alpha = nullptr;
  const std::uint32_t* M = nullptr;
  const std::uint32_t* O = nullptr;
};

struct WalkResult {
  std::uint64_t mismatches = 0;
  std::uint64_t first = kNone;  // the least mismatching string number
  std::uint64_t steps = 0;      // mat-vecs (work measure)
};

// out = v·M_σ for every prime; v and out hold primes·d words (prime-major).
RNNCC_HD void step(const Tables& t, const std::uint32_t* v, std::uint32_t sigma,
                   std::uint32_t* out) {
  const std::uint32_t d = t.dim;
  for (std::uint32_t i = 0; i < t.primes; ++i) {
    const mont31::Field f = t.field[i];
    const std::uint32_t* m = t.M + (static_cast<std::uint64_t>(i) * t.symbols + sigma) * d * d;
    const std::uint32_t* vi = v + i * d;
    std::uint32_t* oi = out + i * d;
    for (std::uint32_t b = 0; b < d; ++b) {
      std::uint32_t acc = 0;
      for (std::uint32_t a = 0; a < d; ++a)
        acc = mont31::add(acc, mont31::mul(vi[a], m[a * d + b], f), f);
      oi[b] = acc;
    }
  }
}

// Whether v·O_σ ≢ 0 mod some prime.
RNNCC_HD bool differs(const Tables& t, const std::uint32_t* v, std::uint32_t sigma) {
  const std::uint32_t d = t.dim;
  bool any = false;
  for (std::uint32_t i = 0; i < t.primes; ++i) {
    const mont31::Field f = t.field[i];
    const std::uint32_t* o = t.O + (static_cast<std::uint64_t>(i) * t.symbols + sigma) * d;
    const std::uint32_t* vi = v + i * d;
    std::uint32_t y = 0;
    for (std::uint32_t a = 0; a < d; ++a) y = mont31::add(y, mont31::mul(vi[a], o[a], f), f);
    any = any || y != 0;
  }
  return any;
}

// digits[0..L) of string number n (digits[0] = w₁, the most significant).
RNNCC_HD void digits_of(std::uint64_t n, std::uint32_t radix, std::uint32_t L,
                        std::uint32_t* digits) {
  for (std::uint32_t j = L; j-- > 0;) {
    digits[j] = static_cast<std::uint32_t>(n % radix);
    n /= radix;
  }
}

// The strings [first, first + count) of Σ^L, L ≥ 1, by prefix sharing. `stack` holds
// L·primes·d words (level j = v_j), `digits` L words.
RNNCC_HD WalkResult walk(const Tables& t, std::uint64_t first, std::uint64_t count,
                         std::uint32_t* stack, std::uint32_t* digits) {
  WalkResult r;
  if (count == 0) return r;
  const std::uint32_t L = t.length, S = t.symbols, w = t.primes * t.dim;
  digits_of(first, S, L, digits);
  for (std::uint32_t i = 0; i < t.primes; ++i)
    for (std::uint32_t a = 0; a < t.dim; ++a) stack[i * t.dim + a] = t.alpha[i * t.dim + a];
  std::uint32_t from = 1;  // levels from..L−1 need recomputing
  for (std::uint64_t n = first;; ++n) {
    for (std::uint32_t j = from; j < L; ++j)
      step(t, stack + (j - 1) * w, digits[j - 1], stack + j * w);
    r.steps += L - from;
    if (differs(t, stack + (L - 1) * w, digits[L - 1])) {
      if (r.mismatches++ == 0) r.first = n;
    }
    if (n - first + 1 == count) break;
    // n + 1: add one at the last digit; the lowest changed position (1-based) is the carry's end.
    std::uint32_t j = L - 1;
    while (digits[j] == S - 1) digits[j--] = 0;  // count < |Σ|^L - first: no carry past w₁
    ++digits[j];
    from = j + 1;  // v_{j+1} is the first state that reads w_{j+1} = digits[j]
  }
  return r;
}

// The plain twin: every string from scratch (L − 1 mat-vecs each), no sharing.
RNNCC_HD WalkResult walk_plain(const Tables& t, std::uint64_t first, std::uint64_t count,
                               std::uint32_t* stack, std::uint32_t* digits) {
  WalkResult r;
  const std::uint32_t L = t.length, w = t.primes * t.dim;
  for (std::uint64_t n = first; n - first < count; ++n) {
    digits_of(n, t.symbols, L, digits);
    for (std::uint32_t a = 0; a < w; ++a) stack[a] = t.alpha[a];
    for (std::uint32_t j = 1; j < L; ++j)
      step(t, stack + (j - 1) * w, digits[j - 1], stack + j * w);
    r.steps += L - 1;
    if (differs(t, stack + (L - 1) * w, digits[L - 1]) && r.mismatches++ == 0) r.first = n;
  }
  return r;
}

}  // namespace rnncc::prefix
