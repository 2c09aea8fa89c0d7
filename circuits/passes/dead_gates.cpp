// Dead-gate removal (the math in the header).
#include "circuits/passes/dead_gates.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "circuits/analysis.hpp"
#include "circuits/passes/inline.hpp"
#include "circuits/passes/raw_copy.hpp"

namespace rnncc {

Circuit remove_dead_gates(const Circuit& c, DeadGateStats* stats) {
  CircuitBuilder b;
  b.reserve(c.size());
  std::vector<GateId> in;
  in.reserve(c.inputs().size());
  for (const std::string& name : c.input_names()) in.push_back(b.input(name));
  InlineStats st;
  std::vector<GateId> out = inline_circuit(b, c, in, &st);
  Circuit result = b.finish(std::move(out), c.output_names());
  if (stats) *stats = {.gates_in = c.size(), .gates_out = result.size(), .dead = st.dead};
  return result;
}

Circuit sweep_dead_gates(const Circuit& c, std::span<const GateId> keep, DeadGateStats* stats) {
  // Backward closure of the inputs, `keep` and the outputs: ids are topological, so one pass
  // from the top marks everything a live gate reads.
  std::vector<bool> live(c.size(), false);
  for (GateId id : c.inputs()) live[id] = true;
  for (GateId id : keep) live[id] = true;
  for (GateId id : c.outputs()) live[id] = true;
  for (GateId id = static_cast<GateId>(c.size()); id-- > 0;)
    if (live[id])
      for (GateId o : c.operands(id)) live[o] = true;
  CircuitBuilder k;
  k.reserve(c.size());
  std::vector<GateId> kept(c.size(), kNoGate);
  std::size_t dead = 0;
  for (GateId id = 0; id < c.size(); ++id) {
    if (!live[id]) {
      ++dead;
      continue;
    }
    kept[id] = c.kind(id) == GateKind::input ? k.input(c.input_names()[c.input_index(id)])
                                             : copy_gate_raw(k, c, id, kept);
  }
  std::vector<GateId> outs;
  outs.reserve(c.outputs().size());
  for (GateId o : c.outputs()) outs.push_back(kept[o]);
  Circuit result = k.finish(std::move(outs), c.output_names());
  if (stats) *stats = {.gates_in = c.size(), .gates_out = result.size(), .dead = dead};
  return result;
}

CompiledCircuit sweep_dead_gates(const CompiledCircuit& cc, DeadGateStats* stats) {
  const Circuit& c = cc.circuit;
  const auto live = live_table(c);
  // new_id[g]: the id gate g gets, or (for a dead g) the id of the next kept gate.
  std::vector<GateId> new_id(c.size() + 1, 0);
  bool any_dead = false;
  for (GateId g = 0; g < c.size(); ++g) {
    const bool kept = live[g] || c.kind(g) == GateKind::input;
    any_dead = any_dead || !kept;
    new_id[g + 1] = new_id[g] + (kept ? 1 : 0);
  }
  if (!any_dead) {
    if (stats) *stats = {.gates_in = c.size(), .gates_out = c.size(), .dead = 0};
    CompiledCircuit same = cc;
    same.dead_gates_swept = 0;
    return same;
  }
  CompiledCircuit out;
  DeadGateStats swept;
  out.circuit = sweep_dead_gates(c, {}, &swept);
  if (stats) *stats = swept;
  out.dead_gates_swept = swept.dead;
  out.combine_levels = cc.combine_levels;
  out.requested_gates = cc.requested_gates;
  out.hash_table_bytes = cc.hash_table_bytes;
  // The sweep keeps the live gates and the inputs in id order, one each — unless two live
  // constants are equal (a raw circuit) and merge: then the ids shift and the regions, which
  // only a compiler records, are dropped.
  if (out.circuit.size() != new_id[c.size()]) return out;
  for (std::size_t i = 0; i < cc.regions.size(); ++i) {
    Region r = cc.regions[i];
    const std::uint32_t end =
        i + 1 < cc.regions.size() ? cc.regions[i + 1].first_gate : static_cast<GateId>(c.size());
    r.first_gate = new_id[std::min<std::size_t>(r.first_gate, c.size())];
    if (new_id[std::min<std::size_t>(end, c.size())] == r.first_gate) continue;  // emptied
    out.regions.push_back(r);
  }
  // The combines left: a swept Brent–Kung scan keeps its up-sweep only (log₂ n levels, not
  // 2·log₂ n − 2), as the written file's regions say. A compiler that records no combine
  // regions keeps its own figure.
  if (std::any_of(out.regions.begin(), out.regions.end(),
                  [](const Region& r) { return r.kind == RegionKind::combine; }))
    out.combine_levels = combine_levels_of(out.regions);
  return out;
}

}  // namespace rnncc
