// The models part of `rnncc._rnncc` (bindings.hpp): the Model and Wfa classes, reading model
// and WFA files, the family builders behind rnncc.families (sizes checked before any entry is
// converted) and `rnncc run`'s document.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "algebra/precision.hpp"
#include "algebra/rational.hpp"
#include "bindings.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/limits.hpp"
#include "constructions/wfa.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"

namespace rnncc::bindings {
namespace {

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

}  // namespace

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

}  // namespace rnncc::bindings
