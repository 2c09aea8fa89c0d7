// Finite-state models to fan-in-2 boolean circuits: a prefix tree of transition-function
// compositions (constructions.md §2–3; docs/circuits.md, "Finite-state models to boolean
// circuits").
//
// Theorem (folklore; the NC¹ half of [Bar89], the "compose transition functions" route of
// [MJLLS26, §3]). A deterministic machine with Q states over Σ is recognized, for inputs of
// length n, by a fan-in-2 AND/OR circuit of depth O(log n · log Q) and size O(n·Q³).
// Construction: position t's transition function is the 0/1 matrix
//     M_t[q'][q] = OR_{σ : δ(q,σ) = q'} x[t,σ]                      (leaf)
// and functions compose by the boolean matrix product
//     (M₂∘M₁)[q''][q] = OR_{q'} (M₂[q''][q'] ∧ M₁[q'][q])           (combine)
// which is associative, so any prefix network (circuits/arith/prefix.hpp) computes every
// prefix. Position 1 is anchored at the start state: v_1[q] = M_1[q][start], and a combine
// whose earlier operand is anchored is a matrix-vector product v_t = M·v_{t'}. The output is
// accept_t = OR_{q accepting} v_t[q].
//
// Depth (stated; tests check measured ≤ stated; constant folding only lowers it):
//     ⌈log₂|Σ|⌉                              leaf (an OR of at most |Σ| indicators)
//   + c · (1 + ⌈log₂ Q⌉)                     c = prefix_chain_depth(scan, n): one AND level
//                                            and an OR tree over ≤ Q terms per combine
//   + ⌈log₂ Q⌉                               the acceptance OR
// i.e. O(log n · log Q) for Sklansky, Kogge–Stone, Brent–Kung, Ladner–Fischer (c ≤ 2⌈log₂ n⌉).
// Size: at most n·Q·|Σ| leaf ORs plus, per combine, 2Q³ (function∘function) or 2Q²·k
// (function applied to an anchored Q×k state) gates; entries that are constantly 0 (no symbol
// leads from q to q') are dropped, which is what makes a leaf O(Q·|Σ|) and block-structured
// machines cheap.
//
// Every gate is a binary `and` or `or` (hash-consed by CircuitBuilder), so the circuit is
// fan-in 2. The circuit computes the same function on every 0/1 input, one-hot or not: over the
// boolean semiring the M_t are relations and any bracketing of their product is the same
// relation (associativity), so the prefix circuit and reference_sequential_fsm are equivalent
// on all 2^{n|Σ|} assignments — which is what lets ABC's `cec` prove them equal. On one-hot
// inputs the relation is the machine's function and the output is acceptance.
//
// Tracks. A PD LRNN whose S_0 has several nonzero entries (the S₅ word-problem model keeps
// vec of a 5×5 permutation matrix: five ones) is by linearity k copies of one coordinate
// machine: S_t = Σ_j S_0[j]·e_{f_t(j)} with f_t = the composed transition function, so
// y_t = Σ_j S_0[j]·C·e_{f_t(j)} + c₀. TrackedMachine keeps that form: the prefix tree is the
// same (Q×Q compositions over the coordinates), the anchored value is a Q×k matrix (one column
// per track), and acceptance tests Σ_j w_j·value[q_j] + bias (> 0 or = 0) by a table of the
// reachable partial sums (a dynamic program over the tracks, AND/OR only). Its depth adds, in
// place of the acceptance OR above,
//     ⌈log₂ Q⌉ + (k − 1)·(1 + ⌈log₂ Q⌉) + ⌈log₂ (number of distinct final sums)⌉.
// The alternative — one state per reachable vector S_t (explore_orbit) — is a plain DFA but
// can be much larger (120 states for S₅ against 25 coordinates).
//
// Sources: [Bar89] Barrington, JCSS 38 (1989); [MJLLS26] Merrill et al., arXiv 2603.03612.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "circuits/circuit.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compiled_circuit.hpp"
#include "rnn/alphabet.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// A deterministic finite-state machine (complete DFA): states 0..Q−1, symbols 0..|Σ|−1.
struct FiniteStateMachine {
  std::size_t symbols = 0;                      // |Σ|
  std::vector<std::vector<std::size_t>> delta;  // delta[q][σ] ∈ [0, Q); Q = delta.size()
  std::size_t start = 0;
  std::vector<bool> accepting;        // per state
  std::vector<std::string> labels;    // optional per-state output label (empty: none)
  std::vector<std::string> alphabet;  // optional symbol names (empty: "0", "1", …)
  std::size_t states() const { return delta.size(); }
};

// k tracks of one transition function, read in lockstep from k start states; accepted iff
//     Σ_j tracks[j].weight · value[q_j] + bias   > 0 (positive) or = 0 (zero)
// where q_j is track j's state after the input (docs/circuits.md).
struct MachineTrack {
  std::size_t start = 0;
  Rational weight = 1;
};
struct TrackedMachine {
  std::size_t symbols = 0;
  std::vector<std::vector<std::size_t>> delta;  // delta[q][σ]
  std::vector<MachineTrack> tracks;
  std::vector<Rational> value;  // per state
  Rational bias = 0;
  Acceptance::Mode mode = Acceptance::Mode::positive;
  std::vector<std::string> labels;    // optional
  std::vector<std::string> alphabet;  // optional
  std::size_t states() const { return delta.size(); }
};

// Throw InputError (where = "machine") naming the first broken rule: Q ≥ 1, |Σ| ≥ 1, every
// row of delta has |Σ| entries < Q, start < Q, accepting / value has Q entries, labels and
// alphabet empty or of the right size, track starts < Q.
void check_machine(const FiniteStateMachine& m);
void check_machine(const TrackedMachine& m);

// Direct simulation (the plain twin every circuit is compared with). Symbol ids must be < |Σ|
// (std::out_of_range otherwise).
std::size_t run_machine(const FiniteStateMachine& m, std::span<const std::size_t> w);
bool accepts(const FiniteStateMachine& m, std::span<const std::size_t> w);
bool accepts(const TrackedMachine& m, std::span<const std::size_t> w);

// ---- builders ----------------------------------------------------------------------------

struct FsmBuildOptions {
  // When S_0's acceptance column is not one-hot: build the DFA whose states are the vectors
  // reachable from S_0 (breadth-first, at most max_states of them) instead of refusing.
  bool explore_orbit = true;
  std::size_t max_states = 4096;
};

// The machine of a one-layer LRNN whose per-symbol matrices A_σ are deterministic transitions —
// 0/1 matrices with exactly one 1 per column (a PD layer with P column-one-hot, D = 1; a
// permutation P is the reversible case) — with B_σ = 0 and no per-symbol readout. Only column
// `accept.col` of the state reaches the accepted entry, so only that column of S_0 is read.
// If that column is one-hot up to scale (one nonzero entry s₀ at index s): states are the d
// coordinates, δ(q,σ) = the row of column q's 1 in A_σ, start s, and q is accepting iff the
// readout of s₀·e_q, (C·s₀e_q + c₀)[accept.row][accept.col], is accepted (> 0 or = 0). Labels
// "e0".."e{d−1}". Otherwise (several or no nonzero entries) see FsmBuildOptions::explore_orbit;
// states are then labelled by their vectors.
// Throws InputError (where = "layer") naming the symbol, column and entry that break a rule.
// symbol_names, when given, name the symbols in diagnostics and become the machine's alphabet.
FiniteStateMachine fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept = {},
                                     const FsmBuildOptions& options = {},
                                     const std::vector<std::string>& symbol_names = {});
// Exactly one layer, an LRNN layer (InputError where = "layers" / "layer 0" otherwise), then
// fsm_from_pd_layer with the model's alphabet and acceptance.
FiniteStateMachine fsm_from_model(const Model& model, const FsmBuildOptions& options = {});

// The same layer as tracks: one track per nonzero entry of S_0's acceptance column (start the
// coordinate, weight the entry), value[q] = C[accept.row][q], bias = c₀[accept.row][accept.col],
// the model's acceptance mode. Same structural checks as fsm_from_pd_layer; any S_0.
TrackedMachine tracked_fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept = {},
                                         const std::vector<std::string>& symbol_names = {});
TrackedMachine tracked_fsm_from_model(const Model& model);

// A deterministic WFA with 0/1 weights (constructions/wfa.hpp: f(w) = αᵀ M_{w₁}⋯M_{w_n} β, arc
// p --σ--> q is (M_σ)_{pq}): states are the WFA's, plus a non-accepting sink when some state
// lacks an arc for some symbol; accepting iff β_q = 1; then accepts(w) ⇔ f(w) = 1 (else
// f(w) = 0). Throws InputError (where = "wfa") for: not exactly one initial state of weight 1,
// a state with two σ-arcs, an arc weight other than 1, a final weight other than 0 or 1.
// Wfa lives a layer above circuits/ (constructions/), so this takes its fields; the template
// below accepts a Wfa directly without circuits/ including constructions/.
FiniteStateMachine fsm_from_dwfa_parts(const Alphabet& alphabet,
                                       const std::vector<std::string>& state_names,
                                       const std::vector<Rational>& initial,
                                       const std::vector<Rational>& final_weights,
                                       const std::vector<Matrix<Rational>>& transition);
template <class W>
FiniteStateMachine fsm_from_dwfa(const W& wfa) {
  return fsm_from_dwfa_parts(wfa.alphabet, wfa.state_names, wfa.initial, wfa.final, wfa.transition);
}

// ---- compilation ---------------------------------------------------------------------------

struct FiniteStateOptions {
  Scan scan;  // the prefix network (scan.chunk is not used)
  // last: one output "accept" after position n, and only the combines it depends on are built
  // (for Brent–Kung the up-sweep); all: "accept[t]" for t = 1..n, the whole network.
  OutputMode outputs = OutputMode::last;
  Budget budget;
};

// Inputs x[t,σ] (circuits/compile/common.hpp; σ named by m.alphabet, else by its id).
// Regions: input, leaf (level = t), combine (level = chain depth, target, source), accept.
// combine_levels = the longest chain of combines actually built. Throws InputError for n = 0,
// a broken machine (check_machine), or an estimate above options.budget.
CompiledCircuit compile_finite_state(const FiniteStateMachine& m, std::size_t n,
                                     const FiniteStateOptions& options = {});
CompiledCircuit compile_finite_state(const TrackedMachine& m, std::size_t n,
                                     const FiniteStateOptions& options = {});

// The stated depth bound above, for the network of options (outputs do not change it).
std::size_t finite_state_depth_bound(const FiniteStateMachine& m, std::size_t n,
                                     const FiniteStateOptions& options = {});
std::size_t finite_state_depth_bound(const TrackedMachine& m, std::size_t n,
                                     const FiniteStateOptions& options = {});

// The plain twin: the sequential one-hot simulation written directly (no prefix machinery),
//     v_0 = e_start,   v_t[q'] = OR_{(q,σ) : δ(q,σ) = q'} (v_{t−1}[q] ∧ x[t,σ]),
// n-ary AND/OR gates, depth Θ(n); same inputs and output names as compile_finite_state. The
// tracked version accepts by enumerating the tuples of per-track values (InputError beyond
// 2^20 tuples), independently of the compiler's partial-sum table.
Circuit reference_sequential_fsm(const FiniteStateMachine& m, std::size_t n,
                                 OutputMode outputs = OutputMode::last);
Circuit reference_sequential_fsm(const TrackedMachine& m, std::size_t n,
                                 OutputMode outputs = OutputMode::last);

}  // namespace rnncc
