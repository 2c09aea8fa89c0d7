// Finite-state models to fan-in-2 boolean circuits (finite_state.hpp states the construction,
// the depth bound and the sources; docs/circuits.md, "Finite-state models to boolean circuits").
#include "circuits/compile/finite_state.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <stdexcept>
#include <tuple>

#include "algebra/error.hpp"
#include "circuits/compile/finite_machine.hpp"

namespace rnncc {

namespace {

using finite_state_internal::and2;
using finite_state_internal::FiniteMachine;
using finite_state_internal::GMat;
using finite_state_internal::kFalse;
using finite_state_internal::machine_of;
using finite_state_internal::materialize;
using finite_state_internal::or_tree;

// ---- the prefix compiler, shared by every machine --------------------------------------

// A scan element: a segment's transition relation (Q×Q), or — anchored, the segment starts at
// position 1 — the state reached from the starts (Q×k).
struct Element {
  bool anchored = false;
  GMat M;
  std::uint32_t chain = 0;
};

// X (Q×Q) · Y (Q×c) over the boolean semiring, skipping constant-0 entries: for each column j
// of Y, only the pairs (X(i,l), Y(l,j)) with both factors non-constant are visited (column l of
// X through its list of nonzero rows), so the work is the number of terms built, not Q²·c.
// The terms of R(i,j) are collected in increasing l, as a dense loop would, so the circuit is
// the same gate for gate.
GMat product(CircuitBuilder& b, const GMat& X, const GMat& Y) {
  const std::size_t Q = X.rows(), c = Y.cols();
  GMat R(Q, c, kFalse);
  std::vector<std::vector<std::size_t>> rows_of(X.cols());  // nonzero rows of each X column
  for (std::size_t i = 0; i < Q; ++i)
    for (std::size_t l = 0; l < X.cols(); ++l)
      if (X(i, l) != kFalse) rows_of[l].push_back(i);
  std::vector<std::vector<GateId>> terms(Q);
  std::vector<std::size_t> touched;
  for (std::size_t j = 0; j < c; ++j) {
    touched.clear();
    for (std::size_t l = 0; l < Y.rows(); ++l) {
      if (Y(l, j) == kFalse) continue;
      for (std::size_t i : rows_of[l]) {
        if (terms[i].empty()) touched.push_back(i);
        terms[i].push_back(and2(b, X(i, l), Y(l, j)));
      }
    }
    std::sort(touched.begin(), touched.end());
    for (std::size_t i : touched) {
      R(i, j) = or_tree(b, terms[i]);
      terms[i].clear();
    }
  }
  return R;
}

// With outputs = last only v[n−1] is read: keep the nodes it depends on. Walking the levels
// backwards, a node is kept iff its target's new value is needed; then its source's (and its
// target's) old value is needed.
PrefixNetwork prune(const PrefixNetwork& net, std::size_t n) {
  std::vector<char> need(n, 0);
  need[n - 1] = 1;
  PrefixNetwork out(net.size());
  for (std::size_t l = net.size(); l-- > 0;) {
    for (const PrefixNode& node : net[l])
      if (need[node.target]) out[l].push_back(node);
    for (const PrefixNode& node : out[l]) need[node.source] = 1;
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& lv) { return lv.empty(); }),
            out.end());
  return out;
}

// Upper bound on the gates the compiler creates; folding and sharing only lower it.
// A segment's relation can only be non-constant at (q', q) when q' is reachable from q in
// exactly L steps (L its length) under R = ∪_σ δ(·,σ); for the anchored value, when q' is
// reachable in L steps from a start. So a combine of a later segment of length L₂ and an earlier
// one of length L₁ builds at most 2·#{(i, l, j) : R^{L₂}(i,l) ∧ R^{L₁}(l,j)} gates (an AND per
// term and an OR per extra term). The patterns R^L are computed as bitsets, once per length,
// and the count once per (L₂, L₁, anchored): prefix networks repeat few length pairs. A dense
// bound (2Q³ per combine) is used when it is already below the limit, skipping this work.
class PatternEstimate {
 public:
  PatternEstimate(const std::vector<std::vector<std::size_t>>& delta,
                  const std::vector<std::size_t>& starts)
      : Q_(delta.size()), words_((Q_ + 63) / 64), delta_(delta), starts_(starts) {}

  // Gates of combining (later length L2) ∘ (earlier length L1, anchored or not).
  std::size_t combine(std::size_t L2, std::size_t L1, bool anchored) {
    const auto key = std::make_tuple(L2, L1, anchored);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    const Bits& A = power(L2);  // A[i] = row i: the l with i reachable from l in L2 steps
    std::size_t terms = 0;
    const std::size_t cols = anchored ? starts_.size() : Q_;
    for (std::size_t j = 0; j < cols; ++j) {
      // column j of the earlier pattern: the l reachable from j (or from start j) in L1 steps
      std::vector<std::uint64_t> col(words_, 0);
      const Bits& B = power(L1);
      const std::size_t from = anchored ? starts_[j] : j;
      for (std::size_t l = 0; l < Q_; ++l)
        if (B[l][from / 64] >> (from % 64) & 1) col[l / 64] |= std::uint64_t{1} << (l % 64);
      for (std::size_t i = 0; i < Q_; ++i) {
        std::size_t k = 0;
        for (std::size_t w = 0; w < words_; ++w) k += std::popcount(A[i][w] & col[w]);
        terms += k;
      }
    }
    return cache_[key] = 2 * terms;
  }

 private:
  using Bits = std::vector<std::vector<std::uint64_t>>;  // Q rows of Q bits: [to][from]
  const Bits& power(std::size_t L) {
    if (auto it = powers_.find(L); it != powers_.end()) return it->second;
    if (L == 1) {
      Bits step(Q_, std::vector<std::uint64_t>(words_, 0));
      for (std::size_t q = 0; q < Q_; ++q)
        for (std::size_t to : delta_[q]) step[to][q / 64] |= std::uint64_t{1} << (q % 64);
      return powers_[1] = std::move(step);
    }
    // R^L = R^a ∘ R^{L−a} with a = ⌊L/2⌋: row i of R^L = OR over l with R^a(i,l) of row l of
    // R^{L−a}. Memoized, so a network's lengths cost O(log n) compositions each at most.
    const std::size_t a = L / 2;
    const Bits first = power(a), second = power(L - a);
    Bits r(Q_, std::vector<std::uint64_t>(words_, 0));
    for (std::size_t i = 0; i < Q_; ++i)
      for (std::size_t l = 0; l < Q_; ++l)
        if (first[i][l / 64] >> (l % 64) & 1)
          for (std::size_t w = 0; w < words_; ++w) r[i][w] |= second[l][w];
    return powers_[L] = std::move(r);
  }

  std::size_t Q_, words_;
  const std::vector<std::vector<std::size_t>>& delta_;
  const std::vector<std::size_t>& starts_;
  std::map<std::size_t, Bits> powers_;
  std::map<std::tuple<std::size_t, std::size_t, bool>, std::size_t> cache_;
};

std::size_t estimate(const PrefixNetwork& net, std::size_t n, std::size_t S,
                     const std::vector<std::vector<std::size_t>>& delta,
                     const std::vector<std::size_t>& starts, std::size_t max_gates) {
  const std::size_t Q = delta.size(), k = starts.size();
  const std::size_t base = n * Q * S + n * (Q * (k + 1) + 64);
  std::vector<char> anchored(n, 0);
  anchored[0] = 1;
  std::size_t dense = base;
  for (const auto& level : net)
    for (const PrefixNode& node : level) {
      dense += anchored[node.source] ? 2 * Q * Q * std::max<std::size_t>(k, 1) : 2 * Q * Q * Q;
      anchored[node.target] = anchored[node.source];
    }
  if (dense <= max_gates || Q <= 16) return dense;
  // Segment lengths: v[i] covers positions lo[i]..i.
  std::vector<std::size_t> lo(n);
  for (std::size_t i = 0; i < n; ++i) lo[i] = i;
  std::fill(anchored.begin(), anchored.end(), 0);
  anchored[0] = 1;
  PatternEstimate pe(delta, starts);
  std::size_t total = base;
  for (const auto& level : net)
    for (const PrefixNode& node : level) {
      const std::size_t L2 = node.target - lo[node.target] + 1,
                        L1 = node.source - lo[node.source] + 1;
      total += pe.combine(L2, L1, anchored[node.source]);
      lo[node.target] = lo[node.source];
      anchored[node.target] = anchored[node.source];
      if (total > max_gates) return total;  // enough to refuse
    }
  return total;
}

CompiledCircuit compile_core(const FiniteMachine& m, std::size_t n, const FiniteStateOptions& o) {
  check_length(n);
  const std::size_t Q = m.states(), S = m.symbols, k = m.starts.size();
  PrefixNetwork net = o.scan.network(n);
  if (o.outputs == OutputMode::last) net = prune(net, n);
  const std::size_t est = estimate(net, n, S, m.delta, m.starts, o.budget.max_gates);
  o.budget.check(est, "Q = " + std::to_string(Q));
  CompiledCircuit out;
  CircuitBuilder b;
  b.reserve(std::min<std::size_t>(est, std::size_t{1} << 22));
  detail::RegionRecorder rec{b, out.regions};
  rec.enter_at(RegionKind::input, 0, 0);

  const std::vector<std::vector<GateId>> x = one_hot_inputs(b, n, S, m.alphabet);

  // Leaves: M_t[q'][q] = OR_{σ : δ(q,σ) = q'} x[t,σ]; position 1 only the start columns.
  std::vector<Element> v(n);
  std::vector<std::vector<GateId>> into(Q);
  std::vector<GateId> terms;
  for (std::size_t t = 0; t < n; ++t) {
    rec.enter_at(RegionKind::leaf, 0, static_cast<std::uint32_t>(t + 1));
    Element& e = v[t];
    e.anchored = t == 0;
    e.M = GMat(Q, e.anchored ? k : Q, kFalse);
    for (std::size_t col = 0; col < e.M.cols(); ++col) {
      const std::size_t q = e.anchored ? m.starts[col] : col;
      for (std::size_t s = 0; s < S; ++s) into[m.delta[q][s]].push_back(x[t][s]);
      for (std::size_t to = 0; to < Q; ++to) {
        if (into[to].empty()) continue;
        terms.swap(into[to]);
        e.M(to, col) = or_tree(b, terms);
        terms.clear();
      }
    }
  }

  for (const auto& level : net)
    for (const PrefixNode& node : level) {
      Element& later = v[node.target];
      const Element& earlier = v[node.source];
      if (later.anchored)
        throw std::logic_error("prefix network combines into the complete prefix at position " +
                               std::to_string(node.target + 1));
      const std::uint32_t chain = std::max(later.chain, earlier.chain) + 1;
      rec.enter_combine(0, chain, node.target, node.source);
      Element r;
      r.anchored = earlier.anchored;
      r.chain = chain;
      r.M = product(b, later.M, earlier.M);
      later = std::move(r);
    }

  std::vector<GateId> outputs;
  std::vector<std::string> names;
  for (std::size_t t = 0; t < n; ++t) {
    if (o.outputs == OutputMode::last && t + 1 != n) continue;
    if (!v[t].anchored)
      throw std::logic_error("prefix network left position " + std::to_string(t + 1) +
                             " incomplete");
    rec.enter_at(RegionKind::accept, 0, static_cast<std::uint32_t>(t + 1));
    outputs.push_back(materialize(b, m.accept_gate(b, v[t].M)));
    names.push_back(o.outputs == OutputMode::last ? "accept"
                                                  : "accept[" + std::to_string(t + 1) + "]");
    out.combine_levels = std::max<std::size_t>(out.combine_levels, v[t].chain);
  }
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

// ---- the sequential reference ------------------------------------------------------------

struct Reference {
  CircuitBuilder b;
  std::vector<std::vector<GateId>> x;
};

// v_t[q'] = OR_{(q,σ) : δ(q,σ) = q'} (v_{t−1}[q] ∧ x[t,σ]), n-ary gates.
std::vector<GateId> reference_step(Reference& r, const std::vector<std::vector<std::size_t>>& delta,
                                   const std::vector<GateId>& v, std::size_t t) {
  const std::size_t Q = delta.size();
  std::vector<std::vector<GateId>> terms(Q);
  for (std::size_t q = 0; q < Q; ++q)
    for (std::size_t s = 0; s < delta[q].size(); ++s) {
      const std::array<GateId, 2> ops{v[q], r.x[t][s]};
      terms[delta[q][s]].push_back(r.b.and_(ops));
    }
  std::vector<GateId> next(Q);
  for (std::size_t q = 0; q < Q; ++q) next[q] = r.b.or_(terms[q]);
  return next;
}

std::vector<GateId> one_hot(Reference& r, std::size_t Q, std::size_t q) {
  std::vector<GateId> v(Q, r.b.constant(Rational(0)));
  v[q] = r.b.constant(Rational(1));
  return v;
}

// The plain twin: v_0 = e_start per run, then reference_step; the readout at every position
// wanted.
Circuit reference_circuit(const FiniteMachine& m, std::size_t n, OutputMode outputs) {
  check_length(n);
  Reference r;
  r.x = one_hot_inputs(r.b, n, m.symbols, m.alphabet);
  std::vector<std::vector<GateId>> v;
  for (std::size_t start : m.starts) v.push_back(one_hot(r, m.states(), start));
  std::vector<GateId> outs;
  std::vector<std::string> names;
  for (std::size_t t = 0; t < n; ++t) {
    for (auto& run : v) run = reference_step(r, m.delta, run, t);
    if (outputs == OutputMode::last && t + 1 != n) continue;
    outs.push_back(m.reference_accept(r.b, v));
    names.push_back(outputs == OutputMode::last ? "accept"
                                                : "accept[" + std::to_string(t + 1) + "]");
  }
  return r.b.finish(std::move(outs), std::move(names));
}

}  // namespace

// ---- compilation -------------------------------------------------------------------------

namespace {

CompiledCircuit compile(const FiniteMachine& m, std::size_t n, const FiniteStateOptions& o) {
  m.check();
  return compile_core(m, n, o);
}

std::size_t depth_bound(const FiniteMachine& m, std::size_t n, const FiniteStateOptions& o) {
  m.check();
  const std::size_t L = ceil_log2(m.states());
  return ceil_log2(m.symbols) + o.scan.chain_depth(n) * (1 + L) + m.accept_depth();
}

Circuit reference(const FiniteMachine& m, std::size_t n, OutputMode outputs) {
  m.check();
  return reference_circuit(m, n, outputs);
}

}  // namespace

CompiledCircuit compile_finite_state(const FiniteStateMachine& m, std::size_t n,
                                     const FiniteStateOptions& options) {
  return compile(machine_of(m), n, options);
}

CompiledCircuit compile_finite_state(const TrackedMachine& m, std::size_t n,
                                     const FiniteStateOptions& options) {
  return compile(machine_of(m), n, options);
}

std::size_t finite_state_depth_bound(const FiniteStateMachine& m, std::size_t n,
                                     const FiniteStateOptions& o) {
  return depth_bound(machine_of(m), n, o);
}

std::size_t finite_state_depth_bound(const TrackedMachine& m, std::size_t n,
                                     const FiniteStateOptions& o) {
  return depth_bound(machine_of(m), n, o);
}

Circuit reference_sequential_fsm(const FiniteStateMachine& m, std::size_t n, OutputMode outputs) {
  return reference(machine_of(m), n, outputs);
}

Circuit reference_sequential_fsm(const TrackedMachine& m, std::size_t n, OutputMode outputs) {
  return reference(machine_of(m), n, outputs);
}

}  // namespace rnncc
