// Real roots of a rational polynomial, exactly: isolating intervals with rational endpoints and
// multiplicities, no floating point anywhere.
//
// Method. Yun's square-free decomposition p = c·f_1·f_2²·f_3³⋯ (f_i square-free, pairwise
// coprime; gcds over Q) gives the multiplicities; the distinct real roots are those of the
// square-free part g = f_1 f_2 f_3 ⋯, isolated by Sturm's theorem (the number of distinct roots
// of g in (a, b] is V(a) − V(b), V = sign changes of the Sturm sequence g, g', −rem, …) and
// bisection of (−B, B], B = 1 + max_i |c_i/c_n| (Cauchy's bound: every complex root has
// |z| < B), first split at −1, 0 and 1 so that no interval straddles them and a root at one of
// them is found exactly. Every RATIONAL root is reported exactly: a rational root p/q of g
// has q | L (g's leading coefficient, denominators cleared), so an isolating interval narrower
// than 1/L² contains it as its simplest rational (smallest denominator, found by continued
// fractions); intervals are refined that far, and then to max_width.
// FLINT 2.9 counts real roots (fmpz_poly_num_real_roots) but does not isolate them; built with
// FLINT the count is cross-checked against it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "algebra/charpoly.hpp"

namespace rnncc {

// One distinct real root r of p: lo == hi means r = lo exactly; otherwise lo < r < hi, p has no
// other root in [lo, hi], p(lo) ≠ 0 ≠ p(hi), and the square-free part changes sign there.
struct RealRoot {
  Rational lo, hi;
  std::size_t multiplicity = 1;
  bool exact() const { return lo == hi; }
};

// p(x), exactly.
Rational evaluate(const RationalPoly& p, const Rational& x);
// Derivative, remainder of division, monic gcd.
RationalPoly derivative(const RationalPoly& p);
RationalPoly poly_rem(const RationalPoly& a, const RationalPoly& b);
RationalPoly poly_quo(const RationalPoly& a, const RationalPoly& b);
RationalPoly poly_gcd(const RationalPoly& a, const RationalPoly& b);
// Yun: pairs (f_i, i) with p = lc(p)·Π f_i^i, each f_i monic, square-free, of degree ≥ 1.
std::vector<std::pair<RationalPoly, std::size_t>> squarefree_decomposition(const RationalPoly& p);
// Cauchy's bound 1 + max_i |c_i / c_n|: every root z has |z| < bound. p of degree ≥ 1.
Rational cauchy_bound(const RationalPoly& p);
// Distinct roots of p in (a, b] (a < b), by Sturm's theorem on p's square-free part.
std::size_t count_distinct_roots(const RationalPoly& p, const Rational& a, const Rational& b);

// The real roots of p (degree ≥ 1; throws std::invalid_argument for a constant), increasing,
// every non-exact interval refined to width ≤ max_width (> 0).
std::vector<RealRoot> real_roots(const RationalPoly& p,
                                 const Rational& max_width = Rational(1, 64));
// Number of real roots counted with multiplicity, and of complex conjugate pairs
// ((deg p − real) / 2).
std::size_t real_root_count(const std::vector<RealRoot>& roots);

// "1 (×2)", "(−3/2, −23/16)", …: the root as printed in reports.
std::string to_string(const RealRoot& r);

// True when the FLINT cross-check is compiled in.
bool real_roots_has_flint();

}  // namespace rnncc
