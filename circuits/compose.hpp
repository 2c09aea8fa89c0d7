// Circuit composition: inlining one circuit into a builder (DESIGN.md: a pass rebuilds into a
// new circuit through an old→new id map; nothing is mutated in place).
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

#include <span>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

// Re-emits the live gates of `c` through `b` with c's input i bound to b's gate
// input_values[i]; returns b's gates for c's outputs, in order. Throws std::invalid_argument
// when input_values does not have one gate per input of c or names a gate b does not have.
std::vector<GateId> inline_circuit(CircuitBuilder& b, const Circuit& c,
                                   std::span<const GateId> input_values);

// c without its dead gates: every input kept (same order and names), outputs (and names) kept,
// each live gate re-emitted once. A builder emits eagerly, so folding leaves behind the gates a
// later fold made unused (in (x + y)·z with z := 0, the x + y); this sweeps them. Built as
// inline_circuit on fresh inputs: the circuit was folded already, so nothing folds anew, and
// the result is the live part of c, shared by the builder's hash-consing.
Circuit remove_dead_gates(const Circuit& c);

// The structurally hashed and-inverter graph of a boolean circuit, as ABC's `strash` builds it
// from an AIG (Mishchenko et al., ABC: abcAig.c, Abc_AigAnd): every gate becomes AND nodes over
// literals (a node or its complement; NOT is free), with
//     AND(a, a) = a,   AND(a, ¬a) = 0,   AND(a, 0) = 0,   AND(a, 1) = a,
//     AND(a, b) = AND(b, a) shared by a hash table on the ordered pair,
// and only the nodes the outputs reach are kept. n-ary and/or gates are taken as balanced
// trees of binary ones and xor(a, b) as ¬AND(¬AND(a, ¬b), ¬AND(¬a, b)) — the shapes
// write_aiger writes — so strash(parse_aiger(write_aiger(c))) and ABC's `read; strash` on the
// same file build the same graph: its and_count and aig_levels are what ABC's `print_stats`
// reports. Threshold gates are refused (lower_threshold_gates first); std::invalid_argument.
Circuit strash(const Circuit& c);

}  // namespace rnncc
