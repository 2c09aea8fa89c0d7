// The prime field F_p = Z/pZ as an rnncc domain (algebra/domain.hpp), p prime, p < 2^62.
//
// A rational a/b maps to a·b⁻¹ mod p; that is defined iff p ∤ b (docs/semantics.md,
// "Mod p"). The map Q_(p) → F_p is a ring homomorphism, which is what makes a mod-p run of a
// model equal to its exact run reduced mod p whenever the latter is defined.
#pragma once

#include <cstdint>
#include <string>

#include "algebra/modp_ops.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

class ModP {
 public:
  using Element = std::uint64_t;  // the residue in [0, p)
  using Wide = std::uint64_t;     // ring operations are exact, so no wide accumulator
  static constexpr bool exact = true;

  // Throws InputError unless p is a prime below 2^62.
  explicit ModP(std::uint64_t p);

  std::uint64_t modulus() const { return p_; }
  std::string name() const { return "mod " + std::to_string(p_); }

  Element zero() const { return 0; }
  Element one() const { return 1 % p_; }
  Element add(Element a, Element b) const { return modp::add(a, b, p_); }
  Element sub(Element a, Element b) const { return modp::sub(a, b, p_); }
  Element neg(Element a) const { return modp::neg(a, p_); }
  Element mul(Element a, Element b) const { return modp::mul(a, b, p_); }
  bool equal(Element a, Element b) const { return a == b; }
  bool is_zero(Element a) const { return a == 0; }

  Wide widen(Element a) const { return a; }
  Wide wide_mul(Element a, Element b) const { return mul(a, b); }
  Wide wide_add(Wide a, Wide b) const { return add(a, b); }
  Element narrow(Wide w) const { return w; }

  Element from_integer(const Integer& z) const;
  // Throws DomainError when p divides the denominator.
  Element from_rational(const Rational& q) const;
  std::string to_string(Element a) const { return std::to_string(a); }

 private:
  std::uint64_t p_;
};

}  // namespace rnncc
