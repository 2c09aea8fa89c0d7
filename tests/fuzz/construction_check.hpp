// What the construction fuzz targets (generators, router) do with a construction built from an
// accepted input: the claim "X computes f", checked exactly on every string of f's alphabet up
// to a small length (over its first few symbols), as `rnncc verify --exhaustive` does — X run
// by the reference evaluator on encode(w) with its parameters converted once (PreparedModel),
// and on the last string also by the plain path, which converts them per call (the plain
// twin; per string it cost matmul3 about 10 ms under the sanitizers). A disagreement is a
// finding (abort): the construction is wrong for that input, or the two evaluators differ.
// f's DomainError (undefined there) skips the string.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "algebra/exact.hpp"
#include "constructions/construction.hpp"
#include "rnn/evaluate.hpp"

namespace rnncc::fuzz {

inline void check_construction(const Construction& c, std::size_t max_length,
                               std::size_t max_symbols) {
  if (c.modulus) return;  // compared modulo p: verify's job, not this exact check
  const std::size_t S = std::min(c.target.alphabet.size(), max_symbols);
  if (S == 0) return;
  const RationalField k;
  const PreparedModel<RationalField> prepared(c.model, k);
  std::vector<std::size_t> w, last;
  auto mismatch = [&](const Rational& f, const Rational& x, const char* path) {
    std::fprintf(stderr, "%s: f(w) = %s, X(encode(w)) = %s (%s evaluator) at |w| = %zu\n",
                 c.name.c_str(), to_string(f).c_str(), to_string(x).c_str(), path, w.size());
    std::abort();
  };
  std::optional<Rational> last_f;
  // Every string over the first S symbols of length 1..max_length, in length-lex order.
  for (std::size_t n = 1; n <= max_length; ++n) {
    w.assign(n, 0);
    while (true) {
      const bool in_domain = (!c.target.fixed_length || *c.target.fixed_length == n) &&
                             (!c.target.promise || c.target.promise(w));
      if (in_domain) {
        std::optional<Rational> f;
        try {
          f = c.target.value(w);
        } catch (const DomainError&) {
        }
        if (f) {
          const Rational x = evaluate(prepared, c.encode(w)).outputs().back()(c.out_row, c.out_col);
          if (x != *f) mismatch(*f, x, "prepared");
          last = w, last_f = f;
        }
      }
      std::size_t i = n;  // next string of length n
      while (i > 0 && ++w[i - 1] == S) w[--i] = 0;
      if (i == 0) break;
    }
  }
  if (last_f) {
    w = last;
    const Rational x = evaluate(c.model, k, c.encode(w)).outputs().back()(c.out_row, c.out_col);
    if (x != *last_f) mismatch(*last_f, x, "plain");
  }
}

}  // namespace rnncc::fuzz
