// Helpers shared by the netlist-format tests (BLIF, ISCAS .bench): functional equality of two
// circuits on random patterns, small truth tables, and reader diagnostics.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "algebra/error.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "tests/support.hpp"

namespace rnncc::testing {

// The EPFL benchmark circuits shipped with the tests (tests/data/epfl/README.md: 13 of the 20,
// with ABC's figures).
inline std::filesystem::path epfl_dir() {
  return std::filesystem::path(RNNCC_SOURCE_DIR) / "tests" / "data" / "epfl";
}

// Both circuits on the same `words`·64 random patterns (inputs by position).
inline void check_same_function(const Circuit& a, const Circuit& b, std::mt19937_64& rng,
                                std::size_t words = 4) {
  REQUIRE(a.inputs().size() == b.inputs().size());
  REQUIRE(a.outputs().size() == b.outputs().size());
  if (a.inputs().empty()) {
    CHECK(evaluate_bits(a, {}) == evaluate_bits(b, {}));
    return;
  }
  std::vector<bits::Word> patterns(words * a.inputs().size());
  for (auto& w : patterns) w = rng();
  CHECK(evaluate_bits_batch(a, patterns, 1) == evaluate_bits_batch(b, patterns, 1));
}

// The truth table of output `o` over n ≤ 6 inputs: bit m = value at the minterm where input i
// is bit i of m.
inline std::uint64_t truth_table(const Circuit& c, std::size_t o) {
  const std::size_t n = c.inputs().size();
  std::vector<bits::Word> in(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t m = 0; m < 64; ++m)
      if ((m >> i) & 1) in[i] |= bits::Word{1} << m;
  const std::uint64_t mask = n >= 6 ? ~std::uint64_t{0} : (std::uint64_t{1} << (1u << n)) - 1;
  return evaluate_bits(c, in)[o] & mask;
}

}  // namespace rnncc::testing
