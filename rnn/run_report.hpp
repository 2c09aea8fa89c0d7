// `rnncc run`: evaluates a model on input strings under a chosen semantics and reports the
// outputs per position (and the state trace), independent of the number domain.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/precision.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// Largest numerator and denominator bit length over every state entry of every layer.
struct BitGrowth {
  std::size_t numerator_bits = 0, denominator_bits = 0;
};

using TextMatrix = std::vector<std::vector<std::string>>;  // rows of entries in text form

struct PositionReport {
  std::size_t position = 0;  // 1-based
  std::string symbol;
  TextMatrix output;               // y_t of the last layer
  std::optional<bool> accept;      // of the prefix ending here; nullopt: undefined (mod p, > 0)
  std::vector<TextMatrix> states;  // per layer, S_t (attention layers: empty)
  // Per layer: the attended positions M(t) of an attention layer (1-based; unique_hard: the one
  // picked), nullopt for the other layers.
  std::vector<std::optional<std::vector<std::size_t>>> attended;
  std::optional<BitGrowth> bits;  // exact runs only
};

struct RunReport {
  std::string input;
  std::string semantics;  // "exact", "fixed(I=..,F=..,..)", "mod p"
  std::vector<PositionReport> positions;
  std::optional<bool> accepted;       // of the whole input
  std::optional<BitGrowth> max_bits;  // exact runs only
};

// Tokenizes `input` (InputError naming `where` on a bad or empty string), then evaluates.
// Throws DomainError when the semantics cannot represent a value (p | denominator, overflow
// under the `error` policy, ReLU mod p).
RunReport run_model(const Model& model, std::string_view input, const std::string& where,
                    const PrecisionSpec& precision);

std::string format_text(const Model& model, const std::vector<RunReport>& runs, bool trace);
nlohmann::ordered_json to_json(const Model& model, const std::vector<RunReport>& runs, bool trace);

// One-line summary of the stack, e.g. "lrnn/deltanet d=1 m=1".
std::string describe_layers(const Model& model);

}  // namespace rnncc
