// Minimization of a linear representation with post-step readouts (Schützenberger 1961;
// Berstel & Reutenauer, "Noncommutative Rational Series with Applications", §2.3), and the
// general-family LRNN it becomes.
//
// Input: (α, {M_σ}, {Γ_σ}) with y(uσ) = α·M_u·M_σ·Γ_σ (an LRNN layer or a WFA,
// LinearRepresentation::readout set). Two reductions:
//   1. forward: F = basis of span{α·M_u} (rows, found breadth-first); F·M_σ = M'_σ·F,
//      α = e₀·F, Γ'_σ = F·Γ_σ;
//   2. backward on the result: C = basis of span{M'_u·c : c a column of some Γ'_τ} (columns);
//      M'_σ·C = C·N_σ, Γ'_τ = C·Γ''_τ, α'' = e₀·C.
// Then y(w) = α''·N_w·Γ''_{last}, of dimension d_min = rank of the Hankel matrix
// H[x, (u, τ)] = α·M_x·M_u·Γ_τ (x, u ∈ Σ*): no representation (α, M, {Γ_τ}) of the same
// vector family w ↦ (α·M_w·Γ_τ)_τ is smaller. The observed outputs are only the entries with
// τ = the last symbol of w ≠ ε, so with per-symbol readouts (or counting y(ε)) d_min is an
// upper bound on the smallest LRNN, exact when the readout is shared and y(ε) is in the span.
// The LRNN (column-vector convention): S₀ = α''ᵀ, A_σ = N_σᵀ, B_σ = 0, readout Γ''ᵀ (or
// per-symbol readouts C_σ = Γ''_σᵀ when they differ). The empty word's output y(ε) of a WFA
// is not kept (an LRNN outputs nothing at t = 0).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "rnn/model.hpp"
#include "verify/equivalence.hpp"
#include "verify/linear_representation.hpp"
#include "verify/subject_file.hpp"

namespace rnncc {

struct MinimizeResult {
  LinearRepresentation reduced;  // d_min, with readout and output set
  std::size_t forward_dim = 0;   // after step 1
  Model model;                   // the general-family LRNN of dimension max(d_min, 1)
};

// Throws InputError when rep.readout is empty (a product or input-map representation).
MinimizeResult minimize(const LinearRepresentation& rep, const std::string& name = "minimized");

// What `rnncc minimize` (and rnncc.minimize) reads from a model or WFA: its linear
// representation (subject_representation), which must be a one-layer LRNN or a WFA (a readout of
// its own); InputError naming the file otherwise.
LinearRepresentation minimize_input(const SubjectFile& s);

// `rnncc minimize` (and rnncc.minimize in Python): the reduction, then its proof — the decider
// shows the reduced model equal to `rep` on every nonempty prefix (y(ε) is not an LRNN output).
// A failed proof is a bug (std::logic_error), never a user error.
struct ProvedMinimization {
  std::size_t dimension = 0;  // rep.dim, the input's
  MinimizeResult minimized;
  EquivalenceResult proof;
};
ProvedMinimization minimize_and_prove(const LinearRepresentation& rep,
                                      const std::string& name = "minimized");

// The document `rnncc minimize --json` prints: dimension, forward_dimension, minimal_dimension,
// proved, method, basis_size, output (the file written, or null).
nlohmann::ordered_json minimize_json(const ProvedMinimization& m,
                                     const std::optional<std::string>& output);

}  // namespace rnncc
