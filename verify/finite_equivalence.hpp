// Equivalence of finite-state models on every nonempty prefix, by product breadth-first search
// (Hopcroft & Karp 1971, "A linear algorithm for testing equivalence of finite automata";
// docs/constructions.md, "Finite-state models: product search"). Issue 13, item 4.
//
// The finite-state view. A model (rnn/model.hpp) is a deterministic machine whose state is its
// configuration: the full state of every layer (LRNN S_t, Elman h_t, LSTM [h_t; c_t]), exactly
// over Q, together with the top layer's output y_t (flattened row by row, as rnn/evaluate.hpp's
// Matrix::data()). y_t is part of the state because with per-symbol readouts C_k it depends on
// the last symbol, not on S_t alone; the machine is then a Moore machine: its output at a state
// is the y_t the model outputs after the step into it. The start state is the configuration at
// t = 0, which has no output (the reference evaluator outputs y_1 … y_n only), so no step
// re-enters it. This holds for any layer whose next state is a function of (state, input) —
// LRNN, Elman ReLU/sign, LSTM — and fails for attention, whose output at t reads every key and
// value so far (refused, NotFiniteError). A WFA (constructions/wfa.hpp) is the machine whose
// state is the row vector v(u) = α·M_u, with output v(u)·β at every state, ε included (a DWFA
// with weights in {0, ±1} has at most 2|Q| + 1 such vectors; other WFAs often infinitely many).
//
// The reachable states are enumerated breadth-first from the start, symbols in id order
// (rnn/reachable.hpp; a model steps by rnn/evaluate.hpp's semantics), up to `max_states`; a model
// with more is refused (NotFiniteError), since its reachable set may be infinite (a counter): for
// models linear in their state the linear decider (verify/equivalence.hpp) applies whatever the
// reachable set.
//
// Product search. f ≡ g iff out_f(p) = out_g(q) at every pair (p, q) = (δ_f(w), δ_g(w)) reached
// by a nonempty w (and at (start, start) when both define y(ε)). The pairs are visited
// breadth-first from (start_f, start_g), successors in symbol-id order, each pair recorded
// with the word along which it was first reached and checked then.
//
// Shortest counterexample. Claim: pairs are first reached in llex order of their llex-least
// reaching words, and each pair's recorded word is that least word m(P). By induction on the
// queue: the queue holds pairs in llex order of m(·) (lengths nondecreasing, at most two
// consecutive lengths); dequeuing P and appending its successors Pσ in σ order appends words
// m(P)σ in llex order after every word of the current length, and m(Pσ) = m(P)σ for a pair
// first reached here: a llex-smaller word uτ reaching Pσ has u < m(P) in llex order (or u = P's
// word and τ < σ), so u's pair was dequeued earlier and would have reached Pσ first. Hence if
// x is the llex-least distinguishing word and P the pair it reaches, m(P) ≤ x also reaches P
// and distinguishes, so m(P) = x; and every pair checked before P has a llex-smaller least word,
// which does not distinguish. The first failing check is x: the shortest distinguishing
// string, the lexicographically least of that length. Cost: at most |Q_f|·|Q_g| pairs, |Σ|
// successors each, plus the output comparisons: O(|Q_f|·|Q_g|·|Σ|) steps.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "constructions/wfa.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model.hpp"
#include "verify/equivalence.hpp"

namespace rnncc {

// A model or WFA the product search cannot read as a finite machine; what() says why.
class NotFiniteError : public InputError {
 public:
  explicit NotFiniteError(const std::string& why) : InputError("", why) {}
};

// A deterministic Moore machine over Σ: states 0..n−1, start = 0.
struct FiniteMachine {
  std::vector<std::string> symbols;            // Σ, in symbol-id order
  std::size_t outputs = 1;                     // r: coordinates of y
  std::vector<std::vector<std::size_t>> next;  // next[q][σ]
  std::vector<std::vector<Rational>> output;   // output[q]: y after the step into q (r values)
  bool start_has_output = false;               // output[0] = y(ε) is defined (WFAs)
  // The BFS tree: q ≠ 0 was first reached from parent[q] by symbol[q] (entries 0 unused).
  std::vector<std::size_t> parent, symbol;
  std::size_t states() const { return next.size(); }
  // The llex-least word reaching q (its path in the BFS tree).
  std::vector<std::size_t> word(std::size_t q) const;
};

struct FiniteMachineParams {
  // Reachable configurations allowed; one more is refused (NotFiniteError).
  std::size_t max_states = 100000;
};

// A model's configuration over Q: every layer's state (LRNN: d×m, Elman: d×1, LSTM: [h; c],
// 2d×1), stepped by the reference semantics (rnn/evaluate.hpp, step_stack).
using Configuration = std::vector<LayerState<RationalField>>;

// The model's parameters over Q, for its configurations: initial_states(p) is the configuration
// at t = 0, step_stack(p, RationalField{}, c, σ, meter) one step. Throws NotFiniteError for an
// attention layer (with the reason) and for a model with no layers.
StackParams<RationalField> configuration_params(const Model& m);
// The configuration as one vector: every layer's state, layer after layer, row by row.
std::vector<Rational> flatten(const Configuration& c);

// The reachable machine of a model / WFA. Throws NotFiniteError (attention layers; more than
// max_states reachable configurations).
FiniteMachine finite_machine(const Model& m, const FiniteMachineParams& params = {});
FiniteMachine finite_machine(const Wfa& a, const FiniteMachineParams& params = {});
FiniteMachine finite_machine(const std::variant<Model, Wfa>& s,
                             const FiniteMachineParams& params = {});

struct FiniteEquivalenceParams {
  std::size_t max_pairs = 10000000;  // product pairs allowed; more: InputError
};

struct FiniteEquivalenceResult {
  bool equivalent = false;
  std::string method = "product breadth-first search";
  std::size_t states_f = 0, states_g = 0;  // reachable states of each machine
  std::size_t states_visited = 0;          // product pairs reached (all of them when equivalent)
  double seconds = 0;
  std::optional<EquivalenceCounterexample> counterexample;  // values exact, to_string(Rational)
};

// Throws InputError when the alphabets or output dimensions differ, or past max_pairs.
FiniteEquivalenceResult decide_finite_equivalence(const FiniteMachine& f, const FiniteMachine& g,
                                                  const FiniteEquivalenceParams& params = {});

// Plain twin for tests: the llex-least word of length ≤ max_length on which the reference
// evaluators (rnn/evaluate.hpp over Q; evaluate(Wfa, w)) differ at the last position, and ε
// when both are WFAs with different y(ε).
std::optional<EquivalenceCounterexample> exhaustive_subject_counterexample(
    const std::variant<Model, Wfa>& f, const std::variant<Model, Wfa>& g, std::size_t max_length);

}  // namespace rnncc
