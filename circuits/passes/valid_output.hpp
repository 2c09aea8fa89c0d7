// The validity output: which input assignments spell a string.
//
// Every compiler reads the one-hot indicators x[t,σ] = [w_t = σ] (circuits/compile/common.hpp:
// n·|Σ| inputs, index (t−1)·|Σ| + id(σ)). As a boolean function, though, a circuit is defined on
// all 2^{n·|Σ|} assignments, and an equivalence checker (ABC's cec) compares two circuits on all
// of them — also where a position has no symbol or several, where two correct circuits of one
// model may differ. with_valid_output appends the output
//
//   valid = ∧_{t=1..n} ExactlyOne(x[t,1], …, x[t,|Σ|]),
//
// which is 1 exactly on the assignments that spell a string. docs/formats.md ("Equivalence on
// strings") gives the ABC recipe that restricts cec to it (`constr -N 1; constr -i; fold`), so that
// every counterexample cec returns is a string.
//
// ExactlyOne by a balanced tree over the indicators of one position: a node over a set S of
// indicators carries any_S = ∨_{σ∈S} x_σ and many_S = [at least two of S are 1], combined as
//
//   any = any_l ∨ any_r,    many = many_l ∨ many_r ∨ (any_l ∧ any_r)
//
// (a leaf: any = x_σ, many = 0), and ExactlyOne = any ∧ ¬many: fan-in-2 gates, at most 4·|Σ| of
// them a position, depth 2·⌈log₂|Σ|⌉ + 2; the positions' bits meet in a balanced AND tree of
// depth ⌈log₂ n⌉. Its gates form one region of kind `valid`.
#pragma once

#include <cstddef>

#include "circuits/compiled_circuit.hpp"

namespace rnncc {

// cc with the output "valid" appended (after cc's outputs, which keep their ids, names and
// order): every gate of cc copied as it is, then the validity tree, built with folding and
// sharing (a gate the circuit has already is reused). Precondition (std::logic_error
// otherwise): cc has symbols·n inputs for some n ≥ 1, in the order of the one-hot input layer,
// and no output is named "valid" yet.
CompiledCircuit with_valid_output(const CompiledCircuit& cc, std::size_t symbols);

}  // namespace rnncc
