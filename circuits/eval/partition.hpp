// Where the compiled kernels of a device program (circuits/eval/program.hpp) are cut: the
// program's schedule is split into consecutive ranges of instructions, one kernel each
// (circuits/eval/kernel_source.hpp, circuits/eval/ptx_source.hpp), and every value read by a
// later range than its own crosses through global memory — one store after it is computed, one
// load in each later kernel that reads it. Two rules:
//   fixed        a new kernel at the first gate instruction past max_gates (what the emitters
//                always did; the plain rule);
//   min_traffic  the cuts with the fewest stores and loads of crossing values, among every choice
//                of cuts at gate instructions whose kernels hold between min_gates and max_gates
//                gate instructions (the last may hold fewer), on a grid of `stride` gates — and
//                the fixed cuts, so never more traffic than those.
//
// min_traffic is exact on its grid. Number the gate instructions 0..G−1 and give instruction i
// the key κ(i) of the last gate at or before it (κ = 0 before the first); a cut at gate k starts
// a new kernel there, so instruction i is in kernel #{cuts ≤ κ(i)}. A value defined at key a_v
// and read at keys r > a_v costs, in the kernel [k′, k): a store when k′ ≤ a_v < k ≤ max r (it is
// read past the kernel), a load when a_v < k′ and some r lies in [k′, k). Both depend on k′ and k
// alone, so with f(k) the least traffic of the kernels before a cut at k,
//   f(0) = 0,   f(k) = min_{k − max ≤ k′ ≤ k − min} f(k′) + stores(k′, k) + loads(k′, k),
// and the answer is min f(k′) + loads(k′, G) over the k′ with G − k′ ≤ max. For fixed k, both
// counts are swept as k′ goes down from k − 1: a value starts loading at the largest of its reads
// below k and stops at a_v. The plain twin is the search over every cut set (min_traffic_search,
// for tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "circuits/eval/program.hpp"

namespace rnncc::kernels {

enum class PartitionRule : std::uint8_t { fixed, min_traffic };

// Program instructions that are gates (everything but input, spill, output and compare).
bool is_gate_instruction(ProgOp op);
// The locations an instruction reads, in reading order (threshold gates: their aux list).
std::vector<std::uint32_t> operand_locations(const Program& p, const Instr& in);
// For every instruction, the instruction that defines each operand it reads (in
// operand_locations' order) through spill renames, or kNoDefinition for a constant. A spill only
// renames: its one entry is what it renames, not a read of a value.
inline constexpr std::int64_t kNoDefinition = -1;
std::vector<std::vector<std::int64_t>> operand_definitions(const Program& p);

struct PartitionOptions {
  PartitionRule rule = PartitionRule::fixed;
  std::size_t max_gates = 4096;  // 0: one kernel
  std::size_t min_gates = 0;     // min_traffic: 0 = max_gates / 2
  std::size_t stride = 16;       // min_traffic: cuts at multiples of this many gates
  // Whether a value an input instruction defines crosses like the others (CUDA C++ kernels) or
  // is computed again in every kernel that reads it (PTX kernels).
  bool inputs_cross = true;
};

// A value that may cross: the key of its definition and the keys of its reads past it (sorted,
// distinct).
struct ValueReads {
  std::size_t a = 0;
  std::vector<std::size_t> reads;
};
std::vector<ValueReads> value_reads(const Program& p, bool inputs_cross);

// The instructions that start a kernel: {0, c₁, …, c_K, n} with n = p.code.size() (kernel q is
// [cuts[q], cuts[q + 1])). Throws std::invalid_argument when min_gates > max_gates or
// stride = 0.
std::vector<std::size_t> partition_cuts(const Program& p, const PartitionOptions& o);

// What crosses the cuts, counted instruction by instruction: the values read in a later kernel
// than their own (one store each) and the loads (one per value and later kernel that reads it).
struct CrossTraffic {
  std::size_t values = 0, loads = 0;
  std::size_t total() const { return values + loads; }
};
CrossTraffic cross_traffic(const Program& p, const std::vector<std::size_t>& cuts,
                           bool inputs_cross);

// The plain twin of min_traffic: the least total() of every cut set on the grid and of the fixed
// cuts, searched; small programs only (std::invalid_argument past 24 grid points).
std::size_t min_traffic_search(const Program& p, const PartitionOptions& o);

}  // namespace rnncc::kernels
