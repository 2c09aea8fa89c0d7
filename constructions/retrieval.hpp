// Selective copying and associative recall by a hybrid: Mamba-style (diagonal, input-dependent
// decay) LRNN layers, then ONE sliding-window unique-hard attention layer
// [CDMS26: Cooper, Diakonikolas, Ma, Sala, "Expressivity-Efficiency Tradeoffs for Hybrid
// Sequence Models", arXiv 2603.08859, Thms 4.3 and 4.6; reference constructions.md §7;
// docs/constructions.md, "Retrieval by a hybrid", has the tasks, the math of every layer and the
// measured figures].
//
// The theorems' shape: the task is F(u(x), v(x)) with a control v that may lie anywhere in the
// past (a number token, a query token) and a payload u that lies in a recent window of bounded
// size (N tokens, a dictionary). A pure SSM must store u (state Ω(N log|Σ|) bits); a pure
// sliding-window transformer must see v (window Ω(L)). The hybrid's SSM carries v forward with a
// selective reset (decay 0 on the control token, decay 1 elsewhere: Mamba's selectivity) and
// the attention reads u inside a window that does not grow with L.
//
// Exact statements of the two theorems were not available to us (only summaries); the tasks
// below are our precise versions, chosen so that f is defined on a large share of all strings
// (verify draws uniform random strings). docs/constructions.md says how they relate.
//
// SELECTIVE COPYING [CDMS26 Def 4.1 / Thm 4.3 as summarized: "the latest number token n is a
// backward distance; output x_{L+1−n}"]. Alphabet: data symbols "a", "b", … (K of them, ids
// 0..K−1) and number tokens "1".."N" (ids K..K+N−1). For w = w_1…w_L let n be the value of the
// latest number token of w. Promise: w has a number token and n ≤ L. f(w) = id(w_{L+1−n}), the
// symbol id of the token n−1 positions before the last one (any token, data or number: n = 1
// copies the last token itself). Read at every prefix, this is the next-token prediction
// x_{t+1} = x_{t+1−n} of the copying task.
// Model (encode = identity), all integer parameters:
//   layer 1  diagonal LRNN, d = 3:  t (decay 1, B = 1);  n_t (number j: decay 0, B = j — the
//            selective reset; data: decay 1, B = 0);  v_t = id(w_t) (decay 0, B = id).
//   layer 2  diagonal LRNN, d = 4, input z = (t, n, v, 1):  t² (decay z₄ = 1, B = 2t − 1:
//            Σ_{i≤t} (2i − 1) = t²; a diagonal layer on one-hot inputs only makes affine and
//            geometric sequences of t, so the square needs the second layer);  t, n, v (decay 0,
//            B copies z).
//   layer 3  unique-hard attention, window N, input (t², t, n, v):  q_t = (2(t + 1 − n_t), −1),
//            k_s = (s, s²), v_s = id(w_s):  score = (t+1−n)² − (s − (t+1−n))², uniquely maximal
//            at s = t + 1 − n, which is visible iff t − s < N, i.e. iff n ≤ N.
// Claims: LRNN layers 2 (diagonal), attention layers 1, state dimension 3 + 4 = 7 (independent
// of L, K and N), window = N, key size 2, and log precision: every state, output and score on
// inputs of length L is an integer of absolute value ≤ max(L² + 2NL, K + N) (≈ 2 log₂(L + N)
// bits); the claim measures ≤ (L + N)² on a probe string of length 64.
//
// ASSOCIATIVE RECALL WITH DECODING [CDMS26 Thm 4.6 as summarized: the SSM extracts the control
// variable, the attention looks the key up in a window that covers the dictionary, not L].
// Alphabet: keys "a", "b", … (k, ids 0..k−1), values "0".."v−1" (ids k..k+v−1), queries "A",
// "B", … (query for key a, b, …; ids k+v..2k+v−1). A value token at s is BOUND to the latest
// key token before s (none: unbound); in a well-formed dictionary "a0b1…" that is the key just
// before it. Let i be the key of the latest query token. The answer position s* is the latest
// value position bound to key i. Promise: a query token exists, s* exists, and s* > L − span
// (the answer lies among the last `span` tokens). f(w) = j for w_{s*} = "j": the value itself
// ("with decoding": the model's output is the value's index, not a pointer). The query may come
// before or after the dictionary and arbitrarily far from it; a key may be re-bound (the most
// recent binding wins).
// Model (encode = identity), all integer parameters:
//   layer 1  diagonal LRNN, d = 5:  q_t = latest query key index 1..k (query Q_i: decay 0,
//            B = i; else decay 1);  c_t = latest key index 1..k and c_t² (key K_i: decay 0,
//            B = i, i²; else decay 1);  isval_t (decay 0, B = [value]);  val_t (decay 0, B = j
//            for value "j", −1 for every other token, so that attending to a non-value can
//            never pass for the answer).
//   layer 2  unique-hard attention, window = span, tie rightmost (the most recent binding):
//            q_t = (2q_t, −1, 1), k_s = (c_s, c_s², isval_s), v_s = val_s:
//            score = q² − (c_s − q)² + isval_s, which is q² + 1 exactly at value positions bound
//            to key q and ≤ q² elsewhere (integers).
// Claims: LRNN layers 1 (diagonal), attention layers 1, state dimension 5 (independent of L,
// k, v and span), window = span, key size 3, precision: every state, output and score is an
// integer of absolute value ≤ max(2k² + 1, v) — constant, independent of L.
//
// Negative variants the options allow (tests/constructions/test_retrieval.cpp): a window
// smaller than N (span), attention = false (the LRNN stack alone, read at its current-token
// coordinate: right only when the answer is the current token), and tie = leftmost for recall
// (the oldest binding in the window instead of the most recent).
#pragma once

#include <cstddef>
#include <optional>

#include "constructions/construction.hpp"
#include "rnn/attention.hpp"

namespace rnncc {

struct SelectiveCopyOptions {
  std::size_t data_symbols = 2;       // K: 1..26, named "a", "b", …
  std::size_t max_distance = 3;       // N: number tokens "1".."N", 1..9
  std::optional<std::size_t> window;  // the attention's window; default N (≥ 1)
  bool attention = true;              // false: the LRNN stack alone (negative variant)
};

// Throws InputError (where = "--data-symbols", "--max-distance", "--window") for an option out
// of range.
Construction selective_copy(const SelectiveCopyOptions& options);

struct AssocRecallOptions {
  std::size_t keys = 2;               // k: 1..26, keys "a".., queries "A"..
  std::size_t values = 2;             // v: 1..10, values "0".."v−1"
  std::optional<std::size_t> span;    // the promise: the answer lies in the last `span`
                                      // tokens; default 2k + 1 (a dictionary of k pairs + query)
  std::optional<std::size_t> window;  // the attention's window; default span (≥ 1)
  TieRule tie = TieRule::rightmost;   // rightmost = the most recent binding (correct)
  bool attention = true;              // false: the LRNN alone (negative variant)
};

// Throws InputError (where = "--keys", "--values", "--span", "--window") for an option out of
// range.
Construction associative_recall(const AssocRecallOptions& options);

}  // namespace rnncc
