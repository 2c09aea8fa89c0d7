// Structural hashing (the rules in the header).
#include "circuits/passes/strash.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "algebra/error.hpp"
#include "circuits/passes/aig_lowering.hpp"

namespace rnncc {

Circuit strash(const Circuit& c, StrashStats* stats) {
  // AIG literals: 2·node + complement; node 0 is the constant 0, nodes 1..I the inputs, then the
  // AND nodes in creation order (each naming two earlier literals).
  const std::uint64_t I = c.inputs().size();
  std::vector<std::uint64_t> lit;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ands;
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const {
      return std::hash<std::uint64_t>{}(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
    }
  };
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t, PairHash> table;
  std::size_t merged = 0, folded = 0;
  auto make_and = [&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
    if (x == 0 || y == 0 || x == (y ^ 1)) return ++folded, 0;
    if (x == 1 || x == y) return ++folded, y;
    if (y == 1) return ++folded, x;
    const std::pair<std::uint64_t, std::uint64_t> key{std::max(x, y), std::min(x, y)};
    if (auto it = table.find(key); it != table.end()) return ++merged, it->second;
    ands.push_back(key);
    return table[key] = 2 * (I + ands.size());
  };
  try {
    lit = aig_literals(c, make_and);
  } catch (const InputError& e) {
    throw std::invalid_argument(std::string("strash: ") + e.what() +
                                " (lower threshold gates first)");
  }
  // Keep the nodes the outputs reach, then emit them in order.
  std::vector<char> live(ands.size(), 0);
  std::vector<std::uint64_t> stack;
  auto visit = [&](std::uint64_t l) {
    if (l / 2 > I) stack.push_back(l / 2 - I - 1);
  };
  for (GateId o : c.outputs()) visit(lit[o]);
  std::size_t live_count = 0;
  while (!stack.empty()) {
    const std::uint64_t a = stack.back();
    stack.pop_back();
    if (live[a]) continue;
    live[a] = 1;
    ++live_count;
    visit(ands[a].first);
    visit(ands[a].second);
  }
  CircuitBuilder b;
  std::vector<GateId> node(I + 1 + ands.size(), kNoGate), negated(node.size(), kNoGate);
  for (std::size_t i = 0; i < I; ++i) node[i + 1] = b.input(c.input_names()[i]);
  auto gate = [&](std::uint64_t l) {
    const std::uint64_t v = l / 2;
    if (v == 0) return b.constant(Rational(static_cast<long>(l & 1)));
    if (!(l & 1)) return node[v];
    if (negated[v] == kNoGate) {
      const std::array<GateId, 1> op{node[v]};
      negated[v] = b.raw(GateKind::not_, op);
    }
    return negated[v];
  };
  for (std::size_t a = 0; a < ands.size(); ++a)
    if (live[a]) {
      const std::array<GateId, 2> ops{gate(ands[a].first), gate(ands[a].second)};
      node[I + 1 + a] = b.raw(GateKind::and_, ops);
    }
  std::vector<GateId> outs;
  for (GateId o : c.outputs()) outs.push_back(gate(lit[o]));
  Circuit out = b.finish(std::move(outs), c.output_names());
  if (stats)
    *stats = {.gates_in = c.size(),
              .gates_out = out.size(),
              .and_nodes = live_count,
              .merged = merged,
              .folded = folded,
              .dead = ands.size() - live_count};
  return out;
}

}  // namespace rnncc
