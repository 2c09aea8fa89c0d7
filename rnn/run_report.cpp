#include "rnn/run_report.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/memory.hpp"
#include "algebra/modp.hpp"
#include "algebra/saturating.hpp"
#include "rnn/evaluate.hpp"

namespace rnncc {

namespace {

template <Domain K>
TextMatrix text(const K& k, const Matrix<typename K::Element>& m) {
  TextMatrix out(m.rows());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) out[i].push_back(k.to_string(m(i, j)));
  return out;
}

BitGrowth bits_of(const Trace<RationalField>& trace, std::size_t t) {
  BitGrowth g;
  for (const auto& layer : trace.layers)
    for (const Rational& q : layer.states[t].data()) {
      g.numerator_bits = std::max(g.numerator_bits, bit_length(numerator(q)));
      g.denominator_bits = std::max(g.denominator_bits, bit_length(denominator(q)));
    }
  return g;
}

template <Domain K>
RunReport report(const Model& model, const K& k, const std::vector<std::size_t>& ids,
                 std::string input) {
  Trace<K> trace = evaluate(model, k, ids);
  RunReport r;
  r.input = std::move(input);
  r.semantics = k.name();
  for (std::size_t t = 0; t < ids.size(); ++t) {
    PositionReport p;
    p.position = t + 1;
    p.symbol = model.alphabet.symbol(ids[t]);
    p.output = text(k, trace.outputs()[t]);
    p.accept = accepts(model.accept, k, trace.outputs()[t]);
    for (const auto& layer : trace.layers) {
      p.states.push_back(text(k, layer.states[t]));
      p.attended.push_back(layer.attended.empty()
                               ? std::nullopt
                               : std::optional<std::vector<std::size_t>>(layer.attended[t]));
    }
    if constexpr (std::is_same_v<K, RationalField>) p.bits = bits_of(trace, t);
    r.positions.push_back(std::move(p));
  }
  if constexpr (std::is_same_v<K, RationalField>) {
    BitGrowth m;
    for (const auto& p : r.positions) {
      m.numerator_bits = std::max(m.numerator_bits, p.bits->numerator_bits);
      m.denominator_bits = std::max(m.denominator_bits, p.bits->denominator_bits);
    }
    r.max_bits = m;
  }
  r.accepted = r.positions.back().accept;
  return r;
}

std::string show(const TextMatrix& m) {
  if (m.size() == 1 && m[0].size() == 1) return m[0][0];
  std::string out;
  if (!m.empty() && m[0].size() == 1) {  // a column: (a, b, c)
    for (std::size_t i = 0; i < m.size(); ++i) out += (i ? ", " : "") + m[i][0];
    return "(" + out + ")";
  }
  for (std::size_t i = 0; i < m.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t j = 0; j < m[i].size(); ++j) out += (j ? ", " : "") + m[i][j];
    out += "]";
  }
  return "[" + out + "]";
}

std::string verdict(const std::optional<bool>& a) {
  return !a ? "undefined" : *a ? "accepted" : "rejected";
}

}  // namespace

namespace {

// Σ_{t=1}^{n} min(t, w): the positions attention scores over n positions.
std::uint64_t visible_positions(std::uint64_t n, std::optional<std::size_t> window) {
  auto triangle = [](std::uint64_t m) {
    return saturating_mul(m % 2 == 0 ? m / 2 : m, m % 2 == 0 ? m + 1 : (m + 1) / 2);
  };
  if (!window || *window >= n) return triangle(n);
  return saturating_add(triangle(*window), saturating_mul(n - *window, *window));
}

}  // namespace

std::uint64_t estimate_evaluation_work(const Model& model, std::uint64_t n) {
  std::uint64_t per_position = 0, quadratic = 0;
  auto add = [&](std::uint64_t x) { per_position = saturating_add(per_position, x); };
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const StackLayer& sl = model.layers[li];
    if (sl.input) add(saturating_mul(sl.input->weights.rows(), sl.input->weights.cols()));
    const bool one_hot = li == 0 && !sl.input;
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
      const std::uint64_t d = l->d, m = l->m, r = l->readout.rows(), f = l->features;
      const std::uint64_t used = one_hot ? 1 : f;  // features combined a position
      const bool diagonal = detail::diagonal_family(l->family);
      const std::uint64_t a = diagonal ? d : saturating_mul(d, d);         // entries of A(z)
      add(saturating_add(f, saturating_mul(used, a)));                     // combine A
      add(saturating_add(f, saturating_mul(used, saturating_mul(d, m))));  // combine B
      add(diagonal ? saturating_mul(d, m) : saturating_mul(a, m));         // A(z)·S
      if (!l->readout_feature.empty())
        add(saturating_add(f, saturating_mul(used, saturating_mul(r, d))));  // combine C
      add(saturating_mul(saturating_mul(r, d), m));                          // C·S
    } else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer)) {
      add(saturating_add(saturating_mul(e->d, e->d + e->features),
                         saturating_mul(e->readout.rows(), e->d)));
    } else if (const auto* s = std::get_if<LstmLayer>(&sl.layer)) {
      add(saturating_add(saturating_mul(4 * s->d, s->d + s->features),
                         3 * s->d + saturating_mul(s->readout.rows(), s->d)));
    } else if (const auto* at = std::get_if<AttentionLayer>(&sl.layer)) {
      add(saturating_mul(at->features, 2 * at->key_size() + at->value_size()));
      std::uint64_t score = at->key_size() + 3;
      if (at->kind != AttentionKind::unique_hard) score += at->value_size() + 1;
      quadratic =
          saturating_add(quadratic, saturating_mul(score, visible_positions(n, at->window)));
    }
  }
  return saturating_add(quadratic, saturating_mul(per_position, n));
}

namespace {

double log2_add(double a, double b) {  // log₂(2^a + 2^b); −1e300 stands for log₂ 0
  if (a < -1e299) return b;
  if (b < -1e299) return a;
  const double hi = std::max(a, b), lo = std::min(a, b);
  return hi + std::log2(1 + std::exp2(lo - hi));
}

// log₂ of the largest |entry| (−∞ as a very negative number for 0).
// log₂ of |x| rounded up from its bits: ⌈log₂|p/q|⌉ ≤ bits(p) − bits(q) + 1. Entries are read in
// place (numerator_bits, denominator_bits): a d = 1024 layer has two million of them.
double log2_bound(const Rational& x) {
  return static_cast<double>(numerator_bits(x)) - static_cast<double>(denominator_bits(x)) + 1.0;
}

double log2_abs_max(const std::vector<const Matrix<Rational>*>& ms) {
  double best = -1e300;
  for (const Matrix<Rational>* m : ms)
    for (const Rational& x : m->data())
      if (x.sign() != 0) best = std::max(best, log2_bound(x));
  return best;
}

// log₂ of the ∞-norm (largest row sum of |entries|) of m, an upper bound.
double log2_row_norm(const Matrix<Rational>& m) {
  double best = -1e300;
  for (std::size_t i = 0; i < m.rows(); ++i) {
    double row = -1e300;
    for (std::size_t j = 0; j < m.cols(); ++j)
      if (m(i, j).sign() != 0) row = log2_add(row, log2_bound(m(i, j)));
    best = std::max(best, row);
  }
  return best;
}

// log₂ of the least common denominator of the entries of the matrices, bounded above by the
// sum of the denominators' bits (≥ log₂ lcm).
double log2_denominators(const std::vector<const Matrix<Rational>*>& ms) {
  Integer l = 1;
  for (const Matrix<Rational>* m : ms)
    for (const Rational& x : m->data())
      if (denominator_bits(x) > 1) l = boost::multiprecision::lcm(l, Integer(denominator(x)));
  return static_cast<double>(bit_length(l)) - (l == 1 ? 1.0 : 0.0);
}

}  // namespace

RunEstimate estimate_run(const Model& model, const std::vector<std::size_t>& ids,
                         const PrecisionSpec& precision) {
  RunEstimate e;
  const std::uint64_t n = ids.size();
  e.positions = n;
  e.operations = estimate_evaluation_work(model, n);
  // Entries kept per position: each layer's state and output, once as a number and once as text.
  std::uint64_t entries = 0, attended = 0;
  for (const StackLayer& sl : model.layers) {
    entries += output_rows(sl.layer) * output_cols(sl.layer);
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) entries += l->d * l->m;
    if (const auto* l = std::get_if<ElmanLayer>(&sl.layer)) entries += l->d;
    if (const auto* l = std::get_if<LstmLayer>(&sl.layer)) entries += 2 * l->d;
    if (const auto* a = std::get_if<AttentionLayer>(&sl.layer))
      attended = saturating_add(
          attended, a->kind == AttentionKind::unique_hard ? n : visible_positions(n, a->window));
  }
  // The bits of the values at each position (exact), and their sum over positions.
  std::vector<double> bits(static_cast<std::size_t>(n), 64.0);
  if (precision.kind == PrecisionSpec::Kind::exact) {
    double below = 0;  // bits the layers below contribute (their largest value)
    std::vector<double> layer_bits(static_cast<std::size_t>(n), 1.0);
    for (std::size_t li = 0; li < model.layers.size(); ++li) {
      const StackLayer& sl = model.layers[li];
      const bool one_hot = li == 0 && !sl.input;
      double params = 1;
      if (const auto* l = std::get_if<LrnnLayer>(&sl.layer)) {
        // Per feature: log₂‖A_f‖∞, log₂ max|B_f|, log₂ D_f.
        std::vector<double> a(l->features), b(l->features), q(l->features);
        for (std::size_t f = 0; f < l->features; ++f) {
          a[f] = log2_row_norm(l->A[f]);
          b[f] = log2_abs_max({&l->B[f]});
          q[f] = log2_denominators({&l->A[f], &l->B[f]});
        }
        double worst_a = -1e300, worst_b = -1e300, worst_q = 0;
        for (std::size_t f = 0; f < l->features; ++f) {
          worst_a = std::max(worst_a, a[f]);
          worst_b = std::max(worst_b, b[f]);
          worst_q = std::max(worst_q, q[f]);
        }
        double mag = log2_abs_max({&l->initial_state}),
               den = log2_denominators({&l->initial_state});
        const double readout =
            std::max(0.0, log2_row_norm(l->readout)) + log2_denominators({&l->readout}) + 1;
        for (std::size_t t = 0; t < n; ++t) {
          const std::size_t f = one_hot ? ids[t] : 0;
          const double at = one_hot ? a[f] : worst_a + below, bt = one_hot ? b[f] : worst_b + below,
                       qt = one_hot ? q[f] : worst_q + below;
          mag = log2_add(at > -1e299 && mag > -1e299 ? at + mag : -1e300, bt);
          den += qt;
          layer_bits[t] = std::max(layer_bits[t], std::max(mag, 0.0) + 2 * den + 2 + readout);
        }
        continue;
      }
      // Nonlinear and attention layers: their parameters' bits on top of their inputs'.
      if (const auto* el = std::get_if<ElmanLayer>(&sl.layer))
        params = log2_abs_max({&el->pre.W, &el->pre.U, &el->pre.bias, &el->readout}) +
                 2 * log2_denominators({&el->pre.W, &el->pre.U, &el->pre.bias, &el->readout}) +
                 std::log2(static_cast<double>(n) + 1) + 8;
      else if (const auto* at = std::get_if<AttentionLayer>(&sl.layer))
        params = 2 * log2_abs_max({&at->query.weights, &at->key.weights, &at->value.weights}) +
                 std::log2(static_cast<double>(n) + 1) + 8;
      else
        params = 64;
      below = 0;
      for (double x : layer_bits) below = std::max(below, x);
      for (std::size_t t = 0; t < n; ++t) layer_bits[t] = std::max(layer_bits[t], below + params);
    }
    bits = layer_bits;
    // The bound misses cancellation (a parity model with β = 1/2 stays at 1 bit; the bound
    // grows a bit a step): a probe evaluates a short prefix exactly (at most 1024 positions and
    // about 2·10^4 operations) and extrapolates its measured growth linearly, when that is lower.
    std::size_t k = 0;  // the longest prefix (doubling) within the probe's budget
    for (std::size_t next = 8;
         next <= std::min<std::uint64_t>(n, 1024) && estimate_evaluation_work(model, next) <= 20000;
         next *= 2)
      k = next;
    if (k >= 8) {
      try {
        const std::vector<std::size_t> prefix(ids.begin(),
                                              ids.begin() + static_cast<std::ptrdiff_t>(k));
        const Trace<RationalField> trace = evaluate(model, RationalField{}, prefix);
        auto measured = [&](std::size_t t) {  // the largest value's bits at positions ≤ t
          std::size_t b = 1;
          for (const auto& layer : trace.layers)
            for (std::size_t u = 0; u < t; ++u) {
              for (const Rational& q : layer.states[u].data())
                b = std::max(b, bit_length(numerator(q)) + bit_length(denominator(q)));
              for (const Rational& q : layer.outputs[u].data())
                b = std::max(b, bit_length(numerator(q)) + bit_length(denominator(q)));
            }
          return static_cast<double>(b);
        };
        const double half = measured(k / 2), full = measured(k);
        const double rate = std::max(0.0, (full - half) / static_cast<double>(k - k / 2));
        for (std::size_t t = 0; t < n; ++t)
          bits[t] = std::min(bits[t],
                             full + 1.25 * rate * static_cast<double>(t >= k ? t - k + 1 : 0) + 8);
      } catch (const DomainError&) {
        // nothing to learn from a prefix that fails: the run will say why
      }
    }
  } else if (precision.kind == PrecisionSpec::Kind::log) {
    const FixedFormat f = log_precision(precision.log_c, n, precision.int_bits, precision.rounding,
                                        precision.overflow);
    bits.assign(bits.size(), f.int_bits + f.frac_bits + 1.0);
  } else {
    bits.assign(bits.size(), static_cast<double>(std::bit_width(precision.modulus)));
  }
  double total_bits = 0, largest = 0;
  for (double b : bits) {
    total_bits += b;
    largest = std::max(largest, b);
  }
  const double mean = n == 0 ? 0 : total_bits / static_cast<double>(n);
  auto clamp = [](double x) {
    return x >= 1.8e19 ? kSaturated : static_cast<std::uint64_t>(std::max(0.0, x));
  };
  e.bits = clamp(std::ceil(largest));
  // Operations and the text of every kept entry, both growing with the numbers' limbs.
  const double size = precision.kind == PrecisionSpec::Kind::mod ? 1 : 1 + mean / 256;
  const double per_op = precision.kind == PrecisionSpec::Kind::mod
                            ? static_cast<double>(kModularOperationWork)
                            : static_cast<double>(kExactOperationWork) * size;
  e.work = clamp(static_cast<double>(e.operations) * per_op +
                 static_cast<double>(entries) * static_cast<double>(n) *
                     static_cast<double>(kEntryTextWork) * size);
  // Per entry: the number (kRationalEntryBytes and its limbs, bits/8 bytes) and its text twice
  // (the report's, and the printed text built before it is written: a string and the decimal
  // digits, 0.31 a bit). Measured: binary_value_wfa on 8000 ones peaks at 77 MiB, this gives
  // 85 MiB (docs/reliability.md).
  const double entry_bytes =
      static_cast<double>(kRationalEntryBytes) + mean / 8 + 2 * (32 + 0.31 * mean);
  e.memory_bytes = clamp(static_cast<double>(entries) * static_cast<double>(n) * entry_bytes +
                         2.0 * 8 * static_cast<double>(attended));
  return e;
}

std::string describe_layers(const Model& model) {
  std::string out;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i].layer;
    out += (i ? " → " : "") + layer_kind(l);
    if (auto* lr = std::get_if<LrnnLayer>(&l))
      out += fmt::format(" d={} m={}", lr->d, lr->m);
    else if (auto* e = std::get_if<ElmanLayer>(&l))
      out += fmt::format(" d={}", e->d);
    else if (auto* s = std::get_if<LstmLayer>(&l))
      out += fmt::format(" d={}", s->d);
    else if (auto* a = std::get_if<AttentionLayer>(&l)) {
      out += fmt::format(" h={} r={}", a->key_size(), a->value_size());
      if (a->kind == AttentionKind::unique_hard) out += " tie=" + to_string(a->tie);
      if (a->window) out += fmt::format(" window={}", *a->window);
      if (a->residual) out += " residual";
    }
  }
  return out;
}

RunReport run_model(const Model& model, std::string_view input, const std::string& where,
                    const PrecisionSpec& precision) {
  std::vector<std::size_t> ids = model.alphabet.tokenize(input, where);
  std::string shown = model.alphabet.join(ids);
  try {
    switch (precision.kind) {
      case PrecisionSpec::Kind::exact:
        return report(model, RationalField{}, ids, shown);
      case PrecisionSpec::Kind::log:
        return report(model,
                      FixedPoint(log_precision(precision.log_c, ids.size(), precision.int_bits,
                                               precision.rounding, precision.overflow)),
                      ids, shown);
      case PrecisionSpec::Kind::mod:
        return report(model, ModP(precision.modulus), ids, shown);
    }
  } catch (const DomainError& e) {
    throw DomainError(where + " (" + shown + "): " + e.what());
  }
  throw std::logic_error("unhandled precision kind");
}

std::string format_text(const Model& model, const std::vector<RunReport>& runs, bool trace) {
  std::string out = fmt::format("model {}: {}\n", model.name.empty() ? "(unnamed)" : model.name,
                                describe_layers(model));
  const char* mode = model.accept.mode == Acceptance::Mode::positive ? "> 0" : "= 0";
  for (const RunReport& r : runs) {
    out += fmt::format("\ninput {}  [{}]  {} (y[{}][{}] {})\n", r.input, r.semantics,
                       verdict(r.accepted), model.accept.row, model.accept.col, mode);
    std::size_t width = 1;
    for (const auto& p : r.positions) width = std::max(width, show(p.output).size());
    out += fmt::format("  {:>4}  {:<6}  {:<{}}  {}\n", "t", "symbol", "y", width, "accept");
    for (const auto& p : r.positions) {
      out +=
          fmt::format("  {:>4}  {:<6}  {:<{}}  {}\n", p.position, p.symbol, show(p.output), width,
                      !p.accept   ? "-"
                      : *p.accept ? "yes"
                                  : "no");
      if (trace) {
        for (std::size_t l = 0; l < p.states.size(); ++l) {
          if (p.attended[l]) {  // an attention layer: no state; the positions it attends to
            std::string at;
            for (std::size_t s : *p.attended[l]) at += (at.empty() ? "" : ", ") + std::to_string(s);
            out += fmt::format("        A{}_{} = attends {}\n", l, p.position, at);
          } else {
            out += fmt::format("        S{}_{} = {}\n", l, p.position, show(p.states[l]));
          }
        }
        if (p.bits)
          out += fmt::format("        bits: numerator {}, denominator {}\n", p.bits->numerator_bits,
                             p.bits->denominator_bits);
      }
    }
    if (r.max_bits)
      out += fmt::format("  bit growth: largest numerator {} bits, largest denominator {} bits\n",
                         r.max_bits->numerator_bits, r.max_bits->denominator_bits);
  }
  return out;
}

nlohmann::ordered_json to_json(const Model& model, const std::vector<RunReport>& runs, bool trace) {
  using json = nlohmann::ordered_json;
  json j;
  j["model"] = model.name;
  j["layers"] = describe_layers(model);
  j["accept"] = {{"mode", model.accept.mode == Acceptance::Mode::positive ? "positive" : "zero"},
                 {"output", {model.accept.row, model.accept.col}}};
  auto opt = [](const std::optional<bool>& b) { return b ? json(*b) : json(nullptr); };
  auto bits = [](const BitGrowth& g) {
    return json{{"numerator", g.numerator_bits}, {"denominator", g.denominator_bits}};
  };
  j["runs"] = json::array();
  for (const RunReport& r : runs) {
    json run{{"input", r.input}, {"semantics", r.semantics}, {"accepted", opt(r.accepted)}};
    run["positions"] = json::array();
    for (const auto& p : r.positions) {
      json pj{
          {"t", p.position}, {"symbol", p.symbol}, {"output", p.output}, {"accept", opt(p.accept)}};
      if (trace) {
        pj["states"] = p.states;
        bool any = false;
        json att = json::array();
        for (const auto& a : p.attended) {
          any = any || a.has_value();
          att.push_back(a ? json(*a) : json(nullptr));
        }
        if (any) pj["attended"] = std::move(att);
      }
      if (p.bits) pj["bits"] = bits(*p.bits);
      run["positions"].push_back(std::move(pj));
    }
    if (r.max_bits) run["max_bits"] = bits(*r.max_bits);
    j["runs"].push_back(std::move(run));
  }
  return j;
}

}  // namespace rnncc
