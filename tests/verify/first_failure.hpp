// The plain twin of the verify engine's search, shrinking and every-length decision: the first
// string in (length, lexicographic) order, up to max_length (a fixed-length domain: that length),
// whose X output differs from f — by plain enumeration with the reference evaluator.
#pragma once

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "constructions/construction.hpp"
#include "rnn/evaluate.hpp"

namespace rnncc::test {

inline std::optional<std::string> first_failure(const Construction& c, std::size_t max_length) {
  const std::size_t S = c.target.alphabet.size();
  const std::size_t lo = c.target.fixed_length.value_or(1),
                    hi = c.target.fixed_length.value_or(max_length);
  for (std::size_t n = lo; n <= hi; ++n) {
    std::vector<std::size_t> w(n, 0);
    while (true) {
      const Rational f = c.target.value(w);
      bool ok;
      if (c.modulus) {
        ModP k(*c.modulus);
        ok = evaluate(c.model, k, c.encode(w)).outputs().back()(c.out_row, c.out_col) ==
             k.from_rational(f);
      } else {
        try {  // integer models evaluate much faster in Z; rational ones fall back to Q
          ok = Rational(evaluate(c.model, IntegerRing{}, c.encode(w))
                            .outputs()
                            .back()(c.out_row, c.out_col)) == f;
        } catch (const DomainError&) {
          ok = evaluate(c.model, RationalField{}, c.encode(w))
                   .outputs()
                   .back()(c.out_row, c.out_col) == f;
        }
      }
      if (!ok) return c.target.alphabet.join(w);
      std::size_t i = n;
      while (i > 0 && ++w[i - 1] == S) w[--i] = 0;
      if (i == 0) break;
    }
  }
  return std::nullopt;
}

}  // namespace rnncc::test
