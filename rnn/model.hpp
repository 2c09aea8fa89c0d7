// A model: an alphabet, a stack of sequence layers, and an acceptance rule.
//
// Layer 1 reads the one-hot x_t ∈ {0,1}^|Σ|. Layer ℓ > 1 reads z_t = W·vec(y_t^{ℓ−1}) + b,
// where y_t^{ℓ−1} ∈ Q^{r×m} is layer ℓ−1's output at the same position and vec flattens row
// by row (docs/semantics.md, "Stacks"). Every layer is a sequence-to-sequence map of this
// shape, so attention layers (rnn/attention.hpp) and hybrids join the `Layer` variant.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "rnn/alphabet.hpp"
#include "rnn/attention.hpp"
#include "rnn/lrnn.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc {

using Layer = std::variant<LrnnLayer, ElmanLayer, LstmLayer, AttentionLayer>;

struct InputMap {
  Matrix<Rational> weights;  // k × (r·m) of the layer below
  Matrix<Rational> bias;     // k × 1, or empty
};

struct StackLayer {
  std::optional<InputMap> input;  // absent for layer 1 (one-hot input)
  Layer layer;
};

// Accept iff entry (row, col) of the last layer's output is > 0 (PNC¹ style) or = 0
// (equality style). Positivity needs an ordered domain: it is undefined mod p.
struct Acceptance {
  enum class Mode { positive, zero };
  Mode mode = Mode::positive;
  std::size_t row = 0, col = 0;
};

struct Model {
  std::string name;
  std::string description;
  Alphabet alphabet;
  std::vector<StackLayer> layers;
  Acceptance accept;
};

std::size_t input_features(const Layer& layer);
std::size_t output_rows(const Layer& layer);
std::size_t output_cols(const Layer& layer);
// "lrnn/deltanet", "elman/relu", "lstm", "attention/unique_hard"
std::string layer_kind(const Layer& layer);

}  // namespace rnncc
