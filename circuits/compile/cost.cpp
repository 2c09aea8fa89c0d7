#include "circuits/compile/cost.hpp"

#include <algorithm>
#include <bit>

namespace rnncc {

namespace {

// Operations of Σ_k c_k z_k (+ base): a mul per coefficient ∉ {0, 1}, one sum if ≥ 2 terms.
std::size_t lin_ops(const std::vector<Rational>& c, bool base) {
  std::size_t terms = base, muls = 0;
  for (const Rational& x : c) {
    terms += x != 0;
    muls += x != 0 && x != 1;
  }
  return muls + (terms >= 2);
}

std::vector<Rational> coeffs(const std::vector<Matrix<Rational>>& per, std::size_t i,
                             std::size_t j) {
  std::vector<Rational> c;
  for (const auto& M : per) c.push_back(M(i, j));
  return c;
}

std::size_t leaf_ops(const LrnnLayer& l, CombineStructure s) {
  std::size_t ops = 0;
  const std::size_t d = l.d;
  if (s == CombineStructure::dense)
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) ops += lin_ops(coeffs(l.A, i, j), false);
  if (s == CombineStructure::diagonal)
    for (std::size_t i = 0; i < d; ++i) ops += lin_ops(coeffs(l.A, i, i), false);
  if (s == CombineStructure::pd) {
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        std::vector<Rational> c;
        for (const auto& r : l.record) c.push_back(std::get<PdParams>(r).image[j] == i ? 1 : 0);
        ops += lin_ops(c, false);
      }
    for (std::size_t j = 0; j < d; ++j) {
      std::vector<Rational> c;
      for (const auto& r : l.record) c.push_back(std::get<PdParams>(r).diag[j]);
      ops += lin_ops(c, false);
    }
  }
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < l.m; ++j) ops += lin_ops(coeffs(l.B, i, j), false);
  return ops;
}

std::size_t readout_ops(const LrnnLayer& l) {
  std::size_t ops = 0;
  const std::size_t r = l.readout.rows();
  for (std::size_t i = 0; i < r; ++i) {
    for (std::size_t k = 0; k < l.d; ++k) {
      if (!l.readout_feature.empty())
        ops += lin_ops(coeffs(l.readout_feature, i, k), l.readout(i, k) != 0);
    }
    for (std::size_t j = 0; j < l.m; ++j) {
      std::size_t terms = 0;
      for (std::size_t k = 0; k < l.d; ++k) {
        const bool nonzero_c = !l.readout_feature.empty() || l.readout(i, k) != 0;
        terms += nonzero_c;
        ops += nonzero_c && (!l.readout_feature.empty() || l.readout(i, k) != 1);
      }
      terms += !l.readout_bias.empty() && l.readout_bias(i, j) != 0;
      ops += terms >= 2;
    }
  }
  return ops;
}

std::size_t chunk_ops_bound(const LrnnLayer& l, std::size_t n, std::size_t C) {
  const std::size_t d = l.d, m = l.m, K = l.features;
  const std::size_t per_position =
      (1 + d + m) * (K + 1) + C * (d + 2) + C * (d + m) * 3 + d * m * 3 + 2 * m;
  return n * per_position;
}

std::uint32_t sum_cost(std::size_t operands, FaninModel f) {
  if (operands <= 1) return 0;
  if (f == FaninModel::unbounded) return 1;
  return static_cast<std::uint32_t>(ceil_log2(operands));
}

}  // namespace

CombineCost combine_cost(CombineStructure s, std::size_t d, std::size_t m) {
  const std::size_t big = d >= 2;
  switch (s) {
    case CombineStructure::dense:
      return {d * d * (d + big) + d * m * (d + 1), d * m * (d + 1)};
    case CombineStructure::diagonal:
      return {d + 2 * d * m, 2 * d * m};
    case CombineStructure::pd:
      return {d * d * (d + big) + d * (d + big + 1) + d * m + d * m * (d + 1),
              d * m + d * m * (d + 1)};
  }
  return {};
}

SizeBreakdown predict_size(const Model& model, std::size_t n, const CompileOptions& o) {
  SizeBreakdown s;
  std::size_t rows = 0, cols = 0;
  for (std::size_t li = 0; li < model.layers.size(); ++li) {
    const auto* l = std::get_if<LrnnLayer>(&model.layers[li].layer);
    if (!l) continue;
    const bool last = li + 1 == model.layers.size();
    if (li > 0) {
      const InputMap& map = *model.layers[li].input;
      for (std::size_t q = 0; q < map.weights.rows(); ++q) {
        std::size_t terms = 0, muls = 0;
        for (std::size_t p = 0; p < rows * cols; ++p) {
          terms += map.weights(q, p) != 0;
          muls += map.weights(q, p) != 0 && map.weights(q, p) != 1;
        }
        terms += !map.bias.empty() && map.bias(q, 0) != 0;
        s.input_maps += n * (muls + (terms >= 2));
      }
    }
    const CombineStructure st = combine_structure(*l, o.structure);
    if (o.scan.chunk > 0) {
      s.chunks += chunk_ops_bound(*l, n, o.scan.chunk);
    } else {
      s.leaves += n * leaf_ops(*l, st);
      // anchor: A_1 S_0 + B_1 with generic S_0
      const std::size_t d = l->d, m = l->m;
      s.anchor += st == CombineStructure::diagonal ? 2 * d * m
                  : st == CombineStructure::pd     ? d * m + d * m * (d + 1)
                                                   : d * m * (d + 1);
      const CombineCost c = combine_cost(st, d, m);
      const std::size_t nodes = prefix_node_count(o.scan.kind, n, o.scan.ladner_fischer_k);
      const std::size_t anchored = n - 1;
      s.combines += anchored * c.anchored + (nodes - anchored) * c.full;
    }
    const std::size_t positions = last && o.outputs == OutputMode::last ? 1 : n;
    s.readout += positions * readout_ops(*l);
    rows = l->readout.rows();
    cols = l->m;
  }
  s.accept = o.acceptance ? 1 : 0;
  return s;
}

std::size_t estimate_lrnn_gates(const Model& model, std::size_t n, const CompileOptions& options) {
  return predict_size(model, n, options).total();
}

std::uint32_t predict_depth(const Model& model, std::size_t n, const CompileOptions& o,
                            FaninModel f) {
  const LrnnLayer& l = std::get<LrnnLayer>(model.layers.at(0).layer);
  const CombineStructure st = combine_structure(l, o.structure);
  const std::size_t d = l.d;
  auto lin_depth = [&](const std::vector<Rational>& c) {
    std::size_t terms = 0;
    bool mul = false;
    for (const Rational& x : c) {
      terms += x != 0;
      mul = mul || (x != 0 && x != 1);
    }
    return static_cast<std::uint32_t>(mul) + sum_cost(terms, f);
  };
  struct Track {
    std::uint32_t a = 0, a2 = 0, b = 0;  // dense: a; diagonal: a; pd: a = P, a2 = D
  };
  Track leaf;
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      if (st == CombineStructure::dense) leaf.a = std::max(leaf.a, lin_depth(coeffs(l.A, i, j)));
      if (st == CombineStructure::diagonal && i == j)
        leaf.a = std::max(leaf.a, lin_depth(coeffs(l.A, i, j)));
      if (st == CombineStructure::pd) {
        std::vector<Rational> c;
        for (const auto& r : l.record) c.push_back(std::get<PdParams>(r).image[j] == i ? 1 : 0);
        leaf.a = std::max(leaf.a, lin_depth(c));
      }
    }
  if (st == CombineStructure::pd)
    for (std::size_t j = 0; j < d; ++j) {
      std::vector<Rational> c;
      for (const auto& r : l.record) c.push_back(std::get<PdParams>(r).diag[j]);
      leaf.a2 = std::max(leaf.a2, lin_depth(c));
    }
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < l.m; ++j) leaf.b = std::max(leaf.b, lin_depth(coeffs(l.B, i, j)));

  const std::uint32_t sd = sum_cost(d, f), sd1 = sum_cost(d + 1, f), one = 1;
  // B part of (u applied to s) + offset.
  auto apply = [&](const Track& u, std::uint32_t s, std::uint32_t offset) -> std::uint32_t {
    switch (st) {
      case CombineStructure::dense:
        return std::max(std::max(u.a, s) + one, offset) + sd1;
      case CombineStructure::diagonal:
        return std::max(std::max(u.a, s) + one, offset) + one;
      case CombineStructure::pd:
        return std::max(std::max(u.a, std::max(u.a2, s) + one) + one, offset) + sd1;
    }
    return 0;
  };
  std::vector<Track> v(n, leaf);
  v[0] = {0, 0, apply(leaf, 0, leaf.b)};  // S_0 constants have depth 0
  for (const auto& level : o.scan.network(n))
    for (const PrefixNode& node : level) {
      const Track u = v[node.target], w = v[node.source];
      Track r;
      switch (st) {
        case CombineStructure::dense:
          r.a = std::max(u.a, w.a) + one + sd;
          break;
        case CombineStructure::diagonal:
          r.a = std::max(u.a, w.a) + one;
          break;
        case CombineStructure::pd:
          r.a = std::max(u.a, w.a) + one + sd;
          r.a2 = std::max(w.a2, std::max(w.a, u.a2) + one + sd) + one;
          break;
      }
      r.b = apply(u, w.b, u.b);
      v[node.target] = r;
    }
  // readout y = Σ_k C_ik S_kj + c₀ (generic C), then the acceptance test.
  const bool c0 = !l.readout_bias.empty();
  std::uint32_t depth = 0;
  for (std::size_t t = 0; t < n; ++t) {
    if (o.outputs == OutputMode::last && t + 1 != n) continue;
    depth = std::max(depth, v[t].b + one + sum_cost(d + c0, f));
  }
  return o.acceptance ? std::max(depth, v[n - 1].b + one + sum_cost(d + c0, f) + one) : depth;
}

}  // namespace rnncc
