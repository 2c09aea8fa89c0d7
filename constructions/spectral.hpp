// Spectral claims of delta-rule layers (DeltaNet, Gated DeltaNet, KDA), exactly.
//
// For every delta-rule layer of a model: the β values and key norms actually used, and the
// spectrum of every token's transition matrix A_σ — its characteristic polynomial over Q
// (algebra/charpoly.hpp), its real roots as isolating intervals with rational endpoints and
// multiplicities (algebra/real_roots.hpp: Sturm sequences), the number of complex conjugate
// pairs, and a rational bound ρ̄ ≥ max |λ| (the largest |endpoint| when every root is real,
// else min(Cauchy bound, ‖A‖_∞, ‖A‖_1)). Tokens whose A_σ have the same
// characteristic polynomial are reported together.
//
// Properties, each decided exactly (ok = HOLDS) with a witness when it fails:
//   "β in the layer's declared range"  the range the layer was built with (any, (0,2], …);
//   "β ∈ (0, 2]"                      the range trained DeltaNets use (β = 2·sigmoid);
//   "keys unit (‖k‖² = 1)"            every nonzero key; tokens with k = 0 are identity
//                                      sub-steps (A = I) and are counted, not judged;
//   "eigenvalues in [−1, 1]"          every real root's interval inside [−1, 1] (roots at ±1
//                                      are found exactly), and no complex pair unless ρ̄ ≤ 1.
// With ‖k‖ = 1 and β ∈ (0, 2], A = I − βkkᵀ is symmetric with eigenvalues 1 (d − 1 times)
// and 1 − β ∈ [−1, 1): these are the claims of [GSZ+25] for DeltaNet with negative eigenvalues.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "algebra/real_roots.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

struct MatrixSpectrum {
  RationalPoly charpoly;             // det(xI − A), low → high
  std::vector<RealRoot> real_roots;  // increasing
  std::size_t complex_pairs = 0;     // (deg − real roots with multiplicity) / 2
  Rational radius_bound;             // every eigenvalue has |λ| ≤ radius_bound
  std::vector<std::string> tokens;   // the tokens whose A is this matrix
};

// The spectrum of one square matrix (tokens left empty).
MatrixSpectrum spectrum(const Matrix<Rational>& a);

struct LayerSpectrum {
  std::size_t layer = 0;  // index in the model
  std::string family;     // "deltanet", …
  std::size_t d = 0, tokens = 0;
  std::vector<Claim> properties;        // the four above, in that order
  std::vector<MatrixSpectrum> spectra;  // one per distinct charpoly, in token order
};

// One entry per delta-rule layer of `m` (none for other families).
std::vector<LayerSpectrum> spectral_report(const Model& m);
// The properties of one delta-rule layer; token names from `names` (feature f ↦ names[f] when
// it has that many, else "#f").
std::vector<Claim> delta_properties(const LrnnLayer& layer, const std::vector<std::string>& names);

// Text lines (indented two spaces) and a JSON-ready description are in verify/verify_report.cpp.

}  // namespace rnncc
