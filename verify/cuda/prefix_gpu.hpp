// The GPU walk of exhaustive checks by prefix sharing (verify/prefix_check.hpp): every thread
// takes |Σ|^s consecutive, aligned strings (thread index = the prefix of length L − s), computes
// its prefix state once and walks its suffixes with the stack of states
// (verify/prefix_walk.hpp, the CPU definition of the same arithmetic); the mismatch count, the
// least mismatching string and the mat-vec count are reduced on the device. Built from
// prefix_check.cu with CUDA, else from prefix_unavailable.cpp (throws gpu::GpuError saying why).
#pragma once

#include <cstdint>
#include <string>

#include "verify/prefix_walk.hpp"

namespace rnncc::prefix {

struct GpuRun {
  WalkResult result;
  double kernel_seconds = 0;
  std::string device;
};

// `t` holds host pointers; strings [first, first + count) in tasks of `chunk` aligned strings;
// `threads` per block. Throws gpu::GpuError (no device, tables over the constant memory, a
// dimension over 32 or more than 4 primes, a CUDA failure).
GpuRun walk_gpu(const Tables& t, std::uint64_t first, std::uint64_t count, std::uint64_t chunk,
                std::uint32_t threads);

}  // namespace rnncc::prefix
