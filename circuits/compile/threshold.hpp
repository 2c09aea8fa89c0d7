// compile_time_invariant_threshold: a time-invariant LRNN layer (or counting model) becomes a
// constant-depth threshold circuit (TC⁰) (docs/circuits.md, "Threshold circuits";
// docs/semantics.md, "Convolution-rounded log precision").
//
// If A_σ = A for every symbol, then
//     y_n = C·Aⁿ·S_0 + c₀ + Σ_{t=1..n} C·A^{n−t}·B_{w_t}        (S4's convolution form)
// and the accepted entry (row, col) is a constant plus Σ_t Σ_σ K_{n−t,σ}·x[t,σ] with
// K_{j,σ} = (C A^j B_σ)[row][col]: an iterated sum of the one-hot inputs
// (circuits/arith/iterated_addition.hpp, which states the construction, its depth and size and
// its int32 limits). ThresholdOptions states the two number semantics.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "algebra/fixed_point.hpp"
#include "algebra/rational.hpp"
#include "circuits/arith/iterated_addition.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compiled_circuit.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// The number semantics (options.precision; int_bits and overflow are not used):
// exact: y_n with rational K and constant, scaled by D = the lcm of their denominators; the
//        circuit outputs the bits of D·y_n.
// log:   F = c·⌈log₂(n+1)⌉ fraction bits (precision.format(n).frac_bits); every
//        K_{j,σ} and the constant y⁰ = (C·Aⁿ·S_0 + c₀)[row][col] is rounded ONCE to a multiple of
//        2^−F (round(2^F·v) by `rounding`), and the n + 1 rounded terms are summed exactly: the
//        circuit outputs the bits of Y = round(2^F·y⁰) + Σ_t round(2^F·K_{n−t,w_t}), y = Y/2^F.
//        No saturation (the word is as wide as the exact range needs; saturating to
//        ±(2^{I+F} − 1) would not change the sign, so acceptance is unaffected). This
//        "convolution-rounded" function is not the sequential rule of docs/semantics.md (S_t
//        rounded every step); they agree when every K and y⁰ is a multiple of 2^−F and the
//        sequential run never rounds (integer counting models).
struct ThresholdOptions {
  Precision precision = Precision::log(1);
  IteratedSumOptions sum{};
  bool acceptance = true;
  Budget budget;
  // Likewise for operands (thr weights included: 8 bytes a wire). 2^24 wires build in about 5 s
  // with two levels; the builder's hash-consing of very wide gates makes one level slower.
  std::size_t max_wires = std::size_t{1} << 24;
};

// The integer form the circuit computes: Y = constant + Σ weight[i]·x[i], with input i =
// (t−1)·|Σ| + σ carrying K_{n−t,σ} scaled; y = Y / scale.
struct ConvolutionForm {
  std::size_t n = 0, symbols = 0;
  std::vector<Integer> weights;  // n·|Σ|
  Integer constant = 0;
  Integer scale = 1;       // D (exact) or 2^F (log)
  unsigned frac_bits = 0;  // F (log only)
  Acceptance accept;
};

// Validates the model and computes the form. Throws InputError for n = 0 (where "--length"),
// not exactly one layer ("layers"), a non-LRNN layer, per-symbol readouts C_k, a symbol whose
// A differs from the first symbol's (named, "layer 0"), an acceptance entry out of range.
// The one-layer LRNN both threshold compilers take (this file's time-invariant one and
// iterated_multiplication.hpp's diagonal one): one LRNN layer on the one-hot input, one A and
// one B per symbol, a token-independent readout. Throws InputError naming `compiler` otherwise.
const LrnnLayer& threshold_lrnn_layer(const Model& model, const std::string& compiler);

ConvolutionForm convolution_form(const Model& model, std::size_t n,
                                 const ThresholdOptions& options = {});

// Inputs x[t,σ] (circuits/compile/common.hpp). Outputs "y.b[0]" ..
// "y.b[W−1]" (two's complement of Y) and, last, "accept" (Y > 0 or Y = 0). Acceptance is one
// thr gate over the inputs (positive) or the AND of two (zero) when the scaled weights fit the
// int32 limit; otherwise one thr gate over the word's bits. The circuit computes the linear
// function on every 0/1 input, one-hot or not. Regions: input, combine (the sum), accept;
// combine_levels = options.sum.levels. Throws as convolution_form, and InputError
// ("--max-gates") when the estimate exceeds options.budget or max_wires.
CompiledCircuit compile_time_invariant_threshold(const Model& model, std::size_t n,
                                                 const ThresholdOptions& options = {});

// Upper bound on the gates (inputs included) compile_time_invariant_threshold creates; the
// `size` version also gives wires, width and the depth bound.
struct ThresholdEstimate {
  std::size_t gates = 0, wires = 0, width = 0, depth = 0;
  bool accept_direct = false;  // acceptance as thr gates over the inputs
};
ThresholdEstimate estimate_time_invariant_threshold_size(const Model& model, std::size_t n,
                                                         const ThresholdOptions& options = {});
std::size_t estimate_time_invariant_threshold_gates(const Model& model, std::size_t n,
                                                    const ThresholdOptions& options = {});

// Depth bounds of the threshold routes (unbounded fan-in, NOT free): `at_n` the construction's
// stated depth at this n (the compiled circuit's depth is at most it), `limit` D(model), a bound
// for every n that the stated depth reaches once every iterated sum's word needs more than one
// block (then each has its final carry-lookahead adder, +4), `stages` the limit's terms.
struct ThresholdDepthBound {
  std::size_t at_n = 0, limit = 0;
  std::string stages;
};
// The time-invariant route: one iterated sum, 2·levels (+4 with the adder), and the acceptance
// gate over its word (+1); at_n = estimate_time_invariant_threshold_size(…).depth.
ThresholdDepthBound time_invariant_threshold_depth_bound(const Model& model, std::size_t n,
                                                         const ThresholdOptions& options = {});

// The plain twin, computed independently of convolution_form (matrix powers Aʲ, not row
// iteration): Y, its scale and acceptance for the string w (symbol ids, n = |w| ≥ 1).
struct ConvolutionValue {
  Integer scaled = 0;  // Y
  Integer scale = 1;
  Rational value = 0;  // Y / scale
  bool accepted = false;
};
ConvolutionValue evaluate_convolution(const Model& model, std::span<const std::size_t> w,
                                      const ThresholdOptions& options = {});

}  // namespace rnncc
