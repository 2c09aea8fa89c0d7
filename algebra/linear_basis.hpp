// Exact linear algebra for the equivalence decider (verify/equivalence.hpp): an incremental
// echelon basis of row vectors over a field, which also says how a vector in the span is a
// combination of the vectors that were inserted (the certificates need those coefficients).
//
// Fields: QField (exact rationals, GMP through Boost.Multiprecision) and FpField (Z/pZ, p a
// word-size prime, algebra/modp_ops.hpp). Both give zero, one, add, sub, mul, div, is_zero.
//
// EchelonBasis keeps, for the inserted (independent) vectors b_0, …, b_{k−1}:
//   - E, the reduced row echelon form of their span: row i has a 1 in its pivot column p_i and
//     0 in every other row's pivot column;
//   - T, with E_i = Σ_j T_ij b_j (so a combination of the rows of E is one of the b_j).
// reduce(v): with λ_i = v[p_i], r = v − Σ λ_i E_i is zero iff v ∈ span, and then
// v = Σ_i λ_i E_i = Σ_j (Σ_i λ_i T_ij) b_j. Cost: O(k·(n + k)) field operations for n columns.
// insert(v) on an independent v appends b_k = v: E_k = r / r[p] (p = first nonzero column of
// r), T_k = (e_k − Σ λ_i T_i) / r[p], then clears column p from the other rows.
//
// The plain twin solve_in_span_plain solves Σ c_j b_j = v by a fresh Gaussian elimination of
// the augmented system [b_0ᵀ … b_{k−1}ᵀ | vᵀ]; tests compare the two.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "algebra/modp_ops.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

struct QField {
  using Element = Rational;
  Element zero() const { return Rational(0); }
  Element one() const { return Rational(1); }
  Element add(const Element& a, const Element& b) const { return a + b; }
  Element sub(const Element& a, const Element& b) const { return a - b; }
  Element mul(const Element& a, const Element& b) const { return a * b; }
  Element div(const Element& a, const Element& b) const { return a / b; }
  bool is_zero(const Element& a) const { return a == 0; }
  Element from_rational(const Rational& q) const { return q; }
  std::string to_string(const Element& a) const { return rnncc::to_string(a); }
  // max(bits of numerator, bits of denominator): the bit-growth measure.
  std::size_t bits(const Element& a) const {
    return std::max(bit_length(numerator(a)), bit_length(denominator(a)));
  }
  std::string name() const { return "Q"; }
};

struct FpField {
  using Element = std::uint64_t;
  std::uint64_t p = 2;
  Element zero() const { return 0; }
  Element one() const { return 1 % p; }
  Element add(Element a, Element b) const { return modp::add(a, b, p); }
  Element sub(Element a, Element b) const { return modp::sub(a, b, p); }
  Element mul(Element a, Element b) const { return modp::mul(a, b, p); }
  Element div(Element a, Element b) const { return modp::mul(a, modp::inv(b, p), p); }
  bool is_zero(Element a) const { return a == 0; }
  // a/b ↦ a·b⁻¹ mod p; throws std::domain_error when p divides the denominator.
  Element from_rational(const Rational& q) const {
    const Integer pp(p);
    Integer n = numerator(q) % pp, d = denominator(q) % pp;
    if (n < 0) n += pp;
    if (d == 0)
      throw std::domain_error("the rational " + rnncc::to_string(q) + " has no value mod " +
                              std::to_string(p) + " (p divides its denominator)");
    return div(static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(d));
  }
  std::string to_string(Element a) const { return std::to_string(a); }
  std::size_t bits(Element a) const {
    std::size_t b = 0;
    while (a) ++b, a >>= 1;
    return b;
  }
  std::string name() const { return "F_" + std::to_string(p); }
};

template <class F>
class EchelonBasis {
 public:
  using E = typename F::Element;
  using Vec = std::vector<E>;

  // track_coefficients = false: membership only (no T, so reduce/insert return empty
  // coefficient vectors) — about half the work when no certificate is wanted.
  EchelonBasis(F field, std::size_t columns, bool track_coefficients = true)
      : f_(std::move(field)), n_(columns), track_(track_coefficients) {}

  std::size_t size() const { return rows_.size(); }
  std::size_t columns() const { return n_; }
  const F& field() const { return f_; }
  // The i-th inserted vector b_i, as given.
  const Vec& vector(std::size_t i) const { return inserted_[i]; }

  // Coefficients c (size() entries) with v = Σ c_j b_j, or std::nullopt when v ∉ span.
  std::optional<Vec> reduce(const Vec& v) const {
    Vec r = v, lambda;
    if (eliminate(r, lambda)) return std::nullopt;
    return combine(lambda);
  }

  // When v ∈ span: its coefficients, and nothing is inserted. Otherwise v becomes b_{size()}
  // and the result is std::nullopt.
  std::optional<Vec> insert(const Vec& v) {
    if (v.size() != n_) throw std::invalid_argument("EchelonBasis::insert: wrong length");
    Vec r = v, lambda;
    const std::size_t p = eliminate(r, lambda);
    if (!p) return combine(lambda);
    const std::size_t piv = p - 1, k = rows_.size();
    // T_k = (e_k − Σ λ_i T_i) / r[piv]
    Vec t(track_ ? k + 1 : 0, f_.zero());
    if (track_) {
      t[k] = f_.one();
      for (std::size_t i = 0; i < k; ++i)
        if (!f_.is_zero(lambda[i]))
          for (std::size_t j = 0; j < t_[i].size(); ++j)
            if (!f_.is_zero(t_[i][j])) t[j] = f_.sub(t[j], f_.mul(lambda[i], t_[i][j]));
    }
    const E inv = f_.div(f_.one(), r[piv]);
    for (E& x : r)
      if (!f_.is_zero(x)) x = f_.mul(x, inv);
    for (E& x : t)
      if (!f_.is_zero(x)) x = f_.mul(x, inv);
    // Clear column piv from the other rows (reduced echelon form).
    for (std::size_t i = 0; i < k; ++i) {
      if (track_) t_[i].resize(k + 1, f_.zero());
      const E c = rows_[i][piv];
      if (f_.is_zero(c)) continue;
      for (std::size_t j = piv; j < n_; ++j)
        if (!f_.is_zero(r[j])) rows_[i][j] = f_.sub(rows_[i][j], f_.mul(c, r[j]));
      for (std::size_t j = 0; j < t.size(); ++j)
        if (!f_.is_zero(t[j])) t_[i][j] = f_.sub(t_[i][j], f_.mul(c, t[j]));
    }
    rows_.push_back(std::move(r));
    t_.push_back(std::move(t));
    pivot_.push_back(piv);
    inserted_.push_back(v);
    return std::nullopt;
  }

  // Largest bits() over the entries of the echelon rows and of T (the working numbers), and
  // over the inserted vectors.
  std::size_t max_bits_working() const {
    std::size_t b = 0;
    for (const Vec& row : rows_)
      for (const E& x : row) b = std::max(b, f_.bits(x));
    for (const Vec& row : t_)
      for (const E& x : row) b = std::max(b, f_.bits(x));
    return b;
  }
  std::size_t max_bits_inserted() const {
    std::size_t b = 0;
    for (const Vec& row : inserted_)
      for (const E& x : row) b = std::max(b, f_.bits(x));
    return b;
  }

 private:
  // Reduces r by the rows (λ_i = r[p_i] before row i is subtracted; rows are reduced, so the
  // order does not matter). Returns 1 + the first nonzero column of the residue, or 0.
  std::size_t eliminate(Vec& r, Vec& lambda) const {
    lambda.assign(rows_.size(), f_.zero());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const E c = r[pivot_[i]];
      if (f_.is_zero(c)) continue;
      lambda[i] = c;
      const Vec& row = rows_[i];
      for (std::size_t j = pivot_[i]; j < n_; ++j)
        if (!f_.is_zero(row[j])) r[j] = f_.sub(r[j], f_.mul(c, row[j]));
    }
    for (std::size_t j = 0; j < n_; ++j)
      if (!f_.is_zero(r[j])) return j + 1;
    return 0;
  }
  Vec combine(const Vec& lambda) const {
    if (!track_) return {};
    Vec c(rows_.size(), f_.zero());
    for (std::size_t i = 0; i < rows_.size(); ++i)
      if (!f_.is_zero(lambda[i]))
        for (std::size_t j = 0; j < t_[i].size(); ++j)
          if (!f_.is_zero(t_[i][j])) c[j] = f_.add(c[j], f_.mul(lambda[i], t_[i][j]));
    return c;
  }

  F f_;
  std::size_t n_;
  bool track_ = true;
  std::vector<Vec> rows_, t_, inserted_;
  std::vector<std::size_t> pivot_;
};

// Plain twin: solves Σ_j c_j b_j = v by Gaussian elimination of [b_0ᵀ … b_{k−1}ᵀ | vᵀ] (n×(k+1)).
// Returns the unique c when v ∈ span and the b_j are independent; std::nullopt when v ∉ span.
// (With dependent b_j it returns one solution, free variables set to 0.)
template <class F>
std::optional<std::vector<typename F::Element>> solve_in_span_plain(
    const F& f, const std::vector<std::vector<typename F::Element>>& basis,
    const std::vector<typename F::Element>& v) {
  using E = typename F::Element;
  const std::size_t n = v.size(), k = basis.size();
  std::vector<std::vector<E>> a(n, std::vector<E>(k + 1, f.zero()));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < k; ++j) a[i][j] = basis[j][i];
    a[i][k] = v[i];
  }
  std::vector<std::size_t> pivot_col;
  std::size_t row = 0;
  for (std::size_t col = 0; col < k && row < n; ++col) {
    std::size_t sel = row;
    while (sel < n && f.is_zero(a[sel][col])) ++sel;
    if (sel == n) continue;
    std::swap(a[sel], a[row]);
    for (std::size_t i = 0; i < n; ++i) {
      if (i == row || f.is_zero(a[i][col])) continue;
      const E m = f.div(a[i][col], a[row][col]);
      for (std::size_t j = col; j <= k; ++j) a[i][j] = f.sub(a[i][j], f.mul(m, a[row][j]));
    }
    pivot_col.push_back(col);
    ++row;
  }
  for (std::size_t i = row; i < n; ++i)
    if (!f.is_zero(a[i][k])) return std::nullopt;  // inconsistent: v ∉ span
  std::vector<E> c(k, f.zero());
  for (std::size_t i = 0; i < pivot_col.size(); ++i)
    c[pivot_col[i]] = f.div(a[i][k], a[i][pivot_col[i]]);
  return c;
}

}  // namespace rnncc
