// Statistics of a circuit as a report: text for people, JSON for scripts (`rnncc stats`,
// `rnncc compile --stats`). The JSON object has the keys size, live_size, operations, depth,
// bounded_fanin_depth, depth_counting_not, max_fanin, inputs, outputs, by_kind, logic_gates and
// not_gates (null unless the circuit is boolean), combine_levels, depth_lower_bound, and_nodes
// and and_levels (null for circuits with arithmetic gates), width. docs/circuits.md,
// "Metrics", maps them to ABC's `print_stats` and Yosys's `stat -json`.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "circuits/analysis.hpp"
#include "circuits/compiled_circuit.hpp"

namespace rnncc {

struct CircuitReport {
  CircuitStats stats;
  std::size_t combine_levels = 0;
  std::size_t constants = 0;
  // ⌈log₂ (inputs some output depends on)⌉: no fan-in-2 circuit for these outputs is shallower.
  std::uint32_t depth_lower_bound = 0;
  // Boolean and threshold circuits only: the and-inverter graph ABC's `strash` builds from the
  // circuit (thr gates lowered to adder–comparators first; circuits/passes/strash.hpp) — its
  // AND nodes and AND depth with NOT free, ABC's `print_stats` "and" and "lev". Empty when the
  // circuit has arithmetic or test gates (or constants other than 0 and 1).
  std::optional<std::size_t> and_nodes;
  std::optional<std::uint32_t> and_levels;
  // Boolean circuits only (and/or/xor/not over inputs and the constants 0 and 1): the and, or
  // and xor gates, and the not gates apart. On an AIG (a file read from AIGER) logic_gates is
  // ABC's `print_stats` "and" and Yosys's `$_AND_` count, not_gates Yosys's `$_NOT_`.
  std::optional<std::size_t> logic_gates, not_gates;
  // The circuit's CompiledCircuit::dead_gates_swept and dead_gates_note (`rnncc compile`,
  // `rnncc.compile`: compile_as_written): the figures above then describe the circuit as
  // written, what `rnncc stats` of the file says. Unset for a circuit read back.
  std::optional<std::size_t> dead_gates_swept;
  std::string dead_gates_note;
  // The compiler and the passes the circuit went through (CompiledCircuit::passes, and a
  // command's write passes appended): the JSON's "passes", omitted when empty.
  std::vector<PassRecord> passes;
};

CircuitReport report_circuit(const CompiledCircuit& c);
nlohmann::ordered_json to_json(const CircuitReport& r);
std::string format_text(const CircuitReport& r);

}  // namespace rnncc
