// AIGER (and-inverter graphs), ASCII `aag` and binary `aig`, version 1 combinational subset
// (Biere, "The AIGER And-Inverter Graph (AIG) Format", FMV reports 07/1 and the 2011 update).
//
// Reading: variables 1..I are inputs (named from the symbol table when present), AND gate i
// defines variable I + L + i + 1 from two literals (literal = 2·variable + negation bit; 0 is
// false, 1 true). Each AND becomes a raw `and` gate, each negated literal used one `not` gate,
// so the structure is exactly the file's: and-gate count = A, and `aig_levels` (AND depth, NOT
// free) is what ABC's print_stats calls levels. Latches (L > 0) are refused: rnncc's circuits
// are combinational.
// Writing lowers `or`, `xor` and n-ary gates to AND/NOT trees and refuses arithmetic,
// threshold and test gates.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

Circuit parse_aiger(std::string_view bytes, const std::string& source);
Circuit load_aiger(const std::string& path);

// The and-inverter lowering every AIG writer and pass shares: the AIG literal (2·variable +
// negation; 0 false, 1 true; input i is variable i + 1) of every gate of c, with and/or/xor
// n-ary gates as balanced trees of binary ones, or(a,b) = ¬(¬a ∧ ¬b) and
// xor(a,b) = ¬(¬(a ∧ ¬b) ∧ ¬(¬a ∧ b)). make_and(x, y) returns the literal of x ∧ y (creating or
// finding a node, folding what it may). Throws InputError (where = "aiger") for gates an AIG
// cannot hold (arithmetic, threshold, test; constants other than 0 and 1).
std::vector<std::uint64_t> aig_literals(
    const Circuit& c, const std::function<std::uint64_t(std::uint64_t, std::uint64_t)>& make_and);

enum class AigerFormat { ascii, binary };
std::string write_aiger(const Circuit& c, AigerFormat format);

// AND depth: inputs and constants 0, `and` 1 + max, `not` + 0 (ABC's "lev").
std::uint32_t aig_levels(const Circuit& c);
std::size_t and_count(const Circuit& c);

}  // namespace rnncc
