// Finite-state machines (finite_state.hpp): their checks, their runs and their readouts, over
// the one machine abstraction every algorithm of the compiler is written for (finite_machine.hpp).
#include "circuits/compile/finite_machine.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "algebra/error.hpp"

namespace rnncc::finite_state_internal {

namespace {

// Partial-sum tables of the tracked acceptance larger than this are refused.
constexpr std::size_t kMaxSums = std::size_t{1} << 16;
// Value tuples the tracked reference enumerates at most.
constexpr std::size_t kMaxTuples = std::size_t{1} << 20;

}  // namespace

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

namespace {

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

}  // namespace

// ---- one machine abstraction ---------------------------------------------------------------

// InputError (where = "machine") naming the first broken rule (finite_state.hpp).
void FiniteMachine::check() const {
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
bool FiniteMachine::accepts(const std::vector<std::size_t>& finals) const {
  if (plain) return plain->accepting.at(finals[0]);
  Rational y = tracked->bias;
  for (std::size_t j = 0; j < finals.size(); ++j)
    y += tracked->tracks[j].weight * tracked->value.at(finals[j]);
  return accepted(tracked->mode, y);
}

// The readout as a circuit over the anchored value V (Q×k, entries may be kFalse): the OR of
// the accepting states (depth ⌈log₂ Q⌉), or the tracked partial-sum table (tracked_accept).
GateId FiniteMachine::accept_gate(CircuitBuilder& b, const GMat& V) const {
  if (tracked) return tracked_accept(b, *tracked, V);
  std::vector<GateId> terms;
  for (std::size_t q = 0; q < states(); ++q)
    if (plain->accepting[q]) terms.push_back(V(q, 0));
  return or_tree(b, terms);
}

// The depth accept_gate adds (finite_state.hpp: ⌈log₂ Q⌉, or for k ≥ 1 tracks
// ⌈log₂ Q⌉ + (k − 1)·(1 + ⌈log₂ Q⌉) + ⌈log₂ #distinct final sums⌉).
std::size_t FiniteMachine::accept_depth() const {
  const std::size_t L = ceil_log2(states()), k = starts.size();
  if (plain) return L;
  if (k == 0) return 0;
  const auto sums = distinct_sums(*tracked);
  return L + (k - 1) * (1 + L) + (sums ? ceil_log2(*sums) : k * L);
}

// The readout of the sequential reference over the one-hot run values v[j][q], n-ary gates:
// the OR of the accepting states, or (tracked) the OR over the accepted tuples of per-track
// values of the AND of their indicators — independent of tracked_accept's partial sums.
GateId FiniteMachine::reference_accept(CircuitBuilder& b,
                                       const std::vector<std::vector<GateId>>& v) const {
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

FiniteMachine machine_of(const FiniteStateMachine& m) {
  return {m.symbols, m.delta, {m.start}, m.labels, m.alphabet, &m, nullptr};
}

FiniteMachine machine_of(const TrackedMachine& m) {
  std::vector<std::size_t> starts;
  for (const MachineTrack& t : m.tracks) starts.push_back(t.start);
  return {m.symbols, m.delta, std::move(starts), m.labels, m.alphabet, nullptr, &m};
}

namespace {

// The final state of every run on w.
std::vector<std::size_t> run_all(const FiniteMachine& m, std::span<const std::size_t> w) {
  std::vector<std::size_t> q = m.starts;
  for (std::size_t& state : q)
    for (std::size_t s : w) state = step(m.delta, state, s);
  return q;
}

}  // namespace

}  // namespace rnncc::finite_state_internal

namespace rnncc {

using finite_state_internal::FiniteMachine;
using finite_state_internal::machine_of;
using finite_state_internal::run_all;

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

}  // namespace rnncc
