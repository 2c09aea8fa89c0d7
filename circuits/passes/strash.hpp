// Structural hashing: the structurally hashed and-inverter graph of a boolean circuit, as ABC's
// `strash` builds it (Mishchenko et al., ABC: abcAig.c, Abc_AigAnd). Every gate becomes AND
// nodes over literals (a node or its complement; NOT is free) by the AIG lowering
// (circuits/passes/aig_lowering.hpp), with
//     AND(a, a) = a,   AND(a, ¬a) = 0,   AND(a, 0) = 0,   AND(a, 1) = a,
//     AND(a, b) = AND(b, a) shared by a hash table on the ordered pair,
// and only the nodes the outputs reach are kept. n-ary and/or gates are taken as balanced
// trees of binary ones and xor(a, b) as ¬AND(¬AND(a, ¬b), ¬AND(¬a, b)) — the shapes
// write_aiger writes — so strash(parse_aiger(write_aiger(c))) and ABC's `read; strash` on the
// same file build the same graph: its and_count and aig_levels are what ABC's `print_stats`
// reports (tests/circuits/io/test_abc_oracle.cpp).
#pragma once

#include <cstddef>

#include "circuits/circuit.hpp"

namespace rnncc {

struct StrashStats {
  std::size_t gates_in = 0, gates_out = 0;
  std::size_t and_nodes = 0;  // AND nodes in the result (what ABC's print_stats calls "and")
  std::size_t merged = 0;     // AND requests the hash table answered with an existing node
  std::size_t folded = 0;     // AND requests answered by a rule (a∧a, a∧¬a, a∧0, a∧1)
  std::size_t dead = 0;       // AND nodes made that no output reaches (dropped)
};

// The result: c's inputs (order, names); the live AND nodes as raw binary `and` gates in the
// order they were made, a `not` gate for each complemented literal used (before its first
// use), a constant gate only for an output that folded to 0 or 1; c's outputs and names.
// Threshold gates are refused (lower_threshold_gates first), as are arithmetic and test gates
// and constants other than 0 and 1: std::invalid_argument.
Circuit strash(const Circuit& c, StrashStats* stats = nullptr);

}  // namespace rnncc
