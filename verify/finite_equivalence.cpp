#include "verify/finite_equivalence.hpp"

#include <chrono>
#include <deque>
#include <stdexcept>
#include <unordered_map>

#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc {
namespace {

using QMat = Matrix<Rational>;
using QVec = std::vector<Rational>;

void refuse_attention(const Model& m) {
  if (m.layers.empty()) throw NotFiniteError("the model has no layers");
  for (std::size_t i = 0; i < m.layers.size(); ++i)
    if (std::holds_alternative<AttentionLayer>(m.layers[i].layer))
      throw NotFiniteError(
          "layer " + std::to_string(i) + " is " + layer_kind(m.layers[i].layer) +
          ", whose output at t reads every key and value so far, not a fixed-size state; the "
          "product search needs a model whose next state is a function of its state and input "
          "(LRNN, Elman, LSTM layers)");
}

// Σ_k z_k M_k (+ base).
QMat combine(const std::vector<QMat>& per_feature, const QVec& z, const QMat* base) {
  const QMat& shape = per_feature.front();
  QMat out = base ? *base : QMat(shape.rows(), shape.cols(), Rational(0));
  for (std::size_t f = 0; f < per_feature.size(); ++f) {
    if (z[f] == 0) continue;
    for (std::size_t i = 0; i < shape.rows(); ++i)
      for (std::size_t j = 0; j < shape.cols(); ++j) out(i, j) += z[f] * per_feature[f](i, j);
  }
  return out;
}

// a·s + b (b may be empty).
QMat affine_q(const QMat& a, const QMat& s, const QMat& b) {
  QMat c(a.rows(), s.cols(), Rational(0));
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < s.cols(); ++j) {
      Rational acc = b.empty() ? Rational(0) : b(i, j);
      for (std::size_t l = 0; l < a.cols(); ++l)
        if (a(i, l) != 0) acc += a(i, l) * s(l, j);
      c(i, j) = acc;
    }
  return c;
}

// W h + U z + b as a column.
QMat pre_activation(const AffineMap& f, const QMat& h, const QVec& z) {
  QMat out(f.W.rows(), 1);
  for (std::size_t i = 0; i < f.W.rows(); ++i) {
    Rational acc = f.bias(i, 0);
    for (std::size_t j = 0; j < f.W.cols(); ++j) acc += f.W(i, j) * h(j, 0);
    for (std::size_t j = 0; j < f.U.cols(); ++j)
      if (z[j] != 0) acc += f.U(i, j) * z[j];  // z is one-hot on the first layer
    out(i, 0) = acc;
  }
  return out;
}

template <class F>
QMat apply(QMat x, F&& act) {
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < x.cols(); ++j) x(i, j) = act(x(i, j));
  return x;
}

QMat step_layer(const LrnnLayer& l, QMat& state, const QVec& z) {
  state = affine_q(combine(l.A, z, nullptr), state, combine(l.B, z, nullptr));
  const QMat c = l.readout_feature.empty() ? l.readout : combine(l.readout_feature, z, &l.readout);
  return affine_q(c, state, l.readout_bias);
}

QMat step_layer(const ElmanLayer& l, QMat& h, const QVec& z) {
  h = l.activation == Activation::relu ? apply(pre_activation(l.pre, h, z), relu)
                                       : apply(pre_activation(l.pre, h, z), sign_activation);
  return affine_q(l.readout, h, l.readout_bias);
}

QMat step_layer(const LstmLayer& l, QMat& hc, const QVec& z) {
  const std::size_t d = l.d;
  QMat h(d, 1), c(d, 1);
  for (std::size_t r = 0; r < d; ++r) h(r, 0) = hc(r, 0), c(r, 0) = hc(d + r, 0);
  const QMat f = apply(pre_activation(l.forget, h, z), hard_sigmoid);
  const QMat i = apply(pre_activation(l.input, h, z), hard_sigmoid);
  const QMat o = apply(pre_activation(l.output, h, z), hard_sigmoid);
  const QMat g = apply(pre_activation(l.cell, h, z), hard_tanh);
  for (std::size_t r = 0; r < d; ++r) {
    c(r, 0) = f(r, 0) * c(r, 0) + i(r, 0) * g(r, 0);  // c_t = f ⊙ c + i ⊙ g
    h(r, 0) = o(r, 0) * hard_tanh(c(r, 0));           // h_t = o ⊙ tanĥ(c_t)
  }
  for (std::size_t r = 0; r < d; ++r) hc(r, 0) = h(r, 0), hc(d + r, 0) = c(r, 0);
  return affine_q(l.readout, h, l.readout_bias);
}

QMat step_layer(const AttentionLayer&, QMat&, const QVec&) {
  throw std::logic_error("step_configuration: attention layers have no finite-state step");
}

// Canonical text of a list of rational matrices (shapes fixed per machine, so values suffice).
void append_key(std::string& key, const QMat& m) {
  for (const Rational& x : m.data()) {
    key += to_string(x);
    key += ',';
  }
  key += ';';
}

std::vector<std::string> strings(const QVec& y) {
  std::vector<std::string> out;
  for (const Rational& x : y) out.push_back(to_string(x));
  return out;
}

std::string too_many(std::size_t cap, const std::string& what) {
  return what + " reaches more than " + std::to_string(cap) +
         " configurations, so its reachable set may be infinite (a counter); the product "
         "search needs finitely many. For models linear in their state use the linear "
         "decider (`rnncc equiv --method linear`); otherwise `rnncc verify`'s testing methods";
}

}  // namespace

std::vector<std::size_t> FiniteMachine::word(std::size_t q) const {
  std::vector<std::size_t> w;
  for (; q != 0; q = parent[q]) w.push_back(symbol[q]);
  return std::vector<std::size_t>(w.rbegin(), w.rend());
}

Configuration initial_configuration(const Model& m) {
  refuse_attention(m);
  Configuration c;
  for (const StackLayer& sl : m.layers) {
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      c.push_back(l->initial_state);
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      c.push_back(e->initial_state);
    } else {
      const LstmLayer& s = std::get<LstmLayer>(sl.layer);
      QMat hc(2 * s.d, 1);
      for (std::size_t r = 0; r < s.d; ++r)
        hc(r, 0) = s.initial_hidden(r, 0), hc(s.d + r, 0) = s.initial_cell(r, 0);
      c.push_back(std::move(hc));
    }
  }
  return c;
}

Matrix<Rational> step_configuration(const Model& m, Configuration& c, std::size_t symbol) {
  QVec z(m.alphabet.size(), Rational(0));  // layer 1: one-hot x_t
  z.at(symbol) = 1;
  QMat y;
  for (std::size_t li = 0; li < m.layers.size(); ++li) {
    const StackLayer& sl = m.layers[li];
    if (sl.input) {  // z_t = W·vec(y_t) + b
      const InputMap& im = *sl.input;
      QVec nz(im.weights.rows(), Rational(0));
      for (std::size_t a = 0; a < im.weights.rows(); ++a) {
        Rational acc = im.bias.empty() ? Rational(0) : im.bias(a, 0);
        for (std::size_t b = 0; b < im.weights.cols(); ++b)
          if (im.weights(a, b) != 0) acc += im.weights(a, b) * y.data()[b];
        nz[a] = acc;
      }
      z = std::move(nz);
    }
    y = std::visit([&](const auto& l) { return step_layer(l, c[li], z); }, sl.layer);
    z = y.data();
  }
  return y;
}

FiniteMachine finite_machine(const Model& m, const FiniteMachineParams& params) {
  const Configuration start = initial_configuration(m);
  FiniteMachine fm;
  fm.symbols = m.alphabet.symbols();
  const Layer& top = m.layers.back().layer;
  fm.outputs = output_rows(top) * output_cols(top);
  // A state is (configuration, y_t); the start has no y, keyed apart by a leading marker.
  std::vector<Configuration> configs{start};
  std::string k0 = "start|";
  for (const QMat& s : start) append_key(k0, s);
  std::unordered_map<std::string, std::size_t> index{{k0, 0}};
  fm.output.emplace_back();
  fm.parent.push_back(0);
  fm.symbol.push_back(0);
  for (std::size_t q = 0; q < configs.size(); ++q) {
    fm.next.emplace_back();
    for (std::size_t s = 0; s < fm.symbols.size(); ++s) {
      Configuration c = configs[q];
      const QMat y = step_configuration(m, c, s);
      std::string key;
      append_key(key, y);
      key += '|';
      for (const QMat& x : c) append_key(key, x);
      auto [it, fresh] = index.emplace(std::move(key), configs.size());
      if (fresh) {
        if (configs.size() >= params.max_states)
          throw NotFiniteError(too_many(params.max_states, "the model"));
        configs.push_back(std::move(c));
        fm.output.push_back(y.data());
        fm.parent.push_back(q);
        fm.symbol.push_back(s);
      }
      fm.next[q].push_back(it->second);
    }
  }
  return fm;
}

FiniteMachine finite_machine(const Wfa& a, const FiniteMachineParams& params) {
  FiniteMachine fm;
  fm.symbols = a.alphabet.symbols();
  fm.outputs = 1;
  fm.start_has_output = true;
  const std::size_t n = a.states();
  auto out = [&](const QVec& v) {
    Rational y = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] != 0) y += v[i] * a.final[i];
    return QVec{y};
  };
  auto key = [](const QVec& v) {
    std::string k;
    for (const Rational& x : v) k += to_string(x) + ",";
    return k;
  };
  std::vector<QVec> vectors{a.initial};
  std::unordered_map<std::string, std::size_t> index{{key(a.initial), 0}};
  fm.output.push_back(out(a.initial));
  fm.parent.push_back(0);
  fm.symbol.push_back(0);
  for (std::size_t q = 0; q < vectors.size(); ++q) {
    fm.next.emplace_back();
    for (std::size_t s = 0; s < fm.symbols.size(); ++s) {
      QVec v(n, Rational(0));  // v·M_σ
      for (std::size_t i = 0; i < n; ++i)
        if (vectors[q][i] != 0)
          for (std::size_t j = 0; j < n; ++j)
            if (a.transition[s](i, j) != 0) v[j] += vectors[q][i] * a.transition[s](i, j);
      auto [it, fresh] = index.emplace(key(v), vectors.size());
      if (fresh) {
        if (vectors.size() >= params.max_states)
          throw NotFiniteError(too_many(params.max_states, "the WFA"));
        fm.output.push_back(out(v));
        vectors.push_back(std::move(v));
        fm.parent.push_back(q);
        fm.symbol.push_back(s);
      }
      fm.next[q].push_back(it->second);
    }
  }
  return fm;
}

FiniteMachine finite_machine(const std::variant<Model, Wfa>& s, const FiniteMachineParams& p) {
  return std::visit([&](const auto& x) { return finite_machine(x, p); }, s);
}

FiniteEquivalenceResult decide_finite_equivalence(const FiniteMachine& f, const FiniteMachine& g,
                                                  const FiniteEquivalenceParams& params) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  const auto t0 = std::chrono::steady_clock::now();
  FiniteEquivalenceResult res;
  res.states_f = f.states();
  res.states_g = g.states();
  const std::size_t S = f.symbols.size(), ng = g.states();
  // Visited pairs: parent pair index and symbol, so the word is rebuilt only when needed.
  struct Visit {
    std::size_t p, q, parent, symbol;
  };
  std::vector<Visit> visits{{0, 0, 0, 0}};
  std::unordered_map<std::size_t, std::size_t> seen{{0, 0}};  // p·|Q_g| + q → visit index
  auto finish = [&] {
    res.states_visited = visits.size();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto word = [&](std::size_t v) {
    std::vector<std::size_t> w;
    for (; v != 0; v = visits[v].parent) w.push_back(visits[v].symbol);
    return std::vector<std::size_t>(w.rbegin(), w.rend());
  };
  auto refute = [&](std::size_t v) {
    const std::vector<std::size_t> w = word(v);
    res.counterexample = EquivalenceCounterexample{w, w.size(), strings(f.output[visits[v].p]),
                                                   strings(g.output[visits[v].q])};
    finish();
    return res;
  };
  // The start pair's outputs are compared at ε only when both define y(ε); otherwise they are
  // compared when a nonempty word first re-enters the pair (the BFS-least such word), since
  // y(u) = output[0] there. Every other pair is compared when first reached.
  bool start_compared = f.start_has_output && g.start_has_output;
  if (start_compared && f.output[0] != g.output[0]) return refute(0);
  // The visit list is the BFS queue: pairs are appended in the order first reached.
  for (std::size_t head = 0; head < visits.size(); ++head) {
    const std::size_t p = visits[head].p, q = visits[head].q;
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t p2 = f.next[p][s], q2 = g.next[q][s];
      auto [it, fresh] = seen.emplace(p2 * ng + q2, visits.size());
      if (!fresh && it->second == 0 && !start_compared) {
        start_compared = true;
        if (f.output[p2] != g.output[q2]) {
          visits.push_back({p2, q2, head, s});
          return refute(visits.size() - 1);
        }
      }
      if (!fresh) continue;
      if (visits.size() >= params.max_pairs)
        throw InputError("", "the product search reaches more than " +
                                 std::to_string(params.max_pairs) + " pairs of states (" +
                                 std::to_string(f.states()) + " × " + std::to_string(g.states()) +
                                 " states)");
      visits.push_back({p2, q2, head, s});
      if (f.output[p2] != g.output[q2]) return refute(visits.size() - 1);
    }
  }
  res.equivalent = true;
  finish();
  return res;
}

std::optional<EquivalenceCounterexample> exhaustive_subject_counterexample(
    const std::variant<Model, Wfa>& f, const std::variant<Model, Wfa>& g, std::size_t max_length) {
  const RationalField k;
  auto last = [&](const std::variant<Model, Wfa>& s, const std::vector<std::size_t>& w) {
    if (const Wfa* a = std::get_if<Wfa>(&s)) return QVec{evaluate(*a, w)};
    return evaluate(std::get<Model>(s), k, w).outputs().back().data();
  };
  auto symbols = [](const std::variant<Model, Wfa>& s) {
    if (const Wfa* a = std::get_if<Wfa>(&s)) return a->alphabet.symbols();
    return std::get<Model>(s).alphabet.symbols();
  };
  if (symbols(f) != symbols(g)) throw InputError("", "the alphabets differ");
  if (std::holds_alternative<Wfa>(f) && std::holds_alternative<Wfa>(g)) {
    const QVec yf{evaluate(std::get<Wfa>(f), {})}, yg{evaluate(std::get<Wfa>(g), {})};
    if (yf != yg) return EquivalenceCounterexample{{}, 0, strings(yf), strings(yg)};
  }
  const std::size_t S = symbols(f).size();
  std::vector<std::vector<std::size_t>> layer{{}};
  for (std::size_t len = 1; len <= max_length; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : layer)
      for (std::size_t s = 0; s < S; ++s) {
        std::vector<std::size_t> w = u;
        w.push_back(s);
        const QVec yf = last(f, w), yg = last(g, w);
        if (yf != yg) return EquivalenceCounterexample{w, w.size(), strings(yf), strings(yg)};
        next.push_back(std::move(w));
      }
    layer = std::move(next);
  }
  return std::nullopt;
}

}  // namespace rnncc
