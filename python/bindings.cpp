// The `rnncc._rnncc` extension module: the library's entry points for Python (python/rnncc is
// the Pythonic layer over it; docs/python.md). Every call goes to the same library functions as
// the matching `rnncc` command (cli/*.cpp); reports cross as the CLI's --json documents (parsed
// by Python's json module), so the two agree field for field. This file defines the module, its
// errors and what its parts share (bindings.hpp); each part is a file of its own.
#include "bindings.hpp"

#include <pybind11/pybind11.h>

#include <exception>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

namespace rnncc::bindings {

py::object to_python(const ojson& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

Rational rational_of(const std::string& text, const std::string& where) {
  if (auto q = try_parse_rational(text)) return *q;
  throw InputError(where, "'" + text + "': expected an exact rational such as 3, -2 or 1/2");
}

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

std::vector<Rational> vector_of(const TextVector& v, const std::string& where) {
  std::vector<Rational> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(rational_of(v[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

namespace {

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

}  // namespace

void made_by_library(const py::handle& cls, const std::string& hint) {
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

}  // namespace rnncc::bindings

PYBIND11_MODULE(_rnncc, m) {
  m.doc() = "rnncc's library for Python (the rnncc package wraps it; docs/python.md)";
  m.attr("__version__") = RNNCC_VERSION;  // CMake's project(VERSION), the package's one version
  // The module's parts, one function each, in order (another part is one more line here).
  rnncc::bindings::bind_errors(m);
  rnncc::bindings::bind_models(m);
  rnncc::bindings::bind_circuits(m);
  rnncc::bindings::bind_checks(m);
}
