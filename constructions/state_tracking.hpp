// Parity, counting mod k and the S_n word problem by DeltaNet / Gated DeltaNet with negative
// eigenvalues [GSZ+25] (reference constructions.md §6; docs/constructions.md, "Parity, counting mod
// k, S_n by DeltaNet", has the math).
//
// Theorem [GSZ+25: Grazzi, Siems, Zela, Franke, Hutter, Pontil, "Unlocking State-Tracking in
// Linear RNNs Through Negative Eigenvalues", arXiv 2411.12537]. A DeltaNet layer whose β ranges
// over (0, 2] (β = 2·sigmoid, "allow_neg_eigval") solves parity with one reflection, and a
// product of generalized Householders I − 2vvᵀ (β = 2, ‖v‖ = 1) realizes every transposition,
// hence every permutation: counting mod k and the S_n word problem, reading several sub-steps
// per symbol. With β ∈ (0, 1) (the usual β = sigmoid) every A_σ = I − βkkᵀ with ‖k‖ = 1 has
// eigenvalues in (0, 1]: the layer cannot solve parity at finite precision.
//
// Exact keys. The transposition (i j) is I − 2vvᵀ with v = (e_i − e_j)/√2, irrational; rnncc
// does not normalize keys (docs/semantics.md), and scaling β instead (β = 1, k = e_i − e_j)
// would hide the negative eigenvalue inside ‖k‖² = 2 and let a "β ∈ (0,1]" layer cheat. These
// constructions keep ‖k‖ = 1 exactly with RATIONAL keys by duplicating the permutation
// representation: the state is (x; x) ∈ Q^{2N} and the key of (i j) is
//     k_ij = (e_i − e_j; e_i − e_j) / 2,   ‖k_ij‖² = (1 + 1 + 1 + 1)/4 = 1,
// so that on the diagonal subspace {(x; x)} the map I − 2 k kᵀ sends (x; x) to
// (x − (x_i − x_j)(e_i − e_j); same) = (τ_ij x; τ_ij x): exactly the transposition, and the
// other eigenvalues are 1 (the complement). Then the eigenvalue along k is 1 − β‖k‖² = 1 − β,
// −1 at β = 2 and in (0, 1) for β ∈ (0, 1) — the restriction is honest.
//
// Constructions (column convention S_t = A(z_t) S_{t−1} + B(z_t), one `deltanet` layer, or
// `gated_deltanet` with every gate α = 1; B = βkvᵀ = 0 (v = 0); identity sub-steps have k = 0):
//   parity       d = 1, S_0 = 1, "1": k = (1) (A = 1 − β), "0": k = 0. y = (1 − S)/2 = f,
//                f(w) = #1(w) mod 2. One token per symbol.
//   mod_count    N = k points, d = 2k, S_0 = (e_0; e_0). Symbol "1" is the k-cycle
//                e_i ↦ e_{i+1 mod k}, read as the k − 1 transpositions (k−2 k−1), (k−3 k−2),
//                …, (0 1) (applied in that order); "0" is k − 1 identity sub-steps.
//                y = S[r] = [#1(w) ≡ r (mod k)] = f(w). Sub-steps per symbol K = k − 1.
//   symmetric    N = n points, d = 2n, S_0 = (c; c) with c = (1, …, n). Generators:
//                  cycle_and_swap   "s" = (1 2) and "c" = the n-cycle i ↦ i+1 (mod n), each
//                                   read as n − 1 sub-steps (s: the swap then n − 2 identities;
//                                   c: (n−1 n), …, (1 2));
//                  transpositions   "(ij)" for all 1 ≤ i < j ≤ n, one sub-step each.
//                π_w = g_{w_T} ∘ ⋯ ∘ g_{w_1} (the first symbol acts first), x = P_π c
//                (x_{π(i)} = c_i), y = ⟨c, x⟩ − ‖c‖² = Σ_i c_i c_{π(i)} − Σ_i c_i² = f(w):
//                0 iff π_w = id (rearrangement inequality, the c_i distinct), negative
//                otherwise; the model accepts iff y = 0 (acceptance "zero").
// Token alphabet: K = 1: the target's symbols; K > 1: Σ × [K] as "<symbol>/<sub-step>".
//
// Claims (measured on the built layer): state dimension, sub-steps per symbol (from encode),
// tokens with eigenvalue −1 (A_σ k_σ = −k_σ) ≥ 1, keys of norm ≠ 1 = 0, tokens with
// A_σ A_σᵀ ≠ I (not orthogonal: the state would leave the permutation orbit) = 0, gates α ≠ 1
// = 0 (gated). All arithmetic is exact (rationals, nothing rounded). Built with β ∈ (0, 1) the
// same keys give eigenvalue 1 − β > 0: the −1 and orthogonality claims fail, and verify finds
// the minimal counterexample ("1" for parity and every mod-k count, the first symbol that is
// not a no-op for S_n).
#pragma once

#include <cstddef>
#include <optional>

#include "constructions/construction.hpp"
#include "rnn/lrnn.hpp"

namespace rnncc {

struct StateTrackingOptions {
  bool gated = false;  // gated_deltanet with α = 1 instead of deltanet
  BetaRange beta_range = BetaRange::half_open_0_2;
  // β of every token; absent: the largest β the range allows — 2 for (0,2] and `any`, 1 for
  // (0,1], and for the open ranges 2 − 2⁻⁸ = 511/256 and 1 − 2⁻⁸ = 255/256.
  std::optional<Rational> beta;
};

// The β used when options.beta is absent (see above).
Rational default_beta(BetaRange range);

enum class SymmetricGenerators { cycle_and_swap, transpositions };

// Throw InputError (ParamError for a β outside the range, naming "beta").
Construction parity(const StateTrackingOptions& options);
// k ≥ 2 (≤ 16), 0 ≤ r < k.
Construction mod_count(std::size_t k, std::size_t r, const StateTrackingOptions& options);
// n ∈ 2..6 (transpositions: the alphabet has n(n−1)/2 symbols).
Construction symmetric_word(std::size_t n, SymmetricGenerators generators,
                            const StateTrackingOptions& options);

}  // namespace rnncc
