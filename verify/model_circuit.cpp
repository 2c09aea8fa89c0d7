#include "verify/model_circuit.hpp"

#include <boost/integer/common_factor.hpp>

#include "rnn/attention.hpp"
#include "rnn/lrnn.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc::sat {

namespace {

Integer lcm(const Integer& a, const Integer& b) {
  return a / boost::multiprecision::gcd(a, b) * b;
}

void denominators(const Matrix<Rational>& m, Integer& D) {
  for (const Rational& x : m.data()) D = lcm(D, denominator(x));
}

using Lin = ModelCircuit::Lin;

Lin constant_lin(const Rational& v) {
  Lin l;
  l.constant = v;
  return l;
}

}  // namespace

ModelCircuit::ModelCircuit(const Model& model, WordBuilder& words) : model_(model), w_(words) {
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    const std::string where = "layer " + std::to_string(li) + " (" + layer_kind(sl.layer) + ")";
    if (sl.input) {
      denominators(sl.input->weights, D_);
      denominators(sl.input->bias, D_);
    } else if (li != 0) {
      throw SatUnsupported(where + ": a layer above the first without an input map");
    }
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      for (const auto& m : l->A) denominators(m, D_);
      for (const auto& m : l->B) denominators(m, D_);
      for (const auto& m : l->readout_feature) denominators(m, D_);
      denominators(l->readout, D_);
      denominators(l->readout_bias, D_);
      denominators(l->initial_state, D_);
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      if (e->activation != Activation::relu)
        throw SatUnsupported(where + ": only ReLU Elman layers are encoded");
      for (const auto* m :
           {&e->pre.W, &e->pre.U, &e->pre.bias, &e->initial_state, &e->readout, &e->readout_bias})
        denominators(*m, D_);
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      if (a->kind != AttentionKind::unique_hard)
        throw SatUnsupported(where + ": only unique-hard attention is encoded");
      for (const LinearMap* m : {&a->query, &a->key, &a->value}) {
        denominators(m->weights, D_);
        denominators(m->bias, D_);
      }
      D_ = lcm(D_, denominator(a->position_bias));
    } else {
      throw SatUnsupported(where +
                           ": not encoded (LRNN, ReLU Elman and unique-hard attention are)");
    }
  }
  for (const StackLayer& sl : model.layers) {
    std::vector<Lin> state;
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer))
      for (const Rational& x : l->initial_state.data()) state.push_back(constant_lin(x));
    if (const auto* e = std::get_if<ElmanLayer>(&sl.layer))
      for (const Rational& x : e->initial_state.data()) state.push_back(constant_lin(x));
    state_.push_back(std::move(state));
  }
  keys_.resize(model.layers.size());
  values_.resize(model.layers.size());
}

std::string ModelCircuit::key(const Lin& v) {
  std::string k = to_string(v.constant);
  for (const auto& [id, c] : v.terms) k += "|" + std::to_string(id) + ":" + to_string(c);
  return k;
}

Lin ModelCircuit::atom(Word w) {
  if (w.constant()) return constant_lin(Rational(w.lo) / Rational(D_));
  atoms_.push_back(std::move(w));
  Lin l;
  l.terms[atoms_.size() - 1] = 1;
  return l;
}

Word ModelCircuit::materialize(const Lin& v) {
  const std::string k = key(v);
  if (const auto it = materialized_.find(k); it != materialized_.end()) return it->second;
  Integer q = 1;
  for (const auto& [id, c] : v.terms) q = lcm(q, denominator(c));
  // Σ (c·q)·atom + constant·D·q, then divided by q exactly.
  Word acc = w_.constant(numerator(v.constant * Rational(D_) * Rational(q)));
  for (const auto& [id, c] : v.terms)
    acc = w_.add(acc, w_.mul_const(atoms_[id], numerator(c * Rational(q))));
  Word out = w_.div_exact(acc, q);
  materialized_.emplace(k, out);
  return out;
}

Lin ModelCircuit::combine(const std::vector<std::pair<Rational, const Lin*>>& terms,
                          const Rational& c) {
  Lin out = constant_lin(c);
  for (const auto& [coef, x] : terms) {
    if (coef == 0) continue;
    out.constant += coef * x->constant;
    for (const auto& [id, k] : x->terms) {
      Rational& r = out.terms[id];
      r += coef * k;
      if (r == 0) out.terms.erase(id);
    }
  }
  return out;
}

Lin ModelCircuit::times(const Lin& a, const Lin& b) {
  if (a.terms.empty()) return combine({{a.constant, &b}}, 0);
  if (b.terms.empty()) return combine({{b.constant, &a}}, 0);
  return atom(w_.div_exact(w_.mul(materialize(a), materialize(b)), D_));
}

Lin ModelCircuit::select(const std::vector<Lit>& selectors, const std::vector<Lin>& values) {
  std::vector<Lit> sel;
  std::vector<const Lin*> vals;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (selectors[k] != kFalse) {
      sel.push_back(selectors[k]);
      vals.push_back(&values[k]);
    }
  if (vals.empty()) return constant_lin(0);  // no symbol possible: nothing to compute
  bool same = true;
  for (const Lin* v : vals) same = same && *v == *vals.front();
  if (same) return *vals.front();
  std::string k;
  for (std::size_t i = 0; i < sel.size(); ++i)
    k += std::to_string(sel[i]) + "=" + key(*vals[i]) + ";";
  if (const auto it = selections_.find(k); it != selections_.end()) {
    Lin l;
    l.terms[it->second] = 1;
    return l;
  }
  std::vector<Word> ws;
  for (const Lin* v : vals) ws.push_back(materialize(*v));
  Lin l = atom(w_.select(sel, ws));
  if (l.terms.size() == 1) selections_.emplace(k, l.terms.begin()->first);
  return l;
}

std::vector<Word> ModelCircuit::step(const std::vector<Lit>& one_hot) {
  ++t_;
  std::vector<Lin> z;  // the layer's input (layer ≥ 2)
  std::vector<Lin> y;  // the layer's output, row-major
  auto one_hot_lins = [&] {
    std::vector<Lin> x;
    for (Lit b : one_hot)
      x.push_back(b == kTrue    ? constant_lin(1)
                  : b == kFalse ? constant_lin(0)
                                : atom(w_.mul_const(w_.from_bit(b), D_)));
    return x;
  };
  for (std::size_t li = 0; li < model_.layers.size(); ++li) {
    const StackLayer& sl = model_.layers[li];
    const bool first = !sl.input;
    if (sl.input) {  // z = W vec(y) + b
      const InputMap& in = *sl.input;
      std::vector<Lin> nz;
      for (std::size_t i = 0; i < in.weights.rows(); ++i) {
        std::vector<std::pair<Rational, const Lin*>> terms;
        for (std::size_t j = 0; j < in.weights.cols(); ++j)
          terms.push_back({in.weights(i, j), &y[j]});
        nz.push_back(combine(terms, in.bias.rows() ? in.bias(i, 0) : Rational(0)));
      }
      z = std::move(nz);
    }
    std::vector<Lin> out;
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      std::vector<Lin>& S = state_[li];
      const std::size_t d = l->d, m = l->m;
      // M (rows×d) · S (d×m) + bias (rows×m).
      auto affine = [&](const Matrix<Rational>& M, std::size_t rows, const Matrix<Rational>* bias) {
        std::vector<Lin> r;
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t c = 0; c < m; ++c) {
            std::vector<std::pair<Rational, const Lin*>> terms;
            for (std::size_t j = 0; j < d; ++j) terms.push_back({M(i, j), &S[j * m + c]});
            r.push_back(combine(terms, bias && bias->rows() ? (*bias)(i, c) : Rational(0)));
          }
        return r;
      };
      const std::size_t rr = l->readout.rows();
      if (first) {  // a selection among the symbols' affine maps
        std::vector<std::vector<Lin>> cand(l->features);
        for (std::size_t f = 0; f < l->features; ++f)
          if (one_hot[f] != kFalse) cand[f] = affine(l->A[f], d, &l->B[f]);
        auto pick = [&](const std::vector<std::vector<Lin>>& per_symbol, std::size_t size) {
          std::vector<Lin> r;
          for (std::size_t e = 0; e < size; ++e) {
            std::vector<Lin> vs(l->features);
            for (std::size_t f = 0; f < l->features; ++f)
              if (one_hot[f] != kFalse) vs[f] = per_symbol[f][e];
            r.push_back(select(one_hot, vs));
          }
          return r;
        };
        S = pick(cand, d * m);
        if (l->readout_feature.empty()) {
          out = affine(l->readout, rr, &l->readout_bias);
        } else {
          std::vector<std::vector<Lin>> ys(l->features);
          for (std::size_t f = 0; f < l->features; ++f)
            if (one_hot[f] != kFalse) {
              Matrix<Rational> c = l->readout;
              for (std::size_t i = 0; i < c.rows(); ++i)
                for (std::size_t j = 0; j < c.cols(); ++j) c(i, j) += l->readout_feature[f](i, j);
              ys[f] = affine(c, rr, &l->readout_bias);
            }
          out = pick(ys, rr * m);
        }
      } else {  // A(z)S + B(z) = Σ_k z_k·(A_k S) + Σ_k z_k B_k
        std::vector<Lin> next(d * m);
        for (std::size_t f = 0; f < l->features; ++f) {
          bool a_zero = true, b_zero = true;
          for (const Rational& x : l->A[f].data()) a_zero = a_zero && x == 0;
          for (const Rational& x : l->B[f].data()) b_zero = b_zero && x == 0;
          if (!a_zero) {
            const std::vector<Lin> AS = affine(l->A[f], d, nullptr);
            for (std::size_t e = 0; e < d * m; ++e) {
              const Lin p = times(z[f], AS[e]);
              next[e] = combine({{1, &next[e]}, {1, &p}}, 0);
            }
          }
          if (!b_zero)
            for (std::size_t e = 0; e < d * m; ++e)
              next[e] = combine({{1, &next[e]}, {l->B[f].data()[e], &z[f]}}, 0);
        }
        S = std::move(next);
        out = affine(l->readout, rr, &l->readout_bias);
        for (std::size_t f = 0; f < l->readout_feature.size(); ++f) {
          const std::vector<Lin> CS = affine(l->readout_feature[f], rr, nullptr);
          for (std::size_t e = 0; e < rr * m; ++e) {
            const Lin p = times(z[f], CS[e]);
            out[e] = combine({{1, &out[e]}, {1, &p}}, 0);
          }
        }
      }
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      if (first) z = one_hot_lins();
      std::vector<Lin>& h = state_[li];
      std::vector<Lin> next;
      for (std::size_t i = 0; i < e->d; ++i) {
        std::vector<std::pair<Rational, const Lin*>> terms;
        for (std::size_t j = 0; j < e->d; ++j) terms.push_back({e->pre.W(i, j), &h[j]});
        for (std::size_t j = 0; j < e->features; ++j) terms.push_back({e->pre.U(i, j), &z[j]});
        const Lin pre = combine(terms, e->pre.bias(i, 0));
        next.push_back(pre.terms.empty()
                           ? constant_lin(pre.constant > 0 ? pre.constant : Rational(0))
                           : atom(w_.relu(materialize(pre))));
      }
      h = std::move(next);
      for (std::size_t i = 0; i < e->readout.rows(); ++i) {
        std::vector<std::pair<Rational, const Lin*>> terms;
        for (std::size_t j = 0; j < e->d; ++j) terms.push_back({e->readout(i, j), &h[j]});
        out.push_back(combine(terms, e->readout_bias.rows() ? e->readout_bias(i, 0) : Rational(0)));
      }
    } else if (const auto* a = std::get_if<AttentionLayer>(&sl.layer)) {
      if (first) z = one_hot_lins();
      auto project = [&](const LinearMap& f) {
        std::vector<Lin> r;
        for (std::size_t i = 0; i < f.weights.rows(); ++i) {
          std::vector<std::pair<Rational, const Lin*>> terms;
          for (std::size_t j = 0; j < f.weights.cols(); ++j)
            terms.push_back({f.weights(i, j), &z[j]});
          r.push_back(combine(terms, f.bias(i, 0)));
        }
        return r;
      };
      const std::vector<Lin> q = project(a->query);
      keys_[li].push_back(project(a->key));
      values_[li].push_back(project(a->value));
      // The running argmax over the visible positions: rightmost ties take s on ≥, leftmost on >.
      std::optional<Word> best;
      std::vector<Lin> picked;
      for (std::size_t s = first_visible(*a, t_); s <= t_; ++s) {
        const auto& k = keys_[li][s - 1];
        std::vector<Lin> products;
        for (std::size_t i = 0; i < q.size(); ++i) products.push_back(times(q[i], k[i]));
        std::vector<std::pair<Rational, const Lin*>> terms;
        for (const Lin& p : products) terms.push_back({1, &p});
        const Word score =
            materialize(combine(terms, a->position_bias * Rational(static_cast<long>(s))));
        if (!best) {
          best = score;
          picked = values_[li][s - 1];
          continue;
        }
        const Lit take =
            a->tie == TieRule::rightmost ? negate(w_.less(score, *best)) : w_.less(*best, score);
        best = w_.mux(take, score, *best);
        for (std::size_t i = 0; i < picked.size(); ++i)
          picked[i] = select({take, negate(take)}, {values_[li][s - 1][i], picked[i]});
      }
      if (a->residual) out = z;
      for (const Lin& v : picked) out.push_back(v);
    }
    y = std::move(out);
  }
  std::vector<Word> result;
  for (const Lin& v : y) result.push_back(materialize(v));
  return result;
}

}  // namespace rnncc::sat
