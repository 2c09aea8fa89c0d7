// The number-domain concept, written once.
//
// A domain K is an object (it may carry a modulus or a fixed-point format) with an element
// type and operations. For an exact domain (K::exact) the operations form a commutative ring
// with identity; the laws, for all a, b, c:
//   add(a, add(b, c)) = add(add(a, b), c)      add(a, b) = add(b, a)      add(a, zero) = a
//   add(a, neg(a)) = zero                      sub(a, b) = add(a, neg(b))
//   mul(a, mul(b, c)) = mul(mul(a, b), c)      mul(a, b) = mul(b, a)      mul(a, one) = a
//   mul(a, add(b, c)) = add(mul(a, b), mul(a, c))
// and from_rational is a ring homomorphism from the rationals it accepts (Z_(p) for mod p).
// Fixed point (K::exact == false) is the one inexact domain: see algebra/fixed_point.hpp for
// the laws it keeps. tests/algebra/test_domain_laws.cpp checks every law for every domain on
// seeded random elements.
//
// The wide operations give a fused dot product with a single rounding:
//   dot = narrow(wide_add(... wide_add(wide_mul(a₁, b₁), wide_mul(a₂, b₂)) ...))
// For exact domains Wide = Element and narrow is the identity.
#pragma once

#include <concepts>
#include <string>

#include "algebra/rational.hpp"

namespace rnncc {

template <class K>
concept Domain = requires(const K& k, const typename K::Element& a, const typename K::Element& b,
                          const typename K::Wide& w, const Rational& q) {
  typename K::Element;
  typename K::Wide;
  { K::exact } -> std::convertible_to<bool>;
  { k.name() } -> std::convertible_to<std::string>;
  { k.zero() } -> std::same_as<typename K::Element>;
  { k.one() } -> std::same_as<typename K::Element>;
  { k.add(a, b) } -> std::same_as<typename K::Element>;
  { k.sub(a, b) } -> std::same_as<typename K::Element>;
  { k.neg(a) } -> std::same_as<typename K::Element>;
  { k.mul(a, b) } -> std::same_as<typename K::Element>;
  { k.equal(a, b) } -> std::same_as<bool>;
  { k.is_zero(a) } -> std::same_as<bool>;
  { k.widen(a) } -> std::same_as<typename K::Wide>;
  { k.wide_mul(a, b) } -> std::same_as<typename K::Wide>;
  { k.wide_add(w, w) } -> std::same_as<typename K::Wide>;
  { k.narrow(w) } -> std::same_as<typename K::Element>;
  { k.from_rational(q) } -> std::same_as<typename K::Element>;
  { k.to_string(a) } -> std::convertible_to<std::string>;
};

// Domains with an order compatible with the operations (Q, Z, fixed point): the ones where
// "y > 0", ReLU and sign mean something. F_p is not ordered.
template <class K>
concept OrderedDomain = Domain<K> && requires(const K& k, const typename K::Element& a) {
  { k.sign(a) } -> std::same_as<int>;
  { k.to_rational(a) } -> std::same_as<Rational>;
};

}  // namespace rnncc
