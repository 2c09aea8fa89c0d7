#include "algebra/modp.hpp"

#include "algebra/error.hpp"

namespace rnncc {

ModP::ModP(std::uint64_t p) : p_(p) {
  if (p >> modp::max_modulus_bits)
    throw InputError("", "modulus " + std::to_string(p) +
                             " is too large: rnncc's mod-p "
                             "arithmetic needs p < 2^62");
  if (!modp::is_prime(p)) throw InputError("", "modulus " + std::to_string(p) + " is not prime");
}

ModP::Element ModP::from_integer(const Integer& z) const {
  Integer r = z % Integer(p_);  // sign follows z
  if (r < 0) r += p_;
  return r.convert_to<std::uint64_t>();
}

ModP::Element ModP::from_rational(const Rational& q) const {
  Element den = from_integer(denominator(q));
  if (den == 0)
    throw DomainError("the rational " + rnncc::to_string(q) +
                      " has a denominator divisible by p = " + std::to_string(p_) +
                      ", so it has no value mod p");
  return mul(from_integer(numerator(q)), modp::inv(den, p_));
}

}  // namespace rnncc
