// Linear representations: the form in which verify/equivalence.hpp decides f ≡ g for every
// length (Schützenberger 1961; Berstel & Reutenauer, "Noncommutative Rational Series with
// Applications", ch. 1–2).
//
// ROW-VECTOR convention. A linear representation of dimension d over Q (or F_p) with r outputs
// is (α, {M_σ}, {O_σ}) with α ∈ Q^{1×d}, M_σ ∈ Q^{d×d}, O_σ ∈ Q^{d×r}; its output after the
// nonempty prefix w = w₁⋯w_k is the row vector
//     y(w) = α · M_{w₁} ⋯ M_{w_{k−1}} · O_{w_k}        (O_σ = M_σ·Γ_σ: step, then read out)
// i.e. the classical y(w) = α·M_{w₁}⋯M_{w_k}·Γ with a readout Γ_σ that may depend on the last
// symbol (LRNN layers with per-symbol readouts). Storing the fused O_σ also covers products
// with a finite control, whose readout depends on the control state before the last step.
// y(ε) is defined only where `empty_output` is set (WFAs: α·β); an LRNN outputs nothing at
// t = 0 (rnn/evaluate.hpp returns y_1, …, y_n), so its representation leaves it unset.
//
// Builders (each matches the reference evaluator, tests/verify/test_equivalence_repr.cpp):
//   - from_wfa: α, M_σ, O_σ = M_σ·β, y(ε) = α·β.
//   - from_lrnn_layer: S_t = A_σ S_{t−1} + B_σ, y_t = (C + C_σ)·S_t + c₀ (rnn/lrnn.hpp) on the
//     homogenized state v = [vec_row(S), 1] ∈ Q^{1×(dm+1)}: coordinate k·m + j is S[k][j], so
//     (v·M_σ)[i·m+j] = Σ_k S[k][j]·A_σ[i][k] + B_σ[i][j], and y is flattened row by row,
//     output i·m + j (as rnn/evaluate.hpp's Matrix::data()).
//   - from_controlled: the product of a finite control (states Q, start q₀, δ(q, σ)) with
//     per-(q, σ) linear steps: dimension |Q_reachable|·d, α = e_{q₀} ⊗ α, block (q, δ(q,σ)) of
//     M_σ = M_{q,σ}, block row q of O_σ = O_{q,σ}.
//   - through_input_map: a model over tokens read through a token prefix (BOS) and, per symbol
//     σ and control state q, a token sequence τ(q, σ) (one control state: a fixed input map):
//     M_{q,σ} = M_{τ₁}⋯M_{τ_{k}}, O_{q,σ} = M_{τ₁}⋯M_{τ_{k−1}}·O_{τ_k}, α' = α·M_{prefix}
//     (the output at a symbol is the output at its last token).
//   - from_model: one LRNN layer, or a stack whose lower layers are LRNN layers with finitely
//     many reachable configurations (a counter supplying the sub-position): then those layers
//     are the finite control and the top layer, whose maps A(z), B(z), C(z) are fixed once the
//     control state and symbol fix z, the linear part. Anything else is refused (NotLinear).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "constructions/wfa.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// A model the decider cannot read as a linear representation; what() says why.
class NotLinearError : public InputError {
 public:
  explicit NotLinearError(const std::string& why) : InputError("", why) {}
};

struct LinearRepresentation {
  std::vector<std::string> symbols;          // Σ, in symbol-id order
  std::size_t dim = 0, outputs = 1;          // d, r
  std::vector<Rational> initial;             // α (d)
  std::vector<Matrix<Rational>> transition;  // M_σ, d×d
  std::vector<Matrix<Rational>> output;      // O_σ = M_σ·Γ_σ, d×r
  // Γ_σ (d×r), read after the step: y(uσ) = α·M_u·M_σ·Γ_σ. Set by from_wfa and
  // from_lrnn_layer (the form an LRNN has, which minimize() needs); empty for products.
  std::vector<Matrix<Rational>> readout;
  std::optional<std::vector<Rational>> empty;  // y(ε) (r), when defined
  std::optional<std::uint64_t> modulus;        // set: the model is read over F_modulus
};

// y(w₁⋯w_t) for t = 1..|w|, exactly over Q (the plain evaluator tests compare with).
std::vector<std::vector<Rational>> evaluate_prefixes(const LinearRepresentation& rep,
                                                     const std::vector<std::size_t>& w);

LinearRepresentation from_wfa(const Wfa& a);
// Layer 1 of a model (one-hot input, features = |symbols|). Throws NotLinearError otherwise.
LinearRepresentation from_lrnn_layer(const LrnnLayer& layer,
                                     const std::vector<std::string>& symbols);

struct FiniteControl {
  std::size_t states = 1, start = 0;
  std::vector<std::vector<std::size_t>> next;  // next[q][σ]
};

// Per control state q and symbol σ: the linear step M_{q,σ} (d×d) and output O_{q,σ} (d×r).
struct ControlledLinear {
  std::vector<std::string> symbols;
  std::size_t dim = 0, outputs = 1;
  FiniteControl control;
  std::vector<Rational> initial;
  std::vector<std::vector<Matrix<Rational>>> step, output;  // [q][σ]
};
// The product, restricted to the control states reachable from start.
LinearRepresentation from_controlled(const ControlledLinear& c);

// A sequential input map from symbols to the tokens of `tokens_rep`: `prefix` tokens first,
// then for symbol σ read in control state q the tokens `tokens[q][σ]` (nonempty) and the move
// to control.next[q][σ]. control = {1 state}: a fixed per-symbol token sequence.
struct InputMapSpec {
  std::vector<std::string> symbols;
  std::vector<std::size_t> prefix;
  FiniteControl control;
  std::vector<std::vector<std::vector<std::size_t>>> tokens;  // [q][σ] → token ids
};
LinearRepresentation through_input_map(const LinearRepresentation& tokens_rep,
                                       const InputMapSpec& map);

// The input map of a construction's encode, when encode(w) = prefix · τ(q₀, w₁) · τ(q₁, w₂) ⋯
// with q_i = i mod period (matmul3: BOS, then 9 tokens per matrix whose names carry the parity
// of the matrix index, period 2): prefix = encode(ε), τ(q, σ) = the tokens encode(0^q σ) adds
// after encode(0^q). Checked against encode on every word of length ≤ period + 1; throws
// std::invalid_argument when encode is not of this form.
InputMapSpec input_map_from_encode(
    const std::vector<std::string>& symbols,
    const std::function<std::vector<std::size_t>(const std::vector<std::size_t>&)>& encode,
    std::size_t period);

// The same representation with outputs restricted to `columns` (indices into y, in order):
// O_σ, Γ_σ and y(ε) keep those columns; y'(w) = (y(w)_c)_{c ∈ columns}. Throws
// std::out_of_range for an index ≥ rep.outputs.
LinearRepresentation select_outputs(const LinearRepresentation& rep,
                                    const std::vector<std::size_t>& columns);

struct FromModelParams {
  std::size_t max_control_states = 4096;  // lower layers with more configurations: refused
};
// Throws NotLinearError (reason) for a model that is not linear in its state.
LinearRepresentation from_model(const Model& m, const FromModelParams& params = {});

}  // namespace rnncc
