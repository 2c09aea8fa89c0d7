// The circuit file format `rnncc-circuit/1` (docs/formats.md, "Circuit files"):
//   {"format": "rnncc-circuit/1",
//    "gates": [{"op": "input", "name": "x[1,a]"}, {"op": "const", "value": "3/4"},
//              {"op": "mul", "in": [0, 1]}, {"op": "thr", "in": [..], "weights": [..], "threshold":
//              2}, …],
//    "outputs": [{"gate": 2, "name": "y[1][0][0]"}, …],
//    "regions": [{"kind": "combine", "first_gate": 40, "layer": 0, "level": 1, "target": 3,
//    "source": 2}, …]} (optional: region i holds gates [first_gate_i, first_gate_{i+1}))
// Gate i is the i-th entry; operands name earlier gates only. Inputs are numbered in order of
// appearance. Reading checks everything and reports file: /json/pointer: what was expected.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "circuits/compile/compiled_circuit.hpp"
#include "circuits/io/output_file.hpp"  // write_file_atomically (moved there)

namespace rnncc {

nlohmann::ordered_json circuit_to_json(const CompiledCircuit& c);
CompiledCircuit circuit_from_json(std::string_view text, const std::string& source);
// By extension: .aig/.aag are AIGER (circuits/io/aiger.hpp), .blif BLIF (circuits/io/blif.hpp),
// .bench ISCAS-89 (circuits/io/iscas.hpp), anything else this JSON format.
CompiledCircuit load_circuit(const std::string& path);
// By extension, atomically (write_file_atomically): .json this format (with the regions of a
// compiled circuit), .aig binary and .aag ASCII AIGER, .blif BLIF, .bench ISCAS-89. The three
// netlist formats hold boolean circuits: maj/thr gates are lowered to and/or/xor/not first
// (lower_threshold_gates), anything else non-boolean is an InputError naming `path` and the
// gate, as is an unknown extension.
void write_circuit(const CompiledCircuit& c, const std::string& path);
void write_circuit(const Circuit& c, const std::string& path);
// The bytes write_circuit writes to `path` (format by its extension; the same diagnostics).
std::string circuit_file_text(const CompiledCircuit& c, const std::string& path);

}  // namespace rnncc
