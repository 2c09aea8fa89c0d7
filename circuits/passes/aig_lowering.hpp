// AIG lowering: a boolean circuit as an and-inverter graph (AIG), the form AIGER stores and ABC
// works on (Biere, "The AIGER And-Inverter Graph (AIG) Format", FMV report 07/1; Mishchenko et
// al., ABC). Shared by write_aiger (circuits/io/aiger.hpp) and strash (circuits/passes/strash.hpp).
//
// Every gate becomes a literal (2·variable + negation bit; 0 is false, 1 true; input i is
// variable i + 1) over binary AND nodes, NOT being free (a complemented literal):
//     and(a₁..a_k), or(…), xor(…)   balanced trees of binary gates, paired level by level,
//     or(a, b)  = ¬(¬a ∧ ¬b),
//     xor(a, b) = ¬(¬(a ∧ ¬b) ∧ ¬(¬a ∧ b)),
//     not(a)    = a's literal complemented,   constant q ∈ {0, 1} = the literal q.
// The shape (tree pairing, operand order) is fixed here once, so write_aiger's file and strash's
// graph agree node for node, and ABC's `read; strash` of the file builds what strash builds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

// The AIG literal of every gate of c. make_and(x, y) returns the literal of x ∧ y (creating or
// finding a node, folding what it may); it is called in gate order, so nodes are numbered in
// the order the gates need them. Throws InputError (where = "aiger") for gates an AIG cannot
// hold (arithmetic, threshold, test; constants other than 0 and 1).
std::vector<std::uint64_t> aig_literals(
    const Circuit& c, const std::function<std::uint64_t(std::uint64_t, std::uint64_t)>& make_and);

struct AigLoweringStats {
  std::size_t gates_in = 0, gates_out = 0;
  std::size_t and_nodes = 0;  // binary AND gates in the result
  std::size_t not_gates = 0;  // NOT gates in the result (one per complemented literal used)
  std::size_t folded = 0;     // ANDs with a constant operand, answered without a node
};

// c as an AND/NOT circuit: the same inputs (order, names) and outputs (order, names); one raw
// binary `and` gate per AND node, in the order aig_literals makes them — every node as it
// comes, nothing shared, only x ∧ 0 = 0 and x ∧ 1 = x folded (strash is the hashed form) — with
// operands (larger literal, smaller literal); one `not` gate per complemented literal that is
// used, placed before its first use; a constant gate only where a literal 0 or 1 is used. This
// is exactly the graph write_aiger writes (dead gates of c included). Throws as aig_literals.
Circuit lower_to_aig(const Circuit& c, AigLoweringStats* stats = nullptr);

}  // namespace rnncc
