#pragma once
// Internal to circuits/compile: the one machine abstraction that the finite-state compiler
// (finite_state.cpp) and the machines' checks and runs (finite_machine.cpp) are written for, and
// the AND/OR helpers they share.

#include <cstddef>
#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "circuits/circuit.hpp"
#include "circuits/compile/finite_state.hpp"
#include "rnn/model.hpp"

namespace rnncc::finite_state_internal {

using GMat = Matrix<GateId>;

// An entry that is constantly 0 (no symbol leads there). Kept out of the circuit: a product
// term with such a factor is dropped instead of built and folded.
constexpr GateId kFalse = kNoGate;

bool accepted(Acceptance::Mode mode, const Rational& y);
GateId and2(CircuitBuilder& b, GateId x, GateId y);
GateId or_tree(CircuitBuilder& b, std::vector<GateId>& terms);
GateId materialize(CircuitBuilder& b, GateId g);

// ---- one machine abstraction ---------------------------------------------------------------

// Every algorithm of the compiler is written once, for this: k runs of one transition function δ
// from the start states starts[0..k−1], read in lockstep, and a readout of the k final states
// (q_1..q_k).
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

  void check() const;
  bool accepts(const std::vector<std::size_t>& finals) const;
  GateId accept_gate(CircuitBuilder& b, const GMat& V) const;
  std::size_t accept_depth() const;
  GateId reference_accept(CircuitBuilder& b, const std::vector<std::vector<GateId>>& v) const;
};

FiniteMachine machine_of(const FiniteStateMachine& m);
FiniteMachine machine_of(const TrackedMachine& m);

}  // namespace rnncc::finite_state_internal
