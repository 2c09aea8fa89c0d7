// rnncc import-weights FILE.safetensors --family deltanet|gdn|gated_deltanet|mamba2|rwkv7
// --vocab a,b,… [--precision exact|bits:K|log:C [--length N]] [--layer K] [-o MODEL.json]
// [--json]: one trained layer (fla / mamba_ssm names) folded into an exact LRNN over the
// vocabulary (rnn/import_weights.hpp), with the rounding report and the agreement with the
// float64 layer on seeded random strings.
#include <iostream>

#include "algebra/error.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "rnn/import_weights.hpp"
#include "rnn/model_json.hpp"

namespace rnncc::cli {

Action add_import_weights_command(CLI::App& app) {
  struct Flags {
    std::string file, family, vocab, precision = "exact", out, neg = "auto";
    std::size_t length = 0;
    WeightsOptions options;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "import-weights",
      "Fold one trained DeltaNet / Gated DeltaNet / Mamba-2 / RWKV-7 layer into an exact model");
  cmd->add_option("FILE", f->file, "a .safetensors checkpoint of one layer (docs/import.md)")
      ->required();
  cmd->add_option("--family", f->family, "deltanet, gated_deltanet (gdn), mamba2 or rwkv7")
      ->required();
  cmd->add_option("--vocab", f->vocab,
                  "the symbols and their embedding rows: a,b,c (rows 0, 1, 2) or a=5,b=7")
      ->required();
  cmd->add_option("--precision", f->precision,
                  "exact (each float's dyadic rational), bits:K or log:C (round to a grid)")
      ->capture_default_str();
  cmd->add_option("--length", f->length, "n, for log:C (F = C·⌈log₂(n+1)⌉ fraction bits)");
  cmd->add_option("--layer", f->options.layer, "which layer's tensors (model.layers.K)")
      ->capture_default_str();
  cmd->add_option("--allow-neg-eigval", f->neg, "β ← 2β (true, false; auto: the file's metadata)")
      ->capture_default_str();
  cmd->add_option("--agreement-strings", f->options.agreement_strings,
                  "random strings the agreement with the float layer is measured on")
      ->capture_default_str();
  cmd->add_option("--agreement-length", f->options.agreement_length,
                  "their lengths are uniform in 1..this")
      ->capture_default_str();
  cmd->add_option("--seed", f->options.seed, "seed of the random strings")->capture_default_str();
  cmd->add_flag("--constant-readout", f->options.constant_readout,
                "keep the per-token readout in one more state coordinate, so the readout is "
                "token-independent (a general layer: what --target boolean/threshold need)");
  cmd->add_option("-o,--output", f->out, "write the model (JSON) here");
  cmd->add_flag("--json", f->json, "print the report as JSON");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const WeightsFamily family = weights_family(f->family, "--family");
    if (f->neg == "true")
      f->options.allow_neg_eigval = true;
    else if (f->neg == "false")
      f->options.allow_neg_eigval = false;
    else if (f->neg != "auto")
      throw InputError("--allow-neg-eigval", "'" + f->neg + "': expected true, false or auto");
    const Vocab vocab = parse_vocab(f->vocab);
    const FloatPrecision precision = parse_float_precision(f->precision, f->length);
    std::optional<OutputFile> out;
    if (!f->out.empty()) out.emplace(f->out);
    const WeightsImport w =
        import_weights(load_safetensors(f->file), family, vocab, precision, f->options);
    if (out) {
      out->write(json_text(model_to_json(w.model), 2) + "\n");
      out->commit();
    }
    if (f->json) {
      nlohmann::ordered_json j = weights_report_json(w, family);
      j["output"] = f->out.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f->out);
      std::cout << json_text(j, 2) << "\n";
    } else {
      std::cout << weights_report_text(w, family);
      if (!f->out.empty()) std::cout << "wrote " << f->out << "\n";
    }
    return 0;
  };
}

}  // namespace rnncc::cli
