// Saturating arithmetic on work and memory estimates: an estimate past 2^64 − 1 stays there
// rather than wrapping to something small that a limit would admit (cli/limits.hpp,
// algebra/memory.hpp).
#pragma once

#include <cstdint>
#include <limits>

namespace rnncc {

inline constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

constexpr std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > kSaturated - b ? kSaturated : a + b;
}

constexpr std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kSaturated / b ? kSaturated : a * b;
}

constexpr std::uint64_t saturating_pow(std::uint64_t base, std::uint64_t exponent) {
  if (exponent == 0) return 1;
  if (base <= 1) return base;
  std::uint64_t r = 1;
  for (std::uint64_t i = 0; i < exponent && r != kSaturated; ++i) r = saturating_mul(r, base);
  return r;
}

}  // namespace rnncc
