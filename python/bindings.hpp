// What the parts of the `rnncc._rnncc` extension module share. The module is one file a part —
// bindings.cpp (these helpers, the errors and PYBIND11_MODULE), bindings_models.cpp (models,
// WFAs, the family builders, runs), bindings_circuits.cpp (compiling, evaluating, drawing),
// bindings_checks.cpp (verify, equiv, certificates, minimize, depth), bindings_import.cpp (the
// importers) — each registering its functions in its bind_* function, which PYBIND11_MODULE
// (bindings.cpp) calls in order.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"

void bind_import(pybind11::module_& m);  // bindings_import.cpp (called by bind_models)

namespace rnncc::bindings {

namespace py = pybind11;
using ojson = nlohmann::ordered_json;

// A JSON document as Python objects (dict, list, str, int, float, bool, None).
py::object to_python(const ojson& j);

// Exact entries as the Python layer passes them: text ("3", "-2", "1/2"); `where` names the
// argument in the InputError.
using TextMatrix = std::vector<std::vector<std::string>>;
using TextVector = std::vector<std::string>;
Rational rational_of(const std::string& text, const std::string& where);
Matrix<Rational> matrix_of(const TextMatrix& rows, const std::string& where);
std::vector<Rational> vector_of(const TextVector& v, const std::string& where);

// A class whose objects only the library makes (Model, Wfa, CompiledCircuit): no constructor in
// Python; `hint` names the functions that make them.
void made_by_library(const py::handle& cls, const std::string& hint);

// The module's parts, one function each (PYBIND11_MODULE calls them in order).
void bind_errors(py::module_& m);
void bind_models(py::module_& m);
void bind_circuits(py::module_& m);
void bind_checks(py::module_& m);

}  // namespace rnncc::bindings
