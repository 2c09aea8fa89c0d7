// A small dense row-major matrix over any element type, and its arithmetic over a domain.
//
// Matrix products use the domain's fused dot product, so in fixed point each entry of a
// product (or of an affine map A·S + B) is rounded exactly once (algebra/domain.hpp).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "algebra/domain.hpp"

namespace rnncc {

template <class T>
class Matrix {
 public:
  Matrix() = default;
  // Value-initialized entries (T(): 0 for the number types), constructed in place, not copied.
  Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols) {}
  Matrix(std::size_t rows, std::size_t cols, const T& fill)
      : rows_(rows), cols_(cols), data_(rows * cols, fill) {}

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  bool empty() const { return data_.empty(); }
  T& operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
  const T& operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }
  const std::vector<T>& data() const { return data_; }  // row-major: vec_row(M)
  bool same_shape(const Matrix& o) const { return rows_ == o.rows_ && cols_ == o.cols_; }
  friend bool operator==(const Matrix&, const Matrix&) = default;

 private:
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<T> data_;
};

template <class T>
std::string shape_string(const Matrix<T>& m) {
  return std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

// Entrywise map to another element type: f(const T&) -> U.
template <class T, class F>
auto map(const Matrix<T>& m, F&& f) {
  using U = std::decay_t<decltype(f(m(0, 0)))>;
  Matrix<U> out(m.rows(), m.cols());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) out(i, j) = f(m(i, j));
  return out;
}

template <class T>
Matrix<T> transpose(const Matrix<T>& m) {
  Matrix<T> t(m.cols(), m.rows());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) t(j, i) = m(i, j);
  return t;
}

template <Domain K>
Matrix<typename K::Element> zeros(const K& k, std::size_t rows, std::size_t cols) {
  return Matrix<typename K::Element>(rows, cols, k.zero());
}

template <Domain K>
Matrix<typename K::Element> identity(const K& k, std::size_t n) {
  auto m = zeros(k, n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = k.one();
  return m;
}

template <Domain K>
Matrix<typename K::Element> from_rational(const K& k, const Matrix<Rational>& m) {
  return map(m, [&](const Rational& q) { return k.from_rational(q); });
}

template <Domain K>
bool equal(const K& k, const Matrix<typename K::Element>& a, const Matrix<typename K::Element>& b) {
  if (!a.same_shape(b)) return false;
  for (std::size_t i = 0; i < a.data().size(); ++i)
    if (!k.equal(a.data()[i], b.data()[i])) return false;
  return true;
}

template <Domain K>
Matrix<typename K::Element> add(const K& k, const Matrix<typename K::Element>& a,
                                const Matrix<typename K::Element>& b) {
  if (!a.same_shape(b)) throw std::logic_error("matrix add: shape mismatch");
  Matrix<typename K::Element> c(a.rows(), a.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) c(i, j) = k.add(a(i, j), b(i, j));
  return c;
}

template <Domain K>
Matrix<typename K::Element> scale(const K& k, const typename K::Element& s,
                                  const Matrix<typename K::Element>& a) {
  return map(a, [&](const typename K::Element& x) { return k.mul(s, x); });
}

// A·S + B, each entry one fused dot product (one rounding). Pass B empty for A·S.
template <Domain K>
Matrix<typename K::Element> affine(const K& k, const Matrix<typename K::Element>& a,
                                   const Matrix<typename K::Element>& s,
                                   const Matrix<typename K::Element>& b) {
  if (a.cols() != s.rows()) throw std::logic_error("matrix product: inner dimensions differ");
  if (!b.empty() && (b.rows() != a.rows() || b.cols() != s.cols()))
    throw std::logic_error("affine map: offset has the wrong shape");
  Matrix<typename K::Element> c(a.rows(), s.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < s.cols(); ++j) {
      typename K::Wide acc = b.empty() ? k.widen(k.zero()) : k.widen(b(i, j));
      for (std::size_t l = 0; l < a.cols(); ++l)
        acc = k.wide_add(acc, k.wide_mul(a(i, l), s(l, j)));
      c(i, j) = k.narrow(acc);
    }
  return c;
}

template <Domain K>
Matrix<typename K::Element> mul(const K& k, const Matrix<typename K::Element>& a,
                                const Matrix<typename K::Element>& b) {
  return affine(k, a, b, Matrix<typename K::Element>());
}

}  // namespace rnncc
