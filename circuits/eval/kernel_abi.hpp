// The parameter blocks of the compiled kernels (circuits/eval/kernel_source.hpp): one definition,
// compiled by the host (circuits/eval/cuda/compiled.cpp fills them) and pasted by text into every
// generated kernel source (NVRTC compiles it there), so both sides agree on the layout. Only
// fixed-width integers, pointers and the structs of mont31.hpp and patterns.hpp: the same layout
// on the host (x86-64 / aarch64, LP64) and on the device.
#pragma once

#include <cstdint>

#include "algebra/mont31.hpp"
#include "circuits/eval/patterns.hpp"

namespace rnncc::kernels {

inline constexpr unsigned kMaxPrimes = 8;  // arithmetic: primes evaluated in one kernel

// Reductions every kernel shares (as in the interpreter, circuits/eval/cuda/gpu.cu).
struct Digest {
  unsigned long long* mismatches;      // [pair]
  unsigned long long* first_mismatch;  // one: atomicMin of mismatching pattern numbers
  unsigned long long* samples;         // [max_samples]: some mismatching patterns
  unsigned* nsamples;
  unsigned max_samples;
  unsigned outputs;
};

// Boolean: thread = one word of 64 patterns of the chunk spec (spec.first a multiple of 64).
struct BoolArgs {
  patterns::Spec spec;
  Digest d;
  std::uint64_t* cross;        // values crossing partitions: [value][word], cross_stride words
  std::uint64_t cross_stride;  // words of the chunk
  unsigned long long* ones;    // [output]
  std::uint64_t* store;        // [word][output], or null
};

// Arithmetic: thread = one pattern, every prime of the run in the same thread.
struct ModArgs {
  patterns::Spec spec;
  Digest d;
  std::uint32_t* cross;        // [value][prime][pattern], cross_stride patterns
  std::uint64_t cross_stride;  // patterns of the chunk
  mont31::Field f[kMaxPrimes];
  std::uint32_t one[kMaxPrimes];   // Montgomery form of 1 per prime
  const std::uint32_t* constants;  // [prime][constant], Montgomery form
  unsigned long long* sums;        // [prime][output], Σ Montgomery residues mod p
  std::uint32_t* store;            // [pattern][prime][output] plain residues, or null
};

}  // namespace rnncc::kernels
