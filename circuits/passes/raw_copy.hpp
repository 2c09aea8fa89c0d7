// Copying one gate raw into a builder: the same kind, its operands mapped through `map` (ids of
// the source circuit → ids already emitted), a threshold gate's weights and threshold; constants
// through the builder's constant table. Nothing is folded or shared, so the copy has the source's
// structure — what sweep_dead_gates (circuits/passes/dead_gates.hpp) and the tests that rebuild a
// circuit with other input names or a changed output need. Inputs are the caller's: their names
// and order are what such copies change.
#pragma once

#include <span>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

// Emits the copy of gate `id` of `c` (not an input) into `b`; `map[o]` must be set for every
// operand o. Returns its id in `b`.
inline GateId copy_gate_raw(CircuitBuilder& b, const Circuit& c, GateId id,
                            std::span<const GateId> map) {
  std::vector<GateId> ops;
  for (GateId o : c.operands(id)) ops.push_back(map[o]);
  switch (c.kind(id)) {
    case GateKind::constant:
      return b.constant(c.constant(id));
    case GateKind::thr:
      return b.raw(GateKind::thr, ops, c.weights(id), c.threshold(id));
    default:
      return b.raw(c.kind(id), ops);
  }
}

}  // namespace rnncc
