// A position router built from rational reflections, and the claim of its period
// [MJLLS26, Thm 5, DeltaNet version, as corrected in docs/errata.md].
//
// The DeltaNet version of Thm 5 supplies positions (which sub-step of which matrix a token is)
// with a router whose state cycles with period 1404 and whose transitions are products of 2×2
// rational reflections (DeltaNet's I − βkkᵀ at β = 2 with a rational unit key k is a reflection:
// orthogonal with determinant −1). An independent audit found that such a router cannot exist
// over Q. This file builds the router from ANY list of 2×2 rational matrices and a claimed
// period P, and measures the period exactly, so the claim can be checked.
//
// Theorem (the order of a rational 2×2 matrix). If A ∈ GL₂(Q) has finite order k, then its
// minimal polynomial divides x^k − 1, hence is a product of distinct cyclotomic polynomials
// Φ_d over Q; its degree is ≤ 2, and deg Φ_d = φ(d) ≤ 2 only for d ∈ {1, 2, 3, 4, 6}. The
// product of two distinct factors of degree ≤ 2 total is Φ₁Φ₂ (order 2), so the order of A is
// the lcm of at most two of these d with Σ φ(d) ≤ 2: one of 1, 2, 3, 4, 6. (Kuzmanovich and
// Pavlichenkov, "Finite groups of matrices whose entries are integers", Amer. Math. Monthly 109
// (2002); the crystallographic restriction.) So order_2x2 tests A^k = I exactly for k in
// {1, 2, 3, 4, 6} and otherwise reports infinite order — a proof, not a search. A router of
// several 2×2 blocks (block-diagonal state) has order the lcm of the blocks' orders: one of
// 1, 2, 3, 4, 6, 12, or infinite; the period of its states divides the order when it is finite
// (the orbit period below), so it is one of 1, 2, 3, 4, 6, 12 or none. Period 1404 = 2²·3³·13 is
// none of them, for every rational choice.
//
// The router (column convention S_t = A S_{t−1}, docs/semantics.md): blocks b = 1..B, block b a
// list of 2×2 matrices M_{b,1..k_b}; state dimension 2B, S_0 = e₁ in every block. The input
// alphabet has one symbol "t" (one position); encode(t) = tokens "r1".."rK" (K = max k_b), token
// j applying M_{b,j} in block b (I where k_b < j), so one position applies G_b = M_{b,k_b}⋯M_{b,1}
// in block b — a DeltaNet layer reads one Householder per token. The readout sums the blocks'
// first coordinates; f(w) = Σ_b (G_b^{|w|} e₁)₁, the same products computed directly (with a
// 2B-state automaton, so verify proves the model implements them for every length).
// The start state S₀ is e₁ in every block unless the spec gives one ("start").
//
// Claims. "period of the position states" claimed = P, measured exactly as the orbit period of
// S₀: the least P ≥ 1 with G^P·S₀ = S₀ (none when no such P exists), and the first position
// that breaks the claim: position k repeats position 0 when the period k < P (positions 0 and k
// are not told apart), or position P differs from position 0 when there is no period or it
// does not divide P. This is NOT the order of G: diag(1, −1) has order 2 but fixes e₁ (the
// states never change: period 1). "order of the one-position map G" is the second claim (the
// lcm of the blocks' orders), checked only for consistency: the period divides it.
//
// Theorem (the orbit period). Let μ_s be the local minimal polynomial of s under G: the monic
// polynomial of least degree with μ_s(G)·s = 0 (s, Gs, G²s, … span the cyclic subspace Z(s),
// and μ_s is the minimal polynomial of G restricted to Z(s)). Then G^P·s = s iff μ_s divides
// x^P − 1. Over Q, x^P − 1 = Π_{d | P} Φ_d is squarefree, so a period exists iff μ_s is a product
// of DISTINCT cyclotomic polynomials Φ_{d_1}⋯Φ_{d_r}, and then the least P is lcm(d_1, …, d_r).
// The d with φ(d) ≤ deg μ_s are finitely many (φ(d) ≥ √(d/2)), so the factorization is a
// finite exact test (orbit_period). With block-diagonal G, G^P·S₀ = S₀ iff it holds in every
// block, so the router's period is the lcm of the blocks' orbit periods (none if one has none).
// For a G of known finite order N (the permutation blocks) the period is the least divisor P of
// N with x^P ≡ 1 (mod μ_s), found by removing primes from N. Either way the result is
// confirmed by x^P ≡ 1 and x^{P/p} ≢ 1 (mod μ_s) for every prime p | P (exact).
//
// The corrected router (permutation = true): block sizes the prime-power factors of P (1404 →
// 4, 27, 13: 44 coordinates), each block the cyclic shift of its coordinates applied as m − 1
// transposition tokens (i i+1) = I − 2vvᵀ with v = (e_i − e_{i+1})/√2 — a DeltaNet step at
// β = 2 whose vvᵀ is rational although v is not (reference §6). Period = lcm of the block
// sizes = P exactly, measured by exact powers: G^P = I and G^{P/p} ≠ I for every prime p | P.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

using Matrix2 = Matrix<Rational>;  // 2×2 where the functions below say so

// The exact multiplicative order of a 2×2 rational matrix: 1, 2, 3, 4 or 6, or nullopt when
// A^k ≠ I for all of them, which by the theorem above means infinite order.
std::optional<std::uint64_t> order_2x2(const Matrix2& a);

// A^k = I for some 1 ≤ k ≤ limit by repeated multiplication (the plain twin of order_2x2, for
// tests): the least such k, or nullopt.
std::optional<std::uint64_t> order_by_powers(const Matrix2& a, std::uint64_t limit);

// The exact order of a permutation matrix (lcm of its cycle lengths), confirmed by exact
// powers: G^k = I and G^{k/p} ≠ I for every prime p | k. Throws std::logic_error if g is no
// permutation matrix.
std::uint64_t permutation_order(const Matrix<Rational>& g);

// "reflection" (orthogonal, det −1), "rotation" (orthogonal, det 1) or "general".
std::string classify_2x2(const Matrix2& a);

struct RouterSpec {
  std::vector<std::vector<Matrix2>> blocks;  // each matrix 2×2, each block non-empty
  std::vector<Rational> start;               // S₀, 2 entries a block; empty: e₁ in every block
};

// ---- orbit periods (the theorem above) ----

// A polynomial over Q, coefficients from x⁰ up (the last one nonzero; the zero polynomial is
// empty).
using Polynomial = std::vector<Rational>;

// μ_s: the monic polynomial of least degree with μ_s(G)·s = 0, by exact elimination of the
// Krylov vectors s, Gs, G²s, … (degree ≤ dim; the empty s = 0 gives μ = 1). g square, s a
// column of g's size.
Polynomial local_minimal_polynomial(const Matrix<Rational>& g, const Matrix<Rational>& s);

// The d-th cyclotomic polynomial Φ_d (d ≥ 1), exactly: x^d − 1 divided by Φ_e for e | d, e < d.
Polynomial cyclotomic_polynomial(std::uint64_t d);

// "x^2 - 80/41*x + 1"
std::string polynomial_text(const Polynomial& p);

struct OrbitPeriod {
  std::optional<std::uint64_t> period;  // the least P ≥ 1 with G^P·s = s; nullopt: none
  Polynomial polynomial;                // μ_s
  std::string reason;                   // "x^2 - 1 = Φ1·Φ2", or why there is no period
};

// The orbit period of s under g, exactly (the theorem above). `order`: the order of g when known
// to be finite (then any degree); otherwise μ_s is factored into cyclotomic polynomials, which
// this supports up to degree 64 (std::logic_error beyond: no caller needs more).
OrbitPeriod orbit_period(const Matrix<Rational>& g, const Matrix<Rational>& s,
                         std::optional<std::uint64_t> order = std::nullopt);

// The plain twin: iterate v ← G·v from s exactly until v = s, at most `limit` times: the least
// such P, or nullopt.
std::optional<std::uint64_t> orbit_period_by_iteration(const Matrix<Rational>& g,
                                                       const Matrix<Rational>& s,
                                                       std::uint64_t limit);

// The reflections file or inline text (docs/errata.md, "The position router"): JSON
//   {"blocks": [[M, M, …], …]}  or  {"reflections": [M, …]} (one block)  or  [M, …] (one block),
// each M [[a, b], [c, d]] with entries JSON integers or strings "p/q" (or decimals "0.6"); the
// object forms may give "start": [s₁, s₂, …], the start state S₀, two entries per block.
// `text` is the file's text, `source` its name (or "--reflections" for inline text). Throws
// InputError at source:line:column (malformed JSON) or source: /json/path (a matrix not 2×2,
// an entry not rational, an empty block, a start state of the wrong length).
RouterSpec parse_router_spec(std::string_view text, const std::string& source);

// The default: a paper-like choice of three blocks aiming at periods 4, 27 and 13 (1404 by
// Chinese remaindering): Ref(0)·Ref(45°) = rotation by 90°, and two Pythagorean-triple
// reflection pairs whose rotations (cos 40/41, cos 15/17) approximate 2π/27 and 2π/13.
RouterSpec default_router_spec();

struct RouterOptions {
  RouterSpec spec = default_router_spec();
  std::uint64_t period = 1404;
  bool permutation = false;  // the corrected router (ignores spec)
};

Construction position_router(const RouterOptions& options);

}  // namespace rnncc
