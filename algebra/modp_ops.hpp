// Arithmetic in Z/pZ for word-size primes p < 2^62, on residues in [0, p).
//
// Products are formed exactly in 128 bits and reduced: (a·b) mod p. These functions are the
// single definition of mod-p gate semantics, shared by the CPU and the CUDA evaluators
// (circuits/eval/cuda/gpu.cu).
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"

namespace rnncc::modp {

inline constexpr std::uint64_t max_modulus_bits = 62;

__extension__ typedef unsigned __int128 u128;  // GCC/Clang/NVCC extension, named once

RNNCC_HD std::uint64_t add(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  std::uint64_t s = a + b;  // < 2^63, no wrap-around
  return s >= p ? s - p : s;
}
RNNCC_HD std::uint64_t sub(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return a >= b ? a - b : a + p - b;
}
RNNCC_HD std::uint64_t neg(std::uint64_t a, std::uint64_t p) {
  return a == 0 ? 0 : p - a;
}
RNNCC_HD std::uint64_t mul(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>((static_cast<u128>(a) * b) % p);
}
// a^e mod p by square-and-multiply.
RNNCC_HD std::uint64_t pow(std::uint64_t a, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1 % p;
  while (e) {
    if (e & 1) r = mul(r, a, p);
    a = mul(a, a, p);
    e >>= 1;
  }
  return r;
}
// Inverse of a ≠ 0 modulo the prime p (Fermat: a^(p−2)).
RNNCC_HD std::uint64_t inv(std::uint64_t a, std::uint64_t p) {
  return pow(a, p - 2, p);
}

// Deterministic Miller–Rabin for 64-bit n: the first twelve primes as bases are a proof for
// every n < 3.3·10^24 (Sorenson & Webster 2015), so in particular for all n < 2^64.
RNNCC_HD bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  const std::uint64_t bases[12] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  for (std::uint64_t q : bases) {
    if (n == q) return true;
    if (n % q == 0) return false;
  }
  std::uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++s;
  }
  for (std::uint64_t a : bases) {
    std::uint64_t x = pow(a % n, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s; ++r) {
      x = mul(x, x, n);
      if (x == n - 1) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

}  // namespace rnncc::modp
