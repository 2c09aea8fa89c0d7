// compile_diagonal_threshold: a one-layer LRNN with input-dependent DIAGONAL transitions
// (families diagonal, gla, mamba2, or any layer whose A_σ are all diagonal) at log precision
// becomes a threshold circuit of depth independent of n (TC⁰), through iterated multiplication
// (docs/circuits.md, "Input-dependent diagonal LRNNs in TC⁰"; docs/semantics.md).
//
// Why it is not NC¹-hard: diagonal matrices commute, so each coordinate is a scalar recurrence
//     h_{t,i} = a_{w_t,i}·h_{t−1,i} + b_{w_t,i},
//     h_{n,i} = Σ_{t=1..n} (Π_{s=t+1..n} a_{w_s,i})·b_{w_t,i} + (Π_{s=1..n} a_{w_s,i})·h_{0,i},
// a sum of iterated products of numbers — in TC⁰ by Hesse, Allender and Barrington [HAB02]
// (W. Hesse, E. Allender, D. A. M. Barrington, "Uniform constant-depth threshold circuits for
// division and iterated multiplication", JCSS 65(4), 2002). Products of permutation (PD) or
// general matrices are NC¹-hard [Bar89]; target.hpp refuses those, naming the case.
//
// THE EXACT FUNCTION COMPUTED ("product rounded once"). F = C·⌈log₂(n+1)⌉ fraction bits, I
// integer bits (precision.format(n)); round(·) is algebra's rounding mode (nearest-even or
// toward-zero), both odd-symmetric. Parameters are rounded once to raw integers (value raw/2^F)
// and clamped to ±(2^{I+F} − 1): α_{σ,i} = Â_σ(i,i), β_{σ,i} = B̂_σ(i,col), γ_i = Ĉ(row,i),
// s_i = Ŝ_0(i,col), c = ĉ₀(row,col) (0 without a bias). For each suffix (t, i), k = n − t:
//     p_{t,i} = 2^F                                                   (k = 0, t = n)
//     p_{t,i} = round_shift(Π_{s=t+1..n} α_{w_s,i}, F·(k − 1))        (k ≥ 1: ONE rounding)
// i.e. the exact product of the rounded decays, rounded once to F fraction bits. Then, exactly
// (no further rounding, no saturation; the output word is as wide as the range needs),
//     Y = c·2^{2F} + Σ_i γ_i·( Σ_{t=1..n} p_{t,i}·β_{w_t,i} + p_{0,i}·s_i ),   y_n = Y / 2^{3F};
// the circuit outputs the bits of Y and accept = [Y > 0] (positive) or [Y = 0] (zero).
// This is NOT the model's sequential log-precision rule (docs/semantics.md: h_t rounded and
// saturated at every step, y rounded): evaluate_diagonal_sequential is that twin, and the tests
// exhibit inputs where the two differ. They agree when no step of the sequential run rounds or
// saturates and the products need no rounding (e.g. decays 1 and integer B, C: counters).
//
// Construction, per suffix (t, i) with k ≥ 1 factors (all steps constant depth):
//   0. counts c_σ = Σ_{s>t} x[s,σ] (iterated addition, shared by every i and prime): the
//      product is Π_σ |α_σ|^{c_σ} times the sign (−1)^{Σ_{σ: α_σ<0} c_σ} (an XOR of count bits).
//   1. primes m_1 < m_2 < … (the smallest, until M = Π m_j > max_σ|α_σ|^k ≥ |P|); for each m
//      the residues |α_σ| mod m are constants of the symbol (the "table lookup on the factor's
//      bits" of [HAB02] is a lookup on the one-hot symbol).
//   2. discrete logs L_σ = log_g(|α_σ| mod m) for a generator g of Z_m^*; a factor ≡ 0 (mod m)
//      sets the prime's zero flag z_m = OR of its count's bits.
//   3. the sum of logs R = Σ_σ Σ_b (L_σ·2^b mod (m − 1))·c_{σ,b} (iterated addition) and
//      r = R mod (m − 1): g_j = [R ≥ j(m − 1)] (thr), [r ≥ v] = [R − (m − 1)Σ_j g_j ≥ v] (thr),
//      one-hot e_v = [r ≥ v] ∧ ¬[r ≥ v + 1] ∧ ¬z_m (one thr gate).
//   4. exponentiation by lookup, fused with the CRT basis: V_m = (g^r · u_m) mod m with
//      u_m = (M/m)^{−1} mod m; bit b of V_m = OR of the e_v whose value has bit b.
//   5. Chinese remaindering: S = Σ_m V_m·(M/m) (iterated addition) ≡ P (mod M), S < #primes·M;
//      G_j = [S ≥ j·M] (constant-depth comparison with a constant: OR/AND of literals);
//      P + h = S − M·Σ_j G_j + h (iterated addition; h = 2^{F(k−1)−1} for nearest-even, else 0).
//   6. the rounding: bits F(k−1).. of P + h; nearest-even clears bit 0 on a tie (the low
//      F(k−1) bits of P + h all 0). Then every term γ_i·β_σ·2^b·[x[t,σ] ∧ p_b ∧ ¬sign]
//      (and the negative one) is summed with the rest by one iterated addition; accept reads
//      the word by one thr gate.
// Depth (unbounded fan-in, NOT free; diagonal_threshold_depth_bound). Bounded for every n, but
// NOT the same at every n: each iterated sum costs 2·levels, plus 4 for its final
// carry-lookahead adder once its last level has more than one block, and that happens when its
// word outgrows one block — the CRT and product words (Θ(k·log|α|) bits, blocks of 8 bits) at
// small n, the final word (bits of |Y|, blocks of up to 29) later. Once every stage has its
// adder, the depth stays at its limit, a function of the model only (L = levels = 2):
//   count words 2L (one block for n < 2^29) + discrete logs ≤ 4 (g_j, [r ≥ v], e_v, OR)
//   + CRT sum 2L+4 + comparisons [S ≥ jM] 2 + product sum 2L+4 + nearest-even tie 2
//   + selection (AND) 1 + final sum 2L+4 + accept 1 = 38,
// less the tie (toward-zero rounding: 36) and, when no coordinate has a product to compute
// (every readout γ_i, every decay or every input/start term 0), just the final sum and accept.
// The plan (the same as estimate_diagonal_threshold_gates, nothing built) states the bound at
// each n; the tests check measured ≤ stated ≤ the limit on generated models. Measured = the
// limit is claimed only where measured (docs/depth.md: 34 at n = 13, 38 from n = 14 for a d = 2
// model with decays −3/2, 0, 2, 1/2); on some models the built circuit stays 3–4 below the
// stated limit (the plan counts every CRT bit as a term). Size: polynomial, dominated by the CRT
// sums, Θ(n·d·(n log n)^{≈2.5}) wires; memory: see kDiagonalThresholdBytesPerGate.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algebra/rational.hpp"
#include "circuits/compile/threshold.hpp"
#include "circuits/compiled_circuit.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// True when every A_σ of the layer is diagonal (off-diagonal entries all 0).
bool diagonal_transitions(const LrnnLayer& layer);

// The one-line description of the function compile_diagonal_threshold computes (printed by
// `rnncc compile` and in docs): "product rounded once …".
const char* diagonal_threshold_function();

// Throws InputError for n = 0 ("--length"), exact precision ("--precision"), not one layer,
// a non-LRNN layer, an input map, per-symbol readouts, a non-diagonal A_σ ("layer 0", naming
// the entry), an acceptance entry out of range, or more gates than options.budget allows.
// Inputs x[t,σ]; outputs "y.b[0]".."y.b[W−1]" (two's complement of Y) then "accept" (when
// options.acceptance). Regions: input, combine (everything up to Y), accept.
CompiledCircuit compile_diagonal_threshold(const Model& model, std::size_t n,
                                           const ThresholdOptions& options = {});

// About the gates compile_diagonal_threshold creates (the same plan, nothing built): the
// iterated sums by estimate_iterated_sum, the rest counted per prime. Stops counting once past
// options.budget.max_gates (the result is then only "more than the limit").
std::size_t estimate_diagonal_threshold_gates(const Model& model, std::size_t n,
                                              const ThresholdOptions& options = {});

// The depth bound (header above; ThresholdDepthBound in threshold.hpp).
ThresholdDepthBound diagonal_threshold_depth_bound(const Model& model, std::size_t n,
                                                   const ThresholdOptions& options = {});
// (threshold_depth_reached in target.hpp finds the n from which at_n = limit.)

// Bytes of peak memory per ESTIMATED gate (estimate_diagonal_threshold_gates) that `rnncc
// compile` takes (builder arena, thr operands and weights, hash-consing table, the compiled copy
// and its statistics), measured by peak RSS: 700–1 010 B for tests/cli/models/mamba_selective.json
// at n = 8, 16, 24 (the estimate is up to 3× the built size), 1 420–1 670 B for gla_gates.json at
// n = 8, 16 (docs/depth.md, "Memory of the diagonal threshold route"); 2 048 bounds them. The
// memory estimate is gates × this, checked against options.budget.max_memory_mib before anything
// is built (n = 40 of diagonal_mixed_decays.json: 3.18 M gates, 6.2 GiB estimated).
inline constexpr std::size_t kDiagonalThresholdBytesPerGate = 2048;

// The twins, plain C++ with Integer arithmetic (no CRT, no circuit): w = symbol ids, |w| ≥ 1.
struct DiagonalValue {
  Integer scaled = 0;  // Y (rounded once: scale 2^{3F}) or the raw y_n (sequential: scale 2^F)
  Integer scale = 1;
  Rational value = 0;
  bool accepted = false;
};
// The function above: products rounded once, the sum exact.
DiagonalValue evaluate_diagonal_rounded_once(const Model& model, std::span<const std::size_t> w,
                                             const ThresholdOptions& options = {});
// The model's sequential log-precision rule (docs/semantics.md, "Log precision"):
// h_{t,i} = sat(round_shift(α·h + β·2^F, F)), y = sat(round_shift(Σ γ_i h_i + c·2^F, F)).
DiagonalValue evaluate_diagonal_sequential(const Model& model, std::span<const std::size_t> w,
                                           const ThresholdOptions& options = {});

// The primes the CRT step uses for products of k factors of magnitude ≤ max_factor: the
// smallest primes whose product exceeds max_factor^k (at least one).
std::vector<unsigned> crt_primes(const Integer& max_factor, std::size_t k);

}  // namespace rnncc
