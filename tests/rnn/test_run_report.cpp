#include <catch2/catch.hpp>

#include "../support.hpp"
#include "algebra/error.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"

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
