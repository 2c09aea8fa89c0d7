#include "circuits/analysis.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rnncc {

std::uint32_t gate_depth_cost(const Circuit& c, GateId id, FaninModel model, NotCost not_cost) {
  const GateKind k = c.kind(id);
  if (k == GateKind::input || k == GateKind::constant) return 0;
  if (k == GateKind::not_ && not_cost == NotCost::free) return 0;
  if (model == FaninModel::unbounded) return 1;
  const std::uint32_t a = c.gate(id).arity();
  return a <= 2 ? 1 : static_cast<std::uint32_t>(std::bit_width(a - 1));  // ⌈log₂ a⌉
}

std::vector<std::uint32_t> depth_table(const Circuit& c, FaninModel model, NotCost not_cost) {
  std::vector<std::uint32_t> depth(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id) {
    std::uint32_t d = 0;
    for (GateId o : c.operands(id)) d = std::max(d, depth[o]);
    depth[id] = d + gate_depth_cost(c, id, model, not_cost);
  }
  return depth;
}

std::vector<std::uint32_t> fanout_table(const Circuit& c) {
  std::vector<std::uint32_t> fanout(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id)
    for (GateId o : c.operands(id)) ++fanout[o];
  return fanout;
}

std::vector<bool> live_table(const Circuit& c) {
  std::vector<bool> live(c.size(), false);
  for (GateId o : c.outputs()) live[o] = true;
  for (GateId id = static_cast<GateId>(c.size()); id-- > 0;)
    if (live[id])
      for (GateId o : c.operands(id)) live[o] = true;
  return live;
}

std::vector<GateId> critical_path(const Circuit& c, FaninModel model, NotCost not_cost) {
  if (c.outputs().empty()) return {};
  const auto depth = depth_table(c, model, not_cost);
  GateId g = *std::max_element(c.outputs().begin(), c.outputs().end(),
                               [&](GateId a, GateId b) { return depth[a] < depth[b]; });
  std::vector<GateId> path{g};
  while (!c.operands(g).empty()) {
    auto ops = c.operands(g);
    g = *std::max_element(ops.begin(), ops.end(),
                          [&](GateId a, GateId b) { return depth[a] < depth[b]; });
    path.push_back(g);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::size_t CircuitStats::operations() const {
  return size - by_kind[static_cast<std::size_t>(GateKind::input)] -
         by_kind[static_cast<std::size_t>(GateKind::constant)];
}

CircuitStats compute_stats(const Circuit& c) {
  CircuitStats s;
  s.size = c.size();
  s.inputs = c.inputs().size();
  s.outputs = c.outputs().size();
  const auto unbounded = depth_table(c, FaninModel::unbounded, NotCost::free);
  const auto bounded = depth_table(c, FaninModel::bounded, NotCost::free);
  const auto counting_not = depth_table(c, FaninModel::unbounded, NotCost::counted);
  const auto live = live_table(c);
  for (GateId id = 0; id < c.size(); ++id) {
    s.live_size += live[id] || c.kind(id) == GateKind::input;
    ++s.by_kind[static_cast<std::size_t>(c.kind(id))];
    s.max_fanin = std::max(s.max_fanin, static_cast<std::uint32_t>(c.operands(id).size()));
    if (unbounded[id] >= s.width.size()) s.width.resize(unbounded[id] + 1, 0);
    ++s.width[unbounded[id]];
  }
  for (GateId o : c.outputs()) {
    s.depth = std::max(s.depth, unbounded[o]);
    s.bounded_fanin_depth = std::max(s.bounded_fanin_depth, bounded[o]);
    s.depth_counting_not = std::max(s.depth_counting_not, counting_not[o]);
  }
  return s;
}

}  // namespace rnncc

namespace rnncc {

std::vector<std::uint32_t> degree_table(const Circuit& c) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> deg(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    std::uint64_t d = 0;
    bool none = false;
    switch (c.kind(id)) {
      case GateKind::constant:
        d = 0;
        break;
      case GateKind::input:
        d = 1;
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::neg:
      case GateKind::sum:
        for (GateId o : ops) {
          none = none || deg[o] == kNone;
          d = std::max<std::uint64_t>(d, deg[o]);
        }
        break;
      case GateKind::mul:
      case GateKind::product:
        for (GateId o : ops) {
          none = none || deg[o] == kNone;
          d += deg[o];
        }
        break;
      default:
        none = true;
    }
    deg[id] = none || d >= kNone ? kNone : static_cast<std::uint32_t>(d);
  }
  return deg;
}

std::uint32_t degree(const Circuit& c) {
  const auto deg = degree_table(c);
  std::uint32_t d = 0;
  for (GateId o : c.outputs()) d = std::max(d, deg[o]);
  return d;
}

}  // namespace rnncc

namespace rnncc {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// x raised past the rounding error of computing it from `terms` operands (see analysis.hpp).
double round_up(double x, std::size_t terms) {
  if (std::isinf(x)) return x;
  return x + 1e-9 * std::max(1.0, std::fabs(x)) + 1e-15 * static_cast<double>(terms);
}

// An upper bound on log₂ z for an integer z ≥ 1; exact for powers of two.
double log2_upper(const Integer& z) {
  const std::size_t bits = bit_length(z);
  if (boost::multiprecision::lsb(z) + 1 == bits) return static_cast<double>(bits - 1);
  if (bits <= 53) return round_up(std::log2(z.convert_to<double>()), 1);
  // z < (m + 1)·2^s with m = ⌊z / 2^s⌋ < 2^53 exact in a double.
  const std::size_t s = bits - 53;
  const Integer m = z >> s;
  return round_up(std::log2(m.convert_to<double>() + 1) + static_cast<double>(s), 1);
}

}  // namespace

std::vector<HeightBound> height_table(const Circuit& c, double input_log2_max) {
  if (std::isnan(input_log2_max))
    throw std::invalid_argument("height_table: input_log2_max is NaN");
  std::vector<HeightBound> t(c.size());
  std::vector<double> terms;
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    HeightBound& b = t[id];
    switch (c.kind(id)) {
      case GateKind::constant: {
        const Rational& q = c.constant(id);
        b.denominator = denominator(q);
        b.log2_numerator = q == 0 ? kMinusInf : log2_upper(abs(numerator(q)));
        break;
      }
      case GateKind::input:
        b.log2_numerator = input_log2_max;
        break;
      case GateKind::add:
      case GateKind::sub:
      case GateKind::sum: {
        Integer d = t[ops[0]].denominator;
        for (GateId o : ops.subspan(1))
          if (t[o].denominator != d) d = lcm(d, t[o].denominator);
        // log₂ of |N| ≤ Σ 2^(h_i)·(D/D_i), by log-sum-exp around the largest exponent.
        terms.clear();
        for (GateId o : ops) {
          if (t[o].log2_numerator == kMinusInf) continue;  // a zero summand
          const Integer& di = t[o].denominator;
          terms.push_back(t[o].log2_numerator + (di == d ? 0.0 : log2_upper(d / di)));
        }
        double h = kMinusInf;
        if (!terms.empty()) {
          const double top = *std::max_element(terms.begin(), terms.end());
          if (std::isinf(top)) {
            h = top;
          } else {
            double s = 0;
            for (double x : terms) s += std::exp2(x - top);
            h = round_up(top + std::log2(s), ops.size());
          }
        }
        b = {std::move(d), h};
        break;
      }
      case GateKind::neg:
        b = t[ops[0]];
        break;
      case GateKind::mul:
      case GateKind::product: {
        Integer d = 1;
        double h = 0;
        for (GateId o : ops) {
          d *= t[o].denominator;
          h += t[o].log2_numerator;
        }
        bool zero = false;
        for (GateId o : ops) zero = zero || t[o].log2_numerator == kMinusInf;
        b = {std::move(d), zero ? kMinusInf : round_up(h, ops.size())};
        break;
      }
      default:  // boolean, threshold and test gates: 0 or 1
        b = {Integer(1), 0.0};
    }
  }
  return t;
}

std::vector<HeightBound> output_heights(const Circuit& c, double input_log2_max) {
  const auto t = height_table(c, input_log2_max);
  std::vector<HeightBound> out;
  for (GateId o : c.outputs()) out.push_back(t[o]);
  return out;
}

std::vector<Integer> constant_denominators(const Circuit& c) {
  std::vector<Integer> out;
  for (GateId id = 0; id < c.size(); ++id)
    if (c.kind(id) == GateKind::constant && denominator(c.constant(id)) != 1)
      out.push_back(denominator(c.constant(id)));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace rnncc
