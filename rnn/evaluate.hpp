// Reference semantics: one plain sequential evaluator per layer kind, generic over the number
// domain (exact Q, log-precision fixed point, F_p). This is the "claimed semantics" every
// compiled circuit and every construction is checked against, so it is written for clarity.
//
// Rounding rule in fixed point (docs/semantics.md, "Log precision"): parameters are rounded
// once when converted; then every assignment of the model's equations is evaluated exactly on
// its (already rounded) operands and rounded once. The assignments are, per position: the
// stacked input z_t; the token's matrices A(z_t) = Σ z_k A_k, B(z_t), C(z_t) (exact for
// one-hot z, i.e. on layer 1); S_t = A(z_t)S_{t−1} + B(z_t) entry by entry; y_t = C(z_t)S_t + c₀;
// for LSTM cells each gate, c_t and h_t; for Elman cells h_t; for attention layers q_t, k_t,
// v_t per entry, each score(t, s), and the attended value (averaging and softmax; unique-hard
// copies v_{s*}, which is rounded already).
//
// One step. Each layer kind's semantics is written once, as one position: step(params, k,
// state, z_t, meter) turns the layer's state after t − 1 (LRNN S, Elman h, LSTM [h; c],
// attention: the keys and values so far) into its state after t and returns y_t, on parameters
// converted into k once (prepare_layer). evaluate runs each layer's steps over the whole input,
// layer after layer; step_stack runs one position through every layer, for the generator
// (rnn/generate.hpp) and the searches of reachable configurations (rnn/reachable.hpp). Elman and
// attention layers evaluate an assignment in the exact domain of K — K itself when K is exact
// (Q, Z, checked 64-bit integers, rnn/checked_int64.hpp), else Q — and round it once. The
// arithmetic the steps do in K (converted parameters, sparse products, the exact domain, the
// meters) is rnn/step_arithmetic.hpp.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "algebra/domain.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/matrix.hpp"
#include "rnn/checked_int64.hpp"
#include "rnn/model.hpp"
#include "rnn/step_arithmetic.hpp"

namespace rnncc {

template <Domain K>
struct LayerTrace {
  using M = Matrix<typename K::Element>;
  std::vector<M> states;   // after each position; LSTM: [h; c] stacked (2d×1); attention: 0×0
  std::vector<M> outputs;  // y_t, r×m
  // Attention layers only: per position t, the maximizing positions M(t) (1-based, ascending;
  // unique_hard: the one it picks). Empty for the other layers.
  std::vector<std::vector<std::size_t>> attended;
  // Operations of K done (multiply-adds and comparisons): what estimate_evaluation_work
  // (rnn/run_report.hpp) bounds before a run, counted where they happen.
  std::uint64_t work = 0;
};

template <Domain K>
struct Trace {
  std::vector<LayerTrace<K>> layers;
  const std::vector<Matrix<typename K::Element>>& outputs() const& { return layers.back().outputs; }
  // On a temporary, return by value: `for (auto& y : evaluate(...).outputs())` stays valid.
  std::vector<Matrix<typename K::Element>> outputs() && { return std::move(layers.back().outputs); }
  std::uint64_t work() const {
    std::uint64_t w = 0;
    for (const auto& l : layers) w += l.work;
    return w;
  }
};

// What a layer keeps between positions: `state` (LRNN S, d×m; Elman h; LSTM [h; c] stacked;
// attention: 0×0) and, for attention, its memory of the positions so far.
template <Domain K>
struct AttentionMemory {
  std::size_t positions = 0;
  // Every position's k_s and v_s (not with the index).
  std::vector<Matrix<typename K::Element>> keys, values;
  // The parabola index: w ↦ (position, value) of the most recent (tie rightmost) or the oldest
  // (tie leftmost) position with key (w, w²).
  std::map<typename K::Element, std::pair<std::size_t, Matrix<typename K::Element>>> index;
  std::vector<std::size_t> attended;  // M(t) at the last position (unique_hard: the pick)
};

template <Domain K>
struct LayerState {
  Matrix<typename K::Element> state;
  AttentionMemory<K> memory;
};

// A step's meter for callers that measure nothing (rnn/step_arithmetic.hpp, "Meters").
struct NoMeter {
  void work(std::uint64_t, std::uint64_t) {}
  template <class E>
  void size(const E&) {}
};

namespace detail {

// ---- Parameters converted into K, and what a layer keeps between positions -------------------

// An LRNN layer's parameters. Diagonal families (diagonal, s4, mamba2, gla) keep only the
// diagonal of each A_k: a step costs O(d·m), not O(d²·m), and nothing d×d is converted. The
// result is the dense one: the off-diagonal terms of A(z_t) and of A(z_t)·S are exact zeros,
// and each entry is still rounded once.
inline bool diagonal_family(Family f) {
  return f == Family::diagonal || f == Family::s4 || f == Family::mamba2 || f == Family::gla;
}

template <Domain K>
struct LrnnParams {
  std::vector<Mat<K>> A, B, C;   // per feature; C empty for a token-independent readout
  std::vector<Mat<K>> diagonal;  // diagonal families: diag(A_k) as d×1 per feature (A empty)
  std::vector<Sparse<typename K::Element>> A_nonzero;  // per feature, A_k's nonzero entries
  Mat<K> readout, bias, initial;
  Sparse<typename K::Element> readout_nonzero;
  // Incremental units a feature costs when z_k ≠ 0: nnz(A_k)·m + nnz(B_k) + nnz(C_k)·m.
  std::vector<std::uint64_t> feature_cost;
  bool unit = true;  // k.one() is 1 (in fixed point with no integer bit it saturates below 1)
};

template <Domain K>
std::uint64_t nonzeros(const K& k, const Mat<K>& m) {
  std::uint64_t n = 0;
  for (const auto& x : m.data()) n += !k.is_zero(x);
  return n;
}

template <Domain K>
LrnnParams<K> prepare_lrnn(const LrnnLayer& l, const K& k, const std::vector<std::string>& names) {
  LrnnParams<K> p;
  for (std::size_t f = 0; f < l.features; ++f) {
    if (diagonal_family(l.family)) {
      Mat<K> a(l.d, 1);
      for (std::size_t i = 0; i < l.d; ++i) {
        try {  // named as the dense conversion names it
          a(i, 0) = k.from_rational(l.A[f](i, i));
        } catch (const DomainError& e) {
          throw DomainError("A of " + feature_name(names, f) + ", entry [" + std::to_string(i) +
                            "][" + std::to_string(i) + "]: " + e.what());
        }
      }
      p.diagonal.push_back(std::move(a));
    } else {
      p.A.push_back(convert(k, l.A[f], "A of " + feature_name(names, f)));
      p.A_nonzero.push_back(sparse(k, p.A.back()));
    }
    p.B.push_back(convert(k, l.B[f], "B of " + feature_name(names, f)));
    if (!l.readout_feature.empty())
      p.C.push_back(convert(k, l.readout_feature[f], "C of " + feature_name(names, f)));
    const Mat<K>& a = p.A.empty() ? p.diagonal.back() : p.A.back();
    p.feature_cost.push_back(nonzeros(k, a) * l.m + nonzeros(k, p.B.back()) +
                             (p.C.empty() ? 0 : nonzeros(k, p.C.back()) * l.m));
  }
  p.readout = convert(k, l.readout, "readout");
  p.readout_nonzero = sparse(k, p.readout);
  p.bias = convert(k, l.readout_bias, "readout_bias");
  p.initial = convert(k, l.initial_state, "initial_state");
  if constexpr (!K::exact) {
    try {
      p.unit = k.to_rational(k.one()) == 1;
    } catch (const DomainError&) {  // 1 overflows: evaluate refuses the one-hot input itself
      p.unit = false;
    }
  }
  return p;
}

// An Elman layer's parameters, rounded once into K and held as exact values.
template <Domain K>
struct ElmanParams {
  using E = typename Exact<K>::Element;
  Activation activation = Activation::relu;
  Sparse<E> W, U, readout;
  Mat<Exact<K>> bias, readout_bias;  // readout_bias: r×1 or empty
  Mat<K> initial;
};

template <OrderedDomain K>
ElmanParams<K> prepare_elman(const ElmanLayer& l, const K& k) {
  const Exact<K> e = exact_domain(k);
  ElmanParams<K> p;
  p.activation = l.activation;
  p.W = sparse(e, exact_parameter(k, l.pre.W, "W"));
  p.U = sparse(e, exact_parameter(k, l.pre.U, "U"));
  p.bias = exact_parameter(k, l.pre.bias, "bias");
  p.readout = sparse(e, exact_parameter(k, l.readout, "readout"));
  p.readout_bias = exact_parameter(k, l.readout_bias, "readout_bias");
  p.initial = convert(k, l.initial_state, "initial_state");
  return p;
}

// An LSTM layer's parameters, rounded once and held in Q (the hard gates divide: σ̂(x) = x/4 +
// 1/2), and its initial state [h_0; c_0].
template <Domain K>
struct LstmParams {
  std::size_t d = 0;
  AffineMap forget, input, output, cell;
  Matrix<Rational> readout, readout_bias;
  Mat<K> initial;
};

// Exact value of W h + U z + b on rounded operands.
template <OrderedDomain K>
Matrix<Rational> pre_activation(const K& k, const AffineMap& f, const Mat<K>& h, const Mat<K>& z) {
  Matrix<Rational> out(f.W.rows(), 1);
  for (std::size_t i = 0; i < f.W.rows(); ++i) {
    Rational acc = f.bias(i, 0);
    for (std::size_t j = 0; j < f.W.cols(); ++j) acc += f.W(i, j) * k.to_rational(h(j, 0));
    for (std::size_t j = 0; j < f.U.cols(); ++j) acc += f.U(i, j) * k.to_rational(z(j, 0));
    out(i, 0) = acc;
  }
  return out;
}

template <OrderedDomain K, class F>
Mat<K> round_map(const K& k, const Matrix<Rational>& x, F&& act) {
  return map(x, [&](const Rational& v) { return k.from_rational(act(v)); });
}

template <OrderedDomain K>
Matrix<Rational> rounded(const K& k, const Matrix<Rational>& m, const std::string& what) {
  return map(convert(k, m, what), [&](const typename K::Element& e) { return k.to_rational(e); });
}
template <OrderedDomain K>
AffineMap rounded(const K& k, const AffineMap& f, const std::string& prefix) {
  return {rounded(k, f.W, prefix + "W"), rounded(k, f.U, prefix + "U"),
          rounded(k, f.bias, prefix + "bias")};
}

template <OrderedDomain K>
LstmParams<K> prepare_lstm(const LstmLayer& l, const K& k) {
  LstmParams<K> p;
  p.d = l.d;
  p.forget = rounded(k, l.forget, "gates/f/");
  p.input = rounded(k, l.input, "gates/i/");
  p.output = rounded(k, l.output, "gates/o/");
  p.cell = rounded(k, l.cell, "gates/g/");
  p.readout = rounded(k, l.readout, "readout");
  p.readout_bias = rounded(k, l.readout_bias, "readout_bias");
  const Mat<K> h = convert(k, l.initial_hidden, "initial_state/h");
  const Mat<K> c = convert(k, l.initial_cell, "initial_state/c");
  p.initial = Mat<K>(2 * l.d, 1);
  for (std::size_t r = 0; r < l.d; ++r) {
    p.initial(r, 0) = h(r, 0);
    p.initial(l.d + r, 0) = c(r, 0);
  }
  return p;
}

// An attention layer's projections, rounded once into K and held as exact values. Keeps a
// pointer to its layer (window, tie, kind), which must outlive it.
template <Domain K>
struct AttentionParams {
  using E = typename Exact<K>::Element;
  const AttentionLayer* layer = nullptr;
  Sparse<E> query, key, value;
  Mat<Exact<K>> query_bias, key_bias, value_bias;
  E lambda{};
  bool indexed = false;  // the parabola index (below) instead of every key
};

// The index's search key for the vertex w* = q₁/D (D > 0): w* itself in Q; on integers ⌊w*⌋,
// since an integer w > w* iff w > ⌊w*⌋.
inline Rational vertex_key(const RationalField&, const Rational& q1, const Rational& D) {
  return q1 / D;
}
inline Int64 vertex_key(const CheckedInt64& k, Int64 q1, Int64 D) {
  return k.floor_div(q1, D);
}
template <class K>
concept IndexDomain = requires(const K& k, const typename K::Element& a) {
  vertex_key(k, a, a);
};

template <OrderedDomain K>
AttentionParams<K> prepare_attention(const AttentionLayer& l, const K& k, bool index) {
  if (l.kind == AttentionKind::softmax && K::exact)
    throw DomainError(
        "softmax attention has no exact semantics (exp of a nonzero rational is irrational); "
        "evaluate it at log precision (log:C), where each weight is exp rounded to F bits");
  const Exact<K> e = exact_domain(k);
  AttentionParams<K> p;
  p.layer = &l;
  auto bias = [&](const Matrix<Rational>& b, std::size_t rows, const std::string& what) {
    return b.empty() ? zeros(e, rows, 1) : exact_parameter(k, b, what);
  };
  p.query = sparse(e, exact_parameter(k, l.query.weights, "query/weights"));
  p.query_bias = bias(l.query.bias, l.key_size(), "query/bias");
  p.key = sparse(e, exact_parameter(k, l.key.weights, "key/weights"));
  p.key_bias = bias(l.key.bias, l.key_size(), "key/bias");
  p.value = sparse(e, exact_parameter(k, l.value.weights, "value/weights"));
  p.value_bias = bias(l.value.bias, l.value_size(), "value/bias");
  p.lambda = exact_parameter(k, Matrix<Rational>(1, 1, l.position_bias), "position_bias")(0, 0);
  p.indexed = IndexDomain<K> && index && l.kind == AttentionKind::unique_hard && !l.window &&
              l.position_bias == 0 && l.key_size() == 2;
  return p;
}

template <Domain K>
using LayerParams = std::variant<LrnnParams<K>, ElmanParams<K>, LstmParams<K>, AttentionParams<K>>;

// A layer's parameters converted into k. Throws DomainError for a parameter k cannot hold, and
// for a nonlinear or attention layer when k is not ordered. `names`: the features' symbols
// (layer 1), for the diagnostics. `index`: unique-hard attention through the parabola index
// where it applies (rnn/generate.hpp, IncrementalOptions::attention_index).
template <Domain K>
LayerParams<K> prepare_layer(const Layer& layer, const K& k, const std::vector<std::string>& names,
                             bool index = false) {
  if (const auto* l = std::get_if<LrnnLayer>(&layer)) return prepare_lrnn(*l, k, names);
  if constexpr (!OrderedDomain<K>) {
    if (const auto* e = std::get_if<ElmanLayer>(&layer))
      throw DomainError("an Elman layer with " + to_string(e->activation) +
                        " needs an ordered domain; " + k.name() + " is not ordered");
    if (std::holds_alternative<LstmLayer>(layer))
      throw DomainError("an LSTM layer's hard gates need an ordered domain; " + k.name() +
                        " is not ordered");
    throw DomainError("an attention layer (" + to_string(std::get<AttentionLayer>(layer).kind) +
                      ") compares scores and needs an ordered domain; " + k.name() +
                      " is not ordered");
  } else {
    if (const auto* e = std::get_if<ElmanLayer>(&layer)) return prepare_elman(*e, k);
    if (const auto* s = std::get_if<LstmLayer>(&layer)) return prepare_lstm(*s, k);
    return prepare_attention(std::get<AttentionLayer>(layer), k, index);
  }
}

template <Domain K>
LayerState<K> initial_state(const LayerParams<K>& p) {
  return std::visit(
      [](const auto& q) {
        if constexpr (requires { q.initial; })
          return LayerState<K>{q.initial, {}};
        else
          return LayerState<K>{};
      },
      p);
}

// ---- One step of each layer kind -------------------------------------------------------------

// S_t = A(z_t)·S_{t−1} + B(z_t), y_t = C(z_t)·S_t + c₀, with A(z) = Σ_k z_k A_k, B(z) likewise
// and C(z) = C + Σ_k z_k C_k, each entry rounded once. For z_t = e_k (one-hot: layer 1),
// A(z_t) = A_k exactly, and the product runs over A_k's nonzero entries.
template <Domain K, class Meter>
Mat<K> step(const LrnnParams<K>& p, const K& k, LayerState<K>& s, const Mat<K>& z, Meter& meter) {
  Mat<K>& S = s.state;
  const std::uint64_t F = p.B.size(), d = S.rows(), m = S.cols(), r = p.readout.rows();
  std::uint64_t used = 0, cost = 0;
  std::size_t first = 0;  // the first nonzero feature
  for (std::size_t f = 0; f < F; ++f)
    if (!k.is_zero(z(f, 0))) {
      if (used++ == 0) first = f;
      cost += p.feature_cost[f];
    }
  const bool one_hot = used == 1 && p.unit && k.equal(z(first, 0), k.one());
  const bool diagonal = !p.diagonal.empty();
  const std::uint64_t a_entries = diagonal ? d : d * d;
  meter.work((F + used * a_entries) + (F + used * d * m) + a_entries * m +
                 (p.C.empty() ? 0 : F + used * r * d) + r * d * m,
             cost + p.readout_nonzero.nonzeros() * m);
  if (diagonal) {  // S_t(i, j) = a_i·S_{t−1}(i, j) + B(i, j), one rounding per entry
    Mat<K> a_combined, b_combined;
    if (!one_hot) {
      a_combined = combine(k, p.diagonal, z, nullptr);
      b_combined = combine(k, p.B, z, nullptr);
    }
    const Mat<K>& a = one_hot ? p.diagonal[first] : a_combined;
    const Mat<K>& b = one_hot ? p.B[first] : b_combined;
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < m; ++j)
        S(i, j) = k.narrow(k.wide_add(k.widen(b(i, j)), k.wide_mul(a(i, 0), S(i, j))));
  } else if (one_hot) {
    S = affine(k, p.A_nonzero[first], S, p.B[first]);
  } else {
    const Mat<K> a = combine(k, p.A, z, nullptr);
    const Mat<K> b = combine(k, p.B, z, nullptr);
    S = affine(k, a, S, b);
  }
  show(meter, S);
  if (p.C.empty()) return affine(k, p.readout_nonzero, S, p.bias);
  return affine(k, combine(k, p.C, z, &p.readout), S, p.bias);
}

// h_t = act(W h_{t−1} + U z_t + b), y_t = C h_t + c₀; act = ReLU or sign (rnn/nonlinear.hpp).
template <OrderedDomain K, class Meter>
Mat<K> step(const ElmanParams<K>& p, const K& k, LayerState<K>& s, const Mat<K>& z, Meter& meter) {
  const Exact<K> e = exact_domain(k);
  Mat<K>& h = s.state;
  meter.work(p.W.rows * (p.W.cols + p.U.cols) + p.readout.rows * p.readout.cols,
             p.W.nonzeros() + p.U.nonzeros() + p.readout.nonzeros());
  Mat<Exact<K>> x = p.bias;
  add_product(e, p.W, lift(k, h), x);
  add_product(e, p.U, lift(k, z), x);
  show(meter, x);
  for (std::size_t i = 0; i < x.rows(); ++i) {
    const int sign = e.sign(x(i, 0));
    if (p.activation == Activation::relu)
      h(i, 0) = round_to(k, sign > 0 ? x(i, 0) : e.zero());
    else
      h(i, 0) = round_to(k, from_long(e, sign));
  }
  Mat<Exact<K>> y = p.readout_bias.empty() ? zeros(e, p.readout.rows, 1) : p.readout_bias;
  add_product(e, p.readout, lift(k, h), y);
  return round_to(k, std::move(y));
}

// f, i, o = σ̂(W h + U z + b) per gate, g = tanĥ(…); c_t = f ⊙ c + i ⊙ g; h_t = o ⊙ tanĥ(c_t);
// y_t = C h_t + c₀ (rnn/nonlinear.hpp), each assignment rounded once.
template <OrderedDomain K, class Meter>
Mat<K> step(const LstmParams<K>& p, const K& k, LayerState<K>& s, const Mat<K>& z, Meter& meter) {
  const std::size_t d = p.d;
  meter.work(4 * p.forget.W.rows() * (p.forget.W.cols() + p.forget.U.cols()) + 3 * d +
                 p.readout.rows() * p.readout.cols(),
             0);
  Mat<K> h(d, 1), c(d, 1);
  for (std::size_t r = 0; r < d; ++r) {
    h(r, 0) = s.state(r, 0);
    c(r, 0) = s.state(d + r, 0);
  }
  Mat<K> f = round_map(k, pre_activation(k, p.forget, h, z), hard_sigmoid);
  Mat<K> i = round_map(k, pre_activation(k, p.input, h, z), hard_sigmoid);
  Mat<K> o = round_map(k, pre_activation(k, p.output, h, z), hard_sigmoid);
  Mat<K> g = round_map(k, pre_activation(k, p.cell, h, z), hard_tanh);
  Matrix<Rational> c_new(d, 1), h_new(d, 1);
  for (std::size_t r = 0; r < d; ++r)  // c_t = f ⊙ c + i ⊙ g, one rounding
    c_new(r, 0) = k.to_rational(f(r, 0)) * k.to_rational(c(r, 0)) +
                  k.to_rational(i(r, 0)) * k.to_rational(g(r, 0));
  c = round_map(k, c_new, [](const Rational& v) { return v; });
  for (std::size_t r = 0; r < d; ++r)  // h_t = o ⊙ tanĥ(c_t), one rounding
    h_new(r, 0) = k.to_rational(o(r, 0)) * hard_tanh(k.to_rational(c(r, 0)));
  h = round_map(k, h_new, [](const Rational& v) { return v; });
  for (std::size_t r = 0; r < d; ++r) {
    s.state(r, 0) = h(r, 0);
    s.state(d + r, 0) = c(r, 0);
  }
  Matrix<Rational> y(p.readout.rows(), 1);
  for (std::size_t r = 0; r < p.readout.rows(); ++r) {
    Rational acc = p.readout_bias.empty() ? Rational(0) : p.readout_bias(r, 0);
    for (std::size_t j = 0; j < d; ++j) acc += p.readout(r, j) * k.to_rational(h(j, 0));
    y(r, 0) = acc;
  }
  return round_map(k, y, [](const Rational& v) { return v; });
}

// Causal attention (rnn/attention.hpp) at position t: q_t, k_t, v_t = W z_t + b, one rounding
// per entry; score(t, s) = q_tᵀ k_s + λ·s for the visible s, one rounding each, compared as
// exact values; M(t) the maximizers. unique_hard copies v_{s*} (s* by the tie rule); averaging
// takes the mean of v over M(t), softmax the mean weighted by e_s = exp(score − max) rounded to
// F bits (log precision only), one rounding per entry.
//
// The parabola index (p.indexed: unique-hard, no window, no position bias, h = 2; exact K). With
// every key on the parabola k = (w, w²) and q₂ < 0, key w scores f(w) = q₁w + q₂w², strictly
// concave with vertex w* = −q₁/(2q₂). Equal keys score equally, so only the most recent
// (rightmost ties; leftmost: the oldest) position of each distinct w can be picked; among
// distinct keys f increases strictly up to w* and decreases strictly after it, so the maximizers
// lie among pred = max{w ≤ w*} and succ = min{w > w*}. The index keeps w ↦ (position, value) and
// looks up those two: O(log n) a position instead of O(n), the same argmax. A key off the
// parabola or a query with q₂ ≥ 0 is refused (InputError "attention index precondition": the
// earlier keys are gone, so there is no falling back). The extreme keys' scores are shown too:
// the minimum of a concave function on a set is at an end, so |score| is largest at the argmax
// or at an extreme key.
template <OrderedDomain K, class Meter>
Mat<K> step(const AttentionParams<K>& p, const K& k, LayerState<K>& s, const Mat<K>& z,
            Meter& meter) {
  using E = typename Exact<K>::Element;
  const Exact<K> e = exact_domain(k);
  const AttentionLayer& l = *p.layer;
  AttentionMemory<K>& mem = s.memory;
  const std::size_t t = ++mem.positions, h = l.key_size(), r = l.value_size();
  meter.work(p.query.rows * p.query.cols + p.key.rows * p.key.cols + p.value.rows * p.value.cols,
             p.query.nonzeros() + p.key.nonzeros() + p.value.nonzeros());
  const auto& zx = lift(k, z);
  auto project = [&](const Sparse<E>& w, const Mat<Exact<K>>& b) {
    Mat<Exact<K>> x = b;
    add_product(e, w, zx, x);
    return round_to(k, std::move(x));
  };
  const Mat<K> q = project(p.query, p.query_bias), key = project(p.key, p.key_bias),
               v = project(p.value, p.value_bias);
  show(meter, q);
  show(meter, key);
  show(meter, v);
  const auto& qx = lift(k, q);
  // score(t, s): h products, the position term and a comparison.
  auto score = [&](const Mat<K>& key_s, std::size_t pos) {
    meter.work(h + 3, h + 2);
    E acc = e.is_zero(p.lambda) ? e.zero() : e.mul(p.lambda, from_long(e, static_cast<long>(pos)));
    for (std::size_t i = 0; i < h; ++i) acc = e.add(acc, e.mul(qx(i, 0), lift(k, key_s(i, 0))));
    return E(lift(k, round_to(k, acc)));
  };
  std::vector<std::size_t>& argmax = mem.attended;
  argmax.clear();
  Mat<K> a;
  if (p.indexed) {
    if constexpr (IndexDomain<K>) {
      // This position first: it is visible to its own query.
      if (!(key(1, 0) == k.mul(key(0, 0), key(0, 0))))
        throw InputError("attention index precondition",
                         "position " + std::to_string(t) +
                             ": key is not of the form (w, w²); run without the index");
      // find and upper_bound: about log2 of the index's size each.
      meter.work(0, 2 * (static_cast<std::uint64_t>(std::bit_width(mem.index.size())) + 1));
      auto it = mem.index.find(key(0, 0));
      if (it == mem.index.end())
        mem.index.emplace(key(0, 0), std::make_pair(t, v));
      else if (l.tie == TieRule::rightmost)
        it->second = {t, v};
      if (k.sign(q(1, 0)) >= 0)
        throw InputError(
            "attention index precondition",
            "position " + std::to_string(t) + ": query has q₂ ≥ 0 (the score is not concave in w)");
      // pred = max{w : w ≤ w*}, succ = min{w : w > w*}, w* = q₁/D with D = −2q₂ > 0.
      const auto succ =
          mem.index.upper_bound(vertex_key(k, q(0, 0), k.mul(q(1, 0), from_long(k, -2))));
      auto parabola = [&](const typename K::Element& w) {
        Mat<K> kw(2, 1);
        kw(0, 0) = w;
        kw(1, 0) = k.mul(w, w);
        return kw;
      };
      std::optional<std::pair<E, std::size_t>> best;  // score, position
      const Mat<K>* value = nullptr;
      auto consider = [&](auto at) {
        const E sc = score(parabola(at->first), at->second.first);
        const std::size_t pos = at->second.first;
        if (!best || best->first < sc ||
            (best->first == sc &&
             (l.tie == TieRule::rightmost ? pos > best->second : pos < best->second))) {
          best = {sc, pos};
          value = &at->second.second;
        }
      };
      if (succ != mem.index.end()) consider(succ);
      if (succ != mem.index.begin()) consider(std::prev(succ));
      meter.work(0, 1);
      meter.size(best->first);
      for (auto end : {mem.index.begin(), std::prev(mem.index.end())}) {  // the extreme keys
        const E sc = score(parabola(end->first), end->second.first);
        meter.work(0, 1);
        meter.size(sc);
      }
      argmax.push_back(best->second);
      a = *value;
    }
  } else {
    mem.keys.push_back(key);
    mem.values.push_back(v);
    const std::size_t first = first_visible(l, t);
    std::vector<E> scores;
    for (std::size_t pos = first; pos <= t; ++pos) {
      scores.push_back(score(mem.keys[pos - 1], pos));
      meter.size(scores.back());
    }
    E best = scores[0];
    for (const E& x : scores)
      if (best < x) best = x;
    for (std::size_t pos = first; pos <= t; ++pos)
      if (scores[pos - first] == best) argmax.push_back(pos);
    if (l.kind == AttentionKind::unique_hard) {
      const std::size_t pick = l.tie == TieRule::leftmost ? argmax.front() : argmax.back();
      argmax = {pick};
      a = mem.values[pick - 1];
    } else {
      // averaging: weight 1 on M(t); softmax: e_s = exp(score − best) rounded to F bits.
      std::vector<Rational> weight;
      for (std::size_t pos = first; pos <= t; ++pos) {
        const E& x = scores[pos - first];
        if (l.kind == AttentionKind::averaging_hard) {
          weight.push_back(Rational(x == best ? 1 : 0));
        } else if constexpr (std::is_same_v<K, FixedPoint>) {
          const FixedFormat& f = k.format();
          weight.push_back(Rational(round_exp_neg(best - x, f.frac_bits, f.rounding)) /
                           Rational(Integer(1) << f.frac_bits));
        } else {
          throw DomainError("softmax attention is defined at log precision only, not in " +
                            k.name());
        }
      }
      meter.work(weight.size() * (r + 1), argmax.size() * r);
      Rational total = 0;
      for (const Rational& w : weight) total += w;
      Matrix<Rational> mean(r, 1, Rational(0));
      for (std::size_t i = 0; i < r; ++i) {
        for (std::size_t pos = first; pos <= t; ++pos)
          mean(i, 0) += weight[pos - first] * k.to_rational(mem.values[pos - 1](i, 0));
        mean(i, 0) /= total;
      }
      a = round_map(k, mean, [](const Rational& x) { return x; });
    }
  }
  const std::size_t off = l.residual ? l.features : 0;
  Mat<K> y(off + r, 1);
  for (std::size_t i = 0; i < off; ++i) y(i, 0) = z(i, 0);
  for (std::size_t i = 0; i < r; ++i) y(off + i, 0) = a(i, 0);
  return y;
}

template <Domain K, class Meter>
Mat<K> step(const LayerParams<K>& p, const K& k, LayerState<K>& s, const Mat<K>& z, Meter& meter) {
  return std::visit(
      [&](const auto& q) -> Mat<K> {
        if constexpr (OrderedDomain<K> || std::is_same_v<std::decay_t<decltype(q)>, LrnnParams<K>>)
          return step(q, k, s, z, meter);
        else
          throw std::logic_error("prepare_layer refuses this layer in an unordered domain");
      },
      p);
}

// A layer's input map z_t = W·vec(y_t) + b (vec: row by row), one rounding per entry.
template <Domain K>
struct InputParams {
  Sparse<typename K::Element> weights;
  Mat<K> bias;  // empty: 0
};

template <Domain K>
InputParams<K> prepare_input(const InputMap& im, const K& k) {
  InputParams<K> p;
  p.weights = sparse(k, convert(k, im.weights, "input_map/weights"));
  p.bias = convert(k, im.bias, "input_map/bias");
  return p;
}

template <Domain K, class Meter>
Mat<K> step(const InputParams<K>& p, const K& k, const Mat<K>& y, Meter& meter) {
  meter.work(p.weights.rows * p.weights.cols, p.weights.nonzeros());
  if (y.cols() == 1) return affine(k, p.weights, y, p.bias);
  Mat<K> v(y.rows() * y.cols(), 1);
  for (std::size_t i = 0; i < y.data().size(); ++i) v(i, 0) = y.data()[i];
  return affine(k, p.weights, v, p.bias);
}

// One layer over a whole input: its steps from its initial state, with their trace.
template <Domain K>
LayerTrace<K> run(const LayerParams<K>& p, const K& k, const std::vector<Mat<K>>& z) {
  LayerTrace<K> trace;
  EvaluationMeter meter{&trace.work};
  LayerState<K> s = initial_state(p);
  const bool attention = std::holds_alternative<AttentionParams<K>>(p);
  for (std::size_t t = 0; t < z.size(); ++t)
    at_position(t, [&] {
      trace.outputs.push_back(step(p, k, s, z[t], meter));
      trace.states.push_back(s.state);
      if (attention) trace.attended.push_back(s.memory.attended);
    });
  return trace;
}

}  // namespace detail

// ---- A model's step: one position through every layer ----------------------------------------

// A model's parameters converted into k once: each layer's, and its input map's. Attention
// layers keep a pointer to the model's layer, so the model must outlive it.
template <Domain K>
struct StackParams {
  struct Layer {
    std::optional<detail::InputParams<K>> input;
    detail::LayerParams<K> params;
  };
  std::size_t symbols = 0;  // |Σ|
  std::vector<Layer> layers;
};

// Throws the DomainError evaluate would throw (prefixed "layer i: ").
template <Domain K>
StackParams<K> prepare_stack(const Model& model, const K& k, bool attention_index = false) {
  StackParams<K> p;
  p.symbols = model.alphabet.size();
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    try {
      std::optional<detail::InputParams<K>> input;
      if (sl.input) input = detail::prepare_input(*sl.input, k);
      p.layers.push_back(
          {std::move(input),
           detail::prepare_layer(sl.layer, k,
                                 sl.input ? std::vector<std::string>{} : model.alphabet.symbols(),
                                 attention_index)});
    } catch (const DomainError& e) {
      throw DomainError("layer " + std::to_string(li) + ": " + e.what());
    }
  }
  return p;
}

// Every layer's state at t = 0.
template <Domain K>
std::vector<LayerState<K>> initial_states(const StackParams<K>& p) {
  std::vector<LayerState<K>> s;
  for (const auto& l : p.layers) s.push_back(detail::initial_state(l.params));
  return s;
}

// One position: layer 1 reads the one-hot e_symbol, layer ℓ > 1 its input map of layer ℓ − 1's
// output; updates every layer's state and returns the last layer's y. The meter is shown every
// layer's output too. A DomainError is named "layer i: " and, given the position, "position p: "
// (evaluate's words), except Int64Overflow, which passes unchanged.
template <Domain K, class Meter>
Matrix<typename K::Element> step_stack(const StackParams<K>& p, const K& k,
                                       std::vector<LayerState<K>>& states, std::size_t symbol,
                                       Meter& meter,
                                       std::optional<std::size_t> position = std::nullopt) {
  detail::Mat<K> z = zeros(k, p.symbols, 1);
  z(symbol, 0) = k.one();
  detail::Mat<K> y;
  for (std::size_t li = 0; li < p.layers.size(); ++li) {
    try {
      if (p.layers[li].input) z = detail::step(*p.layers[li].input, k, y, meter);
      y = detail::step(p.layers[li].params, k, states[li], z, meter);
    } catch (const Int64Overflow&) {
      throw;
    } catch (const DomainError& e) {
      throw DomainError("layer " + std::to_string(li) + ": " +
                        (position ? "position " + std::to_string(*position) + ": " : "") +
                        e.what());
    }
    detail::show(meter, y);
  }
  return y;
}

template <Domain K>
class PreparedModel;

namespace detail {

// The stack: layer 1 reads one-hot x_t, layer ℓ > 1 reads W·vec(y_t^{ℓ−1}) + b. With
// `prepared`, LRNN layers and input maps use its converted parameters; without, they are
// converted here (the plain path).
template <Domain K>
Trace<K> evaluate_stack(const Model& model, const K& k, const std::vector<std::size_t>& input,
                        const PreparedModel<K>* prepared);

}  // namespace detail

// Runs `model` on `input` (symbol ids) in domain k. Throws DomainError, prefixed with the layer
// (and parameter or position), when k cannot represent a value the semantics needs. Converts
// every parameter into k on each call: the plain twin of evaluate(PreparedModel, input).
template <Domain K>
Trace<K> evaluate(const Model& model, const K& k, const std::vector<std::size_t>& input) {
  return detail::evaluate_stack<K>(model, k, input, nullptr);
}

// A model with its LRNN parameters and input maps converted into k once, for callers that
// evaluate many strings (verify: converting matmul3's 121 symbols' matrices cost ≈ 2.5 ms a
// token on every call). evaluate(prepared, w) returns exactly evaluate(model, k, w); nonlinear
// and attention layers, whose parameters are small, are still rounded per call. Keeps a
// reference to `model`, which must outlive it. The constructor throws the DomainError that
// evaluate would throw for a parameter k cannot represent (naming the layer and parameter).
template <Domain K>
class PreparedModel {
 public:
  PreparedModel(const Model& model, const K& k) : model_(model), k_(k) {
    for (std::size_t li = 0; li < model.layers.size(); ++li) {
      const StackLayer& sl = model.layers[li];
      Layer& out = layers_.emplace_back();
      try {
        if (sl.input) out.input = detail::prepare_input(*sl.input, k);
        if (const auto* l = std::get_if<LrnnLayer>(&sl.layer))
          out.lrnn = detail::prepare_lrnn(
              *l, k, sl.input ? std::vector<std::string>{} : model.alphabet.symbols());
      } catch (const DomainError& e) {
        throw DomainError("layer " + std::to_string(li) + ": " + e.what());
      }
    }
  }
  const Model& model() const { return model_; }
  const K& domain() const { return k_; }

 private:
  template <Domain D>
  friend Trace<D> detail::evaluate_stack(const Model&, const D&, const std::vector<std::size_t>&,
                                         const PreparedModel<D>*);
  struct Layer {
    std::optional<detail::InputParams<K>> input;
    std::optional<detail::LayerParams<K>> lrnn;
  };
  const Model& model_;
  K k_;
  std::vector<Layer> layers_;
};

template <Domain K>
Trace<K> evaluate(const PreparedModel<K>& prepared, const std::vector<std::size_t>& input) {
  return detail::evaluate_stack<K>(prepared.model(), prepared.domain(), input, &prepared);
}

namespace detail {

template <Domain K>
Trace<K> evaluate_stack(const Model& model, const K& k, const std::vector<std::size_t>& input,
                        const PreparedModel<K>* prepared) {
  using M = Mat<K>;
  std::vector<M> z;
  for (std::size_t id : input) {  // layer 1: one-hot x_t
    M x = zeros(k, model.alphabet.size(), 1);
    x(id, 0) = k.one();
    z.push_back(std::move(x));
  }
  Trace<K> trace;
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    const auto* ready = prepared ? &prepared->layers_[li] : nullptr;
    try {
      std::uint64_t input_work = 0;  // the input map's, counted with its layer
      if (sl.input) {                // z_t = W·vec(y_t) + b, one rounding
        std::optional<InputParams<K>> plain;
        if (!ready) plain = prepare_input(*sl.input, k);
        const InputParams<K>& im = ready ? *ready->input : *plain;
        EvaluationMeter meter{&input_work};
        for (std::size_t t = 0; t < z.size(); ++t)
          at_position(t, [&] { z[t] = step(im, k, trace.layers.back().outputs[t], meter); });
      }
      if (ready && ready->lrnn) {
        trace.layers.push_back(run(*ready->lrnn, k, z));
      } else {
        const std::vector<std::string> names =
            sl.input ? std::vector<std::string>{} : model.alphabet.symbols();
        trace.layers.push_back(run(prepare_layer(sl.layer, k, names), k, z));
      }
      trace.layers.back().work += input_work;
    } catch (const DomainError& e) {
      throw DomainError("layer " + std::to_string(li) + ": " + e.what());
    }
  }
  return trace;
}

}  // namespace detail

// Acceptance of one output; std::nullopt when the mode is undefined in k (positivity mod p).
template <Domain K>
std::optional<bool> accepts(const Acceptance& a, const K& k, const Matrix<typename K::Element>& y) {
  const auto& v = y(a.row, a.col);
  if (a.mode == Acceptance::Mode::zero) return k.is_zero(v);
  if constexpr (OrderedDomain<K>) return k.sign(v) > 0;
  return std::nullopt;
}

}  // namespace rnncc
