// ISCAS-89 `.bench` netlists, combinational subset (Brglez, Bryan and Koźmiński, "Combinational
// profiles of sequential benchmark circuits", ISCAS 1989; the format of the ISCAS-85/89
// benchmark distributions, read and written by ABC's read_bench/write_bench).
//
//   # comment (to the end of the line)
//   INPUT(a)
//   OUTPUT(y)
//   y = NAND(a, c)        gate types: AND NAND OR NOR XOR XNOR (n-ary, ≥ 1 operand), NOT,
//   c = XOR(a, b)         BUFF/BUF (1 operand); case-insensitive
//   k = vdd               ABC's constants: vdd = 1, gnd = 0
//   z = LUT 0x6 (a, b)    ABC's write_bench: a k-input lookup table (k ≤ 16), bit m of the hex
//                         number is the value at the minterm where input i is bit i of m
//
// Reading builds gates through CircuitBuilder: NAND = ¬AND, NOR = ¬OR, XNOR = ¬XOR (parity),
// BUFF is the operand itself; a LUT becomes an xor when it is a parity function, otherwise its
// Shannon expansion on the last input, f = (x ∧ f₁) ∨ (¬x ∧ f₀), shared through hash-consing.
// Signals may be used before their definition (topological resolution, netlist_io::build in
// circuits/io/netlist.hpp); an undefined signal, a cycle, a signal defined twice, an unknown gate
// type, a wrong operand count are InputErrors at file:line:column; DFF is refused ("sequential
// .bench is not supported").
//
// Writing: boolean circuits (and, or, xor, not, maj, thr, 0/1 constants) as AND, OR, NOT, XOR
// (2-input, as ABC requires: an n-ary xor is the balanced tree write_aiger builds), BUFF, vdd and
// gnd; threshold gates are lowered first (lower_threshold_gates,
// circuits/passes/lower_threshold.hpp).
#pragma once

#include <string>
#include <string_view>

#include "circuits/circuit.hpp"
#include "circuits/io/text_sink.hpp"

namespace rnncc {

Circuit parse_bench(std::string_view text, const std::string& source);
Circuit load_bench(const std::string& path);
// Throws InputError("bench", …) naming the first gate that is not boolean.
// The file into `out` as a stream (circuits/io/text_sink.hpp); the string form collects it.
void write_bench(const Circuit& c, TextSink& out);
std::string write_bench(const Circuit& c);

}  // namespace rnncc
