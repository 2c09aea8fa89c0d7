// Bulk evaluation of a circuit on many inputs, reduced to a digest (`rnncc eval`): boolean and
// threshold circuits bit-parallel (64 patterns a word) on all cores; arithmetic circuits over
// F_p, p = 2^61 − 1, on all cores. Patterns are every assignment of the inputs (exhaustive) or
// seeded random ones. The digest per output is the number of patterns where it is 1 (boolean)
// or the sum of its values mod p (arithmetic), and one 64-bit fingerprint of everything, so two
// evaluators (CPU and, later, GPU) can be compared exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

struct BulkOptions {
  bool exhaustive = false;  // every assignment (0/1 per input); needs ≤ max_exhaustive_inputs
  std::uint64_t batch = 1 << 16;  // random patterns (rounded up to a multiple of 64 for boolean)
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0 = all cores
  unsigned max_exhaustive_inputs = 32;
};

struct BulkResult {
  bool boolean = false;
  std::uint64_t patterns = 0;
  std::vector<std::uint64_t> per_output;  // ones (boolean) or Σ values mod p (arithmetic)
  std::uint64_t fingerprint = 0;
  double seconds = 0;
  double gate_evaluations_per_second = 0;  // operations × patterns / seconds
};

// Throws InputError for an exhaustive request over too many inputs, DomainError for a gate
// undefined mod p (positive).
BulkResult evaluate_bulk(const Circuit& c, const BulkOptions& options);

// The plain twin: one pattern at a time through the generic evaluator (tests compare).
BulkResult evaluate_bulk_plain(const Circuit& c, const BulkOptions& options);

}  // namespace rnncc
