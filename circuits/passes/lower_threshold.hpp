// Threshold lowering: every `maj` and `thr` gate rewritten into and/or/xor/not gates, so a
// threshold circuit can be written as a netlist (BLIF, .bench, AIGER) or strashed.
//
// Construction (a bit-sliced adder-comparator): with yᵢ = xᵢ for wᵢ > 0 and yᵢ = ¬xᵢ for wᵢ < 0
// (wᵢxᵢ = wᵢ − |wᵢ|·¬xᵢ), thr(x; w; θ) = [Σ wᵢxᵢ ≥ θ] = [S ≥ T] with S = Σ |wᵢ|·yᵢ and
// T = θ + Σ_{wᵢ<0} |wᵢ|; maj(x₁..x_k) = [Σ xᵢ ≥ ⌊k/2⌋ + 1]. T ≤ 0 is the constant 1 and T > Σ|wᵢ|
// the constant 0. Otherwise, with m = bit length of W = Σ|wᵢ| (W < 2^m), [S ≥ T] is bit m of
// V = S + (2^m − T) < 2^(m+1): yᵢ goes into column j for every bit j set in |wᵢ|, the constant
// 2^m − T is added, and the heap (m + 1 columns, height h ≤ k + 1) is reduced to two rows x, y
// by a Dadda tree [Dad65] (reduce_bit_heap, circuits/compile/integer_arith.hpp: column heights
// brought down the sequence …, 13, 9, 6, 4, 3, 2) of flat full adders (sum = xor(a, b, c),
// carry = or(a∧b, a∧c, b∧c)) and half adders; then V_m = x_m ⊕ y_m ⊕ C_m with the one-level
// carry-lookahead C_m = OR_j (g_j ∧ p_{j+1} ∧ … ∧ p_{m−1}), g_j = x_j∧y_j, p_j = x_j⊕y_j
// ([Knu98 §4.3.1]; the textbook CLA formula), its ANDs and OR as balanced trees of gates of at
// most 3 operands. Depth: 2·s(h) + 2 + 2⌈log₃ m⌉ unbounded fan-in, 3·s(h) + 3 + 4⌈log₃ m⌉
// bounded (a 3-operand gate counts 2), s(h) = compressor_stages(dadda, h) ≈ log_{3/2} h; +1 for
// the not of a negative weight. Size: ≤ 5 gates per full adder (one per heap bit), 2 per half
// adder, O(m²) for the carry: O(Σ bits(|wᵢ|) + m·s(h) + m²) gates.
#pragma once

#include <cstddef>

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

}  // namespace rnncc
