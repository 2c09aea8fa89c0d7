// BLIF, the Berkeley Logic Interchange Format (combinational subset), the text netlist format of
// SIS, ABC, Yosys and VPR ("Berkeley Logic Interchange Format (BLIF)", University of California,
// Berkeley, 1992; the SIS manual, appendix).
//
//   .model NAME
//   .inputs a b c          (may repeat; a line ending in '\' continues on the next one)
//   .outputs y             ('#' starts a comment that runs to the end of the line)
//   .names a b c y         a single-output cover: y = f(a, b, c)
//   1-0 1                  one cube per row: 1 = the input, 0 = its complement, - = absent
//   -11 1                  output column all 1: y is the OR of the cubes (the on-set)
//   .names y               no inputs: a row "1" makes y the constant 1, no row the constant 0
//   .end
//
// Reading: a cover becomes an OR of ANDs of literals built through CircuitBuilder (so constant
// inputs fold and identical cubes are shared); an output column of 0s (the off-set) gives the
// complement, ¬(OR of cubes). A cover that is exactly the odd (even) parity minterms of its k ≥ 2
// distinct inputs becomes an `xor` gate (its complement), so xor survives a write/read cycle.
// Signals may be used before the `.names` that defines them: definitions are built in
// topological order; a cycle or an undefined signal is an InputError at file:line:column.
// `.latch`, `.subckt`, `.gate`, `.mlatch` and a second `.model` are refused ("sequential/
// hierarchical BLIF is not supported"); the timing directives of SIS (.area, .delay,
// .input_arrival, .default_*, …) and Yosys' .attr/.param/.cname are ignored; any other directive
// is an error.
//
// Writing: boolean circuits only — inputs, 0/1 constants, and, or, xor, not, maj, thr. Threshold
// gates are first rewritten by `lower_threshold_gates` (circuits/passes/lower_threshold.hpp: a
// bit-sliced adder and a comparator, no exponential cover). Each gate is one `.names`: and = one
// cube, or = one cube per operand, not = "0 1", a constant a cover without inputs; an n-ary xor
// (whose cover would have 2^(n−1) rows) is written as the balanced tree of 2-input xor covers that
// write_aiger also builds. Duplicate operands are dropped (x∧x = x, x⊕x = 0). ABC's `strash` of
// this file and of write_aiger's file then give the same AND count and levels whenever and/or gates
// have at most 3 operands (ABC strashes a cover as a chain ((a∧b)∧c)∧d, write_aiger as a balanced
// tree): tests/circuits/io/test_abc_oracle.cpp.
#pragma once

#include <string>
#include <string_view>

#include "circuits/circuit.hpp"
#include "circuits/io/text_sink.hpp"

namespace rnncc {

Circuit parse_blif(std::string_view text, const std::string& source);
Circuit load_blif(const std::string& path);

// `model` names the .model (spelled by netlist_io::encode_name, as every signal name is). Throws
// InputError("blif", …) naming the first gate that is not boolean (arithmetic or test gates,
// constants other than 0 and 1).
// The file into `out` as a stream (circuits/io/text_sink.hpp); the string form collects it.
void write_blif(const Circuit& c, std::string_view model, TextSink& out);
std::string write_blif(const Circuit& c, std::string_view model = "rnncc");

}  // namespace rnncc
