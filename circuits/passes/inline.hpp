// Inlining: one circuit re-emitted inside another (as every pass, docs/architecture.md,
// "Passes": it rebuilds into a new circuit through an old→new id map; nothing is mutated in
// place).
//
// inline_circuit(b, c, v) computes, inside b, the circuit c with its input i replaced by b's
// gate v[i]: for every gate g of c that an output of c needs,
//     new(g) = b.kind(g)(new(operand₁), …, new(operand_k))      (weights, threshold kept)
//     new(input i) = v[i],   new(constant q) = b.constant(q).
// Because every gate goes through b's constructors, the result is hash-consed against the gates
// already in b (two inlinings of the same subcircuit on the same inputs share everything) and
// constant-folded (substituting constants for inputs collapses what they determine). The folding
// rules are the builder's (circuits/circuit.hpp): exact for arithmetic gates on any values and
// for boolean/threshold gates on 0/1 operands, so on such inputs
//     eval(b's outputs)(x) = eval(c)(v(x)).
// Dead gates of c (not reachable backwards from its outputs) are not re-emitted.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

struct InlineStats {
  std::size_t gates_in = 0;  // gates of c
  std::size_t dead = 0;      // gates of c no output reaches (not re-emitted; inputs not counted)
  std::size_t created = 0;   // gates appended to the builder (the rest were shared or folded)
};

// Re-emits the live gates of `c` through `b` with c's input i bound to b's gate
// input_values[i]; returns b's gates for c's outputs, in order. Throws std::invalid_argument
// when input_values does not have one gate per input of c or names a gate b does not have.
std::vector<GateId> inline_circuit(CircuitBuilder& b, const Circuit& c,
                                   std::span<const GateId> input_values,
                                   InlineStats* stats = nullptr);

// The Circuit → Circuit form: outer ∘ inner, outer's input i fed by inner's output i. Inputs
// (and names) are inner's, outputs (and names) outer's; both are inlined into one builder, so
// eval(result)(x) = eval(outer)(eval(inner)(x)) under the folding caveat above. Throws
// std::invalid_argument when outer's input count is not inner's output count. `stats` counts
// the inlining of outer (inner's is a re-emission on fresh inputs).
Circuit compose_circuits(const Circuit& outer, const Circuit& inner, InlineStats* stats = nullptr);

}  // namespace rnncc
