// The circuits part of `rnncc._rnncc` (bindings.hpp): the CompiledCircuit class — its
// statistics, files, evaluation (numpy arrays or lists) and drawing —, rnncc.compile and
// reading circuit files.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/rational.hpp"
#include "bindings.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/output_file.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "cli/limits.hpp"
#include "verify/circuit_against_model.hpp"
#ifdef RNNCC_HAVE_GRAPHVIZ
#include "viz/draw_circuit.hpp"
#endif

namespace rnncc::bindings {
namespace {

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

}  // namespace

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

}  // namespace rnncc::bindings
