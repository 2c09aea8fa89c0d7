// rnncc draw (MODEL.json --length N [--scan S] | CIRCUIT.json) -o OUT.(svg|png|dot) [--collapse]
// [--highlight critical] [--target arith|boolean|threshold] [--precision exact|log:C]
#include <iostream>
#include <memory>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/error_boundary.hpp"
#include "viz/draw_circuit.hpp"

namespace rnncc::cli {

namespace {
struct DrawCommand {
  std::string input, output, highlight;
  CompileFlags flags;
  bool collapse = false;
  std::size_t max_nodes = 4000;
  DrawCommand() { flags.max_gates = std::size_t{1} << 20; }  // a drawing's compile budget
};
}  // namespace

Action add_draw_command(CLI::App& app) {
  auto f = std::make_shared<DrawCommand>();
  CLI::App* cmd = app.add_subcommand(
      "draw",
      "Draw a circuit (a circuit file, or a model compiled with --length) to SVG, PNG or DOT");
  cmd->add_option("INPUT", f->input, "MODEL.json (with --length) or CIRCUIT.json")->required();
  cmd->add_option("--length,-n", f->flags.length, "compile the model for this length first");
  cmd->add_option("--scan", f->flags.scan, "scan strategy when compiling a model")
      ->capture_default_str();
  cmd->add_option("--outputs", f->flags.outputs, "last or all, when compiling a model")
      ->capture_default_str();
  cmd->add_option("--structure", f->flags.structure, "auto or dense, when compiling a model")
      ->capture_default_str();
  cmd->add_option("--target", f->flags.target,
                  "arith, boolean or threshold, when compiling a model")
      ->capture_default_str();
  cmd->add_option("--precision", f->flags.precision,
                  "exact or log:C (boolean and threshold targets), when compiling a model")
      ->capture_default_str();
  cmd->add_option("-o,--output", f->output, "OUT.svg, OUT.png or OUT.dot")->required();
  cmd->add_flag("--collapse", f->collapse, "draw each region (leaf, combine, readout) as one box");
  cmd->add_option("--highlight", f->highlight, "critical: highlight a longest path");
  cmd->add_option("--max-nodes", f->max_nodes, "refuse drawings of more nodes than this")
      ->capture_default_str();
  cmd->add_option("--max-gates", f->flags.max_gates,
                  "when compiling a model: refuse circuits estimated larger than this")
      ->capture_default_str();
  cmd->add_option("--max-memory", f->flags.max_memory_mib,
                  "MiB: refuse compiles and circuit files whose estimated peak memory is larger "
                  "(default: half this machine's memory)")
      ->capture_default_str();
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    DrawOptions o;
    o.format = draw_format_for(f->output);
    o.collapse = f->collapse;
    o.max_nodes = f->max_nodes;
    if (!f->highlight.empty() && f->highlight != "critical")
      throw InputError("--highlight", "'" + f->highlight + "': expected critical");
    o.highlight_critical = f->highlight == "critical";
    const bool compiling = f->flags.length > 0 || cmd->count("--length") > 0;
    if (!compiling)
      check_circuit_file_memory(f->input, CircuitFileUse::read, f->flags.max_memory_mib, "draw");
    OutputFile out(f->output);  // before the work (circuits/io/output_file.hpp)
    const std::string memory = "--max-memory (now " + std::to_string(f->flags.max_memory_mib) +
                               " MiB) to what this machine can give, so that the estimate "
                               "refuses first";
    set_activity((compiling ? "compiling " : "reading ") + f->input,
                 compiling ? "--length/-n (or " + memory + ")" : memory);
    CompiledCircuit c = compiling ? compile_from_flags(f->input, f->flags) : load_circuit(f->input);
    // The title: the model, n, the scan where the target has one (threshold circuits are
    // constant-depth sums, no scan), and the target when it is not arith.
    if (f->flags.length > 0)
      o.title =
          f->input + ", n = " + std::to_string(f->flags.length) +
          (parse_target(f->flags.target) != CircuitTarget::threshold ? ", " + f->flags.scan : "") +
          (parse_target(f->flags.target) != CircuitTarget::arithmetic
               ? ", target " + f->flags.target + " (" + f->flags.precision + ")"
               : "");
    set_activity("drawing " + f->output, "--max-nodes");
    out.write(draw_circuit(c, o));
    out.commit();
    return 0;
  };
}

}  // namespace rnncc::cli
