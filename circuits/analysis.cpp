#include "circuits/analysis.hpp"

#include <algorithm>
#include <bit>

namespace rnncc {

std::uint32_t gate_depth_cost(const Circuit& c, GateId id, FaninModel model) {
  const GateKind k = c.kind(id);
  if (k == GateKind::input || k == GateKind::constant) return 0;
  if (model == FaninModel::unbounded) return 1;
  const std::uint32_t a = c.gate(id).arity();
  return a <= 2 ? 1 : static_cast<std::uint32_t>(std::bit_width(a - 1));  // ⌈log₂ a⌉
}

std::vector<std::uint32_t> depth_table(const Circuit& c, FaninModel model) {
  std::vector<std::uint32_t> depth(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id) {
    std::uint32_t d = 0;
    for (GateId o : c.operands(id)) d = std::max(d, depth[o]);
    depth[id] = d + gate_depth_cost(c, id, model);
  }
  return depth;
}

std::vector<std::uint32_t> fanout_table(const Circuit& c) {
  std::vector<std::uint32_t> fanout(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id)
    for (GateId o : c.operands(id)) ++fanout[o];
  return fanout;
}

std::vector<bool> live_table(const Circuit& c) {
  std::vector<bool> live(c.size(), false);
  for (GateId o : c.outputs()) live[o] = true;
  for (GateId id = static_cast<GateId>(c.size()); id-- > 0;)
    if (live[id])
      for (GateId o : c.operands(id)) live[o] = true;
  return live;
}

std::vector<GateId> critical_path(const Circuit& c, FaninModel model) {
  if (c.outputs().empty()) return {};
  const auto depth = depth_table(c, model);
  GateId g = *std::max_element(c.outputs().begin(), c.outputs().end(),
                               [&](GateId a, GateId b) { return depth[a] < depth[b]; });
  std::vector<GateId> path{g};
  while (!c.operands(g).empty()) {
    auto ops = c.operands(g);
    g = *std::max_element(ops.begin(), ops.end(),
                          [&](GateId a, GateId b) { return depth[a] < depth[b]; });
    path.push_back(g);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::size_t CircuitStats::operations() const {
  return size - by_kind[static_cast<std::size_t>(GateKind::input)] -
         by_kind[static_cast<std::size_t>(GateKind::constant)];
}

CircuitStats compute_stats(const Circuit& c) {
  CircuitStats s;
  s.size = c.size();
  s.inputs = c.inputs().size();
  s.outputs = c.outputs().size();
  const auto unbounded = depth_table(c, FaninModel::unbounded);
  const auto bounded = depth_table(c, FaninModel::bounded);
  for (GateId id = 0; id < c.size(); ++id) {
    ++s.by_kind[static_cast<std::size_t>(c.kind(id))];
    s.max_fanin = std::max(s.max_fanin, static_cast<std::uint32_t>(c.operands(id).size()));
    if (unbounded[id] >= s.width.size()) s.width.resize(unbounded[id] + 1, 0);
    ++s.width[unbounded[id]];
  }
  for (GateId o : c.outputs()) {
    s.depth = std::max(s.depth, unbounded[o]);
    s.bounded_fanin_depth = std::max(s.bounded_fanin_depth, bounded[o]);
  }
  return s;
}

}  // namespace rnncc

namespace rnncc {

std::vector<std::uint32_t> degree_table(const Circuit& c) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> deg(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    std::uint64_t d = 0;
    bool none = false;
    switch (c.kind(id)) {
      case GateKind::constant: d = 0; break;
      case GateKind::input: d = 1; break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum:
        for (GateId o : ops) {
          none = none || deg[o] == kNone;
          d = std::max<std::uint64_t>(d, deg[o]);
        }
        break;
      case GateKind::mul:
      case GateKind::product:
        for (GateId o : ops) {
          none = none || deg[o] == kNone;
          d += deg[o];
        }
        break;
      default: none = true;
    }
    deg[id] = none || d >= kNone ? kNone : static_cast<std::uint32_t>(d);
  }
  return deg;
}

std::uint32_t degree(const Circuit& c) {
  const auto deg = degree_table(c);
  std::uint32_t d = 0;
  for (GateId o : c.outputs()) d = std::max(d, deg[o]);
  return d;
}

}  // namespace rnncc
