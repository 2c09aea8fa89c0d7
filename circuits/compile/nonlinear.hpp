// compile_nonlinear_sequential: a one-layer Elman RNN (rnn/nonlinear.hpp) and a length n become
// an arithmetic circuit over Q with test gates, evaluated step by step — depth Θ(n), the
// baseline against which linear RNNs' log-depth prefix scans are measured ([MJLLS26]: nonlinear
// RNNs are L-complete or P-complete; the best known parallel route is depth O(log² n) through
// finite-state compositions, circuits/compile/finite_state.hpp).
//
// Exact semantics (docs/semantics.md, "Nonlinear RNNs"): with one-hot inputs x[t,σ] (input index
// (t−1)·|Σ| + σ, as compile_lrnn), z_t = (x[t,0], …, x[t,|Σ|−1]) and
//     h_t = act(W h_{t−1} + U z_t + b),   y_t = C h_t + c₀,
// where relu(v) = v · positive(v) and sign(v) = positive(v) − positive(−v) (`positive` is the
// test gate [v > 0]). The outputs are y_n (or every y_t) and, last, the model's acceptance test.
#pragma once

#include <cstddef>

#include "circuits/compile/lrnn.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// Throws InputError unless the model is a single Elman layer reading the one-hot input, for
// n = 0, and for an estimate above options.max_gates. Uses options.outputs and .acceptance.
CompiledCircuit compile_nonlinear_sequential(const Model& model, std::size_t n,
                                             const CompileOptions& options);

}  // namespace rnncc
