// Bulk evaluation of device programs (circuits/eval/program.hpp) on an NVIDIA GPU.
//
// One kernel per mode, both persistent (a grid that fills the chip and strides over the
// patterns), both keeping every value of the program on chip: a thread owns one column of a
// shared-memory slot file (slot s of thread t at s·T + t, so a warp's accesses are consecutive
// and conflict-free) and reads the spill slots Belady's rule left it from global memory, laid
// out the same way. The instruction stream is read by every thread of a block at the same
// address (a broadcast), one instruction ahead.
//   - boolean: a thread evaluates one or two 64-bit words = 64 or 128 patterns per pass
//     (bit-sliced);
//     threshold gates through a bit-sliced two's-complement counter (gate_ops.hpp);
//   - arithmetic: a thread evaluates one pattern for up to 4 primes per pass over the program
//     (each instruction decoded once, evaluated per prime), in Montgomery form
//     (algebra/mont31.hpp), with the float shadow (value and error bound) if asked.
// Inputs are generated on the device (circuits/eval/patterns.hpp); outputs are reduced on the
// device (popcounts, sums mod p, per-pair mismatch counts, the smallest mismatching pattern, the
// largest bound on a compared difference) so only those figures return — unless `store` asks for
// every value. Runs longer than one launch are split into chunks (patterns.first advances); every
// CUDA call is checked, and a failure is reported with the call and its context (GpuError).
//
// Without CUDA (or without a device) `probe` says why and the callers fall back to the CPU.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "circuits/eval/partition.hpp"
#include "circuits/eval/program.hpp"

namespace rnncc::gpu {

struct DeviceInfo {
  bool available = false;
  std::string why_not;  // when unavailable: "built without CUDA", "no CUDA device: …"
  std::string name;
  int multiprocessors = 0;
  std::size_t global_memory = 0;
  std::size_t shared_per_block = 0;  // opt-in maximum of dynamic shared memory per block
  double memory_bandwidth = 0;       // bytes/s from the memory clock and bus width
};

// Never throws.
DeviceInfo probe();

// Which evaluator runs a program: the interpreter below; the program compiled to straight-line
// kernels (circuits/eval/cuda/compiled.hpp); or background: the interpreter at once while the
// kernels compile on the host, the remaining patterns on the compiled kernels once they are
// ready. automatic picks by estimated work (circuits/eval/cuda/choice.cpp states the rule and
// the figures it rests on).
enum class KernelChoice : std::uint8_t { automatic, interpreter, compiled, background };

// How compiled boolean kernels are written: PTX of a 3-input LUT network assembled by nvJitLink
// (circuits/eval/ptx_source.hpp), or CUDA C++ compiled by NVRTC (circuits/eval/kernel_source.hpp).
enum class BooleanKernels : std::uint8_t { ptx, cuda_cpp };

struct LaunchConfig {
  std::uint32_t threads = 128;                            // per block
  std::uint32_t blocks_per_sm = 0;                        // 0 = as many as fit
  std::uint64_t chunk_patterns = std::uint64_t{1} << 30;  // patterns per launch (multiple of 64)
  std::uint32_t words_per_thread =
      1;  // boolean: 1 or 2 words of 64 patterns per thread (interpreter)
  KernelChoice kernel = KernelChoice::automatic;
  // The automatic choice weighs the patterns of the whole job this launch is a part of (a block
  // of a sharded run: algebra/sharded_run.hpp), when larger than the launch's own: compiled
  // kernels, cached after the first block, pay for themselves over the job. 0: the launch's.
  std::uint64_t job_patterns = 0;
  // Compiled path: gate instructions per kernel (partition; kernel_source.hpp); 0 = one kernel.
  std::size_t max_gate_instructions = 4096;
  // Compiled path: where the kernels are cut (circuits/eval/partition.hpp): fixed, or
  // min_traffic (the fewest loads and stores between kernels of half to all of
  // max_gate_instructions).
  kernels::PartitionRule partition = kernels::PartitionRule::fixed;
  BooleanKernels boolean_kernels = BooleanKernels::ptx;
  // Compiled arithmetic: patterns a thread evaluates side by side (SourceOptions).
  std::uint32_t patterns_per_thread = 1;
  bool lut_cover = true;  // PTX: merge single-reader cones into 3-input LUTs (ptx_source.hpp)
  std::uint32_t lut_min_blocks_per_sm = 1;  // PTX: .minnctapersm (PtxOptions)
  std::size_t lut_load_lookahead = 0;       // PTX: PtxOptions::load_lookahead
  // PTX: ptxas's optimization level, 0 to 3 (compiled.hpp, nvjitlink_options): lower levels
  // assemble faster; what they cost at run time is measured by bench/gpu_eval, not assumed.
  std::uint32_t ptxas_optimization = 3;
  // Background compile, for tests: after this many interpreter chunks, wait for the kernels
  // (0: never wait, switch when they are ready).
  std::uint64_t background_wait_after_chunks = 0;
};

// The slot capacity to lower a program with, so that its slot file fits the shared memory of
// one block of `threads` threads (boolean: 8 bytes a slot; arithmetic: 4 per prime evaluated in
// one pass — up to 4 — plus 16 with the float shadow; boolean with 2 words per thread: 16).
std::uint32_t slot_capacity(const DeviceInfo& d, bool boolean, bool magnitude,
                            std::uint32_t threads, std::size_t primes = 1,
                            std::uint32_t words_per_thread = 1);

struct Timing {
  double kernel_seconds = 0;  // device time of the evaluation kernels (events)
  double total_seconds = 0;   // including transfers and reductions
  std::uint32_t blocks = 0, threads = 0, slots = 0;
  std::uint64_t launches = 0;
  // The evaluator that ran: "interpreter", "compiled" or "compiled (cached)" (every kernel from
  // the disk cache); compile_seconds is NVRTC's time (plus cache reads and module loading), not
  // in kernel_seconds or total_seconds.
  std::string path;
  std::string compiler;  // compiled path: "PTX (nvJitLink)" or "CUDA C++ (NVRTC)"
  double compile_seconds = 0;
  std::string notice;  // why the compiled path was not taken (NVRTC's failure), else empty
  // Background compile: patterns interpreted before the switch to the compiled kernels (all of
  // them when the interpreter finished first); path says "interpreter, then compiled".
  std::uint64_t switched_at = 0;
  // Compiled path, the largest over its kernels: registers per thread and local-memory bytes per
  // thread (ptxas's spills); kernels (partitions) and values crossing them.
  std::uint32_t kernels = 0, registers = 0, cross_values = 0;
  std::uint64_t local_bytes = 0;
  std::size_t luts = 0;  // PTX path: lop3 instructions per 32 patterns (ptx_source.hpp)
};

class GpuError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs the program on every pattern of options.patterns, like run_program (the CPU twin):
// ones / sums / mismatches / first_mismatch equal the twin's bit for bit; first_mismatches holds
// some mismatching patterns (sorted), not necessarily the smallest. Throws GpuError.
// config.kernel picks the evaluator; a failing NVRTC compile falls back to the interpreter with a
// one-line notice on stderr (and in timing->notice).
ProgramResult run_program_gpu(const Program& p, const RunOptions& options,
                              const LaunchConfig& config = {}, Timing* timing = nullptr);
// The interpreter alone (what run_program_gpu runs with KernelChoice::interpreter).
ProgramResult run_program_interpreter(const Program& p, const RunOptions& options,
                                      const LaunchConfig& config = {}, Timing* timing = nullptr);

// Ceilings measured on the device (measured, not quoted from datasheets), for benchmarks:
// device-to-device copy bandwidth in bytes/s (bytes read + bytes written), and the rate of
// Montgomery multiplications mod a 31-bit prime (many independent chains) per second.
double copy_bandwidth(std::size_t bytes = std::size_t{4} << 30);
double montgomery_multiply_rate();

}  // namespace rnncc::gpu
