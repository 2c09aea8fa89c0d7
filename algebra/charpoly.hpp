// Characteristic polynomials of rational matrices, exactly.
//
// charpoly(A) = det(x·I − A), monic of degree n for an n×n A, as coefficients low → high
// (c[0] = (−1)ⁿ det A, c[n] = 1). Built with FLINT (RNNCC_HAVE_FLINT) it is FLINT's
// fmpq_mat_charpoly; otherwise, and always as charpoly_plain, exact Hessenberg reduction over Q
// followed by the Hessenberg recurrence (Cohen, "A Course in Computational Algebraic Number
// Theory", Algorithm 2.2.9): O(n³) operations on rationals, no division-free tricks needed.
#pragma once

#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

// A polynomial over Q, coefficients low → high, no trailing zero (the zero polynomial is empty).
using RationalPoly = std::vector<Rational>;

// det(x·I − A). Throws std::invalid_argument for a non-square A.
RationalPoly charpoly(const Matrix<Rational>& a);
// The plain twin (Hessenberg), whatever the build.
RationalPoly charpoly_plain(const Matrix<Rational>& a);
// True when charpoly() uses FLINT.
bool charpoly_has_flint();

// "x^3 - 3x^2 + 3/2x - 1" (variable `x`); "0" for the zero polynomial.
std::string poly_to_string(const RationalPoly& p, const std::string& x = "x");

}  // namespace rnncc
