// Checked 64-bit integers: an exact ordered domain (algebra/domain.hpp) for models whose
// parameters are all integers. Every operation is checked: a result outside [−2^63, 2^63) throws
// Int64Overflow instead of wrapping, so a value computed here is the exact integer or nothing.
// The generator (rnn/generate.hpp) runs integer models on it and replays on rationals after an
// overflow; the tests compare both on every position.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "algebra/error.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

// A result that does not fit in 64 bits.
class Int64Overflow : public DomainError {
 public:
  Int64Overflow() : DomainError("a value overflows 64-bit integers") {}
};

struct Int64 {
  std::int64_t v = 0;
  friend auto operator<=>(Int64, Int64) = default;
};

class CheckedInt64 {
 public:
  using Element = Int64;
  using Wide = Int64;  // exact: a dot product is the sum of its exact products
  static constexpr bool exact = true;

  std::string name() const { return "int64"; }
  Element zero() const { return {0}; }
  Element one() const { return {1}; }
  Element add(Element a, Element b) const {
    Element r;
    if (__builtin_add_overflow(a.v, b.v, &r.v)) throw Int64Overflow();
    return r;
  }
  Element sub(Element a, Element b) const {
    Element r;
    if (__builtin_sub_overflow(a.v, b.v, &r.v)) throw Int64Overflow();
    return r;
  }
  Element neg(Element a) const { return sub(zero(), a); }
  Element mul(Element a, Element b) const {
    Element r;
    if (__builtin_mul_overflow(a.v, b.v, &r.v)) throw Int64Overflow();
    return r;
  }
  bool equal(Element a, Element b) const { return a == b; }
  bool is_zero(Element a) const { return a.v == 0; }
  int sign(Element a) const { return (a.v > 0) - (a.v < 0); }
  Wide widen(Element a) const { return a; }
  Wide wide_mul(Element a, Element b) const { return mul(a, b); }
  Wide wide_add(Wide a, Wide b) const { return add(a, b); }
  Element narrow(Wide w) const { return w; }
  // ⌊a / b⌋ for b > 0.
  Element floor_div(Element a, Element b) const {
    std::int64_t q = a.v / b.v;
    if (a.v % b.v != 0 && a.v < 0) --q;
    return {q};
  }
  // Throws DomainError for a rational that is not an integer of 64 bits.
  Element from_rational(const Rational& q) const {
    if (denominator(q) != 1)
      throw DomainError("the rational " + rnncc::to_string(q) + " is not an integer");
    const Integer& n = numerator(q);
    if (n > Integer(INT64_MAX) || n < Integer(INT64_MIN))
      throw DomainError("the integer " + rnncc::to_string(q) + " does not fit in 64 bits");
    return {static_cast<std::int64_t>(n)};
  }
  Rational to_rational(Element a) const { return Rational(static_cast<long>(a.v)); }
  std::string to_string(Element a) const { return std::to_string(a.v); }
};

}  // namespace rnncc
