// WFA → LRNN: every weighted finite automaton over Q is a one-layer linear RNN, in the general
// family with one step per symbol, and in the structured DPLR and DeltaNet families with K
// sub-steps per symbol ([MJLLS26] Merrill, Jiang, Li, Lin, Sabharwal 2026, "Why Are Linear RNNs
// More Parallelizable?"; reference constructions.md §4; docs/constructions.md).
//
// Conventions. The WFA computes f(w) = αᵀ M_{w₁} ⋯ M_{w_n} β (row vectors, constructions/wfa.hpp).
// An LRNN layer is in column form, S_t = A_{w_t} S_{t−1} (docs/semantics.md). Transposing,
//     f(w) = βᵀ M_{w_n}ᵀ ⋯ M_{w₁}ᵀ α,
// so the layer with A_σ = M_σᵀ, S_0 = α, readout C = βᵀ (d = number of states, m = 1) outputs
// y_n = f(w) at the last position.
//
// Theorem (general). For every WFA with d states over Σ, the general LRNN above has state size
// d, reads one token per symbol and computes f exactly. Claims: state size = d; steps per
// symbol = 1.
//
// Theorem (DPLR). Every d×d matrix A over Q is a product of elementary transvections
// I + c e_i e_jᵀ (i ≠ j) and one diagonal matrix (entries possibly 0), with at most
// (d−1)(d+2) transvections: exact Gaussian elimination with row and column transvections only
// (no swaps) reduces A to a diagonal Δ. Each transvection is DPLR (D = 1, a = −c e_i, b = e_j in
// make_dplr's D − a bᵀ), and so is Δ (a = b = 0). Hence a one-layer DPLR LRNN over Σ×[K]
// reading K sub-steps per symbol computes f, with
//     K ≤ (d−1)(d+2) + 1 = d² + d − 1.
// Claims: state size = d; K ≤ d² + d − 1; the K factors of every symbol multiply to M_σᵀ
// exactly.
//
// Theorem (DeltaNet). Every d×d matrix over Q is a product of generalized Householder matrices
// H(β, k) = I − β k kᵀ with rational β (unrestricted) and rational k:
//   - H(1 − λ, e_i) = I − (1 − λ) e_i e_iᵀ scales coordinate i by λ (λ = 0 clears it), so Δ
//     takes at most d factors;
//   - for every rational c ≠ 0 (column form, x_d += c·x_s, s ≠ d):
//         I + c e_d e_sᵀ = H(1/3, e_s + 2c e_d) · H(1/2, e_s) · H(2/(2c² − 1), e_s + c e_d),
//     i.e. apply H(2/(2c²−1), e_s + c e_d) first (2c² ≠ 1 for rational c). At c = 1 this is the
//     reference's H(2, e_s+e_d), H(1/2, e_s), H(1/3, e_s+2e_d) in that order of application,
//     which holds for row vectors and column vectors alike; the reference's written product
//     H(2,·)·H(1/2,·)·H(1/3,·) equals I + e_s e_dᵀ, i.e. x_d += x_s only in the row-vector
//     convention (x ← x·P). No temporary coordinate is needed, so the state size stays d.
// Hence a one-layer DeltaNet LRNN (β range "any", write v = 0) over Σ×[K] computes f with
//     K ≤ 3(d−1)(d+2) + d = 3d² + 4d − 6   (d ≥ 1; K = 1 for d = 1).
// Claims: state size = d; K ≤ 3d² + 4d − 6 (1 for d = 1); exact factor products.
//
// Sub-step alphabet and order. Symbol (σ, k) is named "σ.k" (id σ·K + k); a symbol's factors
// are padded with identity factors to the common K; encode(w) = (w₁,0), …, (w₁,K−1), (w₂,0), ….
// In column form the factor applied first is the rightmost: the factors F_0, …, F_{K−1} of σ,
// listed in application order, satisfy M_σᵀ = F_{K−1} ⋯ F_1 F_0, and sub-step (σ, k) carries F_k.
// These models read K tokens per symbol, so they are not block-linear in f's inputs and carry
// no identity-test embedding (constructions/construction.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "constructions/construction.hpp"
#include "constructions/wfa.hpp"
#include "rnn/lrnn.hpp"

namespace rnncc {

enum class WfaFamily { general, dplr, deltanet };
std::string to_string(WfaFamily f);  // "general", "dplr", "deltanet"
std::optional<WfaFamily> parse_wfa_family(std::string_view name);

// One factor of the elimination: a transvection I + c e_i e_jᵀ (i ≠ j, c ≠ 0; in column form
// x_i += c·x_j) or a diagonal matrix diag(diag).
struct ElementaryFactor {
  enum class Kind { transvection, diagonal };
  Kind kind = Kind::diagonal;
  std::size_t i = 0, j = 0;
  Rational c;
  Vector diag;
  Matrix<Rational> matrix(std::size_t d) const;
};

// H(β, k) = I − β k kᵀ.
struct HouseholderFactor {
  Rational beta;
  Vector k;
  Matrix<Rational> matrix() const;
};

// Factors of A in application order (F_0 acts first): A = F_{K−1} ⋯ F_1 F_0. At most
// (d−1)(d+2) transvections and at most one diagonal factor (omitted when it is I); the empty
// list for A = I. A must be square.
std::vector<ElementaryFactor> factor_elementary(const Matrix<Rational>& a);
// The same as Householder factors: each transvection becomes 3 factors, the diagonal one
// H(1 − λ_i, e_i) per entry λ_i ≠ 1. At most 3(d−1)(d+2) + d factors.
std::vector<HouseholderFactor> factor_householder(const Matrix<Rational>& a);
// The Householder factors of one transvection I + c e_i e_jᵀ (column form x_i += c·x_j), in
// application order (the identity above with d = i, s = j).
std::vector<HouseholderFactor> householder_transvection(std::size_t d, std::size_t i, std::size_t j,
                                                        const Rational& c);

// F_{K−1} ⋯ F_1 F_0 for factors listed in application order (I_d for none).
Matrix<Rational> product_in_application_order(const std::vector<Matrix<Rational>>& factors,
                                              std::size_t d);

// The K bounds claimed above.
std::size_t dplr_steps_bound(std::size_t d);      // d² + d − 1
std::size_t deltanet_steps_bound(std::size_t d);  // 3(d−1)(d+2) + d

// The claim "factor products equal M_σᵀ": for every symbol σ of `a`, the sub-step matrices of
// `layer` (feature σ·K + k, k = 0..K−1) multiply, in application order, to M_σᵀ. Measured
// "exact", or "differs for symbol 'a' at [i][j]" (or a shape mismatch); ok accordingly.
Claim check_factor_products(const Wfa& a, const LrnnLayer& layer, std::size_t K);

// f as a Target: value = evaluate(a, w); circuit(n) = wfa_circuit(a, n).
Target wfa_target(const Wfa& a);

// f's polynomial for strings of length n, built from the WFA's own weights (not from a model):
// v_0 = αᵀ, v_t = v_{t−1}·M(x_t) with M(x_t) = Σ_σ x[t,σ] M_σ, output v_n·β; inputs x[t,σ] at
// index (t−1)|Σ| + σ. Affine in each position's block of inputs (identity testing needs that).
Circuit wfa_circuit(const Wfa& a, std::size_t n);

// The construction: model X (one layer of `family`), target f = the WFA, encode, claims.
// Throws std::invalid_argument for an inconsistent Wfa (sizes that disagree).
Construction wfa_to_lrnn(const Wfa& a, WfaFamily family);

}  // namespace rnncc
