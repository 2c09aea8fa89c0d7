#include "algebra/fixed_point.hpp"

#include "algebra/error.hpp"

namespace rnncc {

std::string to_string(Rounding r) {
  return r == Rounding::nearest_even ? "nearest-even" : "toward-zero";
}
std::string to_string(Overflow o) {
  return o == Overflow::saturate ? "saturate" : "error";
}

unsigned ceil_log2_plus1(std::size_t n) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < n + 1 && bits < 64) ++bits;
  return bits;
}

FixedFormat log_precision(unsigned c, std::size_t n, std::optional<unsigned> int_bits,
                          Rounding rounding, Overflow overflow) {
  FixedFormat f;
  f.frac_bits = c * ceil_log2_plus1(n);
  f.int_bits = int_bits.value_or(f.frac_bits);
  f.rounding = rounding;
  f.overflow = overflow;
  return f;
}

Integer round_shift(const Integer& r_exact, unsigned shift, Rounding mode) {
  if (shift == 0) return r_exact;
  Integer magnitude = boost::multiprecision::abs(r_exact);
  Integer q = magnitude >> shift;          // ⌊|x|⌋ at the target scale
  Integer rem = magnitude - (q << shift);  // 0 ≤ rem < 2^shift
  if (mode == Rounding::nearest_even) {
    Integer half = Integer(1) << (shift - 1);
    if (rem > half || (rem == half && boost::multiprecision::bit_test(q, 0))) q += 1;
  }
  return r_exact.sign() < 0 ? Integer(-q) : q;
}

Integer round_rational(const Rational& x, Rounding mode) {
  Integer n = boost::multiprecision::abs(numerator(x)), d = denominator(x), q, rem;
  boost::multiprecision::divide_qr(n, d, q, rem);
  if (mode == Rounding::nearest_even) {
    Integer twice = 2 * rem;
    if (twice > d || (twice == d && boost::multiprecision::bit_test(q, 0))) q += 1;
  }
  return x.sign() < 0 ? Integer(-q) : q;
}

FixedPoint::FixedPoint(FixedFormat format)
    : format_(format), max_raw_((Integer(1) << (format.int_bits + format.frac_bits)) - 1) {}

std::string FixedPoint::name() const {
  return "fixed(I=" + std::to_string(format_.int_bits) + ",F=" + std::to_string(format_.frac_bits) +
         "," + rnncc::to_string(format_.rounding) + "," + rnncc::to_string(format_.overflow) + ")";
}

FixedPoint::Element FixedPoint::clamp(Integer raw) const {
  if (boost::multiprecision::abs(raw) <= max_raw_) return {std::move(raw)};
  if (format_.overflow == Overflow::error) {
    Rational value(raw, Integer(1) << format_.frac_bits);
    throw DomainError("the value " + rnncc::to_string(value) + " overflows " + name() +
                      " (|x| must be below 2^" + std::to_string(format_.int_bits) + ")");
  }
  return {raw.sign() < 0 ? Integer(-max_raw_) : max_raw_};
}

FixedPoint::Element FixedPoint::from_rational(const Rational& q) const {
  Rational scaled = q * Rational(Integer(1) << format_.frac_bits);
  return clamp(round_rational(scaled, format_.rounding));
}

Rational FixedPoint::to_rational(const Element& a) const {
  return Rational(a.raw, Integer(1) << format_.frac_bits);
}

std::string FixedPoint::to_string(const Element& a) const {
  // raw/2^F = raw·5^F / 10^F: print the integer raw·5^F with F decimals, trailing zeros cut.
  const unsigned f = format_.frac_bits;
  Integer magnitude = boost::multiprecision::abs(a.raw);
  if (f == 0) return (a.raw.sign() < 0 ? "-" : "") + magnitude.str();
  std::string digits = (magnitude * boost::multiprecision::pow(Integer(5), f)).str();
  if (digits.size() <= f) digits.insert(0, f + 1 - digits.size(), '0');
  std::string whole = digits.substr(0, digits.size() - f), frac = digits.substr(digits.size() - f);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  std::string out = (a.raw.sign() < 0 ? "-" : "") + whole;
  if (!frac.empty()) out += "." + frac;
  return out;
}

}  // namespace rnncc
