#include "circuits/compile/lrnn_boolean.hpp"

#include <algorithm>
#include <bit>
#include <random>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

const LrnnLayer& check_model(const Model& model, std::size_t n, const BooleanLrnnOptions& o) {
  check_length(n);
  if (o.precision.exact())
    throw InputError("--precision",
                     "compile_lrnn_boolean computes at log precision; expected log:C");
  if (model.layers.size() != 1)
    throw InputError("model", "compile_lrnn_boolean compiles one-layer models; this one has " +
                                  std::to_string(model.layers.size()) + " layers");
  const auto* l = std::get_if<LrnnLayer>(&model.layers[0].layer);
  if (!l)
    throw InputError("layer 0", "is " + layer_kind(model.layers[0].layer) +
                                    "; compile_lrnn_boolean compiles LRNN layers only");
  if (!l->readout_feature.empty())
    throw InputError("layer 0",
                     "has per-symbol readouts C_k; compile_lrnn_boolean supports a "
                     "token-independent readout C only");
  if (o.precision.int_bits && *o.precision.int_bits == 0)
    throw InputError("--int-bits",
                     "expected at least 1 integer bit (the one-hot 1 must be "
                     "representable), got 0");
  return *l;
}

// Exact parameters rounded once: round(x·2^F) by the mode, clamped; `overflow` set when clamped.
struct Rounder {
  FixedFormat f;
  Integer max_raw;
  bool overflow = false;
  explicit Rounder(const FixedFormat& format)
      : f(format), max_raw((Integer(1) << (format.int_bits + format.frac_bits)) - 1) {}
  Integer clamp(Integer r) {
    if (boost::multiprecision::abs(r) <= max_raw) return r;
    overflow = true;
    return r.sign() < 0 ? Integer(-max_raw) : max_raw;
  }
  Integer param(const Rational& x) {
    return clamp(round_rational(x * Rational(Integer(1) << f.frac_bits), f.rounding));
  }
  Matrix<Integer> param(const Matrix<Rational>& m) {
    Matrix<Integer> out(m.rows(), m.cols());
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) out(i, j) = param(m(i, j));
    return out;
  }
  // round(Σ_l a(i,l)·s(l,j) + c(i,j)·2^F) per entry; c may be empty.
  Matrix<Integer> affine(const Matrix<Integer>& a, const Matrix<Integer>& s,
                         const Matrix<Integer>& c) {
    Matrix<Integer> out(a.rows(), s.cols());
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < s.cols(); ++j) {
        Integer acc = c.empty() ? Integer(0) : Integer(c(i, j) << f.frac_bits);
        for (std::size_t l = 0; l < a.cols(); ++l) acc += a(i, l) * s(l, j);
        out(i, j) = clamp(round_shift(acc, f.frac_bits, f.rounding));
      }
    return out;
  }
};

struct Params {
  std::vector<Matrix<Integer>> A, B;
  Matrix<Integer> C, c0, S0;
};

Params round_params(const LrnnLayer& l, Rounder& r) {
  Params p;
  for (std::size_t k = 0; k < l.features; ++k) {
    p.A.push_back(r.param(l.A[k]));
    p.B.push_back(r.param(l.B[k]));
  }
  p.C = r.param(l.readout);
  p.c0 = r.param(l.readout_bias);
  p.S0 = r.param(l.initial_state);
  return p;
}

}  // namespace

FixedFormat boolean_lrnn_format(std::size_t n, const BooleanLrnnOptions& o) {
  return o.precision.format(n);
}

// ---- the plain twin ----------------------------------------------------------------------

ScanRoundedResult evaluate_scan_rounded(const Model& model, std::span<const std::size_t> input,
                                        const BooleanLrnnOptions& o) {
  const std::size_t n = input.size();
  const LrnnLayer& l = check_model(model, n, o);
  for (std::size_t s : input)
    if (s >= l.features)
      throw InputError("input", "symbol id " + std::to_string(s) + " is out of range");
  Rounder r(boolean_lrnn_format(n, o));
  const Params p = round_params(l, r);
  struct Element {
    bool anchored = false;
    Matrix<Integer> A, B;  // anchored: B is the state
  };
  std::vector<Element> v(n);
  for (std::size_t t = 0; t < n; ++t) v[t] = {false, p.A[input[t]], p.B[input[t]]};
  v[0] = {true, {}, r.affine(v[0].A, p.S0, v[0].B)};
  run_prefix(o.scan.network(n), v, [&](const Element& later, const Element& earlier) {
    Element e;
    e.anchored = earlier.anchored;
    if (!earlier.anchored) e.A = r.affine(later.A, earlier.A, {});
    e.B = r.affine(later.A, earlier.B, later.B);
    return e;
  });
  ScanRoundedResult out;
  for (std::size_t t = 0; t < n; ++t) {
    out.outputs.push_back(r.affine(p.C, v[t].B, p.c0));
    out.states.push_back(v[t].B);
  }
  out.overflow = r.overflow;
  const Integer& y = out.outputs.back()(model.accept.row, model.accept.col);
  out.accept = model.accept.mode == Acceptance::Mode::positive ? y > 0 : y == 0;
  return out;
}

// ---- the function of a scan, as a run ------------------------------------------------------

RunReport run_with_scan(const Model& model, std::string_view input, const std::string& where,
                        const PrecisionSpec& precision, const Scan& scan) {
  if (precision.kind != PrecisionSpec::Kind::log || scan.kind == ScanKind::sequential)
    return run_model(model, input, where, precision);
  const std::vector<std::size_t> ids = model.alphabet.tokenize(input, where);
  const std::string shown = model.alphabet.join(ids);
  BooleanLrnnOptions o;
  o.precision = Precision::log(precision.log_c);
  o.precision.int_bits = precision.int_bits;
  o.precision.rounding = precision.rounding;
  o.precision.overflow = precision.overflow;
  o.scan = scan;
  ScanRoundedResult s;
  try {
    s = evaluate_scan_rounded(model, ids, o);
  } catch (const InputError& e) {
    if (e.where() == "--int-bits") throw;
    throw InputError("--scan", to_string(scan) +
                                   ": a tree scan rounds differently from the sequential rule "
                                   "only in the boolean circuit of one LRNN layer (" +
                                   e.what() + "); drop --scan or use --scan sequential");
  }
  const FixedPoint k(boolean_lrnn_format(ids.size(), o));
  if (s.overflow && k.format().overflow == Overflow::error)
    throw DomainError(where + " (" + shown + "): a rounding of the " + to_string(scan) +
                      " scan left the range of " + k.name() + " (--overflow error)");
  auto text = [&](const Matrix<Integer>& m) {
    TextMatrix out(m.rows());
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) out[i].push_back(k.to_string({m(i, j)}));
    return out;
  };
  RunReport r;
  r.input = shown;
  r.semantics = k.name() + ", scan-rounded by " + to_string(scan);
  for (std::size_t t = 0; t < ids.size(); ++t) {
    PositionReport p;
    p.position = t + 1;
    p.symbol = model.alphabet.symbol(ids[t]);
    p.output = text(s.outputs[t]);
    const Integer& y = s.outputs[t](model.accept.row, model.accept.col);
    p.accept = model.accept.mode == Acceptance::Mode::positive ? y > 0 : y == 0;
    p.states.push_back(text(s.states[t]));
    p.attended.push_back(std::nullopt);
    r.positions.push_back(std::move(p));
  }
  r.accepted = r.positions.back().accept;
  return r;
}

ScanDisagreement scan_disagreement(const Model& model, std::size_t n, const BooleanLrnnOptions& o,
                                   std::size_t strings, std::uint64_t seed, double max_work) {
  const LrnnLayer& l = check_model(model, n, o);
  // Two evaluations of n positions, each d·d·(d + m) multiply-adds (a combine of two maps).
  const double d = static_cast<double>(l.d), m = static_cast<double>(l.m);
  const double per_string = 2 * static_cast<double>(n) * d * d * (d + m);
  const auto affordable = static_cast<std::size_t>(std::max(1.0, max_work / per_string));
  BooleanLrnnOptions sequential = o;
  sequential.scan = Scan(ScanKind::sequential);
  std::mt19937_64 rng(seed);
  ScanDisagreement out;
  out.strings = std::min(strings, affordable);
  std::vector<std::size_t> w(n);
  for (std::size_t k = 0; k < out.strings; ++k) {
    for (std::size_t& x : w) x = static_cast<std::size_t>(rng() % l.features);
    const ScanRoundedResult a = evaluate_scan_rounded(model, w, o),
                            b = evaluate_scan_rounded(model, w, sequential);
    // The overflow flag is an output only under Overflow::error (saturation is the function).
    const bool flagged = boolean_lrnn_format(n, o).overflow == Overflow::error;
    bool differ = a.accept != b.accept || (flagged && a.overflow != b.overflow);
    if (o.outputs == OutputMode::all)
      differ = differ || a.outputs != b.outputs;
    else
      differ = differ || a.outputs.back() != b.outputs.back();
    out.differing += differ;
  }
  return out;
}

// ---- bounds ------------------------------------------------------------------------------

namespace {

// Positions whose readout the circuit computes.
std::size_t readouts(std::size_t n, const BooleanLrnnOptions& o) {
  return (o.outputs == OutputMode::all || boolean_lrnn_format(n, o).overflow == Overflow::error)
             ? n
             : 1;
}

}  // namespace

std::size_t estimate_lrnn_boolean_gates(const Model& model, std::size_t n,
                                        const BooleanLrnnOptions& o) {
  const LrnnLayer& l = check_model(model, n, o);
  const FixedFormat f = boolean_lrnn_format(n, o);
  const std::size_t W = 1 + f.int_bits + f.frac_bits, d = l.d, m = l.m, r = l.readout.rows();
  const std::size_t sigma = std::max<std::size_t>(l.features, 1);
  const std::size_t with = fixed_dot_gates(d, f, true, o.adder),
                    without = fixed_dot_gates(d, f, false, o.adder);
  const std::size_t nodes = prefix_node_count(o.scan.kind, n, o.scan.ladner_fischer_k);
  std::size_t total = n * sigma + 2;                        // inputs, constants 0 and 1
  total += n * (d * d + d * m) * W * sigma;                 // leaf OR trees
  total += (nodes + 1) * (d * d * without + d * m * with);  // combines and the anchor
  total += readouts(n, o) * r * m * with;                   // readouts
  total += 2 * n * (d * d + d * m + r * m) + W + 4;         // overflow OR, acceptance
  return total;
}

std::size_t lrnn_boolean_depth_bound(const Model& model, std::size_t n,
                                     const BooleanLrnnOptions& o) {
  const LrnnLayer& l = check_model(model, n, o);
  const FixedFormat f = boolean_lrnn_format(n, o);
  const std::size_t W = 1 + f.int_bits + f.frac_bits, d = l.d, m = l.m, r = l.readout.rows();
  const std::size_t dot = std::max(fixed_dot_depth(d, f, true, o.reduction, o.adder),
                                   fixed_dot_depth(d, f, false, o.reduction, o.adder));
  const std::size_t chain = o.scan.chain_depth(n);
  const std::size_t roundings =
      (prefix_node_count(o.scan.kind, n, o.scan.ladner_fischer_k) + 1) * (d * d + d * m) +
      readouts(n, o) * r * m + 1;
  return ceil_log2(std::max<std::size_t>(l.features, 1)) + (chain + 1) * dot +
         fixed_dot_depth(d, f, true, o.reduction, o.adder) +
         std::max(ceil_log2(W) + 2, ceil_log2(roundings) + 1);
}

// ---- the compiler ------------------------------------------------------------------------

CompiledCircuit compile_lrnn_boolean(const Model& model, std::size_t n,
                                     const BooleanLrnnOptions& o) {
  const LrnnLayer& l = check_model(model, n, o);
  const std::size_t estimate = estimate_lrnn_boolean_gates(model, n, o);
  o.budget.check(estimate);
  const FixedFormat f = boolean_lrnn_format(n, o);
  const std::size_t W = 1 + f.int_bits + f.frac_bits, K = l.features;
  Rounder rounder(f);
  const Params p = round_params(l, rounder);

  CompiledCircuit out;
  CircuitBuilder b;
  b.reserve(std::min<std::size_t>(estimate / 2, std::size_t{1} << 24));  // the estimate is loose
  detail::RegionRecorder rec{b, out.regions};
  rec.enter_at(RegionKind::input, 0, 0);
  const std::vector<std::vector<GateId>> x = one_hot_inputs(b, n, model.alphabet);

  using WMat = Matrix<Word>;
  auto constant_matrix = [&](const Matrix<Integer>& c) {
    WMat w(c.rows(), c.cols());
    for (std::size_t i = 0; i < c.rows(); ++i)
      for (std::size_t j = 0; j < c.cols(); ++j) w(i, j) = constant_word(b, c(i, j), W);
    return w;
  };
  // Leaf: bit k of entry (i,j) = OR of x[t,σ] over the symbols σ whose entry has bit k set.
  std::vector<GateId> chosen;
  auto select = [&](const std::vector<Matrix<Integer>>& per_symbol, std::size_t t) {
    WMat w(per_symbol[0].rows(), per_symbol[0].cols());
    for (std::size_t i = 0; i < w.rows(); ++i)
      for (std::size_t j = 0; j < w.cols(); ++j) {
        std::vector<Word> words;
        for (std::size_t s = 0; s < K; ++s)
          words.push_back(constant_word(b, per_symbol[s](i, j), W));
        Word e;
        for (std::size_t k = 0; k < W; ++k) {
          chosen.clear();
          for (std::size_t s = 0; s < K; ++s)
            if (!b.is_constant(words[s][k]) || b.view().constant(words[s][k]) != 0)
              chosen.push_back(x[t][s]);
          e.bits.push_back(or_tree(b, chosen));
        }
        w(i, j) = std::move(e);
      }
    return w;
  };

  std::vector<GateId> overflows;
  std::vector<Word> left, right;
  // round(a·s + c) per entry; c may be empty.
  auto affine = [&](const WMat& a, const WMat& s, const WMat& c) {
    WMat r(a.rows(), s.cols());
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < s.cols(); ++j) {
        left.clear();
        right.clear();
        for (std::size_t q = 0; q < a.cols(); ++q) {
          left.push_back(a(i, q));
          right.push_back(s(q, j));
        }
        Saturated e =
            fixed_dot(b, left, right, c.empty() ? nullptr : &c(i, j), f, o.reduction, o.adder);
        if (f.overflow == Overflow::error) overflows.push_back(e.overflow);
        r(i, j) = std::move(e.value);
      }
    return r;
  };

  struct Element {
    bool anchored = false;
    WMat A, B;
    std::uint32_t chain = 0;
  };
  std::vector<Element> v(n);
  const WMat S0 = constant_matrix(p.S0);
  for (std::size_t t = 0; t < n; ++t) {
    rec.enter_at(RegionKind::leaf, 0, static_cast<std::uint32_t>(t + 1));
    v[t].A = select(p.A, t);
    v[t].B = select(p.B, t);
    if (t == 0) v[0] = {true, {}, affine(v[0].A, S0, v[0].B), 1};
  }
  for (const auto& level : o.scan.network(n))
    for (const PrefixNode& node : level) {
      Element& later = v[node.target];
      const Element& earlier = v[node.source];
      const std::uint32_t depth = std::max(later.chain, earlier.chain) + 1;
      rec.enter_combine(0, depth, node.target, node.source);
      Element e;
      e.anchored = earlier.anchored;
      e.chain = depth;
      if (!earlier.anchored) e.A = affine(later.A, earlier.A, {});
      e.B = affine(later.A, earlier.B, later.B);
      later = std::move(e);
    }
  std::size_t chain = 0;
  for (const Element& e : v) chain = std::max<std::size_t>(chain, e.chain);
  out.combine_levels = chain;

  const WMat C = constant_matrix(p.C), c0 = constant_matrix(p.c0);
  std::vector<GateId> outputs;
  std::vector<std::string> names;
  WMat y_last;
  for (std::size_t t = 0; t < n; ++t) {
    const bool wanted = o.outputs == OutputMode::all || t + 1 == n;
    if (!wanted && f.overflow != Overflow::error) continue;
    rec.enter_at(RegionKind::readout, 0, static_cast<std::uint32_t>(t + 1));
    WMat y = affine(C, v[t].B, c0);
    if (wanted)
      for (std::size_t i = 0; i < y.rows(); ++i)
        for (std::size_t j = 0; j < y.cols(); ++j)
          for (std::size_t k = 0; k < W; ++k) {
            outputs.push_back(y(i, j)[k]);
            names.push_back("y[" + std::to_string(t + 1) + "][" + std::to_string(i) + "][" +
                            std::to_string(j) + "].b[" + std::to_string(k) + "]");
          }
    if (t + 1 == n) y_last = std::move(y);
    v[t] = Element{};  // free the state words
  }
  rec.enter_at(RegionKind::accept, 0, static_cast<std::uint32_t>(n));
  if (f.overflow == Overflow::error) {
    if (rounder.overflow) overflows.push_back(b.constant(Rational(1)));  // a parameter
    outputs.push_back(or_tree(b, overflows));
    names.push_back("overflow");
  }
  const Word& yv = y_last(model.accept.row, model.accept.col);
  outputs.push_back(model.accept.mode == Acceptance::Mode::positive
                        ? b.and_(std::vector<GateId>{b.not_(yv.sign()), or_tree(b, yv.bits)})
                        : is_zero(b, yv));
  names.push_back("accept");
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

}  // namespace rnncc
