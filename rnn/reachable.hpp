// The reachable configurations of a deterministic machine, breadth-first: the one search behind
// the product search's finite machines (verify/finite_equivalence.hpp: models and WFAs) and the
// finite-state route of nonlinear models (circuits/compile/nonlinear.hpp).
//
// From the start, each state's successors are taken in symbol-id order and a state is numbered
// when first reached, so states are numbered in llex order of their llex-least reaching words,
// and parent/symbol spell those words (the argument is in verify/finite_equivalence.hpp). A
// model's machine steps with the reference semantics (rnn/evaluate.hpp, step_stack): its state
// is its configuration, every layer's state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "algebra/domain.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model.hpp"

namespace rnncc {

template <class State>
struct Reachable {
  std::vector<State> states;                   // in the order first reached; states[0]: the start
  std::vector<std::vector<std::size_t>> next;  // next[q][σ]; empty for a state not expanded
  // q ≠ 0 was first reached from parent[q] by symbol[q], depth[q] symbols from the start
  // (entries 0: 0).
  std::vector<std::size_t> parent, symbol, depth;
};

// Breadth-first from `start` over `symbols` symbols. step(state, σ) is the successor; key(state) a
// text, equal for equal states only. A successor whose key is known already is passed to
// revisit(known, successor). States at depth max_depth are reached but not expanded. too_many() is
// called, and must throw, before a state would be the (max_states + 1)-th.
template <class State, class Step, class Key, class Revisit, class TooMany>
Reachable<State> breadth_first(State start, std::size_t symbols, std::size_t max_states,
                               std::size_t max_depth, Step&& step, Key&& key, Revisit&& revisit,
                               TooMany&& too_many) {
  Reachable<State> r;
  std::unordered_map<std::string, std::size_t> index;
  auto add = [&](State s, std::string text, std::size_t parent, std::size_t symbol,
                 std::size_t depth) {
    if (r.states.size() >= max_states) too_many();
    index.emplace(std::move(text), r.states.size());
    r.states.push_back(std::move(s));
    r.next.emplace_back();
    r.parent.push_back(parent);
    r.symbol.push_back(symbol);
    r.depth.push_back(depth);
  };
  std::string start_key = key(start);
  add(std::move(start), std::move(start_key), 0, 0, 0);
  for (std::size_t q = 0; q < r.states.size(); ++q) {
    if (r.depth[q] >= max_depth) continue;
    std::vector<std::size_t> out(symbols);
    for (std::size_t s = 0; s < symbols; ++s) {
      State x = step(r.states[q], s);
      std::string text = key(x);
      if (auto it = index.find(text); it != index.end()) {
        revisit(r.states[it->second], x);
        out[s] = it->second;
      } else {
        out[s] = r.states.size();
        add(std::move(x), std::move(text), q, s, r.depth[q] + 1);
      }
    }
    r.next[q] = std::move(out);
  }
  return r;
}

// A node of a model's machine: every layer's state (LRNN S, Elman h, LSTM [h; c]) and the top
// layer's output y after the step into it (empty at the start, which no step has entered).
template <Domain K>
struct ModelConfiguration {
  std::vector<LayerState<K>> layers;
  Matrix<typename K::Element> output;
};

struct ConfigurationSearch {
  std::size_t max_states = 100000;
  std::size_t max_depth = SIZE_MAX;  // configurations reached by more symbols are not expanded
  // true: y is part of the state (a Moore machine; the start, with no y, is apart from every
  // state a step enters). false: the layers' states alone, each keeping the y of its first
  // entry — y must be a function of them (std::logic_error otherwise).
  bool output_in_state = true;
};

// The configurations `model` reaches from t = 0 in the ordered domain k (exact Q, or the log
// precision fixed point of the evaluator). The model must have no attention layer (its keys and
// values grow with the input: callers refuse it first). too_many() throws past
// search.max_states. A DomainError of a step (fixed point under Overflow::error) is named as
// evaluate names it on one symbol from the configuration: "layer i: position 1: ".
template <OrderedDomain K, class TooMany>
Reachable<ModelConfiguration<K>> reachable_configurations(const Model& model, const K& k,
                                                          const ConfigurationSearch& search,
                                                          TooMany&& too_many) {
  for (const StackLayer& sl : model.layers)
    if (std::holds_alternative<AttentionLayer>(sl.layer))
      throw std::logic_error("reachable_configurations: an attention layer has no finite state");
  const StackParams<K> params = prepare_stack(model, k);
  auto text = [&](const Matrix<typename K::Element>& m, std::string& out) {
    for (const auto& x : m.data()) {
      out += to_string(k.to_rational(x));
      out += ',';
    }
    out += ';';
  };
  auto key = [&](const ModelConfiguration<K>& c) {
    std::string s;
    if (search.output_in_state) {
      if (c.output.empty()) {
        s = "start";
      } else {
        text(c.output, s);
      }
      s += '|';
    }
    for (const auto& l : c.layers) text(l.state, s);
    return s;
  };
  auto step = [&](const ModelConfiguration<K>& c, std::size_t symbol) {
    ModelConfiguration<K> next{c.layers, {}};
    NoMeter meter;
    next.output = step_stack(params, k, next.layers, symbol, meter, 1);
    return next;
  };
  auto revisit = [&](ModelConfiguration<K>& known, const ModelConfiguration<K>& successor) {
    if (search.output_in_state) return;
    if (known.output.empty())
      known.output = successor.output;  // the start, entered again
    else if (!equal(k, known.output, successor.output))
      throw std::logic_error("reachable_configurations: two outputs for one configuration");
  };
  return breadth_first(ModelConfiguration<K>{initial_states(params), {}}, model.alphabet.size(),
                       search.max_states, search.max_depth, step, key, revisit, too_many);
}

}  // namespace rnncc
