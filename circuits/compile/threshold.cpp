// Time-invariant LRNNs to constant-depth threshold circuits (threshold.hpp states the
// convolution form and the number semantics; circuits/arith/iterated_addition.hpp the sum it is
// built from).
#include "circuits/compile/threshold.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <variant>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

const LrnnLayer& checked_layer(const Model& model, std::size_t n) {
  check_length(n);
  const LrnnLayer* l = &threshold_lrnn_layer(model, "the threshold compiler");
  const std::size_t S = model.alphabet.size();
  for (std::size_t s = 1; s < S; ++s)
    if (!(l->A[s] == l->A[0])) {
      std::string entry;
      for (std::size_t i = 0; i < l->d && entry.empty(); ++i)
        for (std::size_t j = 0; j < l->d; ++j)
          if (l->A[s](i, j) != l->A[0](i, j)) {
            entry = "entry [" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                    to_string(l->A[s](i, j)) + ", not " + to_string(l->A[0](i, j));
            break;
          }
      throw InputError("layer 0", "A of symbol '" + model.alphabet.symbol(s) +
                                      "' differs from A of symbol '" + model.alphabet.symbol(0) +
                                      "' (" + entry +
                                      "): the threshold compiler needs a time-invariant "
                                      "transition, the same A for every symbol");
    }
  if (model.accept.row >= l->readout.rows() || model.accept.col >= l->m)
    throw InputError("accept", "entry [" + std::to_string(model.accept.row) + "][" +
                                   std::to_string(model.accept.col) + "] is outside the " +
                                   std::to_string(l->readout.rows()) + "×" + std::to_string(l->m) +
                                   " output");
  return *l;
}

unsigned frac_bits_for(const ThresholdOptions& o, std::size_t n) {
  return o.precision.format(n).frac_bits;
}

Rational bias_entry(const LrnnLayer& l, const Acceptance& a) {
  return l.readout_bias.empty() ? Rational(0) : l.readout_bias(a.row, a.col);
}

// Scales the rational K's and y⁰ to integers (exact: by the lcm D of the denominators; log: by
// 2^F with one rounding each).
void scale_form(const ThresholdOptions& o, std::size_t n, const std::vector<Rational>& K,
                const Rational& y0, std::vector<Integer>& weights, Integer& constant,
                Integer& scale, unsigned& F) {
  weights.clear();
  if (o.precision.exact()) {
    Integer D = denominator(y0);
    for (const Rational& k : K) D = boost::multiprecision::lcm(D, denominator(k));
    for (const Rational& k : K) weights.push_back(numerator(k) * (D / denominator(k)));
    constant = numerator(y0) * (D / denominator(y0));
    scale = D;
    F = 0;
  } else {
    F = frac_bits_for(o, n);
    scale = Integer(1) << F;
    for (const Rational& k : K)
      weights.push_back(round_rational(k * Rational(scale), o.precision.rounding));
    constant = round_rational(y0 * Rational(scale), o.precision.rounding);
  }
}

}  // namespace

const LrnnLayer& threshold_lrnn_layer(const Model& model, const std::string& compiler) {
  if (model.layers.size() != 1)
    throw InputError("layers", compiler + " takes exactly one layer, got " +
                                   std::to_string(model.layers.size()));
  const StackLayer& sl = model.layers[0];
  const auto* l = std::get_if<LrnnLayer>(&sl.layer);
  if (!l)
    throw InputError("layer 0",
                     "is " + layer_kind(sl.layer) + "; " + compiler + " takes an LRNN layer");
  if (sl.input) throw InputError("layer 0", "has an input map; expected the one-hot input");
  const std::size_t S = model.alphabet.size();
  if (S == 0 || l->features != S || l->A.size() != S || l->B.size() != S)
    throw InputError("layer 0",
                     "expected one A and one B per symbol (|Σ| = " + std::to_string(S) + ")");
  if (!l->readout_feature.empty())
    throw InputError("layer 0",
                     "has per-symbol readouts C_k: y_t then depends on x_t beyond the "
                     "convolution form; " +
                         compiler + " needs a token-independent C");
  return *l;
}

ConvolutionForm convolution_form(const Model& model, std::size_t n,
                                 const ThresholdOptions& options) {
  const LrnnLayer& l = checked_layer(model, n);
  const std::size_t S = model.alphabet.size(), d = l.d, row = model.accept.row,
                    col = model.accept.col;
  // u = row `row` of C·A^j, j = 0, 1, …: K_{j,σ} = u·B_σ[:, col].
  std::vector<Rational> u(d), next(d);
  for (std::size_t i = 0; i < d; ++i) u[i] = l.readout(row, i);
  std::vector<Rational> K(n * S);  // K[(t−1)·S + σ] = K_{n−t,σ}
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t t = n - j;  // position t carries K_{n−t}
    for (std::size_t s = 0; s < S; ++s) {
      Rational acc = 0;
      for (std::size_t i = 0; i < d; ++i)
        if (u[i] != 0) acc += u[i] * l.B[s](i, col);
      K[(t - 1) * S + s] = acc;
    }
    for (std::size_t c = 0; c < d; ++c) {
      Rational acc = 0;
      for (std::size_t i = 0; i < d; ++i)
        if (u[i] != 0) acc += u[i] * l.A[0](i, c);
      next[c] = acc;
    }
    std::swap(u, next);
  }
  Rational y0 = bias_entry(l, model.accept);
  for (std::size_t i = 0; i < d; ++i) y0 += u[i] * l.initial_state(i, col);
  ConvolutionForm f;
  f.n = n;
  f.symbols = S;
  f.accept = model.accept;
  scale_form(options, n, K, y0, f.weights, f.constant, f.scale, f.frac_bits);
  return f;
}

namespace {

// Acceptance as thr gates over the inputs, when Σ|w| + |θ| fits the int32 limit.
bool accept_fits(const ConvolutionForm& f) {
  Integer total = boost::multiprecision::abs(f.constant) + 1;
  for (const Integer& w : f.weights) total += boost::multiprecision::abs(w);
  return total <= kThrLimit;
}

ThresholdEstimate estimate_form(const ConvolutionForm& f, const ThresholdOptions& o) {
  ThresholdEstimate e;
  const SumSize s = estimate_iterated_sum(f.weights, f.constant, 0, o.sum);
  e.width = s.width;
  e.gates = f.weights.size() + s.gates;
  e.wires = s.wires;
  e.depth = iterated_sum_depth_bound(o.sum, s);
  if (o.acceptance) {
    e.accept_direct = accept_fits(f);
    if (e.accept_direct) {
      const bool zero = f.accept.mode == Acceptance::Mode::zero;
      e.gates += zero ? 3 : 1;
      e.wires += (zero ? 2 : 1) * f.weights.size() + (zero ? 2 : 0);
      e.depth = std::max<std::size_t>(e.depth, zero ? 2 : 1);
    } else {
      e.gates += 1;
      e.wires += s.width;
      e.depth += 1;
    }
  }
  return e;
}

}  // namespace

ThresholdEstimate estimate_time_invariant_threshold_size(const Model& model, std::size_t n,
                                                         const ThresholdOptions& options) {
  return estimate_form(convolution_form(model, n, options), options);
}

ThresholdDepthBound time_invariant_threshold_depth_bound(const Model& model, std::size_t n,
                                                         const ThresholdOptions& options) {
  ThresholdDepthBound b;
  b.at_n = estimate_time_invariant_threshold_size(model, n, options).depth;
  const std::size_t L2 = 2 * options.sum.levels;
  b.limit = L2 + 4 + (options.acceptance ? 1 : 0);
  b.stages = "iterated sum " + std::to_string(L2) + " + its adder 4" +
             (options.acceptance ? " + accept 1" : "");
  return b;
}

std::size_t estimate_time_invariant_threshold_gates(const Model& model, std::size_t n,
                                                    const ThresholdOptions& options) {
  return estimate_time_invariant_threshold_size(model, n, options).gates;
}

CompiledCircuit compile_time_invariant_threshold(const Model& model, std::size_t n,
                                                 const ThresholdOptions& options) {
  const ConvolutionForm f = convolution_form(model, n, options);
  const ThresholdEstimate e = estimate_form(f, options);
  options.budget.check(e.gates, std::to_string(e.wires) + " wires");
  if (e.wires > options.max_wires)
    throw InputError("--max-gates", "the circuit would have about " + std::to_string(e.gates) +
                                        " gates (" + std::to_string(e.wires) +
                                        " wires), more than the limit of " +
                                        std::to_string(options.max_wires) + " wires");
  CompiledCircuit cc;
  CircuitBuilder b;
  b.reserve(e.gates);
  const std::size_t S = f.symbols;
  cc.regions.push_back(Region{RegionKind::input, 0});
  std::vector<WeightedBit> terms;
  std::vector<GateId> inputs;
  const std::vector<std::vector<GateId>> x = one_hot_inputs(b, n, model.alphabet);
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t s = 0; s < S; ++s) {
      inputs.push_back(x[t][s]);
      terms.push_back({x[t][s], f.weights[t * S + s]});
    }
  cc.regions.push_back(Region{RegionKind::combine, static_cast<std::uint32_t>(b.size())});
  const SumWord word = iterated_sum(b, terms, f.constant, 0, options.sum);
  std::vector<GateId> outs = word.bits;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < word.bits.size(); ++k)
    names.push_back("y.b[" + std::to_string(k) + "]");
  if (options.acceptance) {
    cc.regions.push_back(Region{RegionKind::accept, static_cast<std::uint32_t>(b.size())});
    const bool zero = f.accept.mode == Acceptance::Mode::zero;
    GateId acc;
    if (e.accept_direct) {
      // positive: [Σ w·x ≥ 1 − c]; zero: [Σ w·x ≥ −c] ∧ [Σ −w·x ≥ c].
      std::vector<std::int32_t> w, negw;
      for (const Integer& v : f.weights) {
        w.push_back(v.convert_to<std::int32_t>());
        negw.push_back(-w.back());
      }
      const std::int32_t c = f.constant.convert_to<std::int32_t>();
      if (!zero) {
        acc = b.thr(inputs, w, 1 - c);
      } else {
        const GateId ge = b.thr(inputs, w, -c), le = b.thr(inputs, negw, c);
        const GateId both[] = {ge, le};
        acc = b.and_(both);
      }
    } else {
      // From the word: positive = [Σ_{k<W−1} b_k − (W−1)·sign ≥ 1]; zero = [Σ −b_k ≥ 0].
      const std::size_t W = word.width();
      std::vector<std::int32_t> w;
      for (std::size_t k = 0; k < W; ++k)
        w.push_back(zero ? -1 : (k + 1 < W ? 1 : -static_cast<std::int32_t>(W - 1)));
      acc = b.thr(word.bits, w, zero ? 0 : 1);
    }
    outs.push_back(acc);
    names.push_back("accept");
  }
  cc.combine_levels = options.sum.levels;
  detail::finish_compiled(cc, b, std::move(outs), std::move(names));
  return cc;
}

ConvolutionValue evaluate_convolution(const Model& model, std::span<const std::size_t> w,
                                      const ThresholdOptions& options) {
  const std::size_t n = w.size();
  const LrnnLayer& l = checked_layer(model, n);
  const std::size_t S = model.alphabet.size(), d = l.d, row = model.accept.row,
                    col = model.accept.col;
  for (std::size_t s : w)
    if (s >= S)
      throw std::out_of_range("symbol id " + std::to_string(s) +
                              " is not below |Σ| = " + std::to_string(S));
  // Powers P_j = A^j by repeated matrix products; K_{j,σ} = (C·P_j·B_σ)[row][col].
  auto mul = [&](const Matrix<Rational>& a, const Matrix<Rational>& b) {
    Matrix<Rational> c(a.rows(), b.cols(), Rational(0));
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t k = 0; k < a.cols(); ++k)
        if (a(i, k) != 0)
          for (std::size_t j = 0; j < b.cols(); ++j) c(i, j) += a(i, k) * b(k, j);
    return c;
  };
  auto entry = [&](const Matrix<Rational>& P, const Matrix<Rational>& right) {
    Rational acc = 0;
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t c = 0; c < d; ++c) acc += l.readout(row, a) * P(a, c) * right(c, col);
    return acc;
  };
  Matrix<Rational> P(d, d, Rational(0));
  for (std::size_t i = 0; i < d; ++i) P(i, i) = 1;
  std::vector<std::vector<Rational>> K(n, std::vector<Rational>(S));  // K[j][σ]
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t s = 0; s < S; ++s) K[j][s] = entry(P, l.B[s]);
    P = mul(l.A[0], P);
  }
  const Rational y0 = entry(P, l.initial_state) + bias_entry(l, model.accept);
  ConvolutionValue v;
  if (options.precision.exact()) {
    Integer D = denominator(y0);
    for (const auto& row_k : K)
      for (const Rational& k : row_k) D = boost::multiprecision::lcm(D, denominator(k));
    Rational y = y0;
    for (std::size_t t = 1; t <= n; ++t) y += K[n - t][w[t - 1]];
    v.scale = D;
    v.value = y;
    const Rational scaled = y * Rational(D);
    v.scaled = numerator(scaled);  // an integer: D clears every denominator
  } else {
    const unsigned F = frac_bits_for(options, n);
    v.scale = Integer(1) << F;
    const Rational s(v.scale);
    v.scaled = round_rational(y0 * s, options.precision.rounding);
    for (std::size_t t = 1; t <= n; ++t)
      v.scaled += round_rational(K[n - t][w[t - 1]] * s, options.precision.rounding);
    v.value = Rational(v.scaled, v.scale);
  }
  v.accepted = model.accept.mode == Acceptance::Mode::positive ? v.scaled > 0 : v.scaled == 0;
  return v;
}

}  // namespace rnncc
