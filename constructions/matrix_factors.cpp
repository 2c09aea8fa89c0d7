// The factorizations of the WFA → LRNN construction (wfa_to_lrnn.hpp): elementary factors
// (transvections and a diagonal) by exact elimination, dense and sparse; generalized
// Householders from them; the unit-key factors of monomial contractions and, when there are
// none, why.
#include "constructions/matrix_factors.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "algebra/charpoly.hpp"
#include "algebra/real_roots.hpp"

namespace rnncc {

namespace {

using wfa_internal::factor_sparse;
using wfa_internal::identity_matrix;
using wfa_internal::Q;
using wfa_internal::SparseSquare;
using wfa_internal::unit;

// Row operation row_i += c·row_j on W: W ← (I + c e_i e_jᵀ) W.
void row_add(Matrix<Rational>& w, std::size_t i, std::size_t j, const Rational& c) {
  for (std::size_t col = 0; col < w.cols(); ++col)
    if (w(j, col) != 0) w(i, col) += c * w(j, col);
}
// Column operation col_j += c·col_i on W: W ← W (I + c e_i e_jᵀ).
void col_add(Matrix<Rational>& w, std::size_t i, std::size_t j, const Rational& c) {
  for (std::size_t row = 0; row < w.rows(); ++row)
    if (w(row, i) != 0) w(row, j) += c * w(row, i);
}

ElementaryFactor transvection(std::size_t i, std::size_t j, const Rational& c) {
  ElementaryFactor f;
  f.kind = ElementaryFactor::Kind::transvection;
  f.i = i;
  f.j = j;
  f.c = c;
  return f;
}

}  // namespace

Matrix<Rational> ElementaryFactor::matrix(std::size_t d) const {
  Matrix<Rational> m = identity_matrix(d);
  if (kind == Kind::transvection) {
    m(i, j) += c;
  } else {
    for (std::size_t x = 0; x < d; ++x) m(x, x) = diag.at(x);
  }
  return m;
}

Matrix<Rational> HouseholderFactor::matrix() const {
  const std::size_t d = k.size();
  Matrix<Rational> m = identity_matrix(d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) m(i, j) -= beta * k[i] * k[j];
  return m;
}

namespace {

// The factor list of L_p ⋯ L_1 · A · R_1 ⋯ R_q = Δ (below): R_1⁻¹, …, R_q⁻¹, Δ (left out when
// it is I), L_p⁻¹, …, L_1⁻¹, each transvection inverted by negating c.
std::vector<ElementaryFactor> factors_in_application_order(
    const std::vector<ElementaryFactor>& left, const std::vector<ElementaryFactor>& right,
    Vector delta) {
  std::vector<ElementaryFactor> out;
  out.reserve(left.size() + right.size() + 1);
  for (const ElementaryFactor& r : right) out.push_back(transvection(r.i, r.j, -r.c));
  if (!std::all_of(delta.begin(), delta.end(), [](const Rational& x) { return x == 1; })) {
    ElementaryFactor f;
    f.diag = std::move(delta);
    out.push_back(std::move(f));
  }
  for (std::size_t l = left.size(); l-- > 0;)
    out.push_back(transvection(left[l].i, left[l].j, -left[l].c));
  return out;
}

}  // namespace

// Exact elimination with transvections only. Invariant before step k: rows and columns < k
// of W are zero except the diagonal. Step k makes W(k,k) ≠ 0 (≤ 2 transvections, only when
// the trailing block is nonzero; never at k = d−1, where a zero 1×1 block ends the loop),
// then clears column k below and row k right of the pivot (≤ 2(d−1−k) transvections). In all
//     L_p ⋯ L_1 · A · R_1 ⋯ R_q = Δ
// with ≤ 2(d−1) + d(d−1) = (d−1)(d+2) transvections L, R, so
//     A = L_1⁻¹ ⋯ L_p⁻¹ · Δ · R_q⁻¹ ⋯ R_1⁻¹,     (I + c e_i e_jᵀ)⁻¹ = I − c e_i e_jᵀ,
// whose application order (rightmost first) is R_1⁻¹, …, R_q⁻¹, Δ, L_p⁻¹, …, L_1⁻¹.
std::vector<ElementaryFactor> factor_elementary_plain(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("factor_elementary_plain: expected a square matrix, got " +
                                shape_string(a));
  const std::size_t d = a.rows();
  Matrix<Rational> w = a;
  std::vector<ElementaryFactor> left, right;  // L_1, L_2, … and R_1, R_2, … as applied to W
  auto row_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    row_add(w, i, j, c);
    left.push_back(transvection(i, j, c));
  };
  auto col_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    col_add(w, i, j, c);
    right.push_back(transvection(i, j, c));
  };
  for (std::size_t k = 0; k < d; ++k) {
    if (w(k, k) == 0) {
      std::optional<std::size_t> r;
      for (std::size_t i = k + 1; i < d && !r; ++i)
        if (w(i, k) != 0) r = i;
      if (!r) {  // column k is zero from row k down: borrow a nonzero column s > k
        std::optional<std::size_t> s;
        for (std::size_t j = k + 1; j < d && !s; ++j)
          for (std::size_t i = k; i < d && !s; ++i)
            if (w(i, j) != 0) s = j;
        if (!s) break;               // the trailing block is zero: Δ has zeros from k on
        col_op(*s, k, Rational(1));  // col_k += col_s
        if (w(k, k) == 0)
          for (std::size_t i = k + 1; i < d && !r; ++i)
            if (w(i, k) != 0) r = i;
      }
      if (w(k, k) == 0) row_op(k, *r, Rational(1));  // row_k += row_r: W(k,k) = W(r,k) ≠ 0
    }
    const Rational pivot = w(k, k);
    for (std::size_t i = k + 1; i < d; ++i)
      if (w(i, k) != 0) row_op(i, k, -w(i, k) / pivot);  // clears W(i,k)
    for (std::size_t j = k + 1; j < d; ++j)
      if (w(k, j) != 0) col_op(k, j, -w(k, j) / pivot);  // clears W(k,j)
  }
  Vector delta;
  for (std::size_t x = 0; x < d; ++x) delta.push_back(w(x, x));
  return factors_in_application_order(left, right, std::move(delta));
}

// The same elimination on a sparse W (factor_elementary_plain is its dense twin, and the tests
// require the two factor lists to be equal): every choice is the dense one — the first row below
// the pivot, the least borrowed column, rows and columns cleared in increasing order — but each
// transvection touches only the nonzero entries of one row or column, and the searches read the
// column and row sets. A chain WFA's matrix (one nonzero a row) costs O(d log d), not O(d²)
// work per factor; dense input costs what the plain twin does.
namespace wfa_internal {

std::vector<ElementaryFactor> factor_sparse(SparseSquare w) {
  const std::size_t d = w.size();
  std::vector<ElementaryFactor> left, right;
  auto row_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    w.row_add(i, j, c);
    left.push_back(transvection(i, j, c));
  };
  auto col_op = [&](std::size_t i, std::size_t j, const Rational& c) {
    w.col_add(i, j, c);
    right.push_back(transvection(i, j, c));
  };
  for (std::size_t k = 0; k < d; ++k) {
    if (w.at(k, k) == 0) {
      std::vector<std::size_t> below = w.rows_below(k, k);
      if (below.empty()) {
        const std::optional<std::size_t> s = w.first_column_from(k);
        if (!s) break;
        col_op(*s, k, Rational(1));
        if (w.at(k, k) == 0) below = w.rows_below(k, k);
      }
      if (w.at(k, k) == 0) row_op(k, below.front(), Rational(1));
    }
    const Rational pivot = w.at(k, k);
    for (std::size_t i : w.rows_below(k, k)) row_op(i, k, -w.at(i, k) / pivot);
    for (std::size_t j : w.cols_right(k, k)) col_op(k, j, -w.at(k, j) / pivot);
  }
  Vector delta;
  for (std::size_t x = 0; x < d; ++x) delta.push_back(w.at(x, x));
  return factors_in_application_order(left, right, std::move(delta));
}

}  // namespace wfa_internal

std::vector<ElementaryFactor> factor_elementary(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("factor_elementary: expected a square matrix, got " +
                                shape_string(a));
  return factor_sparse(SparseSquare(a));
}

// I + c e_i e_jᵀ = H(1/3, e_j + 2c e_i) · H(1/2, e_j) · H(2/(2c²−1), e_j + c e_i): checked
// symbolically in c (and exactly in tests); 2c² − 1 ≠ 0 because √2 is irrational.
std::vector<HouseholderFactor> householder_transvection(std::size_t d, std::size_t i, std::size_t j,
                                                        const Rational& c) {
  if (i == j || i >= d || j >= d || c == 0)
    throw std::invalid_argument("householder_transvection: needs i ≠ j < d and c ≠ 0");
  auto k = [&](const Rational& t) {
    Vector v = unit(d, j);
    v[i] = t;
    return v;
  };
  return {HouseholderFactor{Rational(2) / (Rational(2) * c * c - 1), k(c)},
          HouseholderFactor{Rational(1, 2), unit(d, j)},
          HouseholderFactor{Rational(1, 3), k(Rational(2) * c)}};
}

std::size_t householder_factor_count(const std::vector<ElementaryFactor>& elementary) {
  std::size_t n = 0;
  for (const ElementaryFactor& f : elementary)
    n += f.kind == ElementaryFactor::Kind::transvection
             ? 3
             : static_cast<std::size_t>(std::count_if(f.diag.begin(), f.diag.end(),
                                                      [](const Rational& x) { return x != 1; }));
  return n;
}

std::vector<HouseholderFactor> factor_householder(const Matrix<Rational>& a) {
  return householder_factors(factor_elementary(a), a.rows());
}

std::vector<HouseholderFactor> householder_factors(const std::vector<ElementaryFactor>& elementary,
                                                   std::size_t d) {
  std::vector<HouseholderFactor> out;
  for (const ElementaryFactor& f : elementary) {
    if (f.kind == ElementaryFactor::Kind::transvection) {
      for (HouseholderFactor& h : householder_transvection(d, f.i, f.j, f.c))
        out.push_back(std::move(h));
    } else {
      for (std::size_t x = 0; x < d; ++x)  // H(1 − λ, e_x) scales coordinate x by λ
        if (f.diag[x] != 1) out.push_back(HouseholderFactor{1 - f.diag[x], unit(d, x)});
    }
  }
  return out;
}

Matrix<Rational> product_in_application_order(const std::vector<Matrix<Rational>>& factors,
                                              std::size_t d) {
  Matrix<Rational> p = identity_matrix(d);
  for (const Matrix<Rational>& f : factors) p = mul(Q, f, p);  // the later factor on the left
  return p;
}

std::size_t dplr_steps_bound(std::size_t d) {
  return d * d + d - 1;
}
std::size_t deltanet_steps_bound(std::size_t d) {
  return 3 * (d - 1) * (d + 2) + d;
}

namespace {

// A = P·D for a monomial contraction: a_j and π(j) (the row of column j's entry; zero columns
// completed to a bijection with the unused rows, in order). nullopt when A is not monomial or
// an entry lies outside [−1, 1].
std::optional<std::pair<Vector, std::vector<std::size_t>>> monomial_split(
    const Matrix<Rational>& a) {
  const std::size_t d = a.rows();
  Vector diag(d, Rational(0));
  std::vector<std::size_t> pi(d, d);
  std::vector<bool> row_used(d, false);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < d; ++i) {
      if (a(i, j) == 0) continue;
      if (pi[j] != d || row_used[i] || a(i, j) < -1 || a(i, j) > 1) return std::nullopt;
      pi[j] = i;
      row_used[i] = true;
      diag[j] = a(i, j);
    }
  std::size_t free_row = 0;
  for (std::size_t j = 0; j < d; ++j) {
    if (pi[j] != d) continue;
    while (row_used[free_row]) ++free_row;
    pi[j] = free_row;
    row_used[free_row] = true;
  }
  return std::make_pair(std::move(diag), std::move(pi));
}

}  // namespace

bool monomial_needs_permutation(const Matrix<Rational>& a) {
  const auto split = monomial_split(a);
  if (!split) return false;
  for (std::size_t j = 0; j < split->second.size(); ++j)
    if (split->second[j] != j) return true;
  return false;
}

std::size_t unit_monomial_factor_count(const Matrix<Rational>& a, std::size_t copies) {
  const auto split = monomial_split(a);
  if (!split) throw std::invalid_argument("unit_monomial_factor_count: not a monomial contraction");
  const auto& [diag, pi] = *split;
  // copies per entry a_j ≠ 1, and d − (cycles of π) transpositions.
  std::size_t n = 0, cycles = 0;
  for (const Rational& x : diag) n += (x != 1) * copies;
  std::vector<bool> seen(pi.size(), false);
  for (std::size_t i = 0; i < pi.size(); ++i) {
    if (seen[i]) continue;
    ++cycles;
    for (std::size_t j = i; !seen[j]; j = pi[j]) seen[j] = true;
  }
  return n + (pi.size() - cycles);
}

std::vector<HouseholderFactor> factor_unit_monomial(const Matrix<Rational>& a, std::size_t copies) {
  if (a.rows() != a.cols() || (copies != 1 && copies != 2))
    throw std::invalid_argument("factor_unit_monomial: a square matrix and 1 or 2 copies");
  const auto split = monomial_split(a);
  if (!split) throw std::invalid_argument("factor_unit_monomial: not a monomial contraction");
  const std::size_t d = a.rows(), D = d * copies;
  const auto& [diag, pi0] = *split;
  std::vector<HouseholderFactor> out;
  for (std::size_t j = 0; j < d; ++j)  // D first: H(1 − a_j, e_j) in every copy
    if (diag[j] != 1)
      for (std::size_t c = 0; c < copies; ++c)
        out.push_back(HouseholderFactor{1 - diag[j], unit(D, c * d + j)});
  // π = (i₁ j₁) ∘ (i₂ j₂) ∘ ⋯: peel (i π(i)) from the left until π = id; applied in reverse.
  std::vector<std::size_t> pi = pi0;
  std::vector<std::pair<std::size_t, std::size_t>> peeled;
  for (std::size_t i = 0; i < d; ++i)
    while (pi[i] != i) {
      const std::size_t j = pi[i];
      peeled.emplace_back(i, j);
      for (std::size_t& x : pi) x = x == i ? j : (x == j ? i : x);  // π ← (i j) ∘ π
    }
  if (!peeled.empty() && copies == 1)
    throw std::invalid_argument(
        "factor_unit_monomial: a permutation part needs 2 copies (the key (e_i − e_j)/√2 is "
        "irrational)");
  for (std::size_t t = peeled.size(); t-- > 0;) {
    Vector k(D, Rational(0));
    for (std::size_t c = 0; c < copies; ++c) {
      k[c * d + peeled[t].first] = Rational(1, 2);
      k[c * d + peeled[t].second] = Rational(-1, 2);
    }
    out.push_back(HouseholderFactor{Rational(2), std::move(k)});
  }
  return out;
}

std::optional<std::string> unit_key_obstruction(const Wfa& a) {
  for (std::size_t s = 0; s < a.transition.size(); ++s) {
    const Matrix<Rational>& m = a.transition[s];
    if (monomial_split(transpose(m))) continue;
    const std::string sym = "M_'" + a.alphabet.symbol(s) + "'";
    // ‖M‖₂² = the largest eigenvalue of MᵀM (symmetric PSD: all roots real, ≥ 0).
    const RationalPoly p = charpoly(mul(Q, transpose(m), m));
    const std::vector<RealRoot> roots = real_roots(p);
    const RealRoot& top = roots.back();
    if (top.lo > 1 || (top.exact() && top.lo > 1) ||
        count_distinct_roots(p, Rational(1), cauchy_bound(p)) > 0) {
      RealRoot r = top;
      r.multiplicity = 1;
      return "impossible: ‖" + sym + "‖₂² = σ_max² " + (r.exact() ? "= " : "∈ ") + to_string(r) +
             " > 1, and every product of I − βkkᵀ with ‖k‖ = 1, β ∈ (0, 2] (restricted to an "
             "invariant subspace too) has spectral norm ≤ 1";
    }
    return "not covered: " + sym +
           " is a contraction (‖·‖₂ ≤ 1) but not monomial (one "
           "nonzero per row and column, entries in [−1, 1]); over R it factors through the SVD, "
           "over Q with unit keys this construction does not search";
  }
  return std::nullopt;
}

}  // namespace rnncc
