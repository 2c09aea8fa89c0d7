// AIGER (and-inverter graphs), ASCII `aag` and binary `aig`, version 1 combinational subset
// (Biere, "The AIGER And-Inverter Graph (AIG) Format", FMV reports 07/1 and the 2011 update).
//
// Reading: variables 1..I are inputs (named from the symbol table when present), AND gate i
// defines variable I + L + i + 1 from two literals (literal = 2·variable + negation bit; 0 is
// false, 1 true). Each AND becomes a raw `and` gate, each negated literal used one `not` gate,
// so the structure is exactly the file's: and-gate count = A, and `aig_levels` (AND depth, NOT
// free) is what ABC's print_stats calls levels. Latches (L > 0) are refused: rnncc's circuits
// are combinational.
// The symbol table (i<n>/o<n> lines, then the comment section "c") names inputs and outputs in
// the netlist spelling of circuits/io/netlist.hpp (encode_name: x[1,0] is x[1%2C0]), decoded on
// reading; malformed symbol lines are InputErrors at file:line:column.
// Writing lowers `or`, `xor` and n-ary gates to AND/NOT trees (lower_to_aig,
// circuits/passes/aig_lowering.hpp), refuses arithmetic, threshold and test gates, and names
// every input and output in the symbol table as the BLIF and .bench writers name them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "circuits/circuit.hpp"
#include "circuits/io/text_sink.hpp"

namespace rnncc {

// Limits (docs/formats.md, "AIGER"): every count of the header must fit the bytes that follow
// it (see parse_aiger); M ≤ kAigerMaxVariables; a binary file, whose inputs take no bytes,
// declares at most kAigerFreeInputs + 16 × (file size) inputs. Symbol names must be UTF-8.
inline constexpr std::uint64_t kAigerMaxVariables = (std::uint64_t{1} << 31) - 1;
inline constexpr std::uint64_t kAigerFreeInputs = std::uint64_t{1} << 16;

Circuit parse_aiger(std::string_view bytes, const std::string& source);
Circuit load_aiger(const std::string& path);

enum class AigerFormat { ascii, binary };
// The file into `out` as a stream (circuits/io/text_sink.hpp); the string form collects it.
void write_aiger(const Circuit& c, AigerFormat format, TextSink& out);
std::string write_aiger(const Circuit& c, AigerFormat format);

// AND depth: inputs and constants 0, `and` 1 + max, `not` + 0 (ABC's "lev").
std::uint32_t aig_levels(const Circuit& c);
std::size_t and_count(const Circuit& c);

}  // namespace rnncc
