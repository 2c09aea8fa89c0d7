// AIG lowering (the rules in the header).
#include "circuits/passes/aig_lowering.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "algebra/error.hpp"

namespace rnncc {

std::vector<std::uint64_t> aig_literals(
    const Circuit& c, const std::function<std::uint64_t(std::uint64_t, std::uint64_t)>& make_and) {
  std::vector<std::uint64_t> lit(c.size(), 0);
  for (std::size_t i = 0; i < c.inputs().size(); ++i) lit[c.inputs()[i]] = 2 * (i + 1);
  auto make_or = [&](std::uint64_t x, std::uint64_t y) { return make_and(x ^ 1, y ^ 1) ^ 1; };
  auto make_xor = [&](std::uint64_t x, std::uint64_t y) {
    return make_or(make_and(x, y ^ 1), make_and(x ^ 1, y));
  };
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::input:
        break;
      case GateKind::constant:
        if (c.constant(id) != 0 && c.constant(id) != 1)
          throw InputError("aiger", "constant gate " + std::to_string(id) + " is not 0 or 1");
        lit[id] = c.constant(id) == 1 ? 1 : 0;
        break;
      case GateKind::not_:
        lit[id] = lit[ops[0]] ^ 1;
        break;
      case GateKind::and_:
      case GateKind::or_:
      case GateKind::xor_: {
        std::vector<std::uint64_t> level;
        for (GateId o : ops) level.push_back(lit[o]);
        while (level.size() > 1) {  // balanced tree
          std::vector<std::uint64_t> next;
          for (std::size_t i = 0; i + 1 < level.size(); i += 2)
            next.push_back(c.kind(id) == GateKind::and_  ? make_and(level[i], level[i + 1])
                           : c.kind(id) == GateKind::or_ ? make_or(level[i], level[i + 1])
                                                         : make_xor(level[i], level[i + 1]));
          if (level.size() % 2) next.push_back(level.back());
          level = std::move(next);
        }
        lit[id] = level[0];
        break;
      }
      default:
        throw InputError(
            "aiger", "gate " + std::to_string(id) + " is " + std::string(name(c.kind(id))) +
                         ": AIGER holds AND/NOT circuits (and, or, xor, not, 0/1 constants) only");
    }
  }
  return lit;
}

Circuit lower_to_aig(const Circuit& c, AigLoweringStats* stats) {
  const std::size_t I = c.inputs().size();
  CircuitBuilder b;
  // node[v]: the gate of variable v (0 unused: the constant), negated[v] its complement.
  std::vector<GateId> node(I + 1, kNoGate), negated(I + 1, kNoGate);
  for (std::size_t i = 0; i < I; ++i) node[i + 1] = b.input(c.input_names()[i]);
  GateId constant[2] = {kNoGate, kNoGate};
  std::size_t nots = 0, folded = 0;
  auto gate = [&](std::uint64_t l) -> GateId {
    const std::uint64_t v = l / 2;
    if (v == 0) {
      GateId& k = constant[l & 1];
      if (k == kNoGate) k = b.constant(Rational(static_cast<long>(l & 1)));
      return k;
    }
    if (!(l & 1)) return node[v];
    if (negated[v] == kNoGate) {
      const std::array<GateId, 1> op{node[v]};
      negated[v] = b.raw(GateKind::not_, op);
      ++nots;
    }
    return negated[v];
  };
  const std::vector<std::uint64_t> lit =
      aig_literals(c, [&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
        if (x == 0 || y == 0) return ++folded, 0;
        if (x == 1) return ++folded, y;
        if (y == 1) return ++folded, x;
        const std::array<GateId, 2> ops{gate(std::max(x, y)), gate(std::min(x, y))};
        node.push_back(b.raw(GateKind::and_, ops));
        negated.push_back(kNoGate);
        return 2 * (node.size() - 1);
      });
  std::vector<GateId> outs;
  outs.reserve(c.outputs().size());
  for (GateId o : c.outputs()) outs.push_back(gate(lit[o]));
  Circuit out = b.finish(std::move(outs), c.output_names());
  if (stats)
    *stats = {.gates_in = c.size(),
              .gates_out = out.size(),
              .and_nodes = node.size() - I - 1,
              .not_gates = nots,
              .folded = folded};
  return out;
}

}  // namespace rnncc
