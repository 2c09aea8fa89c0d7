// State-based recall by a hybrid: one Gated DeltaNet layer (transpositions as Householders)
// followed by one unique-hard attention layer [OLMOH26, Def 2 and Thm 1; reference
// constructions.md §6; docs/constructions.md, "State-based recall by a hybrid"].
//
// Source: Merrill, Li et al., "Olmo Hybrid: From Theory to Practice and Back", arXiv 2604.03444.
// The task (as summarized in the reference; the paper's own text was not available here, so the
// exact task below is fixed by this file): bits x_1..x_m, five registers holding pointers
// p_1..p_5 into the bits, transpositions π_1..π_T of the registers [1..5]; the answer is
// x_{q_1} where q = π(p), π = π_T ∘ ⋯ ∘ π_1, and the registers' contents move with π:
// q_{π(i)} = p_i, so q_1 = p_{π⁻¹(1)} (operationally: swap the two registers named by each π_t
// in turn, then dereference register 1). Transformers (TC⁰) cannot track π (S_5 is
// NC¹-complete), RNNs with o(m) memory cannot fetch an arbitrary bit; the hybrid does both.
// The paper states the task with m = T = n; here m and T are independent (any string below is
// an instance).
//
// Tokens (the target alphabet, 17 symbols): "0", "1" (a bit); "a".."e" (register 1..5 points
// at the most recent bit before this marker); "(12)", "(13)", …, "(45)" (swap two registers).
// Every string is an instance: p_i is the last marker of register i (a register never marked,
// or marked before any bit, holds "no bit" and dereferences to 0), and the answer does not
// depend on where the transpositions stand relative to the bits (f is defined from the bits-
// and-markers subsequence and from the transposition subsequence separately). The two orders
// (the two cases built and checked):
//   bits_first   encode(w) = w's bits and markers, then w's transpositions (x, p, π);
//   perm_first   encode(w) = w's transpositions, then w's bits and markers (π, x, p);
//   as_given     encode(w) = w (interleaved: the same model is right on every order).
//
// Model (column convention S_t = A S_{t−1} + B, docs/semantics.md):
//  Layer 1, gated_deltanet (every α = 1), d = 12, m = 2, β ∈ (0,2]:
//    rows 0..4 and 5..9: two copies of the register labels, row i−1 (and 5+i−1) holding
//      (ℓ, ℓ²) for the label ℓ of the register content now in slot i; S_0: ℓ = i;
//    row 10: the most recent bit (x, 0); row 11: the constant (1, 0).
//    "(ab)":  β = 2, k = (e_a − e_b; e_a − e_b)/2 on rows 0..9 (‖k‖ = 1, rational), v = 0:
//             swaps rows a and b in both copies (state_tracking.hpp explains the duplication);
//    bit x:   β = 1, k = e_10, v = (x, 0): row 10 ← (x, 0) (the delta rule's overwrite);
//    marker:  k = 0 (identity).
//    So at every position slot 1 holds (j, j²) with j = π_{≤t}⁻¹(1), the register whose
//    content is now in slot 1. Readout (y = (C + C_σ) S, 5×2): row 0 = row 0 of S (all
//    tokens); for marker i: row 1 = row 10 (its bit), row 2 = i·row 11, row 3 = i²·row 11;
//    for other tokens row 4 = row 11 ("default position").
//  Input map: z = (j, j², x·[marker], i, i², [not a marker]) (entries of vec_row(y)).
//  Layer 2, unique-hard attention, rightmost ties, no residual: q = (j, j², 1),
//    k_s = (2i, [default], −i² − [default]/2), v_s = x·[marker], so
//      score = j² − (i − j)²  at a marker of register i,  j² − 1/2  at a default position:
//    the latest marker of register j wins when there is one (score j², the others ≤ j² − 1),
//    else a default position (value 0), else (no default position: no bit at all) a marker
//    whose value is 0. Output: the attended value at the last position, = f(w) ∈ {0, 1};
//    accept iff > 0.
// Claims (measured): GDN state d×m = 12×2, layers = 2, attention layers = 1, tokens with
// eigenvalue −1 = 10, nonzero keys with ‖k‖² ≠ 1 = 0, gates α ≠ 1 = 0, and the precision
// claim: the largest |parameter| (S_0, keys, values, readouts, input map, attention weights)
// ≤ 25, independent of the length — every state is a permutation of S_0's rows plus a bit,
// every score an integer or half-integer of magnitude ≤ 75: O(1) bits, exact.
#pragma once

#include <optional>
#include <string_view>

#include "constructions/construction.hpp"

namespace rnncc {

enum class RecallOrder { bits_first, perm_first, as_given };
std::optional<RecallOrder> parse_recall_order(std::string_view text);  // "bits-first", …

Construction state_recall(RecallOrder order);

}  // namespace rnncc
