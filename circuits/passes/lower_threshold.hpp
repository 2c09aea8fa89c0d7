// Threshold lowering: every `maj` and `thr` gate rewritten into and/or/xor/not gates, so a
// threshold circuit can be written as a netlist (BLIF, .bench, AIGER) or strashed.
//
// Construction (a bit-sliced adder-comparator): with yᵢ = xᵢ for wᵢ > 0 and yᵢ = ¬xᵢ for wᵢ < 0
// (wᵢxᵢ = wᵢ − |wᵢ|·¬xᵢ), thr(x; w; θ) = [Σ wᵢxᵢ ≥ θ] = [S ≥ T] with S = Σ |wᵢ|·yᵢ and
// T = θ + Σ_{wᵢ<0} |wᵢ|; maj(x₁..x_k) = [Σ xᵢ ≥ ⌊k/2⌋ + 1]. T ≤ 0 is the constant 1 and T > Σ|wᵢ|
// the constant 0. Otherwise yᵢ is put into column j of a bit matrix for every bit j set in |wᵢ|,
// and the columns are compressed from the least significant up (a Wallace/Dadda reduction):
// three bits of a column become a full adder (t = a⊕b, sum = t⊕c, carry = (a∧b) ∨ (c∧t), the
// carry going one column up), two bits a half adder (a⊕b, a∧b), until every column holds at
// most one bit s_j. Then S ≥ T by the ripple comparator g₋₁ = 1, g_j = s_j ∧ g_{j−1} where bit
// j of T is 1 and g_j = s_j ∨ g_{j−1} where it is 0 (S[j..0] ≥ T[j..0] iff s_j > t_j, or they are
// equal and the lower bits compare ≥). Size: O(Σ bits(|wᵢ|)) gates; depth O(log k + log W)
// adder levels plus ⌈log₂ (W+1)⌉ comparator levels, W = Σ|wᵢ|.
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
