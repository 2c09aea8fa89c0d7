// Ben-Or and Cleve: an arithmetic formula of depth d becomes a product of ≤ 4^d elementary
// 3×3 matrices whose entry (1,3) is the formula's value, and a one-layer LRNN with a 3×3 matrix
// state multiplies them (docs/constructions.md, "Ben-Or–Cleve"; reference/constructions.md §5).
//
// Source: M. Ben-Or, R. Cleve, "Computing algebraic formulas using a constant number of
// registers", SIAM J. Comput. 21 (1992). Theorem: a formula over (+, −, ×) of depth d is
// computed by a straight-line program of length ≤ 4^d on three registers whose every
// instruction is r_j ← r_j ± a·r_i (a a constant or an input).
//
// Registers r = (r₁, r₂, r₃) form a ROW vector; the instruction r_j ← r_j + a·r_i is
// r ← r·E_ij(a) with E_ij(a) = I + a·e_i e_jᵀ (i ≠ j). Prog(f, i, j, s), s = ±1, performs
// r_j ← r_j + s·f·r_i and leaves the other registers as they were, i.e. its product is E_ij(s·f):
//   leaf (a constant c or a variable x):  [E_ij(s·c)] or [E_ij(s·x)]
//   f = g + h:   Prog(g, i, j, s); Prog(h, i, j, s)
//   f = g − h:   Prog(g, i, j, s); Prog(h, i, j, −s)
//   f = g · h:   Prog(g, i, k, +); Prog(h, k, j, s); Prog(g, i, k, −); Prog(h, k, j, −s)
//                (k the third register: r_k gains g·r_i, r_j gains s·h·(r_k + g·r_i), r_k
//                loses g·r_i, r_j loses s·h·r_k — net r_j += s·g·h·r_i)
// Lengths: leaf 1, ± adds, × doubles the sum, so |Prog| ≤ 4^depth. The whole program is
// Prog(f, 1, 3, +), so M = E_1 ⋯ E_L = E_13(f) = I + f·e₁e₃ᵀ and M₁₃ = f.
//
// The LRNN (family general, d = m = 3, S₀ = I, B = 0) is in column form, so token t carries
// A_t = E_tᵀ = I + a·e_j e_iᵀ: S_L = E_Lᵀ ⋯ E_1ᵀ = (E_1 ⋯ E_L)ᵀ = Mᵀ, and the readout
// C = [[0, 0, 1]] gives y = (row 3 of Mᵀ) = (column 3 of M)ᵀ, whose entry y[0][0] = M₁₃ = f.
// Its alphabet is the set of elementary matrices the program needs on the value set V: one
// symbol per (step's registers, coefficient) pair that occurs, named "E13(-1/2)" (registers
// 1-based, then the coefficient a in canonical rational form), in order of first use — at most
// L·|V| symbols.
//
// Claims: program length ≤ 4^depth; state 3×3 (d = 3, m = 3); every factor A_t is identity +
// rank one (so the layer is DPLR: A = I − (−a e_j) e_iᵀ).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "circuits/io/sexpr.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

// One instruction r_j ← r_j + a·r_i, i.e. the factor E_ij(a). Registers are 0-based (the
// product's entry M₁₃ is M(0, 2)). The coefficient a = sign·constant when `variable` is empty,
// else sign·x_{variable+1} (variables 0-based: x1 is variable 0).
struct ElementaryStep {
  int i = 0, j = 2;
  int sign = 1;  // +1 or −1
  std::optional<std::size_t> variable;
  Rational constant;

  Rational coefficient(const std::vector<Rational>& x) const;
};

// "E13(+x2)", "E21(-3/4)" (registers 1-based).
std::string to_string(const ElementaryStep& s);

// E_ij(a) = I + a·e_i e_jᵀ (3×3, 0-based i ≠ j).
Matrix<Rational> elementary_matrix(int i, int j, const Rational& a);

// The exact product E_1 ⋯ E_L (left to right) at the point x (x[v] is the value of x_{v+1});
// the empty program gives I. The plain evaluator the tests and verify/ compare with.
Matrix<Rational> program_matrix(const std::vector<ElementaryStep>& program,
                                const std::vector<Rational>& x);

// Prog(f, 1, 3, +). Throws InputError for a boolean formula with operators (a lone variable or
// 0/1 is read as arithmetic), and when the program would exceed 2^22 steps.
std::vector<ElementaryStep> ben_or_cleve_program(const Formula& f);

// The default value set V = {−1, 0, 1, 2}.
std::vector<Rational> default_ben_or_cleve_values();

// X: the one-layer LRNN above; f: the formula at x_j = V[w_j] on strings w over V (symbols =
// canonical rational text, fixed length k = f.variables); encode(w) = one token per program
// step. Throws InputError (where "values") for an empty V or a repeated value.
Construction ben_or_cleve(const Formula& f,
                          std::vector<Rational> values = default_ben_or_cleve_values());

}  // namespace rnncc
