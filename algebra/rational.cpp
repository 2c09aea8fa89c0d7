#include "algebra/rational.hpp"

#include <charconv>

#include <cctype>

namespace rnncc {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

Integer decimal_integer(std::string_view digits) {
  std::string text(digits.starts_with('+') ? digits.substr(1) : digits);
  Integer z;
  if (mpz_set_str(z.backend().data(), text.c_str(), 10) != 0)
    throw std::invalid_argument("not a decimal integer: " + text);
  return z;
}

std::optional<Rational> try_parse_rational(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  Rational value;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    std::string_view num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den)) return std::nullopt;
    Integer d = decimal_integer(den);
    if (d == 0) return std::nullopt;
    value = Rational(decimal_integer(num), d);
  } else if (auto dot = s.find('.'); dot != std::string_view::npos) {
    std::string_view whole = s.substr(0, dot), frac = s.substr(dot + 1);
    if (!all_digits(whole) || !all_digits(frac)) return std::nullopt;
    Integer scale = boost::multiprecision::pow(Integer(10), static_cast<unsigned>(frac.size()));
    value = Rational(decimal_integer(whole) * scale + decimal_integer(frac), scale);
  } else {
    if (!all_digits(s)) return std::nullopt;
    value = Rational(decimal_integer(s));
  }
  return negative ? Rational(-value) : value;
}

std::string to_string(const Rational& q) {
  // Fast path (the same text): numerator and denominator machine words.
  const auto* r = q.backend().data();
  if (mpz_fits_slong_p(mpq_numref(r)) && mpz_fits_slong_p(mpq_denref(r))) {
    char buf[48];
    char* end = std::to_chars(buf, buf + 24, mpz_get_si(mpq_numref(r))).ptr;
    const long d = mpz_get_si(mpq_denref(r));
    if (d != 1) {
      *end++ = '/';
      end = std::to_chars(end, buf + sizeof buf, d).ptr;
    }
    return std::string(buf, end);
  }
  if (denominator(q) == 1) return numerator(q).str();
  return numerator(q).str() + "/" + denominator(q).str();
}

std::string to_string(const Integer& z) {
  return z.str();
}

std::size_t bit_length(const Integer& z) {
  if (z == 0) return 0;
  return boost::multiprecision::msb(boost::multiprecision::abs(z)) + 1;
}

std::size_t numerator_bits(const Rational& q) {
  const mpz_srcptr n = mpq_numref(q.backend().data());
  return mpz_sgn(n) == 0 ? 0 : mpz_sizeinbase(n, 2);
}

std::size_t denominator_bits(const Rational& q) {
  return mpz_sizeinbase(mpq_denref(q.backend().data()), 2);
}

Integer floor(const Rational& q) {
  Integer n = numerator(q), d = denominator(q), quotient, remainder;
  boost::multiprecision::divide_qr(n, d, quotient, remainder);  // truncates toward zero
  if (remainder < 0) quotient -= 1;
  return quotient;
}

Integer ceil(const Rational& q) {
  return -floor(Rational(-q));
}

}  // namespace rnncc
