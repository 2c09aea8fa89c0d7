// Attention layers to circuits (attention.hpp states the constructions and their depth).
#include "circuits/compile/attention.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <variant>

#include "algebra/error.hpp"
#include "circuits/passes/inline.hpp"

namespace rnncc {

namespace {

const AttentionLayer& threshold_layer(const Model& model) {
  if (model.layers.size() != 1 || !std::holds_alternative<AttentionLayer>(model.layers[0].layer))
    throw InputError("model",
                     "the threshold route compiles a single attention layer reading the "
                     "one-hot input (hybrids compile through compile_attention_arith)");
  const auto& l = std::get<AttentionLayer>(model.layers[0].layer);
  if (l.kind != AttentionKind::unique_hard)
    throw InputError("layer 0", "is attention/" + to_string(l.kind) +
                                    "; the threshold route compiles unique_hard attention only");
  return l;
}

// The log-precision format of the threshold route (exact attention has no threshold circuit).
FixedFormat log_format(std::size_t n, const AttentionCompileOptions& o) {
  if (o.precision.exact())
    throw InputError("--precision", "attention compiles at log precision; use --precision log:C");
  return o.precision.format(n);
}

std::size_t visible_count(const AttentionLayer& l, std::size_t n) {
  return n - first_visible(l, n) + 1;
}

// Raw values (value · 2^F) of the per-symbol tables, computed with the domain's own rounding:
// an entry of W z + b on the one-hot z = e_σ is narrow(Ŵ[i][σ]·1̂ + b̂[i]·2^F).
struct SymbolTables {
  std::vector<std::vector<Integer>> q, k, v;  // [σ][i]
  Integer one;                                // raw of the domain's 1
};

SymbolTables symbol_tables(const AttentionLayer& l, const FixedPoint& fp, std::size_t S) {
  SymbolTables t;
  t.one = fp.one().raw;
  const unsigned F = fp.format().frac_bits;
  auto table = [&](const LinearMap& f) {
    std::vector<std::vector<Integer>> out(S);
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t i = 0; i < f.weights.rows(); ++i) {
        const Integer w = fp.from_rational(f.weights(i, s)).raw;
        const Integer b = fp.from_rational(f.bias(i, 0)).raw;
        out[s].push_back(fp.narrow({w * t.one + (b << F)}).raw);
      }
    return out;
  };
  t.q = table(l.query);
  t.k = table(l.key);
  t.v = table(l.value);
  return t;
}

std::int32_t to_int32(const Integer& r, const char* what) {
  if (r > INT32_MAX || r < -Integer(INT32_MAX))
    throw InputError("--precision", std::string("a raw ") + what + " " + r.str() +
                                        " exceeds the 32-bit weights of thr gates; lower the "
                                        "precision (I + F ≤ 30 always fits)");
  return static_cast<std::int32_t>(r);
}

}  // namespace

std::size_t estimate_unique_hard_threshold_gates(const Model& model, std::size_t n,
                                                 const AttentionCompileOptions& o) {
  const AttentionLayer& l = threshold_layer(model);
  const FixedFormat format = log_format(n, o);
  const std::size_t S = model.alphabet.size(), m = visible_count(l, n);
  const std::size_t w = format.int_bits + format.frac_bits + 1;
  const std::size_t rows = l.output_rows();
  return n * S + n * S * S + m * (m - 1) / 2 + m + 2 * m * rows * (w + 1) + rows * (w + 1) + 64;
}

CompiledCircuit compile_unique_hard_threshold(const Model& model, std::size_t n,
                                              const AttentionCompileOptions& o) {
  check_length(n);
  const AttentionLayer& l = threshold_layer(model);
  const std::size_t est = estimate_unique_hard_threshold_gates(model, n, o);
  o.budget.check(est);
  const FixedFormat format = log_format(n, o);
  const FixedPoint fp(format);
  const unsigned F = format.frac_bits;
  const std::size_t S = model.alphabet.size(), first = first_visible(l, n), m = n - first + 1;
  const std::size_t h = l.key_size(), r = l.value_size(), w = format.int_bits + F + 1;
  const SymbolTables tab = symbol_tables(l, fp, S);
  const Integer lambda = fp.from_rational(l.position_bias).raw;

  CompiledCircuit out;
  CircuitBuilder b;
  b.reserve(std::min<std::size_t>(est, std::size_t{1} << 26));
  detail::RegionRecorder rec{b, out.regions};
  rec.enter_at(RegionKind::input, 0, 0);
  const std::vector<std::vector<GateId>> x = one_hot_inputs(b, n, model.alphabet);

  // Scores: per visible s, the (p[s][σ][τ], R(σ,τ,s)) pairs with R ≠ 0.
  rec.enter_at(RegionKind::leaf, 0, 0);
  std::vector<std::vector<std::pair<GateId, std::int32_t>>> terms(m);
  for (std::size_t s = first; s <= n; ++s)
    for (std::size_t sg = 0; sg < S; ++sg)
      for (std::size_t tau = 0; tau < S; ++tau) {
        Integer acc = (lambda * static_cast<long>(s)) << F;
        for (std::size_t i = 0; i < h; ++i) acc += tab.q[sg][i] * tab.k[tau][i];
        const std::int32_t R = to_int32(fp.narrow({acc}).raw, "score");
        if (R == 0) continue;
        const std::array<GateId, 2> ops{x[n - 1][sg], x[s - 1][tau]};
        terms[s - first].emplace_back(b.and_(ops), R);
      }

  // c[s][s'] (s < s'): s beats s'. Created with raw(): every one is distinct and constant-free,
  // so hash-consing could only cost time (the p gates have fan-out m).
  rec.enter_at(RegionKind::combine, 0, 1);
  const std::int32_t theta = l.tie == TieRule::leftmost ? 0 : 1;
  std::vector<GateId> beats(m * m, kNoGate);  // beats[i·m + j], i < j (visible indices)
  std::vector<GateId> ops;
  std::vector<std::int32_t> ws;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j) {
      ops.clear();
      ws.clear();
      for (const auto& [g, R] : terms[i]) ops.push_back(g), ws.push_back(R);
      for (const auto& [g, R] : terms[j]) ops.push_back(g), ws.push_back(-R);
      beats[i * m + j] = ops.empty() ? b.constant(Rational(0 >= theta ? 1 : 0))
                                     : b.raw(GateKind::thr, ops, ws, theta);
    }
  // sel_s = [Σ_{j>i} c[i][j] − Σ_{j<i} c[j][i] ≥ #{j > i}].
  rec.enter_at(RegionKind::combine, 0, 2);
  std::vector<GateId> sel(m);
  for (std::size_t i = 0; i < m; ++i) {
    ops.clear();
    ws.clear();
    for (std::size_t j = 0; j < m; ++j)
      if (j != i) {
        ops.push_back(i < j ? beats[i * m + j] : beats[j * m + i]);
        ws.push_back(i < j ? 1 : -1);
      }
    sel[i] = ops.empty() ? b.constant(Rational(1))
                         : b.thr(ops, ws, static_cast<std::int32_t>(m - 1 - i));
  }

  // Output bits and acceptance.
  rec.enter_at(RegionKind::readout, 0, static_cast<std::uint32_t>(n));
  const Integer modulus = Integer(1) << w;
  auto twos = [&](const Integer& raw) { return raw < 0 ? Integer(raw + modulus) : raw; };
  auto bit = [](const Integer& u, std::size_t j) { return ((u >> j) & 1) != 0; };
  // The OR of x[s,τ] over the symbols τ for which pred(τ) holds.
  std::vector<GateId> tmp;
  auto select = [&](std::size_t s, auto&& pred) {
    tmp.clear();
    for (std::size_t tau = 0; tau < S; ++tau)
      if (pred(tau)) tmp.push_back(x[s - 1][tau]);
    return tmp.empty() ? b.constant(Rational(0)) : b.or_(tmp);
  };
  // OR_s (sel_s ∧ g_s).
  auto attend = [&](auto&& gate_of) {
    std::vector<GateId> any;
    for (std::size_t s = first; s <= n; ++s) {
      const std::array<GateId, 2> pair{sel[s - first], gate_of(s)};
      any.push_back(b.and_(pair));
    }
    return b.or_(any);
  };
  const std::size_t off = l.residual ? l.features : 0;
  std::vector<GateId> outputs;
  std::vector<std::string> names;
  const Integer one_u = twos(tab.one);
  for (std::size_t i = 0; i < off + r; ++i)
    for (std::size_t j = 0; j < w; ++j) {
      outputs.push_back(i < off ? (bit(one_u, j) ? x[n - 1][i] : b.constant(Rational(0)))
                                : attend([&](std::size_t s) {
                                    return select(s, [&](std::size_t tau) {
                                      return bit(twos(tab.v[tau][i - off]), j);
                                    });
                                  }));
      names.push_back("y[" + std::to_string(n) + "][" + std::to_string(i) + "][0].bit[" +
                      std::to_string(j) + "]");
    }
  if (o.acceptance) {
    rec.enter_at(RegionKind::accept, 0, static_cast<std::uint32_t>(n));
    const bool positive = model.accept.mode == Acceptance::Mode::positive;
    auto accepted = [&](const Integer& raw) { return positive ? raw > 0 : raw == 0; };
    const std::size_t row = model.accept.row;
    GateId acc;
    if (row < off)  // the residual x[n,row]: raw 1̂ > 0 or 0
      acc = positive ? x[n - 1][row] : b.not_(x[n - 1][row]);
    else
      acc = attend([&](std::size_t s) {
        return select(s, [&](std::size_t tau) { return accepted(tab.v[tau][row - off]); });
      });
    outputs.push_back(acc);
    names.push_back("accept");
  }
  out.combine_levels = 0;
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

// ---- hybrids to arithmetic circuits ---------------------------------------------------------

namespace {

const AttentionLayer& hybrid_layer(const Model& model) {
  if (model.layers.empty()) throw InputError("model", "expected at least one layer");
  for (std::size_t i = 0; i + 1 < model.layers.size(); ++i)
    if (!std::holds_alternative<LrnnLayer>(model.layers[i].layer))
      throw InputError("layer " + std::to_string(i),
                       "is " + layer_kind(model.layers[i].layer) +
                           "; compile_attention_arith compiles LRNN layers followed by one "
                           "attention layer");
  const std::size_t last = model.layers.size() - 1;
  const auto* l = std::get_if<AttentionLayer>(&model.layers[last].layer);
  if (!l)
    throw InputError("layer " + std::to_string(last),
                     "is " + layer_kind(model.layers[last].layer) +
                         "; compile_attention_arith needs an attention layer last");
  if (l->kind == AttentionKind::softmax)
    throw InputError("layer " + std::to_string(last),
                     "is attention/softmax, which has no exact semantics (exp is irrational); "
                     "only unique_hard and averaging_hard compile to arithmetic circuits");
  return *l;
}

Model lrnn_prefix(const Model& model) {
  Model m = model;
  m.layers.pop_back();
  return m;
}

// Σ_j c_j·g_j + base, zero coefficients skipped (the builder folds the rest).
GateId linear(CircuitBuilder& b, const Matrix<Rational>& W, std::size_t row,
              const std::vector<GateId>& g, const Rational& base) {
  std::vector<GateId> terms;
  for (std::size_t j = 0; j < g.size(); ++j)
    if (W(row, j) != 0) terms.push_back(b.mul(b.constant(W(row, j)), g[j]));
  if (base != 0) terms.push_back(b.constant(base));
  if (terms.empty()) return b.constant(Rational(0));
  return b.sum(terms);
}

}  // namespace

std::size_t estimate_attention_arith_gates(const Model& model, std::size_t n,
                                           const CompileOptions& o) {
  const AttentionLayer& l = hybrid_layer(model);
  const std::size_t k = l.features, h = l.key_size(), r = l.value_size();
  const std::size_t positions = o.outputs == OutputMode::all ? n : 1;
  std::size_t in = model.layers.size() > 1 ? model.layers.back().input->weights.cols() : 0;
  std::size_t total = n * k * (2 * in + 1) + n * (2 * h + r) * (2 * k + 1) + 64;
  for (std::size_t p = 0; p < positions; ++p) {
    const std::size_t t = o.outputs == OutputMode::all ? p + 1 : n;
    const std::size_t m = visible_count(l, t);
    total += h * (2 * k + 1) + m * (2 * h + 3) + m * (m - 1) * 3 + m + r * (2 * m + 1) + 4 * m + 8 +
             l.output_rows() + 2;
  }
  return total;
}

CompiledCircuit compile_attention_arith(const Model& model, std::size_t n,
                                        const CompileOptions& o) {
  check_length(n);
  const AttentionLayer& l = hybrid_layer(model);
  const Model prefix = lrnn_prefix(model);
  CompileOptions lo = o;
  lo.outputs = OutputMode::all;
  lo.acceptance = false;
  const std::size_t est = estimate_attention_arith_gates(model, n, o) +
                          (prefix.layers.empty() ? 0 : estimate_lrnn_gates(prefix, n, lo));
  o.budget.check(est);
  CompiledCircuit out;
  CircuitBuilder b;
  detail::RegionRecorder rec{b, out.regions};
  rec.enter_at(RegionKind::input, 0, 0);
  std::vector<std::vector<GateId>> z = one_hot_inputs(b, n, model.alphabet);
  std::vector<GateId> inputs;
  for (const auto& xt : z) inputs.insert(inputs.end(), xt.begin(), xt.end());
  const auto L = static_cast<std::uint32_t>(model.layers.size() - 1);
  if (!prefix.layers.empty()) {
    // The LRNN layers: compile_lrnn's circuit for every y_t, inlined on the same inputs (one
    // region: the scan's own regions are those of `rnncc compile` on the prefix).
    CompiledCircuit lrnn = compile_lrnn(prefix, n, lo);
    out.combine_levels = lrnn.combine_levels;
    rec.enter_at(RegionKind::combine, 0, 0);
    const std::vector<GateId> y = inline_circuit(b, lrnn.circuit, inputs);
    const std::size_t per = y.size() / n;  // r·m entries of y_t, row by row
    const InputMap& map = *model.layers.back().input;
    for (std::size_t t = 0; t < n; ++t) {
      rec.enter_at(RegionKind::input_map, L, static_cast<std::uint32_t>(t + 1));
      std::vector<GateId> v(y.begin() + static_cast<std::ptrdiff_t>(t * per),
                            y.begin() + static_cast<std::ptrdiff_t>((t + 1) * per));
      z[t].clear();
      for (std::size_t q = 0; q < map.weights.rows(); ++q)
        z[t].push_back(
            linear(b, map.weights, q, v, map.bias.empty() ? Rational(0) : map.bias(q, 0)));
    }
  }
  // Keys and values at every position.
  rec.enter_at(RegionKind::leaf, L, 0);
  const std::size_t h = l.key_size(), r = l.value_size();
  std::vector<std::vector<GateId>> key(n), val(n);
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t i = 0; i < h; ++i)
      key[t].push_back(linear(b, l.key.weights, i, z[t], l.key.bias(i, 0)));
    for (std::size_t i = 0; i < r; ++i)
      val[t].push_back(linear(b, l.value.weights, i, z[t], l.value.bias(i, 0)));
  }
  std::vector<GateId> outputs;
  std::vector<std::string> names;
  std::vector<GateId> y;
  const GateId one = b.constant(Rational(1));
  for (std::size_t t = 1; t <= n; ++t) {
    if (o.outputs == OutputMode::last && t != n) continue;
    rec.enter_at(RegionKind::readout, L, static_cast<std::uint32_t>(t));
    std::vector<GateId> q;
    for (std::size_t i = 0; i < h; ++i)
      q.push_back(linear(b, l.query.weights, i, z[t - 1], l.query.bias(i, 0)));
    const std::size_t first = first_visible(l, t), m = t - first + 1;
    std::vector<GateId> score(m), terms;
    for (std::size_t s = first; s <= t; ++s) {
      terms.clear();
      for (std::size_t i = 0; i < h; ++i) terms.push_back(b.mul(q[i], key[s - 1][i]));
      if (l.position_bias != 0)
        terms.push_back(b.constant(l.position_bias * Rational(static_cast<long>(s))));
      score[s - first] = terms.size() == 1 ? terms[0] : b.sum(terms);
    }
    // factors[i]: the indicators "i beats j" for every j ≠ i.
    std::vector<std::vector<GateId>> factors(m);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = i + 1; j < m; ++j) {
        // [score_j > score_i] and [score_i > score_j], built only where used.
        // The m(m−1)/2 differences are distinct, and every score is an operand of m − 1 of
        // them, so a hash-consing lookup would walk chains of length ~m: raw() appends them
        // directly (n = 4096: 8M comparisons), folding only when a score is a constant.
        auto diff = [&](GateId u, GateId v) {
          if (b.is_constant(u) || b.is_constant(v)) return b.sub(u, v);
          const std::array<GateId, 2> ops{u, v};
          return b.raw(GateKind::sub, ops);
        };
        auto later_gt = [&] { return b.positive(diff(score[j], score[i])); };
        auto earlier_gt = [&] { return b.positive(diff(score[i], score[j])); };
        if (l.kind == AttentionKind::averaging_hard) {  // i, j maximal among the two
          factors[i].push_back(b.sub(one, later_gt()));
          factors[j].push_back(b.sub(one, earlier_gt()));
        } else if (l.tie == TieRule::leftmost) {  // i wins ties
          const GateId g = later_gt();
          factors[i].push_back(b.sub(one, g));
          factors[j].push_back(g);
        } else {  // j (the later) wins ties: i beats j iff score_i > score_j
          const GateId g = earlier_gt();
          factors[i].push_back(g);
          factors[j].push_back(b.sub(one, g));
        }
      }
    std::vector<GateId> sel(m);
    for (std::size_t i = 0; i < m; ++i) sel[i] = factors[i].empty() ? one : b.product(factors[i]);
    std::vector<GateId> a(r);
    for (std::size_t c = 0; c < r; ++c) {
      terms.clear();
      for (std::size_t i = 0; i < m; ++i) terms.push_back(b.mul(sel[i], val[first + i - 1][c]));
      a[c] = b.sum(terms);
    }
    if (l.kind == AttentionKind::averaging_hard && m > 1) {
      // 1/|M| = Σ_{c=1}^{m} (1/c)·[Σ_s sel_s = c]
      const GateId count = b.sum(sel);
      terms.clear();
      for (std::size_t c = 1; c <= m; ++c)
        terms.push_back(b.mul(b.constant(Rational(1, static_cast<long>(c))),
                              b.is_zero(b.sub(count, b.constant(Rational(static_cast<long>(c)))))));
      const GateId inv = b.sum(terms);
      for (GateId& g : a) g = b.mul(g, inv);
    }
    y.clear();
    if (l.residual) y = z[t - 1];
    y.insert(y.end(), a.begin(), a.end());
    for (std::size_t i = 0; i < y.size(); ++i) {
      outputs.push_back(y[i]);
      names.push_back("y[" + std::to_string(t) + "][" + std::to_string(i) + "][0]");
    }
  }
  if (o.acceptance) {
    rec.enter_at(RegionKind::accept, L, static_cast<std::uint32_t>(n));
    const GateId v = y.at(model.accept.row);
    outputs.push_back(detail::acceptance_test(b, model.accept.mode, v));
    names.push_back("accept");
  }
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

}  // namespace rnncc
