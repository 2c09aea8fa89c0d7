// What the netlist formats share — BLIF (circuits/io/blif.hpp) and ISCAS .bench
// (circuits/io/iscas.hpp) — so that both read and write netlists alike: a reader's netlist and
// its topological build (signals may be used before their definition), diagnostics at
// file:line:column, parity operands, unique signal names, the balanced XOR trees write_aiger
// also builds (circuits/passes/aig_lowering.hpp pairs operands the same way), and the view of
// a boolean circuit a writer writes (threshold gates lowered by lower_threshold_gates,
// circuits/passes/lower_threshold.hpp). For the netlist readers and writers only.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

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

// The offset of the first byte of `s` that does not belong to a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or npos. Names are
// checked where they are read: a name that is not UTF-8 cannot be written to JSON (the circuit
// format, --json reports), so it is refused with its file:line:column, not discovered on output.
std::size_t utf8_error(std::string_view s);
// Throws the InputError "expected a UTF-8 name (byte 0xNN is not UTF-8)" at the first bad byte
// of `token`, which starts at byte offset `at` of `text`.
void check_utf8_name(std::string_view text, const std::string& source, std::string_view token,
                     std::size_t at);

// The operands of a parity over `fanins` with repeated signals cancelled in pairs (x ⊕ x = 0).
std::vector<GateId> xor_operands(std::span<const GateId> fanins);

// The naming scheme of the netlist formats (docs/formats.md, "Names in AIGER, BLIF and .bench"):
// one spelling of a name, legal in an AIGER symbol, in BLIF and in .bench as ABC reads them, so
// that rnncc's .aig, .blif and .bench of one circuit carry the same names (ABC's plain `cec`
// matches inputs and outputs by name). Printable ASCII except the characters some format
// reserves is kept — brackets included; every other byte is written %XX (two upper-case hex
// digits): blanks and control bytes, '#' (comments in BLIF and .bench), ',', '(', ')', '='
// (.bench punctuation; ABC's .bench reader splits names at them), '\' (BLIF continuation), '%'
// (the escape itself), a leading '.' (a BLIF directive), and the first letter of INPUT/OUTPUT
// (any case: ABC's .bench reader takes a line starting with them for a declaration), and every
// byte above 0x7F (ABC's readers split names at them: `aσ` reads as `a`), so σ is %CF%83. So
// x[1,0] is written x[1%2C0] in all three formats.
std::string encode_name(std::string_view name);
// The inverse, applied by every netlist reader (AIGER symbols, BLIF, .bench) to the names of
// inputs and outputs: each %XX with two hex digits becomes its byte; a '%' not followed by two
// hex digits is kept. decode_name(encode_name(s)) == s for every s.
std::string decode_name(std::string_view name);
// decode_name(token) for a reader: token starts at byte offset `at` of `text`; a name that
// decodes to bytes that are not UTF-8 (a%FF) is the InputError "the name 'a%FF' is not UTF-8
// once its %XX escapes are decoded" there (circuit names are UTF-8: JSON needs it).
std::string decode_name_at(std::string_view text, const std::string& source, std::string_view token,
                           std::size_t at);

// Unique signal names for writing: inputs keep their names, outputs name the gate that drives
// them where they can, other gates are n<id>; every name is spelled by encode_name, and clashes
// get a suffix _1, _2, ….
class SignalNames {
 public:
  explicit SignalNames(std::vector<std::string> reserved = {});
  // encode_name(wanted) ("_" when empty).
  std::string sanitize(std::string_view wanted) const;
  // sanitize(wanted), or with the first free suffix _1, _2, … when taken; marks it taken.
  std::string fresh(std::string_view wanted);

 private:
  std::unordered_set<std::string> taken_;
  std::unordered_map<std::string, std::size_t> next_suffix_;
};

// The names of a circuit's inputs and outputs as every netlist writer spells them (input names,
// or i<k> when empty; output names, or o<k>): `input_names[i]` of input i, `output_names[k]` of
// output k, and `output_is_input[k]` when output k is the input of the same name (no buffer).
struct PortNames {
  std::vector<std::string> input_names, output_names;
  std::vector<bool> output_is_input;
};
PortNames port_names(const Circuit& c, SignalNames& names);

// A parity of ≥ 2 signals as a balanced tree of two-input XORs, paired level by level as
// write_aiger pairs them: the root is named `root`, inner nodes get fresh names from it, and
// emit(name, a, b) writes one XOR node.
template <class Emit>
void xor_tree(std::vector<std::string> level, const std::string& root, SignalNames& names,
              Emit&& emit) {
  while (level.size() > 1) {
    std::vector<std::string> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
      std::string x = level.size() == 2 ? root : names.fresh(decode_name(root) + "_x");
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
