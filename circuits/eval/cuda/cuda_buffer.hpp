// What the host sides of the GPU evaluators share (gpu.cu, compiled.cpp): every CUDA runtime call
// checked, a failure thrown as GpuError with the call and its context, and device buffers owned
// by the host (freed on every path, exceptions included).
#pragma once

#include <cuda_runtime.h>

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

}  // namespace rnncc::gpu::detail

#define RNNCC_CUDA(call, context) ::rnncc::gpu::detail::check((call), #call, (context))
