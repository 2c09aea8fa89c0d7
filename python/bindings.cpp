// The `rnncc._rnncc` extension module: the library's entry points for Python (python/rnncc is
// the Pythonic layer over it; docs/python.md). Every call goes to the same library functions as
// the matching `rnncc` command (cli/*.cpp); reports cross as the CLI's --json documents (parsed
// by Python's json module), so the two agree field for field.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/precision.hpp"
#include "algebra/rational.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/depth_growth.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/report.hpp"
#include "cli/limits.hpp"
#include "constructions/registry.hpp"
#include "constructions/wfa.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"
#include "verify/acceptance_equivalence.hpp"
#include "verify/certificate.hpp"
#include "verify/certificate_claim.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_product_certificate.hpp"
#include "verify/equivalence_report.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/minimize.hpp"
#include "verify/product_certificate.hpp"
#include "verify/subject_file.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"
#ifdef RNNCC_HAVE_GRAPHVIZ
#include "viz/draw_circuit.hpp"
#endif

namespace py = pybind11;

void bind_import(py::module_& m);  // python/bindings_import.cpp

namespace rnncc {
namespace {

using ojson = nlohmann::ordered_json;

// A JSON document as Python objects (dict, list, str, int, float, bool, None).
py::object to_python(const ojson& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

Rational rational_of(const std::string& text, const std::string& where) {
  if (auto q = try_parse_rational(text)) return *q;
  throw InputError(where, "'" + text + "': expected an exact rational such as 3, -2 or 1/2");
}

using TextMatrix = std::vector<std::vector<std::string>>;
using TextVector = std::vector<std::string>;

Matrix<Rational> matrix_of(const TextMatrix& rows, const std::string& where) {
  if (rows.empty()) return {};
  Matrix<Rational> m(rows.size(), rows[0].size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != rows[0].size())
      throw InputError(where, "row " + std::to_string(i) + " has " +
                                  std::to_string(rows[i].size()) + " entries, row 0 has " +
                                  std::to_string(rows[0].size()));
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      m(i, j) =
          rational_of(rows[i][j], where + "[" + std::to_string(i) + "][" + std::to_string(j) + "]");
  }
  return m;
}

Vector vector_of(const TextVector& v, const std::string& where) {
  Vector out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(rational_of(v[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

// The frame every family shares; S_0 defaults to zero.
LayerFrame frame_of(std::size_t d, std::size_t m, std::size_t features, const TextMatrix& readout,
                    const std::optional<TextMatrix>& initial_state,
                    const std::optional<TextMatrix>& readout_bias) {
  LayerFrame f;
  f.d = d;
  f.m = m;
  f.features = features;
  f.readout = matrix_of(readout, "readout");
  f.initial_state = initial_state ? matrix_of(*initial_state, "initial_state")
                                  : Matrix<Rational>(d, m, Rational(0));
  if (readout_bias) f.readout_bias = matrix_of(*readout_bias, "readout_bias");  // r×m
  return f;
}

// A ParamError names a feature and a field; say them as the Python arguments.
[[noreturn]] void rethrow_param(const ParamError& e, const Alphabet& alphabet) {
  std::string where = e.field();
  if (e.feature() != ParamError::layer_level && e.feature() < alphabet.size())
    where += "['" + alphabet.symbol(e.feature()) + "']";
  throw InputError(where, e.what());
}

Model model_of(const std::string& name, Alphabet alphabet, LrnnLayer layer,
               const std::string& accept) {
  Model model;
  model.name = name;
  model.alphabet = std::move(alphabet);
  model.layers.push_back(StackLayer{std::nullopt, Layer(std::move(layer))});
  if (accept != "positive" && accept != "zero")
    throw InputError("accept", "'" + accept + "': expected positive or zero");
  model.accept.mode = accept == "zero" ? Acceptance::Mode::zero : Acceptance::Mode::positive;
  return model;
}

// families.diagonal: decay[σ] (d entries; one for mamba2), B[σ] (d×m), in alphabet order.
Model build_diagonal(const std::string& family_name, const std::vector<std::string>& symbols,
                     const std::vector<TextVector>& decay, const std::vector<TextMatrix>& B,
                     const TextMatrix& readout, const std::optional<TextMatrix>& initial_state,
                     const std::optional<TextMatrix>& readout_bias, const std::string& accept,
                     const std::string& name) {
  const std::optional<Family> family = parse_family(family_name);
  if (!family || (*family != Family::diagonal && *family != Family::gla && *family != Family::s4 &&
                  *family != Family::mamba2))
    throw InputError("family", "'" + family_name + "': expected diagonal, gla, s4 or mamba2");
  Alphabet alphabet(symbols, "alphabet");
  if (B.empty() || B[0].empty()) throw InputError("B", "give B for every symbol");
  const std::size_t d = B[0].size(), m = B[0][0].size();
  std::vector<DecayStep> steps;
  for (std::size_t k = 0; k < symbols.size(); ++k)
    steps.push_back({vector_of(decay[k], "decay['" + symbols[k] + "']"),
                     matrix_of(B[k], "B['" + symbols[k] + "']")});
  try {
    LrnnLayer layer = make_diagonal(
        *family, frame_of(d, m, symbols.size(), readout, initial_state, readout_bias), steps);
    return model_of(name, std::move(alphabet), std::move(layer), accept);
  } catch (const ParamError& e) {
    rethrow_param(e, alphabet);
  }
}

// families.deltanet: k[σ], v[σ] (d and m entries), beta[σ], alpha[σ] (gated: one entry; kda: d).
Model build_delta(const std::string& family_name, const std::vector<std::string>& symbols,
                  const std::vector<TextVector>& alpha, const std::vector<std::string>& beta,
                  const std::vector<TextVector>& k, const std::vector<TextVector>& v,
                  const TextMatrix& readout, const std::optional<TextMatrix>& initial_state,
                  const std::optional<TextMatrix>& readout_bias, const std::string& beta_range,
                  const std::string& accept, const std::string& name) {
  const std::optional<Family> family = parse_family(family_name);
  if (!family ||
      (*family != Family::deltanet && *family != Family::gated_deltanet && *family != Family::kda))
    throw InputError("family", "'" + family_name + "': expected deltanet, gated_deltanet or kda");
  const std::optional<BetaRange> range = parse_beta_range(beta_range);
  if (!range)
    throw InputError("beta_range",
                     "'" + beta_range + "': expected any, (0,1), (0,1], (0,2) or (0,2]");
  Alphabet alphabet(symbols, "alphabet");
  if (k.empty() || v.empty()) throw InputError("k", "give k and v for every symbol");
  const std::size_t d = k[0].size(), m = v[0].size();
  std::vector<DeltaStep> steps;
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const std::string s = "['" + symbols[i] + "']";
    steps.push_back({alpha.empty() ? Vector{} : vector_of(alpha[i], "alpha" + s),
                     rational_of(beta[i], "beta" + s), vector_of(k[i], "k" + s),
                     vector_of(v[i], "v" + s)});
  }
  try {
    LrnnLayer layer =
        make_delta(*family, frame_of(d, m, symbols.size(), readout, initial_state, readout_bias),
                   steps, *range);
    return model_of(name, std::move(alphabet), std::move(layer), accept);
  } catch (const ParamError& e) {
    rethrow_param(e, alphabet);
  }
}

// The per-symbol B (d×m) of the families where it is optional (general, pd, dplr, rwkv7): given
// for every symbol or for none (then zero, as in a model file without "B").
std::vector<Matrix<Rational>> optional_bs(const std::vector<std::string>& symbols,
                                          const std::vector<TextMatrix>& B, std::size_t d,
                                          std::size_t m) {
  std::vector<Matrix<Rational>> out;
  for (std::size_t k = 0; k < symbols.size(); ++k)
    out.push_back(B.empty() ? Matrix<Rational>(d, m, Rational(0))
                            : matrix_of(B[k], "B['" + symbols[k] + "']"));
  return out;
}

// m, the state's width: from B when given, else from S_0, else 1.
std::size_t state_width(const std::vector<TextMatrix>& B,
                        const std::optional<TextMatrix>& initial_state) {
  if (!B.empty() && !B[0].empty()) return B[0][0].size();
  if (initial_state && !initial_state->empty()) return (*initial_state)[0].size();
  return 1;
}

// Builds one layer with `make`, turning a ParamError into the Python argument's name.
template <class Make>
Model built_model(const std::string& name, Alphabet alphabet, const std::string& accept,
                  Make make) {
  try {
    LrnnLayer layer = make();
    return model_of(name, std::move(alphabet), std::move(layer), accept);
  } catch (const ParamError& e) {
    rethrow_param(e, alphabet);
  }
}

// families.general: A[σ] (d×d), B[σ] (d×m, optional).
Model build_general(const std::vector<std::string>& symbols, const std::vector<TextMatrix>& A,
                    const std::vector<TextMatrix>& B, const TextMatrix& readout,
                    const std::optional<TextMatrix>& initial_state,
                    const std::optional<TextMatrix>& readout_bias, const std::string& accept,
                    const std::string& name) {
  Alphabet alphabet(symbols, "alphabet");
  if (A.empty() || A[0].empty()) throw InputError("A", "give A for every symbol");
  const std::size_t d = A[0].size(), m = state_width(B, initial_state);
  const std::vector<Matrix<Rational>> Bs = optional_bs(symbols, B, d, m);
  std::vector<AffineStep> steps;
  for (std::size_t k = 0; k < symbols.size(); ++k)
    steps.push_back({matrix_of(A[k], "A['" + symbols[k] + "']"), Bs[k]});
  return built_model(name, std::move(alphabet), accept, [&] {
    return make_general(frame_of(d, m, symbols.size(), readout, initial_state, readout_bias),
                        steps);
  });
}

// families.pd: A_σ = P_σ·diag(D_σ) with P_σ e_j = e_{P[σ][j]} (the image list), D_σ optional
// (ones), B[σ] optional; permutation=True requires every P_σ to be a permutation.
Model build_pd(const std::vector<std::string>& symbols,
               const std::vector<std::vector<std::size_t>>& P, const std::vector<TextVector>& D,
               const std::vector<TextMatrix>& B, const TextMatrix& readout,
               const std::optional<TextMatrix>& initial_state,
               const std::optional<TextMatrix>& readout_bias, bool permutation,
               const std::string& accept, const std::string& name) {
  Alphabet alphabet(symbols, "alphabet");
  if (P.empty() || P[0].empty()) throw InputError("P", "give P for every symbol");
  const std::size_t d = P[0].size(), m = state_width(B, initial_state);
  const std::vector<Matrix<Rational>> Bs = optional_bs(symbols, B, d, m);
  std::vector<PdStep> steps;
  for (std::size_t k = 0; k < symbols.size(); ++k) {
    const std::string s = "['" + symbols[k] + "']";
    if (P[k].size() != d)
      throw InputError("P" + s, "expected " + std::to_string(d) + " row indices, got " +
                                    std::to_string(P[k].size()));
    for (std::size_t j = 0; j < d; ++j)
      if (P[k][j] >= d)
        throw InputError(
            "P" + s + "[" + std::to_string(j) + "]",
            std::to_string(P[k][j]) + ": expected a row index below " + std::to_string(d));
    steps.push_back({P[k], D.empty() ? Vector(d, Rational(1)) : vector_of(D[k], "D" + s), Bs[k]});
  }
  return built_model(name, std::move(alphabet), accept, [&] {
    return make_pd(frame_of(d, m, symbols.size(), readout, initial_state, readout_bias), steps,
                   permutation);
  });
}

// families.dplr (A_σ = diag(D_σ) − a_σ b_σᵀ) and families.rwkv7 (A_σ = diag(w_σ) + a_σ b_σᵀ):
// three vectors of d entries per symbol and an optional B[σ].
Model build_low_rank(const std::string& family_name, const std::vector<std::string>& symbols,
                     const std::vector<TextVector>& diagonal, const std::vector<TextVector>& a,
                     const std::vector<TextVector>& b, const std::vector<TextMatrix>& B,
                     const TextMatrix& readout, const std::optional<TextMatrix>& initial_state,
                     const std::optional<TextMatrix>& readout_bias, const std::string& accept,
                     const std::string& name) {
  const bool rwkv = family_name == "rwkv7";
  if (!rwkv && family_name != "dplr")
    throw InputError("family", "'" + family_name + "': expected dplr or rwkv7");
  const std::string dname = rwkv ? "w" : "D";
  Alphabet alphabet(symbols, "alphabet");
  if (diagonal.empty() || diagonal[0].empty())
    throw InputError(dname, "give " + dname + " for every symbol");
  const std::size_t d = diagonal[0].size(), m = state_width(B, initial_state);
  const std::vector<Matrix<Rational>> Bs = optional_bs(symbols, B, d, m);
  std::vector<DplrStep> dplr;
  std::vector<Rwkv7Step> rwkv7;
  for (std::size_t k = 0; k < symbols.size(); ++k) {
    const std::string s = "['" + symbols[k] + "']";
    Vector dk = vector_of(diagonal[k], dname + s), ak = vector_of(a[k], "a" + s),
           bk = vector_of(b[k], "b" + s);
    for (const auto& [v, field] :
         {std::pair{&dk, dname}, {&ak, std::string("a")}, {&bk, std::string("b")}})
      if (v->size() != d)
        throw InputError(field + s, "expected " + std::to_string(d) + " entries, got " +
                                        std::to_string(v->size()));
    if (rwkv)
      rwkv7.push_back({dk, ak, bk, Bs[k]});
    else
      dplr.push_back({dk, ak, bk, Bs[k]});
  }
  return built_model(name, std::move(alphabet), accept, [&] {
    LayerFrame frame = frame_of(d, m, symbols.size(), readout, initial_state, readout_bias);
    return rwkv ? make_rwkv7(std::move(frame), rwkv7) : make_dplr(std::move(frame), dplr);
  });
}

// `rnncc run MODEL INPUT... [--precision] [--trace] --json`, the document it prints.
py::object run_report(const Model& model, const std::vector<std::string>& inputs,
                      const std::string& precision_text, std::optional<unsigned> int_bits,
                      std::optional<std::string> rounding, std::optional<std::string> overflow,
                      bool trace) {
  PrecisionSpec precision = parse_precision(precision_text, "precision");
  const std::pair<const char*, bool> given[] = {{"int_bits", int_bits.has_value()},
                                                {"rounding", rounding.has_value()},
                                                {"overflow", overflow.has_value()}};
  for (const auto& [flag, on] : given)
    if (on && precision.kind != PrecisionSpec::Kind::log)
      throw InputError(flag,
                       "applies to log:C precision only (the run uses " + precision_text + ")");
  precision.int_bits = int_bits;
  precision.rounding = parse_rounding(rounding.value_or("nearest-even"), "rounding");
  precision.overflow = parse_overflow(overflow.value_or("saturate"), "overflow");
  check_int_bits(precision, "int_bits");
  std::vector<RunReport> runs;
  {
    py::gil_scoped_release unlocked;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      runs.push_back(run_model(model, inputs[i], "input " + std::to_string(i + 1), precision));
  }
  return to_python(to_json(model, runs, trace));
}

// The keywords of rnncc.compile: `rnncc compile`'s flags, with the same defaults.
using CompileArgs = TargetText;

CompiledCircuit compile(const Model& model, std::size_t n, const CompileArgs& a) {
  const TargetOptions t = parse_target_options(a, "");
  py::gil_scoped_release unlocked;
  return compile_model(model, n, t);
}

// Circuit.eval on a boolean circuit: rows of 0/1 in, rows of 0/1 out, 64 patterns a word.
// `bit(p, i)` reads pattern p's input i; the result is one byte per (pattern, output).
template <class Bit>
std::vector<std::uint8_t> eval_bits(const Circuit& c, std::size_t patterns, Bit bit) {
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  const std::size_t words = (patterns + 63) / 64;
  std::vector<bits::Word> in(words * inputs, 0);
  for (std::size_t p = 0; p < patterns; ++p)
    for (std::size_t i = 0; i < inputs; ++i)
      if (bit(p, i)) in[(p / 64) * inputs + i] |= bits::Word{1} << (p % 64);
  std::vector<bits::Word> out;
  {
    py::gil_scoped_release unlocked;
    out = evaluate_bits_batch(c, in);
  }
  std::vector<std::uint8_t> result(patterns * outputs);
  for (std::size_t p = 0; p < patterns; ++p)
    for (std::size_t o = 0; o < outputs; ++o)
      result[p * outputs + o] =
          static_cast<std::uint8_t>((out[(p / 64) * outputs + o] >> (p % 64)) & 1);
  return result;
}

[[noreturn]] void refuse_eval_shape(std::size_t inputs) {
  throw InputError("inputs", "expected an array of shape (patterns, " + std::to_string(inputs) +
                                 "): one row per pattern, one column per circuit input");
}

// numpy in, numpy out.
py::array_t<std::uint8_t> eval_boolean(
    const CompiledCircuit& cc,
    py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast> rows) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  if (rows.ndim() != 2 || static_cast<std::size_t>(rows.shape(1)) != inputs)
    refuse_eval_shape(inputs);
  const std::size_t patterns = rows.shape(0);
  auto r = rows.unchecked<2>();
  const std::vector<std::uint8_t> out =
      eval_bits(c, patterns, [&](std::size_t p, std::size_t i) { return r(p, i) != 0; });
  py::array_t<std::uint8_t> result({patterns, outputs});
  std::copy(out.begin(), out.end(), result.mutable_data());
  return result;
}

// Lists in, lists out (no numpy needed).
std::vector<std::vector<bool>> eval_boolean_rows(const CompiledCircuit& cc,
                                                 const std::vector<std::vector<int>>& rows) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  for (const auto& row : rows)
    if (row.size() != inputs) refuse_eval_shape(inputs);
  const std::vector<std::uint8_t> out =
      eval_bits(c, rows.size(), [&](std::size_t p, std::size_t i) { return rows[p][i] != 0; });
  std::vector<std::vector<bool>> result(rows.size(), std::vector<bool>(outputs));
  for (std::size_t p = 0; p < rows.size(); ++p)
    for (std::size_t o = 0; o < outputs; ++o) result[p][o] = out[p * outputs + o] != 0;
  return result;
}

// Circuit.eval on an arithmetic circuit over F_p: residues in, residues out.
std::vector<std::vector<std::uint64_t>> eval_modp_rows(
    const CompiledCircuit& cc, const std::vector<std::vector<std::uint64_t>>& rows,
    std::uint64_t p) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size();
  const ModP field(p);
  std::vector<std::vector<std::uint64_t>> in = rows;
  for (auto& row : in) {
    if (row.size() != inputs) refuse_eval_shape(inputs);
    for (auto& x : row) x %= p;
  }
  py::gil_scoped_release unlocked;
  return evaluate_batch(c, field, in);
}

py::array_t<std::uint64_t> eval_modp(
    const CompiledCircuit& cc,
    py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast> rows, std::uint64_t p) {
  const std::size_t inputs = cc.circuit.inputs().size(), outputs = cc.circuit.outputs().size();
  if (rows.ndim() != 2 || static_cast<std::size_t>(rows.shape(1)) != inputs)
    refuse_eval_shape(inputs);
  std::vector<std::vector<std::uint64_t>> in(rows.shape(0), std::vector<std::uint64_t>(inputs));
  auto r = rows.unchecked<2>();
  for (std::size_t k = 0; k < in.size(); ++k)
    for (std::size_t i = 0; i < inputs; ++i) in[k][i] = r(k, i);
  const auto out = eval_modp_rows(cc, in, p);
  py::array_t<std::uint64_t> result({in.size(), outputs});
  auto w = result.mutable_unchecked<2>();
  for (std::size_t k = 0; k < in.size(); ++k)
    for (std::size_t o = 0; o < outputs; ++o) w(k, o) = out[k][o];
  return result;
}

// Circuit.eval(exact=True): rationals in and out as text (Python makes Fractions of them).
std::vector<std::vector<std::string>> eval_exact(
    const CompiledCircuit& cc, const std::vector<std::vector<std::string>>& rows) {
  const RationalField field;
  std::vector<std::vector<Rational>> in;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (rows[k].size() != cc.circuit.inputs().size())
      throw InputError("inputs", "row " + std::to_string(k) + " has " +
                                     std::to_string(rows[k].size()) + " values, the circuit " +
                                     std::to_string(cc.circuit.inputs().size()) + " inputs");
    in.push_back(vector_of(rows[k], "inputs[" + std::to_string(k) + "]"));
  }
  std::vector<std::vector<Rational>> out;
  {
    py::gil_scoped_release unlocked;
    out = evaluate_batch(cc.circuit, field, in);
  }
  std::vector<std::vector<std::string>> text;
  for (const auto& row : out) {
    auto& t = text.emplace_back();
    for (const Rational& q : row) t.push_back(to_string(q));
  }
  return text;
}

// A subject of equiv, minimize and depth: a Model or a Wfa object (in memory, named by the
// Python argument `name`) or a file's path (read as `rnncc equiv` reads it).
SubjectFile subject_of(const py::handle& x, const std::string& name) {
  if (py::isinstance<Model>(x)) return SubjectFile{name, x.cast<Model>()};
  if (py::isinstance<Wfa>(x)) return SubjectFile{name, x.cast<Wfa>()};
  return load_subject_file(x.cast<std::string>());
}

// `rnncc verify KIND [INPUT] [options] --json`. Options: name → value ("" for a flag), in order.
// `model` and `against` (kind "model" only): a Model and a Wfa (or a WFA file's path) in memory,
// instead of INPUT and --against.
py::object verify_report(const std::string& kind_name, const std::string& input,
                         const std::vector<std::pair<std::string, std::string>>& options,
                         std::size_t random, bool random_given, std::size_t max_length,
                         std::optional<std::size_t> exhaustive, std::size_t identity,
                         std::size_t identity_length, std::optional<std::uint64_t> seed, bool prove,
                         bool timing, bool gpu, std::uint64_t max_work, std::optional<Model> model,
                         const py::object& against, const std::string& certificate_path) {
  const Registry& registry = verify_registry();
  const ConstructionKind* kind = nullptr;
  std::vector<std::string> names;
  for (const ConstructionKind& k : registry.kinds()) {
    names.push_back(k.name);
    if (k.name == kind_name) kind = &k;
  }
  if (!kind) throw InputError("kind", "'" + kind_name + "': expected " + one_of(names));
  std::optional<Construction> built;
  if (model) {  // the `model` kind, on objects: the same construction as its builder makes
    if (kind_name != "model")
      throw InputError("input",
                       "a Model object is the input of kind 'model' only, not '" + kind_name + "'");
    if (!options.empty()) throw InputError(options[0].first, "does not apply to kind 'model'");
    if (against.is_none())
      throw InputError("against", "give the WFA the model should compute (a WFA or a file)");
    const Wfa wfa =
        py::isinstance<Wfa>(against) ? against.cast<Wfa>() : load_wfa(against.cast<std::string>());
    built = model_against_wfa(*model, wfa);
  } else {
    if (input.empty() && !kind->input_help.empty())
      throw InputError("input", "verify " + kind_name + " needs an input: " + kind->input_help);
    ConstructionArgs args;
    args.input = input;
    for (const auto& [name, value] : options) args.set(name, value);
    kind->check_applicable(args, registry);
    py::gil_scoped_release unlocked;
    built = kind->build(args, registry);
  }
  VerifyOptions o;
  o.random = random;
  if (random_given) o.random_after_proof.reset();
  o.max_random_length = max_length;
  o.exhaustive = exhaustive;
  o.identity_rounds = identity;
  o.identity_max_length = identity_length;
  o.seed = seed;
  o.prove = prove;
  o.timing = timing;
  o.gpu = gpu;
  o.certificate = !certificate_path.empty();
  // As `rnncc verify --certificate FILE`: opened before the work (an unwritable path is refused
  // at once), committed only when a proof wrote a certificate.
  std::optional<OutputFile> certificate;
  if (o.certificate) certificate.emplace(certificate_path);
  VerifyReport r;
  {
    py::gil_scoped_release unlocked;
    const Construction& c = *built;
    if (o.exhaustive && *o.exhaustive == 0 && !c.target.fixed_length)
      throw InputError("exhaustive", "give a length: every string of length 1..L");
    cli::check_verify_work(c, o, max_work, "max_work");
    r = verify(c, o);
  }
  if (r.proof && !r.proof->certificate_json.empty()) {
    certificate->write(r.proof->certificate_json);
    certificate->commit();
    r.proof->certificate = certificate_path;
  } else if (o.certificate && !(r.proof && r.proof->no_certificate)) {
    r.notes.push_back("no certificate written: nothing was proved for every length");
  }
  return to_python(to_json(r));
}

// `rnncc equiv A B [--method] [--modulus] [--certificate] [--no-timing] --json`: the same
// procedures and the same document as cli/equiv_command.cpp. A and B: objects or paths.
py::object equiv_report(const py::object& subject_a, const py::object& subject_b,
                        const std::string& method, std::optional<std::uint64_t> modulus,
                        const std::string& certificate_path, bool timing, std::uint64_t max_work,
                        const std::string& compare, std::optional<std::size_t> accept_length) {
  if (method != "linear" && method != "product" && method != "auto")
    throw InputError("method", "'" + method + "': expected linear, product or auto");
  if (compare != "outputs" && compare != "accept")
    throw InputError("compare", "'" + compare + "': expected outputs or accept");
  if (accept_length && compare != "accept")
    throw InputError("accept_length", "applies to compare='accept'");
  const SubjectFile a = subject_of(subject_a, "a"), b = subject_of(subject_b, "b");
  if (!certificate_path.empty())
    for (const SubjectFile* s : {&a, &b})
      if (auto why = not_certifiable(*s); why && not_product_certifiable(*s))
        throw InputError("certificate", *why);
  auto refuse_product_flags = [&] {
    if (modulus)
      throw InputError("modulus",
                       "the product search compares exact rational outputs; modulus applies to "
                       "the linear decider (method='linear')");
  };
  auto linear = [&](const LinearRepresentation& ra, const LinearRepresentation& rb) {
    EquivalenceParams params{modulus, !certificate_path.empty()};
    params.max_exact_work = max_work;
    cli::check_forward_basis_work(
        ra.dim + rb.dim, ra.symbols.size(), max_work, "equiv",
        uses_multimodular(ra.dim, rb.dim, ra.modulus || rb.modulus, params));
    std::optional<OutputFile> certificate;
    if (!certificate_path.empty()) certificate.emplace(certificate_path);
    EquivalenceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_equivalence(ra, rb, params);
    }
    std::optional<std::string> written;
    if (r.equivalent && certificate) {
      certificate->write(equivalence_certificate(r, a, b).dump(1) + "\n");
      certificate->commit();
      written = certificate_path;
    }
    return to_python(equivalence_json(r, ra, timing, written));
  };
  auto product = [&](const FiniteMachine& ma, const FiniteMachine& mb) {
    std::optional<OutputFile> certificate;
    if (!certificate_path.empty()) certificate.emplace(certificate_path);
    FiniteEquivalenceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_finite_equivalence(ma, mb);
    }
    ojson j = finite_equivalence_json(r, ma, timing);
    if (r.equivalent && certificate) {
      certificate->write(product_certificate(ma, mb, a, b).dump(1) + "\n");
      certificate->commit();
      j["certificate"] = certificate_path;
    }
    return to_python(j);
  };
  if (method == "product" && compare == "outputs") refuse_product_flags();
  const EquivalenceInputs in = equivalence_inputs(a, b, method);
  if (in.reordered && !certificate_path.empty())
    throw InputError("certificate",
                     "b's alphabet is a's in another order: symbols were matched by name, but a "
                     "certificate needs the same order (the checker compares symbol by symbol)");
  for (const SubjectFile* s : {&a, &b})
    if (!certificate_path.empty() && compare == "outputs")
      if (auto why = in.linear() ? not_certifiable(*s) : not_product_certifiable(*s))
        throw InputError("certificate", *why);
  if (compare == "accept") {
    if (modulus) throw InputError("modulus", "compare='accept' reads the sign of exact outputs");
    if (!certificate_path.empty())
      throw InputError("certificate", "certificates prove equal outputs (compare='outputs')");
    if (in.linear())
      cli::check_forward_basis_work(in.f->dim + in.g->dim, in.f->symbols.size(), max_work, "equiv");
    AcceptanceParams params;
    params.max_length = accept_length;
    AcceptanceResult r;
    {
      py::gil_scoped_release unlocked;
      r = decide_acceptance(a, b, in, params);
    }
    return to_python(acceptance_json(r, in.linear() ? in.f->symbols : in.mf->symbols, timing));
  }
  if (in.linear()) return linear(*in.f, *in.g);
  refuse_product_flags();
  return product(*in.mf, *in.mg);
}

// `rnncc minimize MODEL --json` on an object or a path: (the minimized Model, the document).
std::pair<Model, py::object> minimize_report(const py::object& subject, std::uint64_t max_work) {
  const SubjectFile s = subject_of(subject, "subject");
  const LinearRepresentation rep = minimize_input(s);
  cli::check_forward_basis_work(2 * rep.dim, rep.symbols.size(), max_work, "minimize");
  std::optional<ProvedMinimization> p;
  {
    py::gil_scoped_release unlocked;
    p = minimize_and_prove(rep, "minimized");
  }
  return {p->minimized.model, to_python(minimize_json(*p, std::nullopt))};
}

// `rnncc depth`: the measured points, and (fits) the fitted growth laws as `--json` prints them.
// `models`: Model objects or paths. A path is read and labelled as `--model` does (its stem, or
// the path where the stem is taken); an object by its name ("model" when unnamed), with "#k"
// (its place in `models`, from 1) where that is taken.
py::object depth_report(const std::optional<std::string>& arch,
                        const std::vector<py::object>& models, const py::object& lengths_given,
                        const std::string& target_text, std::size_t max_gates,
                        const std::optional<bool>& fits_given) {
  const CircuitTarget target = parse_target(target_text, "target");
  const auto archs =
      !models.empty() && !arch
          ? std::vector<std::string>{}
          : parse_architectures(arch.value_or(
                "diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,uhat,hybrid,counter"));
  // lengths: "A..B" as --lengths reads it, or the lengths themselves (a list or a range).
  std::vector<std::size_t> lengths;
  if (lengths_given.is_none())
    lengths = parse_lengths(default_depth_lengths(target));
  else if (py::isinstance<py::str>(lengths_given))
    lengths = parse_lengths(lengths_given.cast<std::string>(), "lengths");
  else {
    for (const py::handle& x : lengths_given) {
      const long long n = x.cast<long long>();
      if (n < 1) throw InputError("lengths", std::to_string(n) + ": a length is at least 1");
      lengths.push_back(static_cast<std::size_t>(n));
    }
    if (lengths.empty()) throw InputError("lengths", "no lengths given");
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  }
  // fits: True fits (refusing too few lengths), False does not, None fits when there are enough.
  bool fits_wanted = fits_given.value_or(true);
  if (fits_given.value_or(false)) {
    check_fit_lengths(lengths);
  } else if (!fits_given) {
    try {
      check_fit_lengths(lengths);
    } catch (const InputError&) {
      fits_wanted = false;
    }
  }
  std::vector<std::pair<std::string, DepthSubject>> subjects;
  for (std::size_t k = 0; k < models.size(); ++k) {
    const py::object& x = models[k];
    const bool object = py::isinstance<Model>(x);
    const std::string path = object ? std::string() : x.cast<std::string>();
    std::string label = object ? x.cast<const Model&>().name : model_label(path);
    if (label.empty()) label = "model";
    bool taken = std::find(archs.begin(), archs.end(), label) != archs.end();
    for (const auto& s : subjects) taken = taken || s.first == label;
    if (taken) label = object ? label + "#" + std::to_string(k + 1) : path;
    subjects.emplace_back(label, object
                                     ? model_depth_subject(x.cast<Model>(), label, target, "models")
                                     : model_depth_subject(path, target));
  }
  std::vector<std::string> skipped;
  std::vector<DepthPoint> points;
  std::vector<DepthFit> fits;
  {
    py::gil_scoped_release unlocked;
    if (!archs.empty()) points = measure_depths(archs, lengths, target, max_gates, &skipped);
    const auto more = measure_subjects(subjects, lengths, target, max_gates);
    points.insert(points.end(), more.begin(), more.end());
    if (fits_wanted) fits = fit_depths(points);
  }
  return to_python(depth_json(points, fits, skipped, target));
}

// A WFA file's text: JSON when `source` ends in .json, else AT&T text (as load_wfa decides).
Wfa parse_wfa_text(const std::string& text, const std::string& source) {
  const bool json = source.size() >= 5 && source.compare(source.size() - 5, 5, ".json") == 0;
  return json ? parse_wfa_json(text, source) : parse_wfa_att(text, source);
}

// A WFA as its rnncc-wfa/1 document (docs/formats.md).
py::object wfa_json(const Wfa& a) {
  ojson j;
  j["format"] = "rnncc-wfa/1";
  j["alphabet"] = a.alphabet.symbols();
  j["states"] = a.state_names;
  auto texts = [](const std::vector<Rational>& v) {
    std::vector<std::string> out;
    for (const Rational& q : v) out.push_back(to_string(q));
    return out;
  };
  j["initial"] = texts(a.initial);
  j["final"] = texts(a.final);
  ojson t = ojson::object();
  for (std::size_t k = 0; k < a.transition.size(); ++k) {
    ojson rows = ojson::array();
    for (std::size_t i = 0; i < a.transition[k].rows(); ++i) {
      ojson row = ojson::array();
      for (std::size_t c = 0; c < a.transition[k].cols(); ++c)
        row.push_back(to_string(a.transition[k](i, c)));
      rows.push_back(row);
    }
    t[a.alphabet.symbol(k)] = rows;
  }
  j["transitions"] = t;
  return to_python(j);
}

// The module's parts, one function each: PYBIND11_MODULE below calls them in order (another part
// is one more line there).
void bind_errors(py::module_& m) {
  // Errors: the CLI's diagnostics, as Python exceptions (cli/error_boundary.cpp's mapping).
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<DomainError> domain_error(m, "DomainError", PyExc_ArithmeticError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(e.what());
    } catch (const DomainError& e) {
      domain_error(e.what());
    } catch (const nlohmann::json::parse_error& e) {
      input_error((std::string("the input is not valid JSON: ") + e.what()).c_str());
    } catch (const std::filesystem::filesystem_error& e) {
      std::string where = e.path1().string();
      if (!e.path2().empty()) where += " → " + e.path2().string();
      PyErr_SetString(PyExc_OSError,
                      ((where.empty() ? "" : where + ": ") + e.code().message()).c_str());
    } catch (const std::system_error& e) {
      PyErr_SetString(PyExc_OSError, (std::string("the system refused: ") + e.what()).c_str());
    }
  });
}

void bind_models(py::module_& m) {
  py::class_<Model>(m, "Model")
      .def_readonly("name", &Model::name)
      .def_readonly("description", &Model::description)
      .def_property_readonly("alphabet", [](const Model& x) { return x.alphabet.symbols(); })
      .def("describe", &describe_layers)
      .def("to_json", [](const Model& x) { return to_python(model_to_json(x)); })
      .def("save",
           [](const Model& x, const std::string& path) {
             write_file_atomically(path, model_to_json(x).dump(2) + "\n");
           })
      .def("tokenize", [](const Model& x,
                          const std::string& input) { return x.alphabet.tokenize(input, "input"); })
      .def("run_report", &run_report, py::arg("inputs"), py::arg("precision") = "exact",
           py::arg("int_bits") = py::none(), py::arg("rounding") = py::none(),
           py::arg("overflow") = py::none(), py::arg("trace") = false);

  py::class_<Wfa>(m, "Wfa")
      .def_property_readonly("alphabet", [](const Wfa& a) { return a.alphabet.symbols(); })
      .def_readonly("state_names", &Wfa::state_names)
      .def_property_readonly("states", &Wfa::states)
      .def_property_readonly("deterministic", &Wfa::deterministic)
      .def("to_json", &wfa_json)
      .def("evaluate", [](const Wfa& a, const std::string& input) {
        return to_string(evaluate(a, a.alphabet.tokenize(input, "input")));
      });
  m.def("load_wfa", &load_wfa, py::arg("path"));
  m.def("parse_wfa", &parse_wfa_text, py::arg("text"), py::arg("source"));

  m.def("load_model", &load_model, py::arg("path"));
  bind_import(m);
  m.def("parse_model", &parse_model, py::arg("text"), py::arg("source") = "<string>");
  m.def("build_diagonal", &build_diagonal);
  m.def("build_delta", &build_delta);
  m.def("build_general", &build_general);
  m.def("build_pd", &build_pd);
  m.def("build_low_rank", &build_low_rank);
}

void bind_circuits(py::module_& m) {
  py::class_<CompileArgs>(m, "CompileArgs")
      .def(py::init<>())
      .def_readwrite("target", &CompileArgs::target)
      .def_readwrite("precision", &CompileArgs::precision)
      .def_readwrite("scan", &CompileArgs::scan)
      .def_readwrite("outputs", &CompileArgs::outputs)
      .def_readwrite("structure", &CompileArgs::structure)
      .def_readwrite("rounding", &CompileArgs::rounding)
      .def_readwrite("overflow", &CompileArgs::overflow)
      .def_readwrite("max_gates", &CompileArgs::max_gates)
      .def_readwrite("max_states", &CompileArgs::max_states)
      .def_readwrite("int_bits", &CompileArgs::int_bits);

  py::class_<CompiledCircuit>(m, "CompiledCircuit")
      .def_property_readonly("size", [](const CompiledCircuit& c) { return c.circuit.size(); })
      .def_property_readonly("input_names",
                             [](const CompiledCircuit& c) { return c.circuit.input_names(); })
      .def_property_readonly("output_names",
                             [](const CompiledCircuit& c) { return c.circuit.output_names(); })
      .def_property_readonly("is_boolean",
                             [](const CompiledCircuit& c) { return is_boolean(c.circuit); })
      .def("stats", [](const CompiledCircuit& c) { return to_python(to_json(report_circuit(c))); })
      // The file text of the format `path`'s extension names (.json .aig .aag .blif .bench).
      .def("file_bytes",
           [](const CompiledCircuit& c, const std::string& path) {
             return py::bytes(circuit_file_text(sweep_dead_gates(c), path));  // as compile -o
           })
      .def("write",
           [](const CompiledCircuit& c, const std::string& path) {
             OutputFile out(path);
             out.write(circuit_file_text(sweep_dead_gates(c), path));
             out.commit();
           })
      .def("eval_boolean", &eval_boolean)
      .def("eval_modp", &eval_modp)
      .def("eval_boolean_rows", &eval_boolean_rows)
      .def("eval_modp_rows", &eval_modp_rows)
      .def("eval_exact", &eval_exact)
      .def(
          "draw",
          [](const CompiledCircuit& c, const std::string& format, bool collapse,
             bool highlight_critical, std::size_t max_nodes, const std::string& title) {
#ifdef RNNCC_HAVE_GRAPHVIZ
            DrawOptions o;
            o.format = draw_format_for("x." + format);
            o.collapse = collapse;
            o.highlight_critical = highlight_critical;
            o.max_nodes = max_nodes;
            o.title = title;
            return py::bytes(draw_circuit(c, o));
#else
            (void)c, (void)format, (void)collapse, (void)highlight_critical, (void)max_nodes,
                (void)title;
            throw std::runtime_error(
                "rnncc was built without Graphviz (-DRNNCC_WITH_GRAPHVIZ=OFF): no drawings");
#endif
          },
          py::arg("format") = "svg", py::arg("collapse") = false,
          py::arg("highlight_critical") = false, py::arg("max_nodes") = 4000,
          py::arg("title") = "");
  m.attr("has_graphviz") =
#ifdef RNNCC_HAVE_GRAPHVIZ
      true;
#else
      false;
#endif

  m.def("compile", &compile);
  m.def("load_circuit", &load_circuit, py::arg("path"));
}

void bind_checks(py::module_& m) {
  m.def("verify", &verify_report);
  m.def("verify_kinds", [] {
    std::vector<std::string> names;
    for (const ConstructionKind& k : verify_registry().kinds()) names.push_back(k.name);
    return names;
  });
  m.def("equiv", &equiv_report);
  // `rnncc check-certificate F G FILE`: the independent checker's verdict and every broken rule.
  // The claim's field (verify/certificate_claim.hpp): "Q" refuses a certificate over F_p.
  m.def("check_certificate", [](const py::object& f, const py::object& g, const std::string& path,
                                const std::string& field) {
    const ClaimField claim = parse_claim_field(field, "field");
    const std::string text = read_certificate_file(path);
    // Product, promise and input-map certificates: their own checkers, by "format"
    // (verify/check_product_certificate.hpp); a promise or input-map certificate with g = None
    // is checked against f alone (its specification is in it).
    const std::string format = certificate_format(text);
    if (format == "rnncc-product-certificate/1" || format == "rnncc-promise-certificate/1" ||
        format == "rnncc-input-map-certificate/1" || g.is_none()) {
      ProductCertificateCheck c;
      if (format == "rnncc-promise-certificate/1") {
        if (!g.is_none())
          throw InputError(path, "a promise certificate is checked against one model (g=None)");
        c = check_promise_certificate(subject_of(f, "f"), text);
      } else if (format == "rnncc-input-map-certificate/1") {
        c = g.is_none() ? check_input_map_certificate(std::nullopt, subject_of(f, "f"), text)
                        : check_input_map_certificate(subject_of(f, "f"), subject_of(g, "g"), text);
      } else if (format == "rnncc-product-certificate/1" && !g.is_none()) {
        c = check_product_certificate(subject_of(f, "f"), subject_of(g, "g"), text);
      } else {
        throw InputError(path,
                         "g=None is for promise and input-map certificates; this one "
                         "needs both subjects");
      }
      if (c.other_models || c.not_json)
        throw InputError(path, c.problems.empty() ? std::string("not a certificate of these models")
                                                  : c.problems.front());
      std::vector<std::string> problems = c.problems;
      const bool weaker = c.ok && claim == ClaimField::q && c.field != "Q";
      if (weaker)
        problems.push_back(
            "the certificate proves agreement modulo p = " + std::to_string(*c.modulus) +
            " only; a claim over Q needs a certificate over Q");
      return py::make_tuple(c.ok && !weaker, py::str(c.field),
                            c.modulus ? py::object(py::int_(*c.modulus)) : py::object(py::none()),
                            problems);
    }
    const SubjectFile a = subject_of(f, "f"), b = subject_of(g, "g");
    CertificateVerdict v;
    {
      py::gil_scoped_release unlocked;
      v = check_certificate_claim(a, b, text, claim);
    }
    const CertificateCheck& c = v.check;
    if (c.other_models || c.not_json)
      throw InputError(path, c.problems.empty() ? std::string("not a certificate of these models")
                                                : c.problems.front());
    return py::make_tuple(v.valid, c.field.empty() ? py::object(py::none()) : py::str(c.field),
                          c.modulus ? py::object(py::int_(*c.modulus)) : py::object(py::none()),
                          c.problems);
  });
  m.def("depth", &depth_report);
  m.def("minimize", &minimize_report);
}

}  // namespace
}  // namespace rnncc

PYBIND11_MODULE(_rnncc, m) {
  m.doc() = "rnncc's library for Python (the rnncc package wraps it; docs/python.md)";
  m.attr("__version__") = RNNCC_VERSION;  // CMake's project(VERSION), the package's one version
  rnncc::bind_errors(m);
  rnncc::bind_models(m);
  rnncc::bind_circuits(m);
  rnncc::bind_checks(m);
}
