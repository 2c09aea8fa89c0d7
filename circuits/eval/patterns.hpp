// The input patterns of bulk evaluation, written once for the CPU and the GPU (so both evaluate
// exactly the same inputs and their digests can be compared bit for bit).
//
//   bits, exhaustive    pattern k sets input i to bit i of k (k < 2^inputs);
//   bits, random        boolean: a seeded 64-bit word per (input, word of 64 patterns);
//                       arithmetic: a seeded integer in [0, 2^61 − 1) per (pattern, input);
//   strings, exhaustive pattern k is the k-th string of Σ^L (Σ = {0..r−1}) in lexicographic
//                       order: k written in base r with L digits, w₁ the most significant
//                       (w_L = k mod r); the inputs are w's one-hot indicators x[t,σ] = [w_t = σ],
//                       input index (t−1)·r + σ (compile_lrnn's order). So the smallest failing
//                       pattern is the lexicographically least failing string;
//   strings, random     symbol t of pattern k is a seeded hash of (k, t) reduced mod r.
// Patterns are numbered from `first`, so a long run splits into chunks and shards.
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"

namespace rnncc::patterns {

enum class Mode : std::uint8_t { bits_exhaustive, bits_random, strings_exhaustive, strings_random };

struct Spec {
  Mode mode = Mode::bits_random;
  std::uint64_t seed = 1;
  std::uint32_t radix = 2;   // strings: |Σ|
  std::uint32_t length = 0;  // strings: L
  std::uint64_t first = 0;   // number of the first pattern
  std::uint64_t count = 0;   // patterns
};

inline constexpr std::uint64_t kRandomModulus = 2305843009213693951ull;  // 2^61 − 1

// A 64-bit mixing step (boost::hash_combine's constant, then a SplitMix64 multiplier).
RNNCC_HD std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}

// Boolean mode, bit modes only: the word of input i for patterns 64w .. 64w + 63 (lane = bit).
RNNCC_HD std::uint64_t bool_word(const Spec& s, std::uint64_t w, std::uint32_t i) {
  if (s.mode == Mode::bits_random) {
    const std::uint64_t z = mix(s.seed * 0x100000001B3ull + i, w);
    return mix(z, 0x2545F4914F6CDD1Dull);
  }
  if (i < 6) {  // bit i of k = 64w + lane, lane < 64: a fixed word
    const std::uint64_t lanes[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull,
                                    0xF0F0F0F0F0F0F0F0ull, 0xFF00FF00FF00FF00ull,
                                    0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
    return lanes[i];
  }
  return (i - 6 < 64 && (w >> (i - 6) & 1)) ? ~std::uint64_t{0} : 0;
}

// Symbol t (0-based) of pattern k (string modes).
RNNCC_HD std::uint32_t symbol(const Spec& s, std::uint64_t k, std::uint32_t t) {
  if (s.mode == Mode::strings_random)
    return static_cast<std::uint32_t>(mix(mix(s.seed, k), t) % s.radix);
  const std::uint32_t digit = s.length - 1 - t;  // w₁ is the most significant digit
  if (s.radix == 2) return static_cast<std::uint32_t>(digit < 64 ? (k >> digit) & 1 : 0);
  for (std::uint32_t j = 0; j < digit; ++j) k /= s.radix;
  return static_cast<std::uint32_t>(k % s.radix);
}

// Arithmetic mode: the integer value of input i in pattern k.
RNNCC_HD std::uint64_t int_value(const Spec& s, std::uint64_t k, std::uint32_t i) {
  switch (s.mode) {
    case Mode::bits_exhaustive:
      return i < 64 ? (k >> i) & 1 : 0;
    case Mode::bits_random:
      return mix(mix(s.seed, k), i) % kRandomModulus;
    default:
      return symbol(s, k, i / s.radix) == i % s.radix ? 1 : 0;
  }
}

}  // namespace rnncc::patterns
