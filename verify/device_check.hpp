// Bulk checks of a construction on the GPU (or the CPU twin of the device program): every
// string of one length, or seeded random strings, through the construction's check circuit
// (verify/check_circuit.hpp), with exactness proved by multi-modular arithmetic.
//
// Exactness (docs/constructions.md, "Verifying on the GPU"). The check circuit's two outputs,
// X(encode(w)) and f(w), are rationals. The device evaluates them mod k 31-bit primes p_i (lucky:
// no p_i divides a constant's denominator, so every value is defined mod p_i) and, with the
// first prime, a float shadow: every gate in double precision with a rigorous running error
// bound (circuits/eval/program.hpp, Approx), which bounds m ≥ |X − f|. With D = lcm of the two
// outputs' static denominators (circuits/analysis.hpp, height_table), (X − f)·D is an integer of
// absolute value ≤ m·D. So for each string:
//   residues differ mod some p_i        ⇒ X ≠ f (a counterexample, whatever the bound);
//   m·D < 1                             ⇒ X = f (an integer of absolute value < 1 is 0);
//   residues agree mod every p_i and
//   2·⌈m·D⌉ < P = Π p_i                 ⇒ (X − f)·D ≡ 0 mod P and |(X − f)·D| < P/2, so X = f.
// The device returns max m over all strings; when neither rule covers it the check is rerun
// with as many primes as that bound needs (algebra/multimodular.hpp, primes_for_bits). The first
// k is chosen from the shadow on a CPU sample of the same strings, plus one bit, so a rerun is
// rare. Constructions that compute mod a prime (matmul3 mod 29) are compared mod that prime: the
// claim itself, exact without a bound.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "constructions/construction.hpp"

namespace rnncc {

enum class CheckDevice { gpu, cpu };

struct DeviceCheckOptions {
  std::size_t length = 1;  // strings of exactly this length
  bool exhaustive = true;  // every string of Σ^length; else `random` seeded strings
  std::uint64_t random = 0;
  std::uint64_t seed = 1;
  std::uint64_t first = 0;  // a slice of the enumeration: patterns [first, first + count)
  std::uint64_t count = 0;  // 0 = to the end
  CheckDevice device = CheckDevice::gpu;
  std::uint32_t threads = 1024;  // GPU block size (latency-bound: more warps, fewer slots win)
  std::size_t sample = 4096;     // CPU sample that chooses the first prime count (0: one prime)
  // Exhaustive checks of a subject with linear representations (X linear in its state, f a
  // WFA) by prefix sharing (verify/prefix_check.hpp) instead of the check circuit; false: the
  // check circuit always.
  bool prefix_sharing = true;
  unsigned cpu_threads = 0;  // prefix sharing on the CPU: 0 = every core
};

struct DeviceCheckReport {
  std::string method;            // "check circuit, …" or prefix_check.hpp's kPrefixMethod
  std::string device;            // the GPU's name, or "cpu (device program twin)"
  std::uint64_t strings = 0;     // strings checked
  std::uint64_t mismatches = 0;  // strings whose outputs differ
  std::uint64_t skipped = 0;     // outside f's promise: not compared (the model walk)
  std::uint64_t overflowed = 0;  // a value left 64 bits: not compared (the model walk)
  std::optional<std::vector<std::size_t>> first_overflow;  // least such string
  std::uint64_t steps = 0;  // the model walk's steps (one position through every layer)
  std::optional<std::vector<std::size_t>> first_counterexample;  // least such string (exhaustive)
  std::vector<std::uint32_t> primes;
  std::optional<std::uint64_t> modulus;  // the construction's own, when it computes mod p
  bool exact = false;         // every string with agreeing residues is proved equal (above)
  bool float_proof = false;   // exact by the shadow alone: max m·D < 1
  double log2_bound = 0;      // log2(max m·D): the numerator bound of X − f (−inf: 0)
  std::size_t runs = 0;       // evaluations of the whole range (reruns add primes)
  std::size_t gates = 0;      // check-circuit operations per string (model walk: frame words)
  double seconds = 0;         // wall time of the device runs
  double kernel_seconds = 0;  // GPU kernel time (events)
  // gate instructions × strings × primes / kernel time (the model walk: steps / s)
  double gate_evaluations_per_second = 0;
};

// Exhaustive checks go by prefix sharing where prefix_subject(c) exists and applies at this
// length (on the GPU with CheckDevice::gpu, else on every core), else by the model walk where
// model_walk_subject(c) exists (verify/model_walk_check.hpp: nonlinear and hybrid models),
// through the check circuit otherwise and for random strings; `method` says which.
// Throws InputError (exit 2) when no check circuit exists for c at this length (the reason in the
// message), when the enumeration has more than 2^62 strings, and GpuError from the device.
DeviceCheckReport device_check(const Construction& c, const DeviceCheckOptions& options);

// The number of strings in the slice [first, first + count) of Σ^L in lexicographic order
// (count 0: to the end). Throws InputError when |Σ|^L > 2^62 (--exhaustive) or the slice starts
// past the last string (--first).
std::uint64_t slice_of_strings(std::uint64_t symbols, std::size_t length, std::uint64_t first,
                               std::uint64_t count);

}  // namespace rnncc
