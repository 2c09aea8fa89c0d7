#pragma once
// Internal to rnncc_equiv: the forward basis modulo a prime of decide_equivalence's multimodular
// path (equivalence.hpp, "Over Q at scale"): representations scaled to integers, their residues,
// and one layered run modulo p (forward_basis_mod.cpp), which equivalence_multimodular.cpp
// drives.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algebra/rational.hpp"
#include "verify/linear_representation.hpp"

namespace rnncc::equivalence_internal {

__extension__ typedef __int128 i128;  // exact products of two int64

// ---- the multimodular fast path (over Q) ------------------------------------------------------

// A rational matrix scaled to integers: entries num[i] with x = num[i] / den, den > 0 the lcm of
// the denominators (num fits in int64 and den < 2^62, else `fits` is false).
struct Scaled {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> num;
  Integer den = 1;
  bool fits = true;
};

constexpr std::int64_t kBig = std::int64_t{1} << 62;

// A representation scaled: α = α̂/δ_α, M_σ = M̂_σ/δ_M, O_σ = Ô_σ/δ_O.
struct ScaledRep {
  std::size_t d = 0, r = 0, S = 0;
  Scaled alpha;
  std::vector<Scaled> M, O;
  bool fits = true;
};

ScaledRep scale_rep(const LinearRepresentation& x);
std::uint64_t residue(const Integer& x, std::uint32_t p);
double res64(std::int64_t x, std::uint32_t p);
bool unlucky(const ScaledRep& s, std::uint32_t p);

// What one forward-basis run modulo p found.
struct ModRun {
  enum Kind { counterexample, closed, morphism, truncated } kind = closed;
  std::vector<std::size_t> word;  // counterexample
  std::vector<std::vector<std::size_t>> basis_words;
  std::vector<double> P;  // morphism: d_a × d_b, h_b = h_a·P mod p
  std::size_t candidates = 0;
};

ModRun forward_basis_mod(const ScaledRep& A, const ScaledRep& B, std::uint32_t p,
                         std::size_t max_length, bool early);

}  // namespace rnncc::equivalence_internal
