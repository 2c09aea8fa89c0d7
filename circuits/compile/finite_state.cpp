// Finite-state models to fan-in-2 boolean circuits (finite_state.hpp states the construction,
// the depth bound and the sources; docs/circuits.md, "Finite-state models to boolean circuits").
#include "circuits/compile/finite_state.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

using GMat = Matrix<GateId>;

// An entry that is constantly 0 (no symbol leads there). Kept out of the circuit: a product
// term with such a factor is dropped instead of built and folded.
constexpr GateId kFalse = kNoGate;

// Partial-sum tables of the tracked acceptance larger than this are refused.
constexpr std::size_t kMaxSums = std::size_t{1} << 16;
// Value tuples the tracked reference enumerates at most.
constexpr std::size_t kMaxTuples = std::size_t{1} << 20;

bool accepted(Acceptance::Mode mode, const Rational& y) {
  return mode == Acceptance::Mode::positive ? y > 0 : y == 0;
}

GateId and2(CircuitBuilder& b, GateId x, GateId y) {
  if (x == kFalse || y == kFalse) return kFalse;
  const std::array<GateId, 2> ops{x, y};
  return b.and_(ops);
}

// A balanced tree of binary ORs over the terms that are not constantly 0: depth ⌈log₂ k⌉ above
// the deepest term. Consumes `terms`.
GateId or_tree(CircuitBuilder& b, std::vector<GateId>& terms) {
  terms.erase(std::remove(terms.begin(), terms.end(), kFalse), terms.end());
  if (terms.empty()) return kFalse;
  while (terms.size() > 1) {
    std::size_t w = 0;
    for (std::size_t i = 0; i + 1 < terms.size(); i += 2) {
      const std::array<GateId, 2> ops{terms[i], terms[i + 1]};
      terms[w++] = b.or_(ops);
    }
    if (terms.size() % 2 == 1) terms[w++] = terms.back();
    terms.resize(w);
  }
  return terms[0];
}

GateId materialize(CircuitBuilder& b, GateId g) {
  return g == kFalse ? b.constant(Rational(0)) : g;
}

// ---- machine checks ----------------------------------------------------------------------

void check_transitions(std::size_t symbols, const std::vector<std::vector<std::size_t>>& delta,
                       const std::vector<std::string>& labels,
                       const std::vector<std::string>& alphabet) {
  const std::string where = "machine";
  if (delta.empty()) throw InputError(where, "a machine needs at least one state");
  if (symbols == 0) throw InputError(where, "a machine needs at least one symbol");
  const std::size_t Q = delta.size();
  for (std::size_t q = 0; q < Q; ++q) {
    if (delta[q].size() != symbols)
      throw InputError(where, "delta[" + std::to_string(q) + "] has " +
                                  std::to_string(delta[q].size()) +
                                  " entries, expected |Σ| = " + std::to_string(symbols));
    for (std::size_t s = 0; s < symbols; ++s)
      if (delta[q][s] >= Q)
        throw InputError(where, "delta[" + std::to_string(q) + "][" + std::to_string(s) +
                                    "] = " + std::to_string(delta[q][s]) +
                                    " is not a state (Q = " + std::to_string(Q) + ")");
  }
  if (!labels.empty() && labels.size() != Q)
    throw InputError(where, "labels has " + std::to_string(labels.size()) +
                                " entries, expected none or Q = " + std::to_string(Q));
  if (!alphabet.empty() && alphabet.size() != symbols)
    throw InputError(where, "alphabet has " + std::to_string(alphabet.size()) +
                                " names, expected none or |Σ| = " + std::to_string(symbols));
}

std::size_t step(const std::vector<std::vector<std::size_t>>& delta, std::size_t q, std::size_t s) {
  const auto& row = delta.at(q);
  if (s >= row.size())
    throw std::out_of_range("symbol id " + std::to_string(s) +
                            " is not below |Σ| = " + std::to_string(row.size()));
  return row[s];
}

// ---- readouts ---------------------------------------------------------------------------

// The tracked acceptance: P_j[s] = "some choice of one state per track 1..j has
// Σ w_i·value[q_i] = s", built track by track, then OR over the accepted sums.
GateId tracked_accept(CircuitBuilder& b, const TrackedMachine& m, const GMat& V) {
  if (m.tracks.empty()) return accepted(m.mode, m.bias) ? b.constant(Rational(1)) : kFalse;
  std::map<Rational, GateId> P;
  std::vector<GateId> terms;
  for (std::size_t j = 0; j < m.tracks.size(); ++j) {
    std::map<Rational, std::vector<GateId>> groups;
    for (std::size_t q = 0; q < V.rows(); ++q)
      if (V(q, j) != kFalse) groups[m.tracks[j].weight * m.value[q]].push_back(V(q, j));
    std::map<Rational, GateId> u;
    for (auto& [c, g] : groups) u[c] = or_tree(b, g);
    if (j == 0) {
      P = std::move(u);
      continue;
    }
    std::map<Rational, std::vector<GateId>> next;
    for (const auto& [s, p] : P)
      for (const auto& [c, g] : u) next[s + c].push_back(and2(b, p, g));
    P.clear();
    for (auto& [s, g] : next) P[s] = or_tree(b, g);
    if (P.size() > kMaxSums)
      throw InputError("machine", "the tracked acceptance has more than " +
                                      std::to_string(kMaxSums) + " distinct partial sums");
  }
  for (const auto& [s, g] : P)
    if (accepted(m.mode, s + m.bias)) terms.push_back(g);
  return or_tree(b, terms);
}

// Number of distinct Σ_j w_j·value[q_j] over all state tuples (capped: nullopt beyond kMaxSums).
std::optional<std::size_t> distinct_sums(const TrackedMachine& m) {
  std::set<Rational> sums{Rational(0)};
  for (const MachineTrack& t : m.tracks) {
    std::set<Rational> vals, next;
    for (const Rational& v : m.value) vals.insert(t.weight * v);
    for (const Rational& s : sums)
      for (const Rational& v : vals) next.insert(s + v);
    if (next.size() > kMaxSums) return std::nullopt;
    sums.swap(next);
  }
  return sums.size();
}

// ---- one machine abstraction ---------------------------------------------------------------

// Every algorithm below is written once, for this: k runs of one transition function δ from the
// start states starts[0..k−1], read in lockstep, and a readout of the k final states (q_1..q_k).
//   FiniteStateMachine: k = 1, starts = {start}; accepted iff accepting[q_1].
//   TrackedMachine:     one run per track; accepted iff Σ_j w_j·value[q_j] + bias > 0 (or = 0).
// Only the readout differs between the kinds: the transitions, the prefix tree, the runs and the
// sequential reference are shared.
struct FiniteMachine {
  std::size_t symbols;
  const std::vector<std::vector<std::size_t>>& delta;
  std::vector<std::size_t> starts;
  const std::vector<std::string>& labels;
  const std::vector<std::string>& alphabet;
  const FiniteStateMachine* plain = nullptr;  // the readout: exactly one of these is set
  const TrackedMachine* tracked = nullptr;

  std::size_t states() const { return delta.size(); }

  // InputError (where = "machine") naming the first broken rule (finite_state.hpp).
  void check() const {
    check_transitions(symbols, delta, labels, alphabet);
    const std::size_t Q = states();
    for (std::size_t j = 0; j < starts.size(); ++j)
      if (starts[j] >= Q)
        throw InputError("machine", (plain ? "start state " + std::to_string(starts[j]) + " is"
                                           : "track " + std::to_string(j) + " starts at " +
                                                 std::to_string(starts[j]) + ",") +
                                        " not a state (Q = " + std::to_string(Q) + ")");
    const std::size_t entries = plain ? plain->accepting.size() : tracked->value.size();
    if (entries != Q)
      throw InputError("machine", std::string(plain ? "accepting" : "value") + " has " +
                                      std::to_string(entries) +
                                      " entries, expected Q = " + std::to_string(Q));
  }

  // The readout of the final states of the runs (one per start).
  bool accepts(const std::vector<std::size_t>& finals) const {
    if (plain) return plain->accepting.at(finals[0]);
    Rational y = tracked->bias;
    for (std::size_t j = 0; j < finals.size(); ++j)
      y += tracked->tracks[j].weight * tracked->value.at(finals[j]);
    return accepted(tracked->mode, y);
  }

  // The readout as a circuit over the anchored value V (Q×k, entries may be kFalse): the OR of
  // the accepting states (depth ⌈log₂ Q⌉), or the tracked partial-sum table (tracked_accept).
  GateId accept_gate(CircuitBuilder& b, const GMat& V) const {
    if (tracked) return tracked_accept(b, *tracked, V);
    std::vector<GateId> terms;
    for (std::size_t q = 0; q < states(); ++q)
      if (plain->accepting[q]) terms.push_back(V(q, 0));
    return or_tree(b, terms);
  }

  // The depth accept_gate adds (finite_state.hpp: ⌈log₂ Q⌉, or for k ≥ 1 tracks
  // ⌈log₂ Q⌉ + (k − 1)·(1 + ⌈log₂ Q⌉) + ⌈log₂ #distinct final sums⌉).
  std::size_t accept_depth() const {
    const std::size_t L = ceil_log2(states()), k = starts.size();
    if (plain) return L;
    if (k == 0) return 0;
    const auto sums = distinct_sums(*tracked);
    return L + (k - 1) * (1 + L) + (sums ? ceil_log2(*sums) : k * L);
  }

  // The readout of the sequential reference over the one-hot run values v[j][q], n-ary gates:
  // the OR of the accepting states, or (tracked) the OR over the accepted tuples of per-track
  // values of the AND of their indicators — independent of tracked_accept's partial sums.
  GateId reference_accept(CircuitBuilder& b, const std::vector<std::vector<GateId>>& v) const {
    if (plain) {
      std::vector<GateId> acc;
      for (std::size_t q = 0; q < states(); ++q)
        if (plain->accepting[q]) acc.push_back(v[0][q]);
      return b.or_(acc);
    }
    const TrackedMachine& m = *tracked;
    const std::size_t k = m.tracks.size();
    std::vector<std::vector<std::pair<Rational, GateId>>> cls(k);
    std::size_t tuples = 1;
    for (std::size_t j = 0; j < k; ++j) {
      std::map<Rational, std::vector<GateId>> by;
      for (std::size_t q = 0; q < m.states(); ++q)
        by[m.tracks[j].weight * m.value[q]].push_back(v[j][q]);
      for (auto& [c, g] : by) cls[j].emplace_back(c, b.or_(g));
      tuples *= cls[j].size();
      if (tuples > kMaxTuples)
        throw InputError("machine", "the reference acceptance would enumerate more than " +
                                        std::to_string(kMaxTuples) + " value tuples");
    }
    std::vector<std::size_t> pick(k, 0);
    std::vector<GateId> acc, conj;
    for (std::size_t i = 0; i < tuples; ++i) {
      Rational y = m.bias;
      conj.clear();
      for (std::size_t j = 0; j < k; ++j) {
        y += cls[j][pick[j]].first;
        conj.push_back(cls[j][pick[j]].second);
      }
      if (accepted(m.mode, y)) acc.push_back(k == 0 ? b.constant(Rational(1)) : b.and_(conj));
      for (std::size_t j = 0; j < k; ++j) {  // odometer
        if (++pick[j] < cls[j].size()) break;
        pick[j] = 0;
      }
    }
    return b.or_(acc);
  }
};

FiniteMachine machine_of(const FiniteStateMachine& m) {
  return {m.symbols, m.delta, {m.start}, m.labels, m.alphabet, &m, nullptr};
}

FiniteMachine machine_of(const TrackedMachine& m) {
  std::vector<std::size_t> starts;
  for (const MachineTrack& t : m.tracks) starts.push_back(t.start);
  return {m.symbols, m.delta, std::move(starts), m.labels, m.alphabet, nullptr, &m};
}

// The final state of every run on w.
std::vector<std::size_t> run_all(const FiniteMachine& m, std::span<const std::size_t> w) {
  std::vector<std::size_t> q = m.starts;
  for (std::size_t& state : q)
    for (std::size_t s : w) state = step(m.delta, state, s);
  return q;
}

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

// ---- reading LRNN layers -----------------------------------------------------------------

std::string feature_name(const std::vector<std::string>& names, std::size_t f) {
  return f < names.size() ? "symbol '" + names[f] + "'" : "feature " + std::to_string(f);
}

// The coordinate machine of a layer: δ(q,σ) = row of column q's 1 in A_σ; the state column
// and readout row the acceptance reads.
struct LayerMachine {
  std::vector<std::vector<std::size_t>> delta;
  std::vector<Rational> s0;     // S_0[·][col]
  std::vector<Rational> value;  // C[row][·]
  Rational bias = 0;            // c₀[row][col]
};

LayerMachine read_layer(const LrnnLayer& layer, const Acceptance& acc,
                        const std::vector<std::string>& names, const std::string& where) {
  const std::size_t d = layer.d;
  if (layer.features == 0 || d == 0)
    throw InputError(where, "the layer has no features or no state");
  if (acc.row >= layer.readout.rows() || acc.col >= layer.m)
    throw InputError(where, "acceptance reads y[" + std::to_string(acc.row) + "][" +
                                std::to_string(acc.col) + "] but y is " +
                                std::to_string(layer.readout.rows()) + "×" +
                                std::to_string(layer.m));
  for (std::size_t f = 0; f < layer.readout_feature.size(); ++f)
    for (const Rational& c : layer.readout_feature[f].data())
      if (c != 0)
        throw InputError(where, feature_name(names, f) +
                                    " has a per-symbol readout C_σ ≠ 0: acceptance would depend "
                                    "on the last symbol, not on the state alone");
  LayerMachine lm;
  lm.delta.assign(d, std::vector<std::size_t>(layer.features));
  for (std::size_t f = 0; f < layer.features; ++f) {
    const std::string sym = feature_name(names, f);
    for (std::size_t i = 0; i < d; ++i)
      if (layer.B[f](i, acc.col) != 0)
        throw InputError(where, sym + ": B[" + std::to_string(i) + "][" + std::to_string(acc.col) +
                                    "] = " + to_string(layer.B[f](i, acc.col)) +
                                    " ≠ 0: S_t = A_σ S_{t−1} + B_σ with B_σ ≠ 0 is not a "
                                    "function on the coordinates");
    const Matrix<Rational>& A = layer.A[f];
    const std::string bad =
        sym +
        ": A is not a deterministic transition (a 0/1 matrix with exactly one 1 per "
        "column): ";
    for (std::size_t j = 0; j < d; ++j) {
      std::optional<std::size_t> one;
      for (std::size_t i = 0; i < d; ++i) {
        const Rational& a = A(i, j);
        if (a == 0) continue;
        if (a != 1)
          throw InputError(where, bad + "entry [" + std::to_string(i) + "][" + std::to_string(j) +
                                      "] = " + to_string(a) +
                                      " (a PD layer must have D = 1 to be finite-state)");
        if (one)
          throw InputError(where, bad + "column " + std::to_string(j) + " has 1s in rows " +
                                      std::to_string(*one) + " and " + std::to_string(i) +
                                      " (non-deterministic)");
        one = i;
      }
      if (!one)
        throw InputError(where, bad + "column " + std::to_string(j) + " is zero (state " +
                                    std::to_string(j) + " has no successor; D = 0 there)");
      lm.delta[j][f] = *one;
    }
  }
  for (std::size_t i = 0; i < d; ++i) lm.s0.push_back(layer.initial_state(i, acc.col));
  for (std::size_t q = 0; q < d; ++q) lm.value.push_back(layer.readout(acc.row, q));
  if (!layer.readout_bias.empty()) lm.bias = layer.readout_bias(acc.row, acc.col);
  return lm;
}

std::string vector_label(const std::vector<Rational>& s) {
  std::string out;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (s[j] == 0) continue;
    if (!out.empty()) out += s[j] < 0 ? "" : "+";
    if (s[j] != 1) out += s[j] == -1 ? "-" : to_string(s[j]) + "·";
    out += "e" + std::to_string(j);
  }
  return out.empty() ? "0" : out;
}

FiniteStateMachine pd_layer_machine(const LrnnLayer& layer, const Acceptance& acc,
                                    const FsmBuildOptions& options,
                                    const std::vector<std::string>& names,
                                    const std::string& where) {
  const LayerMachine lm = read_layer(layer, acc, names, where);
  const std::size_t d = layer.d, S = layer.features;
  FiniteStateMachine m;
  m.symbols = S;
  if (names.size() == S) m.alphabet = names;
  std::vector<std::size_t> nonzero;
  for (std::size_t i = 0; i < d; ++i)
    if (lm.s0[i] != 0) nonzero.push_back(i);
  if (nonzero.size() == 1) {  // coordinates are the states
    const std::size_t s = nonzero[0];
    m.delta = lm.delta;
    m.start = s;
    for (std::size_t q = 0; q < d; ++q) {
      m.accepting.push_back(accepted(acc.mode, lm.s0[s] * lm.value[q] + lm.bias));
      m.labels.push_back("e" + std::to_string(q));
    }
    return m;
  }
  if (!options.explore_orbit) {
    std::string list;
    for (std::size_t i : nonzero) list += (list.empty() ? "" : ", ") + std::to_string(i);
    throw InputError(where, "S_0 (column " + std::to_string(acc.col) + ") is not one-hot: " +
                                (nonzero.empty() ? std::string("it is zero")
                                                 : "entries " + list + " are nonzero") +
                                "; a machine with one start state needs exactly one nonzero "
                                "entry (explore_orbit builds one state per reachable vector; "
                                "tracked_fsm_from_model keeps one track per entry)");
  }
  // States: the vectors S_t reachable from S_0 (A_σ S: entry j moves to row δ(j,σ)).
  std::map<std::vector<Rational>, std::size_t> id;
  std::vector<std::vector<Rational>> vecs{lm.s0};
  id.emplace(lm.s0, 0);
  for (std::size_t q = 0; q < vecs.size(); ++q) {
    m.delta.emplace_back(S);
    for (std::size_t f = 0; f < S; ++f) {
      std::vector<Rational> next(d, Rational(0));
      for (std::size_t j = 0; j < d; ++j) next[lm.delta[j][f]] += vecs[q][j];
      auto [it, fresh] = id.emplace(next, vecs.size());
      if (fresh) {
        if (vecs.size() >= options.max_states)
          throw InputError(where, "S_0 is not one-hot and more than " +
                                      std::to_string(options.max_states) +
                                      " state vectors are reachable from it (raise "
                                      "max_states, or use tracked_fsm_from_model)");
        vecs.push_back(std::move(next));
      }
      m.delta[q][f] = it->second;
    }
  }
  for (const auto& s : vecs) {
    Rational y = lm.bias;
    for (std::size_t j = 0; j < d; ++j) y += s[j] * lm.value[j];
    m.accepting.push_back(accepted(acc.mode, y));
    m.labels.push_back(vector_label(s));
  }
  m.start = 0;
  return m;
}

const LrnnLayer& single_lrnn_layer(const Model& model) {
  if (model.layers.size() != 1)
    throw InputError("layers", "the model has " + std::to_string(model.layers.size()) +
                                   " layers; a finite-state machine is read from a one-layer "
                                   "model (exactly one LRNN layer)");
  const auto* l = std::get_if<LrnnLayer>(&model.layers[0].layer);
  if (!l)
    throw InputError("layer 0", "is " + layer_kind(model.layers[0].layer) +
                                    "; only an LRNN layer with deterministic 0/1 transitions is "
                                    "read as a finite-state machine");
  return *l;
}

}  // namespace

// ---- machines ----------------------------------------------------------------------------

void check_machine(const FiniteStateMachine& m) {
  machine_of(m).check();
}

void check_machine(const TrackedMachine& m) {
  machine_of(m).check();
}

std::size_t run_machine(const FiniteStateMachine& m, std::span<const std::size_t> w) {
  return run_all(machine_of(m), w)[0];
}

bool accepts(const FiniteStateMachine& m, std::span<const std::size_t> w) {
  const FiniteMachine fm = machine_of(m);
  return fm.accepts(run_all(fm, w));
}

bool accepts(const TrackedMachine& m, std::span<const std::size_t> w) {
  const FiniteMachine fm = machine_of(m);
  return fm.accepts(run_all(fm, w));
}

// ---- builders ----------------------------------------------------------------------------

FiniteStateMachine fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept,
                                     const FsmBuildOptions& options,
                                     const std::vector<std::string>& symbol_names) {
  return pd_layer_machine(layer, accept, options, symbol_names, "layer");
}

FiniteStateMachine fsm_from_model(const Model& model, const FsmBuildOptions& options) {
  const LrnnLayer& l = single_lrnn_layer(model);
  return pd_layer_machine(l, model.accept, options, model.alphabet.symbols(), "layer 0");
}

namespace {

TrackedMachine tracked_machine(const LrnnLayer& layer, const Acceptance& acc,
                               const std::vector<std::string>& names, const std::string& where) {
  LayerMachine lm = read_layer(layer, acc, names, where);
  TrackedMachine m;
  m.symbols = layer.features;
  if (names.size() == layer.features) m.alphabet = names;
  m.delta = std::move(lm.delta);
  for (std::size_t j = 0; j < layer.d; ++j) {
    if (lm.s0[j] != 0) m.tracks.push_back({j, lm.s0[j]});
    m.labels.push_back("e" + std::to_string(j));
  }
  m.value = std::move(lm.value);
  m.bias = lm.bias;
  m.mode = acc.mode;
  return m;
}

}  // namespace

TrackedMachine tracked_fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept,
                                         const std::vector<std::string>& symbol_names) {
  return tracked_machine(layer, accept, symbol_names, "layer");
}

TrackedMachine tracked_fsm_from_model(const Model& model) {
  return tracked_machine(single_lrnn_layer(model), model.accept, model.alphabet.symbols(),
                         "layer 0");
}

FiniteStateMachine fsm_from_dwfa_parts(const Alphabet& alphabet,
                                       const std::vector<std::string>& state_names,
                                       const std::vector<Rational>& initial,
                                       const std::vector<Rational>& final_weights,
                                       const std::vector<Matrix<Rational>>& transition) {
  const std::string where = "wfa";
  const std::size_t P = initial.size(), S = alphabet.size();
  auto name = [&](std::size_t p) {
    return "'" + (p < state_names.size() ? state_names[p] : std::to_string(p)) + "'";
  };
  if (P == 0) throw InputError(where, "the automaton has no states");
  if (final_weights.size() != P || transition.size() != S)
    throw InputError(where, "expected " + std::to_string(P) + " final weights and " +
                                std::to_string(S) + " transition matrices, got " +
                                std::to_string(final_weights.size()) + " and " +
                                std::to_string(transition.size()));
  std::vector<std::size_t> starts;
  for (std::size_t p = 0; p < P; ++p)
    if (initial[p] != 0) starts.push_back(p);
  if (starts.size() != 1) {
    std::string list;
    for (std::size_t p : starts) list += (list.empty() ? "" : ", ") + name(p);
    throw InputError(where,
                     "expected exactly one initial state, got " + std::to_string(starts.size()) +
                         (list.empty() ? "" : " (" + list + ")") + ": not a deterministic WFA");
  }
  if (initial[starts[0]] != 1)
    throw InputError(where, "the initial weight of state " + name(starts[0]) + " is " +
                                to_string(initial[starts[0]]) +
                                "; a finite-state machine needs 0/1 weights");
  FiniteStateMachine m;
  m.symbols = S;
  m.alphabet = alphabet.symbols();
  m.start = starts[0];
  const std::size_t sink = P;  // used only when some arc is missing
  bool need_sink = false;
  m.delta.assign(P, std::vector<std::size_t>(S, sink));
  for (std::size_t s = 0; s < S; ++s) {
    const Matrix<Rational>& M = transition[s];
    if (M.rows() != P || M.cols() != P)
      throw InputError(where, "the transition matrix of '" + alphabet.symbol(s) + "' is " +
                                  shape_string(M) + ", expected " + std::to_string(P) + "×" +
                                  std::to_string(P));
    for (std::size_t p = 0; p < P; ++p) {
      std::optional<std::size_t> to;
      for (std::size_t q = 0; q < P; ++q) {
        if (M(p, q) == 0) continue;
        if (to)
          throw InputError(where, "state " + name(p) + " has two '" + alphabet.symbol(s) +
                                      "'-arcs (to " + name(*to) + " and " + name(q) +
                                      "): not deterministic");
        if (M(p, q) != 1)
          throw InputError(where, "the arc " + name(p) + " --" + alphabet.symbol(s) + "--> " +
                                      name(q) + " has weight " + to_string(M(p, q)) +
                                      "; a finite-state machine needs 0/1 weights");
        to = q;
      }
      if (to)
        m.delta[p][s] = *to;
      else
        need_sink = true;
    }
  }
  for (std::size_t p = 0; p < P; ++p) {
    if (final_weights[p] != 0 && final_weights[p] != 1)
      throw InputError(where, "the final weight of state " + name(p) + " is " +
                                  to_string(final_weights[p]) +
                                  "; a finite-state machine needs 0/1 weights");
    m.accepting.push_back(final_weights[p] == 1);
    m.labels.push_back(p < state_names.size() ? state_names[p] : std::to_string(p));
  }
  if (need_sink) {
    m.delta.emplace_back(S, sink);
    m.accepting.push_back(false);
    m.labels.push_back("sink");
  }
  return m;
}

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
