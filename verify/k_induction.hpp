// Proofs for every input by k-induction over the recurrent state, with Z3 (issue 24 item 7c;
// docs/constructions.md, "Proofs for every input by k-induction").
//
// The one construction with an inductive argument here: the graph-walk ReLU RNN (`dgc`,
// constructions/graph_walk.hpp). Its input is a block of tokens per instance symbol: a start
// block (ever: "T<t>" "s<s>" "ca" "cb" "cf"; final: "s<s>"), one block per edge u → v
// ("e<u><v>a".."e<u><v>d", ever: then "ca" "cb" "cf"), and for the final variants an end block
// ("t<t>a" "t<t>b"). The transition system is the model's exact Elman ReLU step, composed over
// one block, next to f's own step, written from f's definition (reachable(): the walk's vertex
// `at` and whether it has `seen` t; at ← v if at = u; seen ← seen ∨ at = t):
//
//   state:  the model's hidden vector h ∈ Q^d (Z3 reals: each weight an exact rational, ReLU as
//           ite(v > 0, v, 0)), and f's (at, seen) over Z3 integers and booleans; t fixed;
//   I(h, at, seen):  1 ≤ at ≤ V, h_S = at, every unit other than the carried ones (S; ever: T,
//           A, B) is 0, and — ever: h_T = t and h_A − h_B = [seen]; final: seen ⇔ at = t;
//   base:   every start block (1 ≤ s, t ≤ V, s ≠ t) followed by j < k edge blocks ends in I;
//   step:   I on k consecutive block boundaries joined by edge blocks ⇒ I at the next one;
//   output: I(h) ⇒ the model's output after the end block (ever: at h itself) is [seen].
//
// Each check is the negation asserted to Z3; "proved" only when every one is unsat. An edge block
// is any u < v in 1..V (final with the promise: u ≠ t, "t is a sink"), so the proof covers every
// sequence of edge blocks of any length, the sorted instances among them. Assumed, not proved:
// that encode writes the blocks above (tested: tests/unit/test_k_induction.cpp), that f's step
// here is reachable()'s loop, and Z3's soundness.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "algebra/rational.hpp"
#include "constructions/construction.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc::kind {

struct InductionOutcome {
  enum class Verdict { proved, failed, not_applicable, unavailable };
  Verdict verdict = Verdict::unavailable;
  std::string reason;     // not_applicable / unavailable: why; failed: the check that failed
  std::string invariant;  // I in words
  std::string assumed;    // what the proof takes as given
  std::size_t k = 0;      // proved: the k that closed the step; failed: the largest tried
  std::size_t queries = 0;
  std::string counterexample;  // failed: the counterexample to induction (or base), in words
  std::string solver;          // "Z3 4.8.12"
  double seconds = 0;
};

std::string to_string(InductionOutcome::Verdict v);  // "proved", "failed", …

// False (and why) when rnncc was built without Z3.
bool k_induction_available(std::string* why = nullptr);

// Tries k = 1, 2, …, max_k (plain induction first) on c; not_applicable unless c is the
// graph-walk construction (one Elman ReLU layer, its tokens named as graph_walk.cpp names them).
InductionOutcome prove_by_k_induction(const Construction& c, std::size_t max_k);

// The encoding's step, h' = ReLU(W h + U e_token + b) as Z3 terms, evaluated at a concrete h by
// Z3's simplifier and read back exactly (for tests against rnn/evaluate.hpp).
std::vector<Rational> smt_elman_step(const ElmanLayer& layer, const std::vector<Rational>& h,
                                     std::size_t token);

}  // namespace rnncc::kind
