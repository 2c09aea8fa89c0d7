// Declared pass pipelines (circuits/passes/pipeline.hpp): the declarations of each path checked
// by hand; run_pipeline against the plain composition of the passes it names (and the netlist
// writes against the writers called on the passes' result by hand, byte for byte) on seeded
// random circuits; the records' gate counts against the circuits they describe;
// compile_as_written's records against compile_model and the declared pipeline on every shipped
// route; the printed plan and its JSON by hand; the refusal of an extension no writer has.
#include <catch2/catch.hpp>

#include <random>

#include "circuits/compile/target.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/pipeline.hpp"
#include "circuits/passes/valid_output.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

using Steps = std::vector<PassStep>;

CompiledCircuit compiled(Circuit c) {
  CompiledCircuit cc;
  cc.circuit = std::move(c);
  return cc;
}

bool same_circuit(const Circuit& a, const Circuit& b) {
  return circuit_file_text(compiled(a), "x.json") == circuit_file_text(compiled(b), "x.json");
}

}  // namespace

TEST_CASE("pipeline: each path's declaration", "[circuits][passes][pipeline]") {
  CHECK(as_written_pipeline(3, false).stage == "as written");
  CHECK(as_written_pipeline(3, false).steps == Steps{{PassKind::sweep_dead_gates}});
  CHECK(as_written_pipeline(3, true).steps ==
        Steps{{PassKind::sweep_dead_gates}, {PassKind::valid_output, 3}});
  CHECK(netlist_pipeline("c.aig", true).stage == "write c.aig");
  CHECK(netlist_pipeline("c.aig", true).steps ==
        Steps{{PassKind::lower_threshold}, {PassKind::sweep_dead_gates}});
  CHECK(netlist_pipeline("c.aag", false).steps == Steps{{PassKind::sweep_dead_gates}});
  // BLIF and .bench lower maj/thr in their writers' netlist view, after the sweep.
  CHECK(netlist_pipeline("c.blif", true).steps == Steps{{PassKind::sweep_dead_gates}});
  CHECK(netlist_pipeline("c.bench", true).steps == Steps{{PassKind::sweep_dead_gates}});
  CHECK(netlist_pipeline("c.json", true).steps.empty());
  CHECK(to_string(PassKind::lower_threshold) == "lower-threshold");
  CHECK(pass_params({PassKind::valid_output, 4}) == "symbols = 4");
  CHECK(pass_params({PassKind::sweep_dead_gates}).empty());
  CHECK_THAT(netlist_writer("c.aag"), Catch::StartsWith("write-aiger (ASCII;"));
  CHECK_THAT(netlist_writer("c.bench"), Catch::StartsWith("write-bench"));
  test::expect_input_error([] { (void)netlist_writer("c.txt"); }, "c.txt",
                           "expected an output file ending in .json, .aig, .aag, .blif or .bench");
}

TEST_CASE("pipeline: run_pipeline is the composition of its passes, recorded",
          "[circuits][passes][pipeline]") {
  std::mt19937_64 rng(2812);
  for (int round = 0; round < 40; ++round) {
    INFO("round " << round);
    const CompiledCircuit cc =
        compiled(testing::random_boolean_circuit(rng, 2 + rng() % 6, 10 + rng() % 40));
    const bool threshold = has_threshold_gates(cc.circuit);
    const Pipeline p = netlist_pipeline("c.aig", threshold);
    const CompiledCircuit ran = run_pipeline(cc, p);
    // The plain twin: the passes' own functions, called by hand.
    const Circuit twin =
        sweep_dead_gates(threshold ? lower_threshold_gates(cc.circuit) : cc.circuit);
    CHECK(same_circuit(ran.circuit, twin));
    REQUIRE(ran.passes.size() == p.steps.size());
    CHECK(ran.passes.front().gates_before == cc.circuit.size());
    CHECK(ran.passes.back().gates_after == ran.circuit.size());
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
      CHECK(ran.passes[i].stage == "write c.aig");
      CHECK(ran.passes[i].pass == to_string(p.steps[i].kind));
      if (i > 0) CHECK(ran.passes[i].gates_before == ran.passes[i - 1].gates_after);
    }
    const std::size_t swept = ran.passes.back().gates_before - ran.passes.back().gates_after;
    CHECK(ran.dead_gates_swept == swept);
    // The same through run_pass, one by one.
    CompiledCircuit by_hand = cc;
    for (const PassStep& s : p.steps) by_hand = run_pass(by_hand, s);
    CHECK(same_circuit(by_hand.circuit, ran.circuit));
  }
  // An empty pipeline leaves the circuit and its records as they are.
  CompiledCircuit cc = compiled(testing::random_boolean_circuit(rng, 3, 10));
  cc.passes.push_back({"compile", "by hand", "", 0, cc.circuit.size()});
  const CompiledCircuit same = run_pipeline(cc, netlist_pipeline("c.json", false));
  CHECK(same_circuit(same.circuit, cc.circuit));
  CHECK(same.passes.size() == 1);
}

TEST_CASE("pipeline: the netlist writes are the writers on the declared passes' result",
          "[circuits][passes][pipeline]") {
  std::mt19937_64 rng(77);
  for (int round = 0; round < 30; ++round) {
    INFO("round " << round);
    CompiledCircuit cc =
        compiled(testing::random_boolean_circuit(rng, 2 + rng() % 5, 10 + rng() % 30));
    cc.passes.push_back({"compile", "by hand", "", 0, cc.circuit.size()});
    const Circuit& c = cc.circuit;
    const Circuit lowered = has_threshold_gates(c) ? lower_threshold_gates(c) : c;
    CHECK(circuit_file_text(cc, "c.aag") ==
          write_aiger(sweep_dead_gates(lowered), AigerFormat::ascii));
    CHECK(circuit_file_text(cc, "c.blif") == write_blif(sweep_dead_gates(c), "c"));
    CHECK(circuit_file_text(cc, "c.bench") == write_bench(sweep_dead_gates(c)));
    // What the write returns: its own passes only, not the circuit's earlier records.
    TextSink sink;
    const std::vector<PassRecord> written = write_circuit_file(cc, "c.aag", sink);
    REQUIRE(written.size() == netlist_pipeline("c.aag", has_threshold_gates(c)).steps.size());
    CHECK(written.front().stage == "write c.aag");
    CHECK(written.front().gates_before == c.size());
    CHECK(written.back().pass == "sweep-dead-gates");
    CHECK(write_circuit_file(cc, "c.json", sink).empty());
  }
}

TEST_CASE("pipeline: compile_as_written records its compiler and its declared passes",
          "[circuits][passes][pipeline]") {
  struct Case {
    const char* example;
    const char* target;
    const char* precision;
    bool valid_output;
  };
  for (const Case& k : {Case{"parity_deltanet.json", "arith", "exact", false},
                        Case{"dplr_d3.json", "boolean", "log:1", true},
                        Case{"s5_word_problem.json", "boolean", "exact", false},
                        Case{"attention_most_recent_a.json", "boolean", "log:1", false},
                        Case{"attention_most_recent_a.json", "threshold", "log:1", true}}) {
    INFO(k.example << " " << k.target);
    const Model m = load_model(test::example(k.example));
    TargetText text;
    text.target = k.target;
    text.precision = k.precision;
    text.valid_output = k.valid_output;
    const TargetOptions o = parse_target_options(text);
    const std::size_t n = 6;
    const CompiledCircuit built = compile_model(m, n, o);
    const CompiledCircuit c = compile_as_written(m, n, o);
    const Pipeline p = compile_pipeline(m, o);
    REQUIRE(c.passes.size() == 1 + p.steps.size());
    CHECK(c.passes[0].stage == "compile");
    CHECK(c.passes[0].pass == compiler_name(m, o));
    CHECK(c.passes[0].gates_after == built.circuit.size());
    CHECK_THAT(c.passes[0].params, Catch::StartsWith("n = 6, target = " + std::string(k.target)));
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
      CHECK(c.passes[1 + i].stage == "as written");
      CHECK(c.passes[1 + i].pass == to_string(p.steps[i].kind));
      CHECK(c.passes[1 + i].gates_before == c.passes[i].gates_after);
    }
    CHECK(c.passes.back().gates_after == c.circuit.size());
    CHECK(c.passes[1].gates_before - c.passes[1].gates_after == *c.dead_gates_swept);
    // The plain twin: the passes by hand on the compiler's circuit.
    const CompiledCircuit swept = sweep_dead_gates(built);
    const CompiledCircuit twin =
        k.valid_output ? with_valid_output(swept, m.alphabet.size()) : swept;
    CHECK(same_circuit(c.circuit, twin.circuit));
  }
}

TEST_CASE("pipeline: the printed plan", "[circuits][passes][pipeline]") {
  const Model m = load_model(test::example("dplr_d3.json"));
  TargetText text;
  text.target = "boolean";
  text.precision = "log:1";
  text.valid_output = true;
  const TargetOptions o = parse_target_options(text);
  const PipelinePlan plan = compile_plan(m, 4, o, "c.aig");
  CHECK(format_pipeline(plan) ==
        "compile\n"
        "  " +
            compiler_name(m, o) +
            " (n = 4, target = boolean, precision = log:1, scan = brent-kung, outputs = last)\n"
            "as written\n"
            "  sweep-dead-gates\n"
            "  valid-output (symbols = " +
            std::to_string(m.alphabet.size()) +
            ")\n"
            "write c.aig\n"
            "  sweep-dead-gates\n"
            "  write-aiger (binary; and/or/xor/not lowered to an and-inverter graph: "
            "lower_to_aig)\n");
  const auto j = pipeline_json(plan);
  CHECK(j["compiler"]["name"] == compiler_name(m, o));
  REQUIRE(j["pipelines"].size() == 2);
  CHECK(j["pipelines"][0]["stage"] == "as written");
  CHECK(j["pipelines"][0]["passes"][1]["pass"] == "valid-output");
  CHECK(j["pipelines"][0]["passes"][1]["params"] ==
        "symbols = " + std::to_string(m.alphabet.size()));
  CHECK(j["pipelines"][1]["passes"].size() == 1);
  // The threshold target's AIGER write lowers its thr gates first.
  text.target = "threshold";
  const Model att = load_model(test::example("attention_most_recent_a.json"));
  CHECK(compile_plan(att, 4, parse_target_options(text), "c.aag").pipelines[1].steps ==
        Steps{{PassKind::lower_threshold}, {PassKind::sweep_dead_gates}});
  // No output: the compiler and the as-written pipeline only.
  CHECK(compile_plan(m, 4, o, "").pipelines.size() == 1);
  test::expect_input_error([&] { (void)compile_plan(m, 4, o, "c.txt"); }, "c.txt",
                           "expected an output file ending in");
}
