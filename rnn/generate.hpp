// Autoregressive generation: a model that writes its own tokens and reads them back
// (docs/semantics.md, "Generation"; the chain-of-thought setting of [WDL24]).
//
// Semantics. Given a prompt u_1..u_m (m ≥ 1) over the model's alphabet Σ, generation builds
// u_{m+1}, u_{m+2}, … one token at a time:
//     y_t        = the last layer's output at position t on the input u_1..u_t
//     u_{t+1}    = argmax_{k ∈ 0..|Σ|−1} y_t[k][0]      (ties: the lowest index k)
// so the last layer must output |Σ|×1 (row k scores token k, in alphabet order). Generation
// stops after emitting a stop token (the rule's `stop` set; the stop token is part of the
// output) or after max_new_tokens tokens, whichever comes first. Because every layer is causal,
// y_t does not depend on later tokens, so generation is the same as evaluating the final sequence
// once and checking u_{t+1} = argmax y_t at every t ≥ m; `generate_plain` does literally that per
// step (re-evaluates the prefix with rnn/evaluate.hpp), and the incremental evaluator here keeps
// each layer's state and computes one new position per token, by the same semantics
// (rnn/evaluate.hpp, step_stack).
//
// Model files declare the rule in an optional top-level key, read by rnn/model_json.hpp
// (parse_generative_model; docs/formats.md, "Generation"):
//     "generation": {"rule": "argmax", "stop": ["1RZ", "---"]}
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algebra/domain.hpp"
#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model.hpp"
#include "rnn/model_json.hpp"  // GenerationRule, GenerativeModel

namespace rnncc {

// argmax over the rows of y (|Σ|×1), ties to the lowest index. Throws InputError when y is not
// |Σ|×1 (the model cannot generate).
template <OrderedDomain K>
std::size_t next_token(const K& k, const Matrix<typename K::Element>& y, std::size_t alphabet) {
  if (y.rows() != alphabet || y.cols() != 1)
    throw InputError("generation", "the last layer outputs " + std::to_string(y.rows()) + "×" +
                                       std::to_string(y.cols()) + ", but generation needs " +
                                       std::to_string(alphabet) +
                                       "×1 (one score per alphabet symbol)");
  std::size_t best = 0;
  for (std::size_t i = 1; i < y.rows(); ++i)
    if (k.sign(k.sub(y(i, 0), y(best, 0))) > 0) best = i;
  return best;
}

struct Generation {
  std::vector<std::size_t> tokens;  // the generated tokens u_{m+1}, … (not the prompt)
  bool stopped = false;             // ended on a stop token (false: the cap)
  Rational largest = 0;             // max |value| over states, outputs and attention scores
};

// Checks the prompt (non-empty, ids in range); InputError otherwise.
void check_prompt(const Model& model, const std::vector<std::size_t>& prompt);

// The plain twin: for every new token, evaluates the whole sequence so far (O(T) evaluations).
// `largest` is left 0 (the reference evaluator does not expose scores).
template <OrderedDomain K>
Generation generate_plain(const Model& model, const K& k, const std::vector<std::size_t>& prompt,
                          std::size_t max_new_tokens, const GenerationRule& rule) {
  check_prompt(model, prompt);
  std::vector<std::size_t> seq = prompt;
  Generation g;
  while (g.tokens.size() < max_new_tokens) {
    const std::size_t next =
        next_token(k, evaluate(model, k, seq).outputs().back(), model.alphabet.size());
    g.tokens.push_back(next);
    seq.push_back(next);
    if (rule.stops_on(next)) {
      g.stopped = true;
      break;
    }
  }
  return g;
}

struct IncrementalOptions {
  // Integer models (every parameter an integer) run on checked 64-bit integers
  // (rnn/checked_int64.hpp), which is exact as long as no value overflows; an overflow replays
  // the tokens on rationals.
  bool integer_fast_path = true;
  // Unique-hard attention with a parabola index (see IncrementalModel); off: brute force.
  bool attention_index = false;
};

// The exact incremental evaluator: feed(u_t) computes position t of every layer from the
// layers' states after t − 1 (LRNN: S_t; Elman: h_t; attention: the keys and values so far)
// with the reference semantics' step (rnn/evaluate.hpp, step_stack). Same values as
// evaluate(model, RationalField{}, u_1..u_t) at position t (tests compare them). LSTM layers,
// softmax attention and log precision are not supported (InputError; use generate_plain).
//
// The attention index (options.attention_index). A unique-hard layer with no window and no
// position bias, whose keys all lie on the parabola k = (w, w²) and whose query has q₂ < 0,
// picks among at most two keys, found in O(log n) in a map of the distinct w instead of scoring
// all n (the argument is at rnn/evaluate.hpp's attention step). A key off the parabola or a
// query with q₂ ≥ 0 is refused (InputError "attention index precondition"): the index keeps no
// other keys to fall back on. The largest |score| is the max of |f| at the argmax and at the
// extreme keys.
class IncrementalModel {
 public:
  IncrementalModel(const Model& model, const IncrementalOptions& options = {});
  ~IncrementalModel();
  IncrementalModel(IncrementalModel&&) noexcept;
  IncrementalModel& operator=(IncrementalModel&&) noexcept;

  void feed(std::size_t token);
  std::size_t positions() const;
  // The last layer's output at the last position fed (exact).
  Matrix<Rational> output() const;
  // argmax of output() by next_token's rule.
  std::size_t next_token() const;
  // Per layer, the position (1-based) the attention picked at the last position; nullopt for
  // other layers (and averaging attention).
  std::vector<std::optional<std::size_t>> attended() const;
  Rational largest() const;  // max |value| so far
  bool on_integers() const;  // running on the 64-bit integer fast path
  bool indexed() const;      // some attention layer uses the parabola index
  // The work done so far, in units of one operation on the engine's numbers (checked int64 or
  // rationals): one per sparse parameter entry applied (times the state's m columns), one per
  // value looked at for largest(), h + 2 per attention score (h products, the position term,
  // the comparison), log2 of the index's size per indexed lookup. A replay on rationals after an
  // overflow counts again. estimate_incremental_work bounds it before any token is fed.
  std::uint64_t work() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// An upper bound on IncrementalModel::work() once `positions` tokens are fed, without feeding
// any (saturating): per position, layer 1 applies one feature's parameters (one-hot input; the
// largest feature's count is taken), a deeper layer every feature's; brute-force attention
// scores the min(p, window) visible positions at position p, so P positions cost about
// (h + 2)·P²/2 — the quadratic term of long generations; with the index (options) four scores
// and log2 p lookups a position. Tested against the counted work on seeded models and sizes
// (tests/rnn/test_generate.cpp: counted ≤ estimate ≤ 2 × counted + a small constant).
std::uint64_t estimate_incremental_work(const Model& model, std::uint64_t positions,
                                        const IncrementalOptions& options = {});

// Generation with the incremental evaluator, exact semantics.
Generation generate(const Model& model, const RationalField& k,
                    const std::vector<std::size_t>& prompt, std::size_t max_new_tokens,
                    const GenerationRule& rule, const IncrementalOptions& options = {});

}  // namespace rnncc
