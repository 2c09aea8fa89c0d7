// compile_nonlinear_sequential: a one-layer Elman RNN (rnn/nonlinear.hpp) and a length n become
// an arithmetic circuit over Q with test gates, evaluated step by step — depth Θ(n), the
// baseline against which linear RNNs' log-depth prefix scans are measured ([MJLLS26]: nonlinear
// RNNs are L-complete or P-complete; the best known parallel route is depth O(log² n) through
// finite-state compositions, circuits/compile/finite_state.hpp).
//
// Exact semantics (docs/semantics.md, "Nonlinear RNNs"): with one-hot inputs x[t,σ] (input index
// (t−1)·|Σ| + σ, circuits/compile/common.hpp), z_t = (x[t,0], …, x[t,|Σ|−1]) and
//     h_t = act(W h_{t−1} + U z_t + b),   y_t = C h_t + c₀,
// where relu(v) = v · positive(v) and sign(v) = positive(v) − positive(−v) (`positive` is the
// test gate [v > 0]). The outputs are y_n (or every y_t) and, last, the model's acceptance test.
//
// compile_nonlinear_composed: the parallel route for the same models ([MJLLS26 §3]: a
// log-precision RNN has poly(n) states, so L ⊆ NC² gives depth O(log² n)). At a finite
// precision an RNN layer is a deterministic finite-state machine: its states are the state
// vectors the reference evaluator can reach (rnn/evaluate.hpp's rounding rule, one rounding per
// entry per step), its transitions one evaluator step, and a state accepts iff the output
// y = round(C h + c₀) it produces does. nonlinear_state_machine enumerates the states
// reachable within n steps breadth-first (rnn/reachable.hpp, the product search's search too;
// a state first reached at step n gets transitions to a non-accepting sink: they are never used
// by inputs of length ≤ n), and compile_finite_state composes transition functions in a prefix tree
// of one-hot boolean matrix products: fan-in 2, depth O(log n · log S) for S reachable states
// (finite_state_depth_bound states it exactly). The circuit computes, on every input of
// length n, the verdict of the sequential reference semantics at that precision — not an
// approximation of it: the machine IS the evaluator restricted to the states it reaches.
#pragma once

#include <cstddef>
#include <optional>

#include "algebra/fixed_point.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/compile/lrnn.hpp"  // CompileOptions
#include "rnn/model.hpp"

namespace rnncc {

// Throws InputError unless the model is a single Elman layer reading the one-hot input, for
// n = 0, and for an estimate above options.budget. Uses options.outputs and .acceptance.
CompiledCircuit compile_nonlinear_sequential(const Model& model, std::size_t n,
                                             const CompileOptions& options);

// The number semantics of the state enumeration: log precision (precision.format(n), the
// evaluator's fixed-point rule), or exact rationals (finite only when the model's reachable set
// is, e.g. integer counters; refused beyond max_states).
struct ComposedOptions {
  Precision precision;            // default exact
  std::size_t max_states = 4096;  // refuse (InputError) when more states are reachable
  FiniteStateOptions circuit;     // scan, outputs, budget of the prefix compilation
};

// The finite-state machine of a one-layer Elman or LSTM model over its states reachable within
// n steps (labels: the state vectors). Throws InputError for other models, n = 0, and more than
// max_states reachable states; DomainError (the evaluator's) under Overflow::error.
FiniteStateMachine nonlinear_state_machine(const Model& model, std::size_t n,
                                           const ComposedOptions& options);

// nonlinear_state_machine, then compile_finite_state with options.circuit. Output names as
// compile_finite_state ("accept", or "accept[t]" with OutputMode::all).
CompiledCircuit compile_nonlinear_composed(const Model& model, std::size_t n,
                                           const ComposedOptions& options);

}  // namespace rnncc
