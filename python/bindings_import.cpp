// The importers for Python (rnncc.importing, docs/import.md): float arrays by a family's
// parameter names (rnn/import_arrays.hpp) and trained layer weights (rnn/import_weights.hpp).
// Each returns (model JSON text, report JSON text) — the model file `rnncc import … -o` writes
// and the report `--json` prints — so the Python layer builds its Model and dataclasses from the
// same documents the CLI gives. bind_import (bindings.hpp) is called by bind_models
// (bindings_models.cpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algebra/error.hpp"
#include "bindings.hpp"
#include "circuits/io/json_text.hpp"
#include "rnn/import_arrays.hpp"
#include "rnn/import_weights.hpp"
#include "rnn/model_json.hpp"

namespace py = pybind11;

namespace {

using rnncc::InputError;

// Python keywords name the argument in diagnostics, not the CLI's flags.
rnncc::FloatPrecision precision_arg(const std::string& text, std::size_t length) {
  return rnncc::parse_float_precision(text, length, "precision", "length");
}

std::pair<std::string, std::string> import_arrays_text(
    const std::string& family, const py::bytes& data, const std::vector<std::string>& alphabet,
    const std::string& precision, std::size_t length, const std::string& beta_range,
    const std::string& source) {
  const rnncc::Family fam = rnncc::import_family(family, "family");
  const auto range = rnncc::parse_beta_range(beta_range);
  if (!range) throw InputError("beta_range", "expected any, (0,1), (0,1], (0,2) or (0,2]");
  const rnncc::Alphabet sigma(alphabet, "alphabet");
  const rnncc::FloatPrecision p = precision_arg(precision, length);
  const rnncc::SafeTensorsFile file = rnncc::parse_safetensors(std::string(data), source);
  const rnncc::ImportResult r = rnncc::import_arrays(file, fam, sigma, p, *range);
  nlohmann::ordered_json report;
  report["family"] = family;
  report["rounding"] = rnncc::rounding_report_json(r.rounder);
  report["notes"] = r.notes;
  return {rnncc::json_text(rnncc::model_to_json(r.model), 2), rnncc::json_text(report, 2)};
}

std::pair<std::string, std::string> import_weights_text(
    const std::string& path, const std::string& family, const std::string& vocab,
    const std::string& precision, std::size_t length, std::size_t layer,
    std::optional<bool> allow_neg_eigval, std::size_t agreement_strings,
    std::size_t agreement_length, std::uint64_t seed, bool constant_readout) {
  const rnncc::WeightsFamily fam = rnncc::weights_family(family, "family");
  const rnncc::Vocab v = rnncc::parse_vocab(vocab, "vocab");
  rnncc::WeightsOptions o;
  o.layer = layer;
  o.allow_neg_eigval = allow_neg_eigval;
  o.agreement_strings = agreement_strings;
  o.agreement_length = agreement_length;
  o.seed = seed;
  o.constant_readout = constant_readout;
  const rnncc::WeightsImport w = rnncc::import_weights(rnncc::load_safetensors(path), fam, v,
                                                       precision_arg(precision, length), o);
  return {rnncc::json_text(rnncc::model_to_json(w.model), 2),
          rnncc::json_text(rnncc::weights_report_json(w, fam), 2)};
}

}  // namespace

void bind_import(py::module_& m) {
  m.def("import_arrays", &import_arrays_text, py::arg("family"), py::arg("data"),
        py::arg("alphabet"), py::arg("precision") = "exact", py::arg("length") = 0,
        py::arg("beta_range") = "any", py::arg("source") = "<arrays>");
  m.def("import_weights", &import_weights_text, py::arg("path"), py::arg("family"),
        py::arg("vocab"), py::arg("precision") = "exact", py::arg("length") = 0,
        py::arg("layer") = 0, py::arg("allow_neg_eigval") = py::none(),
        py::arg("agreement_strings") = 200, py::arg("agreement_length") = 16, py::arg("seed") = 1,
        py::arg("constant_readout") = false);
}
