// rnncc run MODEL.json INPUT... [--precision exact|log:C|mod:P] [--scan S] [--trace] [--json]
// rnncc run MODEL.json PROMPT... --generate N [--trace] [--json]   (rnn/generate.hpp)
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/memory.hpp"
#include "algebra/precision.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/io/json_text.hpp"
#include "cli/commands.hpp"
#include "cli/limits.hpp"
#include "rnn/generate.hpp"
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
  std::optional<std::size_t> generate;
  std::optional<std::string> scan;  // --scan: the function of that scan's boolean circuit
  std::uint64_t max_work = kDefaultMaxWork;
  std::size_t max_memory = 0;  // --max-memory (MiB)
};

// run's limits (cli/limits.hpp, algebra/memory.hpp), before any position is evaluated: the
// library's estimate (rnn/run_report.hpp, estimate_run) of the operations, weighted by the size
// of the numbers (exact values grow: a doubling model's entries have t bits at position t), and
// of the trace kept and printed, summed over the inputs.
// A tree scan at log precision (run_with_scan) composes maps: up to 2n combines of
// d·d·(d + m) multiply-adds where a step costs d·d·m, so its work is scaled by 2(d + m)/m.
void check_run_limits(const Model& model, const std::vector<std::vector<std::size_t>>& inputs,
                      const PrecisionSpec& precision, const RunFlags& flags, const Scan& scan) {
  std::uint64_t scale = 1;
  if (precision.kind == PrecisionSpec::Kind::log && scan.kind != ScanKind::sequential)
    if (const auto* l = std::get_if<LrnnLayer>(&model.layers.front().layer))
      scale = 2 * (l->d + l->m) / std::max<std::size_t>(l->m, 1) + 1;
  RunEstimate total;
  for (const auto& ids : inputs) {
    RunEstimate e = estimate_run(model, ids, precision);
    e.operations = saturating_mul(e.operations, scale);
    e.work = saturating_mul(e.work, scale);
    total.positions = saturating_add(total.positions, e.positions);
    total.operations = saturating_add(total.operations, e.operations);
    total.work = saturating_add(total.work, e.work);
    total.memory_bytes = saturating_add(total.memory_bytes, e.memory_bytes);
    total.bits = std::max(total.bits, e.bits);
  }
  const std::string where = std::to_string(total.positions) + " positions in " +
                            std::to_string(inputs.size()) + " input(s), " + describe_layers(model);
  const bool exact = precision.kind == PrecisionSpec::Kind::exact;
  const bool mod = precision.kind == PrecisionSpec::Kind::mod;
  check_work("--max-work", total.work, flags.max_work, "run would take", "work units",
             where + ": about " + std::to_string(total.operations) + " operations on " +
                 (exact ? "exact values of up to " + std::to_string(total.bits) + " bits"
                        : "numbers of " + std::to_string(total.bits) + " bits") +
                 ", each " +
                 (mod ? std::to_string(kModularOperationWork) + " units"
                      : std::to_string(kExactOperationWork) + " × (1 + bits/256)") +
                 ", and every state and output written as text, " + std::to_string(kEntryTextWork) +
                 (mod ? "" : " × (1 + bits/256)") + " each");
  check_memory("--max-memory", total.memory_bytes, flags.max_memory, "run would take",
               "the trace of " + where + ", every state and output kept as numbers and text" +
                   (exact ? ", values of up to " + std::to_string(total.bits) + " bits" : ""));
}

// --generate's limit (cli/limits.hpp), before the first token: the incremental evaluator's
// operations over prompt + N positions (rnn/generate.hpp, estimate_incremental_work: an
// attention layer attends over every earlier position), and with --trace the reference
// evaluator's over the whole sequence.
void check_generation_work(const Model& model, const std::vector<std::vector<std::size_t>>& prompts,
                           const RunFlags& flags) {
  const std::uint64_t n = *flags.generate;
  std::uint64_t work = 0;
  std::size_t longest = 0;
  for (const auto& p : prompts) {
    longest = std::max(longest, p.size());
    const std::uint64_t positions = saturating_add(p.size(), n);
    work = saturating_add(work, estimate_incremental_work(model, positions));
    if (flags.trace)
      work = saturating_add(
          work, saturating_mul(estimate_evaluation_work(model, positions), kExactOperationWork));
  }
  check_work("--max-work", work, flags.max_work, "run --generate would take", "operations",
             std::to_string(prompts.size()) + " prompt(s) up to " + std::to_string(longest) +
                 " tokens, --generate " + std::to_string(n) + ", " + describe_layers(model));
}

// --generate: greedy generation from each prompt (exact semantics), docs/semantics.md,
// "Generation". Text: the generated tokens; --trace adds the per-position trace of the whole
// sequence (prompt + generated); --json the same as JSON.
int run_generation(const GenerativeModel& gm, const RunFlags& flags) {
  if (flags.precision != "exact")
    throw InputError("--generate", "generation runs the exact semantics only (got --precision " +
                                       flags.precision + ")");
  const GenerationRule rule = gm.rule.value_or(GenerationRule{});
  using json = nlohmann::ordered_json;
  json j{{"model", gm.model.name}, {"layers", describe_layers(gm.model)}};
  json stops = json::array();
  for (std::size_t id : rule.stop) stops.push_back(gm.model.alphabet.symbol(id));
  j["generation"] = {{"rule", "argmax"}, {"stop", stops}};
  j["runs"] = json::array();
  std::string text =
      fmt::format("model {}: {}\n", gm.model.name.empty() ? "(unnamed)" : gm.model.name,
                  describe_layers(gm.model));
  std::vector<RunReport> traces;
  std::vector<std::vector<std::size_t>> prompts;
  for (std::size_t i = 0; i < flags.inputs.size(); ++i)
    prompts.push_back(
        gm.model.alphabet.tokenize(flags.inputs[i], "input " + std::to_string(i + 1)));
  check_generation_work(gm.model, prompts, flags);
  for (std::size_t i = 0; i < flags.inputs.size(); ++i) {
    const std::string where = "input " + std::to_string(i + 1);
    const std::vector<std::size_t>& prompt = prompts[i];
    const Generation g = generate(gm.model, RationalField{}, prompt, *flags.generate, rule);
    std::string tokens;
    json list = json::array();
    for (std::size_t u : g.tokens) {
      tokens += (tokens.empty() ? "" : " ") + gm.model.alphabet.symbol(u);
      list.push_back(gm.model.alphabet.symbol(u));
    }
    text += fmt::format(
        "\nprompt {}: {} token{} generated, {}\n  {}\n", gm.model.alphabet.join(prompt),
        g.tokens.size(), g.tokens.size() == 1 ? "" : "s",
        g.stopped ? "stopped on " + gm.model.alphabet.symbol(g.tokens.back()) : "cap reached",
        tokens.empty() ? "(none)" : tokens);
    text += fmt::format("  largest |value|: {}\n", to_string(g.largest));
    j["runs"].push_back({{"prompt", gm.model.alphabet.join(prompt)},
                         {"generated", list},
                         {"stopped", g.stopped},
                         {"largest_value", to_string(g.largest)}});
    if (flags.trace) {
      std::vector<std::size_t> seq = prompt;
      seq.insert(seq.end(), g.tokens.begin(), g.tokens.end());
      traces.push_back(run_model(gm.model, gm.model.alphabet.join(seq), where, PrecisionSpec{}));
    }
  }
  if (flags.json) {
    if (flags.trace) j["trace"] = to_json(gm.model, traces, true)["runs"];
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cout << text;
    if (flags.trace) std::cout << "\n" << format_text(gm.model, traces, true);
  }
  return 0;
}
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
  cmd->add_option("--scan", flags->scan,
                  "compute what the circuit of this prefix network computes (`compile --scan`): "
                  "at log:C a tree scan rounds its compositions (the scan-rounded function, "
                  "docs/semantics.md); sequential, exact and mod:P: the reference run");
  cmd->add_flag("--trace", flags->trace, "also print every layer's state at every position");
  cmd->add_flag("--json", flags->json, "print JSON instead of a table");
  cmd->add_option("--generate", flags->generate,
                  "generate up to N tokens from each INPUT (a prompt): argmax of the last layer, "
                  "stopping at the model's stop tokens (exact semantics)");
  cmd->add_option("--max-work", flags->max_work,
                  "refuse runs estimated above this many operations (positions × the layers' "
                  "per-step work, attention positions², exact values weighted by their size)")
      ->capture_default_str();
  add_max_memory_option(cmd, flags->max_memory, "the trace: positions × state entries");
  return [cmd, flags]() -> int {
    if (!cmd->parsed()) return -1;
    GenerativeModel gm = load_generative_model(flags->model_path);
    if (flags->generate && flags->scan)
      throw InputError("--scan", "not with --generate (generation runs the exact semantics)");
    if (flags->generate) return run_generation(gm, *flags);
    const Scan scan = flags->scan ? parse_scan(*flags->scan) : Scan(ScanKind::sequential);
    PrecisionSpec precision = parse_precision(flags->precision);
    for (const char* flag : {"--int-bits", "--rounding", "--overflow"})
      if (cmd->count(flag) && precision.kind != PrecisionSpec::Kind::log)
        throw InputError(flag,
                         "applies to log:C precision only (the run uses " + flags->precision + ")");
    precision.int_bits = flags->int_bits;
    precision.rounding = parse_rounding(flags->rounding);
    precision.overflow = parse_overflow(flags->overflow);
    check_int_bits(precision);
    const Model& model = gm.model;
    std::vector<std::vector<std::size_t>> ids;
    for (std::size_t i = 0; i < flags->inputs.size(); ++i)
      ids.push_back(model.alphabet.tokenize(flags->inputs[i], "input " + std::to_string(i + 1)));
    check_run_limits(model, ids, precision, *flags, scan);
    std::vector<RunReport> runs;
    for (std::size_t i = 0; i < flags->inputs.size(); ++i)
      runs.push_back(run_with_scan(model, flags->inputs[i], "input " + std::to_string(i + 1),
                                   precision, scan));
    if (flags->json)
      std::cout << json_text(to_json(model, runs, flags->trace), 2) << "\n";
    else
      std::cout << format_text(model, runs, flags->trace);
    return 0;
  };
}

}  // namespace rnncc::cli
