// Exact numbers: Integer (Z) and Rational (Q), Boost.Multiprecision on GMP (mpz_t / mpq_t).
//
// Text form, used by model files and the CLI (docs/formats.md, "Rationals"):
//   rational := sign? digits ( '/' digits | '.' digits )?      sign := '+' | '-'
// "3/4", "-2", "0.125" (a finite decimal is the exact rational 125/1000 = 1/8).
// No spaces, no exponent, denominator ≠ 0. Output is canonical: "p/q" in lowest terms with
// q > 0, or "p" when q = 1.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rnncc {

// Expression templates off: values, not lazy expressions, so `auto` and lambdas are safe.
using Integer =
    boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

// The integer a string of decimal digits (optionally signed) spells, always base 10 — leading
// zeros are not an octal prefix. Precondition: `digits` matches [-+]?[0-9]+.
Integer decimal_integer(std::string_view digits);

// Parses the grammar above; std::nullopt when `text` does not match it.
std::optional<Rational> try_parse_rational(std::string_view text);

// Canonical text form ("p/q" or "p").
std::string to_string(const Rational& q);
std::string to_string(const Integer& z);

// Number of bits of |z| (0 for z = 0) — the measure used for bit-growth reports.
std::size_t bit_length(const Integer& z);

// bit_length of q's numerator and of its denominator (q in lowest terms, denominator > 0), read
// in place: numerator(q) and denominator(q) return new Integers, a malloc and a free each, which
// dominated scans of millions of entries (rnn/run_report.cpp's estimates of a d = 1024 layer).
std::size_t numerator_bits(const Rational& q);
std::size_t denominator_bits(const Rational& q);

// Floor and ceiling of a rational.
Integer floor(const Rational& q);
Integer ceil(const Rational& q);

}  // namespace rnncc
