// The PTX path of the compiled boolean kernels (compiled.hpp, run_lut): the program as a LUT
// network in PTX (circuits/eval/ptx_source.hpp), one kernel per partition, assembled by nvJitLink
// in parallel and cached (the inputs are computed in them), then one fixed kernel compiled with
// rnncc itself: the sink kernel reads the output and pair rows and reduces them with the compiled
// kernels' reductions (circuits/eval/kernel_reductions.hpp), so the digests equal the
// interpreter's and the CPU twin's bit for bit.
// A unit is 32 patterns (one 32-bit register per value in the LUT kernels, as in the CUDA C++
// kernels); a chunk is a run of whole 64-pattern words whose rows fit in half the free memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <memory>
#include <thread>

#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/launch_driver.hpp"
#include "circuits/eval/kernel_abi.hpp"
#include "circuits/eval/kernel_reductions.hpp"
#include "circuits/eval/patterns.hpp"
#include "circuits/eval/ptx_source.hpp"

namespace rnncc::gpu::compiled {

namespace {

using detail::Buffer;
using Clock = std::chrono::steady_clock;

struct EdgeArgs {
  patterns::Spec spec;  // this chunk's patterns (first a multiple of 64)
  kernels::Digest d;
  std::uint32_t* X;
  std::uint64_t stride;              // units per row
  std::uint64_t units;               // units of this chunk: 2 · ⌈count / 64⌉
  const std::uint32_t* output_rows;  // [output]
  const std::uint32_t* pair_rows;    // [pair]
  std::uint32_t pairs;
  unsigned long long* ones;  // [output]
  std::uint64_t* store;      // [word][output] or null
};

__device__ __forceinline__ std::uint32_t sink_value(const EdgeArgs& A, std::uint32_t row,
                                                    std::uint64_t u) {
  if (row == kernels::kRowZero) return 0;
  if (row == kernels::kRowOne) return ~0u;
  return A.X[row * A.stride + u];
}

// Every thread of the grid runs (full warps for the reductions); a thread past the end reads the
// last unit with an empty mask.
__global__ void lut_sink_kernel(EdgeArgs A) {
  using namespace kernels;
  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool active = t < A.units;
  const std::uint64_t u = active ? t : A.units - 1;
  const std::uint64_t w = u >> 1, h = u & 1, sh = 32 * h, lo = 64 * w + sh;
  const std::uint64_t valid = A.spec.count > lo ? A.spec.count - lo : 0;
  const std::uint32_t mask = !active ? 0u : valid >= 32 ? ~0u : (1u << valid) - 1;
  std::uint32_t* const S = reinterpret_cast<std::uint32_t*>(A.store);
  for (std::uint32_t k = 0; k < A.d.outputs; ++k) {
    const std::uint32_t row = A.output_rows[k];
    if (row == kNoNode) continue;
    const std::uint32_t x = sink_value(A, row, u);
    if (S && active) S[2 * (w * A.d.outputs + k) + h] = x;
    count_ones(A.ones + k, x & mask);
  }
  for (std::uint32_t k = 0; k < A.pairs; ++k) {
    const std::uint32_t row = A.pair_rows[k];
    if (row == kNoNode) continue;
    compare_words(A.d, k, sink_value(A, row, u) & mask, A.spec.first + lo);
  }
}

template <class T>
std::unique_ptr<Buffer<T>> uploaded(const std::vector<T>& v, const std::string& what) {
  auto b = std::make_unique<Buffer<T>>(std::max<std::size_t>(v.size(), 1), what);
  if (!v.empty())
    RNNCC_CUDA(cudaMemcpy(b->p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
               "uploading " + what);
  return b;
}

}  // namespace

kernels::PtxOptions ptx_options(const LaunchConfig& config, int arch, patterns::Mode mode) {
  kernels::PtxOptions po;
  po.mode = mode;
  po.max_gate_instructions = config.max_gate_instructions;
  po.threads = config.threads;
  po.cover = config.lut_cover;
  po.min_blocks_per_sm = config.lut_min_blocks_per_sm;
  po.load_lookahead = config.lut_load_lookahead;
  po.partition = config.partition;
  po.arch = arch;
  return po;
}

ProgramResult run_lut(const Program& p, const RunOptions& o, const LaunchConfig& config,
                      Timing* timing, const Compiled& kc) {
  const auto t0 = Clock::now();
  if (!p.boolean) throw GpuError("PTX kernels evaluate boolean programs only");
  const std::uint32_t T = config.threads;
  const DeviceInfo dev = detail::launch_device(p, o, T);
  const kernels::PtxProgram& prog = kc.lut;
  const std::vector<Cubin>& cubins = kc.cubins;
  const std::size_t nk = prog.parts.size();
  std::vector<const std::vector<char>*> images;
  for (const Cubin& c : cubins) images.push_back(&c.image);
  const detail::LoadedKernels loaded(images, kernels::kPtxEntry, T, dev, "LUT kernel");
  const auto& libs = loaded.libs;
  const bool all_cached =
      std::all_of(cubins.begin(), cubins.end(), [](const Cubin& c) { return c.cached; });
  // compile_program's time plus loading the modules.
  const double compile_seconds =
      kc.seconds + std::chrono::duration<double>(Clock::now() - t0).count();
  const auto t1 = Clock::now();

  detail::LaunchDriver driver(p, o);
  const auto doutrows = uploaded(prog.output_rows, "output rows");
  const auto dpairrows = uploaded(prog.pair_rows, "pair rows");

  // Chunks of whole words: rows × units × 4 bytes within half the free memory, a row under
  // 2³² bytes (the kernels address a row with 32-bit offsets), the stored outputs within the
  // driver's bound.
  const std::uint64_t words_total = (o.patterns.count + 63) / 64;
  std::size_t free_bytes = 0, total_bytes = 0;
  RNNCC_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes), "reading free device memory");
  std::uint64_t chunk_words = std::max<std::uint64_t>(config.chunk_patterns / 64, 1);
  chunk_words = std::min<std::uint64_t>(chunk_words, std::max<std::uint64_t>(words_total, 1));
  chunk_words = std::min<std::uint64_t>(chunk_words, (std::uint64_t{1} << 29) - 1);
  if (prog.rows)
    chunk_words = std::min<std::uint64_t>(chunk_words, free_bytes / 2 / (8ull * prog.rows));
  chunk_words = std::min<std::uint64_t>(chunk_words, driver.store_limit() / 64);
  chunk_words = std::max<std::uint64_t>(chunk_words, 1);
  std::unique_ptr<Buffer<std::uint32_t>> X;
  while (true) {
    try {
      X = std::make_unique<Buffer<std::uint32_t>>(
          std::max<std::uint64_t>(2 * chunk_words * prog.rows, 1), "LUT kernel rows");
      break;
    } catch (const GpuError&) {
      cudaGetLastError();
      if (chunk_words <= 16) throw;
      chunk_words /= 2;
    }
  }

  EdgeArgs a{};
  a.d = driver.kernel_digest();
  a.X = X->p;
  a.stride = 2 * chunk_words;
  a.output_rows = doutrows->p;
  a.pair_rows = dpairrows->p;
  a.pairs = p.pairs;
  a.ones = driver.output_counts();

  constexpr std::uint32_t kEdgeThreads = 256;
  // A chunk: the LUT kernels in order, then the sink kernel.
  driver.run(64 * chunk_words, "the LUT kernels", [&](const detail::Chunk& k) -> std::uint64_t {
    a.spec = k.spec;
    a.units = 2 * ((a.spec.count + 63) / 64);
    a.store = static_cast<std::uint64_t*>(k.store);
    const auto edge_blocks =
        static_cast<std::uint32_t>((a.units + kEdgeThreads - 1) / kEdgeThreads);
    std::uint64_t X_address = reinterpret_cast<std::uint64_t>(a.X), stride = a.stride,
                  units = a.units, first_word = a.spec.first / 64, seed = a.spec.seed;
    void* argv[] = {&X_address, &stride, &units, &first_word, &seed};
    const auto blocks = static_cast<std::uint32_t>((a.units + T - 1) / T);
    for (std::size_t i = 0; i < nk; ++i)
      RNNCC_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(libs[i]->kernel), dim3(blocks),
                                  dim3(T), argv, 0, nullptr),
                 "launching LUT kernel " + std::to_string(i + 1) + " of " + std::to_string(nk) +
                     " (" + std::to_string(blocks) + " blocks × " + std::to_string(T) +
                     " threads)");
    lut_sink_kernel<<<edge_blocks, kEdgeThreads>>>(a);
    RNNCC_CUDA(cudaGetLastError(), "launching the sink kernel");
    return nk + 1;
  });
  ProgramResult r = driver.result();
  if (timing) {
    timing->kernel_seconds = driver.kernel_seconds();
    timing->total_seconds = std::chrono::duration<double>(Clock::now() - t1).count();
    timing->compile_seconds = compile_seconds;
    timing->path = all_cached ? "compiled (cached)" : "compiled";
    timing->compiler = "PTX (nvJitLink)";
    timing->blocks = static_cast<std::uint32_t>(
        std::min<std::uint64_t>((2 * chunk_words + T - 1) / T, 0xFFFFFFFFu));
    timing->threads = T;
    timing->slots = 0;
    timing->launches = driver.launches();
    timing->kernels = static_cast<std::uint32_t>(nk);
    timing->registers = loaded.registers;
    timing->local_bytes = loaded.local_bytes;
    timing->cross_values = prog.rows;
    timing->luts = prog.net.luts;
  }
  return r;
}

}  // namespace rnncc::gpu::compiled
