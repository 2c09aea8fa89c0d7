// Bulk evaluation of a circuit on many inputs, reduced to a digest (`rnncc eval`): on the CPU,
// boolean and threshold circuits through the wide evaluator (circuits/eval/wide.hpp: the device
// program over blocks of up to 256 words per instruction, AVX-512/AVX2/generic) and arithmetic
// circuits mod p = 2^31 − 1, on all cores; on the GPU, the same through the device program
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

#include "algebra/progress.hpp"
#include "algebra/ranks.hpp"
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
  // A slice of the patterns: [first, first + count) of the run above (count 0: to the end);
  // first a multiple of 64. The digests are then those of the slice (evaluate_bulk_sharded).
  std::uint64_t first = 0, count = 0;
  // evaluate_bulk_sharded: patterns per block, a multiple of 64 (0: bulk_block_patterns).
  std::uint64_t block_patterns = 0;
  // GPU: the patterns of the whole job this slice belongs to, for the choice between the
  // interpreter and compiled kernels (gpu::LaunchConfig::job_patterns; 0: the slice's).
  std::uint64_t job_patterns = 0;
  // evaluate_bulk reports the patterns done as one task named `progress_label` (the CPU
  // evaluators as they go; a GPU run, one kernel, shows only its elapsed time).
  Progress* progress = nullptr;
  std::string progress_label = "evaluating";
};

// The prime of arithmetic digests: 2^31 − 1, unless it divides a constant's denominator; then
// the next lucky prime below it (algebra/multimodular.hpp: an unlucky prime is replaced).
inline constexpr std::uint64_t kBulkPrime = 2147483647;  // 2^31 − 1

struct BulkResult {
  std::uint64_t modulus = 0;  // arithmetic: the prime the digest is taken mod
  std::string device;         // "cpu (N threads)" or the GPU's name
  std::string notice;         // why a GPU request ran on the CPU
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

// The same run split into blocks of patterns over the ranks of a run (algebra/ranks.hpp:
// `mpirun -np R rnncc eval`), resumable from `checkpoint` (algebra/sharded_run.hpp). Blocks hold
// bulk_block_patterns(c, options) patterns, fixed by the circuit and the device asked for, never
// by R; each rank evaluates its blocks with evaluate_bulk on the slice, and the per-output sums
// are added in block order (mod p for arithmetic), so per_output, patterns and fingerprint equal
// evaluate_bulk's for any R and after any resume. `job` names the circuit and options for the
// checkpoint (the CLI: the file's name and the circuit's hash); `device` says how many ranks ran
// it. Collective: every rank calls it and returns the same result.
BulkResult evaluate_bulk_sharded(const Circuit& c, const BulkOptions& options, Ranks& ranks,
                                 const std::optional<std::string>& checkpoint,
                                 const std::string& job);
// Patterns per block: 2^34 (GPU asked: 2^44) two-input gate evaluations, as a power of two
// from 2^12 to 2^30.
std::uint64_t bulk_block_patterns(const Circuit& c, const BulkOptions& options);

// A 64-bit hash of a circuit's gates, inputs and outputs (checkpoint job texts).
std::uint64_t circuit_hash(const Circuit& c);

// The plain twin: one pattern at a time through the generic evaluator (tests compare).
BulkResult evaluate_bulk_plain(const Circuit& c, const BulkOptions& options);

// Every output of every pattern, exactly (`rnncc eval --outputs`). Boolean circuits: 0/1.
// Arithmetic circuits over Q: evaluated mod k lucky 31-bit primes (on the GPU if asked and
// present, else the CPU twin of the device program) and reconstructed on the host: the static
// height analysis (circuits/analysis.hpp) gives each output a denominator D and a bound
// |value·D| ≤ 2^h for inputs |x| ≤ 2^b (b = 0 for 0/1 patterns, 61 for random integers), k is
// the least count with Π p > 2^(h+1) (algebra/multimodular.hpp, primes_for_bits), and value·D
// is the symmetric CRT residue of (value mod p_i)·D. Truth-valued gates (and, is_zero, thr, …)
// are exact only where no prime divides the value they test. Throws InputError for more than
// max_patterns patterns or a bound needing more than 4096 primes.
struct ExactOutputs {
  std::string device, notice;
  std::vector<std::uint32_t> primes;          // arithmetic: the primes used
  std::vector<std::vector<Rational>> values;  // [pattern][output]
};
ExactOutputs evaluate_exact(const Circuit& c, const BulkOptions& options,
                            std::uint64_t max_patterns = 100000);

}  // namespace rnncc
