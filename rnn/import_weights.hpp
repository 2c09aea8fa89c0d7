// Trained layer weights (one layer of DeltaNet, Gated DeltaNet, Mamba-2 or RWKV-7 with its
// embedding and output head, under flash-linear-attention's / mamba_ssm's parameter names) →
// an exact LRNN model over a finite vocabulary (docs/import.md, "Trained layers").
//
// Over a finite vocabulary, everything computed from the current token alone (embedding, input
// RMSNorm, projections, width-1 convolutions, activations, β, gates, decays, output gates, the
// RWKV bonus) is a function of the symbol: it is evaluated once per symbol in float64 and taken
// at the chosen precision (rnn/float_params.hpp); the recurrence is then exact. Refused, naming
// the tensor and the reason: a convolution of width K > 1 and a nonzero token shift (the step
// depends on a window of tokens), a norm of the output or state (it divides by a
// state-dependent quantity) — except that with one norm group and no head bias the norm is a
// positive rescaling of y, so the *acceptance* folds exactly though the values differ (a note
// says so).
//
// The exact model: the family itself when one head holds it (deltanet, gated_deltanet, rwkv7
// with the readout contracted into the state: S·w, m = 1; mamba2 with one head and D = 0),
// else a general layer with block-diagonal A (several heads, or an output gate that makes the
// readout weights per-token, which keeps each head's whole state), or a diagonal one (Mamba-2).
//
// DeltaNet / GatedDeltaNet follow fla: q, k = l2norm(silu(·)) per head (q·dk^−½) and
// v = silu(v_proj x) (inside v_conv1d, or after v_proj without it); the metadata key
// "v_activation" = "identity" reads a file written with v = v_proj x (anything other than "silu"
// or "identity" is refused, naming the key). RWKV-7's token-shift mixes x_r … x_g are read as
// [D] or as fla's [1, 1, D].
//
// reference_forward is the float64 forward pass of the original layer (the same math, nothing
// folded), against which import_weights measures the imported model on seeded random strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rnn/float_params.hpp"
#include "rnn/model.hpp"
#include "rnn/safetensors.hpp"

namespace rnncc {

enum class WeightsFamily { deltanet, gated_deltanet, mamba2, rwkv7 };
// "deltanet", "gated_deltanet" (also "gdn"), "mamba2", "rwkv7"
std::optional<WeightsFamily> parse_weights_family(std::string_view name);
// The same, for a flag or keyword named `where`: InputError listing the families, with the
// nearest one when `name` is a misspelling ("gdnn" → did you mean gdn?).
WeightsFamily weights_family(std::string_view name, const std::string& where);
std::string to_string(WeightsFamily f);

// Symbols and the embedding rows (token ids) they read: "a,b,c" (ids 0, 1, 2) or
// "a=5,b=7". InputError naming `flag` for an empty or repeated symbol or a bad id.
struct Vocab {
  std::vector<std::string> symbols;
  std::vector<std::size_t> token_ids;
};
Vocab parse_vocab(std::string_view text, const std::string& flag = "--vocab");

struct WeightsOptions {
  std::size_t layer = 0;                 // model.layers.<layer> / backbone.layers.<layer>
  std::optional<bool> allow_neg_eigval;  // else the metadata's "allow_neg_eigval"
  std::size_t agreement_strings = 200;   // random strings the agreement is measured on
  std::size_t agreement_length = 16;     // their lengths: uniform in 1..this
  std::uint64_t seed = 1;
  // Rewrite the folded layer so that its readout is token-independent (constant_readout below):
  // what the boolean and threshold compilers need.
  bool constant_readout = false;
};

// The imported model is run exactly (rationals) while strings × max length × d² (the big-rational
// products of the run, at most) is at most this; above it, its exact parameters are run in
// float64 (2^23: a few seconds; d ≤ 51 at the default 200 strings of length ≤ 16).
inline constexpr double agreement_exact_max_work = double(1 << 23);
// The agreement itself is refused when strings × max length × d² passes this (2^36, about a
// minute of float64 passes; the defaults stay below it up to the file limit's d): an
// InputError naming --agreement-strings, before any string is drawn.
inline constexpr double agreement_max_work = double(std::uint64_t{1} << 36);

struct Agreement {
  std::size_t strings = 0, positions = 0, max_length = 0;
  std::uint64_t seed = 0;
  std::size_t verdicts_agree = 0;  // positions where (y_float > 0) == (y_model > 0)
  double max_abs_error = 0;        // max |y_float − y_model| over the positions
  double max_abs_y = 0;            // max |y_float|, for scale
  bool model_exact = true;         // the model run exactly (else: its parameters in float64)
  double rate() const { return positions ? double(verdicts_agree) / double(positions) : 1.0; }
};

struct WeightsImport {
  Model model;
  ParamRounder rounder;
  std::vector<std::string> notes;  // what folded how, what was kept or rescaled, one sentence each
  bool values_exact = true;        // false: only the acceptance folds (a positive rescaling)
  Agreement agreement;
};

// Throws InputError naming the file and the tensor: missing or mis-shaped ("expected shape
// [8, 16], got [8, 12]"), or a part that does not fold (with the reason).
WeightsImport import_weights(const SafeTensorsFile& file, WeightsFamily family, const Vocab& vocab,
                             const FloatPrecision& precision, const WeightsOptions& options = {});

// The same function with a token-independent readout: a general layer of dimension d·m + … — for
// m = 1, the state [S_t; y_t − c₀] with y_t − c₀ = C_{w_t}·S_t = (C_{w_t}A_{w_t})·S_{t−1} +
// C_{w_t}B_{w_t} (C_k including the common C): A'_k = [[A_k, 0], [C_k A_k, 0]], B'_k = [B_k;
// C_k B_k], readout [0 … 0 1], the same c₀. Exact; at log precision the products C_k A_k, C_k B_k
// are new parameters the compiler rounds once more. A layer without per-symbol readouts is
// returned as it is; m > 1 is refused (std::logic_error: import_weights builds m = 1).
LrnnLayer with_constant_readout(const LrnnLayer& layer);

// y_t after each position (the head's logit, accepted iff > 0) of the original layer on the
// token ids `tokens`, in float64.
std::vector<double> reference_forward(const SafeTensorsFile& file, WeightsFamily family,
                                      const std::vector<std::size_t>& tokens,
                                      const WeightsOptions& options = {});

// {"family", "model_family", "d", "symbols", "rounding": rounding_report_json, "notes",
//  "values_exact", "agreement": {strings, positions, max_length, seed, verdict_agreement,
//  verdicts_agree, max_abs_error, max_abs_y}}
nlohmann::ordered_json weights_report_json(const WeightsImport& w, WeightsFamily family);
std::string weights_report_text(const WeightsImport& w, WeightsFamily family);

}  // namespace rnncc
