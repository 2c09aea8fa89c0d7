// Threshold lowering (the Dadda tree + carry-lookahead comparator of the header, and its ripple
// twin).
#include "circuits/passes/lower_threshold.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "circuits/compile/integer_arith.hpp"
#include "circuits/passes/dead_gates.hpp"

namespace rnncc {

namespace {

GateId lower_threshold_ripple(CircuitBuilder& b, std::span<const GateId> ops,
                              std::span<const std::int64_t> weights, std::int64_t theta) {
  const Circuit& c = b.view();
  std::int64_t T = theta;
  std::uint64_t W = 0;
  std::vector<std::vector<GateId>> columns;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::int64_t w = weights[i];
    if (w == 0) continue;
    if (b.is_constant(ops[i])) {  // a constant term moves into the threshold
      if (c.constant(ops[i]) != 0) T -= w;
      continue;
    }
    GateId y = ops[i];
    if (w < 0) {  // w·x = w + |w|·¬x
      y = b.not_(y);
      T += -w;
    }
    const std::uint64_t a = static_cast<std::uint64_t>(w < 0 ? -w : w);
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

// [S ≥ T] as the top bit of S + 2^m − T (m = bit length of W, see the header): a Dadda tree
// of flat full adders to two rows x, y, then x_m ⊕ y_m ⊕ C_m with the one-level lookahead
// carry C_m = OR_j (g_j ∧ p_{j+1} ∧ … ∧ p_{m−1}), g_j = x_j ∧ y_j, p_j = x_j ⊕ y_j.
GateId lower_threshold_dadda(CircuitBuilder& b, std::span<const GateId> ops,
                             std::span<const std::int64_t> weights, std::int64_t theta) {
  const Circuit& c = b.view();
  std::int64_t T = theta;
  std::uint64_t W = 0;
  std::vector<std::vector<GateId>> columns;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::int64_t w = weights[i];
    if (w == 0) continue;
    if (b.is_constant(ops[i])) {  // a constant term moves into the threshold
      if (c.constant(ops[i]) != 0) T -= w;
      continue;
    }
    GateId y = ops[i];
    if (w < 0) {  // w·x = w + |w|·¬x
      y = b.not_(y);
      T += -w;
    }
    const std::uint64_t a = static_cast<std::uint64_t>(w < 0 ? -w : w);
    W += a;
    for (unsigned j = 0; j < 64; ++j)
      if ((a >> j) & 1) {
        if (columns.size() <= j) columns.resize(j + 1);
        columns[j].push_back(y);
      }
  }
  if (T <= 0) return b.constant(Rational(1));
  if (static_cast<std::uint64_t>(T) > W) return b.constant(Rational(0));
  const std::size_t m = static_cast<std::size_t>(std::bit_width(W));  // W < 2^m
  columns.resize(m + 1);  // S + 2^m − T < 2^(m+1): exact in m + 1 columns
  const Integer offset = (Integer(1) << m) - Integer(T);
  const TwoRows r =
      reduce_bit_heap(b, std::move(columns), offset, Reduction::dadda, FullAdderForm::flat);
  // A balanced tree of gates of at most 3 operands (so a netlist's and/or covers stay small and
  // ABC strashes our BLIF and AIGER alike); one operand: itself. Depth ⌈log₃ k⌉.
  const auto gate = [&](GateKind kind, std::vector<GateId> v) {
    while (v.size() > 1) {
      std::vector<GateId> next;
      for (std::size_t i = 0; i < v.size(); i += 3) {
        const std::span<const GateId> g(v.data() + i, std::min<std::size_t>(3, v.size() - i));
        next.push_back(g.size() == 1 ? g[0] : kind == GateKind::and_ ? b.and_(g) : b.or_(g));
      }
      v = std::move(next);
    }
    return v[0];
  };
  std::vector<GateId> p(m), terms, chain;
  for (std::size_t j = 0; j < m; ++j) {
    const GateId xy[] = {r.x[j], r.y[j]};
    p[j] = b.xor_(xy);
  }
  for (std::size_t j = 0; j < m; ++j) {
    const GateId xy[] = {r.x[j], r.y[j]};
    chain.assign(1, b.and_(xy));  // g_j ∧ p_{j+1} ∧ … ∧ p_{m−1}
    chain.insert(chain.end(), p.begin() + static_cast<std::ptrdiff_t>(j + 1), p.end());
    terms.push_back(gate(GateKind::and_, chain));
  }
  const GateId top[] = {r.x[m], r.y[m], gate(GateKind::or_, terms)};
  return b.xor_(top);
}

template <class Lower>
Circuit lower_all(const Circuit& c, LowerThresholdStats* stats, Lower lower_threshold) {
  CircuitBuilder b;
  b.reserve(c.size());
  std::vector<GateId> map(c.size(), kNoGate);
  std::vector<GateId> ops;
  std::vector<std::int64_t> w;
  std::size_t lowered = 0;
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
        map[id] = lower_threshold(b, ops, w, static_cast<std::int64_t>(ops.size() / 2 + 1));
        ++lowered;
        break;
      case GateKind::thr: {
        const auto ws = c.weights(id);
        w.assign(ws.begin(), ws.end());
        map[id] = lower_threshold(b, ops, w, c.threshold(id));
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
