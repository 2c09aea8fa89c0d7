// The exact domains: Q (RationalField) and Z (IntegerRing), on GMP through Boost.Multiprecision.
// "Poly precision" in the papers' sense: nothing is ever rounded, and runs report how many
// bits numerators and denominators grow to (rnn/evaluate.hpp).
#pragma once

#include <string>

#include "algebra/error.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

// Ring operations on a GMP number type with its own operators (Z or Q); Derived adds the
// conversions.
template <class T>
class GmpRing {
 public:
  using Element = T;
  using Wide = T;
  static constexpr bool exact = true;

  Element zero() const { return T(0); }
  Element one() const { return T(1); }
  Element add(const Element& a, const Element& b) const { return a + b; }
  Element sub(const Element& a, const Element& b) const { return a - b; }
  Element neg(const Element& a) const { return -a; }
  Element mul(const Element& a, const Element& b) const { return a * b; }
  bool equal(const Element& a, const Element& b) const { return a == b; }
  bool is_zero(const Element& a) const { return a == 0; }
  int sign(const Element& a) const { return a.sign(); }

  Wide widen(const Element& a) const { return a; }
  Wide wide_mul(const Element& a, const Element& b) const { return a * b; }
  Wide wide_add(const Wide& a, const Wide& b) const { return a + b; }
  Element narrow(const Wide& w) const { return w; }
  std::string to_string(const Element& a) const { return rnncc::to_string(a); }
};

class RationalField : public GmpRing<Rational> {
 public:
  std::string name() const { return "exact"; }
  Element from_rational(const Rational& q) const { return q; }
  Rational to_rational(const Element& a) const { return a; }
};

class IntegerRing : public GmpRing<Integer> {
 public:
  std::string name() const { return "integer"; }
  // Throws DomainError for a non-integer.
  Element from_rational(const Rational& q) const {
    if (denominator(q) != 1)
      throw DomainError("the rational " + rnncc::to_string(q) + " is not an integer");
    return numerator(q);
  }
  Rational to_rational(const Element& a) const { return Rational(a); }
};

}  // namespace rnncc
