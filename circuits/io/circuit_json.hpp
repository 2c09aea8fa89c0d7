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
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/compiled_circuit.hpp"
#include "circuits/io/output_file.hpp"  // write_file_atomically (moved there)
#include "circuits/io/text_sink.hpp"

namespace rnncc {

// What a command does with a circuit file it reads, for estimate_circuit_file_memory: read it
// (convert, draw; the write that follows streams), read it and report on it (stats: depth,
// the AIG after strash), or read it and evaluate it in bulk (eval).
enum class CircuitFileUse { read, stats, eval };
// The peak memory of load_circuit(path) and the work `use` does after it, estimated before
// reading: the file's size × the peak RSS per file byte measured for its format and use
// (docs/reliability.md, "Memory estimates"; the JSON reader holds the whole document, about 14×
// the file). 0 where the size is unknown (no such file, a pipe): the reader says why.
std::uint64_t estimate_circuit_file_memory(const std::string& path, CircuitFileUse use);
// rnncc::check_memory("--max-memory", estimate_circuit_file_memory(path, use), limit_mib,
// `what` + " would take", "<size> bytes of <format> × F, measured for <use>").
void check_circuit_file_memory(const std::string& path, CircuitFileUse use, std::size_t limit_mib,
                               const std::string& what);

// The file's bytes as a stream: write_circuit_json writes gate by gate into `out` (one line, a
// newline at the end), holding nothing but the sink's chunk, so writing a circuit of G gates
// takes O(1) memory beside the circuit instead of a document of the whole file.
void write_circuit_json(const CompiledCircuit& c, TextSink& out);
// The plain twin: the same file as one nlohmann document (json_text(circuit_to_json(c), −1) +
// "\n" are write_circuit_json's bytes; tests/circuits/io/test_circuit_json.cpp compares them on
// seeded random circuits). Its memory is a few hundred bytes a gate: for tests and small
// circuits only.
nlohmann::ordered_json circuit_to_json(const CompiledCircuit& c);
CompiledCircuit circuit_from_json(std::string_view text, const std::string& source);
// By extension: .aig/.aag are AIGER (circuits/io/aiger.hpp), .blif BLIF (circuits/io/blif.hpp),
// .bench ISCAS-89 (circuits/io/iscas.hpp), anything else this JSON format.
CompiledCircuit load_circuit(const std::string& path);
// By extension, atomically (an OutputFile), streamed (write_circuit_file): .json this format
// (with the regions of a compiled circuit), .aig binary and .aag ASCII AIGER, .blif BLIF, .bench
// ISCAS-89. The three netlist formats hold boolean circuits: maj/thr gates are lowered to
// and/or/xor/not (lower_threshold_gates) and dead gates swept, as netlist_pipeline declares
// (circuits/passes/pipeline.hpp); anything else non-boolean is an InputError naming `path` and
// the gate, as is an unknown extension.
void write_circuit(const CompiledCircuit& c, const std::string& path);
void write_circuit(const Circuit& c, const std::string& path);
// Writes the file of out.path()'s format into `out` as a stream and commits it (for a command
// that opened its output before the work). Returns the passes run before the writer (stage
// "write <path>": netlist_pipeline, circuits/passes/pipeline.hpp), for `--stats --json`.
std::vector<PassRecord> write_circuit(const CompiledCircuit& c, OutputFile& out);
// The bytes of `path`'s format into `out`, flushed at the end (the same diagnostics, all raised
// before the first byte except a write error); the passes it ran, as write_circuit.
std::vector<PassRecord> write_circuit_file(const CompiledCircuit& c, const std::string& path,
                                           TextSink& out);
// The bytes write_circuit writes to `path`, as one string (tests, Python's bytes).
std::string circuit_file_text(const CompiledCircuit& c, const std::string& path);

}  // namespace rnncc
