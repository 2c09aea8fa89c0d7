// What the GPU tests share: the device (probed once), the skip without one, and the comparison
// of a GPU digest with the CPU twin's (circuits/eval/program.hpp, ProgramResult).
#pragma once

#include "circuits/eval/cuda/gpu.hpp"
#include "tests/support.hpp"

namespace rnncc::test {

inline const gpu::DeviceInfo& device() {
  static const gpu::DeviceInfo d = gpu::probe();
  return d;
}

// Every digest field equal bit for bit; first_mismatches is compared by the caller (the GPU keeps
// the first mismatches to arrive, the twin the smallest).
inline void require_same_digest(const ProgramResult& g, const ProgramResult& c) {
  REQUIRE(g.patterns == c.patterns);
  REQUIRE(g.ones == c.ones);
  REQUIRE(g.sums == c.sums);
  REQUIRE(g.mismatches == c.mismatches);
  REQUIRE(g.first_mismatch == c.first_mismatch);
  REQUIRE(g.max_difference_bound == c.max_difference_bound);
  REQUIRE(g.stored == c.stored);
}

}  // namespace rnncc::test

#define REQUIRE_DEVICE() \
  if (!::rnncc::test::device().available) RNNCC_SKIP("no GPU: " << ::rnncc::test::device().why_not)
