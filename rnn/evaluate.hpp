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
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algebra/domain.hpp"
#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/matrix.hpp"
#include "rnn/model.hpp"

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

namespace detail {

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

// Σ_k z_k M_k + base (base may be empty), one rounding per entry. The nonzero z_k are found
// once (on layer 1, one-hot z: one term), then each entry sums over them in order of k.
template <Domain K>
Mat<K> combine(const K& k, const std::vector<Mat<K>>& per_feature, const Mat<K>& z,
               const Mat<K>* base, std::uint64_t& work) {
  const Mat<K>& shape = per_feature.front();
  std::vector<std::size_t> nonzero;
  for (std::size_t f = 0; f < per_feature.size(); ++f)
    if (!k.is_zero(z(f, 0))) nonzero.push_back(f);
  work += per_feature.size() + nonzero.size() * shape.rows() * shape.cols();
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

// An LRNN layer's parameters converted into k once (PreparedModel keeps them across calls).
// Diagonal families (diagonal, s4, mamba2, gla) keep only the diagonal of each A_k: a step
// costs O(d·m), not O(d²·m), and nothing d×d is converted. The result is the dense one: the
// off-diagonal terms of A(z_t) and of A(z_t)·S are exact zeros, and each entry is still rounded
// once.
inline bool diagonal_family(Family f) {
  return f == Family::diagonal || f == Family::s4 || f == Family::mamba2 || f == Family::gla;
}

template <Domain K>
struct LrnnParams {
  std::vector<Mat<K>> A, B, C;   // per feature; C empty for a token-independent readout
  std::vector<Mat<K>> diagonal;  // diagonal families: diag(A_k) as d×1 per feature (A empty)
  Mat<K> readout, bias, initial;
};

template <Domain K>
LrnnParams<K> convert_lrnn(const LrnnLayer& l, const K& k, const std::vector<std::string>& names) {
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
    }
    p.B.push_back(convert(k, l.B[f], "B of " + feature_name(names, f)));
    if (!l.readout_feature.empty())
      p.C.push_back(convert(k, l.readout_feature[f], "C of " + feature_name(names, f)));
  }
  p.readout = convert(k, l.readout, "readout");
  p.bias = convert(k, l.readout_bias, "readout_bias");
  p.initial = convert(k, l.initial_state, "initial_state");
  return p;
}

template <Domain K>
LayerTrace<K> run_lrnn(const LrnnParams<K>& p, const K& k, const std::vector<Mat<K>>& z) {
  Mat<K> state = p.initial;
  LayerTrace<K> trace;
  std::uint64_t& work = trace.work;
  for (std::size_t t = 0; t < z.size(); ++t)
    at_position(t, [&] {
      const Mat<K>& zt = z[t];
      if (p.diagonal.empty()) {
        const Mat<K> a = combine(k, p.A, zt, nullptr, work), b = combine(k, p.B, zt, nullptr, work);
        work += a.rows() * a.cols() * state.cols();
        state = affine(k, a, state, b);
      } else {  // S_t(i, j) = a_i·S_{t−1}(i, j) + B(i, j), one rounding per entry
        const Mat<K> a = combine(k, p.diagonal, zt, nullptr, work),
                     b = combine(k, p.B, zt, nullptr, work);
        work += state.rows() * state.cols();
        for (std::size_t i = 0; i < state.rows(); ++i)
          for (std::size_t j = 0; j < state.cols(); ++j)
            state(i, j) = k.narrow(k.wide_add(k.widen(b(i, j)), k.wide_mul(a(i, 0), state(i, j))));
      }
      const Mat<K> c = p.C.empty() ? p.readout : combine(k, p.C, zt, &p.readout, work);
      work += c.rows() * c.cols() * state.cols();
      trace.outputs.push_back(affine(k, c, state, p.bias));
      trace.states.push_back(state);
    });
  return trace;
}

// The plain path: converts the layer's parameters on every call.
template <Domain K>
LayerTrace<K> run(const LrnnLayer& l, const K& k, const std::vector<Mat<K>>& z,
                  const std::vector<std::string>& names) {
  return run_lrnn(convert_lrnn(l, k, names), k, z);
}

// Exact value of W h + U z + b on rounded operands (nonlinear layers compute in Q and round
// each assignment once, so they need an ordered domain).
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
Mat<K> readout(const K& k, const Matrix<Rational>& c, const Matrix<Rational>& bias,
               const Mat<K>& h) {
  Matrix<Rational> y(c.rows(), 1);
  for (std::size_t i = 0; i < c.rows(); ++i) {
    Rational acc = bias.empty() ? Rational(0) : bias(i, 0);
    for (std::size_t j = 0; j < c.cols(); ++j) acc += c(i, j) * k.to_rational(h(j, 0));
    y(i, 0) = acc;
  }
  return round_map(k, y, [](const Rational& v) { return v; });
}

// Parameters of nonlinear layers are rounded once, like LRNN parameters.
template <OrderedDomain K>
Matrix<Rational> rounded(const K& k, const Matrix<Rational>& m, const std::string& what) {
  return map(convert(k, m, what), [&](const typename K::Element& e) { return k.to_rational(e); });
}
template <OrderedDomain K>
AffineMap rounded(const K& k, const AffineMap& f, const std::string& prefix) {
  return {rounded(k, f.W, prefix + "W"), rounded(k, f.U, prefix + "U"),
          rounded(k, f.bias, prefix + "bias")};
}

template <Domain K>
LayerTrace<K> run(const ElmanLayer& l, const K& k, const std::vector<Mat<K>>& z,
                  const std::vector<std::string>&) {
  if constexpr (!OrderedDomain<K>) {
    throw DomainError("an Elman layer with " + to_string(l.activation) +
                      " needs an ordered domain; " + k.name() + " is not ordered");
  } else {
    const AffineMap pre = rounded(k, l.pre, "");
    const Matrix<Rational> c = rounded(k, l.readout, "readout"),
                           c0 = rounded(k, l.readout_bias, "readout_bias");
    Mat<K> h = convert(k, l.initial_state, "initial_state");
    LayerTrace<K> trace;
    for (std::size_t t = 0; t < z.size(); ++t)
      at_position(t, [&] {
        trace.work += pre.W.rows() * (pre.W.cols() + pre.U.cols()) + c.rows() * c.cols();
        Matrix<Rational> x = pre_activation(k, pre, h, z[t]);
        h = l.activation == Activation::relu ? round_map(k, x, relu)
                                             : round_map(k, x, sign_activation);
        trace.outputs.push_back(readout(k, c, c0, h));
        trace.states.push_back(h);
      });
    return trace;
  }
}

template <Domain K>
LayerTrace<K> run(const LstmLayer& l, const K& k, const std::vector<Mat<K>>& z,
                  const std::vector<std::string>&) {
  if constexpr (!OrderedDomain<K>) {
    throw DomainError("an LSTM layer's hard gates need an ordered domain; " + k.name() +
                      " is not ordered");
  } else {
    const AffineMap fg = rounded(k, l.forget, "gates/f/"), ig = rounded(k, l.input, "gates/i/"),
                    og = rounded(k, l.output, "gates/o/"), gg = rounded(k, l.cell, "gates/g/");
    const Matrix<Rational> c_out = rounded(k, l.readout, "readout"),
                           c0 = rounded(k, l.readout_bias, "readout_bias");
    Mat<K> h = convert(k, l.initial_hidden, "initial_state/h");
    Mat<K> c = convert(k, l.initial_cell, "initial_state/c");
    LayerTrace<K> trace;
    for (std::size_t t = 0; t < z.size(); ++t)
      at_position(t, [&] {
        const Mat<K>& zt = z[t];
        trace.work +=
            4 * fg.W.rows() * (fg.W.cols() + fg.U.cols()) + 3 * l.d + c_out.rows() * c_out.cols();
        Mat<K> f = round_map(k, pre_activation(k, fg, h, zt), hard_sigmoid);
        Mat<K> i = round_map(k, pre_activation(k, ig, h, zt), hard_sigmoid);
        Mat<K> o = round_map(k, pre_activation(k, og, h, zt), hard_sigmoid);
        Mat<K> g = round_map(k, pre_activation(k, gg, h, zt), hard_tanh);
        Matrix<Rational> c_new(l.d, 1), h_new(l.d, 1);
        for (std::size_t r = 0; r < l.d; ++r)  // c_t = f ⊙ c + i ⊙ g, one rounding
          c_new(r, 0) = k.to_rational(f(r, 0)) * k.to_rational(c(r, 0)) +
                        k.to_rational(i(r, 0)) * k.to_rational(g(r, 0));
        c = round_map(k, c_new, [](const Rational& v) { return v; });
        for (std::size_t r = 0; r < l.d; ++r)  // h_t = o ⊙ tanĥ(c_t), one rounding
          h_new(r, 0) = k.to_rational(o(r, 0)) * hard_tanh(k.to_rational(c(r, 0)));
        h = round_map(k, h_new, [](const Rational& v) { return v; });
        trace.outputs.push_back(readout(k, c_out, c0, h));
        Mat<K> hc(2 * l.d, 1);
        for (std::size_t r = 0; r < l.d; ++r) {
          hc(r, 0) = h(r, 0);
          hc(l.d + r, 0) = c(r, 0);
        }
        trace.states.push_back(std::move(hc));
      });
    return trace;
  }
}

// Causal attention (rnn/attention.hpp). Ordered domains only: hard attention takes an argmax.
template <Domain K>
LayerTrace<K> run(const AttentionLayer& l, const K& k, const std::vector<Mat<K>>& z,
                  const std::vector<std::string>&) {
  if constexpr (!OrderedDomain<K>) {
    throw DomainError("an attention layer (" + to_string(l.kind) +
                      ") compares scores and needs an ordered domain; " + k.name() +
                      " is not ordered");
  } else {
    if (l.kind == AttentionKind::softmax && K::exact)
      throw DomainError(
          "softmax attention has no exact semantics (exp of a nonzero rational is irrational); "
          "evaluate it at log precision (log:C), where each weight is exp rounded to F bits");
    auto rounded_map = [&](const LinearMap& f, const std::string& name) {
      return LinearMap{rounded(k, f.weights, name + "/weights"),
                       rounded(k, f.bias, name + "/bias")};
    };
    const LinearMap wq = rounded_map(l.query, "query"), wk = rounded_map(l.key, "key"),
                    wv = rounded_map(l.value, "value");
    const Rational lambda =
        k.to_rational(convert(k, Matrix<Rational>(1, 1, l.position_bias), "position_bias")(0, 0));
    // q, k, v at every position: W z + b exactly, one rounding per entry.
    auto project = [&](const LinearMap& f, const Mat<K>& zt) {
      Matrix<Rational> out(f.weights.rows(), 1);
      for (std::size_t i = 0; i < f.weights.rows(); ++i) {
        Rational acc = f.bias(i, 0);
        for (std::size_t j = 0; j < f.weights.cols(); ++j)
          acc += f.weights(i, j) * k.to_rational(zt(j, 0));
        out(i, 0) = acc;
      }
      return round_map(k, out, [](const Rational& v) { return v; });
    };
    std::vector<Mat<K>> q, key, v;
    LayerTrace<K> trace;
    for (std::size_t t = 0; t < z.size(); ++t)
      at_position(t, [&] {
        trace.work += wq.weights.rows() * wq.weights.cols() +
                      wk.weights.rows() * wk.weights.cols() + wv.weights.rows() * wv.weights.cols();
        q.push_back(project(wq, z[t]));
        key.push_back(project(wk, z[t]));
        v.push_back(project(wv, z[t]));
        // score(t, s) = q_tᵀ k_s + λ·s, one rounding each; compared as exact values.
        const std::size_t first = first_visible(l, t + 1);
        std::vector<Rational> score;
        for (std::size_t s = first; s <= t + 1; ++s) {
          // h products, the position term, two comparisons (the max, the argmax): h + 3
          trace.work += l.key_size() + 3;
          Rational acc = lambda * Rational(static_cast<long>(s));
          for (std::size_t i = 0; i < l.key_size(); ++i)
            acc += k.to_rational(q[t](i, 0)) * k.to_rational(key[s - 1](i, 0));
          score.push_back(k.to_rational(k.from_rational(acc)));
        }
        Rational best = score[0];
        for (const Rational& x : score) best = x > best ? x : best;
        std::vector<std::size_t> argmax;
        for (std::size_t s = first; s <= t + 1; ++s)
          if (score[s - first] == best) argmax.push_back(s);
        const std::size_t r = l.value_size();
        Mat<K> a(r, 1);
        if (l.kind == AttentionKind::unique_hard) {
          const std::size_t pick = l.tie == TieRule::leftmost ? argmax.front() : argmax.back();
          argmax = {pick};
          for (std::size_t i = 0; i < r; ++i) a(i, 0) = v[pick - 1](i, 0);
        } else {
          // averaging: weight 1 on M(t); softmax: e_s = exp(score − best) rounded to F bits.
          std::vector<Rational> weight;
          for (std::size_t s = first; s <= t + 1; ++s) {
            const Rational& x = score[s - first];
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
          Rational total = 0;
          trace.work += weight.size() * (r + 1);
          for (const Rational& w : weight) total += w;
          Matrix<Rational> mean(r, 1, Rational(0));
          for (std::size_t i = 0; i < r; ++i) {
            for (std::size_t s = first; s <= t + 1; ++s)
              mean(i, 0) += weight[s - first] * k.to_rational(v[s - 1](i, 0));
            mean(i, 0) /= total;
          }
          a = round_map(k, mean, [](const Rational& x) { return x; });
        }
        Mat<K> y(l.output_rows(), 1);
        const std::size_t off = l.residual ? l.features : 0;
        for (std::size_t i = 0; i < off; ++i) y(i, 0) = z[t](i, 0);
        for (std::size_t i = 0; i < r; ++i) y(off + i, 0) = a(i, 0);
        trace.outputs.push_back(std::move(y));
        trace.states.push_back(Mat<K>());
        trace.attended.push_back(std::move(argmax));
      });
    return trace;
  }
}

}  // namespace detail

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
        if (sl.input) {
          out.input_weights = detail::convert(k, sl.input->weights, "input_map/weights");
          out.input_bias = detail::convert(k, sl.input->bias, "input_map/bias");
        }
        if (const auto* l = std::get_if<LrnnLayer>(&sl.layer))
          out.lrnn = detail::convert_lrnn(
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
    detail::Mat<K> input_weights, input_bias;
    std::optional<detail::LrnnParams<K>> lrnn;
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
  std::uint64_t input_work = 0;  // the input map's, counted with its layer
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    const std::string where = "layer " + std::to_string(li);
    const auto* ready = prepared ? &prepared->layers_[li] : nullptr;
    try {
      if (sl.input) {  // z_t = W·vec(y_t) + b, one rounding
        M w_plain, b_plain;
        if (!ready) {
          w_plain = convert(k, sl.input->weights, "input_map/weights");
          b_plain = convert(k, sl.input->bias, "input_map/bias");
        }
        const M& w = ready ? ready->input_weights : w_plain;
        const M& b = ready ? ready->input_bias : b_plain;
        input_work += z.size() * w.rows() * w.cols();
        for (std::size_t t = 0; t < z.size(); ++t)
          at_position(t, [&] {
            const M& y = trace.layers.back().outputs[t];
            M v(y.rows() * y.cols(), 1);
            for (std::size_t i = 0; i < y.data().size(); ++i) v(i, 0) = y.data()[i];
            z[t] = affine(k, w, v, b);
          });
      }
      if (ready && ready->lrnn) {
        trace.layers.push_back(run_lrnn(*ready->lrnn, k, z));
      } else {
        const std::vector<std::string> names =
            sl.input ? std::vector<std::string>{} : model.alphabet.symbols();
        trace.layers.push_back(
            std::visit([&](const auto& l) { return run(l, k, z, names); }, sl.layer));
      }
      trace.layers.back().work += input_work;
      input_work = 0;
    } catch (const DomainError& e) {
      throw DomainError(where + ": " + e.what());
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
