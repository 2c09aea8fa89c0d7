// Bulk evaluation of a circuit on many inputs, reduced to a digest (`rnncc eval`): on the CPU,
// boolean and threshold circuits bit-parallel (64 patterns a word) and arithmetic circuits mod
// p = 2^31 − 1, on all cores; on the GPU, the same through the device program
// (circuits/eval/program.hpp, circuits/eval/cuda/gpu.hpp). Patterns are every assignment of the
// inputs (exhaustive) or seeded random ones (circuits/eval/patterns.hpp), the same on both
// devices. The digest per output is the number of patterns where it is 1 (boolean) or the sum of
// its values mod p (arithmetic), with one 64-bit fingerprint of everything, so the CPU and the
// GPU can be compared exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

enum class BulkDevice { cpu, gpu };

struct BulkOptions {
  BulkDevice device = BulkDevice::cpu;  // gpu without a device: the CPU, with a notice
  bool exhaustive = false;  // every assignment (0/1 per input); needs ≤ max_exhaustive_inputs
  std::uint64_t batch = 1 << 16;  // random patterns (rounded up to a multiple of 64 for boolean)
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0 = all cores
  unsigned max_exhaustive_inputs = 32;
};

inline constexpr std::uint64_t kBulkPrime = 2147483647;  // 2^31 − 1

struct BulkResult {
  std::string device;  // "cpu (N threads)" or the GPU's name
  std::string notice;  // why a GPU request ran on the CPU
  bool boolean = false;
  std::uint64_t patterns = 0;
  std::vector<std::uint64_t> per_output;  // ones (boolean) or Σ values mod p (arithmetic)
  std::uint64_t fingerprint = 0;
  double seconds = 0;
  // Two-input gate evaluations (an AIG's ANDs; an n-ary gate counts n − 1; inversions are free)
  // × patterns / seconds (GPU: kernel time).
  std::size_t gate_evaluations_per_pattern = 0;
  double gate_evaluations_per_second = 0;
};

// Throws InputError for an exhaustive request over too many inputs, DomainError for a gate
// undefined mod p (positive).
BulkResult evaluate_bulk(const Circuit& c, const BulkOptions& options);

// The plain twin: one pattern at a time through the generic evaluator (tests compare).
BulkResult evaluate_bulk_plain(const Circuit& c, const BulkOptions& options);

}  // namespace rnncc
