// Shared helpers for the Catch2 suites: seeded random exact values, example paths, the one
// check of an input diagnostic and the one way to skip.
#pragma once

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/rational.hpp"

// Ends the current test case as skipped, with the reason: ctest reports every test whose
// output holds "SKIPPED:" as skipped (SKIP_REGULAR_EXPRESSION, tests/CMakeLists.txt), never as
// passed. Use it before any assertion: a test case that skips must have checked nothing.
#define RNNCC_SKIP(reason)       \
  do {                           \
    WARN("SKIPPED: " << reason); \
    return;                      \
  } while (false)

namespace rnncc::test {

inline std::string example(const std::string& name) {
  return std::string(RNNCC_SOURCE_DIR) + "/examples/" + name;
}

// A random integer with |z| < 2^bits.
inline Integer random_integer(std::mt19937_64& rng, unsigned bits) {
  Integer z = 0;
  for (unsigned b = 0; b < bits; b += 32) z = (z << 32) + Integer(rng() & 0xffffffffu);
  z %= Integer(1) << bits;
  return (rng() & 1) ? Integer(-z) : z;
}

inline Rational random_rational(std::mt19937_64& rng, unsigned bits = 20) {
  Integer den = random_integer(rng, bits);
  if (den < 0) den = -den;
  return Rational(random_integer(rng, bits), den + 1);
}

// Small rationals with denominators 1..4, as model parameters tend to be.
inline Rational small_rational(std::mt19937_64& rng) {
  return Rational(static_cast<long>(rng() % 9) - 4, static_cast<long>(rng() % 4) + 1);
}

// The one-hot input vector of a string of symbol ids (index (t−1)·|Σ| + σ, as the compilers'
// inputs x[t,σ]).
inline std::vector<Rational> one_hot(const std::vector<std::size_t>& w, std::size_t S) {
  std::vector<Rational> x(w.size() * S, Rational(0));
  for (std::size_t t = 0; t < w.size(); ++t) x[t * S + w[t]] = 1;
  return x;
}

// Every string over `symbols` symbols of length lo..hi, as id vectors, by length then
// lexicographically.
inline std::vector<std::vector<std::size_t>> all_strings(std::size_t symbols, std::size_t lo,
                                                         std::size_t hi) {
  std::vector<std::vector<std::size_t>> out, layer{{}};
  if (lo == 0) out.push_back({});
  for (std::size_t len = 1; len <= hi; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& w : layer)
      for (std::size_t s = 0; s < symbols; ++s) {
        auto v = w;
        v.push_back(s);
        next.push_back(v);
      }
    if (len >= lo) out.insert(out.end(), next.begin(), next.end());
    layer = std::move(next);
  }
  return out;
}

// A diagnostic as a test reads it: where (file:line:column, JSON path or flag) and the message.
struct Diagnostic {
  std::string where, what;
};

// The InputError run() throws; the test case fails when run() returns instead. Suites that check
// a message more closely than expect_input_error (its whole text, a prefix, several parts) read it
// here, so no suite writes its own try/catch for a diagnostic.
template <class Run>
Diagnostic input_error_of(Run&& run) {
  try {
    run();
  } catch (const InputError& e) {
    return {e.where(), e.what()};
  }
  FAIL("expected an InputError");
  return {};
}

// run() must throw an InputError at `where` (the file:line:column, JSON path or flag it
// names) whose message contains `what`: the one check of a diagnostic every suite uses.
template <class Run>
void expect_input_error(Run&& run, const std::string& where, const std::string& what) {
  INFO("expected an InputError at " << where << " (" << what << ")");
  const Diagnostic d = input_error_of(run);
  INFO(d.what);
  CHECK(d.where == where);
  CHECK_THAT(d.what, Catch::Contains(what));
}

}  // namespace rnncc::test
