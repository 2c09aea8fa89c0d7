// The arithmetic of one step in a number domain K (rnn/evaluate.hpp's steps are written over it):
// parameters converted into K, naming the parameter a domain cannot represent; the sparse form
// of a converted parameter and the products over its nonzero entries (tested equal to
// algebra/matrix.hpp's dense affine map, their plain twin); Σ_k z_k M_k for a token's features;
// the exact domain of K, where Elman and attention layers evaluate an assignment before rounding
// it once (docs/semantics.md, "Log precision"); and the meters through which a step reports its
// work and the values whose size a caller tracks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "algebra/domain.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/matrix.hpp"
#include "rnn/checked_int64.hpp"

namespace rnncc::detail {

template <Domain K>
using Mat = Matrix<typename K::Element>;

// Converts a parameter, naming it in the error when the domain cannot represent it.
template <Domain K>
Mat<K> convert(const K& k, const Matrix<Rational>& m, const std::string& what) {
  Mat<K> out(m.rows(), m.cols());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) {
      try {
        out(i, j) = k.from_rational(m(i, j));
      } catch (const DomainError& e) {
        throw DomainError(what + ", entry [" + std::to_string(i) + "][" + std::to_string(j) +
                          "]: " + e.what());
      }
    }
  return out;
}

// A converted parameter's nonzero entries, row by row. A zero entry adds an exact zero to a
// fused dot product, so a product over the nonzero entries rounds as the dense one does: the
// sparse `affine` below is the fast twin of affine (algebra/matrix.hpp), tested equal to it.
template <class E>
struct Sparse {
  std::size_t rows = 0, cols = 0;
  std::vector<std::size_t> row_end;  // row i holds entries row_end[i − 1] .. row_end[i] − 1
  std::vector<std::uint32_t> col;
  std::vector<E> value;
  std::uint64_t nonzeros() const { return value.size(); }
};

template <Domain K>
Sparse<typename K::Element> sparse(const K& k, const Mat<K>& m) {
  Sparse<typename K::Element> s;
  s.rows = m.rows();
  s.cols = m.cols();
  for (std::size_t i = 0; i < m.rows(); ++i) {
    for (std::size_t j = 0; j < m.cols(); ++j)
      if (!k.is_zero(m(i, j))) {
        s.col.push_back(static_cast<std::uint32_t>(j));
        s.value.push_back(m(i, j));
      }
    s.row_end.push_back(s.value.size());
  }
  return s;
}

// A·X + B with A sparse, each entry one fused dot product (one rounding). B empty: A·X.
template <Domain K>
Mat<K> affine(const K& k, const Sparse<typename K::Element>& a, const Mat<K>& x, const Mat<K>& b) {
  if (a.cols != x.rows()) throw std::logic_error("matrix product: inner dimensions differ");
  const auto* xs = x.data().data();  // x(j, c) = xs[j·m + c]
  const std::uint32_t* col = a.col.data();
  const auto* value = a.value.data();
  Mat<K> out(a.rows, x.cols());
  auto rows = [&](auto m) {  // m: a compile-time 1 for a column, the fast case
    std::size_t first = 0;
    for (std::size_t i = 0; i < a.rows; ++i) {
      const std::size_t last = a.row_end[i];
      for (std::size_t c = 0; c < m; ++c) {
        typename K::Wide acc = b.empty() ? k.widen(k.zero()) : k.widen(b(i, c));
        for (std::size_t e = first; e < last; ++e) {
          const auto& v = xs[col[e] * m + c];
          if (!k.is_zero(v)) acc = k.wide_add(acc, k.wide_mul(value[e], v));
        }
        out(i, c) = k.narrow(acc);
      }
      first = last;
    }
  };
  if (x.cols() == 1)
    rows(std::integral_constant<std::size_t, 1>{});
  else
    rows(x.cols());
  return out;
}

// out += A·x in an exact domain (no rounding), x and out columns.
template <Domain E>
void add_product(const E& e, const Sparse<typename E::Element>& a, const Mat<E>& x, Mat<E>& out) {
  static_assert(E::exact);
  const auto* xs = x.data().data();
  const std::uint32_t* col = a.col.data();
  const auto* value = a.value.data();
  std::size_t first = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    const std::size_t last = a.row_end[i];
    if (first == last) continue;
    typename E::Element acc = std::move(out(i, 0));
    for (std::size_t n = first; n < last; ++n)
      if (!e.is_zero(xs[col[n]])) acc = e.add(acc, e.mul(value[n], xs[col[n]]));
    out(i, 0) = std::move(acc);
    first = last;
  }
}

// Σ_k z_k M_k + base (base may be empty), one rounding per entry: the nonzero z_k in order of k.
template <Domain K>
Mat<K> combine(const K& k, const std::vector<Mat<K>>& per_feature, const Mat<K>& z,
               const Mat<K>* base) {
  const Mat<K>& shape = per_feature.front();
  std::vector<std::size_t> nonzero;
  for (std::size_t f = 0; f < per_feature.size(); ++f)
    if (!k.is_zero(z(f, 0))) nonzero.push_back(f);
  Mat<K> out(shape.rows(), shape.cols());
  for (std::size_t i = 0; i < shape.rows(); ++i)
    for (std::size_t j = 0; j < shape.cols(); ++j) {
      typename K::Wide acc = base ? k.widen((*base)(i, j)) : k.widen(k.zero());
      for (std::size_t f : nonzero)
        acc = k.wide_add(acc, k.wide_mul(z(f, 0), per_feature[f](i, j)));
      out(i, j) = k.narrow(acc);
    }
  return out;
}

// Runs one step, naming the 1-based position in any DomainError it raises.
template <class F>
void at_position(std::size_t t, F&& step) {
  try {
    step();
  } catch (const DomainError& e) {
    throw DomainError("position " + std::to_string(t + 1) + ": " + e.what());
  }
}

inline std::string feature_name(const std::vector<std::string>& names, std::size_t f) {
  return f < names.size() ? "symbol '" + names[f] + "'" : "feature " + std::to_string(f);
}

// ---- The exact domain of K: where Elman and attention layers evaluate an assignment ----------

template <Domain K>
using Exact = std::conditional_t<K::exact, K, RationalField>;

template <Domain K>
Exact<K> exact_domain([[maybe_unused]] const K& k) {
  if constexpr (K::exact)
    return k;
  else
    return RationalField{};
}

// The exact value of an element of K (K exact: the element itself, not copied).
template <OrderedDomain K>
decltype(auto) lift([[maybe_unused]] const K& k, const typename K::Element& x) {
  if constexpr (K::exact)
    return (x);
  else
    return k.to_rational(x);
}
template <OrderedDomain K>
decltype(auto) lift([[maybe_unused]] const K& k, const Mat<K>& m) {
  if constexpr (K::exact)
    return (m);
  else
    return map(m, [&](const typename K::Element& x) { return k.to_rational(x); });
}

// An exact value rounded once into K.
template <OrderedDomain K>
typename K::Element round_to([[maybe_unused]] const K& k, typename Exact<K>::Element x) {
  if constexpr (K::exact)
    return x;
  else
    return k.from_rational(x);
}
template <OrderedDomain K>
Mat<K> round_to([[maybe_unused]] const K& k, Mat<Exact<K>> x) {
  if constexpr (K::exact)
    return x;
  else
    return map(x, [&](const Rational& v) { return k.from_rational(v); });
}

// A parameter rounded once into K, held as its exact value.
template <OrderedDomain K>
Mat<Exact<K>> exact_parameter(const K& k, const Matrix<Rational>& m, const std::string& what) {
  if constexpr (K::exact)
    return convert(k, m, what);
  else
    return map(convert(k, m, what), [&](const typename K::Element& x) { return k.to_rational(x); });
}

// The integer x as an element of the exact domain e.
template <Domain E>
typename E::Element from_long([[maybe_unused]] const E& e, long x) {
  if constexpr (std::is_same_v<E, CheckedInt64>)
    return Int64{x};
  else if constexpr (std::is_same_v<E, RationalField>)
    return Rational(x);
  else
    return e.from_rational(Rational(x));
}

// ---- Meters: what a step reports besides y_t -------------------------------------------------
//
// A step reports its operations in two units: `reference`, those estimate_evaluation_work
// (rnn/run_report.hpp) bounds — dense shapes: the plain evaluator's count; and `incremental`,
// those estimate_incremental_work (rnn/generate.hpp) bounds — nonzero parameter entries applied
// (times the state's m columns), one per value shown, h + 2 per attention score. size(x) shows a
// value whose magnitude a caller tracks (the generator's largest |value|): every state entry of
// an LRNN, an Elman cell's pre-activation, attention's q, k, v and scores, every layer's output.

// evaluate's: the reference units into a LayerTrace's work (NoMeter, the callers' who measure
// nothing, is in rnn/evaluate.hpp).
struct EvaluationMeter {
  std::uint64_t* done;
  void work(std::uint64_t reference, std::uint64_t) { *done += reference; }
  template <class E>
  void size(const E&) {}
};

// Shows every entry of m: one incremental unit each.
template <class Meter, class E>
void show(Meter& meter, const Matrix<E>& m) {
  meter.work(0, m.data().size());
  for (const E& x : m.data()) meter.size(x);
}

}  // namespace rnncc::detail
