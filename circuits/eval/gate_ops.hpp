// Bit-parallel gate semantics: one uint64_t carries a gate's value for 64 input patterns.
// Written once as host/device functions, shared by the CPU evaluators and the CUDA kernels
// (circuits/eval/cuda/gpu.cu).
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"

namespace rnncc::bits {

using Word = std::uint64_t;

// Bit-sliced two's-complement accumulator: plane[j] holds bit j of 64 lane values.
// add_masked adds the constant w in every lane whose mask bit is set (ripple-carry over planes).
RNNCC_HD void add_masked(Word* plane, unsigned planes, std::int64_t w, Word mask) {
  Word carry = 0;
  for (unsigned j = 0; j < planes; ++j) {
    const Word a = (static_cast<std::uint64_t>(w) >> (j < 63 ? j : 63) & 1) ? mask : 0;
    const Word s = plane[j] ^ a ^ carry;
    carry = (plane[j] & a) | (carry & (plane[j] ^ a));
    plane[j] = s;
  }
}

// Lanes whose accumulated value is ≥ 0: the complement of the sign plane.
RNNCC_HD Word nonnegative(const Word* plane, unsigned planes) {
  return ~plane[planes - 1];
}

}  // namespace rnncc::bits
