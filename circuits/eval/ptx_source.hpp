// A boolean device program (circuits/eval/program.hpp) as PTX: the compiled GPU kernels written
// for the assembler directly, with no C++ front end and no NVVM (circuits/eval/cuda/compiled.hpp
// hands the text to nvJitLink, which runs ptxas alone). Plain C++: it only writes text, so it
// builds (and is tested) everywhere.
//
// Three steps.
//   1. The LUT network (lut_network). Every gate instruction becomes a node computing a function of
//      at most three earlier nodes, given by its 8-bit truth table in the encoding of PTX's
//      `lop3.b32 d, a, b, c, immLut` (PTX ISA, "Logic and Shift Instructions: lop3"): bit
//      4·a + 2·b + c of the table is the value at (a, b, c), so a = 0xF0, b = 0xCC, c = 0xAA and
//      immLut = F(0xF0, 0xCC, 0xAA). and/or/xor with their inversion flags are one node each; a
//      threshold gate Σ wᵢxᵢ ≥ θ is the bit-sliced two's-complement counter of gate_ops.hpp
//      (bits::add_masked) spelled out as full adders — sum = xor3 (0x96), carry = majority
//      (0xE8) per bit plane — and the complement of the sign plane. Constants are folded into the
//      tables as the nodes are made (an operand that is 0 or 1 is substituted, an operand the
//      table ignores is dropped, repeated operands merged), so a node is never constant unless
//      it is a constant node.
//   2. Covering (PtxOptions::cover). A node whose only reader is a node of the same partition,
//      and which is not stored for a later partition or an output, is absorbed into its reader
//      when the two together read at most three distinct nodes: the reader's table is recomputed
//      over the union of their inputs (by evaluating both tables on the 8 rows). One pass in
//      topological order, repeated on the merged node, so a cone of two or three 2-input gates
//      over three leaves is one `lop3`. This is the lever "emit LUT3s explicitly instead of
//      hoping ptxas fuses them"; with cover = false every gate is its own `lop3` and ptxas's own
//      fusion is what remains.
//   3. Partitions and rows. The schedule (the program's: depth first, operands before readers, few
//      live values) is cut into ranges of at most max_gate_instructions program gate
//      instructions, each one kernel. A thread owns 32 patterns (one 32-bit register per value)
//      of one unit u. Values pass between kernels through a global buffer of rows,
//      X[row · stride + u] (consecutive threads at consecutive addresses: coalesced): every
//      value read by a later partition is a row (stored right after it is computed, loaded at its
//      first use there), and every output and compared pair is a row (the output value with its
//      inversion; a ⊕ b for a pair), read by the sink kernel (circuits/eval/cuda/lut_kernels.cu)
//      that reduces them exactly as the interpreter does (popcounts, stored words, mismatch
//      counts and samples). An input is computed in the thread (patterns::bool_word, the function
//      every evaluator reads its inputs from, in PTX for the run's mode) by the first partition
//      that reads it, right before its first reader. So the PTX kernels hold only input
//      arithmetic, loads, `lop3`s and stores.
//
// run_lut_network is the network's plain twin on the CPU (one 64-bit word of 64 patterns at a
// time, the same digests as run_program), so step 1 and 2 are tested against the program on any
// machine; the kernels themselves against the CPU twin on the device (tests/gpu/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/eval/partition.hpp"
#include "circuits/eval/patterns.hpp"
#include "circuits/eval/program.hpp"

namespace rnncc::kernels {

inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;
// Rows of sinks that are constants: the sink kernel reads 0 or all ones instead of X.
inline constexpr std::uint32_t kRowZero = 0xFFFFFFFEu, kRowOne = 0xFFFFFFFDu;

enum class NodeKind : std::uint8_t { input, constant, lut };

struct LutNode {
  NodeKind kind = NodeKind::lut;
  std::uint8_t table = 0;  // lut: the lop3 truth table over in[0], in[1], in[2]
  std::uint8_t arity = 0;  // lut: distinct inputs (1..3); unused in[] repeat in[0]
  std::uint32_t in[3] = {0, 0, 0};
  std::uint32_t index = 0;  // input: the input's number; constant: 0 or 1
  // lut: the partition (kernel) that computes it; input (ptx_program): the first that reads it
  std::uint32_t part = 0;
};

struct LutNetwork {
  std::vector<LutNode> nodes;          // operands before readers
  std::vector<std::uint32_t> outputs;  // [output b]: the node holding output b, or kNoNode
  std::vector<std::uint32_t> pairs;  // [pair b]: the node a ⊕ b (1 where they differ), or kNoNode
  std::uint32_t parts = 0;           // partitions (kernels)
  std::size_t luts = 0;              // lut nodes that are computed (not absorbed)
  std::size_t absorbed = 0;          // lut nodes merged into their reader by covering
  std::vector<bool> dead;            // [node]: absorbed, or read by nobody
};

struct PtxOptions {
  // Program gate instructions per partition (kernel); 0 = one kernel for the whole program.
  std::size_t max_gate_instructions = 4096;
  std::uint32_t threads = 128;  // .maxntid of the kernels
  // .minnctapersm: blocks that must fit on one SM, so ptxas keeps registers per thread within
  // 65 536 / (threads · min_blocks_per_sm) (1: up to 255, spilling least; more: more warps).
  std::uint32_t min_blocks_per_sm = 1;
  // A row is loaded this many LUTs before its first reader (0: right before it), so its latency
  // overlaps the work before it, at the cost of a register held meanwhile.
  std::size_t load_lookahead = 0;
  bool cover = true;  // merge single-reader cones into 3-input LUTs
  // Where the kernels are cut (circuits/eval/partition.hpp): every max_gate_instructions gates,
  // or where the fewest loads and stores cross (inputs are computed in each kernel, so never
  // cross).
  PartitionRule partition = PartitionRule::fixed;
  // The patterns the inputs are generated for (bits_random or bits_exhaustive): the kernels
  // compute patterns::bool_word in the thread, specialised to the mode.
  patterns::Mode mode = patterns::Mode::bits_random;
  int arch = 90;  // .target sm_<arch>
};

// Throws std::invalid_argument for an arithmetic program.
LutNetwork lut_network(const Program& p, const PtxOptions& o = {});

// The plain twin: the network evaluated word by word on one thread, with run_program's digests
// (ones, mismatches, first mismatches, stored words) for a boolean RunOptions.
ProgramResult run_lut_network(const LutNetwork& net, const RunOptions& options);

// The value of a lop3 truth table on three words (bitwise): the plain definition.
std::uint64_t apply_table(std::uint8_t table, std::uint64_t a, std::uint64_t b, std::uint64_t c);

struct PtxPartition {
  std::string ptx;  // one module defining .entry `kPtxEntry`
  std::size_t luts = 0;
  std::uint32_t inputs = 0;             // inputs computed here (patterns::bool_word)
  std::uint32_t loads = 0, stores = 0;  // rows read / written
};

struct PtxProgram {
  LutNetwork net;
  std::uint32_t rows = 0;                  // rows of the value buffer X
  std::vector<std::uint32_t> output_rows;  // [output b]: row, or kNoNode (sink kernel)
  std::vector<std::uint32_t> pair_rows;    // [pair b]: row of a ⊕ b, or kNoNode
  std::vector<PtxPartition> parts;
};

inline constexpr const char* kPtxEntry = "rnncc_lut_kernel";

// Kernel parameters, in order: X (u64: address of the u32 rows), stride (u64: units per row),
// units (u64: units of this launch), first_word (u64: the launch's first 64-pattern word),
// seed (u64: patterns::Spec::seed). Throws std::invalid_argument for an arithmetic program.
PtxProgram ptx_program(const Program& p, const PtxOptions& o = {});

}  // namespace rnncc::kernels
