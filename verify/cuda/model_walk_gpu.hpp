// The GPU walk of exhaustive model checks by prefix sharing (verify/model_walk_check.hpp): every
// thread takes |Σ|^s consecutive, aligned strings, computes its prefix's frames once and walks
// its suffixes with the stack of frames (verify/model_walk.hpp, the CPU definition of the same
// integer arithmetic); the counts, the least mismatching and the least overflowing string and
// the step count are reduced on the device. Built from model_walk.cu with CUDA, else from
// model_walk_unavailable.cpp (throws gpu::GpuError saying why).
#pragma once

#include <cstdint>
#include <string>

#include "verify/model_walk.hpp"

namespace rnncc::mwalk {

struct GpuRun {
  WalkResult result;
  double kernel_seconds = 0;
  std::string device;
};

// `t` holds host pointers (t.P: `parameters` words); strings [first, first + count) in tasks of
// `chunk` aligned strings; `threads` per block (a multiple of 32, ≤ 256). Throws gpu::GpuError (no
// device, parameters over the constant memory, a CUDA failure).
GpuRun walk_gpu(const Tables& t, std::size_t parameters, std::uint64_t first, std::uint64_t count,
                std::uint64_t chunk, std::uint32_t threads);

}  // namespace rnncc::mwalk
