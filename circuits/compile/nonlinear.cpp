#include "circuits/compile/nonlinear.hpp"

#include <variant>

#include "algebra/error.hpp"

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
  if (n == 0) throw InputError("--length", "expected n ≥ 1");
  if (model.layers.size() != 1 || !std::holds_alternative<ElmanLayer>(model.layers[0].layer))
    throw InputError("model", "compile_nonlinear_sequential compiles a single Elman layer");
  const ElmanLayer& l = std::get<ElmanLayer>(model.layers[0].layer);
  const std::size_t S = model.alphabet.size(), d = l.d;
  if (l.features != S)
    throw InputError("model", "the Elman layer reads " + std::to_string(l.features) +
                                  " features; the one-hot input has " + std::to_string(S));
  // Per step: d pre-activations of d + |Σ| + 1 terms, d activations, the readout.
  const std::size_t estimate = n * (d * (2 * (d + S) + 4) + l.readout.rows() * (2 * d + 2)) + n * S;
  if (estimate > options.max_gates)
    throw InputError("--max-gates", "the circuit would have about " + std::to_string(estimate) +
                                        " gates, more than the limit of " +
                                        std::to_string(options.max_gates));
  CompiledCircuit out;
  CircuitBuilder b;
  std::vector<GateId> x(n * S);
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t s = 0; s < S; ++s)
      x[t * S + s] = b.input("x[" + std::to_string(t + 1) + "][" + model.alphabet.symbol(s) + "]");
  out.regions.push_back({.kind = RegionKind::input, .first_gate = 0});
  out.regions.push_back({.kind = RegionKind::leaf, .first_gate = static_cast<std::uint32_t>(b.size())});
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
                    ? b.mul(v, b.positive(v))                            // relu(v) = v·[v > 0]
                    : b.sub(b.positive(v), b.positive(b.neg(v)));        // sign(v)
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
    out.regions.push_back({.kind = RegionKind::accept, .first_gate = static_cast<std::uint32_t>(b.size())});
    const GateId v = y.at(model.accept.row);
    outputs.push_back(model.accept.mode == Acceptance::Mode::positive ? b.positive(v) : b.is_zero(v));
    names.push_back("accept");
  }
  out.combine_levels = n;
  out.requested_gates = b.requests();
  out.hash_table_bytes = b.hash_table_bytes();
  out.circuit = b.finish(std::move(outputs), std::move(names));
  return out;
}

}  // namespace rnncc
