// Analyses of a circuit, as side tables indexed by gate id (DESIGN.md: derived data never
// lives in the gate).
//
// Depth conventions (docs/circuits.md, "Metrics"): inputs and constants have depth 0.
//   unbounded fan-in:  depth(g) = 1 + max depth(operands)
//   bounded fan-in:    depth(g) = c(g) + max depth(operands),  c(g) = max(1, ⌈log₂ arity⌉)
// (a k-ary gate is a balanced tree of ⌈log₂ k⌉ fan-in-2 gates). The circuit's depth is the
// largest depth of an output.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

enum class FaninModel { unbounded, bounded };

// Cost of one gate under the model.
std::uint32_t gate_depth_cost(const Circuit& c, GateId id, FaninModel model);
// depth[id] for every gate.
std::vector<std::uint32_t> depth_table(const Circuit& c, FaninModel model);
// fanout[id]: how many operand slots name the gate (outputs not counted).
std::vector<std::uint32_t> fanout_table(const Circuit& c);
// Gates reachable backwards from the outputs (live[id]).
std::vector<bool> live_table(const Circuit& c);
// A longest path ending at a deepest output, from its source (an input or constant) to it.
std::vector<GateId> critical_path(const Circuit& c, FaninModel model);

struct CircuitStats {
  std::size_t size = 0;  // gates, constants and inputs included
  std::size_t inputs = 0, outputs = 0;
  std::array<std::size_t, kGateKindCount> by_kind{};
  std::uint32_t depth = 0, bounded_fanin_depth = 0;
  std::uint32_t max_fanin = 0;
  std::vector<std::size_t> width;  // gates per unbounded-depth level
  std::size_t operations() const;  // size minus inputs and constants
};

CircuitStats compute_stats(const Circuit& c);

}  // namespace rnncc

namespace rnncc {

// Formal degree of every gate as a polynomial in the inputs (inputs 1, constants 0, sums the
// maximum, products the sum; boolean, threshold and test gates are not polynomials and get
// UINT32_MAX). The Schwartz–Zippel bound of verify/ uses it.
std::vector<std::uint32_t> degree_table(const Circuit& c);
// Largest output degree.
std::uint32_t degree(const Circuit& c);

}  // namespace rnncc
