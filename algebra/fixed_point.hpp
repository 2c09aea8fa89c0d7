// Log-precision fixed point: the number domain of the papers' "log precision" [MJLLS26 §2].
//
// The rule (docs/semantics.md, "Log precision"):
//   * a value is r / 2^F with r an integer and |r| ≤ 2^(I+F) − 1   (sign + I integer bits +
//     F fraction bits; the range is symmetric);
//   * for inputs of length n, F = c·⌈log₂(n+1)⌉ and, unless given, I = F  (log_precision());
//   * every rounding maps an exact rational x to r = round(x·2^F) by the selected mode:
//     nearest-even (ties to the even r) or toward-zero (truncation of |x|);
//   * a result with |r| > 2^(I+F) − 1 saturates to ±(2^(I+F) − 1) or throws DomainError,
//     by the selected overflow policy.
// add/sub/neg are exact up to overflow; mul rounds once. Fused dot products (widen,
// wide_mul, wide_add, narrow) accumulate exactly at 2F fraction bits and round once, which
// is how the reference evaluators apply "one rounding per state entry per step".
//
// Not a ring: mul is not associative and does not distribute (rounding), and add is not
// associative once saturation happens. tests/algebra check which laws hold and show
// counterexamples to the others.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "algebra/rational.hpp"

namespace rnncc {

enum class Rounding { nearest_even, toward_zero };
enum class Overflow { saturate, error };

std::string to_string(Rounding r);  // "nearest-even" | "toward-zero"
std::string to_string(Overflow o);  // "saturate" | "error"

struct FixedFormat {
  unsigned frac_bits = 16;  // F
  unsigned int_bits = 16;   // I
  Rounding rounding = Rounding::nearest_even;
  Overflow overflow = Overflow::saturate;
};

// F = c·⌈log₂(n+1)⌉; I = int_bits if given, else F.
FixedFormat log_precision(unsigned c, std::size_t n, std::optional<unsigned> int_bits,
                          Rounding rounding, Overflow overflow);

// ⌈log₂(n+1)⌉ for n ≥ 0 (0 for n = 0).
unsigned ceil_log2_plus1(std::size_t n);

// Rounds r_exact / 2^shift to an integer by `mode` (shift ≥ 0).
Integer round_shift(const Integer& r_exact, unsigned shift, Rounding mode);
// Rounds a rational to an integer by `mode`.
Integer round_rational(const Rational& x, Rounding mode);

class FixedPoint {
 public:
  struct Element {
    Integer raw;  // the value is raw / 2^F
  };
  struct Wide {
    Integer raw;  // the value is raw / 2^(2F), never rounded
  };
  static constexpr bool exact = false;

  explicit FixedPoint(FixedFormat format);
  const FixedFormat& format() const { return format_; }
  std::string name() const;

  Element zero() const { return {Integer(0)}; }
  Element one() const { return clamp(Integer(1) << format_.frac_bits); }
  Element add(const Element& a, const Element& b) const { return clamp(a.raw + b.raw); }
  Element sub(const Element& a, const Element& b) const { return clamp(a.raw - b.raw); }
  Element neg(const Element& a) const { return {-a.raw}; }  // the range is symmetric
  Element mul(const Element& a, const Element& b) const { return narrow(wide_mul(a, b)); }
  bool equal(const Element& a, const Element& b) const { return a.raw == b.raw; }
  bool is_zero(const Element& a) const { return a.raw == 0; }
  int sign(const Element& a) const { return a.raw.sign(); }

  Wide widen(const Element& a) const { return {a.raw << format_.frac_bits}; }
  Wide wide_mul(const Element& a, const Element& b) const { return {a.raw * b.raw}; }
  Wide wide_add(const Wide& a, const Wide& b) const { return {a.raw + b.raw}; }
  Element narrow(const Wide& w) const {
    return clamp(round_shift(w.raw, format_.frac_bits, format_.rounding));
  }

  // One rounding of the exact rational, then the overflow policy.
  Element from_rational(const Rational& q) const;
  Rational to_rational(const Element& a) const;
  // The exact value as a finite decimal ("-0.6875"): 2^-F has a finite decimal expansion.
  std::string to_string(const Element& a) const;

  // Largest representable raw value, 2^(I+F) − 1.
  const Integer& max_raw() const { return max_raw_; }

 private:
  Element clamp(Integer raw) const;
  FixedFormat format_;
  Integer max_raw_;
};

}  // namespace rnncc
