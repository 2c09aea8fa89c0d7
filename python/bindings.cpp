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
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/memory.hpp"
#include "algebra/modp.hpp"
#include "algebra/precision.hpp"
#include "algebra/rational.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/dead_gates.hpp"
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
#include "verify/circuit_against_model.hpp"
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

// A per-symbol argument holds one entry per symbol of the alphabet (an optional one left out:
// none). Checked before any entry is read: the builders index them by symbol.
template <class T>
void expect_per_symbol(const std::vector<T>& values, std::size_t symbols, const std::string& name,
                       bool optional = false) {
  if (optional && values.empty()) return;
  if (values.size() != symbols)
    throw InputError(name, "expected one entry per symbol of the alphabet (" +
                               std::to_string(symbols) + "), got " + std::to_string(values.size()));
}

// Peak bytes of building a model from Python a matrix entry: the entry as Python text and as a
// pybind11 std::string, then as a Rational in the builder's matrices and in the layer (measured:
// docs/python.md, "Errors").
constexpr std::uint64_t kBuilderBytesPerEntry = 400;

// The family builders' limits, from the sizes alone, before any entry is converted: the model
// file's (d, m ≤ 4096, a layer's dense entries ≤ 2^24: check_layer_size); no more entries given
// than a layer of that shape takes (per symbol at most d² + d·m + d + 1: A or its diagonal,
// B, a gate, a β; S_0; r readout rows and biases, r×(d + m)), so that one oversized argument
// is refused unread; and the peak memory, (the layer's entries + the entries given) ×
// kBuilderBytesPerEntry, against max_memory (MiB). `where` names the argument d is read from;
// readout_rows nullopt: no bound on the entries given (the float importer's tensors: per-symbol
// readouts, m read later).
void check_builder_size(std::size_t d, std::size_t m, std::size_t features,
                        std::optional<std::size_t> readout_rows, std::uint64_t given,
                        std::optional<std::size_t> max_memory_mib, const std::string& where) {
  check_layer_size(d, m, features, where);
  const std::uint64_t layer = features * (d * d + d * m) + d * m;  // ≤ 2^24, checked above
  const std::uint64_t most =
      cli::saturating_add(features * (d * d + d * m + d + 1) + d * m,
                          cli::saturating_mul(readout_rows.value_or(0), d + m));
  if (readout_rows && given > most)
    throw InputError("arguments",
                     std::to_string(given) + " entries given, more than the " +
                         std::to_string(most) + " a layer of d = " + std::to_string(d) +
                         ", m = " + std::to_string(m) + " over " + std::to_string(features) +
                         " symbols with " + std::to_string(*readout_rows) +
                         " readout rows takes (d read from " + where +
                         "): an argument is larger than its shape");
  const std::uint64_t entries = cli::saturating_add(layer, given);
  check_memory("max_memory", cli::saturating_mul(entries, kBuilderBytesPerEntry),
               max_memory_mib.value_or(default_max_memory_mib()), "building the model would take",
               std::to_string(entries) + " matrix entries × " +
                   std::to_string(kBuilderBytesPerEntry) + " bytes");
}

// The entries of nested text lists (what the builders were given).
std::uint64_t entries_of(const TextMatrix& x) {
  std::uint64_t n = 0;
  for (const auto& row : x) n += row.size();
  return n;
}
template <class T>
std::uint64_t entries_of(const std::vector<T>& x) {
  std::uint64_t n = 0;
  for (const auto& e : x) n += entries_of(e);
  return n;
}
template <class T>
std::uint64_t entries_of(const std::optional<T>& x) {
  return x ? entries_of(*x) : 0;
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
                     const std::string& name, std::optional<std::size_t> max_memory_mib) {
  const std::optional<Family> family = parse_family(family_name);
  if (!family || (*family != Family::diagonal && *family != Family::gla && *family != Family::s4 &&
                  *family != Family::mamba2))
    throw InputError("family", "'" + family_name + "': expected diagonal, gla, s4 or mamba2");
  Alphabet alphabet(symbols, "alphabet");
  expect_per_symbol(decay, symbols.size(), "decay");
  expect_per_symbol(B, symbols.size(), "B");
  if (B[0].empty() || B[0][0].empty()) throw InputError("B", "give B (d×m) for every symbol");
  const std::size_t d = B[0].size(), m = B[0][0].size();
  check_builder_size(d, m, symbols.size(), readout.size(),
                     entries_of(decay) + entries_of(B) + entries_of(readout) +
                         entries_of(initial_state) + entries_of(readout_bias),
                     max_memory_mib, "B");
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
                  const std::string& accept, const std::string& name,
                  std::optional<std::size_t> max_memory_mib) {
  const std::optional<Family> family = parse_family(family_name);
  if (!family ||
      (*family != Family::deltanet && *family != Family::gated_deltanet && *family != Family::kda))
    throw InputError("family", "'" + family_name + "': expected deltanet, gated_deltanet or kda");
  const std::optional<BetaRange> range = parse_beta_range(beta_range);
  if (!range)
    throw InputError("beta_range",
                     "'" + beta_range + "': expected any, (0,1), (0,1], (0,2) or (0,2]");
  Alphabet alphabet(symbols, "alphabet");
  expect_per_symbol(alpha, symbols.size(), "alpha", true);
  expect_per_symbol(beta, symbols.size(), "beta");
  expect_per_symbol(k, symbols.size(), "k");
  expect_per_symbol(v, symbols.size(), "v");
  const std::size_t d = k[0].size(), m = v[0].size();
  check_builder_size(d, m, symbols.size(), readout.size(),
                     entries_of(alpha) + beta.size() + entries_of(k) + entries_of(v) +
                         entries_of(readout) + entries_of(initial_state) + entries_of(readout_bias),
                     max_memory_mib, "k");
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
                    const std::string& name, std::optional<std::size_t> max_memory_mib) {
  Alphabet alphabet(symbols, "alphabet");
  expect_per_symbol(A, symbols.size(), "A");
  expect_per_symbol(B, symbols.size(), "B", true);
  const std::size_t d = A[0].size(), m = state_width(B, initial_state);
  check_builder_size(d, m, symbols.size(), readout.size(),
                     entries_of(A) + entries_of(B) + entries_of(readout) +
                         entries_of(initial_state) + entries_of(readout_bias),
                     max_memory_mib, "A");
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
               const std::string& accept, const std::string& name,
               std::optional<std::size_t> max_memory_mib) {
  Alphabet alphabet(symbols, "alphabet");
  expect_per_symbol(P, symbols.size(), "P");
  expect_per_symbol(D, symbols.size(), "D", true);
  expect_per_symbol(B, symbols.size(), "B", true);
  const std::size_t d = P[0].size(), m = state_width(B, initial_state);
  std::uint64_t given = entries_of(D) + entries_of(B) + entries_of(readout) +
                        entries_of(initial_state) + entries_of(readout_bias);
  for (const auto& p : P) given += p.size();
  check_builder_size(d, m, symbols.size(), readout.size(), given, max_memory_mib, "P");
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
                     const std::string& name, std::optional<std::size_t> max_memory_mib) {
  const bool rwkv = family_name == "rwkv7";
  if (!rwkv && family_name != "dplr")
    throw InputError("family", "'" + family_name + "': expected dplr or rwkv7");
  const std::string dname = rwkv ? "w" : "D";
  Alphabet alphabet(symbols, "alphabet");
  expect_per_symbol(diagonal, symbols.size(), dname);
  expect_per_symbol(a, symbols.size(), "a");
  expect_per_symbol(b, symbols.size(), "b");
  expect_per_symbol(B, symbols.size(), "B", true);
  const std::size_t d = diagonal[0].size(), m = state_width(B, initial_state);
  check_builder_size(d, m, symbols.size(), readout.size(),
                     entries_of(diagonal) + entries_of(a) + entries_of(b) + entries_of(B) +
                         entries_of(readout) + entries_of(initial_state) + entries_of(readout_bias),
                     max_memory_mib, dname);
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
                      bool trace, std::optional<std::string> scan_text) {
  PrecisionSpec precision = parse_precision(precision_text, "precision");
  const Scan scan = scan_text ? parse_scan(*scan_text, "scan") : Scan(ScanKind::sequential);
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
      runs.push_back(
          run_with_scan(model, inputs[i], "input " + std::to_string(i + 1), precision, scan));
  }
  return to_python(to_json(model, runs, trace));
}

// Circuit.check_against: `rnncc eval CIRCUIT --against MODEL` (verify/circuit_against_model.hpp),
// its JSON report as a dict.
py::object check_against(const CompiledCircuit& c, const Model& model, const std::string& precision,
                         const std::string& scan, std::optional<unsigned> int_bits,
                         std::size_t strings, bool exhaustive, std::uint64_t seed) {
  TargetText a;
  a.target = is_boolean(c.circuit) ? "boolean" : "arith";  // the circuit's kind
  a.precision = precision;
  a.scan = scan;
  a.int_bits = int_bits;
  AgainstModelOptions o;
  o.target = parse_target_options(a, "");
  o.strings = strings;
  o.exhaustive = exhaustive;
  o.seed = seed;
  AgainstModelReport r;
  {
    py::gil_scoped_release unlocked;
    r = check_circuit_against_model(c.circuit, model, o);
  }
  return to_python(to_json(r));
}

// rnncc.compile: `rnncc compile`'s flags as keywords, with the same defaults (TargetText).
CompiledCircuit compile(const Model& model, std::size_t n, const std::string& target,
                        const std::string& precision, const std::string& scan,
                        const std::string& outputs, const std::string& structure,
                        const std::string& rounding, const std::string& overflow,
                        std::size_t max_gates, std::optional<std::size_t> max_memory_mib,
                        std::size_t max_states, std::optional<unsigned> int_bits,
                        bool valid_output) {
  if (n == 0) throw InputError("n", "0: a length is at least 1");
  TargetText a;
  a.target = target;
  a.precision = precision;
  a.scan = scan;
  a.outputs = outputs;
  a.structure = structure;
  a.rounding = rounding;
  a.overflow = overflow;
  a.max_gates = max_gates;
  if (max_memory_mib) a.max_memory_mib = *max_memory_mib;
  a.max_states = max_states;
  a.int_bits = int_bits;
  a.valid_output = valid_output;
  const TargetOptions t = parse_target_options(a, "");
  py::gil_scoped_release unlocked;
  return compile_as_written(model, n, t);  // as `rnncc compile` writes and measures it
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

// Circuit.eval's limit, before any pattern is read (as `rnncc eval --max-work`): word operations
// = patterns × gates, a boolean circuit evaluating 64 patterns a word.
void check_eval_work(const Circuit& c, std::size_t patterns, bool boolean, std::uint64_t max_work) {
  const std::uint64_t words = boolean ? patterns / 64 + (patterns % 64 != 0) : patterns;
  cli::check_work("max_work", cli::saturating_mul(words, c.size()), max_work, "eval would take",
                  "word operations",
                  std::to_string(patterns) + " patterns × " + std::to_string(c.size()) + " gates" +
                      (boolean ? ", 64 patterns a word" : ""));
}

// An input of a boolean circuit is 0 or 1 (False or True), exactly: NaN, 0.5, 2 and −1 were
// read as 1 (anything nonzero) and are refused, naming the first such entry.
[[noreturn]] void refuse_bit(std::size_t p, std::size_t i, const std::string& value) {
  throw InputError("inputs[" + std::to_string(p) + "][" + std::to_string(i) + "]",
                   value + ": expected 0 or 1 (False or True), an input of a boolean circuit");
}

std::string number_text(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// numpy in (bool, integer or float dtype; every entry 0 or 1), numpy out.
py::array_t<std::uint8_t> eval_boolean(const CompiledCircuit& cc, const py::array& rows,
                                       std::uint64_t max_work) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  const char kind = rows.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f')
    throw py::type_error(
        "inputs: expected an array of 0/1 (a bool, integer or float dtype), got "
        "dtype " +
        py::str(rows.dtype()).cast<std::string>());
  if (rows.ndim() != 2 || static_cast<std::size_t>(rows.shape(1)) != inputs)
    refuse_eval_shape(inputs);
  const std::size_t patterns = rows.shape(0);
  check_eval_work(c, patterns, true, max_work);
  // As float64: exact for bools, floats and every integer near 0 and 1 (a larger one converts
  // to a value that is not 0 or 1 either), so "exactly 0 or 1" is one test; NaN fails it.
  const auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(rows);
  if (!values) throw py::error_already_set();
  auto r = values.unchecked<2>();
  for (std::size_t p = 0; p < patterns; ++p)
    for (std::size_t i = 0; i < inputs; ++i)
      if (r(p, i) != 0.0 && r(p, i) != 1.0) refuse_bit(p, i, number_text(r(p, i)));
  const std::vector<std::uint8_t> out =
      eval_bits(c, patterns, [&](std::size_t p, std::size_t i) { return r(p, i) == 1.0; });
  py::array_t<std::uint8_t> result({patterns, outputs});
  std::copy(out.begin(), out.end(), result.mutable_data());
  return result;
}

// Lists of 0/1 in, lists out (no numpy needed).
std::vector<std::vector<bool>> eval_boolean_rows(const CompiledCircuit& cc,
                                                 const std::vector<std::vector<int>>& rows,
                                                 std::uint64_t max_work) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size(), outputs = c.outputs().size();
  for (const auto& row : rows)
    if (row.size() != inputs) refuse_eval_shape(inputs);
  check_eval_work(c, rows.size(), true, max_work);
  for (std::size_t p = 0; p < rows.size(); ++p)
    for (std::size_t i = 0; i < inputs; ++i)
      if (rows[p][i] != 0 && rows[p][i] != 1) refuse_bit(p, i, std::to_string(rows[p][i]));
  const std::vector<std::uint8_t> out =
      eval_bits(c, rows.size(), [&](std::size_t p, std::size_t i) { return rows[p][i] == 1; });
  std::vector<std::vector<bool>> result(rows.size(), std::vector<bool>(outputs));
  for (std::size_t p = 0; p < rows.size(); ++p)
    for (std::size_t o = 0; o < outputs; ++o) result[p][o] = out[p * outputs + o] != 0;
  return result;
}

// Circuit.eval on an arithmetic circuit over F_p: residues in, residues out.
std::vector<std::vector<std::uint64_t>> eval_modp_rows(
    const CompiledCircuit& cc, const std::vector<std::vector<std::uint64_t>>& rows, std::uint64_t p,
    std::uint64_t max_work) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size();
  const ModP field(p);  // InputError unless p is a prime below 2^62
  for (const auto& row : rows)
    if (row.size() != inputs) refuse_eval_shape(inputs);
  check_eval_work(c, rows.size(), false, max_work);
  std::vector<std::vector<std::uint64_t>> in = rows;
  for (auto& row : in)
    for (auto& x : row) x %= p;
  py::gil_scoped_release unlocked;
  return evaluate_batch(c, field, in);
}

py::array_t<std::uint64_t> eval_modp(const CompiledCircuit& cc, const py::array& given,
                                     std::uint64_t p, std::uint64_t max_work) {
  const std::size_t inputs = cc.circuit.inputs().size(), outputs = cc.circuit.outputs().size();
  // Residues are integers: a float or object array is refused, not truncated (0.5 read as 0).
  const char kind = given.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u')
    throw py::type_error("inputs: expected an array of integer residues, got dtype " +
                         py::str(given.dtype()).cast<std::string>());
  if (given.ndim() != 2 || static_cast<std::size_t>(given.shape(1)) != inputs)
    refuse_eval_shape(inputs);
  const ModP field(p);
  check_eval_work(cc.circuit, given.shape(0), false, max_work);
  // Signed entries as their residues (−1 ≡ p − 1), as the list route takes them.
  if (kind == 'i') {
    const auto signed_rows =
        py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(given);
    if (!signed_rows) throw py::error_already_set();
    auto r = signed_rows.unchecked<2>();
    for (py::ssize_t k = 0; k < r.shape(0); ++k)
      for (py::ssize_t i = 0; i < r.shape(1); ++i)
        if (r(k, i) < 0)
          throw InputError("inputs[" + std::to_string(k) + "][" + std::to_string(i) + "]",
                           std::to_string(r(k, i)) +
                               ": expected a residue 0..p−1 (the Python "
                               "layer reduces negative integers)");
  }
  const auto rows =
      py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(given);
  if (!rows) throw py::error_already_set();
  std::vector<std::vector<std::uint64_t>> in(rows.shape(0), std::vector<std::uint64_t>(inputs));
  auto r = rows.unchecked<2>();
  for (std::size_t k = 0; k < in.size(); ++k)
    for (std::size_t i = 0; i < inputs; ++i) in[k][i] = r(k, i);
  const auto out = eval_modp_rows(cc, in, p, max_work);
  py::array_t<std::uint64_t> result({in.size(), outputs});
  auto w = result.mutable_unchecked<2>();
  for (std::size_t k = 0; k < in.size(); ++k)
    for (std::size_t o = 0; o < outputs; ++o) w(k, o) = out[k][o];
  return result;
}

// Circuit.eval(exact=True): rationals in and out as text (Python makes Fractions of them).
std::vector<std::vector<std::string>> eval_exact(const CompiledCircuit& cc,
                                                 const std::vector<std::vector<std::string>>& rows,
                                                 std::uint64_t max_work) {
  const RationalField field;
  check_eval_work(cc.circuit, rows.size(), false, max_work);
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
// The text of a path argument; a TypeError (not pybind11's RuntimeError) for anything else.
std::string path_of(const py::handle& x, const std::string& name, const std::string& expected) {
  if (!py::isinstance<py::str>(x))
    throw py::type_error(name + ": expected " + expected + ", got " +
                         py::str(py::type::handle_of(x).attr("__name__")).cast<std::string>());
  return x.cast<std::string>();
}

SubjectFile subject_of(const py::handle& x, const std::string& name) {
  if (py::isinstance<Model>(x)) return SubjectFile{name, x.cast<Model>()};
  if (py::isinstance<Wfa>(x)) return SubjectFile{name, x.cast<Wfa>()};
  return load_subject_file(path_of(x, name, "a Model, a Wfa or a file's path"));
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
    const Wfa wfa = py::isinstance<Wfa>(against)
                        ? against.cast<Wfa>()
                        : load_wfa(path_of(against, "against", "a Wfa or a WFA file's path"));
    built = model_against_wfa(*model, wfa);
  } else {
    if (input.empty() && !kind->input_help.empty())
      throw InputError("input", "verify " + kind_name + " needs an input: " + kind->input_help);
    if (!input.empty() && kind->input_help.empty())  // the CLI's parser refuses it too
      throw InputError("input", "verify " + kind_name +
                                    " takes no input (its options say what "
                                    "to build)");
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
    // Integers (not bools, not floats: 2.5 is no length), at most kMaxDepthLengths of them (as
    // many as "A..B" gives at most): each is a compilation of every architecture.
    constexpr std::size_t kMaxDepthLengths = 64;
    for (const py::handle& x : lengths_given) {
      if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x))
        throw py::type_error("lengths: expected integers, got " +
                             py::str(py::type::handle_of(x).attr("__name__")).cast<std::string>());
      const py::int_ value = py::reinterpret_borrow<py::int_>(x);
      if (value < py::int_(1) || value > py::int_(std::uint64_t{1} << 62))
        throw InputError("lengths", py::str(x).cast<std::string>() + ": a length is in 1..2^62");
      lengths.push_back(value.cast<std::size_t>());
      if (lengths.size() > kMaxDepthLengths)
        throw InputError("lengths", "more than " + std::to_string(kMaxDepthLengths) +
                                        " lengths (\"A..B\" doubles from A to B)");
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
    const std::string path =
        object ? std::string()
               : path_of(x, "models[" + std::to_string(k) + "]", "a Model or a model file's path");
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

// Objects only the library makes (Model, Wfa, CompiledCircuit) have no constructor in Python.
// pybind11's default __new__ allocates a C++ object's storage without constructing it, and a
// method called on that (`Model.__new__(Model).describe()`) read uninitialized memory and crashed
// the interpreter. Their type's tp_new refuses instead, naming the functions that make them;
// pybind11 makes the instances it returns without tp_new (make_new_instance), and the classes
// are final, so no Python subclass brings another __new__.
std::map<const PyTypeObject*, std::string>& factory_hints() {
  static std::map<const PyTypeObject*, std::string> hints;
  return hints;
}

PyObject* refuse_new(PyTypeObject* type, PyObject*, PyObject*) {
  const auto& hints = factory_hints();
  const auto it = hints.find(type);
  const std::string message = std::string(type->tp_name) + " cannot be created directly" +
                              (it == hints.end() ? std::string() : "; " + it->second);
  PyErr_SetString(PyExc_TypeError, message.c_str());
  return nullptr;
}

template <class T>
void made_by_library(py::class_<T>& cls, const std::string& hint) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  factory_hints()[type] = hint;
  type->tp_new = refuse_new;  // T(), and object.__new__(T) ("not safe": tp_new differs)
  // T.__new__(T) found pybind11_object's __new__; the type's own says what to use instead.
  const std::string message = std::string(type->tp_name) + " cannot be created directly; " + hint;
  py::cpp_function explicit_new(
      [message](const py::args&, const py::kwargs&) -> py::object {
        throw py::type_error(message);
      },
      py::name("__new__"));
  if (PyDict_SetItemString(type->tp_dict, "__new__", py::staticmethod(explicit_new).ptr()) != 0)
    throw py::error_already_set();
  PyType_Modified(type);
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
  py::class_<Model> model(m, "Model", py::is_final());
  made_by_library(model, "use rnncc.load_model, rnncc.parse_model or rnncc.families");
  model.def_readonly("name", &Model::name)
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
           py::arg("overflow") = py::none(), py::arg("trace") = false,
           py::arg("scan") = py::none());

  py::class_<Wfa> wfa(m, "Wfa", py::is_final());
  made_by_library(wfa, "use rnncc.load_wfa or rnncc.parse_wfa");
  wfa.def_property_readonly("alphabet", [](const Wfa& a) { return a.alphabet.symbols(); })
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
  // The family builders (rnncc.families converts and checks the arguments first): per-symbol
  // lists in alphabet order, entries as exact rational text, max_memory in MiB (None: half the
  // machine's memory, default_max_memory_mib).
  m.def("build_diagonal", &build_diagonal, py::arg("family"), py::arg("alphabet"), py::arg("decay"),
        py::arg("B"), py::arg("readout"), py::arg("initial_state"), py::arg("readout_bias"),
        py::arg("accept"), py::arg("name"), py::arg("max_memory") = py::none());
  m.def("build_delta", &build_delta, py::arg("family"), py::arg("alphabet"), py::arg("alpha"),
        py::arg("beta"), py::arg("k"), py::arg("v"), py::arg("readout"), py::arg("initial_state"),
        py::arg("readout_bias"), py::arg("beta_range"), py::arg("accept"), py::arg("name"),
        py::arg("max_memory") = py::none());
  m.def("build_general", &build_general, py::arg("alphabet"), py::arg("A"), py::arg("B"),
        py::arg("readout"), py::arg("initial_state"), py::arg("readout_bias"), py::arg("accept"),
        py::arg("name"), py::arg("max_memory") = py::none());
  m.def("build_pd", &build_pd, py::arg("alphabet"), py::arg("P"), py::arg("D"), py::arg("B"),
        py::arg("readout"), py::arg("initial_state"), py::arg("readout_bias"),
        py::arg("permutation"), py::arg("accept"), py::arg("name"),
        py::arg("max_memory") = py::none());
  m.def("build_low_rank", &build_low_rank, py::arg("family"), py::arg("alphabet"),
        py::arg("diagonal"), py::arg("a"), py::arg("b"), py::arg("B"), py::arg("readout"),
        py::arg("initial_state"), py::arg("readout_bias"), py::arg("accept"), py::arg("name"),
        py::arg("max_memory") = py::none());
  // What the builders check from the sizes alone: rnncc.families calls it before converting a
  // single entry (a 5000×5000 matrix is refused at once, not after minutes of conversion).
  m.def("check_builder_size", &check_builder_size, py::arg("d"), py::arg("m"), py::arg("features"),
        py::arg("readout_rows"), py::arg("given"), py::arg("max_memory"), py::arg("where"));
  m.def("default_max_memory_mib", &default_max_memory_mib);
}

void bind_circuits(py::module_& m) {
  py::class_<CompiledCircuit> circuit(m, "CompiledCircuit", py::is_final());
  made_by_library(circuit, "use rnncc.compile or rnncc.load_circuit");
  circuit.def_property_readonly("size", [](const CompiledCircuit& c) { return c.circuit.size(); })
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
      .def("eval_boolean", &eval_boolean, py::arg("inputs"),
           py::arg("max_work") = cli::kDefaultMaxWork)
      .def("eval_modp", &eval_modp, py::arg("inputs"), py::arg("p"),
           py::arg("max_work") = cli::kDefaultMaxWork)
      .def("eval_boolean_rows", &eval_boolean_rows, py::arg("inputs"),
           py::arg("max_work") = cli::kDefaultMaxWork)
      .def("eval_modp_rows", &eval_modp_rows, py::arg("inputs"), py::arg("p"),
           py::arg("max_work") = cli::kDefaultMaxWork)
      .def("eval_exact", &eval_exact, py::arg("inputs"), py::arg("max_work") = cli::kDefaultMaxWork)
      .def("check_against", &check_against, py::arg("model"), py::arg("precision"), py::arg("scan"),
           py::arg("int_bits"), py::arg("strings"), py::arg("exhaustive"), py::arg("seed"))
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

  const TargetText defaults;
  m.def("compile", &compile, py::arg("model"), py::arg("n"), py::arg("target") = defaults.target,
        py::arg("precision") = defaults.precision, py::arg("scan") = defaults.scan,
        py::arg("outputs") = defaults.outputs, py::arg("structure") = defaults.structure,
        py::arg("rounding") = defaults.rounding, py::arg("overflow") = defaults.overflow,
        py::arg("max_gates") = defaults.max_gates, py::arg("max_memory") = py::none(),
        py::arg("max_states") = defaults.max_states, py::arg("int_bits") = py::none(),
        py::arg("valid_output") = defaults.valid_output);
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
