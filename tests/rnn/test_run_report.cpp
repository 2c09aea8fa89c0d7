#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"

using namespace rnncc;

TEST_CASE("run reports: exact bit growth and verdicts", "[rnn][report]") {
  Model m = load_model(test::example("binary_value_wfa.json"));
  RunReport r = run_model(m, "1101", "input 1", parse_precision("exact"));
  REQUIRE(r.positions.size() == 4);
  CHECK(r.positions[3].output == TextMatrix{{"13"}});
  CHECK(r.positions[3].bits->numerator_bits == 4);  // 13 = 0b1101
  CHECK(r.max_bits->numerator_bits == 4);
  CHECK(r.max_bits->denominator_bits == 1);
  CHECK(*r.accepted);
  CHECK(r.semantics == "exact");
  auto json = to_json(m, {r}, true);
  CHECK(json["runs"][0]["positions"][3]["states"][0] == nlohmann::ordered_json{{"13"}, {"1"}});
  CHECK(json["runs"][0]["accepted"] == true);
}

TEST_CASE("run reports: positivity is undefined mod p, equality is not", "[rnn][report]") {
  Model parity = load_model(test::example("parity_deltanet.json"));
  RunReport r = run_model(parity, "01", "input 1", parse_precision("mod:7"));
  CHECK_FALSE(r.accepted.has_value());
  CHECK(to_json(parity, {r}, false)["runs"][0]["accepted"].is_null());
  Model s5 = load_model(test::example("s5_word_problem.json"));
  CHECK(*run_model(s5, "ss", "input 1", parse_precision("mod:7")).accepted);
}

TEST_CASE("run reports: log precision names its format", "[rnn][report]") {
  Model m = load_model(test::example("binary_value_wfa.json"));
  PrecisionSpec p = parse_precision("log:2");
  p.int_bits = 5;
  p.rounding = Rounding::toward_zero;
  RunReport r = run_model(m, "1011", "input 1", p);
  CHECK(r.semantics == "fixed(I=5,F=6,toward-zero,saturate)");
  CHECK(r.positions[3].output == TextMatrix{{"11"}});
  CHECK_FALSE(r.max_bits.has_value());
}

// estimate_evaluation_work against the work the reference evaluator counts (Trace::work), on
// seeded random models (one layer of every LRNN family with m ∈ {1, 2}, and stacks with input
// maps, attention of both exact kinds, windows and Elman layers) at lengths 1..300: an upper
// bound, within a factor of 2.
TEST_CASE("run: the evaluation work estimate bounds the counted work within 2x", "[run][work]") {
  std::mt19937_64 rng(5);
  std::vector<Model> models;
  for (Family family : test::all_families) {
    Model m;
    m.alphabet = Alphabet({"a", "b", "c"}, "test");
    m.layers.push_back({std::nullopt, test::random_layer(rng, family, 3, 1 + rng() % 2, 3)});
    models.push_back(std::move(m));
  }
  models.push_back(parse_model(R"({"format": "rnncc-model/1", "alphabet": ["a", "b"],
    "layers": [{"kind": "attention", "attention": "averaging_hard",
      "query": {"weights": [["1", "0"], ["0", "1"]]},
      "key": {"weights": [["1", "2"], ["1", "0"]]},
      "value": {"weights": [["1", "0"], ["0", "1"]]}},
     {"kind": "elman", "activation": "relu", "d": 1, "input_map": {"weights": [["1", "1"]]},
      "W": [["1"]], "U": [["1"]], "readout": [["1"]]}]})",
                               "inline"));
  for (const char* example : {"hybrid_counter_attention.json", "relu_counter.json",
                              "s5_word_problem.json", "selective_copy_hybrid.json"})
    models.push_back(load_model(test::example(example)));
  for (const Model& m : models)
    for (const std::size_t n : {1u, 9u, 80u, 300u}) {
      std::vector<std::size_t> w;
      for (std::size_t t = 0; t < n; ++t) w.push_back(rng() % m.alphabet.size());
      const std::uint64_t counted = evaluate(m, RationalField{}, w).work();
      const std::uint64_t estimate = estimate_evaluation_work(m, n);
      INFO(describe_layers(m) << ", n = " << n << ": counted " << counted << ", estimate "
                              << estimate);
      CHECK(counted <= estimate);
      CHECK(estimate <= 2 * counted);
    }
}

// estimate_run's bound on the bits of the exact values against the bits the run measures
// (RunReport::max_bits, numerator + denominator), on seeded inputs of 10..2000 symbols: at least
// the measured bits, and within 3x of them
// (+ 64): models that stay small (parity) get a small estimate too, through the probe.
TEST_CASE("run: the bit-growth estimate bounds the measured bits", "[run][work]") {
  std::mt19937_64 rng(3);
  for (const char* example : {"binary_value_wfa.json", "s4_decay.json", "parity_deltanet.json",
                              "mamba_diagonal.json", "dplr_d3.json", "counter_rational.json"}) {
    const Model m = load_model(test::example(example));
    for (const std::size_t n : {10u, 100u, 700u, 2000u}) {
      std::vector<std::size_t> ids;
      for (std::size_t t = 0; t < n; ++t) ids.push_back(rng() % m.alphabet.size());
      const RunReport r = run_model(m, m.alphabet.join(ids), "input", parse_precision("exact"));
      const std::size_t measured = r.max_bits->numerator_bits + r.max_bits->denominator_bits;
      const RunEstimate e = estimate_run(m, ids, parse_precision("exact"));
      INFO(example << ", n = " << n << ": measured " << measured << " bits, estimate " << e.bits);
      CHECK(e.positions == n);
      CHECK(e.operations == estimate_evaluation_work(m, n));
      CHECK(measured <= e.bits);
      CHECK(e.bits <= 3 * measured + 64);
    }
  }
}
