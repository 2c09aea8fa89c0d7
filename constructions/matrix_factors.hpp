#pragma once
// Internal to constructions/: what the factorizations of the transition matrices
// (matrix_factors.cpp) share with the WFA → LRNN construction (wfa_to_lrnn.cpp): the exact
// field Q, identity matrices and unit vectors, and the sparse elimination.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "algebra/exact.hpp"
#include "constructions/wfa_to_lrnn.hpp"

namespace rnncc::wfa_internal {

const RationalField Q;

inline Matrix<Rational> identity_matrix(std::size_t d) {
  return identity(Q, d);
}

inline Vector unit(std::size_t d, std::size_t i, const Rational& scale = Rational(1)) {
  Vector v(d, Rational(0));
  v[i] = scale;
  return v;
}

// W for the sparse elimination: each row's nonzero entries by column, and each column's nonzero
// rows, kept in step by add().
class SparseSquare {
 public:
  // W = a, or aᵀ when `transposed` (without a dense copy of it).
  explicit SparseSquare(std::size_t d) : rows_(d), cols_(d) {}  // W = 0
  explicit SparseSquare(const Matrix<Rational>& a, bool transposed = false)
      : rows_(a.rows()), cols_(a.cols()) {
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < a.cols(); ++j)
        if (a(i, j) != 0) {
          const std::size_t r = transposed ? j : i, c = transposed ? i : j;
          rows_[r].emplace(c, a(i, j));
          cols_[c].insert(r);
        }
  }
  std::size_t size() const { return rows_.size(); }
  Rational at(std::size_t i, std::size_t j) const {
    const auto it = rows_[i].find(j);
    return it == rows_[i].end() ? Rational(0) : it->second;
  }
  // W(i, j) += x.
  void add(std::size_t i, std::size_t j, const Rational& x) {
    if (x == 0) return;
    auto [it, inserted] = rows_[i].try_emplace(j, x);
    if (inserted) {
      cols_[j].insert(i);
    } else if ((it->second += x) == 0) {
      rows_[i].erase(it);
      cols_[j].erase(i);
    }
  }
  // row_i += c·row_j (i ≠ j): only row i changes.
  void row_add(std::size_t i, std::size_t j, const Rational& c) {
    for (const auto& [col, v] : rows_[j]) add(i, col, c * v);
  }
  // col_j += c·col_i (i ≠ j): only column j changes; column i's rows are read first.
  void col_add(std::size_t i, std::size_t j, const Rational& c) {
    const std::vector<std::size_t> rows(cols_[i].begin(), cols_[i].end());
    for (std::size_t r : rows) add(r, j, c * rows_[r].at(i));
  }
  // Rows > k with a nonzero in column `col`, ascending.
  std::vector<std::size_t> rows_below(std::size_t col, std::size_t k) const {
    return {cols_[col].upper_bound(k), cols_[col].end()};
  }
  // Columns > k with a nonzero in row `row`, ascending.
  std::vector<std::size_t> cols_right(std::size_t row, std::size_t k) const {
    std::vector<std::size_t> out;
    for (auto it = rows_[row].upper_bound(k); it != rows_[row].end(); ++it)
      out.push_back(it->first);
    return out;
  }
  // The least column j > k with a nonzero in some row ≥ k.
  std::optional<std::size_t> first_column_from(std::size_t k) const {
    for (std::size_t j = k + 1; j < cols_.size(); ++j)
      if (cols_[j].lower_bound(k) != cols_[j].end()) return j;
    return std::nullopt;
  }

 private:
  std::vector<std::map<std::size_t, Rational>> rows_;
  std::vector<std::set<std::size_t>> cols_;
};

std::vector<ElementaryFactor> factor_sparse(SparseSquare w);

}  // namespace rnncc::wfa_internal
