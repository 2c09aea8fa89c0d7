// Threshold lowering (the Dadda tree + carry-lookahead comparator of the header, and its ripple
// twin).
#include "circuits/passes/lower_threshold.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "circuits/arith/integer_arith.hpp"
#include "circuits/passes/dead_gates.hpp"

namespace rnncc {

namespace {

// Unbounded fan-in levels of the gates built so far (inputs and constants 0), extended on
// demand.
class Levels {
 public:
  std::uint32_t of(const Circuit& c, GateId g) {
    for (GateId id = static_cast<GateId>(level_.size()); id < c.size(); ++id) {
      std::uint32_t l = 0;
      for (GateId o : c.operands(id)) l = std::max(l, level_[o] + 1);
      level_.push_back(l);
    }
    return level_[g];
  }

 private:
  std::vector<std::uint32_t> level_;
};

// The positive form of Σ wᵢxᵢ ≥ θ both lowerings start from: Σ |wᵢ|·yᵢ ≥ T, where a zero weight
// drops its term, a constant operand moves into T, and a negative weight complements its input
// (w·x = w + |w|·¬x, so T grows by |w|).
struct PositiveTerms {
  std::vector<std::pair<GateId, std::uint64_t>> terms;  // (yᵢ, |wᵢ|)
  std::int64_t T = 0;
};
PositiveTerms positive_terms(CircuitBuilder& b, std::span<const GateId> ops,
                             std::span<const std::int64_t> weights, std::int64_t theta) {
  const Circuit& c = b.view();
  PositiveTerms out;
  out.T = theta;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::int64_t w = weights[i];
    if (w == 0) continue;
    if (b.is_constant(ops[i])) {  // a constant term moves into the threshold
      if (c.constant(ops[i]) != 0) out.T -= w;
      continue;
    }
    GateId y = ops[i];
    if (w < 0) {  // w·x = w + |w|·¬x
      y = b.not_(y);
      out.T += -w;
    }
    out.terms.emplace_back(y, static_cast<std::uint64_t>(w < 0 ? -w : w));
  }
  return out;
}

GateId lower_threshold_ripple(CircuitBuilder& b, std::span<const GateId> ops,
                              std::span<const std::int64_t> weights, std::int64_t theta,
                              bool /*shared*/, Levels* /*levels*/) {
  const PositiveTerms pt = positive_terms(b, ops, weights, theta);
  const std::int64_t T = pt.T;
  std::uint64_t W = 0;
  std::vector<std::vector<GateId>> columns;
  for (const auto& [y, a] : pt.terms) {
    W += a;
    for (unsigned j = 0; j < 64; ++j)
      if ((a >> j) & 1) {
        if (columns.size() <= j) columns.resize(j + 1);
        columns[j].push_back(y);
      }
  }
  if (T <= 0) return b.constant(Rational(1));
  if (static_cast<std::uint64_t>(T) > W) return b.constant(Rational(0));
  // Column compression, least significant column first; each column is a FIFO, so the adders
  // of a column form a balanced tree.
  std::vector<GateId> s;  // s[j]: the one remaining bit of column j (kNoGate: none)
  for (std::size_t j = 0; j < columns.size(); ++j) {
    std::size_t head = 0;
    while (columns[j].size() - head >= 2) {
      const GateId x = columns[j][head], y = columns[j][head + 1];
      GateId sum, carry;
      const GateId xy[] = {x, y};
      if (columns[j].size() - head >= 3) {  // full adder
        const GateId z = columns[j][head + 2];
        head += 3;
        const GateId t = b.xor_(xy);
        const GateId tz[] = {t, z};
        sum = b.xor_(tz);
        const GateId ab = b.and_(xy), zt = b.and_(tz);
        const GateId either[] = {ab, zt};
        carry = b.or_(either);
      } else {  // half adder
        head += 2;
        sum = b.xor_(xy);
        carry = b.and_(xy);
      }
      columns[j].push_back(sum);
      if (columns.size() <= j + 1) columns.resize(j + 2);
      columns[j + 1].push_back(carry);
    }
    s.push_back(columns[j].size() > head ? columns[j][head] : kNoGate);
  }
  // Ripple comparator S ≥ T from the least significant bit up; kNoGate stands for the constant
  // 1 (g) or 0 (a missing s_j), so no constant gate is made that the result does not use.
  GateId g = kNoGate;
  for (std::size_t j = 0; j < s.size(); ++j) {
    const bool t = j < 63 && ((static_cast<std::uint64_t>(T) >> j) & 1);
    if (t) {  // g = s_j ∧ g
      if (s[j] == kNoGate) {
        g = b.constant(Rational(0));
      } else if (g == kNoGate) {
        g = s[j];
      } else {
        const GateId both[] = {s[j], g};
        g = b.and_(both);
      }
    } else if (g != kNoGate && s[j] != kNoGate) {  // g = s_j ∨ g (1 ∨ x = 1, 0 ∨ g = g)
      const GateId either[] = {s[j], g};
      g = b.or_(either);
    }
  }
  return g == kNoGate ? b.constant(Rational(1)) : g;
}

// A (generate, transmit) pair; a group of columns generates a carry (g) or passes one on (t).
struct GT {
  GateId g, t;
};

// The carry out of a run of columns (least significant first): a radix-3 tree of the
// carry-lookahead operator (G, T) = (G₂ ∨ T₂∧G₁ ∨ T₂∧T₁∧G₀, T₂∧T₁∧T₀) [Knu98 §4.3.1], 2 levels
// per tree level; constant g's and t's fold, and the T's nobody reads are swept.
GateId carry_tree(CircuitBuilder& b, std::vector<GT> level) {
  while (level.size() > 1) {
    std::vector<GT> next;
    for (std::size_t i = 0; i < level.size(); i += 3) {
      const std::size_t n = std::min<std::size_t>(3, level.size() - i);
      std::vector<GateId> terms, ts, term;
      for (std::size_t a = n; a-- > 0;) {  // g_a ∧ t_{a+1} ∧ … ∧ t_{n−1}
        term.assign(1, level[i + a].g);
        for (std::size_t h = a + 1; h < n; ++h) term.push_back(level[i + h].t);
        terms.push_back(b.and_(term));
        ts.push_back(level[i + a].t);
      }
      next.push_back({b.or_(terms), b.and_(ts)});
    }
    level = std::move(next);
  }
  return level[0].g;
}

// The carry into column m of x + y, two m-bit rows (bits may be constant gates; they fold):
// the pairs g_j = x_j ∧ y_j, t_j = x_j ∨ y_j through carry_tree.
GateId carry_into_top(CircuitBuilder& b, const Word& x, const Word& y) {
  std::vector<GT> level;
  for (std::size_t j = 0; j < x.width(); ++j) {
    const GateId xy[] = {x[j], y[j]};
    level.push_back({b.and_(xy), b.or_(xy)});
  }
  return carry_tree(b, std::move(level));
}

}  // namespace

GateId at_least(CircuitBuilder& b, std::span<const GateId> s, std::uint64_t T) {
  const GateId zero = b.constant(Rational(0)), one = b.constant(Rational(1));
  if (s.size() < 64 && T >> s.size() != 0) return zero;
  std::vector<GT> level{{one, zero}};  // g₋₁ = 1: s = T counts
  for (std::size_t j = 0; j < s.size(); ++j)
    level.push_back(j < 64 && ((T >> j) & 1) ? GT{zero, s[j]} : GT{s[j], one});
  return carry_tree(b, std::move(level));
}

namespace {

constexpr std::uint32_t kDaddaMargin = 4;

// [S ≥ T] (see the header): weights divided by their gcd, the all-ones and any-one cases as
// one and/or gate; otherwise both the Dadda construction and the ripple one, the Dadda kept
// only when it is kDaddaMargin levels shallower (the other is swept).
GateId lower_threshold_dadda(CircuitBuilder& b, std::span<const GateId> ops,
                             std::span<const std::int64_t> weights, std::int64_t theta, bool shared,
                             Levels* levels) {
  const Circuit& c = b.view();
  PositiveTerms pt = positive_terms(b, ops, weights, theta);
  auto& terms = pt.terms;
  const std::int64_t T = pt.T;
  if (T <= 0) return b.constant(Rational(1));
  if (terms.empty()) return b.constant(Rational(0));
  std::uint64_t g = 0, W = 0, least = UINT64_MAX;
  for (const auto& [y, a] : terms) g = std::gcd(g, a);
  for (auto& [y, a] : terms) {  // Σ aᵢyᵢ ≥ T ⇔ Σ (aᵢ/g)yᵢ ≥ ⌈T/g⌉
    a /= g;
    W += a;
    least = std::min(least, a);
  }
  const std::uint64_t Tu = (static_cast<std::uint64_t>(T) + g - 1) / g;
  if (Tu > W) return b.constant(Rational(0));
  std::vector<GateId> ys;
  std::vector<std::int64_t> as;
  for (const auto& [y, a] : terms) {
    ys.push_back(y);
    as.push_back(static_cast<std::int64_t>(a));
  }
  if (Tu == W) return b.and_(ys);     // every yᵢ must be 1
  if (Tu <= least) return b.or_(ys);  // any one yᵢ suffices
  const GateId ripple =
      lower_threshold_ripple(b, ys, as, static_cast<std::int64_t>(Tu), false, nullptr);
  const std::size_t m = static_cast<std::size_t>(std::bit_width(W));  // W < 2^m
  GateId dadda;
  if (shared) {  // S = x + y once, shared by every gate over the same weighted operands
    std::vector<std::vector<GateId>> columns(m);  // S < 2^m: the two rows add up exactly
    for (const auto& [y, a] : terms)
      for (std::size_t j = 0; j < m; ++j)
        if ((a >> j) & 1) columns[j].push_back(y);
    const TwoRows r =
        reduce_bit_heap(b, std::move(columns), 0, Reduction::dadda, FullAdderForm::flat);
    dadda = at_least(b, add_prefix(b, r.x, r.y).sum.bits, Tu);
  } else {  // bit m of S + 2^m − T: the constant joins the heap
    std::vector<std::vector<GateId>> columns(m + 1);
    for (const auto& [y, a] : terms)
      for (std::size_t j = 0; j < m; ++j)
        if ((a >> j) & 1) columns[j].push_back(y);
    const Integer offset = (Integer(1) << m) - Integer(Tu);
    TwoRows r =
        reduce_bit_heap(b, std::move(columns), offset, Reduction::dadda, FullAdderForm::flat);
    const GateId xm = r.x[m], ym = r.y[m];
    r.x.bits.pop_back();
    r.y.bits.pop_back();
    const GateId top[] = {xm, ym, carry_into_top(b, r.x, r.y)};
    dadda = b.xor_(top);
  }
  // The ripple is kept unless the Dadda construction is kDaddaMargin levels shallower: below
  // that (a Dadda stage is 2 levels) the ripple's smaller size wins; measured in docs/depth.md.
  return levels->of(c, dadda) + kDaddaMargin <= levels->of(c, ripple) ? dadda : ripple;
}

template <class Lower>
Circuit lower_all(const Circuit& c, LowerThresholdStats* stats, Lower lower_threshold) {
  CircuitBuilder b;
  Levels levels;
  b.reserve(c.size());
  std::vector<GateId> map(c.size(), kNoGate);
  std::vector<GateId> ops;
  std::vector<std::int64_t> w;
  std::size_t lowered = 0;
  // Gates over the same operands with the same weights (a family differing in θ, as the block
  // sums of iterated addition) share one adder tree.
  std::map<std::pair<std::vector<GateId>, std::vector<std::int64_t>>, std::size_t> family;
  const auto key = [&](GateId id) {
    const auto o = c.operands(id);
    std::vector<std::int64_t> ws(o.size(), 1);
    if (c.kind(id) == GateKind::thr) ws.assign(c.weights(id).begin(), c.weights(id).end());
    return std::pair{std::vector<GateId>(o.begin(), o.end()), std::move(ws)};
  };
  for (GateId id = 0; id < c.size(); ++id)
    if (c.kind(id) == GateKind::maj || c.kind(id) == GateKind::thr) ++family[key(id)];
  for (GateId id = 0; id < c.size(); ++id) {
    ops.clear();
    for (GateId o : c.operands(id)) ops.push_back(map[o]);
    switch (c.kind(id)) {
      case GateKind::input:
        map[id] = b.input(c.input_names()[c.input_index(id)]);
        break;
      case GateKind::constant:
        map[id] = b.constant(c.constant(id));
        break;
      case GateKind::maj:  // [Σ xᵢ > k/2] = [Σ xᵢ ≥ ⌊k/2⌋ + 1]
        w.assign(ops.size(), 1);
        map[id] = lower_threshold(b, ops, w, static_cast<std::int64_t>(ops.size() / 2 + 1),
                                  family[key(id)] > 1, &levels);
        ++lowered;
        break;
      case GateKind::thr: {
        const auto ws = c.weights(id);
        w.assign(ws.begin(), ws.end());
        map[id] = lower_threshold(b, ops, w, c.threshold(id), family[key(id)] > 1, &levels);
        ++lowered;
        break;
      }
      default:
        map[id] = b.raw(c.kind(id), ops);
    }
  }
  std::vector<GateId> outs;
  for (GateId o : c.outputs()) outs.push_back(map[o]);
  const Circuit adders = b.finish(std::move(outs), c.output_names());
  // Drop what the adders made that the comparator does not read (the sum bits of columns the
  // comparator never looks at, …): keep the inputs, every gate of `c` and what they read.
  DeadGateStats sweep;
  Circuit out = sweep_dead_gates(adders, map, &sweep);
  if (stats)
    *stats = {
        .gates_in = c.size(), .gates_out = out.size(), .lowered = lowered, .swept = sweep.dead};
  return out;
}

}  // namespace

Circuit lower_threshold_gates(const Circuit& c, LowerThresholdStats* stats) {
  return lower_all(c, stats, lower_threshold_dadda);
}

Circuit lower_threshold_gates_ripple(const Circuit& c, LowerThresholdStats* stats) {
  return lower_all(c, stats, lower_threshold_ripple);
}

}  // namespace rnncc
