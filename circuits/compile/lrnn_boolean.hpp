// compile_lrnn_boolean: a one-layer LRNN at log precision becomes a fan-in-2 boolean circuit
// through the prefix scan (constructions.md §2; docs/semantics.md, "Log precision"; the
// "log-precision LRNNs are in NC¹/TC⁰-style uniform families" route of [MJLLS26 §2–3]).
//
// Number format: algebra's FixedFormat log_precision(C, n, int_bits, rounding, overflow):
// F = C·⌈log₂(n+1)⌉ fraction bits, I integer bits (default F); a value is r/2^F with
// |r| ≤ 2^(I+F) − 1, carried as a two's-complement word of W = 1 + I + F bits.
//
// The function computed — the SCAN-ROUNDED semantics. Rounding breaks associativity, so a tree
// scan cannot compute the sequential rule S_t = round(A S_{t−1} + B) exactly; the circuit
// computes instead, for the chosen prefix network:
//   * parameters rounded once (round(x·2^F) by the mode, then the overflow policy), as the
//     reference evaluator converts them: Â_σ, B̂_σ, Ĉ, ĉ₀, Ŝ_0;
//   * leaf t: (Â_{w_t}, B̂_{w_t}); position 1 is anchored at once: S_1 = round(Â_{w_1}Ŝ_0 +
//   B̂_{w_1});
//   * a combine v[i] = v[i] ∘ v[j] of the network, later (A₂,B₂) after earlier (A₁,B₁):
//         (A₂,B₂)∘(A₁,B₁) = (round(A₂A₁), round(A₂B₁ + B₂))
//     and, when the earlier operand is anchored (holds a state S₁), S = round(A₂S₁ + B₂);
//   * y_t = round(Ĉ S_t + ĉ₀);
// where every round(·) is per entry: the exact fused dot product Σ_l a_l b_l (+ c·2^F) of raw
// integers, rounded once by round_shift(·, F, mode), then saturated to ±(2^(I+F) − 1) (the
// overflow flag records whether any rounding, parameters included, left the range).
// With ScanKind::sequential every combine is anchored and this is exactly the reference
// evaluator's log-precision semantics (rnn/evaluate.hpp with FixedPoint); with a tree it is a
// different, precisely defined function (tests exhibit a Brent–Kung model and string where the
// two differ). Under Overflow::error the overflow flag covers every rounding the scan performs
// plus y_t at every position (the reference evaluator computes every y_t and raises
// DomainError at the first overflow: flag = 1 ⇔ it raises, for the sequential scan).
//
// Circuit: inputs are the one-hot indicators x[t,σ] (input index (t−1)·|Σ| + id(σ), named
// "x[t,σ]", circuits/compile/common.hpp). Leaf bit k of entry (i,j) of A(x_t) is OR_{σ: bit k of
// Â_σ(i,j) is 1} x[t,σ]. Each rounded entry is fixed_dot (circuits/arith/integer_arith.hpp): one
// Baugh–Wooley bit heap, a Dadda (or Wallace) tree, a prefix adder, round_shift, saturate.
// Zero parameters fold away, so diagonal and PD layers lose the terms that are identically 0.
// Outputs: the W bits of every entry of y_n (OutputMode::last) or of every y_t
// (OutputMode::all), named "y[t][r][c].b[k]" (bit 0 first, two's complement of the raw
// integer), then "overflow" (Overflow::error only), then "accept": y_n[row][col] > 0
// (Acceptance::positive: ¬sign ∧ some bit) or = 0 (Acceptance::zero). Every gate is a binary
// and/or/xor or a not: fan-in 2.
//
// Depth (stated; lrnn_boolean_depth_bound; tests check measured ≤ stated):
//     ⌈log₂|Σ|⌉                                  leaf ORs
//   + (c + 1)·max(δ(d, addend), δ(d, none))       c = prefix_chain_depth(scan, n); +1 anchor
//   + δ(d, bias)                                  readout
//   + max(⌈log₂ W⌉ + 2, ⌈log₂ #roundings⌉ + 1)    acceptance test / overflow OR
// with δ(k, ·) = fixed_dot_depth(k terms): 2 + 3·s(k·W + 2) + [2c'(W_wide) + 2] (final adder)
// + [⌈log₂ F⌉ + 2 + 2c'(W_wide − F + 2) + 2] (rounding) + [⌈log₂ max(·)⌉ + 6] (saturation),
// s the compressor stages, c' the carry tree's chain depth: O(log n · log W) = O(log n ·
// log log n) for the log-depth scans at C = O(1), since W = O(log n).
// Size: estimate_lrnn_boolean_gates, an upper bound O(n·d²·(d + m)·W²).
//
// Sources: [MJLLS26] Merrill et al., arXiv 2603.03612; circuits/arith/integer_arith.hpp for the
// arithmetic.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algebra/fixed_point.hpp"
#include "algebra/matrix.hpp"
#include "circuits/arith/integer_arith.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compiled_circuit.hpp"
#include "rnn/model.hpp"
#include "rnn/run_report.hpp"

namespace rnncc {

struct BooleanLrnnOptions {
  // Log precision (exact is refused): F = C·⌈log₂(n+1)⌉, I (default F) must be ≥ 1 (the
  // one-hot 1 is 2^F); rounding and overflow as above.
  Precision precision = Precision::log(1);
  Scan scan;          // the prefix network (scan.chunk is not used)
  AdderSpec adder{};  // carry trees of every adder in the circuit
  Reduction reduction = Reduction::dadda;
  OutputMode outputs = OutputMode::last;
  Budget budget;
};

// The number format for inputs of length n.
FixedFormat boolean_lrnn_format(std::size_t n, const BooleanLrnnOptions& options);

// The plain twin: the scan-rounded function above computed on the CPU with Integer
// arithmetic and algebra's round_shift, walking the same PrefixNetwork (run_prefix).
struct ScanRoundedResult {
  std::vector<Matrix<Integer>> outputs;  // raw y_t (value raw/2^F), t = 1..n, every position
  std::vector<Matrix<Integer>> states;   // raw S_t: every prefix holds position 1, so is anchored
  bool overflow = false;                 // some rounding was clamped (Overflow::error: an error)
  bool accept = false;
};
// input: symbol ids (input.size() = n ≥ 1). Refuses what compile_lrnn_boolean refuses
// (except the size limit).
ScanRoundedResult evaluate_scan_rounded(const Model& model, std::span<const std::size_t> input,
                                        const BooleanLrnnOptions& options);

// `rnncc run --scan S` (docs/semantics.md, "Which function"): the input run under the function
// the boolean circuit of scan S computes, as a run report (outputs, accept and S_t at every
// position). At log precision with a tree scan that is the scan-rounded function above (one LRNN
// layer; anything else is refused naming --scan); with the sequential network, and at exact or
// mod-p precision for any network (their arithmetic is associative), it is the reference
// evaluator's run_model. DomainError under Overflow::error when a rounding overflowed.
RunReport run_with_scan(const Model& model, std::string_view input, const std::string& where,
                        const PrecisionSpec& precision, const Scan& scan);

// How often the scan-rounded function of `options.scan` differs from the sequential rule: on
// `strings` seeded random strings of length n, the outputs the circuit has (options.outputs:
// y_n, or every y_t), the accept bit and (under Overflow::error) the overflow flag compared.
// `strings` is lowered so that both evaluations together take about `max_work` multiply-adds (at
// least one string).
struct ScanDisagreement {
  std::size_t strings = 0, differing = 0;
};
ScanDisagreement scan_disagreement(const Model& model, std::size_t n,
                                   const BooleanLrnnOptions& options, std::size_t strings = 400,
                                   std::uint64_t seed = 1, double max_work = 3e7);

// Throws InputError for n = 0, exact precision, a stack (more than one layer), a non-LRNN layer,
// per-symbol readouts C_k, int_bits = 0, or an estimate above options.budget.
CompiledCircuit compile_lrnn_boolean(const Model& model, std::size_t n,
                                     const BooleanLrnnOptions& options);

// Upper bound on the gates compile_lrnn_boolean creates (inputs and constants included).
std::size_t estimate_lrnn_boolean_gates(const Model& model, std::size_t n,
                                        const BooleanLrnnOptions& options);
// The stated depth bound above.
std::size_t lrnn_boolean_depth_bound(const Model& model, std::size_t n,
                                     const BooleanLrnnOptions& options);

}  // namespace rnncc
