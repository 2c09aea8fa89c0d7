// Declared pass pipelines: what is done to a circuit between its compiler and the file it is
// written to, as a list of passes with their parameters, declared in one place per path and run
// by one driver — as CIRCT's firtool declares its pass pipeline and an ABC script lists its
// commands. Two paths declare one:
//
//   as written   compile_passes (circuits/compile/target.hpp): what `rnncc compile` and
//                `rnncc.compile` do after the compiler (compile_as_written):
//                  sweep-dead-gates, then valid-output (symbols = |Σ|) with --valid-output
//   write FILE   netlist_passes (circuits/io/circuit_json.hpp): what write_circuit does before
//                the format's writer, by the file's extension:
//                  .aig/.aag   lower-threshold (a circuit with maj/thr gates), sweep-dead-gates
//                  .blif/.bench sweep-dead-gates (their writers lower maj/thr in the netlist view)
//                  .json       nothing
//
// `rnncc compile --print-pipeline` and `rnncc convert --print-pipeline` print the declaration
// (format_pipeline); `--stats --json` lists what ran, with the gates before and after each pass
// (CompiledCircuit::passes, the report's "passes").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/compiled_circuit.hpp"

namespace rnncc {

enum class PassKind : std::uint8_t {
  sweep_dead_gates,  // circuits/passes/dead_gates.hpp: the gates no output reads, dropped (raw)
  lower_threshold,   // circuits/passes/lower_threshold.hpp: maj/thr as adder–comparators
  valid_output,      // circuits/passes/valid_output.hpp: the output "valid" appended
};
// "sweep-dead-gates" | "lower-threshold" | "valid-output"
std::string to_string(PassKind k);

// One pass of a pipeline and its parameters (symbols: valid-output's |Σ|).
struct PassStep {
  PassKind kind = PassKind::sweep_dead_gates;
  std::size_t symbols = 0;
  bool operator==(const PassStep&) const = default;
};
// The parameters as text: "symbols = 2" for valid-output, "" for the others.
std::string pass_params(const PassStep& step);

// A path's declared pipeline: its stage name ("as written", "write c.aig") and its passes.
struct Pipeline {
  std::string stage;
  std::vector<PassStep> steps;
};

// The pipeline of "as written" (what compile_as_written runs after the compiler): sweep-dead-gates,
// then valid-output (symbols = |Σ|) when `valid_output`.
Pipeline as_written_pipeline(std::size_t symbols, bool valid_output);
// The pipeline of "write <path>", by the extension (write_circuit_file): .aig/.aag lower-threshold
// (when `threshold`: the circuit has maj or thr gates) then sweep-dead-gates; .blif/.bench
// sweep-dead-gates; anything else (.json) none. Netlists hold what an output reads, so ABC and
// Yosys count what rnncc's live size counts.
Pipeline netlist_pipeline(const std::string& path, bool threshold);
// The writer that follows netlist_pipeline, as --print-pipeline names it ("write-aiger (…)");
// an InputError naming `path` for an extension no writer has, as write_circuit's.
std::string netlist_writer(const std::string& path);
// Whether c has a maj or thr gate (netlist_pipeline's `threshold`).
bool has_threshold_gates(const Circuit& c);

// cc after one pass (the pass's CompiledCircuit form: regions and builder figures kept where the
// pass keeps the gates' ids; lower-threshold keeps the inputs' region and one region for the
// rest, as it renumbers every gate).
CompiledCircuit run_pass(const CompiledCircuit& cc, const PassStep& step);

// cc through every pass of p in order, each appended to the result's `passes` (stage, pass,
// parameters, gates before and after). The plain composition of run_pass is the twin the tests
// compare it with.
CompiledCircuit run_pipeline(const CompiledCircuit& cc, const Pipeline& p);

// The pipelines as `--print-pipeline` prints them: the compiler line (when `compiler` is not
// empty: its name and parameters), then per pipeline its stage and one indented line per pass;
// a final line for the writer when `writer` is not empty.
struct PipelinePlan {
  std::string compiler, compiler_params;  // "compile_lrnn", "target = arith, …"
  std::vector<Pipeline> pipelines;
  std::string writer;  // "write-aiger (binary; and-inverter graph: lower_to_aig)", …
};
std::string format_pipeline(const PipelinePlan& plan);
// The same as JSON: {"compiler": {"name", "params"}, "pipelines": [{"stage", "passes": [{"pass",
// "params"}]}], "writer"} (compiler and writer omitted when empty).
nlohmann::ordered_json pipeline_json(const PipelinePlan& plan);

}  // namespace rnncc
