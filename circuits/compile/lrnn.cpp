#include "circuits/compile/lrnn.hpp"

#include <algorithm>
#include <bit>

#include "algebra/error.hpp"
#include "circuits/compile/cost.hpp"
#include "circuits/compile/lrnn_parts.hpp"

namespace rnncc {

std::string to_string(CombineStructure s) {
  switch (s) {
    case CombineStructure::dense:
      return "dense";
    case CombineStructure::diagonal:
      return "diagonal";
    case CombineStructure::pd:
      return "pd";
  }
  return "?";
}

CombineStructure combine_structure(const LrnnLayer& layer, Structure requested) {
  if (requested == Structure::dense) return CombineStructure::dense;
  switch (layer.family) {
    case Family::diagonal:
    case Family::s4:
    case Family::mamba2:
    case Family::gla:
      return CombineStructure::diagonal;
    case Family::pd:
      return CombineStructure::pd;
    default:
      return CombineStructure::dense;
  }
}

namespace detail {

GateId LayerCompiler::lin(const std::vector<Rational>& coeffs, const std::vector<GateId>& z,
                          const Rational* base) {
  terms_.clear();
  if (base && *base != 0) terms_.push_back(b.constant(*base));
  for (std::size_t k = 0; k < coeffs.size(); ++k)
    if (coeffs[k] != 0)
      terms_.push_back(coeffs[k] == 1 ? z[k] : b.mul(b.constant(coeffs[k]), z[k]));
  return b.sum(terms_);
}

std::vector<Rational>& LayerCompiler::coeffs_of(const std::vector<Matrix<Rational>>& per_feature,
                                                std::size_t i, std::size_t j) {
  coeffs_.resize(per_feature.size());
  for (std::size_t k = 0; k < per_feature.size(); ++k) coeffs_[k] = per_feature[k](i, j);
  return coeffs_;
}

Element LayerCompiler::leaf(const std::vector<GateId>& z) {
  const std::size_t d = layer.d, m = layer.m, K = layer.features;
  Element e;
  switch (structure) {
    case CombineStructure::dense:
      e.A = GMat(d, d);
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < d; ++j) e.A(i, j) = lin(coeffs_of(layer.A, i, j), z);
      break;
    case CombineStructure::diagonal:
      e.diag.resize(d);
      for (std::size_t i = 0; i < d; ++i) e.diag[i] = lin(coeffs_of(layer.A, i, i), z);
      break;
    case CombineStructure::pd: {
      e.A = GMat(d, d);  // P, 0/1 valued
      e.diag.resize(d);  // D
      std::vector<Rational> c(K);
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < d; ++j) {
          for (std::size_t k = 0; k < K; ++k)
            c[k] = std::get<PdParams>(layer.record[k]).image[j] == i ? 1 : 0;
          e.A(i, j) = lin(c, z);
        }
      for (std::size_t j = 0; j < d; ++j) {
        for (std::size_t k = 0; k < K; ++k) c[k] = std::get<PdParams>(layer.record[k]).diag[j];
        e.diag[j] = lin(c, z);
      }
      break;
    }
  }
  e.B = GMat(d, m);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < m; ++j) e.B(i, j) = lin(coeffs_of(layer.B, i, j), z);
  return e;
}

// The B part of later ∘ earlier: A_later · B_earlier + B_later.
GMat LayerCompiler::apply(const Element& u, const GMat& s, const GMat& offset) {
  const std::size_t d = layer.d, m = s.cols();
  GMat out(d, m);
  switch (structure) {
    case CombineStructure::dense:
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < m; ++j) {
          terms_.clear();
          for (std::size_t l = 0; l < d; ++l) terms_.push_back(b.mul(u.A(i, l), s(l, j)));
          if (!offset.empty()) terms_.push_back(offset(i, j));
          out(i, j) = b.sum(terms_);
        }
      break;
    case CombineStructure::diagonal:
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < m; ++j) {
          GateId p = b.mul(u.diag[i], s(i, j));
          out(i, j) = offset.empty() ? p : b.add(p, offset(i, j));
        }
      break;
    case CombineStructure::pd: {
      GMat scaled(d, m);  // D ⊙ s, row by row
      for (std::size_t l = 0; l < d; ++l)
        for (std::size_t j = 0; j < m; ++j) scaled(l, j) = b.mul(u.diag[l], s(l, j));
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = 0; j < m; ++j) {
          terms_.clear();
          for (std::size_t l = 0; l < d; ++l) terms_.push_back(b.mul(u.A(i, l), scaled(l, j)));
          if (!offset.empty()) terms_.push_back(offset(i, j));
          out(i, j) = b.sum(terms_);
        }
      break;
    }
  }
  return out;
}

Element LayerCompiler::anchor(const Element& first) {
  GMat s0(layer.d, layer.m);
  for (std::size_t i = 0; i < layer.d; ++i)
    for (std::size_t j = 0; j < layer.m; ++j) s0(i, j) = b.constant(layer.initial_state(i, j));
  Element e;
  e.anchored = true;
  e.B = apply(first, s0, first.B);  // S_1 = A_1 S_0 + B_1
  return e;
}

Element LayerCompiler::combine(const Element& u, const Element& w) {
  const std::size_t d = layer.d;
  Element r;
  r.anchored = w.anchored;
  r.chain = std::max(u.chain, w.chain) + 1;
  if (!w.anchored) {
    switch (structure) {
      case CombineStructure::dense:
        r.A = GMat(d, d);
        for (std::size_t i = 0; i < d; ++i)
          for (std::size_t j = 0; j < d; ++j) {
            terms_.clear();
            for (std::size_t l = 0; l < d; ++l) terms_.push_back(b.mul(u.A(i, l), w.A(l, j)));
            r.A(i, j) = b.sum(terms_);
          }
        break;
      case CombineStructure::diagonal:
        r.diag.resize(d);
        for (std::size_t i = 0; i < d; ++i) r.diag[i] = b.mul(u.diag[i], w.diag[i]);
        break;
      case CombineStructure::pd:
        // (P₂D₂)(P₁D₁) = P'D' with P' = P₂P₁ and D'_j = D₁_j · D₂_{π₁(j)},
        // D₂_{π₁(j)} = Σ_l P₁(l,j)·D₂_l (a gather through the 0/1 column j of P₁).
        r.A = GMat(d, d);
        r.diag.resize(d);
        for (std::size_t i = 0; i < d; ++i)
          for (std::size_t j = 0; j < d; ++j) {
            terms_.clear();
            for (std::size_t l = 0; l < d; ++l) terms_.push_back(b.mul(u.A(i, l), w.A(l, j)));
            r.A(i, j) = b.sum(terms_);
          }
        for (std::size_t j = 0; j < d; ++j) {
          terms_.clear();
          for (std::size_t l = 0; l < d; ++l) terms_.push_back(b.mul(w.A(l, j), u.diag[l]));
          r.diag[j] = b.mul(w.diag[j], b.sum(terms_));
        }
        break;
    }
  }
  r.B = apply(u, w.B, u.B);
  return r;
}

GMat LayerCompiler::readout(const GMat& state, const std::vector<GateId>& z) {
  const std::size_t r = layer.readout.rows(), d = layer.d, m = layer.m;
  GMat c(r, d);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t l = 0; l < d; ++l)
      c(i, l) = layer.readout_feature.empty()
                    ? b.constant(layer.readout(i, l))
                    : lin(coeffs_of(layer.readout_feature, i, l), z, &layer.readout(i, l));
  GMat y(r, m);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      std::vector<GateId> t;
      for (std::size_t l = 0; l < d; ++l) t.push_back(b.mul(c(i, l), state(l, j)));
      if (!layer.readout_bias.empty()) t.push_back(b.constant(layer.readout_bias(i, j)));
      y(i, j) = b.sum(t);
    }
  return y;
}

}  // namespace detail

namespace {

using detail::Element;
using detail::GMat;

void check_model(const Model& model, std::size_t n, const CompileOptions& options) {
  check_length(n);
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const auto* l = std::get_if<LrnnLayer>(&model.layers[i].layer);
    if (!l)
      throw InputError("layer " + std::to_string(i),
                       "is " + layer_kind(model.layers[i].layer) +
                           "; compile_lrnn compiles LRNN layers only (nonlinear RNNs compile "
                           "through the boolean route)");
    if (options.scan.chunk > 0 && l->family != Family::deltanet)
      throw InputError("--scan", "chunked:C is the UT transform of DeltaNet's I − βkkᵀ; layer " +
                                     std::to_string(i) + " is " + to_string(l->family));
  }
  options.budget.check(estimate_lrnn_gates(model, n, options));
}

}  // namespace

CompiledCircuit compile_lrnn(const Model& model, std::size_t n, const CompileOptions& options) {
  check_model(model, n, options);
  CompiledCircuit out;
  CircuitBuilder b;
  b.reserve(estimate_lrnn_gates(model, n, options) + n * model.alphabet.size() + 64);
  detail::RegionRecorder rec{b, out.regions};
  rec.enter_at(RegionKind::input, 0, 0);

  // Layer 1 features: the one-hot indicators.
  std::vector<std::vector<GateId>> z = one_hot_inputs(b, n, model.alphabet);

  std::vector<GMat> y;  // last layer's outputs per position (only those needed)
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const LrnnLayer& layer = std::get<LrnnLayer>(model.layers[li].layer);
    const bool last_layer = li + 1 == model.layers.size();
    const auto L = static_cast<std::uint32_t>(li);
    if (li > 0) {  // z_t = W·vec(y_t) + b
      const InputMap& map = *model.layers[li].input;
      for (std::size_t t = 0; t < n; ++t) {
        rec.enter_at(RegionKind::input_map, L, static_cast<std::uint32_t>(t + 1));
        std::vector<GateId> v(y[t].data().begin(), y[t].data().end()), zt;
        for (std::size_t q = 0; q < map.weights.rows(); ++q) {
          std::vector<GateId> terms;
          for (std::size_t p = 0; p < v.size(); ++p)
            terms.push_back(b.mul(b.constant(map.weights(q, p)), v[p]));
          if (!map.bias.empty()) terms.push_back(b.constant(map.bias(q, 0)));
          zt.push_back(b.sum(terms));
        }
        z[t] = std::move(zt);
      }
    }
    detail::LayerCompiler lc(b, layer, combine_structure(layer, options.structure));
    std::vector<GMat> states(n);
    std::size_t chain = 0;
    if (options.scan.chunk > 0) {
      states = detail::chunked_deltanet(lc, rec, L, z, options.scan.chunk);
      chain = (n + options.scan.chunk - 1) / options.scan.chunk;
    } else {
      std::vector<Element> v(n);
      for (std::size_t t = 0; t < n; ++t) {
        rec.enter_at(RegionKind::leaf, L, static_cast<std::uint32_t>(t + 1));
        v[t] = lc.leaf(z[t]);
        if (t == 0) v[0] = lc.anchor(v[0]);
      }
      for (const auto& level : options.scan.network(n))
        for (const PrefixNode& node : level) {
          const std::uint32_t depth = std::max(v[node.target].chain, v[node.source].chain) + 1;
          rec.enter_combine(L, depth, node.target, node.source);
          v[node.target] = lc.combine(v[node.target], v[node.source]);
        }
      for (std::size_t t = 0; t < n; ++t) {
        chain = std::max<std::size_t>(chain, v[t].chain);
        states[t] = std::move(v[t].B);
      }
    }
    out.combine_levels += chain;
    y.assign(n, GMat());
    for (std::size_t t = 0; t < n; ++t) {
      if (last_layer && options.outputs == OutputMode::last && t + 1 != n) continue;
      rec.enter_at(RegionKind::readout, L, static_cast<std::uint32_t>(t + 1));
      y[t] = lc.readout(states[t], z[t]);
    }
  }

  std::vector<GateId> outputs;
  std::vector<std::string> names;
  for (std::size_t t = 0; t < n; ++t) {
    if (options.outputs == OutputMode::last && t + 1 != n) continue;
    for (std::size_t i = 0; i < y[t].rows(); ++i)
      for (std::size_t j = 0; j < y[t].cols(); ++j) {
        outputs.push_back(y[t](i, j));
        names.push_back("y[" + std::to_string(t + 1) + "][" + std::to_string(i) + "][" +
                        std::to_string(j) + "]");
      }
  }
  if (options.acceptance) {
    rec.enter_at(RegionKind::accept, static_cast<std::uint32_t>(model.layers.size() - 1),
                 static_cast<std::uint32_t>(n));
    GateId v = y[n - 1](model.accept.row, model.accept.col);
    outputs.push_back(detail::acceptance_test(b, model.accept.mode, v));
    names.push_back("accept");
  }
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

}  // namespace rnncc
