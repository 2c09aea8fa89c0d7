// rnncc import FAMILY ARRAYS.safetensors --alphabet a,b,… [--precision exact|bits:K|log:C
// [--length N]] [-o MODEL.json] [--json]: float arrays named after the family's parameters
// (rnn/import_arrays.hpp) → an exact one-layer model, with the rounding error per parameter
// group (rnn/float_params.hpp).
#include <iostream>

#include "algebra/error.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "rnn/import_arrays.hpp"
#include "rnn/model_json.hpp"

namespace rnncc::cli {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

Action add_import_command(CLI::App& app) {
  struct Flags {
    std::string family, file, alphabet, precision = "exact", beta_range = "any", out;
    std::size_t length = 0;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "import", "Build an exact model from float arrays named after a family's parameters");
  cmd->add_option("FAMILY", f->family, "the layer family (general, diagonal, deltanet, …)")
      ->required();
  cmd->add_option("ARRAYS", f->file, "a .safetensors file (docs/import.md)")->required();
  cmd->add_option("--alphabet", f->alphabet, "the symbols, comma-separated, in array order")
      ->required();
  cmd->add_option("--precision", f->precision,
                  "exact (each float's dyadic rational), bits:K or log:C (round to a grid)")
      ->capture_default_str();
  cmd->add_option("--length", f->length, "n, for log:C (F = C·⌈log₂(n+1)⌉ fraction bits)");
  cmd->add_option("--beta-range", f->beta_range, "delta-rule layers: where β must lie")
      ->capture_default_str();
  cmd->add_option("-o,--output", f->out, "write the model (JSON) here");
  cmd->add_flag("--json", f->json, "print the report as JSON");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const Family family = import_family(f->family, "FAMILY");
    const auto range = parse_beta_range(f->beta_range);
    if (!range) throw InputError("--beta-range", "expected any, (0,1), (0,1], (0,2) or (0,2]");
    const Alphabet alphabet(split_commas(f->alphabet), "--alphabet");
    const FloatPrecision precision = parse_float_precision(f->precision, f->length);
    std::optional<OutputFile> out;
    if (!f->out.empty()) out.emplace(f->out);
    const ImportResult r =
        import_arrays(load_safetensors(f->file), family, alphabet, precision, *range);
    if (out) {
      out->write(json_text(model_to_json(r.model), 2) + "\n");
      out->commit();
    }
    const auto& layer = std::get<LrnnLayer>(r.model.layers[0].layer);
    if (f->json) {
      nlohmann::ordered_json j;
      j["family"] = to_string(layer.family);
      j["d"] = layer.d;
      j["m"] = layer.m;
      j["symbols"] = alphabet.symbols();
      j["rounding"] = rounding_report_json(r.rounder);
      j["output"] = f->out.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f->out);
      std::cout << json_text(j, 2) << "\n";
    } else {
      std::cout << "import: " << f->file << " → " << to_string(layer.family)
                << " layer, d = " << layer.d << ", m = " << layer.m << ", |Σ| = " << alphabet.size()
                << "\n"
                << rounding_report_text(r.rounder);
      if (!f->out.empty()) std::cout << "wrote " << f->out << "\n";
    }
    return 0;
  };
}

}  // namespace rnncc::cli
