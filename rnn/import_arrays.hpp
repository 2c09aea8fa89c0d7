// Float arrays named after a family's own parameters → an exact one-layer model, built through
// the family builders (rnn/families.hpp), at a stated precision (rnn/float_params.hpp). The
// reader behind `rnncc import` and rnncc.from_arrays (docs/import.md, "Arrays by parameter").
//
// Tensor names: a per-symbol parameter P is one tensor "P" stacked with the symbol first,
// shape [|Σ|, …] (symbols in alphabet order), or one tensor "P.<symbol>" per symbol. Layer
// parameters: "readout" [r, d] (required: it fixes d), "initial_state" [d, m], "readout_bias"
// [r, m] (optional; zero / none), and the optional per-symbol readout "C" [r, d].
//
//   family                 per-symbol parameters (shape per symbol)
//   general                A [d, d], B [d, m]
//   diagonal, gla, s4      decay [d], B [d, m]          (s4: one decay for every symbol)
//   mamba2                 decay [] (a scalar a: A = a·I), B [d, m]
//   pd                     P [d, d] (0/1, one 1 per column), D [d], B [d, m]
//   dplr                   D [d], a [d], b [d], B [d, m]
//   deltanet               beta [], k [d], v [m]
//   gated_deltanet         alpha [], beta [], k [d], v [m]
//   kda                    alpha [d], beta [], k [d], v [m]
//   rwkv7                  w [d], a [d], b [d], B [d, m]
// B is optional (zero). m is B's (or v's, or initial_state's) last size, else 1.
#pragma once

#include <string>
#include <vector>

#include "rnn/float_params.hpp"
#include "rnn/lrnn.hpp"
#include "rnn/model.hpp"
#include "rnn/safetensors.hpp"

namespace rnncc {

struct ImportResult {
  Model model;
  ParamRounder rounder;
  std::vector<std::string> notes;  // what the importer decided and why, one sentence each
};

// Throws InputError naming the file and the tensor (missing, mis-shaped, not finite, or a
// parameter the family refuses: "w.safetensors: tensor 'beta' (symbol 'a'): β = … is outside
// the layer's beta_range (0,1)").
ImportResult import_arrays(const SafeTensorsFile& file, Family family, const Alphabet& alphabet,
                           const FloatPrecision& precision, BetaRange beta_range = BetaRange::any);

// The model's name: the file's stem ("w" for "dir/w.safetensors").
std::string model_name_from_path(const std::string& path);

// A family named on the command line or from Python (`where`: "FAMILY", "family"): InputError
// listing the families, with the nearest one when `name` is a misspelling (diagnal → diagonal).
Family import_family(std::string_view name, const std::string& where);

}  // namespace rnncc
