// Family builders: derive an LRNN layer's A_k, B_k from a family's own parameters, after
// checking that the parameters are of that family (rnn/lrnn.hpp lists the formulas).
//
// A violation throws ParamError naming the feature and the parameter field, which the model
// loader turns into a JSON path (`m.json: /layers/0/symbols/a/beta: ...`).
#pragma once

#include <string>
#include <vector>

#include "algebra/error.hpp"
#include "rnn/lrnn.hpp"

namespace rnncc {

class ParamError : public InputError {
 public:
  // feature = index of the feature (symbol) or SIZE_MAX for a layer-level field.
  ParamError(std::size_t feature, std::string field, const std::string& what)
      : InputError("", what), feature_(feature), field_(std::move(field)) {}
  std::size_t feature() const { return feature_; }
  const std::string& field() const { return field_; }
  static constexpr std::size_t layer_level = static_cast<std::size_t>(-1);

 private:
  std::size_t feature_;
  std::string field_;
};

// What every family shares: sizes, S_0, readout.
struct LayerFrame {
  std::size_t d = 0, m = 1, features = 0;
  Matrix<Rational> initial_state;                 // d×m
  Matrix<Rational> readout;                       // r×d
  std::vector<Matrix<Rational>> readout_feature;  // empty or `features` matrices r×d
  Matrix<Rational> readout_bias;                  // empty or r×m
};

struct AffineStep {
  Matrix<Rational> A, B;
};
struct DecayStep {
  Vector decay;
  Matrix<Rational> B;
};  // decay: d entries (1 for mamba2)
struct PdStep {
  std::vector<std::size_t> image;
  Vector diag;
  Matrix<Rational> B;
};
struct DplrStep {
  Vector D, a, b;
  Matrix<Rational> B;
};
struct DeltaStep {
  Vector alpha;
  Rational beta;
  Vector k, v;
};
struct Rwkv7Step {
  Vector w, a, b;
  Matrix<Rational> B;
};

LrnnLayer make_general(LayerFrame frame, std::vector<AffineStep> steps);
// family ∈ {diagonal, gla, s4, mamba2}: s4 additionally requires the same decay for every
// feature; mamba2 takes one scalar per feature.
LrnnLayer make_diagonal(Family family, LayerFrame frame, std::vector<DecayStep> steps);
// require_permutation: every P_k must be a permutation (else column-one-hot suffices).
LrnnLayer make_pd(LayerFrame frame, std::vector<PdStep> steps, bool require_permutation);
LrnnLayer make_dplr(LayerFrame frame, std::vector<DplrStep> steps);
// family ∈ {deltanet, gated_deltanet, kda}. Gates α lie in (0, 1].
LrnnLayer make_delta(Family family, LayerFrame frame, std::vector<DeltaStep> steps,
                     BetaRange range);
LrnnLayer make_rwkv7(LayerFrame frame, std::vector<Rwkv7Step> steps);

// Checks the frame's shapes; used by every builder (and by the loader for stacked layers).
void check_frame(const LayerFrame& frame);

}  // namespace rnncc
