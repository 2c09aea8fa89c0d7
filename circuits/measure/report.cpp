#include "circuits/measure/report.hpp"

#include <fmt/format.h>

#include "circuits/compile/common.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/strash.hpp"

namespace rnncc {

CircuitReport report_circuit(const CompiledCircuit& cc) {
  CircuitReport r;
  r.stats = compute_stats(cc.circuit);
  r.combine_levels = cc.combine_levels;
  r.dead_gates_swept = cc.dead_gates_swept;
  r.dead_gates_note = cc.dead_gates_note;
  r.passes = cc.passes;
  r.constants = r.stats.by_kind[static_cast<std::size_t>(GateKind::constant)];
  const auto live = live_table(cc.circuit);
  std::size_t used = 0;
  for (GateId in : cc.circuit.inputs()) used += live[in];
  r.depth_lower_bound = static_cast<std::uint32_t>(ceil_log2(used));
  bool boolean = true, threshold = false;
  for (GateId g = 0; g < cc.circuit.size() && boolean; ++g) {
    const GateKind k = cc.circuit.kind(g);
    const GateFamily f = info(k).family;
    if (k == GateKind::constant)
      boolean = cc.circuit.constant(g) == 0 || cc.circuit.constant(g) == 1;
    else if (f == GateFamily::threshold)
      threshold = true;
    else if (k != GateKind::input && f != GateFamily::boolean)
      boolean = false;
  }
  if (boolean) {
    const Circuit aig = strash(threshold ? lower_threshold_gates(cc.circuit) : cc.circuit);
    r.and_nodes = and_count(aig);
    r.and_levels = aig_levels(aig);
  }
  if (boolean && !threshold) {
    const auto count = [&](GateKind k) { return r.stats.by_kind[static_cast<std::size_t>(k)]; };
    r.logic_gates = count(GateKind::and_) + count(GateKind::or_) + count(GateKind::xor_);
    r.not_gates = count(GateKind::not_);
  }
  return r;
}

nlohmann::ordered_json to_json(const CircuitReport& r) {
  nlohmann::ordered_json j;
  const CircuitStats& s = r.stats;
  const auto optional = [](const auto& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
  };
  j["size"] = s.size;
  j["live_size"] = s.live_size;
  j["operations"] = s.operations();
  j["depth"] = s.depth;
  j["bounded_fanin_depth"] = s.bounded_fanin_depth;
  j["depth_counting_not"] = s.depth_counting_not;
  j["max_fanin"] = s.max_fanin;
  j["inputs"] = s.inputs;
  j["outputs"] = s.outputs;
  nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < kGateKindCount; ++k)
    if (s.by_kind[k]) kinds[std::string(kGateKinds[k].name)] = s.by_kind[k];
  j["by_kind"] = kinds;
  j["logic_gates"] = optional(r.logic_gates);
  j["not_gates"] = optional(r.not_gates);
  j["combine_levels"] = r.combine_levels;
  j["depth_lower_bound"] = r.depth_lower_bound;
  j["and_nodes"] = optional(r.and_nodes);
  j["and_levels"] = optional(r.and_levels);
  j["width"] = s.width;
  if (r.dead_gates_swept) {
    j["dead_gates_swept"] = *r.dead_gates_swept;
    if (!r.dead_gates_note.empty()) j["dead_gates_note"] = r.dead_gates_note;
  }
  if (!r.passes.empty()) {
    nlohmann::ordered_json passes = nlohmann::ordered_json::array();
    for (const PassRecord& p : r.passes)
      passes.push_back({{"stage", p.stage},
                        {"pass", p.pass},
                        {"params", p.params},
                        {"gates_before", p.gates_before},
                        {"gates_after", p.gates_after}});
    j["passes"] = std::move(passes);
  }
  return j;
}

std::string format_text(const CircuitReport& r) {
  const CircuitStats& s = r.stats;
  std::string kinds;
  for (std::size_t k = 0; k < kGateKindCount; ++k)
    if (s.by_kind[k])
      kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", kGateKinds[k].name, s.by_kind[k]);
  std::size_t widest = 0;
  for (std::size_t w : s.width) widest = std::max(widest, w);
  const std::size_t nots = s.by_kind[static_cast<std::size_t>(GateKind::not_)];
  // The NOT-free convention is named only where it matters: circuits with NOT gates.
  const std::string depth =
      nots ? fmt::format(
                 "{} (unbounded fan-in, NOT free), {} (fan-in 2, NOT free); {} counting "
                 "NOT as a level",
                 s.depth, s.bounded_fanin_depth, s.depth_counting_not)
           : fmt::format("{} (unbounded fan-in), {} (fan-in 2)", s.depth, s.bounded_fanin_depth);
  std::string gates, swept;
  if (r.dead_gates_swept)
    swept = fmt::format(
        "swept         {} dead gates before writing; the figures are the written "
        "circuit's{}\n",
        *r.dead_gates_swept, r.dead_gates_note.empty() ? "" : " (" + r.dead_gates_note + ")");
  if (r.logic_gates)
    gates = fmt::format("logic gates   {} and/or/xor, {} not\n", *r.logic_gates, *r.not_gates);
  return fmt::format(
      "size          {} gates ({} operations, {} inputs, {} constants), {} outputs\n"
      "depth         {}; lower bound for fan-in 2: {}\n"
      "live size     {} gates (read by an output, inputs included)\n"
      "{}"
      "max fan-in    {}\n"
      "combine levels {}\n"
      "AIG           {}\n"
      "widest level  {} gates\n"
      "by kind       {}\n"
      "{}",
      s.size, s.operations(), s.inputs, r.constants, s.outputs, depth, r.depth_lower_bound,
      s.live_size, gates, s.max_fanin, r.combine_levels,
      r.and_levels ? fmt::format("{} ANDs, {} levels (after strash, as ABC's print_stats)",
                                 *r.and_nodes, *r.and_levels)
                   : std::string("— (arithmetic gates)"),
      widest, kinds, swept);
}

}  // namespace rnncc
