// Attention layers to circuits (docs/circuits.md, "Attention"; rnn/attention.hpp states the
// semantics; constructions.md §7).
//
// (a) compile_unique_hard_threshold: a one-layer unique-hard attention model on the one-hot
// input, at log precision (FixedFormat F, I, rounding, overflow), becomes a constant-depth
// threshold circuit for the output at position n — the explicit form of "unique-hard attention
// is in AC⁰ / TC⁰" (Hao, Angluin, Frank 2022; Merrill, Sabharwal 2023) for one layer.
// With one-hot inputs every rounded quantity depends only on symbols, so it is a table:
//     Q̂_σ, K̂_τ, V̂_τ  = the rounded q, k, v of a position holding σ / τ (raw integers / 2^F)
//     R(σ, τ, s)      = the raw score of query symbol σ against key symbol τ at position s:
//                       round((Σ_i Q̂_σ,i·K̂_τ,i + λ̂·s·2^F) / 2^F), then saturated
// and the circuit is
//     p[s][σ][τ]  = x[n,σ] ∧ x[s,τ]                                           (AND, depth 1)
//     c[s][s']    = [Σ_{σ,τ} R(σ,τ,s)·p[s][σ][τ] − Σ_{σ,τ} R(σ,τ,s')·p[s'][σ][τ] ≥ θ]
//                   for visible s < s', θ = 0 (leftmost: s beats s' on a tie) or 1
//                   (rightmost: s' beats s on a tie): "s beats s'"             (thr, depth 2)
//     sel_s       = [Σ_{s'>s} c[s][s'] − Σ_{s'<s} c[s'][s] ≥ #{visible s' > s}]
//                   = s beats every other visible position                    (thr, depth 3)
//     bit_j(v_s)  = OR_{τ : bit j of V̂_τ,i} x[s,τ]                            (OR,  depth 1)
//     y bit j     = OR_s (sel_s ∧ bit_j(v_s))                                  (depth 4, 5)
//     accept      = OR_s (sel_s ∧ OR_{τ : V̂_τ,row accepted} x[s,τ])            (depth 5)
// On one-hot inputs exactly one p[s][·][·] is 1 per s, so the sums are the scores. Outputs:
// y[n][i].bit[j] for every row i and bit j = 0..I+F (two's complement of the raw value, LSB
// first; with `residual` the first k rows are x[n,·]'s raw one), then "accept". Depth 5
// (unbounded fan-in) for every n; fan-in-2 depth 3 + ⌈log₂(2|Σ|²)⌉ + ⌈log₂(m−1)⌉ + … grows
// like log n because the thr and OR gates have fan-in m (the number of visible positions).
// Size: n|Σ|² ANDs, m(m−1)/2 comparisons (fan-in ≤ 2|Σ|²), m selections (fan-in m−1), and
// O(m·r·(I+F+1)) AND/OR gates for the bits (estimate_unique_hard_threshold_gates).
//
// (b) compile_attention_arith: a hybrid — LRNN layers (compile_lrnn, all positions) followed by
// one unique-hard or averaging-hard attention layer — becomes an arithmetic circuit over Q with
// test gates, computing the exact semantics:
//     z_t = W·vec(y_t) + b,  q_n, k_s, v_s by mul/sum,  score_s = Σ_i q_n,i·k_s,i + λ·s
//     beats(s, s') = positive(score_s − score_s')           (s' later; tie to s': rightmost)
//                  = 1 − positive(score_s' − score_s)       (tie to s: leftmost; and averaging)
//     sel_s        = Π_{s' ≠ s visible} beats(s, s')        (unique: the picked s; averaging:
//                                                           the indicator of M(n))
//     unique:      a = Σ_s sel_s·v_s
//     averaging:   a = (Σ_s sel_s·v_s)·inv,  inv = Σ_{c=1}^{m} (1/c)·is_zero(Σ_s sel_s − c)
// then the acceptance test on y_n = a or [z_n; a]. Depth: the LRNN part (circuits.md, "Depth")
// plus a constant (input map 2, q/k 2, score 2, comparison 3, product 1, output 2, accept 1;
// averaging +3); fan-in-2 depth adds ⌈log₂⌉ of the sums and the product (O(log n)).
#pragma once

#include <cstddef>

#include "algebra/fixed_point.hpp"
#include "circuits/compile/lrnn.hpp"
#include "rnn/model.hpp"

namespace rnncc {

struct AttentionCompileOptions {
  Precision precision = Precision::log(1);  // log precision (exact is refused): format(n)
  bool acceptance = true;                   // append the "accept" output
  Budget budget;
};

// Throws InputError for n = 0, a model that is not one unique_hard attention layer on the
// one-hot input, a score or value table entry beyond the int32 weights of thr gates
// (|raw| ≥ 2^31, i.e. I + F ≥ 31), exact precision, or an estimate above options.budget.
CompiledCircuit compile_unique_hard_threshold(const Model& model, std::size_t n,
                                              const AttentionCompileOptions& options);

// Upper bound on the gates compile_unique_hard_threshold creates (inputs included).
std::size_t estimate_unique_hard_threshold_gates(const Model& model, std::size_t n,
                                                 const AttentionCompileOptions& options);

// The stated unbounded-fan-in depth of the threshold circuit: 5 whenever some output is not
// constant (smaller when folding removes levels, e.g. one visible position).
inline constexpr std::size_t kUniqueHardThresholdDepth = 5;

// Throws InputError for n = 0, a model that is not (LRNN layers)* followed by one unique_hard or
// averaging_hard attention layer (softmax: no exact circuit), or an estimate above the budget.
// Uses options.scan (and the rest of compile_lrnn's options for the LRNN part), .outputs (last:
// y_n; all: every y_t, each with its own comparisons), .acceptance, .budget.
CompiledCircuit compile_attention_arith(const Model& model, std::size_t n,
                                        const CompileOptions& options);

// Upper bound on the operations of the attention part of compile_attention_arith (the LRNN part
// is estimate_lrnn_gates of the LRNN prefix).
std::size_t estimate_attention_arith_gates(const Model& model, std::size_t n,
                                           const CompileOptions& options);

}  // namespace rnncc
