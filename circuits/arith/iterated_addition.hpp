// Iterated addition in constant-depth threshold circuits (TC⁰): the building block of
// compile_time_invariant_threshold (threshold.hpp) and of anything that sums many weighted bits
// (docs/circuits.md, "Threshold circuits").
//
// Theorem (iterated addition is in TC⁰; Hofmeister, Hohberg, Köhling 1991; Siu, Roychowdhury,
// Kailath, "Depth-size tradeoffs for neural computation", IEEE Trans. Computers 40 (1991);
// textbook form: Siu, Roychowdhury, Kailath, "Discrete Neural Computation", 1995, ch. 8).
// Σᵢ wᵢ·xᵢ + c, for N boolean xᵢ and integer weights, is computed by a threshold circuit of
// depth independent of N. Construction used here (iterated_sum):
//   * Offset. A negative weight uses the complemented literal: w·x = a·(1−x) − a with a = |w|,
//     so every magnitude aᵢ ≥ 0 and the offsets go into the constant. All arithmetic is mod 2^W
//     (W the output width), so magnitudes and constant are reduced mod 2^W. A literal 1−x costs
//     no gate: a threshold gate takes −a on x and moves a into its threshold.
//   * Blocks. Magnitudes are cut into b-bit digits d_{i,k} (aᵢ = Σ_k 2^{bk} d_{i,k}); block k's
//     sum P_k = K_k + Σᵢ d_{i,k}·ŷᵢ (ŷ the literal, K_k the constant's digit) has at most
//     L_k = bit_length(max P_k) bits, and Σ = Σ_k 2^{bk} P_k.
//   * Bits of a block sum, depth 2. Bit j of P_k depends only on T_j = Σ (d mod 2^{j+1})·ŷ
//     (+ the constant's digit mod 2^{j+1}), because P_k ≡ T_j (mod 2^{j+1}). With
//         g_m = [T_j ≥ m·2^{j+1}]  (m = 1..M_j, M_j = ⌊max T_j / 2^{j+1}⌋; level 1)
//     ⌊T_j / 2^{j+1}⌋ = Σ_m g_m, so
//         bit_j = [T_j − 2^{j+1}·Σ_m g_m ≥ 2^j]                     (level 2)
//     one thr gate over the literals and the g_m. (This is the "floor" form of the interval
//     construction bit_j = [T_j ∈ ∪_m [m·2^{j+1} + 2^j, (m+1)·2^{j+1})]: one comparison per
//     multiple instead of two per interval, so half the gates and wires.) For j ≥ b − 1 the
//     g_m compare P_k itself with multiples of 2^b and are shared (hash-consing).
//   * Two levels (default). Level 1 sums groups of s = ⌈√N⌉ terms into block-sum bits; level 2
//     sums all those bits (weights 2^position) once more. Wires per output bit fall from about
//     N² (one level: ~N comparisons of fan-in N) to about N^1.5 (docs: measured).
//   * Final regrouping. The last level's block sums, even blocks concatenated into X and odd
//     blocks into Y (disjoint because L_k ≤ 2b, which the block choice guarantees), are added by
//     an unbounded fan-in carry-lookahead adder: g = x∧y, p = x∨y (depth 1),
//     c_i = OR_{j<i} (g_j ∧ AND_{j<k<i} p_k) (depth 3), s_i = x_i ⊕ y_i ⊕ c_i (depth 4). When the
//     last level has one block there is no adder.
// Depth (unbounded fan-in, above the deepest term gate d₀; tests check measured ≤ stated and
// equality on generic weights):
//     d₀ + 2·levels + 4·[the last level has more than one block]
// Size: per block and bit j, 1 + M_j gates with M_j ≤ (N_k + 1) for j < b and geometrically
// fewer above; the planner (estimate_iterated_sum) counts them exactly before sharing.
//
// int32 limits relied on (circuits/gate.hpp: thr weights and threshold are int32). Every thr
// gate built here has Σ|wᵢ| + |θ| ≤ 2^31 − 1 (checked when built; a violation is a bug). That
// keeps every evaluator exact: evaluate.hpp sums in int64; bitparallel.cpp and program.cpp size
// their bit-sliced counters from Σ|w| + |θ| (≤ 33 planes); program.cpp's folding of inverted
// operands (θ −= w) stays within int32; the BLIF/AIGER lowering (circuits/io/) works in int64. The
// block width b is the largest ≤ 29 with 4·max P_k ≤ 2^31 − 1 (and, on the last level,
// max P_k < 4^b); a block of more than about 2^14 terms cannot satisfy both and is refused.
//
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "algebra/rational.hpp"
#include "circuits/circuit.hpp"

namespace rnncc {

// Every thr gate built here has Σ|wᵢ| + |θ| ≤ kThrLimit (see "int32 limits" above).
inline constexpr std::int64_t kThrLimit = std::numeric_limits<std::int32_t>::max();

// One summand weight·[bit] (bit read as a truth value, like every threshold operand).
struct WeightedBit {
  GateId bit = kNoGate;
  Integer weight = 0;
};

struct IteratedSumOptions {
  unsigned levels = 2;      // 1: one level of block sums; 2: groups, then the group sums
  std::size_t group = 0;    // terms per level-1 group (0: ⌈√N⌉); levels = 2 only
  unsigned block_bits = 0;  // b (0: the largest the int32 limits allow; else at most that)
};

// A two's-complement word: bits[k] is bit k (least significant first), bits.back() the sign.
// min/max: the range of the exact (unwrapped) sum over all 0/1 assignments.
struct SumWord {
  std::vector<GateId> bits;
  Integer min = 0, max = 0;
  std::size_t width() const { return bits.size(); }
};

// Σ weight·bit + constant, as a word of `width` bits (0: the smallest two's-complement width
// holding [min, max], at least 1); with an explicit width the result wraps mod 2^width. Depth
// and size: see above. Terms naming the same gate are merged; constant gates fold into the
// constant. Throws InputError for levels ∉ {1, 2} or a block of too many terms (message says
// to use levels = 2 or a smaller group).
SumWord iterated_sum(CircuitBuilder& b, std::span<const WeightedBit> terms,
                     const Integer& constant = 0, std::size_t width = 0,
                     const IteratedSumOptions& options = {});

// Iterated addition of words (bit vectors, least significant first; each word its own width):
// unsigned words have value Σ 2^i·bit_i, two's-complement ones −2^{p−1}·bit_{p−1} + Σ_{i<p−1}.
SumWord iterated_sum_words(CircuitBuilder& b, const std::vector<std::vector<GateId>>& words,
                           bool twos_complement, std::size_t width = 0,
                           const IteratedSumOptions& options = {});

// The plain twin: Σ weights[i]·x[i] + constant in exact Integer arithmetic (no wrapping).
Integer iterated_sum_reference(std::span<const Integer> weights, const std::vector<bool>& x,
                               const Integer& constant = 0);
// value mod 2^width as a two's-complement integer in [−2^{width−1}, 2^{width−1}).
Integer wrap_twos_complement(const Integer& value, std::size_t width);
// The integer a two's-complement bit vector (least significant first) spells.
Integer decode_twos_complement(const std::vector<bool>& bits);

// Gates and wires (operands) the construction creates before sharing and folding: an upper
// bound. Weights only matter through their magnitudes mod 2^width.
struct SumSize {
  std::size_t gates = 0, wires = 0;
  std::size_t width = 0;
  unsigned last_level_blocks = 0;  // > 1: the adder is built
};
SumSize estimate_iterated_sum(std::span<const Integer> weights, const Integer& constant = 0,
                              std::size_t width = 0, const IteratedSumOptions& options = {});

// The stated depth above the deepest term: 2·levels + 4·[more than one last-level block].
std::size_t iterated_sum_depth_bound(const IteratedSumOptions& options, const SumSize& size);

}  // namespace rnncc
