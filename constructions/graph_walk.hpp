// Sorted deterministic graph connectivity by a ReLU RNN [MJLLS26, Thm 2] — the L-hardness
// witness for log-precision ReLU RNNs (reference constructions.md §3).
//
// Instance: vertices 1..V, a source s, a target t, and at most one forward out-edge per vertex
// (u → v with u < v), listed by increasing source. Question: is t reachable from s?
// The RNN keeps one counter S ← s and, for each edge (u, v), sets S ← v if S = u; with integer
// S the test is exact: [S = u] = ReLU(1 − ReLU(S − u) − ReLU(u − S)).
//
// Claimed semantics and the caveat found in review: comparing only the FINAL S with t decides
// reachability only when t is a sink (the hardness reduction makes it one). Variants:
//   final_with_promise  compare the final S with t; f is claimed on instances whose t is a sink;
//   final_no_promise    the same model, claimed on every instance — wrong: s = 1, edges
//                       (1,2), (2,3), t = 2 is rejected although 2 is reachable;
//   ever                t comes first and a flag records whether S ever equalled t: right on
//                       every instance.
//
// Target strings (fixed length V + 1, alphabet "1".."V","-"): w = (s, t, out(1), …, out(V−1)),
// out(u) = v for the edge u → v ("-" or v ≤ u: no edge). Every variant's promise has s and t
// distinct vertices (s = t is trivially reachable); final_with_promise adds "t is a sink".
// The model (one Elman ReLU layer) reads tokens: "s<i>", then per edge u → v four sub-steps
// "e<u><v>a".."e<u><v>d" (|S − u| parts, the zero test, the gated jump v − u, the update), then
// "t<j>a", "t<j>b" (the final comparison; variant `ever` reads "T<j>" first instead and tests
// [S = T] after s and after every edge). Claims: state units, sub-steps per edge, the largest
// value a unit takes (log precision: O(log V) bits).
#pragma once

#include <cstddef>

#include "constructions/construction.hpp"

namespace rnncc {

enum class GraphWalkVariant { final_with_promise, final_no_promise, ever };

// vertices: V ≥ 2 (the alphabet grows as V²; V ≤ 9 keeps token names short).
Construction graph_walk(std::size_t vertices, GraphWalkVariant variant);

}  // namespace rnncc
