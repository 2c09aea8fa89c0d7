// Which semantics a run uses: exact (Q), log precision (fixed point, algebra/fixed_point.hpp)
// or mod p. Parsed from the CLI's `--precision exact|log:C|mod:P`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "algebra/fixed_point.hpp"

namespace rnncc {

struct PrecisionSpec {
  enum class Kind { exact, log, mod };
  Kind kind = Kind::exact;
  unsigned log_c = 1;                // log:C — fraction bits F = C·⌈log₂(n+1)⌉
  std::optional<unsigned> int_bits;  // I; default F
  Rounding rounding = Rounding::nearest_even;
  Overflow overflow = Overflow::saturate;
  std::uint64_t modulus = 0;  // mod:P — P prime, < 2^62
};

// "exact" | "log:C" (1 ≤ C ≤ 64) | "mod:P". Throws InputError (where = `flag`) otherwise,
// including for a composite or too large P.
PrecisionSpec parse_precision(std::string_view text, const std::string& flag = "--precision");
Rounding parse_rounding(std::string_view text, const std::string& flag = "--rounding");
Overflow parse_overflow(std::string_view text, const std::string& flag = "--overflow");

std::string to_string(const PrecisionSpec& spec);

// Integer bits, when given, lie in 1..max_int_bits (I ≥ 1 keeps the one-hot input 1 exact).
inline constexpr unsigned max_int_bits = 4096;
void check_int_bits(const PrecisionSpec& spec, const std::string& flag = "--int-bits");

}  // namespace rnncc
