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
// Theorem (DeltaNet, unit keys; `verify wfa --family deltanet --beta-range unit`). Let every A_σ =
// M_σᵀ be a MONOMIAL CONTRACTION: at most one nonzero entry in each row and each column, every
// entry in [−1, 1]. Then a one-layer DeltaNet LRNN with β ∈ (0, 2] and rational keys of norm
// exactly 1 computes f. Write A_σ = P·D (D = diag(a_j), a_j the entry of column j, 0 for a zero
// column; P the permutation taking e_j to the row of that entry, zero columns completed to a
// bijection):
//   - D: H(1 − a_j, e_j) for each a_j ≠ 1, β = 1 − a_j ∈ (0, 2] since a_j ∈ [−1, 1);
//   - P: a product of ≤ d − 1 transpositions. The only reflection swapping e_i and e_j is
//     I − 2uuᵀ with u = ±(e_i − e_j)/√2, irrational; so, when some P ≠ I, the state is copied,
//     S = (x; x) ∈ Q^{2d} (S_0 = (α; α), C = (βᵀ, 0)), every D-factor is applied in both copies
//     (keys (e_j; 0) and (0; e_j)), and (i j) is H(2, k) with k = (e_i − e_j; e_i − e_j)/2,
//     ‖k‖² = 1, which preserves the copy subspace {(x; x)} and acts there as (i j) — the
//     parity construction's duplication (constructions/state_tracking.hpp). State size d when
//     every P = I, else 2d; sub-steps K = max_σ (2·#{a_j ≠ 1} or #{a_j ≠ 1}) + #transpositions,
//     identity sub-steps β = 1, k = 0.
// Where it is impossible: every H(β, k) with ‖k‖ = 1, β ∈ (0, 2] is symmetric with eigenvalues
// 1 (d − 1 times) and 1 − β ∈ [−1, 1), so ‖H‖₂ ≤ 1 and |det H| ≤ 1, and every product of such
// factors — and its restriction to an invariant subspace such as the copies — is a contraction.
// A WFA with some ‖M_σ‖₂ > 1 (decided exactly: the largest root of det(xI − M_σᵀM_σ) > 1, by
// Sturm counts) has no such model computing it through these factors without rescaling f.
// A contraction that is not monomial is not covered here: over R it is such a product (SVD:
// orthogonal factors are products of reflections, the diagonal one of H(1 − s_j, e_j)), but
// the keys of that product need not be rational, and this construction does not search for
// rational ones. The construction then keeps the `any` model (so verify still checks f) and adds
// the failing claim "unit-key factorization", whose measured text says which case applies.
//
// Sub-step alphabet and order. Symbol (σ, k) is named "σ.k" (id σ·K + k); a symbol's factors
// are padded with identity factors to the common K; encode(w) = (w₁,0), …, (w₁,K−1), (w₂,0), ….
// In column form the factor applied first is the rightmost: the factors F_0, …, F_{K−1} of σ,
// listed in application order, satisfy M_σᵀ = F_{K−1} ⋯ F_1 F_0, and sub-step (σ, k) carries F_k.
// These models read K tokens per symbol, so they are not block-linear in f's inputs and carry
// no identity-test embedding (constructions/construction.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algebra/memory.hpp"
#include "constructions/construction.hpp"
#include "constructions/wfa.hpp"
#include "rnn/lrnn.hpp"

namespace rnncc {

enum class WfaFamily { general, dplr, deltanet };
// DeltaNet keys: `any` (H(β, k), β ∈ Q, the theorem above) or `unit` (β ∈ (0, 2], ‖k‖ = 1).
enum class WfaKeys { any, unit };
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
// list for A = I. A must be square. The elimination runs on the nonzero entries only (a chain
// WFA's d×d matrix: O(d log d) in all); factor_elementary_plain is the dense twin, the same
// list (tests/constructions/test_wfa_to_lrnn.cpp compares them on seeded matrices).
std::vector<ElementaryFactor> factor_elementary(const Matrix<Rational>& a);
std::vector<ElementaryFactor> factor_elementary_plain(const Matrix<Rational>& a);
// The same as Householder factors: each transvection becomes 3 factors, the diagonal one
// H(1 − λ_i, e_i) per entry λ_i ≠ 1. At most 3(d−1)(d+2) + d factors.
std::vector<HouseholderFactor> factor_householder(const Matrix<Rational>& a);
// factor_householder from the elementary factors of a d×d matrix, and how many it gives (without
// building the d-vectors of their keys: what the memory estimate needs).
std::vector<HouseholderFactor> householder_factors(const std::vector<ElementaryFactor>& elementary,
                                                   std::size_t d);
std::size_t householder_factor_count(const std::vector<ElementaryFactor>& elementary);
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

// The unit-key factors of a monomial contraction A (column form) in application order, with
// `copies` = 1 (then A must be P·D with P = I) or 2 (keys in Q^{2d}, acting on (x; x)).
// Throws std::invalid_argument when A is not a monomial contraction, or has P ≠ I and copies 1.
std::vector<HouseholderFactor> factor_unit_monomial(const Matrix<Rational>& a, std::size_t copies);
// factor_unit_monomial(a, copies).size() without building the keys (copies per diagonal entry
// ≠ 1, and d − #cycles transpositions); std::invalid_argument when a is not monomial.
std::size_t unit_monomial_factor_count(const Matrix<Rational>& a, std::size_t copies);
// Whether A = P·D above has P ≠ I (and A is a monomial contraction).
bool monomial_needs_permutation(const Matrix<Rational>& a);
// Why `a` has no unit-key model by the construction above, for the first symbol where it fails:
// "impossible: …" (‖M_σ‖₂ > 1) or "not covered: …" (a contraction, not monomial); nullopt
// when every M_σ is a monomial contraction.
std::optional<std::string> unit_key_obstruction(const Wfa& a);
// The claim "factor products equal M_σᵀ on the copy subspace": with J = (I; …; I) (`copies`
// blocks), the sub-step matrices of each σ multiply, in application order, to F with F·J = J·M_σᵀ.
Claim check_factor_products_on_copies(const Wfa& a, const LrnnLayer& layer, std::size_t K,
                                      std::size_t copies);

// f as a Target: value = evaluate(a, w); circuit(n) = wfa_circuit(a, n).
Target wfa_target(const Wfa& a);

// f's polynomial for strings of length n, built from the WFA's own weights (not from a model):
// v_0 = αᵀ, v_t = v_{t−1}·M(x_t) with M(x_t) = Σ_σ x[t,σ] M_σ, output v_n·β; inputs x[t,σ] at
// index (t−1)|Σ| + σ. Affine in each position's block of inputs (identity testing needs that).
Circuit wfa_circuit(const Wfa& a, std::size_t n);

// The construction: model X (one layer of `family`), target f = the WFA, encode, claims.
// Throws std::invalid_argument for an inconsistent Wfa (sizes that disagree).
// keys = unit: the unit-key DeltaNet construction (family must be deltanet; else
// std::invalid_argument); its spectral properties (constructions/spectral.hpp) are claims.
// Before building, the model's memory is estimated (the |Σ|·K dense d×d matrices the layer
// holds, K from the factor counts; the target's copies of the WFA) and refused above
// max_memory_mib: InputError naming --max-memory (algebra/memory.hpp, check_memory).
Construction wfa_to_lrnn(const Wfa& a, WfaFamily family, WfaKeys keys = WfaKeys::any,
                         std::size_t max_memory_mib = default_max_memory_mib());
// The same from the arcs as a file lists them: `before_build` (when set) is told the planned
// shape, then the memory is estimated from the arcs — K from the sparse elimination of each
// M_σᵀ built from the arcs — and only then the WFA is built densely. So a refusal costs the
// file's size and the nonzero entries, not |Σ|·d² rationals (docs/reliability.md: a 1 448-state
// chain). The construction equals wfa_to_lrnn(dense_wfa(arcs), …) (tests/constructions/
// test_wfa_to_lrnn.cpp). Unit keys: estimated after the dense build, as above.
Construction wfa_to_lrnn(const WfaArcs& arcs, WfaFamily family, WfaKeys keys,
                         std::size_t max_memory_mib,
                         const std::function<void(const PlannedShape&)>& before_build = {});

}  // namespace rnncc
