// The GPU interface when rnncc is built without CUDA: probe() says so, and callers fall back
// to the CPU (gpu.hpp).
#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/gpu.hpp"

namespace rnncc::gpu {

DeviceInfo probe() {
  DeviceInfo d;
  d.why_not = "rnncc was built without CUDA (nvcc not found or RNNCC_ENABLE_CUDA=OFF)";
  return d;
}

std::uint32_t slot_capacity(const DeviceInfo& d, bool boolean, bool magnitude,
                            std::uint32_t threads, std::size_t primes, std::uint32_t words) {
  const std::size_t np = primes >= 4 ? 4 : (primes == 0 ? 1 : primes);
  const std::size_t bytes = boolean ? 8 * words : 4 * np + (magnitude ? 16 : 0);
  return static_cast<std::uint32_t>(d.shared_per_block / (bytes * threads));
}

ProgramResult run_program_gpu(const Program&, const RunOptions&, const LaunchConfig&, Timing*) {
  throw GpuError(probe().why_not);
}
ProgramResult run_program_interpreter(const Program&, const RunOptions&, const LaunchConfig&,
                                      Timing*) {
  throw GpuError(probe().why_not);
}

double copy_bandwidth(std::size_t) {
  throw GpuError(probe().why_not);
}
double montgomery_multiply_rate() {
  throw GpuError(probe().why_not);
}

// Compiled kernels need NVRTC: without CUDA nothing compiles (callers that reach here are the
// benchmarks and the GPU tests, which skip first without a device).
namespace compiled {

Cubin compile(const std::string&, int) {
  throw CompileError(probe().why_not);
}
void set_source_hook(std::function<void(std::string&)>) {}

}  // namespace compiled

}  // namespace rnncc::gpu
