// Check circuits (the construction and its math in the header).
#include "verify/check_circuit.hpp"

#include <algorithm>
#include <stdexcept>
#include <variant>

#include "algebra/error.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/inline.hpp"

namespace rnncc {

namespace {

std::optional<CheckCircuit> refuse(std::string* why_not, std::string reason) {
  if (why_not) *why_not = std::move(reason);
  return std::nullopt;
}

}  // namespace

std::optional<CheckCircuit> build_check_circuit(const Construction& c, std::size_t n,
                                                std::string* why_not) {
  // Sequential first (fewest gates for X alone; its errors and refusals are the ones reported),
  // then the tree scans f's circuit may have been compiled with (compile_lrnn's default
  // Brent–Kung, verify's Sklansky), which win when X's circuit is hash-consed with f's.
  CompileOptions options;
  options.scan = ScanKind::sequential;
  std::optional<CheckCircuit> best = build_check_circuit(c, n, options, why_not);
  if (!best) return best;
  for (ScanKind scan : {ScanKind::brent_kung, ScanKind::sklansky}) {
    options.scan = scan;
    try {
      std::optional<CheckCircuit> other = build_check_circuit(c, n, options);
      if (other && other->circuit.size() < best->circuit.size()) best = std::move(other);
    } catch (const InputError&) {  // over options.budget: the sequential one stands
    }
  }
  return best;
}

std::optional<CheckCircuit> build_check_circuit(const Construction& c, std::size_t n,
                                                CompileOptions options, std::string* why_not) {
  const Model& model = c.model;
  if (model.layers.empty()) return refuse(why_not, "X has no layers");
  for (std::size_t i = 0; i < model.layers.size(); ++i)
    if (!std::holds_alternative<LrnnLayer>(model.layers[i].layer))
      return refuse(why_not, "X's layer " + std::to_string(i) + " is " +
                                 layer_kind(model.layers[i].layer) +
                                 ", not an LRNN layer; compile_lrnn compiles only LRNN layers");
  if (!c.target.circuit) return refuse(why_not, "f has no circuit (Target::circuit is empty)");
  if (c.target.promise)
    return refuse(why_not,
                  "f carries a promise: it is claimed only on some strings, and a check circuit "
                  "claims equality on every string of the length");
  if (c.target.fixed_length && *c.target.fixed_length != n)
    return refuse(why_not, "f is defined only on strings of length " +
                               std::to_string(*c.target.fixed_length) +
                               ", asked for n = " + std::to_string(n));
  const auto& forms_of = c.input_forms ? c.input_forms : c.embedding;
  if (!forms_of)
    return refuse(why_not,
                  "the construction has no input forms (X's input is not a per-position "
                  "function of one symbol of w)");

  const std::size_t S = c.target.alphabet.size();
  const std::size_t SX = model.alphabet.size();
  const std::vector<InputSource> forms = forms_of(n);
  if (SX == 0 || forms.size() % SX != 0)
    throw std::logic_error("build_check_circuit: " + std::to_string(forms.size()) +
                           " input forms are not a whole number of positions of " +
                           std::to_string(SX) + " tokens");
  const std::size_t T = forms.size() / SX;  // |encode(w)| for |w| = n
  if (T == 0)
    return refuse(why_not, "encode(w) is empty for |w| = " + std::to_string(n) +
                               ": X has no output to compare");

  // X for length T: only the compared entry y_T[out_row][out_col] is kept live.
  options.outputs = OutputMode::last;
  options.acceptance = false;
  Circuit xc = compile_lrnn(model, T, options).circuit;
  const Layer& last = model.layers.back().layer;
  const std::size_t rows = output_rows(last), cols = output_cols(last);
  if (c.out_row >= rows || c.out_col >= cols)
    throw std::logic_error("build_check_circuit: the compared entry (" + std::to_string(c.out_row) +
                           ", " + std::to_string(c.out_col) + ") lies outside X's " +
                           std::to_string(rows) + "×" + std::to_string(cols) + " output");
  if (xc.outputs().size() != rows * cols)
    throw std::logic_error("build_check_circuit: compile_lrnn gave " +
                           std::to_string(xc.outputs().size()) + " outputs, expected " +
                           std::to_string(rows * cols));
  xc.set_outputs({xc.outputs()[c.out_row * cols + c.out_col]}, {});

  const Circuit fc = c.target.circuit(n);
  if (fc.inputs().size() != n * S || fc.outputs().size() != 1)
    throw std::logic_error("build_check_circuit: f's circuit for n = " + std::to_string(n) +
                           " has " + std::to_string(fc.inputs().size()) + " inputs and " +
                           std::to_string(fc.outputs().size()) + " outputs, expected " +
                           std::to_string(n * S) + " and 1");

  CircuitBuilder b;
  b.reserve(xc.size() + fc.size() + forms.size() + n * S);
  std::vector<GateId> x;  // x[(t−1)·|Σ| + σ], the one-hot inputs of every compiler
  x.reserve(n * S);
  for (const auto& xt : one_hot_inputs(b, n, c.target.alphabet))
    x.insert(x.end(), xt.begin(), xt.end());

  // X's input (u, τ) = constant + Σ x[var]: exact on one-hot x (Construction::input_forms).
  std::vector<GateId> z;
  z.reserve(forms.size());
  std::vector<GateId> terms;
  for (const InputSource& form : forms) {
    terms.clear();
    for (std::uint32_t v : form.variables) {
      if (v >= x.size())
        throw std::logic_error("build_check_circuit: an input form names f's input " +
                               std::to_string(v) + " of " + std::to_string(x.size()));
      terms.push_back(x[v]);
    }
    if (form.constant != 0) terms.push_back(b.constant(form.constant));
    z.push_back(b.sum(terms));  // the empty sum folds to the constant 0
  }

  const GateId x_out = inline_circuit(b, xc, z).at(0);
  const GateId f_out = inline_circuit(b, fc, x).at(0);

  CheckCircuit out;
  // Folding (tokens a position cannot hold are 0) leaves gates built before it unused: sweep.
  out.circuit = remove_dead_gates(b.finish({x_out, f_out}, {"X", "f"}));
  out.n = n;
  out.symbols = S;
  out.pairs = {{0, 1}};
  out.modulus = c.modulus;
  out.scan = options.scan.kind;
  return out;
}

}  // namespace rnncc
