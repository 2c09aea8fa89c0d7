// The reductions of the compiled kernels (circuits/eval/kernel_source.hpp pastes this header into
// every NVRTC source; circuits/eval/cuda/lut_kernels.cu includes it for the sink kernel of the
// PTX kernels): per-output popcounts, per-pair mismatch counts and samples, warp sums. They
// reduce as the interpreter does (circuits/eval/cuda/gpu.cu), so every evaluator returns the
// same digests. Device code only; every lane of the warp must be active.
#pragma once

#include "circuits/eval/kernel_abi.hpp"

#if defined(__CUDACC__)
namespace rnncc::kernels {

// Adds the ones of x (over the warp) to *at.
__device__ __forceinline__ void count_ones(unsigned long long* at, unsigned long long x) {
  unsigned n = __reduce_add_sync(0xFFFFFFFFu, static_cast<unsigned>(__popcll(x)));
  if ((threadIdx.x & 31) == 0 && n) atomicAdd(at, static_cast<unsigned long long>(n));
}

__device__ __noinline__ void note_mismatch(const Digest& d, unsigned long long pattern) {
  atomicMin(d.first_mismatch, pattern);
  const unsigned at = atomicAdd(d.nsamples, 1u);
  if (at < d.max_samples) d.samples[at] = pattern;
}

// Pair `pair` differs in the patterns whose bit is set in diff (bit j: first_pattern + j).
__device__ __forceinline__ void compare_words(const Digest& d, unsigned pair,
                                              unsigned long long diff,
                                              unsigned long long first_pattern) {
  if (diff) note_mismatch(d, first_pattern + (__ffsll(static_cast<long long>(diff)) - 1));
  const unsigned n = __reduce_add_sync(0xFFFFFFFFu, static_cast<unsigned>(__popcll(diff)));
  if ((threadIdx.x & 31) == 0 && n)
    atomicAdd(d.mismatches + pair, static_cast<unsigned long long>(n));
}

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
  return v;
}

}  // namespace rnncc::kernels
#endif
