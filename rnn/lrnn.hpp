// The linear-RNN layer and its parameterizations (families).
//
// Semantics (docs/semantics.md, "LRNN layer"): the layer reads a feature vector z_t ∈ Q^k per
// position (layer 1: the one-hot x_t ∈ {0,1}^|Σ|; higher layers: a linear map of the layer
// below, rnn/model.hpp) and keeps a state S_t ∈ Q^{d×m}:
//     A(z) = Σ_k z_k A_k        B(z) = Σ_k z_k B_k
//     S_t  = A(z_t) · S_{t−1} + B(z_t)          (column-vector form)
//     y_t  = (C + Σ_k z_{t,k} C_k) · S_t + c₀  ∈ Q^{r×m}
// With one-hot inputs, A(x_t) = A_{w_t}: the per-symbol parameters of the papers.
// The maps compose as (A₂,B₂)∘(A₁,B₁) = (A₂A₁, A₂B₁ + B₂), the monoid a parallel scan uses.
//
// A family builder (rnn/families.hpp) derives A_k, B_k from the family's own parameters, checks
// them, and keeps those parameters in `record` so later compilers can exploit the structure
// (a PD map stays permutation + diagonal, a DPLR map stays diagonal + rank one).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

enum class Family {
  general,         // any A, B
  diagonal,        // A = diag(a)
  s4,              // time-invariant diagonal: A_k = diag(a) for every k (S4 / LTI SSM)
  mamba2,          // scalar decay: A_k = a_k·I (Mamba-2)
  gla,             // per-channel decay: A_k = diag(a_k) (GLA, Mamba-1 style)
  pd,              // A_k = P_k·diag(D_k), P_k column-one-hot (PD-SSM)
  dplr,            // A_k = diag(D_k) − a_k b_kᵀ
  deltanet,        // A_k = I − β_k k_k k_kᵀ, B_k = β_k k_k v_kᵀ
  gated_deltanet,  // A_k = α_k (I − β_k k_k k_kᵀ), B_k = β_k k_k v_kᵀ
  kda,    // Kimi Delta Attention: A_k = (I − β_k k_k k_kᵀ)·diag(α_k), B_k = β_k k_k v_kᵀ
  rwkv7,  // A_k = diag(w_k) + a_k b_kᵀ (RWKV-7 "generalized delta rule")
};

// Names as written in model files: "general", "diagonal", "s4", "mamba2", "gla", "pd", "dplr",
// "deltanet", "gated_deltanet", "kda", "rwkv7".
std::string to_string(Family f);
std::optional<Family> parse_family(std::string_view name);

// Where the delta-rule step size β must lie. DeltaNet's β = sigmoid(·) ∈ (0,1); with
// negative eigenvalues allowed [GSZ+25] β = 2·sigmoid(·) ∈ (0,2); exact constructions use the
// closed ends (β = 2 makes I − 2kkᵀ/‖k‖² a reflection).
enum class BetaRange { any, open_0_1, half_open_0_1, open_0_2, half_open_0_2 };
std::string to_string(BetaRange r);  // "any" "(0,1)" "(0,1]" "(0,2)" "(0,2]"
std::optional<BetaRange> parse_beta_range(std::string_view text);
bool contains(BetaRange r, const Rational& beta);

using Vector = std::vector<Rational>;

// The family's own per-feature parameters, as given.
struct NoParams {};
struct DiagonalParams {
  Vector decay;
};
struct PdParams {
  std::vector<std::size_t> image;  // P e_j = e_{image[j]}
  bool permutation = false;        // image is a bijection
  Vector diag;                     // D
};
struct DplrParams {
  Vector D, a, b;
};
struct DeltaParams {
  Vector alpha;  // gate: empty (DeltaNet), one entry (Gated DeltaNet), d entries (KDA)
  Rational beta;
  Vector k, v;
};
struct Rwkv7Params {
  Vector w, a, b;
};
using FeatureParams =
    std::variant<NoParams, DiagonalParams, PdParams, DplrParams, DeltaParams, Rwkv7Params>;

struct LrnnLayer {
  Family family = Family::general;
  std::size_t d = 0, m = 1, features = 0;
  std::vector<Matrix<Rational>> A;                // per feature, d×d
  std::vector<Matrix<Rational>> B;                // per feature, d×m
  Matrix<Rational> initial_state;                 // S_0, d×m
  Matrix<Rational> readout;                       // C, r×d
  std::vector<Matrix<Rational>> readout_feature;  // C_k, r×d each; empty if token-independent
  Matrix<Rational> readout_bias;                  // c₀, r×m; empty for none
  std::vector<FeatureParams> record;              // per feature; NoParams for `general`
  BetaRange beta_range = BetaRange::any;          // delta-rule families only
  std::size_t output_rows() const { return readout.rows(); }
  std::size_t output_cols() const { return m; }
};

}  // namespace rnncc
