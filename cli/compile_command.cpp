// rnncc compile MODEL.json --length N [--target arith|boolean|threshold] [--precision exact|log:C]
//               [--scan S] [--outputs last|all] [-o CIRCUIT] [--stats] [--json]
// rnncc stats CIRCUIT [--json]
// rnncc convert IN OUT
// CIRCUIT files by extension (circuits/io/circuit_json.hpp): .json, .aig/.aag, .blif, .bench.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "algebra/precision.hpp"
#include "algebra/ranks.hpp"
#include "algebra/suggest.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "cli/commands.hpp"
#include "cli/error_boundary.hpp"
#include "cli/progress.hpp"
#include "rnn/model_json.hpp"

namespace rnncc::cli {

void add_compile_flags(CLI::App* cmd, CompileFlags& f) {
  cmd->add_option("--length,-n", f.length, "input length n")->required();
  cmd->add_option("--scan", f.scan,
                  "sequential, sklansky, kogge-stone, brent-kung, ladner-fischer[:K] or chunked:C "
                  "(DeltaNet)")
      ->capture_default_str();
  cmd->add_option("--outputs", f.outputs, "last (y_n) or all (every y_t)")->capture_default_str();
  cmd->add_option("--structure", f.structure, "auto (diagonal/PD-aware combines) or dense")
      ->capture_default_str();
  cmd->add_option("--max-gates", f.max_gates, "refuse circuits estimated larger than this")
      ->capture_default_str();
  cmd->add_option("--max-memory", f.max_memory_mib,
                  "MiB: refuse compiles whose estimated peak memory is larger (default: half "
                  "this machine's memory)")
      ->capture_default_str();
  cmd->add_option("--target", f.target,
                  "circuit class: arith (over Q), boolean (fan-in-2 and/or/xor/not) or threshold")
      ->capture_default_str();
  cmd->add_option("--precision", f.precision,
                  "exact, or log:C (F = C*ceil(log2(n+1)) fraction bits; boolean and threshold)")
      ->capture_default_str();
  cmd->add_option("--rounding", f.rounding, "log precision: nearest-even or toward-zero")
      ->capture_default_str();
  cmd->add_option("--overflow", f.overflow, "log precision: saturate or error (an output flag)")
      ->capture_default_str();
  cmd->add_option("--int-bits", f.int_bits, "log precision: integer bits I (default F)");
  cmd->add_option("--max-states", f.max_states,
                  "nonlinear models, boolean: refuse more reachable states than this")
      ->capture_default_str();
  cmd->add_flag("--valid-output", f.valid_output,
                "boolean and threshold: append the output 'valid' (every position has exactly one "
                "symbol), to restrict equivalence checks to strings (docs/formats.md)");
}

CompiledCircuit compile_from_flags(const std::string& model_path, const CompileFlags& f) {
  return compile_as_written(load_model(model_path), f.length, parse_target_options(f));
}

namespace {
struct CompileCommand {
  std::string model_path, output;
  CompileFlags flags;
  bool stats = false, json = false, print_pipeline = false;
};
struct StatsCommand {
  std::string circuit_path;
  bool json = false;
  std::size_t max_memory_mib = default_max_memory_mib();
};
struct ConvertCommand {
  std::string in, out;
  std::size_t max_memory_mib = default_max_memory_mib();
  bool print_pipeline = false, json = false;
};

// --max-memory of the commands that read a circuit file (the estimate: the file's size × the
// factor measured for its format, circuits/io/circuit_json.hpp).
void add_max_memory_flag(CLI::App* cmd, std::size_t& mib) {
  cmd->add_option("--max-memory", mib,
                  "MiB: refuse circuit files whose estimated peak memory is larger (default: "
                  "half this machine's memory)")
      ->capture_default_str();
}

// What the out-of-memory diagnostic names while a circuit file is read and used
// (cli/error_boundary.hpp).
void circuit_file_activity(const std::string& doing, std::size_t max_memory_mib) {
  set_activity(doing, "--max-memory (now " + std::to_string(max_memory_mib) +
                          " MiB) to what this machine can give, so that the estimate refuses "
                          "such a file first");
}

// The report's own memory (its AIG count lowers and strashes a copy), refused before it is
// built, and before any output is written.
void check_report_memory(const CompiledCircuit& c, std::size_t max_memory_mib) {
  std::string detail;
  const std::uint64_t bytes = estimate_report_memory(c, &detail);
  check_memory("--max-memory", bytes, max_memory_mib, "measuring the circuit would take", detail);
}

// --print-pipeline: the plan as text or JSON on stdout.
void print_pipeline(const PipelinePlan& plan, bool json) {
  if (json)
    std::cout << json_text(pipeline_json(plan), 2) << "\n";
  else
    std::cout << format_pipeline(plan);
}

// `function`: the scan-rounded function's disagreement with the sequential rule, where the
// circuit computes it (scan_function_disagreement): a "function" member of the JSON.
void print_report(const CompiledCircuit& c, bool json,
                  const std::optional<ScanDisagreement>& function = std::nullopt,
                  const std::string& scan = "") {
  CircuitReport r = report_circuit(c);
  if (json) {
    nlohmann::ordered_json j = to_json(r);
    if (function)
      j["function"] = {{"name", "scan-rounded (" + scan + ")"},
                       {"differs_from_sequential_rule", function->differing > 0},
                       {"strings", function->strings},
                       {"differing", function->differing}};
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cout << format_text(r);
  }
}
}  // namespace

Action add_compile_command(CLI::App& app) {
  auto f = std::make_shared<CompileCommand>();
  CLI::App* cmd = app.add_subcommand(
      "compile",
      "Compile a model for inputs of length n into an arithmetic, boolean or threshold circuit");
  cmd->add_option("MODEL", f->model_path, "model file (JSON)")->required();
  add_compile_flags(cmd, f->flags);
  cmd->add_option("-o,--output", f->output,
                  "write the circuit: .json, .aig, .aag, .blif or .bench (docs/formats.md)");
  cmd->add_flag("--stats", f->stats, "print size, depth and gate counts (the default without -o)");
  cmd->add_flag("--json", f->json, "statistics as JSON");
  cmd->add_flag("--print-pipeline", f->print_pipeline,
                "print the compiler and the passes it would run (and -o's writer), then stop "
                "without compiling (--json: as JSON)");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    if (f->print_pipeline) {
      print_pipeline(compile_plan(load_model(f->model_path), f->flags.length,
                                  parse_target_options(f->flags), f->output),
                     f->json);
      return 0;
    }
    // The output is opened before the work: an unwritable target is refused at once, and the
    // temporary file beside it is removed on any error or signal (circuits/io/output_file.hpp).
    std::optional<OutputFile> out;
    if (!f->output.empty()) out.emplace(f->output);
    std::optional<ProgressTask> task;
    task.emplace(progress(), "compiling " + f->model_path, 0, "");
    task->detail("n = " + std::to_string(f->flags.length));
    const std::string lower =
        "--length/-n (or --max-memory, now " + std::to_string(f->flags.max_memory_mib) +
        " MiB, to what this machine can give, so that the estimate refuses such work first)";
    set_activity("compiling " + f->model_path + " for n = " + std::to_string(f->flags.length),
                 lower);
    // The circuit as written: only the live gates. --stats describes it, as `stats` of the
    // file does, and says how many dead gates the sweep removed (compile_as_written).
    const Model model = load_model(f->model_path);
    const TargetOptions options = parse_target_options(f->flags);
    CompiledCircuit c = compile_as_written(model, f->flags.length, options);
    const bool report = f->stats || f->output.empty();
    if (report) check_report_memory(c, f->flags.max_memory_mib);
    if (out) {
      task.emplace(progress(), "writing " + f->output, 0, "");
      set_activity("writing " + f->output, lower);
      const std::vector<PassRecord> written = write_circuit(c, *out);  // streamed
      c.passes.insert(c.passes.end(), written.begin(), written.end());
    }
    task.reset();
    if (report) {
      set_activity("measuring the circuit (--stats)", lower);
      // Where the circuit's function is not the model's sequential rule, say which it is: the
      // scan-rounded function of a tree scan (measured on random strings of length n), the
      // diagonal threshold route's product rounded once.
      set_activity("comparing the circuit's function with the sequential rule", lower);
      const std::optional<ScanDisagreement> scan_function =
          scan_function_disagreement(model, f->flags.length, options);
      print_report(c, f->json, scan_function, to_string(options.compile.scan));
      const char* note = circuit_function_note(model, options);
      if (note && !f->json) std::cout << "function: " << note << "\n";
      const std::string scan_note =
          scan_function ? scan_function_note(*scan_function, f->flags.length, options.compile.scan)
                        : "";
      if (!scan_note.empty() && !f->json) std::cout << "function: " << scan_note << "\n";
      // The threshold routes' depth bound for every n, and where this n stands.
      const auto bound = f->json ? std::nullopt
                                 : threshold_depth_text(model, f->flags.length, options,
                                                        std::max<std::size_t>(f->flags.length, 64));
      if (bound) std::cout << "depth bound: " << *bound << "\n";
    }
    return 0;
  };
}

Action add_stats_command(CLI::App& app) {
  auto f = std::make_shared<StatsCommand>();
  CLI::App* cmd =
      app.add_subcommand("stats", "Print size, depth, fan-in and gate counts of a circuit file");
  cmd->add_option("CIRCUIT", f->circuit_path, "circuit file: .json, .aig, .aag, .blif or .bench")
      ->required();
  cmd->add_flag("--json", f->json, "print JSON");
  add_max_memory_flag(cmd, f->max_memory_mib);
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    check_circuit_file_memory(f->circuit_path, CircuitFileUse::stats, f->max_memory_mib, "stats");
    circuit_file_activity("reading " + f->circuit_path, f->max_memory_mib);
    const CompiledCircuit c = load_circuit(f->circuit_path);
    check_report_memory(c, f->max_memory_mib);
    circuit_file_activity("measuring " + f->circuit_path, f->max_memory_mib);
    print_report(c, f->json);
    return 0;
  };
}

// rnncc convert IN OUT: formats by extension (.json, .aig, .aag, .blif, .bench).
Action add_convert_command(CLI::App& app) {
  auto g = std::make_shared<ConvertCommand>();
  CLI::App* conv = app.add_subcommand(
      "convert",
      "Convert a circuit file to another format (by extension: .json, .aig, .aag, .blif, .bench)");
  conv->add_option("IN", g->in, "circuit file to read")->required();
  conv->add_option("OUT", g->out, "circuit file to write")->required();
  add_max_memory_flag(conv, g->max_memory_mib);
  conv->add_flag("--print-pipeline", g->print_pipeline,
                 "print the passes the write would run on IN and the writer, then stop without "
                 "writing OUT");
  conv->add_flag("--json", g->json, "--print-pipeline as JSON");
  return [conv, g]() -> int {
    if (!conv->parsed()) return -1;
    check_circuit_file_memory(g->in, CircuitFileUse::read, g->max_memory_mib, "convert");
    if (g->print_pipeline) {
      circuit_file_activity("reading " + g->in, g->max_memory_mib);
      const CompiledCircuit c = load_circuit(g->in);
      PipelinePlan plan;
      plan.pipelines.push_back(netlist_pipeline(g->out, has_threshold_gates(c.circuit)));
      plan.writer = netlist_writer(g->out);
      print_pipeline(plan, g->json);
      return 0;
    }
    OutputFile out(g->out);
    circuit_file_activity("reading " + g->in, g->max_memory_mib);
    const CompiledCircuit c = load_circuit(g->in);
    circuit_file_activity("writing " + g->out, g->max_memory_mib);
    write_circuit(c, out);
    return 0;
  };
}

}  // namespace rnncc::cli

#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/bulk.hpp"
#include "cli/limits.hpp"
#include "verify/circuit_against_model.hpp"

namespace rnncc::cli {

namespace {
// eval's limits (cli/limits.hpp), before any pattern is drawn: word operations = patterns × gates
// (a boolean circuit evaluates 64 patterns a word), and with --outputs the patterns evaluated
// exactly (multi-modular, several primes each) and the values printed = patterns × outputs
// (each kept exactly until printed). An exhaustive run over more inputs
// than BulkOptions allows is refused by evaluate_bulk itself, naming --batch.
void check_eval_work(const Circuit& c, const BulkOptions& o, bool outputs, std::uint64_t max_work,
                     std::uint64_t max_patterns, std::uint64_t max_values) {
  const std::size_t inputs = c.inputs().size();
  if (o.exhaustive && inputs > o.max_exhaustive_inputs) return;  // evaluate_bulk's diagnostic
  const std::uint64_t patterns =
      o.exhaustive ? (inputs < 64 ? std::uint64_t{1} << inputs : UINT64_MAX) : o.batch;
  const std::string source = o.exhaustive ? "2^" + std::to_string(inputs) + " patterns"
                                          : std::to_string(patterns) + " patterns";
  const bool boolean = is_boolean(c);
  const std::uint64_t words = boolean ? patterns / 64 + (patterns % 64 != 0) : patterns;
  check_work("--max-work", saturating_mul(words, c.size()), max_work, "eval would take",
             "word operations",
             source + " × " + std::to_string(c.size()) + " gates" +
                 (boolean ? ", 64 patterns a word" : ""));
  if (!outputs) return;
  check_work("--max-patterns", patterns, max_patterns, "eval --outputs would evaluate exactly",
             "patterns", o.exhaustive ? source : "");
  check_work("--max-values", saturating_mul(patterns, c.outputs().size()), max_values,
             "eval --outputs would print", "values",
             source + " × " + std::to_string(c.outputs().size()) + " outputs");
}
}  // namespace

// eval --against: the check in the library, printed; exit 1 when a string differs.
int eval_against(const std::string& model_path, const std::string& circuit_path,
                 const TargetText& text, std::size_t strings, bool exhaustive, std::uint64_t seed,
                 bool json, bool other_mode, std::size_t max_memory_mib, std::uint64_t max_work) {
  if (other_mode)
    throw InputError("--against",
                     "checks on the CPU in one process: leave out --outputs, --checkpoint, "
                     "--device gpu and mpirun");
  check_circuit_file_memory(circuit_path, CircuitFileUse::eval, max_memory_mib, "eval");
  circuit_file_activity("reading " + circuit_path, max_memory_mib);
  const CompiledCircuit c = load_circuit(circuit_path);
  const Model model = load_model(model_path);
  AgainstModelOptions o;
  TargetText t = text;  // the target is the circuit's kind
  t.target = is_boolean(c.circuit) ? "boolean" : "arith";
  o.target = parse_target_options(t);
  o.strings = strings;
  o.exhaustive = exhaustive;
  o.seed = seed;
  if (!exhaustive)
    check_work("--max-work", saturating_mul(strings, c.circuit.size()), max_work,
               "eval --against would take", "gate evaluations",
               fmt::format("{} strings × {} gates", strings, c.circuit.size()));
  set_activity("checking " + circuit_path + " against " + model_path, "--batch");
  const AgainstModelReport r = check_circuit_against_model(c.circuit, model, o);
  if (json) {
    nlohmann::ordered_json j{{"circuit", circuit_path}, {"model", model_path}};
    j.update(to_json(r));
    std::cout << json_text(j, 2) << "\n";
  } else {
    std::cout << format_text(r, circuit_path, model_path);
  }
  return r.differing ? 1 : 0;
}

// rnncc eval CIRCUIT.(json|aig|aag|blif|bench) [--batch N | --exhaustive] [--seed S]
// [--device cpu|gpu] [--outputs] [--json]
// [--against MODEL [--precision P] [--scan S] [--int-bits I]]: the circuit against the model's
// function of that precision and scan (verify/circuit_against_model.hpp); exit 1 when refuted.
Action add_eval_command(CLI::App& app) {
  struct Flags {
    std::string path, device = "cpu";
    BulkOptions options;
    bool json = false, outputs = false;
    std::optional<std::string> checkpoint;
    std::uint64_t max_work = kDefaultMaxWork, max_patterns = 100000,
                  max_values = std::uint64_t{1} << 22;
    std::size_t max_memory_mib = default_max_memory_mib();
    std::optional<std::string> against;
    TargetText target;  // --against: the precision and scan the circuit was compiled with
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "eval",
      "Evaluate a circuit on many inputs (all cores) and print a digest and the throughput");
  cmd->add_option("CIRCUIT", f->path,
                  "circuit file: JSON, AIGER (.aig, .aag), BLIF (.blif) or ISCAS (.bench)")
      ->required();
  auto* batch = cmd->add_option("--batch", f->options.batch, "random patterns (seeded)")
                    ->capture_default_str();
  cmd->add_flag("--exhaustive", f->options.exhaustive,
                "every 0/1 assignment of the inputs (≤ 2^32)")
      ->excludes(batch);
  cmd->add_option("--seed", f->options.seed, "seed of the random patterns")->capture_default_str();
  cmd->add_option("--device", f->device, "cpu or gpu")->capture_default_str();
  cmd->add_flag("--outputs", f->outputs,
                "print every output of every pattern, exactly (arithmetic: multi-modular + CRT)");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_option("--checkpoint", f->checkpoint,
                  "evaluate in blocks, recorded in this file; a rerun resumes where a killed "
                  "run stopped (also under mpirun: docs/performance.md, \"Past one machine\")");
  cmd->add_option("--max-work", f->max_work,
                  "refuse evaluations estimated above this many word operations (patterns × "
                  "gates; boolean: 64 patterns a word)")
      ->capture_default_str();
  cmd->add_option("--max-patterns", f->max_patterns,
                  "--outputs: refuse evaluating more patterns than this exactly")
      ->capture_default_str();
  cmd->add_option("--max-values", f->max_values,
                  "--outputs: refuse printing more values than this (patterns × outputs)")
      ->capture_default_str();
  add_max_memory_flag(cmd, f->max_memory_mib);
  cmd->add_option("--against", f->against,
                  "check the circuit against this model's function of --precision and --scan "
                  "(the scan-rounded function for boolean circuits; docs/semantics.md): strings "
                  "of the circuit's length, --batch random ones (default 1000) or --exhaustive");
  cmd->add_option("--precision", f->target.precision,
                  "--against: the precision the circuit was compiled with (exact or log:C)")
      ->capture_default_str();
  cmd->add_option("--scan", f->target.scan, "--against: the scan the circuit was compiled with")
      ->capture_default_str();
  cmd->add_option("--int-bits", f->target.int_bits,
                  "--against: the integer bits the circuit was compiled with (default F)");
  return [cmd, f, batch]() -> int {
    if (!cmd->parsed()) return -1;
    for (const char* flag : {"--precision", "--scan", "--int-bits"})
      if (!f->against && cmd->count(flag) > 0)
        throw InputError(flag, "is read with --against MODEL only");
    if (f->against)
      return eval_against(*f->against, f->path, f->target, batch->count() ? f->options.batch : 1000,
                          f->options.exhaustive, f->options.seed, f->json,
                          f->outputs || f->checkpoint || f->device != "cpu" || launcher_ranks() > 0,
                          f->max_memory_mib, f->max_work);
    if (f->device != "cpu" && f->device != "gpu")
      throw InputError("--device", with_suggestion("'" + f->device + "': expected cpu or gpu",
                                                   f->device, {"cpu", "gpu"}));
    f->options.device = f->device == "gpu" ? BulkDevice::gpu : BulkDevice::cpu;
    check_circuit_file_memory(f->path, CircuitFileUse::eval, f->max_memory_mib, "eval");
    circuit_file_activity("reading " + f->path, f->max_memory_mib);
    const CompiledCircuit c = load_circuit(f->path);
    check_eval_work(c.circuit, f->options, f->outputs, f->max_work, f->max_patterns, f->max_values);
    set_activity("evaluating " + f->path,
                 f->outputs ? "--batch (or --max-patterns, --max-values)" : "--batch");
    Ranks& ranks = world_ranks();
    const bool sharded = f->checkpoint || launcher_ranks() > 0;
    if (f->outputs && sharded)
      throw InputError(f->checkpoint ? "--checkpoint" : "mpirun",
                       "--outputs prints every pattern from one process: run it without "
                       "mpirun and --checkpoint");
    if (f->outputs) {
      std::optional<ProgressTask> task;
      task.emplace(progress(), "evaluating " + f->path + " exactly", 0, "");
      const ExactOutputs x = evaluate_exact(c.circuit, f->options, f->max_patterns);
      task.reset();
      if (!x.notice.empty()) std::cerr << "rnncc: " << x.notice << "\n";
      if (f->json) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const auto& row : x.values) {
          nlohmann::ordered_json r = nlohmann::ordered_json::array();
          for (const Rational& v : row) r.push_back(to_string(v));
          rows.push_back(r);
        }
        std::cout << json_text(nlohmann::ordered_json{{"circuit", f->path},
                                                      {"device", x.device},
                                                      {"primes", x.primes},
                                                      {"outputs", rows}})
                  << "\n";
      } else {
        std::cout << fmt::format(
            "{}: {} patterns on {}{}\n", f->path, x.values.size(), x.device,
            x.primes.empty() ? "" : fmt::format(", exact from {} prime(s)", x.primes.size()));
        for (std::size_t k = 0; k < x.values.size(); ++k) {
          std::vector<std::string> vs;
          for (const Rational& v : x.values[k]) vs.push_back(to_string(v));
          std::cout << fmt::format("  {}: {}\n", k, fmt::join(vs, " "));
        }
      }
      return 0;
    }
    f->options.progress = &progress();
    f->options.progress_label = "evaluating " + f->path;
    const BulkResult r =
        sharded ? evaluate_bulk_sharded(c.circuit, f->options, ranks, f->checkpoint, f->path)
                : evaluate_bulk(c.circuit, f->options);
    if (!r.notice.empty()) std::cerr << "rnncc: " << r.notice << "\n";
    const std::string kind = r.boolean ? "boolean" : fmt::format("arithmetic mod {}", r.modulus);
    if (f->json) {
      nlohmann::ordered_json j{{"circuit", f->path},
                               {"device", r.device},
                               {"kind", kind},
                               {"patterns", r.patterns},
                               {"per_output", r.per_output},
                               {"fingerprint", fmt::format("{:016x}", r.fingerprint)},
                               {"seconds", r.seconds},
                               {"gate_evaluations_per_pattern", r.gate_evaluations_per_pattern},
                               {"gate_evaluations_per_second", r.gate_evaluations_per_second}};
      std::cout << json_text(j, 2) << "\n";
    } else {
      std::cout << fmt::format("{}: {} circuit, {} patterns on {}\n", f->path, kind, r.patterns,
                               r.device);
      std::cout << fmt::format("  {}: {}\n", r.boolean ? "ones per output" : "Σ per output",
                               fmt::join(r.per_output, " "));
      std::cout << fmt::format(
          "  fingerprint {:016x}\n  {:.3f} s, {} two-input gates, {:.3e} gate evaluations/s\n",
          r.fingerprint, r.seconds, r.gate_evaluations_per_pattern, r.gate_evaluations_per_second);
    }
    return 0;
  };
}

}  // namespace rnncc::cli
