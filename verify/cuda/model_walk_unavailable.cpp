// Without CUDA: the GPU model walk is unavailable (model_walk_gpu.hpp), like
// prefix_unavailable.cpp.
#include "circuits/eval/cuda/gpu.hpp"
#include "verify/cuda/model_walk_gpu.hpp"

namespace rnncc::mwalk {

GpuRun walk_gpu(const Tables&, std::size_t, std::uint64_t, std::uint64_t, std::uint64_t,
                std::uint32_t) {
  throw gpu::GpuError(gpu::probe().why_not);
}

}  // namespace rnncc::mwalk
