// Circuit files: round trips, and one test per diagnostic.
#include <catch2/catch.hpp>

#include <limits>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/text_sink.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

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

namespace {

// Names as input files bring them: plain ASCII, characters JSON escapes, control bytes, UTF-8
// and bytes that are not UTF-8 (written as U+FFFD by both writers).
std::string random_name(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {"x",    "[1,a]", "\"",   "\\",   "/", "\n",
                                                  "\t",   "\x01",  "\x1f", "\x7f", "σ", "\xff",
                                                  "\xc3", "é",     "😀",    " ",    "{", "0"};
  std::string s;
  const std::size_t k = rng() % 5;
  for (std::size_t i = 0; i < k; ++i) s += pieces[rng() % pieces.size()];
  return s;
}

// A compiled circuit with named inputs and outputs, constants, every gate kind, and regions.
CompiledCircuit random_compiled(std::mt19937_64& rng) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  const std::size_t inputs = 1 + rng() % 6;
  for (std::size_t i = 0; i < inputs; ++i) pool.push_back(b.input(random_name(rng)));
  for (int c = 0; c < 2; ++c) {
    const int num = static_cast<int>(rng() % 2001) - 1000;
    const int den = 1 + static_cast<int>(rng() % 9);
    pool.push_back(b.constant(Rational(num, den)));
  }
  const std::size_t gates = rng() % 40;
  for (std::size_t g = 0; g < gates; ++g) {
    std::vector<GateId> ops;
    const std::size_t k = 3 + rng() % 3;
    for (std::size_t i = 0; i < k; ++i) ops.push_back(pool[rng() % pool.size()]);
    const std::size_t pick = rng() % 8;
    GateId id;
    if (pick == 0) {
      const GateId pair[] = {ops.front(), ops.back()};
      id = b.raw(GateKind::add, pair);
    } else if (pick == 1) {
      id = b.raw(GateKind::sum, ops);
    } else if (pick == 2) {
      id = b.raw(GateKind::not_, std::span(ops).first(1));
    } else if (pick == 3) {
      id = b.raw(GateKind::or_, ops);
    } else if (pick == 4) {
      id = b.raw(GateKind::positive, std::span(ops).first(1));
    } else {
      std::vector<std::int32_t> w;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::int32_t big = rng() % 4 == 0 ? std::numeric_limits<std::int32_t>::min() : 0;
        w.push_back(big != 0 ? big : static_cast<std::int32_t>(rng() % 41) - 20);
      }
      const std::int32_t t = rng() % 5 == 0 ? std::numeric_limits<std::int32_t>::max()
                                            : static_cast<std::int32_t>(rng() % 31) - 15;
      id = b.raw(GateKind::thr, ops, w, t);
    }
    pool.push_back(id);
  }
  std::vector<GateId> outs;
  std::vector<std::string> names;
  const std::size_t o = rng() % 4;
  for (std::size_t i = 0; i < o; ++i) {
    outs.push_back(pool[rng() % pool.size()]);
    names.push_back(random_name(rng));
  }
  if (rng() % 3 == 0) names.clear();  // unnamed outputs: no "name" members
  CompiledCircuit cc;
  cc.circuit = b.finish(outs, names);
  if (rng() % 2) {
    std::uint32_t first = 0;
    const std::size_t regions = 1 + rng() % 4;
    for (std::size_t r = 0; r < regions && first <= cc.circuit.size(); ++r) {
      cc.regions.push_back({.kind = static_cast<RegionKind>(rng() % 7),
                            .first_gate = first,
                            .layer = static_cast<std::uint32_t>(rng() % 3),
                            .level = static_cast<std::uint32_t>(rng()),
                            .target = static_cast<std::uint32_t>(rng() % 100),
                            .source = static_cast<std::uint32_t>(rng() % 100)});
      first += static_cast<std::uint32_t>(1 + rng() % 10);
    }
  }
  return cc;
}

}  // namespace

TEST_CASE("the streamed JSON writer writes the document's bytes, chunk size aside",
          "[circuits][json]") {
  std::mt19937_64 rng(20251203);
  for (int trial = 0; trial < 300; ++trial) {
    const CompiledCircuit cc = random_compiled(rng);
    const std::string expected = json_text(circuit_to_json(cc), -1) + "\n";
    TextSink whole;
    write_circuit_json(cc, whole);
    const std::string text = whole.take();
    INFO("trial " << trial);
    REQUIRE(text == expected);
    CHECK(circuit_file_text(cc, "c.json") == expected);
    // In chunks of a few bytes, as an OutputFile receives them.
    std::string pieces;
    std::size_t calls = 0;
    TextSink chunked(
        [&](std::string_view bytes) {
          pieces.append(bytes);
          ++calls;
        },
        1 + rng() % 16);
    write_circuit_json(cc, chunked);
    chunked.flush();
    CHECK(pieces == expected);
    CHECK(calls >= expected.size() / 64);
  }
}

TEST_CASE("the netlist writers' streamed and string forms agree", "[circuits][json]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Circuit c = testing::random_boolean_circuit(rng, 1 + rng() % 8, rng() % 60, 3);
    CompiledCircuit cc;
    cc.circuit = c;
    for (const char* path : {"c.aig", "c.aag", "c.blif", "c.bench", "c.json"}) {
      std::string pieces;
      TextSink sink([&](std::string_view bytes) { pieces.append(bytes); }, 7);
      write_circuit_file(cc, path, sink);
      CHECK(pieces == circuit_file_text(cc, path));
    }
  }
}

// combine_levels: read from the combine regions (per layer the deepest level, summed), or from
// the member a writer adds where the regions do not record it; a bad value is located.
TEST_CASE("combine levels: from the regions, or the member where they do not say it",
          "[circuits][json]") {
  const std::string gates = R"("gates": [{"op": "input"}, {"op": "input"},
      {"op": "add", "in": [0, 1]}, {"op": "mul", "in": [2, 1]}], "outputs": [{"gate": 3}])";
  const std::string regions = R"("regions": [
      {"kind": "input", "first_gate": 0, "layer": 0, "level": 0, "target": 0, "source": 0},
      {"kind": "combine", "first_gate": 2, "layer": 0, "level": 3, "target": 0, "source": 0},
      {"kind": "combine", "first_gate": 3, "layer": 1, "level": 2, "target": 0, "source": 0}])";
  CHECK(circuit_from_json("{" + gates + "," + regions + "}", "c.json").combine_levels == 5);
  const CompiledCircuit plain = circuit_from_json("{" + gates + "}", "c.json");
  CHECK(plain.combine_levels == 0);
  CompiledCircuit threshold = plain;
  threshold.combine_levels = 4;  // a compiler's figure without combine regions
  const std::string text = circuit_to_json(threshold).dump();
  CHECK(text.find("\"combine_levels\":4") != std::string::npos);
  CHECK(circuit_from_json(text, "c.json").combine_levels == 4);
  TextSink streamed;
  write_circuit_json(threshold, streamed);
  CHECK(circuit_from_json(streamed.take(), "c.json").combine_levels == 4);
  CHECK(circuit_to_json(plain).dump().find("combine_levels") == std::string::npos);
  expect_error("{" + gates + R"(, "combine_levels": -1})", "c.json: /combine_levels", "expected");
}
