// The pattern ranges the device-program tests run a random circuit on (the CPU twin in
// tests/circuits/eval/test_program.cpp; the interpreter, the compiled and the PTX kernels in
// tests/gpu/), varied with the trial number so that a loop of trials covers every generator of
// circuits/eval/patterns.hpp.
#pragma once

#include <cstdint>
#include <limits>

#include "circuits/eval/patterns.hpp"

namespace rnncc::testing {

// Boolean: seeded random bits on odd trials, `count` patterns; on even trials the exhaustive
// enumeration of the circuit's `inputs` inputs — all 2^inputs assignments, or the first `count`
// when 2^inputs exceeds `max_exhaustive`. From pattern `first` (a multiple of 64).
inline patterns::Spec boolean_trial_patterns(
    int trial, std::size_t inputs, std::uint64_t count, std::uint64_t first = 0,
    std::uint64_t max_exhaustive = std::numeric_limits<std::uint64_t>::max()) {
  const bool random = trial % 2 != 0;
  std::uint64_t n = count;
  if (!random && inputs < 64 && (std::uint64_t{1} << inputs) <= max_exhaustive)
    n = std::uint64_t{1} << inputs;
  return {random ? patterns::Mode::bits_random : patterns::Mode::bits_exhaustive,
          static_cast<std::uint64_t>(trial),
          2,
          0,
          first,
          n};
}

// Arithmetic, by trial mod 3: seeded random bits; every string of length L over {0, 1} from
// pattern `first` on; seeded random strings of length L. `count` patterns each — except that the
// exhaustive strings stop at the last string of Σ^L (2^L − first of them) when `to_last_string`.
inline patterns::Spec arithmetic_trial_patterns(int trial, std::uint32_t L, std::uint64_t first,
                                                std::uint64_t count, bool to_last_string = false) {
  const patterns::Mode mode = trial % 3 == 0   ? patterns::Mode::bits_random
                              : trial % 3 == 1 ? patterns::Mode::strings_exhaustive
                                               : patterns::Mode::strings_random;
  std::uint64_t n = count;
  if (mode == patterns::Mode::strings_exhaustive && to_last_string)
    n = (std::uint64_t{1} << L) - first;
  return {mode, static_cast<std::uint64_t>(trial), 2, L, first, n};
}

}  // namespace rnncc::testing
