// Model files: the JSON format of docs/formats.md ("Model files"), read with diagnostics that
// name the file and the JSON path (RFC 6901 pointer) and say what was expected:
//     m.json: /layers/0/symbols/a/A: expected 3×3 matrix, got 3×2
// Malformed JSON is reported as file:line:column.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rnn/json_cursor.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// An LRNN layer stores features·(d² + d·m) + d·m matrix entries (A, B per feature and S_0)
// whatever its family; a file may ask for at most this many.
inline constexpr std::size_t model_layer_entry_limit = std::size_t{1} << 24;
// A layer's d and m are each at most this (docs/formats.md, "Limits").
inline constexpr std::size_t model_dimension_limit = 4096;

// The model file's limits for a layer built some other way (the family builders of the Python
// package, `rnncc import`): d and m in 1..model_dimension_limit and at most
// model_layer_entry_limit dense entries, checked from the sizes alone before anything is built.
// Throws InputError(where, "a layer of d = D, m = M over K features stores E matrix entries; at
// most 16777216") or InputError(where, "d = D: expected 1..4096"); E saturates.
void check_layer_size(std::size_t d, std::size_t m, std::size_t features, const std::string& where);

// Parses `text` as a model; `source` names it in diagnostics. Throws InputError.
Model parse_model(std::string_view text, const std::string& source);
// Reads and parses a model file. Throws InputError (also when the file cannot be read).
Model load_model(const std::string& path);

// ---- The "generation" member: the rule of rnncc run --generate (rnn/generate.hpp) ------------
//     "generation": {"rule": "argmax", "stop": ["1RZ", "---"]}
// An optional top-level member (docs/formats.md, "Generation"); parse_model ignores it.

struct GenerationRule {
  std::vector<std::size_t> stop;  // token ids that end generation (emitted, then stop)
  bool stops_on(std::size_t token) const {
    return std::find(stop.begin(), stop.end(), token) != stop.end();
  }
};

struct GenerativeModel {
  Model model;
  std::optional<GenerationRule> rule;  // absent: argmax with no stop token
};

// Parses a model file and its "generation" member, in one parse. Diagnostics as parse_model's,
// then the member's: file: /generation/stop/1: '9RZ' is not a symbol of the alphabet.
GenerativeModel parse_generative_model(std::string_view text, const std::string& source);
GenerativeModel load_generative_model(const std::string& path);

}  // namespace rnncc

namespace rnncc {

// The model file of `model` (rnncc-model/1), family-native: a family layer is written with its
// own parameters (β, k, v, P, D, …) from the layer's record, so reading it back rebuilds the
// same matrices through the same builder. parse_model(model_to_json(m).dump()) == m.
nlohmann::ordered_json model_to_json(const Model& model);
// model_to_json plus the "generation" member.
nlohmann::ordered_json generative_model_to_json(const Model& model, const GenerationRule& rule);

}  // namespace rnncc
