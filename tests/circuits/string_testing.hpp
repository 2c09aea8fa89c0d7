// Running a boolean or threshold circuit bit-parallel, 64 inputs to a word: on strings (the
// one-hot inputs x[t,σ], index (t−1)·|Σ| + σ, the order of every compiler in circuits/compile/)
// or on explicit assignments of its inputs.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "circuits/eval/bitparallel.hpp"

namespace rnncc::testing {

// The circuit's outputs on each string: out[i][o] (every string of length inputs / S).
inline std::vector<std::vector<bool>> run_on_strings(
    const Circuit& c, const std::vector<std::vector<std::size_t>>& ws, std::size_t S) {
  std::vector<std::vector<bool>> out(ws.size());
  for (std::size_t base = 0; base < ws.size(); base += 64) {
    const std::size_t lanes = std::min<std::size_t>(64, ws.size() - base);
    std::vector<bits::Word> in(c.inputs().size(), 0);
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const auto& w = ws[base + lane];
      REQUIRE(w.size() * S == in.size());
      for (std::size_t t = 0; t < w.size(); ++t) in[t * S + w[t]] |= bits::Word{1} << lane;
    }
    const auto o = evaluate_bits(c, in);
    for (std::size_t lane = 0; lane < lanes; ++lane)
      for (bits::Word word : o) out[base + lane].push_back((word >> lane & 1) != 0);
  }
  return out;
}

// The circuit's outputs on each assignment of its inputs: out[i][o].
inline std::vector<std::vector<bool>> run_bits(const Circuit& c,
                                               const std::vector<std::vector<bool>>& xs) {
  std::vector<std::vector<bool>> out(xs.size());
  for (std::size_t base = 0; base < xs.size(); base += 64) {
    const std::size_t lanes = std::min<std::size_t>(64, xs.size() - base);
    std::vector<bits::Word> in(c.inputs().size(), 0);
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      REQUIRE(xs[base + lane].size() == in.size());
      for (std::size_t i = 0; i < in.size(); ++i)
        if (xs[base + lane][i]) in[i] |= bits::Word{1} << lane;
    }
    const auto o = evaluate_bits(c, in);
    for (std::size_t lane = 0; lane < lanes; ++lane)
      for (bits::Word w : o) out[base + lane].push_back((w >> lane) & 1);
  }
  return out;
}

// The one-hot assignments x[t,σ] of strings over S symbols, one per string.
inline std::vector<std::vector<bool>> one_hot(const std::vector<std::vector<std::size_t>>& ws,
                                              std::size_t S) {
  std::vector<std::vector<bool>> xs;
  for (const auto& w : ws) {
    std::vector<bool> x(w.size() * S);
    for (std::size_t t = 0; t < w.size(); ++t) x[t * S + w[t]] = true;
    xs.push_back(x);
  }
  return xs;
}

// Every thr gate keeps Σ|w| + |θ| within int32 (circuits/arith/iterated_addition.hpp, "int32
// limits").
inline void require_thr_limits(const Circuit& c) {
  std::int64_t worst = 0;
  for (GateId g = 0; g < c.size(); ++g) {
    if (c.kind(g) != GateKind::thr) continue;
    std::int64_t total = std::abs(static_cast<std::int64_t>(c.threshold(g)));
    for (std::int32_t w : c.weights(g)) total += std::abs(static_cast<std::int64_t>(w));
    worst = std::max(worst, total);
  }
  REQUIRE(worst <= std::numeric_limits<std::int32_t>::max());
}

}  // namespace rnncc::testing
