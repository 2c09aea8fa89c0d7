// Analyses of a circuit, as side tables indexed by gate id (docs/architecture.md, "The circuit
// IR and its side tables": derived data never lives in the gate).
//
// Depth conventions (docs/circuits.md, "Metrics"): inputs and constants have depth 0.
//   unbounded fan-in:  depth(g) = 1 + max depth(operands)
//   bounded fan-in:    depth(g) = c(g) + max depth(operands),  c(g) = max(1, ⌈log₂ arity⌉)
// (a k-ary gate is a balanced tree of ⌈log₂ k⌉ fan-in-2 gates). The circuit's depth is the
// largest depth of an output. The figures (CircuitStats::depth, bounded_fanin_depth; `rnncc
// stats`) count a boolean `not` free (NotCost::free): an inverter is an edge attribute in an
// and-inverter graph, and ABC's `lev` counts it free (EPFL multiplier.aig: 274 levels; 534
// counting its 23442 NOT gates, CircuitStats::depth_counting_not). The tables below take the
// cost as an argument and default to NotCost::counted (a `not` is a level like any gate), which
// drawings rank by. Arithmetic `neg` always costs 1.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

enum class FaninModel { unbounded, bounded };
enum class NotCost { free, counted };

// Cost of one gate under the model.
std::uint32_t gate_depth_cost(const Circuit& c, GateId id, FaninModel model,
                              NotCost not_cost = NotCost::counted);
// depth[id] for every gate.
std::vector<std::uint32_t> depth_table(const Circuit& c, FaninModel model,
                                       NotCost not_cost = NotCost::counted);
// fanout[id]: how many operand slots name the gate (outputs not counted).
std::vector<std::uint32_t> fanout_table(const Circuit& c);
// Gates reachable backwards from the outputs (live[id]).
std::vector<bool> live_table(const Circuit& c);
// A longest path ending at a deepest output, from its source (an input or constant) to it.
std::vector<GateId> critical_path(const Circuit& c, FaninModel model,
                                  NotCost not_cost = NotCost::counted);

struct CircuitStats {
  std::size_t size = 0;       // gates, constants and inputs included
  std::size_t live_size = 0;  // the gates an output reads, plus every input: what
                              // sweep_dead_gates keeps (circuits/passes/dead_gates.hpp)
  std::size_t inputs = 0, outputs = 0;
  std::array<std::size_t, kGateKindCount> by_kind{};
  std::uint32_t depth = 0, bounded_fanin_depth = 0;  // NOT free
  std::uint32_t depth_counting_not = 0;              // unbounded fan-in, a NOT is a level
  std::uint32_t max_fanin = 0;
  std::vector<std::size_t> width;  // gates per level of `depth` (unbounded fan-in, NOT free)
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

namespace rnncc {

// Height analysis: how large the exact values of an arithmetic circuit can get, which decides
// how many primes a multi-modular evaluation needs (algebra/multimodular.hpp).
//
// For every gate g, height_table gives an integer D_g > 0 and a real h_g such that, for every
// assignment of integers with |input_i| ≤ 2^input_log2_max, value(g)·D_g is an integer N_g with
// |N_g| ≤ 2^h_g (h_g = −∞ means value(g) is always 0). Rules, by induction over the gates:
//   constant p/q (lowest terms):  D = q, h = log₂|p|           (zero: D = 1, h = −∞)
//   input:                        D = 1, h = input_log2_max
//   add, sub, sum:                D = lcm(D_i), N = Σ ±N_i·(D/D_i),  so
//                                 h = log₂ Σ 2^(h_i + log₂(D/D_i))   (log-sum-exp, max first)
//   neg:                          the operand's D and h
//   mul, product:                 D = Π D_i, N = Π N_i,  h = Σ h_i
//   boolean, threshold, test:     D = 1, h = 0                  (the values are 0 or 1)
// D is exact; h is computed in double precision and kept an upper bound by rounding up: logs
// of integers are taken of an upper neighbour with 53 significant bits, and each gate's h is
// raised by 1e-9·max(1, |h|) + 1e-15·arity, which dominates the rounding error of the few
// floating-point operations per operand (each within a few ulps, ulp ≈ 2.2e-16 relative).
// D_g divides a product of constant denominators, so a prime dividing none of them
// (lucky_primes(count, constant_denominators(c))) divides no D_g.
//
// Use: evaluate the circuit mod primes p_1..p_k; r_i = (value(g) mod p_i)·D_g mod p_i is N_g
// mod p_i, and crt_symmetric(r, p) = N_g exactly when Π p_i > 2^(h_g+1), i.e. for
// k ≥ primes_for_bits(h_g, primes); then value(g) = N_g / D_g. Caveat: only arithmetic gates
// commute with reduction mod p. A boolean, threshold or test gate reads its operand's truth,
// and a value that is nonzero over Q can be 0 mod p (positive has no meaning mod p at all), so
// the bound is about exact values and the scheme is exact for gates above such gates only
// when no prime divides the numerators they test.
struct HeightBound {
  Integer denominator = 1;    // D_g > 0
  double log2_numerator = 0;  // h_g; −∞ when the gate is identically 0
};

// The bound of every gate, indexed by id. Throws std::invalid_argument if input_log2_max is
// NaN.
std::vector<HeightBound> height_table(const Circuit& c, double input_log2_max = 0);
// The bounds of the outputs, in the order of c.outputs().
std::vector<HeightBound> output_heights(const Circuit& c, double input_log2_max = 0);
// The distinct denominators other than 1 of the constant gates, ascending: the input of
// lucky_primes.
std::vector<Integer> constant_denominators(const Circuit& c);

}  // namespace rnncc
