#include "verify/linear_representation.hpp"

#include <map>
#include <stdexcept>
#include <variant>

namespace rnncc {
namespace {

using QMat = Matrix<Rational>;

QMat mul(const QMat& a, const QMat& b) {
  QMat c(a.rows(), b.cols(), Rational(0));
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t k = 0; k < a.cols(); ++k) {
      const Rational& x = a(i, k);
      if (x == 0) continue;
      for (std::size_t j = 0; j < b.cols(); ++j)
        if (b(k, j) != 0) c(i, j) += x * b(k, j);
    }
  return c;
}

std::vector<Rational> row_times(const std::vector<Rational>& v, const QMat& m) {
  std::vector<Rational> out(m.cols(), Rational(0));
  for (std::size_t k = 0; k < m.rows(); ++k) {
    if (v[k] == 0) continue;
    for (std::size_t j = 0; j < m.cols(); ++j)
      if (m(k, j) != 0) out[j] += v[k] * m(k, j);
  }
  return out;
}

// Σ_k z_k X_k (+ base).
QMat combine(const std::vector<QMat>& xs, const std::vector<Rational>& z, const QMat* base,
             std::size_t rows, std::size_t cols) {
  QMat out = base ? *base : QMat(rows, cols, Rational(0));
  for (std::size_t f = 0; f < xs.size(); ++f) {
    if (z[f] == 0) continue;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) out(i, j) += z[f] * xs[f](i, j);
  }
  return out;
}

// The homogenized step and output of S' = A S + B, y = C S' + c₀ (header: v = [vec_row S, 1]).
void homogenize(const QMat& A, const QMat& B, const QMat& C, const QMat& c0, std::size_t d,
                std::size_t m, QMat& M, QMat& O, QMat* readout = nullptr) {
  const std::size_t n = d * m + 1, r = C.rows();
  M = QMat(n, n, Rational(0));
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t k = 0; k < d; ++k)
      if (A(i, k) != 0)
        for (std::size_t j = 0; j < m; ++j) M(k * m + j, i * m + j) = A(i, k);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < m; ++j) M(n - 1, i * m + j) = B(i, j);
  M(n - 1, n - 1) = 1;
  QMat G(n, r * m, Rational(0));
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t k = 0; k < d; ++k)
      if (C(i, k) != 0)
        for (std::size_t j = 0; j < m; ++j) G(k * m + j, i * m + j) = C(i, k);
  if (!c0.empty())
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < m; ++j) G(n - 1, i * m + j) = c0(i, j);
  O = mul(M, G);
  if (readout) *readout = std::move(G);
}

std::vector<Rational> homogeneous_initial(const LrnnLayer& l) {
  std::vector<Rational> a(l.d * l.m + 1, Rational(0));
  for (std::size_t i = 0; i < l.d; ++i)
    for (std::size_t j = 0; j < l.m; ++j) a[i * l.m + j] = l.initial_state(i, j);
  a.back() = 1;
  return a;
}

// The top layer's step and output for a feature vector z.
void layer_maps(const LrnnLayer& l, const std::vector<Rational>& z, QMat& M, QMat& O,
                QMat* readout = nullptr) {
  const QMat A = combine(l.A, z, nullptr, l.d, l.d);
  const QMat B = combine(l.B, z, nullptr, l.d, l.m);
  const QMat C = l.readout_feature.empty()
                     ? l.readout
                     : combine(l.readout_feature, z, &l.readout, l.readout.rows(), l.d);
  homogenize(A, B, C, l.readout_bias, l.d, l.m, M, O, readout);
}

std::vector<Rational> one_hot(std::size_t n, std::size_t i) {
  std::vector<Rational> z(n, Rational(0));
  z[i] = 1;
  return z;
}

const LrnnLayer& lrnn_or_refuse(const StackLayer& sl, std::size_t index) {
  if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) return *l;
  throw NotLinearError("layer " + std::to_string(index) + " is " + layer_kind(sl.layer) +
                       ", which is not linear in its state; the decision procedure needs LRNN "
                       "layers (use `rnncc verify`'s testing methods: random, exhaustive, "
                       "identity)");
}

}  // namespace

std::vector<std::vector<Rational>> evaluate_prefixes(const LinearRepresentation& rep,
                                                     const std::vector<std::size_t>& w) {
  std::vector<std::vector<Rational>> out;
  std::vector<Rational> v = rep.initial;
  for (std::size_t s : w) {
    out.push_back(row_times(v, rep.output[s]));
    v = row_times(v, rep.transition[s]);
  }
  return out;
}

LinearRepresentation from_wfa(const Wfa& a) {
  LinearRepresentation rep;
  rep.symbols = a.alphabet.symbols();
  rep.dim = a.states();
  rep.outputs = 1;
  rep.initial = a.initial;
  QMat beta(rep.dim, 1, Rational(0));
  for (std::size_t i = 0; i < rep.dim; ++i) beta(i, 0) = a.final[i];
  for (const QMat& m : a.transition) {
    rep.transition.push_back(m);
    rep.output.push_back(mul(m, beta));
    rep.readout.push_back(beta);
  }
  Rational e = 0;
  for (std::size_t i = 0; i < rep.dim; ++i) e += a.initial[i] * a.final[i];
  rep.empty = std::vector<Rational>{e};
  return rep;
}

LinearRepresentation from_lrnn_layer(const LrnnLayer& l, const std::vector<std::string>& symbols) {
  if (l.features != symbols.size())
    throw NotLinearError("the layer reads " + std::to_string(l.features) + " features, not the " +
                         std::to_string(symbols.size()) + " symbols of the alphabet");
  LinearRepresentation rep;
  rep.symbols = symbols;
  rep.dim = l.d * l.m + 1;
  rep.outputs = l.readout.rows() * l.m;
  rep.initial = homogeneous_initial(l);
  for (std::size_t s = 0; s < symbols.size(); ++s) {
    QMat M, O, G;
    layer_maps(l, one_hot(symbols.size(), s), M, O, &G);
    rep.transition.push_back(std::move(M));
    rep.output.push_back(std::move(O));
    rep.readout.push_back(std::move(G));
  }
  return rep;
}

LinearRepresentation from_controlled(const ControlledLinear& c) {
  const std::size_t S = c.symbols.size(), d = c.dim;
  // Reachable control states, numbered in BFS order.
  std::vector<std::size_t> order{c.control.start};
  std::map<std::size_t, std::size_t> index{{c.control.start, 0}};
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t q = c.control.next[order[i]][s];
      if (index.emplace(q, order.size()).second) order.push_back(q);
    }
  const std::size_t Q = order.size();
  LinearRepresentation rep;
  rep.symbols = c.symbols;
  rep.dim = Q * d;
  rep.outputs = c.outputs;
  rep.initial.assign(rep.dim, Rational(0));
  for (std::size_t i = 0; i < d; ++i) rep.initial[i] = c.initial[i];
  for (std::size_t s = 0; s < S; ++s) {
    QMat M(rep.dim, rep.dim, Rational(0)), O(rep.dim, c.outputs, Rational(0));
    for (std::size_t a = 0; a < Q; ++a) {
      const std::size_t q = order[a], b = index.at(c.control.next[q][s]);
      const QMat& Mq = c.step[q][s];
      const QMat& Oq = c.output[q][s];
      for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = 0; j < d; ++j) M(a * d + i, b * d + j) = Mq(i, j);
        for (std::size_t j = 0; j < c.outputs; ++j) O(a * d + i, j) = Oq(i, j);
      }
    }
    rep.transition.push_back(std::move(M));
    rep.output.push_back(std::move(O));
  }
  return rep;
}

LinearRepresentation through_input_map(const LinearRepresentation& t, const InputMapSpec& map) {
  ControlledLinear c;
  c.symbols = map.symbols;
  c.dim = t.dim;
  c.outputs = t.outputs;
  c.control = map.control;
  c.initial = t.initial;
  for (std::size_t tok : map.prefix) c.initial = row_times(c.initial, t.transition.at(tok));
  c.step.resize(map.control.states);
  c.output.resize(map.control.states);
  for (std::size_t q = 0; q < map.control.states; ++q)
    for (std::size_t s = 0; s < map.symbols.size(); ++s) {
      const std::vector<std::size_t>& toks = map.tokens[q][s];
      if (toks.empty())
        throw std::invalid_argument("through_input_map: symbol '" + map.symbols[s] +
                                    "' has no tokens");
      QMat P(t.dim, t.dim, Rational(0));
      for (std::size_t i = 0; i < t.dim; ++i) P(i, i) = 1;
      for (std::size_t k = 0; k + 1 < toks.size(); ++k) P = mul(P, t.transition.at(toks[k]));
      c.output[q].push_back(mul(P, t.output.at(toks.back())));
      c.step[q].push_back(mul(P, t.transition.at(toks.back())));
    }
  LinearRepresentation rep = from_controlled(c);
  rep.modulus = t.modulus;
  return rep;
}

InputMapSpec input_map_from_encode(
    const std::vector<std::string>& symbols,
    const std::function<std::vector<std::size_t>(const std::vector<std::size_t>&)>& encode,
    std::size_t period) {
  const std::size_t S = symbols.size();
  InputMapSpec map;
  map.symbols = symbols;
  map.prefix = encode({});
  map.control.states = period;
  map.control.start = 0;
  map.tokens.assign(period, std::vector<std::vector<std::size_t>>(S));
  for (std::size_t q = 0; q < period; ++q) {
    map.control.next.push_back(std::vector<std::size_t>(S, (q + 1) % period));
    const std::vector<std::size_t> zeros(q, 0);
    const std::size_t before = encode(zeros).size();
    for (std::size_t s = 0; s < S; ++s) {
      std::vector<std::size_t> w = zeros;
      w.push_back(s);
      const std::vector<std::size_t> e = encode(w);
      map.tokens[q][s].assign(e.begin() + static_cast<std::ptrdiff_t>(before), e.end());
    }
  }
  // Check: encode(w) = prefix · τ(q₀, w₁) ⋯ on every word of length ≤ period + 1.
  std::vector<std::vector<std::size_t>> layer{{}};
  for (std::size_t len = 1; len <= period + 1; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : layer)
      for (std::size_t s = 0; s < S; ++s) {
        std::vector<std::size_t> w = u, expect = map.prefix;
        w.push_back(s);
        for (std::size_t i = 0; i < w.size(); ++i)
          for (std::size_t t : map.tokens[i % period][w[i]]) expect.push_back(t);
        if (encode(w) != expect)
          throw std::invalid_argument(
              "encode is not a prefix and per-symbol token sequences "
              "with period " +
              std::to_string(period));
        next.push_back(std::move(w));
      }
    layer = std::move(next);
  }
  return map;
}

LinearRepresentation from_model(const Model& m, const FromModelParams& params) {
  if (m.layers.empty()) throw NotLinearError("the model has no layers");
  const std::vector<std::string>& symbols = m.alphabet.symbols();
  const LrnnLayer& top = lrnn_or_refuse(m.layers.back(), m.layers.size() - 1);
  if (m.layers.size() == 1) return from_lrnn_layer(top, symbols);
  // Lower layers: a finite control if their reachable configurations are finitely many.
  const std::size_t L = m.layers.size() - 1;
  std::vector<const LrnnLayer*> lower;
  for (std::size_t i = 0; i < L; ++i) lower.push_back(&lrnn_or_refuse(m.layers[i], i));
  using Config = std::vector<QMat>;
  auto key = [](const Config& c) {
    std::string k;
    for (const QMat& s : c)
      for (const Rational& x : s.data()) k += to_string(x) + ",";
    return k;
  };
  // One step of the lower stack on symbol s: the new configuration and the top layer's z.
  auto step = [&](const Config& c, std::size_t s, Config& next, std::vector<Rational>& z) {
    z = one_hot(symbols.size(), s);
    next = c;
    for (std::size_t i = 0; i <= L; ++i) {
      if (i > 0 && m.layers[i].input) {  // z = W·vec(y) + b
        const InputMap& im = *m.layers[i].input;
        std::vector<Rational> nz(im.weights.rows(), Rational(0));
        for (std::size_t a = 0; a < im.weights.rows(); ++a) {
          for (std::size_t b = 0; b < im.weights.cols(); ++b) nz[a] += im.weights(a, b) * z[b];
          if (!im.bias.empty()) nz[a] += im.bias(a, 0);
        }
        z = nz;
      }
      if (i == L) break;
      const LrnnLayer& l = *lower[i];
      const QMat A = combine(l.A, z, nullptr, l.d, l.d), B = combine(l.B, z, nullptr, l.d, l.m);
      const QMat C = l.readout_feature.empty()
                         ? l.readout
                         : combine(l.readout_feature, z, &l.readout, l.readout.rows(), l.d);
      QMat S = mul(A, c[i]);
      for (std::size_t a = 0; a < l.d; ++a)
        for (std::size_t b = 0; b < l.m; ++b) S(a, b) += B(a, b);
      QMat y = mul(C, S);
      if (!l.readout_bias.empty())
        for (std::size_t a = 0; a < y.rows(); ++a)
          for (std::size_t b = 0; b < y.cols(); ++b) y(a, b) += l.readout_bias(a, b);
      next[i] = std::move(S);
      z = y.data();  // vec_row(y), read by the next layer's input map
    }
  };
  Config start;
  for (const LrnnLayer* l : lower) start.push_back(l->initial_state);
  std::vector<Config> configs{start};
  std::map<std::string, std::size_t> index{{key(start), 0}};
  ControlledLinear c;
  c.symbols = symbols;
  c.dim = top.d * top.m + 1;
  c.outputs = top.readout.rows() * top.m;
  c.initial = homogeneous_initial(top);
  for (std::size_t q = 0; q < configs.size(); ++q) {
    c.control.next.emplace_back();
    c.step.emplace_back();
    c.output.emplace_back();
    for (std::size_t s = 0; s < symbols.size(); ++s) {
      Config next;
      std::vector<Rational> z;
      step(configs[q], s, next, z);
      auto [it, fresh] = index.emplace(key(next), configs.size());
      if (fresh) {
        if (configs.size() >= params.max_control_states)
          throw NotLinearError(
              "layer " + std::to_string(L) +
              " reads the layers below through its input map, so its state update is bilinear "
              "in (input, state); that is linear only when the layers below are finite-state, "
              "and they reach more than " +
              std::to_string(params.max_control_states) +
              " configurations (use `rnncc verify`'s testing methods)");
        configs.push_back(next);
      }
      c.control.next[q].push_back(it->second);
      QMat M, O;
      if (z.size() != top.features)
        throw NotLinearError("layer " + std::to_string(L) + " reads " +
                             std::to_string(top.features) + " features, the layer below gives " +
                             std::to_string(z.size()));
      layer_maps(top, z, M, O);
      c.step[q].push_back(std::move(M));
      c.output[q].push_back(std::move(O));
    }
  }
  c.control.states = configs.size();
  c.control.start = 0;
  return from_controlled(c);
}

LinearRepresentation select_outputs(const LinearRepresentation& rep,
                                    const std::vector<std::size_t>& columns) {
  for (std::size_t c : columns)
    if (c >= rep.outputs)
      throw std::out_of_range("select_outputs: output " + std::to_string(c) + " of " +
                              std::to_string(rep.outputs));
  auto keep = [&](const Matrix<Rational>& m) {
    Matrix<Rational> out(m.rows(), columns.size(), Rational(0));
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < columns.size(); ++j) out(i, j) = m(i, columns[j]);
    return out;
  };
  LinearRepresentation r = rep;
  r.outputs = columns.size();
  for (auto& m : r.output) m = keep(m);
  for (auto& m : r.readout) m = keep(m);
  if (rep.empty) {
    r.empty->clear();
    for (std::size_t c : columns) r.empty->push_back((*rep.empty)[c]);
  }
  return r;
}

}  // namespace rnncc
