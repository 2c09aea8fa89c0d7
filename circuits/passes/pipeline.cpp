#include "circuits/passes/pipeline.hpp"

#include <stdexcept>

#include "algebra/error.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/valid_output.hpp"

namespace rnncc {

std::string to_string(PassKind k) {
  switch (k) {
    case PassKind::sweep_dead_gates:
      return "sweep-dead-gates";
    case PassKind::lower_threshold:
      return "lower-threshold";
    case PassKind::valid_output:
      return "valid-output";
  }
  throw std::logic_error("to_string: unknown pass kind");
}

std::string pass_params(const PassStep& step) {
  return step.kind == PassKind::valid_output ? "symbols = " + std::to_string(step.symbols) : "";
}

Pipeline as_written_pipeline(std::size_t symbols, bool valid_output) {
  Pipeline p{"as written", {{PassKind::sweep_dead_gates}}};
  if (valid_output) p.steps.push_back({PassKind::valid_output, symbols});
  return p;
}

namespace {
bool is_aiger(const std::string& path) {
  return path.ends_with(".aig") || path.ends_with(".aag");
}
bool is_netlist(const std::string& path) {
  return is_aiger(path) || path.ends_with(".blif") || path.ends_with(".bench");
}
}  // namespace

Pipeline netlist_pipeline(const std::string& path, bool threshold) {
  Pipeline p{"write " + path, {}};
  if (is_aiger(path) && threshold) p.steps.push_back({PassKind::lower_threshold});
  if (is_netlist(path)) p.steps.push_back({PassKind::sweep_dead_gates});
  return p;
}

std::string netlist_writer(const std::string& path) {
  if (path.ends_with(".aig"))
    return "write-aiger (binary; and/or/xor/not lowered to an and-inverter graph: lower_to_aig)";
  if (path.ends_with(".aag"))
    return "write-aiger (ASCII; and/or/xor/not lowered to an and-inverter graph: lower_to_aig)";
  if (path.ends_with(".blif"))
    return "write-blif (maj/thr lowered in the netlist view: lower_threshold_gates)";
  if (path.ends_with(".bench"))
    return "write-bench (maj/thr lowered in the netlist view: lower_threshold_gates)";
  if (path.ends_with(".json")) return "write-json (the circuit and its regions as they are)";
  throw InputError(path, "expected an output file ending in .json, .aig, .aag, .blif or .bench");
}

bool has_threshold_gates(const Circuit& c) {
  for (GateId id = 0; id < c.size(); ++id)
    if (c.kind(id) == GateKind::maj || c.kind(id) == GateKind::thr) return true;
  return false;
}

CompiledCircuit run_pass(const CompiledCircuit& cc, const PassStep& step) {
  switch (step.kind) {
    case PassKind::sweep_dead_gates:
      return sweep_dead_gates(cc);
    case PassKind::valid_output:
      return with_valid_output(cc, step.symbols);
    case PassKind::lower_threshold: {
      // Every gate renumbered: the inputs keep their region, the rest is one region (the
      // lowering does not map the threshold circuit's regions onto the adders it builds).
      CompiledCircuit out;
      out.circuit = lower_threshold_gates(cc.circuit);
      out.regions.push_back({.kind = RegionKind::input, .first_gate = 0});
      out.regions.push_back(
          {.kind = RegionKind::combine,
           .first_gate = static_cast<std::uint32_t>(out.circuit.inputs().size())});
      out.combine_levels = cc.combine_levels;
      out.requested_gates = cc.requested_gates;
      out.dead_gates_swept = cc.dead_gates_swept;
      out.dead_gates_note = cc.dead_gates_note;
      return out;
    }
  }
  throw std::logic_error("run_pass: unknown pass kind");
}

CompiledCircuit run_pipeline(const CompiledCircuit& cc, const Pipeline& p) {
  if (p.steps.empty()) return cc;
  // No copy of cc up front: the first pass reads it, each later one its predecessor's result
  // (freed as the next replaces it), so a pipeline holds at most two circuits at once.
  std::vector<PassRecord> passes = cc.passes;
  CompiledCircuit cur;
  const CompiledCircuit* in = &cc;
  for (const PassStep& step : p.steps) {
    const std::size_t before = in->circuit.size();
    CompiledCircuit next = run_pass(*in, step);
    passes.push_back(
        {p.stage, to_string(step.kind), pass_params(step), before, next.circuit.size()});
    cur = std::move(next);
    in = &cur;
  }
  cur.passes = std::move(passes);
  return cur;
}

std::string format_pipeline(const PipelinePlan& plan) {
  std::string out;
  if (!plan.compiler.empty())
    out += "compile\n  " + plan.compiler +
           (plan.compiler_params.empty() ? "" : " (" + plan.compiler_params + ")") + "\n";
  for (const Pipeline& p : plan.pipelines) {
    out += p.stage + "\n";
    if (p.steps.empty()) out += "  (no pass)\n";
    for (const PassStep& step : p.steps) {
      const std::string params = pass_params(step);
      out += "  " + to_string(step.kind) + (params.empty() ? "" : " (" + params + ")") + "\n";
    }
  }
  if (!plan.writer.empty()) out += "  " + plan.writer + "\n";
  return out;
}

nlohmann::ordered_json pipeline_json(const PipelinePlan& plan) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!plan.compiler.empty())
    j["compiler"] = {{"name", plan.compiler}, {"params", plan.compiler_params}};
  nlohmann::ordered_json pipelines = nlohmann::ordered_json::array();
  for (const Pipeline& p : plan.pipelines) {
    nlohmann::ordered_json passes = nlohmann::ordered_json::array();
    for (const PassStep& step : p.steps)
      passes.push_back({{"pass", to_string(step.kind)}, {"params", pass_params(step)}});
    pipelines.push_back({{"stage", p.stage}, {"passes", std::move(passes)}});
  }
  j["pipelines"] = std::move(pipelines);
  if (!plan.writer.empty()) j["writer"] = plan.writer;
  return j;
}

}  // namespace rnncc
