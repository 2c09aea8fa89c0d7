// Finite-state machines built from one-layer PD LRNNs (coordinates, reachable vectors or tracks)
// and from deterministic WFAs (finite_state.hpp, "builders").
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "algebra/error.hpp"
#include "circuits/compile/finite_machine.hpp"
#include "circuits/compile/finite_state.hpp"

namespace rnncc {

namespace {

using finite_state_internal::accepted;

// ---- reading LRNN layers -----------------------------------------------------------------

std::string feature_name(const std::vector<std::string>& names, std::size_t f) {
  return f < names.size() ? "symbol '" + names[f] + "'" : "feature " + std::to_string(f);
}

// The coordinate machine of a layer: δ(q,σ) = row of column q's 1 in A_σ; the state column
// and readout row the acceptance reads.
struct LayerMachine {
  std::vector<std::vector<std::size_t>> delta;
  std::vector<Rational> s0;     // S_0[·][col]
  std::vector<Rational> value;  // C[row][·]
  Rational bias = 0;            // c₀[row][col]
};

LayerMachine read_layer(const LrnnLayer& layer, const Acceptance& acc,
                        const std::vector<std::string>& names, const std::string& where) {
  const std::size_t d = layer.d;
  if (layer.features == 0 || d == 0)
    throw InputError(where, "the layer has no features or no state");
  if (acc.row >= layer.readout.rows() || acc.col >= layer.m)
    throw InputError(where, "acceptance reads y[" + std::to_string(acc.row) + "][" +
                                std::to_string(acc.col) + "] but y is " +
                                std::to_string(layer.readout.rows()) + "×" +
                                std::to_string(layer.m));
  for (std::size_t f = 0; f < layer.readout_feature.size(); ++f)
    for (const Rational& c : layer.readout_feature[f].data())
      if (c != 0)
        throw InputError(where, feature_name(names, f) +
                                    " has a per-symbol readout C_σ ≠ 0: acceptance would depend "
                                    "on the last symbol, not on the state alone");
  LayerMachine lm;
  lm.delta.assign(d, std::vector<std::size_t>(layer.features));
  for (std::size_t f = 0; f < layer.features; ++f) {
    const std::string sym = feature_name(names, f);
    for (std::size_t i = 0; i < d; ++i)
      if (layer.B[f](i, acc.col) != 0)
        throw InputError(where, sym + ": B[" + std::to_string(i) + "][" + std::to_string(acc.col) +
                                    "] = " + to_string(layer.B[f](i, acc.col)) +
                                    " ≠ 0: S_t = A_σ S_{t−1} + B_σ with B_σ ≠ 0 is not a "
                                    "function on the coordinates");
    const Matrix<Rational>& A = layer.A[f];
    const std::string bad =
        sym +
        ": A is not a deterministic transition (a 0/1 matrix with exactly one 1 per "
        "column): ";
    for (std::size_t j = 0; j < d; ++j) {
      std::optional<std::size_t> one;
      for (std::size_t i = 0; i < d; ++i) {
        const Rational& a = A(i, j);
        if (a == 0) continue;
        if (a != 1)
          throw InputError(where, bad + "entry [" + std::to_string(i) + "][" + std::to_string(j) +
                                      "] = " + to_string(a) +
                                      " (a PD layer must have D = 1 to be finite-state)");
        if (one)
          throw InputError(where, bad + "column " + std::to_string(j) + " has 1s in rows " +
                                      std::to_string(*one) + " and " + std::to_string(i) +
                                      " (non-deterministic)");
        one = i;
      }
      if (!one)
        throw InputError(where, bad + "column " + std::to_string(j) + " is zero (state " +
                                    std::to_string(j) + " has no successor; D = 0 there)");
      lm.delta[j][f] = *one;
    }
  }
  for (std::size_t i = 0; i < d; ++i) lm.s0.push_back(layer.initial_state(i, acc.col));
  for (std::size_t q = 0; q < d; ++q) lm.value.push_back(layer.readout(acc.row, q));
  if (!layer.readout_bias.empty()) lm.bias = layer.readout_bias(acc.row, acc.col);
  return lm;
}

std::string vector_label(const std::vector<Rational>& s) {
  std::string out;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (s[j] == 0) continue;
    if (!out.empty()) out += s[j] < 0 ? "" : "+";
    if (s[j] != 1) out += s[j] == -1 ? "-" : to_string(s[j]) + "·";
    out += "e" + std::to_string(j);
  }
  return out.empty() ? "0" : out;
}

FiniteStateMachine pd_layer_machine(const LrnnLayer& layer, const Acceptance& acc,
                                    const FsmBuildOptions& options,
                                    const std::vector<std::string>& names,
                                    const std::string& where) {
  const LayerMachine lm = read_layer(layer, acc, names, where);
  const std::size_t d = layer.d, S = layer.features;
  FiniteStateMachine m;
  m.symbols = S;
  if (names.size() == S) m.alphabet = names;
  std::vector<std::size_t> nonzero;
  for (std::size_t i = 0; i < d; ++i)
    if (lm.s0[i] != 0) nonzero.push_back(i);
  if (nonzero.size() == 1) {  // coordinates are the states
    const std::size_t s = nonzero[0];
    m.delta = lm.delta;
    m.start = s;
    for (std::size_t q = 0; q < d; ++q) {
      m.accepting.push_back(accepted(acc.mode, lm.s0[s] * lm.value[q] + lm.bias));
      m.labels.push_back("e" + std::to_string(q));
    }
    return m;
  }
  if (!options.explore_orbit) {
    std::string list;
    for (std::size_t i : nonzero) list += (list.empty() ? "" : ", ") + std::to_string(i);
    throw InputError(where, "S_0 (column " + std::to_string(acc.col) + ") is not one-hot: " +
                                (nonzero.empty() ? std::string("it is zero")
                                                 : "entries " + list + " are nonzero") +
                                "; a machine with one start state needs exactly one nonzero "
                                "entry (explore_orbit builds one state per reachable vector; "
                                "tracked_fsm_from_model keeps one track per entry)");
  }
  // States: the vectors S_t reachable from S_0 (A_σ S: entry j moves to row δ(j,σ)).
  std::map<std::vector<Rational>, std::size_t> id;
  std::vector<std::vector<Rational>> vecs{lm.s0};
  id.emplace(lm.s0, 0);
  for (std::size_t q = 0; q < vecs.size(); ++q) {
    m.delta.emplace_back(S);
    for (std::size_t f = 0; f < S; ++f) {
      std::vector<Rational> next(d, Rational(0));
      for (std::size_t j = 0; j < d; ++j) next[lm.delta[j][f]] += vecs[q][j];
      auto [it, fresh] = id.emplace(next, vecs.size());
      if (fresh) {
        if (vecs.size() >= options.max_states)
          throw InputError(where, "S_0 is not one-hot and more than " +
                                      std::to_string(options.max_states) +
                                      " state vectors are reachable from it (raise "
                                      "max_states, or use tracked_fsm_from_model)");
        vecs.push_back(std::move(next));
      }
      m.delta[q][f] = it->second;
    }
  }
  for (const auto& s : vecs) {
    Rational y = lm.bias;
    for (std::size_t j = 0; j < d; ++j) y += s[j] * lm.value[j];
    m.accepting.push_back(accepted(acc.mode, y));
    m.labels.push_back(vector_label(s));
  }
  m.start = 0;
  return m;
}

const LrnnLayer& single_lrnn_layer(const Model& model) {
  if (model.layers.size() != 1)
    throw InputError("layers", "the model has " + std::to_string(model.layers.size()) +
                                   " layers; a finite-state machine is read from a one-layer "
                                   "model (exactly one LRNN layer)");
  const auto* l = std::get_if<LrnnLayer>(&model.layers[0].layer);
  if (!l)
    throw InputError("layer 0", "is " + layer_kind(model.layers[0].layer) +
                                    "; only an LRNN layer with deterministic 0/1 transitions is "
                                    "read as a finite-state machine");
  return *l;
}

}  // namespace

// ---- builders ----------------------------------------------------------------------------

FiniteStateMachine fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept,
                                     const FsmBuildOptions& options,
                                     const std::vector<std::string>& symbol_names) {
  return pd_layer_machine(layer, accept, options, symbol_names, "layer");
}

FiniteStateMachine fsm_from_model(const Model& model, const FsmBuildOptions& options) {
  const LrnnLayer& l = single_lrnn_layer(model);
  return pd_layer_machine(l, model.accept, options, model.alphabet.symbols(), "layer 0");
}

namespace {

TrackedMachine tracked_machine(const LrnnLayer& layer, const Acceptance& acc,
                               const std::vector<std::string>& names, const std::string& where) {
  LayerMachine lm = read_layer(layer, acc, names, where);
  TrackedMachine m;
  m.symbols = layer.features;
  if (names.size() == layer.features) m.alphabet = names;
  m.delta = std::move(lm.delta);
  for (std::size_t j = 0; j < layer.d; ++j) {
    if (lm.s0[j] != 0) m.tracks.push_back({j, lm.s0[j]});
    m.labels.push_back("e" + std::to_string(j));
  }
  m.value = std::move(lm.value);
  m.bias = lm.bias;
  m.mode = acc.mode;
  return m;
}

}  // namespace

TrackedMachine tracked_fsm_from_pd_layer(const LrnnLayer& layer, const Acceptance& accept,
                                         const std::vector<std::string>& symbol_names) {
  return tracked_machine(layer, accept, symbol_names, "layer");
}

TrackedMachine tracked_fsm_from_model(const Model& model) {
  return tracked_machine(single_lrnn_layer(model), model.accept, model.alphabet.symbols(),
                         "layer 0");
}

FiniteStateMachine fsm_from_dwfa_parts(const Alphabet& alphabet,
                                       const std::vector<std::string>& state_names,
                                       const std::vector<Rational>& initial,
                                       const std::vector<Rational>& final_weights,
                                       const std::vector<Matrix<Rational>>& transition) {
  const std::string where = "wfa";
  const std::size_t P = initial.size(), S = alphabet.size();
  auto name = [&](std::size_t p) {
    return "'" + (p < state_names.size() ? state_names[p] : std::to_string(p)) + "'";
  };
  if (P == 0) throw InputError(where, "the automaton has no states");
  if (final_weights.size() != P || transition.size() != S)
    throw InputError(where, "expected " + std::to_string(P) + " final weights and " +
                                std::to_string(S) + " transition matrices, got " +
                                std::to_string(final_weights.size()) + " and " +
                                std::to_string(transition.size()));
  std::vector<std::size_t> starts;
  for (std::size_t p = 0; p < P; ++p)
    if (initial[p] != 0) starts.push_back(p);
  if (starts.size() != 1) {
    std::string list;
    for (std::size_t p : starts) list += (list.empty() ? "" : ", ") + name(p);
    throw InputError(where,
                     "expected exactly one initial state, got " + std::to_string(starts.size()) +
                         (list.empty() ? "" : " (" + list + ")") + ": not a deterministic WFA");
  }
  if (initial[starts[0]] != 1)
    throw InputError(where, "the initial weight of state " + name(starts[0]) + " is " +
                                to_string(initial[starts[0]]) +
                                "; a finite-state machine needs 0/1 weights");
  FiniteStateMachine m;
  m.symbols = S;
  m.alphabet = alphabet.symbols();
  m.start = starts[0];
  const std::size_t sink = P;  // used only when some arc is missing
  bool need_sink = false;
  m.delta.assign(P, std::vector<std::size_t>(S, sink));
  for (std::size_t s = 0; s < S; ++s) {
    const Matrix<Rational>& M = transition[s];
    if (M.rows() != P || M.cols() != P)
      throw InputError(where, "the transition matrix of '" + alphabet.symbol(s) + "' is " +
                                  shape_string(M) + ", expected " + std::to_string(P) + "×" +
                                  std::to_string(P));
    for (std::size_t p = 0; p < P; ++p) {
      std::optional<std::size_t> to;
      for (std::size_t q = 0; q < P; ++q) {
        if (M(p, q) == 0) continue;
        if (to)
          throw InputError(where, "state " + name(p) + " has two '" + alphabet.symbol(s) +
                                      "'-arcs (to " + name(*to) + " and " + name(q) +
                                      "): not deterministic");
        if (M(p, q) != 1)
          throw InputError(where, "the arc " + name(p) + " --" + alphabet.symbol(s) + "--> " +
                                      name(q) + " has weight " + to_string(M(p, q)) +
                                      "; a finite-state machine needs 0/1 weights");
        to = q;
      }
      if (to)
        m.delta[p][s] = *to;
      else
        need_sink = true;
    }
  }
  for (std::size_t p = 0; p < P; ++p) {
    if (final_weights[p] != 0 && final_weights[p] != 1)
      throw InputError(where, "the final weight of state " + name(p) + " is " +
                                  to_string(final_weights[p]) +
                                  "; a finite-state machine needs 0/1 weights");
    m.accepting.push_back(final_weights[p] == 1);
    m.labels.push_back(p < state_names.size() ? state_names[p] : std::to_string(p));
  }
  if (need_sink) {
    m.delta.emplace_back(S, sink);
    m.accepting.push_back(false);
    m.labels.push_back("sink");
  }
  return m;
}

}  // namespace rnncc
