// Exhaustive checks by prefix sharing (issue 15, item 3): every string of Σ^L through the linear
// representations of the construction's model X and of its target WFA f
// (verify/linear_representation.hpp: the per-symbol maps composed exactly over Q through
// encode's input map), depth first over the trie of strings so that each prefix's state is
// computed once (verify/prefix_walk.hpp): ≈ |Σ|/(|Σ| − 1)·(1/|Σ|) mat-vecs per string instead
// of the whole check circuit per string (verify/device_check.hpp). Outputs are compared at the
// leaves (strings of exactly length L), as the check-circuit path does.
//
// The subject is one representation g = X ⊕ (−f): α = [α_X, α_f], M_σ = diag(M_X,σ, M_f,σ),
// O_σ = [O_X,σ; −O_f,σ], so g(w) = X(w) − f(w).
//
// Exactness, by residues with a static bound (instead of device_check's per-string float
// shadow): with den(α), den(M), den(O) the lcms of the entries' denominators,
// D = den(α)·den(M)^{L−1}·den(O) makes g(w)·D an integer for every w of length L, and
// |g(w)| ≤ B, where B is computed exactly over Q by the componentwise recursion
//     u₀ = |α|,  u_j = max_σ u_{j−1}·|M_σ| (entrywise max),  B = max_σ u_{L−1}·|O_σ|
// (by induction |v_w| ≤ u_{|w|} entrywise, every term of the products being non-negative).
// With N = ⌈B·D⌉ the run takes the fewest lucky primes (no p_i divides a denominator) with
// P = Π p_i > 2N; then for each string
//     g(w) ≢ 0 mod some p_i   ⇒ X(w) ≠ f(w);
//     g(w) ≡ 0 mod every p_i  ⇒ g(w)·D ≡ 0 mod P and |g(w)·D| ≤ N < P/2, so X(w) = f(w).
// The prime count is known before the run (no rerun) and the CPU and the GPU compute the same
// residues bit for bit. A construction that computes mod q (matmul3 mod 29) is compared mod q:
// the claim itself, exact without a bound. More than prefix::kMaxPrimes primes, a dimension over
// prefix::kMaxDim or L over prefix::kMaxLength: not applicable (the caller keeps the check
// circuit).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "constructions/construction.hpp"
#include "verify/device_check.hpp"
#include "verify/linear_representation.hpp"

namespace rnncc {

// The method, as the reports state it.
inline constexpr const char* kPrefixMethod =
    "exhaustive by prefix sharing over the linear representations (per-symbol maps composed "
    "exactly over Q), mod p with a static magnitude bound";

struct PrefixSubject {
  LinearRepresentation g;  // X ⊕ (−f), one output
  std::size_t dim_x = 0, dim_f = 0;
  std::optional<std::uint64_t> modulus;  // the construction's own
};

// The subject for c, or std::nullopt with the reason in *why: X not linear in its state
// (from_model's NotLinear), no target automaton, a promise, encode not a sequential input map.
std::optional<PrefixSubject> prefix_subject(const Construction& c, std::string* why = nullptr);

struct PrefixCheckOptions {
  std::size_t length = 1;
  std::uint64_t first = 0;  // a slice of Σ^L in lexicographic order: [first, first + count)
  std::uint64_t count = 0;  // 0 = to the end
  CheckDevice device = CheckDevice::cpu;
  unsigned cpu_threads = 0;         // 0: std::thread::hardware_concurrency()
  std::uint32_t gpu_threads = 256;  // GPU block size
  std::uint32_t suffix_depth = 0;   // strings per task or GPU thread = |Σ|^s (0: chosen)
  bool plain = false;               // the plain twin: every string from scratch (CPU, one thread)
};

// Whether the subject can be checked at this length (on this device), else why: length 0, too
// many primes, the dimension, what the GPU kernels take (prefix_walk.hpp, gpu_fits).
std::optional<std::string> prefix_not_applicable(const PrefixSubject& s, std::size_t length,
                                                 CheckDevice device = CheckDevice::cpu);

// Throws InputError for length 0 (X has no output at t = 0), a slice past the end, or
// |Σ|^L > 2^62; InputError when prefix_not_applicable; gpu::GpuError from the device.
DeviceCheckReport prefix_check(const PrefixSubject& s, const PrefixCheckOptions& options);

}  // namespace rnncc
