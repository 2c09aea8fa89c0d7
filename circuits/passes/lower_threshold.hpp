// Threshold lowering: every `maj` and `thr` gate rewritten into and/or/xor/not gates, so a
// threshold circuit can be written as a netlist (BLIF, .bench, AIGER) or strashed.
//
// Construction (a bit-sliced adder-comparator): with yᵢ = xᵢ for wᵢ > 0 and yᵢ = ¬xᵢ for wᵢ < 0
// (wᵢxᵢ = wᵢ − |wᵢ|·¬xᵢ), thr(x; w; θ) = [Σ wᵢxᵢ ≥ θ] = [S ≥ T] with S = Σ |wᵢ|·yᵢ and
// T = θ + Σ_{wᵢ<0} |wᵢ|; maj(x₁..x_k) = [Σ xᵢ ≥ ⌊k/2⌋ + 1]. Constant folding first: T ≤ 0 is the
// constant 1 (constant operands move into T); the weights are divided by their gcd g and T
// becomes ⌈T/g⌉; then with W = Σ|wᵢ|, T > W is the constant 0, T = W one and(y₁..y_k) (every yᵢ
// must be 1) and T ≤ minᵢ|wᵢ| one or(y₁..y_k). Otherwise the gate is built two ways, the ripple
// of lower_threshold_gates_ripple (below) and the Dadda construction, and the Dadda one is kept
// only when it is ≥ 4 unbounded-fan-in levels shallower (below that the ripple's smaller size
// wins; the other is swept). Dadda, with m = bit length of W (W < 2^m): yᵢ goes into column j
// for every bit j set in |wᵢ| and the heap is reduced by a Dadda tree [Dad65] (reduce_bit_heap,
// circuits/arith/integer_arith.hpp: column heights brought down the sequence …, 13, 9, 6, 4,
// 3, 2) of flat full adders (sum = xor(a, b, c), carry = or(a∧b, a∧c, b∧c)) and half adders to
// two rows x, y. A gate alone: the constant 2^m − T joins the heap (m + 1 columns; its full
// adders fold) and [S ≥ T] = x_m ⊕ y_m ⊕ C_m, C_m the carry out of the low m columns from the
// pairs g_j = x_j∧y_j, t_j = x_j∨y_j in a radix-3 carry-lookahead tree (G, T) = (G₂ ∨ T₂G₁ ∨
// T₂T₁G₀, T₂T₁T₀) [Knu98 §4.3.1]. Gates over the same weighted operands (a family differing in
// θ, as the block sums of iterated addition): the tree of S alone (m columns), S = x + y by a
// Sklansky adder (add_prefix), all shared, and per gate at_least(S, T) (below). Depth of the
// Dadda construction: 2·s(h) + 2 + 2⌈log₃(m)⌉ unbounded fan-in (a family: + the adder),
// s(h) = compressor_stages(dadda, h) ≈ log_{3/2} h; +1 for the not of a negative weight; the
// kept construction is at most 3 levels deeper. Size: ≤ 5 gates per full adder (one per heap
// bit), 2 per half adder, O(m) for the carry (O(m log m) for a family's adder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "circuits/circuit.hpp"

namespace rnncc {

struct LowerThresholdStats {
  std::size_t gates_in = 0, gates_out = 0;
  std::size_t lowered = 0;  // maj and thr gates rewritten
  std::size_t swept = 0;    // gates the adders made that the comparators do not read (dropped)
};

// Rewrites every `maj` and `thr` gate into and/or/xor/not gates; copies every other gate as it
// is (same kind, operands, order), with the inputs, their names and the outputs. The adders'
// unused gates are swept (sweep_dead_gates, circuits/passes/dead_gates.hpp); c's own gates are
// all kept, dead or not.
Circuit lower_threshold_gates(const Circuit& c, LowerThresholdStats* stats = nullptr);
// The plain twin (the previous lowering, kept for differential tests): the same S and T, the
// columns compressed one after another from the least significant up (each column a FIFO of
// full and half adders), then the ripple comparator g₋₁ = 1, g_j = s_j ∧ g_{j−1} where bit j of
// T is 1 and g_j = s_j ∨ g_{j−1} where it is 0. Depth O(log k · log W) adder levels plus
// ⌈log₂(W+1)⌉ comparator levels, linear in the bit width.
Circuit lower_threshold_gates_ripple(const Circuit& c, LowerThresholdStats* stats = nullptr);

// [s ≥ T] for an unsigned row s (bit 0 first) and a constant T: the comparator with a constant
// operand. The ripple g₋₁ = 1, g_j = s_j ∧ g_{j−1} where bit j of T is 1 and s_j ∨ g_{j−1}
// where it is 0 is the carry of the pairs (0, s_j) and (s_j, 1) over (1, 0), so only the runs
// of T's 1-bits (ands) and 0-bits (ors) remain, combined by a radix-3 carry-lookahead tree:
// depth ≤ 2⌈log₃(w + 1)⌉, ≤ 2w gates, w = s.size(); T ≥ 2^w is the constant 0.
GateId at_least(CircuitBuilder& b, std::span<const GateId> s, std::uint64_t T);

}  // namespace rnncc
