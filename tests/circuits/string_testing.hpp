// Running a compiled circuit on strings: the one-hot inputs x[t,σ] (index (t−1)·|Σ| + σ, the
// order of every compiler in circuits/compile/) packed 64 strings to a word and evaluated
// bit-parallel.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
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

}  // namespace rnncc::testing
