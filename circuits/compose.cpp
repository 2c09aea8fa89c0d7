// inline_circuit (the math in the header).
#include "circuits/compose.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/io/aiger.hpp"

namespace rnncc {

std::vector<GateId> inline_circuit(CircuitBuilder& b, const Circuit& c,
                                   std::span<const GateId> input_values) {
  if (input_values.size() != c.inputs().size())
    throw std::invalid_argument("inline_circuit: the circuit has " +
                                std::to_string(c.inputs().size()) + " inputs, got " +
                                std::to_string(input_values.size()) + " input values");
  for (GateId v : input_values)
    if (v >= b.size())
      throw std::invalid_argument("inline_circuit: input value " + std::to_string(v) +
                                  " names no gate of the builder (it has " +
                                  std::to_string(b.size()) + ")");

  const std::vector<bool> live = live_table(c);
  std::vector<GateId> map(c.size(), kNoGate);  // c's id → b's id (live gates only)
  std::vector<GateId> ops;
  for (GateId g = 0; g < c.size(); ++g) {
    if (!live[g]) continue;
    ops.clear();
    for (GateId o : c.operands(g)) ops.push_back(map[o]);  // live, so already mapped
    GateId r = kNoGate;
    switch (c.kind(g)) {
      case GateKind::constant:
        r = b.constant(c.constant(g));
        break;
      case GateKind::input:
        r = input_values[c.input_index(g)];
        break;
      case GateKind::add:
        r = b.add(ops[0], ops[1]);
        break;
      case GateKind::sub:
        r = b.sub(ops[0], ops[1]);
        break;
      case GateKind::neg:
        r = b.neg(ops[0]);
        break;
      case GateKind::mul:
        r = b.mul(ops[0], ops[1]);
        break;
      case GateKind::sum:
        r = b.sum(ops);
        break;
      case GateKind::product:
        r = b.product(ops);
        break;
      case GateKind::and_:
        r = b.and_(ops);
        break;
      case GateKind::or_:
        r = b.or_(ops);
        break;
      case GateKind::xor_:
        r = b.xor_(ops);
        break;
      case GateKind::not_:
        r = b.not_(ops[0]);
        break;
      case GateKind::maj:
        r = b.maj(ops);
        break;
      case GateKind::thr:
        r = b.thr(ops, c.weights(g), c.threshold(g));
        break;
      case GateKind::positive:
        r = b.positive(ops[0]);
        break;
      case GateKind::is_zero:
        r = b.is_zero(ops[0]);
        break;
    }
    map[g] = r;
  }
  std::vector<GateId> out;
  out.reserve(c.outputs().size());
  for (GateId o : c.outputs()) out.push_back(map[o]);
  return out;
}

Circuit remove_dead_gates(const Circuit& c) {
  CircuitBuilder b;
  b.reserve(c.size());
  std::vector<GateId> in;
  in.reserve(c.inputs().size());
  for (const std::string& name : c.input_names()) in.push_back(b.input(name));
  std::vector<GateId> out = inline_circuit(b, c, in);
  return b.finish(std::move(out), c.output_names());
}

}  // namespace rnncc

namespace rnncc {

Circuit strash(const Circuit& c) {
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
  auto make_and = [&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
    if (x == 0 || y == 0 || x == (y ^ 1)) return 0;
    if (x == 1 || x == y) return y;
    if (y == 1) return x;
    const std::pair<std::uint64_t, std::uint64_t> key{std::max(x, y), std::min(x, y)};
    if (auto it = table.find(key); it != table.end()) return it->second;
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
  while (!stack.empty()) {
    const std::uint64_t a = stack.back();
    stack.pop_back();
    if (live[a]) continue;
    live[a] = 1;
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
  return b.finish(std::move(outs), c.output_names());
}

}  // namespace rnncc
