// Circuit files: round trips, and one test per diagnostic.
#include <catch2/catch.hpp>

#include "../support.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/circuit_json.hpp"
#include "rnn/model_json.hpp"

using namespace rnncc;

namespace {
void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { circuit_from_json(text, "c.json"); }, where, what);
}
}  // namespace

TEST_CASE("compiled circuits round-trip through JSON", "[circuits][json]") {
  Model model = load_model(test::example("rwkv7_overwrite.json"));
  CompileOptions o;
  o.outputs = OutputMode::all;
  CompiledCircuit cc = compile_lrnn(model, 7, o);
  std::string text = circuit_to_json(cc).dump();
  CompiledCircuit back = circuit_from_json(text, "c.json");
  REQUIRE(back.circuit.size() == cc.circuit.size());
  CHECK(back.circuit.outputs() == cc.circuit.outputs());
  CHECK(back.circuit.output_names() == cc.circuit.output_names());
  CHECK(back.circuit.input_names() == cc.circuit.input_names());
  CHECK(back.region_table() == cc.region_table());
  CHECK(back.combine_levels == cc.combine_levels);
  for (GateId id = 0; id < cc.circuit.size(); ++id) {
    REQUIRE(back.circuit.kind(id) == cc.circuit.kind(id));
    REQUIRE(std::equal(back.circuit.operands(id).begin(), back.circuit.operands(id).end(),
                       cc.circuit.operands(id).begin(), cc.circuit.operands(id).end()));
  }
  CHECK(circuit_to_json(back).dump() == text);
  RationalField Q;
  std::vector<Rational> x(14, Rational(0));
  for (std::size_t t = 0; t < 7; ++t) x[2 * t + t % 2] = 1;
  CHECK(evaluate(back.circuit, Q, std::span<const Rational>(x)) ==
        evaluate(cc.circuit, Q, std::span<const Rational>(x)));
}

TEST_CASE("threshold gates round-trip with weights", "[circuits][json]") {
  const char* text = R"({"format": "rnncc-circuit/1", "gates": [{"op": "input"}, {"op": "input"},
      {"op": "thr", "in": [0, 1], "weights": [3, -2], "threshold": 1}], "outputs": [{"gate": 2}]})";
  CompiledCircuit cc = circuit_from_json(text, "c.json");
  CHECK(cc.circuit.threshold(2) == 1);
  CHECK(cc.circuit.weights(2)[1] == -2);
  CHECK(circuit_from_json(circuit_to_json(cc).dump(), "d.json").circuit.weights(2)[0] == 3);
}

TEST_CASE("circuit file diagnostics", "[circuits][json][diagnostics]") {
  expect_error(
      R"({"gates": [{"op": "input"}, {"op": "add", "in": [0, 2]}, {"op": "input"}], "outputs": []})",
      "c.json: /gates/1/in/1", "not an earlier gate");
  expect_error(R"({"gates": [{"op": "input"}, {"op": "nand", "in": [0, 0]}], "outputs": []})",
               "c.json: /gates/1/op", "expected a gate kind");
  expect_error(R"({"gates": [{"op": "input"}, {"op": "add", "in": [0]}], "outputs": []})",
               "c.json: /gates/1/in", "add takes 2 operands, got 1");
  expect_error(
      R"({"gates": [{"op": "input"}, {"op": "thr", "in": [0], "threshold": 1}], "outputs": []})",
      "c.json: /gates/1", "expected a member \"weights\"");
  expect_error(
      R"({"gates": [{"op": "input"}, {"op": "add", "in": [0, 0], "threshold": 1}], "outputs": []})",
      "c.json: /gates/1", "only thr gates");
  expect_error(R"({"gates": [{"op": "const", "value": "x"}], "outputs": []})",
               "c.json: /gates/0/value", "expected a rational");
  expect_error(R"({"gates": [{"op": "input"}], "outputs": [{"gate": 3}]})",
               "c.json: /outputs/0/gate", "an integer in 0..0");
  expect_error(R"({"format": "rnncc-model/1", "gates": [], "outputs": []})", "c.json: /format",
               "rnncc-circuit/1");
  expect_error(
      R"({"gates": [{"op": "input"}], "outputs": [], "regions": [{"kind": "leaf", "first_gate": 1}]})",
      "c.json: /regions/0/first_gate", "starts at gate 0");
  expect_error("{\"gates\": [}", "c.json:1:12", "malformed JSON");
}
