// Without CUDA: the GPU walk of prefix sharing is unavailable (prefix_gpu.hpp), like
// circuits/eval/cuda/gpu_unavailable.cpp.
#include "circuits/eval/cuda/gpu.hpp"
#include "verify/cuda/prefix_gpu.hpp"

namespace rnncc::prefix {

GpuRun walk_gpu(const Tables&, std::uint64_t, std::uint64_t, std::uint64_t, std::uint32_t) {
  throw gpu::GpuError(gpu::probe().why_not);
}

}  // namespace rnncc::prefix
