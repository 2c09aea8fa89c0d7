// Inlining (the math in the header).
#include "circuits/passes/inline.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "circuits/analysis.hpp"

namespace rnncc {

std::vector<GateId> inline_circuit(CircuitBuilder& b, const Circuit& c,
                                   std::span<const GateId> input_values, InlineStats* stats) {
  if (input_values.size() != c.inputs().size())
    throw std::invalid_argument("inline_circuit: the circuit has " +
                                std::to_string(c.inputs().size()) + " inputs, got " +
                                std::to_string(input_values.size()) + " input values");
  for (GateId v : input_values)
    if (v >= b.size())
      throw std::invalid_argument("inline_circuit: input value " + std::to_string(v) +
                                  " names no gate of the builder (it has " +
                                  std::to_string(b.size()) + ")");

  const std::size_t size_before = b.size();
  const std::vector<bool> live = live_table(c);
  std::size_t dead = 0;
  std::vector<GateId> map(c.size(), kNoGate);  // c's id → b's id (live gates only)
  std::vector<GateId> ops;
  for (GateId g = 0; g < c.size(); ++g) {
    if (!live[g]) {
      dead += c.kind(g) != GateKind::input;
      continue;
    }
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
  if (stats) *stats = {.gates_in = c.size(), .dead = dead, .created = b.size() - size_before};
  return out;
}

Circuit compose_circuits(const Circuit& outer, const Circuit& inner, InlineStats* stats) {
  if (outer.inputs().size() != inner.outputs().size())
    throw std::invalid_argument(
        "compose_circuits: the outer circuit has " + std::to_string(outer.inputs().size()) +
        " inputs but the inner one has " + std::to_string(inner.outputs().size()) + " outputs");
  CircuitBuilder b;
  b.reserve(inner.size() + outer.size());
  std::vector<GateId> in;
  in.reserve(inner.inputs().size());
  for (const std::string& name : inner.input_names()) in.push_back(b.input(name));
  const std::vector<GateId> mid = inline_circuit(b, inner, in);
  std::vector<GateId> out = inline_circuit(b, outer, mid, stats);
  return b.finish(std::move(out), outer.output_names());
}

}  // namespace rnncc
