#include "circuits/report.hpp"

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
  return r;
}

nlohmann::ordered_json to_json(const CircuitReport& r) {
  nlohmann::ordered_json j;
  const CircuitStats& s = r.stats;
  j["size"] = s.size;
  j["operations"] = s.operations();
  j["depth"] = s.depth;
  j["bounded_fanin_depth"] = s.bounded_fanin_depth;
  j["max_fanin"] = s.max_fanin;
  j["inputs"] = s.inputs;
  j["outputs"] = s.outputs;
  nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < kGateKindCount; ++k)
    if (s.by_kind[k]) kinds[std::string(kGateKinds[k].name)] = s.by_kind[k];
  j["by_kind"] = kinds;
  j["combine_levels"] = r.combine_levels;
  j["depth_lower_bound"] = r.depth_lower_bound;
  j["and_nodes"] = r.and_nodes ? nlohmann::ordered_json(*r.and_nodes) : nlohmann::ordered_json();
  j["and_levels"] = r.and_levels ? nlohmann::ordered_json(*r.and_levels) : nlohmann::ordered_json();
  j["width"] = s.width;
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
  return fmt::format(
      "size          {} gates ({} operations, {} inputs, {} constants), {} outputs\n"
      "depth         {} (unbounded fan-in), {} (fan-in 2); lower bound for fan-in 2: {}\n"
      "max fan-in    {}\n"
      "combine levels {}\n"
      "AIG           {}\n"
      "widest level  {} gates\n"
      "by kind       {}\n",
      s.size, s.operations(), s.inputs, r.constants, s.outputs, s.depth, s.bounded_fanin_depth,
      r.depth_lower_bound, s.max_fanin, r.combine_levels,
      r.and_levels ? fmt::format("{} ANDs, {} levels (after strash, as ABC's print_stats)",
                                 *r.and_nodes, *r.and_levels)
                   : std::string("— (arithmetic gates)"),
      widest, kinds);
}

}  // namespace rnncc
