// rnncc run MODEL.json INPUT... [--precision exact|log:C|mod:P] [--trace] [--json]
#include <iostream>
#include <memory>

#include "algebra/error.hpp"
#include "algebra/precision.hpp"
#include "cli/commands.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"

namespace rnncc::cli {

namespace {
struct RunFlags {
  std::string model_path;
  std::vector<std::string> inputs;
  std::string precision = "exact";
  std::optional<unsigned> int_bits;
  std::string rounding = "nearest-even";
  std::string overflow = "saturate";
  bool trace = false;
  bool json = false;
};
}  // namespace

Action add_run_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Evaluate a model on input strings with its reference semantics and print y_t per position");
  cmd->add_option("MODEL", flags->model_path, "model file (JSON, docs/formats.md)")->required();
  cmd->add_option("INPUT", flags->inputs,
                  "input strings: characters of single-character alphabets, else symbols separated "
                  "by spaces or commas")
      ->required();
  cmd->add_option("--precision", flags->precision,
                  "exact (rationals), log:C (fixed point, C·⌈log2(n+1)⌉ fraction bits) or mod:P")
      ->capture_default_str();
  cmd->add_option("--int-bits", flags->int_bits,
                  "log precision: integer bits I (default: as many as fraction bits)");
  cmd->add_option("--rounding", flags->rounding, "log precision: nearest-even or toward-zero")
      ->capture_default_str();
  cmd->add_option("--overflow", flags->overflow, "log precision: saturate or error")
      ->capture_default_str();
  cmd->add_flag("--trace", flags->trace, "also print every layer's state at every position");
  cmd->add_flag("--json", flags->json, "print JSON instead of a table");
  return [cmd, flags]() -> int {
    if (!cmd->parsed()) return -1;
    PrecisionSpec precision = parse_precision(flags->precision);
    for (const char* flag : {"--int-bits", "--rounding", "--overflow"})
      if (cmd->count(flag) && precision.kind != PrecisionSpec::Kind::log)
        throw InputError(flag,
                         "applies to log:C precision only (the run uses " + flags->precision + ")");
    precision.int_bits = flags->int_bits;
    precision.rounding = parse_rounding(flags->rounding);
    precision.overflow = parse_overflow(flags->overflow);
    check_int_bits(precision);
    Model model = load_model(flags->model_path);
    std::vector<RunReport> runs;
    for (std::size_t i = 0; i < flags->inputs.size(); ++i)
      runs.push_back(
          run_model(model, flags->inputs[i], "input " + std::to_string(i + 1), precision));
    if (flags->json)
      std::cout << to_json(model, runs, flags->trace).dump(2) << "\n";
    else
      std::cout << format_text(model, runs, flags->trace);
    return 0;
  };
}

}  // namespace rnncc::cli
