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
// gates are first rewritten by `lower_threshold_gates` (a bit-sliced adder and a comparator, no
// exponential cover). Each gate is one `.names`: and = one cube, or = one cube per operand,
// not = "0 1", a constant a cover without inputs; an n-ary xor (whose cover would have 2^(n−1)
// rows) is written as the balanced tree of 2-input xor covers that write_aiger also builds.
// Duplicate operands are dropped (x∧x = x, x⊕x = 0). ABC's `strash` of this file and of
// write_aiger's file then give the same AND count and levels whenever and/or gates have at most
// 3 operands (ABC strashes a cover as a chain ((a∧b)∧c)∧d, write_aiger as a balanced tree):
// tests/circuits/test_abc_oracle.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

Circuit parse_blif(std::string_view text, const std::string& source);
Circuit load_blif(const std::string& path);

// `model` names the .model (sanitized). Throws InputError("blif", …) naming the first gate
// that is not boolean (arithmetic or test gates, constants other than 0 and 1).
std::string write_blif(const Circuit& c, std::string_view model = "rnncc");

// Rewrites every `maj` and `thr` gate into and/or/xor/not gates; copies every other gate as it
// is (same kind, operands, order), with the inputs, their names and the outputs.
//
// Construction (a bit-sliced adder-comparator): with yᵢ = xᵢ for wᵢ > 0 and yᵢ = ¬xᵢ for wᵢ < 0
// (wᵢxᵢ = wᵢ − |wᵢ|·¬xᵢ), thr(x; w; θ) = [Σ wᵢxᵢ ≥ θ] = [S ≥ T] with S = Σ |wᵢ|·yᵢ and
// T = θ + Σ_{wᵢ<0} |wᵢ|; maj(x₁..x_k) = [Σ xᵢ ≥ ⌊k/2⌋ + 1]. T ≤ 0 is the constant 1 and T > Σ|wᵢ|
// the constant 0. Otherwise yᵢ is put into column j of a bit matrix for every bit j set in |wᵢ|,
// and the columns are compressed from the least significant up (a Wallace/Dadda reduction):
// three bits of a column become a full adder (t = a⊕b, sum = t⊕c, carry = (a∧b) ∨ (c∧t), the
// carry going one column up), two bits a half adder (a⊕b, a∧b), until every column holds at
// most one bit s_j. Then S ≥ T by the ripple comparator g₋₁ = 1, g_j = s_j ∧ g_{j−1} where bit
// j of T is 1 and g_j = s_j ∨ g_{j−1} where it is 0 (S[j..0] ≥ T[j..0] iff s_j > t_j, or they are
// equal and the lower bits compare ≥). Size: O(Σ bits(|wᵢ|)) gates; depth O(log k + log W)
// adder levels plus ⌈log₂ (W+1)⌉ comparator levels, W = Σ|wᵢ|.
Circuit lower_threshold_gates(const Circuit& c);

// Shared by the BLIF and ISCAS .bench readers and writers (circuits/io/iscas.cpp); not for other
// callers.
namespace netlist_io {

// A named netlist as a reader found it: the declared inputs and outputs and the definitions
// (one signal each, with its fanin names), positions are byte offsets into `text`.
struct Netlist {
  struct Use {
    std::string_view name;
    std::size_t at;
  };
  struct Node {
    Use signal;
    std::uint32_t first_fanin = 0, fanin_count = 0;
  };
  std::vector<Use> inputs, outputs, fanins;
  std::vector<Node> nodes;
};

// Builds the circuit: inputs in declaration order, then every node in topological order
// (file order among the ready ones), then the outputs in declaration order. `build(b, node,
// fanins)` makes node's gate from its fanins' gates. InputErrors (at source:line:column): an
// input or output declared twice, a signal defined twice (or an input defined again), a signal
// that is used but never defined, a combinational cycle.
using BuildNode =
    std::function<GateId(CircuitBuilder&, std::size_t node, std::span<const GateId> fanins)>;
Circuit build(const Netlist& n, std::string_view text, const std::string& source,
              const BuildNode& build_node);

[[noreturn]] void fail_at(std::string_view text, const std::string& source, std::size_t at,
                          const std::string& what);

// The operands of a parity over `fanins` with repeated signals cancelled in pairs (x ⊕ x = 0).
std::vector<GateId> xor_operands(std::span<const GateId> fanins);

// Unique signal names for writing: inputs keep their names, outputs name the gate that drives
// them where they can, other gates are n<id>; characters a format does not allow become '_',
// and clashes get a suffix _1, _2, ….
class SignalNames {
 public:
  // `legal(ch, first)` says whether a character may appear in a name (first: as its first
  // character); `reserved` lists names to avoid.
  SignalNames(std::function<bool(char, bool)> legal, std::vector<std::string> reserved = {});
  // `wanted` with illegal characters replaced by '_' ("_" when empty).
  std::string sanitize(std::string_view wanted) const;
  // sanitize(wanted), or with the first free suffix _1, _2, … when taken; marks it taken.
  std::string fresh(std::string_view wanted);

 private:
  std::function<bool(char, bool)> legal_;
  std::unordered_set<std::string> taken_;
  std::unordered_map<std::string, std::size_t> next_suffix_;
};

// A parity of ≥ 2 signals as a balanced tree of two-input XORs, paired level by level as
// write_aiger pairs them: the root is named `root`, inner nodes get fresh names from it, and
// emit(name, a, b) writes one XOR node.
template <class Emit>
void xor_tree(std::vector<std::string> level, const std::string& root, SignalNames& names,
              Emit&& emit) {
  while (level.size() > 1) {
    std::vector<std::string> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
      std::string x = level.size() == 2 ? root : names.fresh(root + "_x");
      emit(x, level[i], level[i + 1]);
      next.push_back(std::move(x));
    }
    if (level.size() % 2) next.push_back(level.back());
    level = std::move(next);
  }
}

// How a boolean circuit is written as a netlist: the (threshold-free) circuit, the name of
// every gate, and the output names with the gates they must copy (a buffer) when the output
// cannot simply be the gate's own signal (it is an input, or a second output of the same gate).
struct NetlistView {
  Circuit circuit;  // c itself, or lower_threshold_gates(c)
  std::vector<std::string> gate_names;
  std::vector<std::string> output_names;
  std::vector<std::pair<std::string, GateId>> buffers;  // output name, gate it copies
};
// Checks the gate kinds (InputError(format, …) naming the first gate that is not boolean),
// lowers threshold gates and names every signal.
// `where` is the InputError's place ("blif", "bench"), `format` the name in its message.
NetlistView prepare(const Circuit& c, const std::string& where, const std::string& format,
                    SignalNames& names);

// The operands of an and/or (duplicates dropped) or xor (pairs cancel) gate, in first-use order.
std::vector<GateId> distinct_operands(const Circuit& c, GateId id);

}  // namespace netlist_io

}  // namespace rnncc
