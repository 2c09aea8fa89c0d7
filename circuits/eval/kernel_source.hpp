// A device program (circuits/eval/program.hpp) as CUDA C++ source: the compiled twin of the GPU
// interpreter (circuits/eval/cuda/gpu.cu), compiled at run time by NVRTC
// (circuits/eval/cuda/compiled.hpp). Plain C++: it only writes text, so it builds (and is tested)
// everywhere.
//
// The lowering. The program is straight-line code over locations (slots, spill slots,
// constants); each instruction that produces a value becomes one `const` local variable of its
// own (static single assignment: location → the variable that last defined it), so the slot file,
// the spill instructions and the instruction decoding of the interpreter all disappear and the
// compiler allocates registers. A `spill` instruction is a rename (no code).
//   - boolean: a thread owns half of a 64-bit word = 32 patterns (one 32-bit register per value:
//     the same logic instructions per pattern as 64-bit words, half the registers); and/or/xor
//     with the inversion flags folded into `~`; a threshold gate is the bit-sliced two's-complement
//     counter of gate_ops.hpp (bits::add_masked over B planes, value = ~plane[B−1]) exactly as the
//     CPU twin runs it (program.cpp, run_program, case thr), with its constant weights, θ and B
//     inlined;
//   - arithmetic: a thread owns one pattern and evaluates every prime of the run (NP ≤ 8
//     residues per value, Montgomery form, algebra/mont31.hpp); truth-valued gates give 0 or the
//     Montgomery one, as exec_mod in program.hpp;
//   - inputs are generated in the thread (patterns.hpp, the same functions as the CPU twin);
//     outputs and compared pairs are reduced as the interpreter does (warp sums, atomics).
// The device functions (mont31, patterns, gate_ops, kernel_abi.hpp) are pasted into the source
// by text from the headers themselves (circuits/CMakeLists.txt embeds them), so there is one
// definition of each operation.
//
// Partitions. ptxas's time and the register allocator's quality degrade on huge functions, so the
// schedule is cut into ranges of at most max_gate_instructions gate instructions, each its own
// kernel (and its own NVRTC translation unit, compiled in parallel and cached separately). A value
// defined in one partition and read in a later one is stored once by its defining partition into a
// global buffer [value][unit] (unit = word or pattern; consecutive threads at consecutive
// addresses: coalesced) and loaded by each later partition that reads it, at its first use there.
// The partitions run in order, each over the whole chunk of patterns.
//
// What bounds a kernel: registers. Live values are registers (boolean: 1 per value; arithmetic:
// NP per value); when the peak of live values exceeds the 255-register limit ptxas spills to
// local memory (L1, then L2/HBM). The kernels declare __launch_bounds__(T, 1): with the bare
// __launch_bounds__(T), ptxas 13.0 chose 32 registers (and kilobytes of spills) for some large
// partitions of the EPFL multiplier. The schedule is the program's
// (depth-first, few live values), so the register peak is close to Program::peak_live.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/eval/kernel_abi.hpp"
#include "circuits/eval/partition.hpp"
#include "circuits/eval/program.hpp"

namespace rnncc::kernels {

struct SourceOptions {
  // Gate instructions per partition (kernel); 0 = one kernel for the whole program. Arithmetic
  // kernels take max_gate_instructions / (8 · primes · patterns_per_thread) (at least 16): see
  // kernel_source.cpp.
  std::size_t max_gate_instructions = 4096;
  std::uint32_t threads = 128;  // __launch_bounds__ of the kernels
  // Arithmetic: patterns a thread evaluates side by side (each instruction written once per
  // pattern), so that independent dependency chains hide the latency of one; partitions shrink
  // by the same factor.
  std::uint32_t patterns_per_thread = 1;
  // Where the kernels are cut (circuits/eval/partition.hpp): every max_gate_instructions gates,
  // or where the fewest loads and stores cross.
  PartitionRule partition = PartitionRule::fixed;
};

struct Partition {
  std::string source;               // one translation unit defining extern "C" kernel `entry`
  std::size_t first = 0, last = 0;  // instruction range [first, last) of the program
  std::size_t gate_instructions = 0;
  std::uint32_t loads = 0, stores = 0;  // values read from / written to the cross buffer
};

struct KernelSource {
  bool boolean = true;
  std::uint32_t primes = 1;        // arithmetic: residues per value
  std::uint32_t cross_values = 0;  // values in the cross-partition buffer
  std::vector<Partition> parts;
};

inline constexpr const char* kEntry = "rnncc_kernel";

// Throws std::invalid_argument for arithmetic with primes outside 1..kMaxPrimes.
KernelSource kernel_source(const Program& p, std::uint32_t primes, const SourceOptions& o = {});

// The device-side headers pasted into every source (without their #include lines).
const std::string& kernel_prelude();

}  // namespace rnncc::kernels
