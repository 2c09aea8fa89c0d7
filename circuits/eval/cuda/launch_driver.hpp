// The one host-side launch driver of the GPU evaluators. The interpreter (gpu.cu), the compiled
// CUDA C++ kernels (compiled.cpp) and the PTX LUT kernels (lut_kernels.cu) differ only in which
// kernels evaluate a chunk of patterns and with which arguments; everything around that is here,
// once:
//   - the launch checks: a device; threads per block a multiple of 32 up to 1024; a boolean run
//     starts at a multiple of 64 patterns (a word);
//   - the device accumulators every kernel reduces into: output counts (boolean) or output sums
//     mod each prime in Montgomery form (arithmetic), and the mismatch digest (DigestBuffers);
//   - the chunk loop: patterns.first advances a chunk at a time; each chunk's launches are timed
//     by one pair of events, and its stored outputs (RunOptions::store) are appended to the
//     result;
//   - the read-back into a ProgramResult: counts, sums out of Montgomery form, the digest.
// A path brings its kernels as a callback that enqueues one chunk's launches on the default
// stream (LaunchDriver::run).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algebra/mont31.hpp"
#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/kernel_abi.hpp"

namespace rnncc::gpu::detail {

// The checks every launch needs (above), then the device. Throws GpuError.
DeviceInfo launch_device(const Program& p, const RunOptions& o, std::uint32_t threads);

// The Montgomery fields of the primes, and the program's constants c = num/den in each:
// [field][constant], num · den⁻¹ · R mod p. Throws GpuError when a prime divides a denominator.
std::vector<mont31::Field> prime_fields(const std::vector<std::uint32_t>& primes);
std::vector<std::uint32_t> montgomery_constants(const Program& p,
                                                const std::vector<mont31::Field>& fields);

// The stored outputs of one chunk fill at most this many bytes of device memory.
inline constexpr std::uint64_t kStoreBytes = std::uint64_t{1} << 28;

// The most patterns a chunk may hold so that its stored outputs fit kStoreBytes (boolean: 64-bit
// words of 64 patterns per output, a multiple of 64; arithmetic: 4 bytes per output and prime),
// at least one word or pattern; the largest 64-bit value when the run stores nothing.
std::uint64_t store_limit(const Program& p, const RunOptions& o);

// One chunk of a run: its patterns, and where its kernels write their outputs when the run
// stores them (boolean: [word][output] 64-bit words; arithmetic: [pattern][prime][output] plain
// residues, 32 bits), else null.
struct Chunk {
  patterns::Spec spec;
  void* store = nullptr;
};

class LaunchDriver {
 public:
  LaunchDriver(const Program& p, const RunOptions& o);

  const DigestBuffers& digest() const { return digest_; }
  kernels::Digest kernel_digest() const;  // the digest as the compiled kernels take it
  unsigned long long* output_counts() const { return counts_.p; }  // boolean: [output]
  unsigned long long* output_sums() const { return sums_.p; }      // arithmetic: [prime][output]

  std::uint64_t store_limit() const { return detail::store_limit(p_, o_); }

  // Runs o.patterns in chunks of `chunk_patterns` (boolean: a multiple of 64, so every chunk but
  // the last holds whole words): `enqueue` launches a chunk's kernels on the default stream and
  // returns how many it launched; `what` names them in errors ("launching …", "running …").
  using Enqueue = std::function<std::uint64_t(const Chunk&)>;
  void run(std::uint64_t chunk_patterns, const std::string& what, const Enqueue& enqueue);

  // The accumulators and the digest read back (arithmetic: the sums out of the Montgomery form of
  // fields[j], one field per prime of the run, in order; fields past them are padding).
  ProgramResult result(const std::vector<mont31::Field>& fields = {}) const;

  double kernel_seconds() const { return kernel_seconds_; }  // events around every chunk
  std::uint64_t launches() const { return launches_; }

 private:
  const Program& p_;
  const RunOptions& o_;
  std::uint32_t primes_;  // 1 for a boolean program
  DigestBuffers digest_;
  Buffer<unsigned long long> counts_, sums_;
  std::vector<std::uint64_t> stored_;
  double kernel_seconds_ = 0;
  std::uint64_t launches_ = 0;
};

}  // namespace rnncc::gpu::detail
