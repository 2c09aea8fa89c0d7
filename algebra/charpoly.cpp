// Characteristic polynomials (see the header for the method).
#include "algebra/charpoly.hpp"

#include <stdexcept>
#include <utility>

#if RNNCC_HAVE_FLINT
#include <flint/fmpq.h>
#include <flint/fmpq_mat.h>
#include <flint/fmpq_poly.h>
#endif

namespace rnncc {

namespace {

void require_square(const Matrix<Rational>& a) {
  if (a.rows() != a.cols())
    throw std::invalid_argument("charpoly: expected a square matrix, got " + shape_string(a));
}

void trim(RationalPoly& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}

#if RNNCC_HAVE_FLINT
RationalPoly charpoly_flint(const Matrix<Rational>& a) {
  const slong n = static_cast<slong>(a.rows());
  fmpq_mat_t m;
  fmpq_mat_init(m, n, n);
  for (slong i = 0; i < n; ++i)
    for (slong j = 0; j < n; ++j)
      fmpq_set_mpq(fmpq_mat_entry(m, i, j),
                   a(static_cast<std::size_t>(i), static_cast<std::size_t>(j)).backend().data());
  fmpq_poly_t p;
  fmpq_poly_init(p);
  fmpq_mat_charpoly(p, m);
  RationalPoly out(static_cast<std::size_t>(n) + 1);
  fmpq_t c;
  fmpq_init(c);
  for (slong i = 0; i <= n; ++i) {
    fmpq_poly_get_coeff_fmpq(c, p, i);
    fmpq_get_mpq(out[static_cast<std::size_t>(i)].backend().data(), c);
  }
  fmpq_clear(c);
  fmpq_poly_clear(p);
  fmpq_mat_clear(m);
  trim(out);
  return out;
}
#endif

}  // namespace

bool charpoly_has_flint() {
  return RNNCC_HAVE_FLINT != 0;
}

// Similarity to upper Hessenberg form H (row/column swaps and eliminations, each applied on
// both sides), then p_0 = 1, p_m = (x − h_mm)·p_{m−1} − Σ_{i=1}^{m−1} t_i·h_{m−i,m}·p_{m−i−1}
// with t_i = h_{m,m−1}·h_{m−1,m−2} ⋯ h_{m−i+1,m−i} (1-indexed as in Cohen 2.2.9).
RationalPoly charpoly_plain(const Matrix<Rational>& a) {
  require_square(a);
  const std::size_t n = a.rows();
  Matrix<Rational> h = a;
  for (std::size_t m = 1; m + 1 < n; ++m) {
    std::size_t i = m;
    while (i < n && h(i, m - 1) == 0) ++i;
    if (i == n) continue;
    if (i != m) {
      for (std::size_t j = 0; j < n; ++j) std::swap(h(i, j), h(m, j));
      for (std::size_t j = 0; j < n; ++j) std::swap(h(j, i), h(j, m));
    }
    for (std::size_t r = m + 1; r < n; ++r) {
      if (h(r, m - 1) == 0) continue;
      const Rational u = h(r, m - 1) / h(m, m - 1);
      for (std::size_t j = 0; j < n; ++j) h(r, j) -= u * h(m, j);  // row_r −= u·row_m
      for (std::size_t j = 0; j < n; ++j) h(j, m) += u * h(j, r);  // col_m += u·col_r
    }
  }
  std::vector<RationalPoly> p(n + 1);
  p[0] = {Rational(1)};
  for (std::size_t m = 1; m <= n; ++m) {
    const Rational& hmm = h(m - 1, m - 1);
    RationalPoly q(m + 1, Rational(0));  // (x − h_mm)·p_{m−1}
    for (std::size_t k = 0; k < p[m - 1].size(); ++k) {
      q[k + 1] += p[m - 1][k];
      q[k] -= hmm * p[m - 1][k];
    }
    Rational t(1);
    for (std::size_t i = 1; i < m; ++i) {
      t *= h(m - i, m - i - 1);  // h_{m−i+1, m−i} (1-indexed)
      if (t == 0) break;
      const Rational c = t * h(m - i - 1, m - 1);  // h_{m−i, m}
      if (c == 0) continue;
      const RationalPoly& r = p[m - i - 1];
      for (std::size_t k = 0; k < r.size(); ++k) q[k] -= c * r[k];
    }
    trim(q);
    p[m] = std::move(q);
  }
  return p[n];
}

RationalPoly charpoly(const Matrix<Rational>& a) {
  require_square(a);
#if RNNCC_HAVE_FLINT
  return charpoly_flint(a);
#else
  return charpoly_plain(a);
#endif
}

std::string poly_to_string(const RationalPoly& p, const std::string& x) {
  if (p.empty()) return "0";
  std::string out;
  for (std::size_t k = p.size(); k-- > 0;) {
    const Rational& c = p[k];
    if (c == 0) continue;
    const bool negative = c < 0;
    const Rational mag = negative ? Rational(-c) : c;
    if (out.empty())
      out += negative ? "-" : "";
    else
      out += negative ? " - " : " + ";
    if (k == 0 || mag != 1) out += to_string(mag);
    if (k >= 1) out += x;
    if (k >= 2) out += "^" + std::to_string(k);
  }
  return out;
}

}  // namespace rnncc
