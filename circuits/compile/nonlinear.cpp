#include "circuits/compile/nonlinear.hpp"

#include <variant>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/reachable.hpp"

namespace rnncc {

namespace {

// Σ_k c_k·g_k + base, with zero coefficients skipped (the builder folds the rest).
GateId affine(CircuitBuilder& b, const std::vector<Rational>& c, const std::vector<GateId>& g,
              const Rational& base) {
  std::vector<GateId> terms;
  for (std::size_t k = 0; k < c.size(); ++k)
    if (c[k] != 0) terms.push_back(c[k] == 1 ? g[k] : b.mul(b.constant(c[k]), g[k]));
  if (base != 0) terms.push_back(b.constant(base));
  if (terms.empty()) return b.constant(Rational(0));
  if (terms.size() == 1) return terms[0];
  return b.sum(terms);
}

}  // namespace

CompiledCircuit compile_nonlinear_sequential(const Model& model, std::size_t n,
                                             const CompileOptions& options) {
  check_length(n);
  if (model.layers.size() != 1 || !std::holds_alternative<ElmanLayer>(model.layers[0].layer))
    throw InputError("model", "compile_nonlinear_sequential compiles a single Elman layer");
  const ElmanLayer& l = std::get<ElmanLayer>(model.layers[0].layer);
  const std::size_t S = model.alphabet.size(), d = l.d;
  if (l.features != S)
    throw InputError("model", "the Elman layer reads " + std::to_string(l.features) +
                                  " features; the one-hot input has " + std::to_string(S));
  // Per step: d pre-activations of d + |Σ| + 1 terms, d activations, the readout.
  const std::size_t estimate = n * (d * (2 * (d + S) + 4) + l.readout.rows() * (2 * d + 2)) + n * S;
  options.budget.check(estimate);
  CompiledCircuit out;
  CircuitBuilder b;
  std::vector<GateId> x;  // x[t·|Σ| + σ]
  for (const auto& xt : one_hot_inputs(b, n, model.alphabet))
    x.insert(x.end(), xt.begin(), xt.end());
  out.regions.push_back({.kind = RegionKind::input, .first_gate = 0});
  out.regions.push_back(
      {.kind = RegionKind::leaf, .first_gate = static_cast<std::uint32_t>(b.size())});
  std::vector<GateId> h(d);
  for (std::size_t i = 0; i < d; ++i) h[i] = b.constant(l.initial_state(i, 0));
  std::vector<GateId> outputs;
  std::vector<std::string> names;
  std::vector<GateId> y;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<GateId> z(x.begin() + static_cast<std::ptrdiff_t>(t * S),
                          x.begin() + static_cast<std::ptrdiff_t>((t + 1) * S));
    std::vector<GateId> next(d);
    for (std::size_t i = 0; i < d; ++i) {
      std::vector<Rational> c;
      std::vector<GateId> g;
      for (std::size_t j = 0; j < d; ++j) c.push_back(l.pre.W(i, j)), g.push_back(h[j]);
      for (std::size_t s = 0; s < S; ++s) c.push_back(l.pre.U(i, s)), g.push_back(z[s]);
      const GateId v = affine(b, c, g, l.pre.bias(i, 0));
      next[i] = l.activation == Activation::relu
                    ? b.mul(v, b.positive(v))                      // relu(v) = v·[v > 0]
                    : b.sub(b.positive(v), b.positive(b.neg(v)));  // sign(v)
    }
    h = std::move(next);
    y.clear();
    for (std::size_t r = 0; r < l.readout.rows(); ++r) {
      std::vector<Rational> c;
      for (std::size_t j = 0; j < d; ++j) c.push_back(l.readout(r, j));
      y.push_back(affine(b, c, h, l.readout_bias.rows() ? l.readout_bias(r, 0) : Rational(0)));
    }
    if (options.outputs == OutputMode::all || t + 1 == n)
      for (std::size_t r = 0; r < y.size(); ++r) {
        outputs.push_back(y[r]);
        names.push_back("y[" + std::to_string(t + 1) + "][" + std::to_string(r) + "][0]");
      }
  }
  if (options.acceptance) {
    out.regions.push_back(
        {.kind = RegionKind::accept, .first_gate = static_cast<std::uint32_t>(b.size())});
    const GateId v = y.at(model.accept.row);
    outputs.push_back(detail::acceptance_test(b, model.accept.mode, v));
    names.push_back("accept");
  }
  out.combine_levels = n;
  detail::finish_compiled(out, b, std::move(outputs), std::move(names));
  return out;
}

// ---- the finite-state route ---------------------------------------------------------------

namespace {

std::string label(const std::vector<Rational>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + to_string(v[i]);
  return s + ")";
}

// The machine of the states reachable within n steps (rnn/reachable.hpp): a state is the
// layer's state vector (Elman h; LSTM [h; c]), its verdict that of the y it outputs, a function
// of the state. States first reached at step n are not expanded: their transitions go to a
// non-accepting sink, which no input of length ≤ n can reach.
template <OrderedDomain K>
FiniteStateMachine explore(const Model& model, const K& k, std::size_t n, std::size_t max_states) {
  ConfigurationSearch search;
  search.max_states = max_states;
  search.max_depth = n;
  search.output_in_state = false;
  const auto r = reachable_configurations(model, k, search, [&] {
    throw InputError("model", "more than " + std::to_string(max_states) +
                                  " states are reachable within " + std::to_string(n) +
                                  " steps at " + k.name() +
                                  " (raise --max-states, or use a lower precision)");
  });
  const std::size_t S = model.alphabet.size();
  FiniteStateMachine m;
  m.symbols = S;
  m.alphabet = model.alphabet.symbols();
  m.start = 0;
  m.delta = r.next;
  const std::size_t sink = r.states.size();
  bool sunk = false;
  for (std::size_t q = 0; q < sink; ++q) {
    if (m.delta[q].empty()) {
      m.delta[q].assign(S, sink);
      sunk = true;
    }
    const auto& c = r.states[q];
    // Never entered (the start only): not read for n ≥ 1.
    m.accepting.push_back(!c.output.empty() && accepts(model.accept, k, c.output).value());
    std::vector<Rational> v;
    for (const auto& x : c.layers[0].state.data()) v.push_back(k.to_rational(x));
    m.labels.push_back(label(v));
  }
  if (sunk) {
    m.delta.push_back(std::vector<std::size_t>(S, sink));
    m.accepting.push_back(false);
    m.labels.push_back("sink");
  }
  return m;
}

}  // namespace

FiniteStateMachine nonlinear_state_machine(const Model& model, std::size_t n,
                                           const ComposedOptions& options) {
  check_length(n);
  if (model.layers.size() != 1 || !(std::holds_alternative<ElmanLayer>(model.layers[0].layer) ||
                                    std::holds_alternative<LstmLayer>(model.layers[0].layer)))
    throw InputError("model", "the finite-state route compiles a single Elman or LSTM layer");
  if (input_features(model.layers[0].layer) != model.alphabet.size())
    throw InputError(
        "model", "the layer reads " + std::to_string(input_features(model.layers[0].layer)) +
                     " features; the one-hot input has " + std::to_string(model.alphabet.size()));
  if (!options.precision.exact())
    return explore(model, FixedPoint(options.precision.format(n)), n, options.max_states);
  return explore(model, RationalField(), n, options.max_states);
}

CompiledCircuit compile_nonlinear_composed(const Model& model, std::size_t n,
                                           const ComposedOptions& options) {
  return compile_finite_state(nonlinear_state_machine(model, n, options), n, options.circuit);
}

}  // namespace rnncc
