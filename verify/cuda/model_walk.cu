// The GPU model walk (model_walk_gpu.hpp): verify/model_walk.hpp's walk(), unchanged, one task of
// |Σ|^s aligned strings per thread and iteration of a grid-stride loop:
//   - the layer table and the parameters live in constant memory: the threads of a warp walk
//     consecutive aligned tasks in lock step (their low digits agree), so every parameter read
//     is uniform across the warp — the constant cache's broadcast case;
//   - the stack of frames is a local array sized at compile time (SW words, the smallest of
//     1 Ki, 4 Ki, 16 Ki that holds (L + 1) frames): local memory is interleaved per thread by
//     the hardware, so the lock-step reads and writes of a warp coalesce.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "verify/cuda/model_walk_gpu.hpp"

namespace rnncc::mwalk {

namespace {

__constant__ std::int64_t c_P[kGpuMaxParameters];
__constant__ Tables c_tables;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw gpu::GpuError(std::string(what) + " failed: " + cudaGetErrorString(e));
}

struct Range {
  std::uint64_t first, end, chunk, tasks;
};

struct Out {
  unsigned long long mismatches, first, skipped, overflowed, first_overflow, steps;
};

template <int SW>
__global__ void __launch_bounds__(128) walk_kernel(Range p, Out* out) {
  const Tables& t = c_tables;
  std::int64_t stack[SW];
  std::uint32_t digits[kMaxLength];
  bool bad[kMaxLength + 1];
  unsigned long long mism = 0, first = kNone, skipped = 0, over = 0, first_over = kNone, steps = 0;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t task = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       task < p.tasks; task += stride) {
    const std::uint64_t base = p.first / p.chunk * p.chunk + task * p.chunk;
    const std::uint64_t lo = base > p.first ? base : p.first;
    const std::uint64_t hi = base + p.chunk < p.end ? base + p.chunk : p.end;
    const WalkResult w = walk(t, lo, hi - lo, stack, digits, bad);
    if (w.mismatches && mism == 0) first = w.first;
    mism += w.mismatches;
    if (w.overflowed && over == 0) first_over = w.first_overflow;
    over += w.overflowed;
    skipped += w.skipped;
    steps += w.steps;
  }
  for (int o = 16; o > 0; o >>= 1) {
    mism += __shfl_down_sync(0xffffffffu, mism, o);
    skipped += __shfl_down_sync(0xffffffffu, skipped, o);
    over += __shfl_down_sync(0xffffffffu, over, o);
    steps += __shfl_down_sync(0xffffffffu, steps, o);
    first = min(first, __shfl_down_sync(0xffffffffu, first, o));
    first_over = min(first_over, __shfl_down_sync(0xffffffffu, first_over, o));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&out->steps, steps);
    atomicAdd(&out->skipped, skipped);
    if (mism) {
      atomicAdd(&out->mismatches, mism);
      atomicMin(&out->first, first);
    }
    if (over) {
      atomicAdd(&out->overflowed, over);
      atomicMin(&out->first_overflow, first_over);
    }
  }
}

template <int SW>
void launch(const Range& p, std::uint32_t threads, std::uint64_t blocks, Out* out) {
  walk_kernel<SW><<<static_cast<unsigned>(blocks), threads>>>(p, out);
}

}  // namespace

GpuRun walk_gpu(const Tables& host, std::size_t parameters, std::uint64_t first,
                std::uint64_t count, std::uint64_t chunk, std::uint32_t threads) {
  const gpu::DeviceInfo dev = gpu::probe();
  if (!dev.available) throw gpu::GpuError(dev.why_not);
  if (threads == 0 || threads % 32 != 0 || threads > 128)
    throw gpu::GpuError("model walk: threads per block must be a multiple of 32 up to 128");
  if (parameters > kGpuMaxParameters)
    throw gpu::GpuError("model walk: " + std::to_string(parameters) +
                        " parameter words exceed the constant memory's " +
                        std::to_string(kGpuMaxParameters));
  const std::uint64_t frames = static_cast<std::uint64_t>(host.length + 1) * host.frame_words;
  if (frames > 16384)
    throw gpu::GpuError("model walk: " + std::to_string(frames) +
                        " stack words per thread exceed the kernels' 16 Ki");
  Tables t = host;
  void* p_dev = nullptr;
  check(cudaGetSymbolAddress(&p_dev, c_P), "cudaGetSymbolAddress");
  t.P = static_cast<const std::int64_t*>(p_dev);
  if (parameters)
    check(cudaMemcpyToSymbol(c_P, host.P, parameters * sizeof(std::int64_t)),
          "cudaMemcpyToSymbol(parameters)");
  check(cudaMemcpyToSymbol(c_tables, &t, sizeof t), "cudaMemcpyToSymbol(tables)");
  gpu::detail::Buffer<Out> dout(1, "the model walk's result");
  const Out init{0, kNone, 0, 0, kNone, 0};
  dout.upload(&init, "the model walk's result");
  Range r{first, first + count, chunk, 0};
  r.tasks = (first + count - 1) / chunk - first / chunk + 1;
  // A grid-stride loop over the tasks: 16 blocks of `threads` per multiprocessor at most.
  const std::uint64_t blocks = std::min<std::uint64_t>(
      (r.tasks + threads - 1) / threads, static_cast<std::uint64_t>(dev.multiprocessors) * 16);
  const double seconds = gpu::detail::timed_launches("the model walk kernel", [&] {
    if (frames <= 1024)
      launch<1024>(r, threads, blocks, dout.p);
    else if (frames <= 4096)
      launch<4096>(r, threads, blocks, dout.p);
    else
      launch<16384>(r, threads, blocks, dout.p);
  });
  const Out res = dout.download("the model walk's result")[0];
  GpuRun g;
  g.result.mismatches = res.mismatches;
  g.result.first = res.first;
  g.result.skipped = res.skipped;
  g.result.overflowed = res.overflowed;
  g.result.first_overflow = res.first_overflow;
  g.result.steps = res.steps;
  g.kernel_seconds = seconds;
  g.device = dev.name;
  return g;
}

}  // namespace rnncc::mwalk
