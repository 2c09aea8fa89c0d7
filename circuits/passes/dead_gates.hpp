// Dead-gate removal: a gate is live when an output reads it, directly or through other gates
// (the backward closure of the outputs, live_table in circuits/analysis.hpp); a dead gate
// changes no output, so dropping it preserves eval(c) exactly. Two forms:
//   remove_dead_gates  re-emits the live gates through a CircuitBuilder (inline_circuit on
//                      fresh inputs), so they are also hash-consed and folded;
//   sweep_dead_gates   copies the live gates as they are (raw: same kinds, operands, order),
//                      for circuits whose exact structure matters (AIGs, lowered netlists).
#pragma once

#include <cstddef>
#include <span>

#include "circuits/circuit.hpp"
#include "circuits/compiled_circuit.hpp"

namespace rnncc {

struct DeadGateStats {
  std::size_t gates_in = 0, gates_out = 0;
  std::size_t dead = 0;  // gates that nothing kept reads (dropped; inputs are always kept)
};

// c without its dead gates: every input kept (same order and names), outputs (and names) kept,
// each live gate re-emitted once. A builder emits eagerly, so folding leaves behind the gates a
// later fold made unused (in (x + y)·z with z := 0, the x + y); this sweeps them. Built as
// inline_circuit on fresh inputs: a circuit built by a CircuitBuilder was folded already, so
// nothing folds anew, and the result is the live part of c, shared by the builder's
// hash-consing. (For a circuit built raw, sharing and folding can change the structure.)
Circuit remove_dead_gates(const Circuit& c, DeadGateStats* stats = nullptr);

// c with only its inputs, the gates in `keep` and what they and the outputs read, each copied
// raw in id order (inputs by name, constants through the builder's constant table); outputs
// (and names) kept. Nothing is shared or folded (but equal constants merge), so the gates kept
// are c's.
Circuit sweep_dead_gates(const Circuit& c, std::span<const GateId> keep = {},
                         DeadGateStats* stats = nullptr);

// A compiled circuit as it is written to a file (circuit_file_text in circuits/io/circuit_json.hpp
// and `rnncc compile -o`): sweep_dead_gates(cc.circuit), the regions renumbered to the kept ids
// (a region left without gates dropped), the builder figures kept, dead_gates_swept set. cc
// itself, copied (dead_gates_swept = 0), when nothing is dead.
CompiledCircuit sweep_dead_gates(const CompiledCircuit& cc, DeadGateStats* stats = nullptr);

}  // namespace rnncc
