// What the host sides of every GPU kernel share (the evaluators of circuits/eval/cuda/, the walks
// of verify/cuda/): every CUDA runtime call checked, a failure thrown as GpuError with the call
// and its context; device buffers owned by the host (freed on every path, exceptions included);
// launches timed between a pair of events (timed_launches).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "circuits/eval/cuda/gpu.hpp"

namespace rnncc::gpu::detail {

inline void check(cudaError_t e, const char* call, const std::string& context) {
  if (e != cudaSuccess)
    throw GpuError(std::string(call) + " failed: " + cudaGetErrorString(e) + " (" + context + ")");
}

template <class T>
struct Buffer {
  T* p = nullptr;
  std::size_t n = 0;
  Buffer() = default;
  Buffer(std::size_t count, const std::string& what) : n(count) {
    if (count)
      check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc",
            "allocating " + std::to_string(count * sizeof(T)) + " bytes for " + what);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (p) cudaFree(p);
  }
  void upload(const T* src, const std::string& what) {
    if (n)
      check(cudaMemcpy(p, src, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy",
            "uploading " + what);
  }
  void fill(int byte, const std::string& what) {
    if (n) check(cudaMemset(p, byte, n * sizeof(T)), "cudaMemset", "clearing " + what);
  }
  std::vector<T> download(const std::string& what) const { return download(n, what); }
  // The first `count` elements only: a buffer the kernel fills in part (the mismatch samples,
  // the last chunk's stored outputs) is never copied beyond what was written, so that
  // compute-sanitizer's initcheck sees no read of uninitialized device memory
  // (docs/reliability.md, "GPU kernels under compute-sanitizer").
  std::vector<T> download(std::size_t count, const std::string& what) const {
    if (count > n)
      throw GpuError("downloading " + what + ": " + std::to_string(count) +
                     " elements asked of a buffer of " + std::to_string(n));
    std::vector<T> v(count);
    if (count)
      check(cudaMemcpy(v.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy",
            "downloading " + what);
    return v;
  }
};

// A module loaded from a cubin (the compiled kernels) and its one kernel, unloaded on exit.
struct Library {
  cudaLibrary_t lib = nullptr;
  cudaKernel_t kernel = nullptr;
  Library() = default;
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  ~Library() {
    if (lib) cudaLibraryUnload(lib);
  }
};

// Compiled kernels loaded from their cubins, one entry each: the registers and local memory
// (spills) ptxas gave the worst of them, and how many blocks of T threads of each are resident
// on the device at once (a kernel that does not fit T threads is an error).
struct LoadedKernels {
  std::vector<std::unique_ptr<Library>> libs;
  std::vector<std::uint32_t> resident_blocks;
  std::uint32_t registers = 0;
  std::uint64_t local_bytes = 0;
  LoadedKernels(const std::vector<const std::vector<char>*>& images, const char* entry,
                std::uint32_t T, const DeviceInfo& dev, const std::string& what) {
    for (std::size_t i = 0; i < images.size(); ++i) {
      auto l = std::make_unique<Library>();
      const std::string which =
          what + " " + std::to_string(i + 1) + " of " + std::to_string(images.size());
      check(
          cudaLibraryLoadData(&l->lib, images[i]->data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
          "cudaLibraryLoadData", "loading " + which);
      check(cudaLibraryGetKernel(&l->kernel, l->lib, entry), "cudaLibraryGetKernel",
            "finding the entry of " + which);
      const void* fn = reinterpret_cast<const void*>(l->kernel);
      cudaFuncAttributes attr{};
      check(cudaFuncGetAttributes(&attr, fn), "cudaFuncGetAttributes",
            "reading the attributes of " + which);
      registers = std::max<std::uint32_t>(registers, static_cast<std::uint32_t>(attr.numRegs));
      local_bytes = std::max<std::uint64_t>(local_bytes, attr.localSizeBytes);
      int per_sm = 0;
      check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, static_cast<int>(T), 0),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
            "occupancy of " + which + " with " + std::to_string(T) + " threads");
      if (per_sm == 0)
        throw GpuError(which + " (" + std::to_string(attr.numRegs) + " registers) does not fit " +
                       std::to_string(T) + " threads on " + dev.name);
      resident_blocks.push_back(static_cast<std::uint32_t>(per_sm * dev.multiprocessors));
      libs.push_back(std::move(l));
    }
  }
};

// A pair of events timing the kernels of one chunk.
struct Events {
  cudaEvent_t start = nullptr, stop = nullptr;
  Events() {
    check(cudaEventCreate(&start), "cudaEventCreate", "creating an event");
    check(cudaEventCreate(&stop), "cudaEventCreate", "creating an event");
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

// The mismatch digest every evaluator keeps on the device: per-pair counts, the smallest
// mismatching pattern (atomicMin, starting at all ones) and up to max_samples mismatching
// patterns in arrival order; read() downloads them into a result (samples sorted, unique).
struct DigestBuffers {
  Buffer<unsigned long long> mismatches, first, samples;
  Buffer<unsigned> nsamples;
  std::size_t max_samples;
  std::uint32_t pairs;
  DigestBuffers(std::uint32_t pair_count, std::size_t max_sample_count)
      : mismatches(std::max<std::uint32_t>(pair_count, 1), "mismatch counts"),
        first(1, "first mismatch"),
        samples(std::max<std::size_t>(max_sample_count, 1), "mismatch samples"),
        nsamples(1, "mismatch sample count"),
        max_samples(max_sample_count),
        pairs(pair_count) {
    mismatches.fill(0, "mismatch counts");
    first.fill(0xFF, "first mismatch");
    nsamples.fill(0, "mismatch sample count");
  }
  void read(ProgramResult& r) const {
    const auto mis = mismatches.download("mismatch counts");
    r.mismatches.assign(mis.begin(), mis.begin() + pairs);
    const unsigned long long f = first.download("first mismatch")[0];
    if (f != ~0ull) r.first_mismatch = f;
    const unsigned ns = std::min<unsigned>(nsamples.download("mismatch sample count")[0],
                                           static_cast<unsigned>(max_samples));
    const auto got = samples.download(ns, "mismatch samples");
    r.first_mismatches.assign(got.begin(), got.end());
    std::sort(r.first_mismatches.begin(), r.first_mismatches.end());
    r.first_mismatches.erase(std::unique(r.first_mismatches.begin(), r.first_mismatches.end()),
                             r.first_mismatches.end());
  }
};

}  // namespace rnncc::gpu::detail

#define RNNCC_CUDA(call, context) ::rnncc::gpu::detail::check((call), #call, (context))

namespace rnncc::gpu::detail {

// Runs `enqueue` (kernel launches on the default stream) between a pair of events and waits for
// them: the device seconds in between. `what` names the launches in errors ("launching …",
// "running …").
template <class Enqueue>
double timed_launches(const std::string& what, Enqueue&& enqueue) {
  Events ev;
  RNNCC_CUDA(cudaEventRecord(ev.start), "recording an event");
  enqueue();
  RNNCC_CUDA(cudaGetLastError(), "launching " + what);
  RNNCC_CUDA(cudaEventRecord(ev.stop), "recording an event");
  RNNCC_CUDA(cudaEventSynchronize(ev.stop), "running " + what);
  float ms = 0;
  RNNCC_CUDA(cudaEventElapsedTime(&ms, ev.start, ev.stop), "reading kernel time");
  return ms / 1000.0;
}

}  // namespace rnncc::gpu::detail
