// Minimization of a one-layer LRNN or a WFA (Schützenberger 1961; Berstel & Reutenauer,
// "Noncommutative Rational Series with Applications", §2.3) as the general-family LRNN of least
// dimension computing the same function on nonempty strings (docs/semantics.md, "Minimization").
//
// Input: (α, {M_σ}, {Γ_σ}) with y(w) = α·M_w·Γ_{last(w)} for w ≠ ε (an LRNN layer, homogenized
// to h = [vec(S), 1], or a WFA; LinearRepresentation::readout set). y(ε) is not an LRNN output,
// so it is never counted:
//   1. forward from the states after one symbol: F = basis of span{α·M_w : w ≠ ε};
//   2. backward: C = basis of span{M_u·c : c a column of some Γ_τ} in F's coordinates; the
//      result (N_σ, Γ''_σ) of dimension R, with the state after σ a_σ = α·M_σ·C;
//   3. a start: any α' with α'·N_σ = a_σ for every σ (α itself need not be one: its y(ε) is not
//      read), else one more coordinate that every step clears: dimension D = R or R + 1;
//   4. affine: when some column φ has N_σ·φ = φ (every σ) and α'·φ = 1, every reachable state
//      has h·φ = 1 — a constant coordinate — and the LRNN S' = A_σ S + B_σ, y = C S + bias has
//      dimension D − 1.
// With one readout for every symbol (every WFA; an LRNN without per-token readouts) D is the
// least dimension of a representation y(w) = α·M_w·Γ (w ≠ ε): R is the rank of the Hankel matrix
// H[x, u] = y(x·u) (x ≠ ε), any representation of dimension R is isomorphic to step 2's, and then
// step 3's α' exists. And D − 1 (or D) is the least dimension of an LRNN with affine steps and a
// readout bias (its homogenization has dimension d + 1 and a fixed φ). So a d-dimensional LRNN
// (d·m state entries) never minimizes to more than d·m. With per-symbol readouts step 2 also
// counts the unobserved y after w read by another symbol's readout: an upper bound.
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
  LinearRepresentation reduced;  // the linear representation of dimension D (steps 1–3)
  std::size_t forward_dim = 0;   // after step 1
  bool affine = false;           // step 4 applied: the LRNN has affine steps and a readout bias
  std::size_t dimension = 0;     // the LRNN's: D − 1 when affine, else D
  Model model;                   // the general-family LRNN of dimension max(dimension, 1)
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
  std::size_t dimension = 0;  // the input's: d·m for a model (rep.dim − 1), states for a WFA
  MinimizeResult minimized;
  EquivalenceResult proof;
};
ProvedMinimization minimize_and_prove(const LinearRepresentation& rep,
                                      const std::string& name = "minimized");

// The document `rnncc minimize --json` prints: dimension (the input's), forward_dimension,
// minimal_dimension (the LRNN's), affine, verdict ("proved"), proved, method, field ("Q"),
// basis_size, output (the file written, or null).
nlohmann::ordered_json minimize_json(const ProvedMinimization& m,
                                     const std::optional<std::string>& output);

}  // namespace rnncc
