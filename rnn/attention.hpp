// Causal attention layers: unique-hard, averaging-hard and softmax attention with an optional
// position bias and sliding window (docs/semantics.md, "Attention"; constructions.md §7).
//
// Inputs z_1..z_n ∈ Q^k as for the other layers (layer 1: the one-hot x_t; above: the input map
// of the layer below). With h the key size and r the value size:
//     q_t = W_Q z_t + b_Q,   k_s = W_K z_s + b_K   (∈ Q^h),   v_s = W_V z_s + b_V   (∈ Q^r)
//     score(t, s) = q_tᵀ k_s + λ·s                           (λ: position bias, default 0)
//     visible(t)  = { s : max(1, t − window + 1) ≤ s ≤ t }   (window absent: 1 ≤ s ≤ t)
//     M(t)        = argmax_{s ∈ visible(t)} score(t, s)      (a non-empty set)
// and the attended value a_t ∈ Q^r is
//     unique_hard     v_{s*}, s* = min M(t) (tie: leftmost) or max M(t) (tie: rightmost)
//     averaging_hard  (1/|M(t)|) Σ_{s ∈ M(t)} v_s
//     softmax         Σ_s e_s v_s / Σ_s e_s,  e_s = exp(score(t,s) − max score) rounded to the
//                     fixed-point format (log precision only: exp of a nonzero rational is
//                     irrational, so exact semantics refuses it; see round_exp_neg)
// The output is y_t = a_t (r×1) or, with `residual`, the stacked column [z_t; a_t] ((k+r)×1),
// so a hybrid's later layers still see the features below. The layer keeps no state.
//
// Sources: [WDL24] (retrieval needs one attention layer after an RNN), [CDMS26] (sliding-window
// attention in hybrids); unique-hard attention transformers are in AC⁰ / TC⁰ (Hao, Angluin,
// Frank 2022; Merrill, Sabharwal 2023), which circuits/compile/attention.hpp makes explicit.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "algebra/fixed_point.hpp"
#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc {

enum class AttentionKind { unique_hard, averaging_hard, softmax };
std::string to_string(AttentionKind k);  // "unique_hard" | "averaging_hard" | "softmax"
std::optional<AttentionKind> parse_attention_kind(std::string_view name);

// Which maximizing position unique-hard attention picks: the earliest or the most recent.
enum class TieRule { leftmost, rightmost };
std::string to_string(TieRule r);  // "leftmost" | "rightmost"
std::optional<TieRule> parse_tie_rule(std::string_view name);

struct LinearMap {           // z ↦ W z + b
  Matrix<Rational> weights;  // out×k
  Matrix<Rational> bias;     // out×1
};

struct AttentionLayer {
  AttentionKind kind = AttentionKind::unique_hard;
  TieRule tie = TieRule::rightmost;   // unique_hard only
  std::size_t features = 0;           // k
  LinearMap query, key, value;        // h×k, h×k, r×k
  Rational position_bias = 0;         // λ
  std::optional<std::size_t> window;  // ≥ 1; absent = every earlier position is visible
  bool residual = false;              // y_t = [z_t; a_t]
  std::size_t key_size() const { return query.weights.rows(); }    // h
  std::size_t value_size() const { return value.weights.rows(); }  // r
  std::size_t output_rows() const { return (residual ? features : 0) + value_size(); }
  std::size_t output_cols() const { return 1; }
};

// Shape checks (h ≥ 1, r ≥ 1, k columns, biases out×1, window ≥ 1); throw ParamError
// (rnn/families.hpp) naming the field ("query/weights", "window", …).
void check_layer(const AttentionLayer& layer);

// The first visible position (1-based) for query position t (1-based).
std::size_t first_visible(const AttentionLayer& layer, std::size_t t);

// round(exp(−a)·2^F) by `mode`, for a rational a ≥ 0: exp(−a) correctly rounded to F fraction
// bits. For a > 0, exp(−a) is irrational (Lindemann), never a rounding boundary, so the result
// is decided by refining rational bounds of the Taylor series of exp(a) until both ends round
// alike; a ≥ (F+1)·ln 2 rounds to 0 at once. Throws std::invalid_argument for a < 0.
Integer round_exp_neg(const Rational& a, unsigned frac_bits, Rounding mode);

}  // namespace rnncc
