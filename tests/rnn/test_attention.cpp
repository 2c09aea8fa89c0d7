// Attention layers (rnn/attention.hpp): hand-checked tiny cases for every kind, tie rule, window
// and position bias; exact against log precision where rounding moves the argmax; softmax's
// correctly rounded exp; a hybrid LRNN → attention stack; run reports; the JSON round trip; and
// one negative test per diagnostic.
#include <catch2/catch.hpp>

#include "tests/rnn/model_testing.hpp"

#include <cmath>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using rnncc::testing::expect_model_error;

namespace {

// A one-layer attention model over {a, b}; `extra` adds layer members.
std::string attention_text(const std::string& kind, const std::string& key,
                           const std::string& value, const std::string& extra = "",
                           const std::string& query = R"([["1", "1"]])") {
  return R"({"alphabet": ["a", "b"], "layers": [{"kind": "attention", "attention": ")" + kind +
         R"(", "query": {"weights": )" + query + R"(}, "key": {"weights": )" + key +
         R"(}, "value": {"weights": )" + value + "}" + extra + "}]}";
}

Model attention_model(const std::string& kind, const std::string& key, const std::string& value,
                      const std::string& extra = "", const std::string& query = R"([["1", "1"]])") {
  return parse_model(attention_text(kind, key, value, extra, query), "m.json");
}

std::vector<std::size_t> ids(const Model& m, const std::string& w) {
  return m.alphabet.tokenize(w, "test");
}

// y_t[0][0] at every position, exactly.
std::vector<Rational> outputs_exact(const Model& m, const std::string& w) {
  std::vector<Rational> out;
  for (const auto& y : evaluate(m, RationalField{}, ids(m, w)).outputs()) out.push_back(y(0, 0));
  return out;
}

std::vector<std::vector<std::size_t>> attended(const Model& m, const std::string& w) {
  return evaluate(m, RationalField{}, ids(m, w)).layers.back().attended;
}

FixedPoint log1(std::size_t n) {
  return FixedPoint(log_precision(1, n, std::nullopt, Rounding::nearest_even, Overflow::saturate));
}

std::string patched(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("unique-hard attention: most recent / earliest a, hand-checked", "[rnn][attention]") {
  // key 1 on a, 0 on b: the maximizers are the a's (or every position when there is none).
  const std::string key = R"([["1", "0"]])", value = R"([["3/4", "-1/2"]])";
  const Model right = attention_model("unique_hard", key, value, R"(, "tie": "rightmost")");
  const Model left = attention_model("unique_hard", key, value, R"(, "tie": "leftmost")");
  using V = std::vector<std::vector<std::size_t>>;
  // "babba": t=1 no a → all tie; t=2 a at 2; t=3,4 a at 2; t=5 a's at 2 and 5.
  CHECK(attended(right, "babba") == V{{1}, {2}, {2}, {2}, {5}});
  CHECK(attended(left, "babba") == V{{1}, {2}, {2}, {2}, {2}});
  CHECK(attended(right, "bbb") == V{{1}, {2}, {3}});
  CHECK(attended(left, "bbb") == V{{1}, {1}, {1}});
  const Rational a(3, 4), b(-1, 2);
  CHECK(outputs_exact(right, "babba") == std::vector<Rational>{b, a, a, a, a});
  CHECK(outputs_exact(right, "bbb") == std::vector<Rational>{b, b, b});
  // The default tie rule is rightmost.
  CHECK(attended(attention_model("unique_hard", key, value), "babba") == attended(right, "babba"));
}

TEST_CASE("attention: sliding window and position bias", "[rnn][attention]") {
  const std::string key = R"([["1", "0"]])", value = R"([["1", "-1"]])";
  using V = std::vector<std::vector<std::size_t>>;
  // window 2: at t, only t−1 and t are visible.
  const Model w2 =
      attention_model("unique_hard", key, value, R"(, "tie": "leftmost", "window": 2)");
  CHECK(attended(w2, "abbba") == V{{1}, {1}, {2}, {3}, {5}});
  CHECK(outputs_exact(w2, "abbba") == std::vector<Rational>{1, 1, -1, -1, 1});
  // window 1: the layer is the identity on values.
  const Model w1 = attention_model("unique_hard", key, value, R"(, "window": 1)");
  CHECK(outputs_exact(w1, "abba") == std::vector<Rational>{1, -1, -1, 1});
  // λ = −1 with equal keys: the earliest position wins even under the rightmost rule.
  const Model early = attention_model("unique_hard", R"([["1", "1"]])", value,
                                      R"(, "tie": "rightmost", "position_bias": "-1")");
  CHECK(attended(early, "bab") == V{{1}, {1}, {1}});
  // λ = 1/2: a key gap of 1 (an a) beats a distance of one position, not of three.
  // "abbb": scores at t=4: s=1: 1 + 1/2, s=4: 0 + 2 → 4; at t=2: s=1: 1.5, s=2: 1 → 1.
  const Model late =
      attention_model("unique_hard", key, value, R"(, "tie": "leftmost", "position_bias": "1/2")");
  CHECK(attended(late, "abbb") == V{{1}, {1}, {1}, {4}});
}

TEST_CASE("averaging-hard attention: the mean over every maximizer", "[rnn][attention]") {
  // Every key equal: the mean of all values so far.
  const Model all = attention_model("averaging_hard", R"([["1", "1"]])", R"([["1", "4"]])");
  CHECK(outputs_exact(all, "aab") == std::vector<Rational>{1, 1, 2});
  using V = std::vector<std::vector<std::size_t>>;
  CHECK(attended(all, "aab") == V{{1}, {1, 2}, {1, 2, 3}});
  // Keys pick the a's: the mean of their values (2 each) when some a is visible.
  const Model as = attention_model("averaging_hard", R"([["1", "0"]])", R"([["2", "5"]])");
  CHECK(outputs_exact(as, "bab") == std::vector<Rational>{5, 2, 2});
  // Log precision rounds the mean once: (1+1+0)/3 = 2/3 → 0.75 at F = 2 (n = 3).
  const Model third = attention_model("averaging_hard", R"([["0", "0"]])", R"([["1", "0"]])");
  const FixedPoint k = log1(3);
  REQUIRE(k.format().frac_bits == 2);
  auto y = evaluate(third, k, ids(third, "aab")).outputs();
  CHECK(k.to_rational(y[2](0, 0)) == Rational(3, 4));
  CHECK(outputs_exact(third, "aab")[2] == Rational(2, 3));
  // tie is a unique_hard member only.
  expect_model_error(attention_text("averaging_hard", R"([["1", "0"]])", R"([["1", "0"]])",
                                    R"(, "tie": "leftmost")"),
                     "m.json: /layers/0/tie", "applies to unique_hard attention only");
}

TEST_CASE("exact vs log precision: rounding the keys moves the argmax", "[rnn][attention]") {
  // k_a = 1/3 > k_b = 3/10 exactly; at F = 2 both round to 1/4, a tie the rightmost rule gives
  // to b.
  const Model m = attention_model("unique_hard", R"([["1/3", "3/10"]])", R"([["1", "-1"]])",
                                  R"(, "tie": "rightmost")");
  CHECK(attended(m, "ab").back() == std::vector<std::size_t>{1});
  CHECK(outputs_exact(m, "ab").back() == 1);
  const FixedPoint k = log1(2);
  REQUIRE(k.format().frac_bits == 2);
  Trace<FixedPoint> t = evaluate(m, k, ids(m, "ab"));
  CHECK(t.layers[0].attended.back() == std::vector<std::size_t>{2});  // b, the later of the tie
  CHECK(k.to_rational(t.outputs().back()(0, 0)) == -1);
  // At log:4 (F = 8) the keys stay apart and the verdicts agree again.
  const FixedPoint k4(
      log_precision(4, 2, std::nullopt, Rounding::nearest_even, Overflow::saturate));
  CHECK(k4.to_rational(evaluate(m, k4, ids(m, "ab")).outputs().back()(0, 0)) == 1);
}

TEST_CASE("scores are rounded once and saturate", "[rnn][attention]") {
  // I = F = 2: |x| ≤ 3.75.
  const Model m2 = attention_model("unique_hard", R"([["3", "7/2"]])", R"([["1", "-1"]])",
                                   R"(, "tie": "leftmost")");
  const FixedPoint k(FixedFormat{2, 2, Rounding::nearest_even, Overflow::saturate});
  // k_a = 3, k_b = 3.5: distinct and representable; scores 3, 3.5 → b wins.
  CHECK(k.to_rational(evaluate(m2, k, ids(m2, "ab")).outputs().back()(0, 0)) == -1);
  // With q = 2 the scores 6 and 7 both saturate to 3.75: the tie goes to a (leftmost).
  const Model m3 = attention_model("unique_hard", R"([["3", "7/2"]])", R"([["1", "-1"]])",
                                   R"(, "tie": "leftmost")", R"([["2", "2"]])");
  CHECK(k.to_rational(evaluate(m3, k, ids(m3, "ab")).outputs().back()(0, 0)) == 1);
  CHECK(outputs_exact(m3, "ab").back() == -1);
}

TEST_CASE("softmax: exp correctly rounded, refused in exact semantics", "[rnn][attention]") {
  CHECK(round_exp_neg(Rational(0), 10, Rounding::nearest_even) == 1024);
  CHECK(round_exp_neg(Rational(1), 10, Rounding::nearest_even) == 377);  // 376.71…
  CHECK(round_exp_neg(Rational(1), 10, Rounding::toward_zero) == 376);
  CHECK(round_exp_neg(Rational(8), 10, Rounding::nearest_even) == 0);  // 0.34 → 0
  CHECK(round_exp_neg(Rational(7), 10, Rounding::nearest_even) == 1);  // 0.93 → 1
  CHECK(round_exp_neg(Rational(7), 10, Rounding::toward_zero) == 0);
  CHECK(round_exp_neg(Rational(100), 10, Rounding::nearest_even) == 0);
  CHECK_THROWS_AS(round_exp_neg(Rational(-1), 10, Rounding::nearest_even), std::invalid_argument);
  // Against libm on random arguments away from rounding boundaries.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    const unsigned F = 1 + rng() % 20;
    const Rational a(static_cast<long>(rng() % 4000), 256);
    const double x = std::exp(-a.convert_to<double>()) * std::ldexp(1.0, static_cast<int>(F));
    if (std::abs(x - std::floor(x) - 0.5) < 1e-6 || std::abs(x - std::round(x)) < 1e-6) continue;
    INFO("a = " << to_string(a) << ", F = " << F);
    CHECK(round_exp_neg(a, F, Rounding::nearest_even) ==
          Integer(static_cast<long>(std::llround(x))));
    CHECK(round_exp_neg(a, F, Rounding::toward_zero) == Integer(static_cast<long>(std::floor(x))));
  }
  // Two positions with scores 0 (b) and 1 (a): weights e_a = 1, e_b = round(e^{−1}·4)/4 = 1/4
  // at F = 2; y = (1·v_a + (1/4)·v_b)/(5/4) = (4 + 0)/5 → round(0.8·4)/4 = 0.75.
  const Model m = attention_model("softmax", R"([["1", "0"]])", R"([["1", "0"]])");
  const FixedPoint k = log1(2);
  CHECK(k.to_rational(evaluate(m, k, ids(m, "ba")).outputs().back()(0, 0)) == Rational(3, 4));
  CHECK_THROWS_WITH(evaluate(m, RationalField{}, ids(m, "ab")),
                    Catch::Contains("layer 0: softmax attention has no exact semantics"));
}

TEST_CASE("attention needs an ordered domain: mod p is refused", "[rnn][attention]") {
  const Model m = attention_model("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])");
  CHECK_THROWS_WITH(evaluate(m, ModP(7), ids(m, "ab")),
                    Catch::Contains("layer 0: an attention layer (unique_hard) compares scores "
                                    "and needs an ordered domain; mod 7 is not ordered"));
}

TEST_CASE("residual attention outputs [z_t, a_t]", "[rnn][attention]") {
  const Model m =
      attention_model("unique_hard", R"([["1", "0"]])", R"([["3", "5"]])", R"(, "residual": true)");
  const auto& l = std::get<AttentionLayer>(m.layers[0].layer);
  CHECK(l.output_rows() == 3);
  auto y = evaluate(m, RationalField{}, ids(m, "ab")).outputs();
  Matrix<Rational> expect(3, 1);  // x_2 = e_b, then v of the a at 1
  expect(1, 0) = 1;
  expect(2, 0) = 3;
  CHECK(y[1] == expect);
}

TEST_CASE("hybrid: an LRNN counter feeds attention (the symbol before the last a)",
          "[rnn][attention][hybrid]") {
  const Model m = load_model(test::example("hybrid_counter_attention.json"));
  REQUIRE(m.layers.size() == 2);
  CHECK(layer_kind(m.layers[1].layer) == "attention/unique_hard");
  // The symbol just before the most recent a (position p ≥ 2) is b iff accepted.
  for (const auto& w : test::all_strings(2, 1, 7)) {
    std::string s;
    for (std::size_t c : w) s += c ? 'b' : 'a';
    const auto p = s.rfind('a');
    Trace<RationalField> t = evaluate(m, RationalField{}, w);
    if (p == std::string::npos || p == 0) continue;  // no a / a only at 1: other behaviour
    INFO(s);
    const bool expect = s[p - 1] == 'b';
    CHECK(*accepts(m.accept, RationalField{}, t.outputs().back()) == expect);
    CHECK(t.layers[1].attended.back() == std::vector<std::size_t>{p});  // position p−1+1
  }
  // Hand-checked trace: abab: counts 1,1,2,2; at t=4 the score 2c_s − c_s² is max (1) where
  // c_s = 1, at s = 1, 2 → rightmost 2 (a b) → y = 1.
  RunReport r = run_model(m, "abab", "input 1", parse_precision("exact"));
  CHECK(r.accepted == true);
  CHECK(r.positions[3].attended[1] == std::vector<std::size_t>{2});
  CHECK(!r.positions[3].attended[0].has_value());
  const std::string text = format_text(m, {r}, true);
  CHECK_THAT(text, Catch::Contains("A1_4 = attends 2"));
  CHECK_THAT(text, Catch::Contains("S0_4 = (4, 2, 1)"));
  CHECK_THAT(text, Catch::Contains("lrnn/general d=3 m=1 → attention/unique_hard h=2 r=1 "
                                   "tie=rightmost"));
  const auto j = to_json(m, {r}, true);
  CHECK(j["runs"][0]["positions"][3]["attended"] == nlohmann::ordered_json::parse("[null, [2]]"));
  // log precision runs too (the counter stays representable at n = 4, F = 3).
  CHECK(run_model(m, "abab", "input 1", parse_precision("log:1")).accepted == true);
}

TEST_CASE("attention model files: JSON round trip", "[rnn][attention][json]") {
  for (const char* text :
       {R"({"alphabet": ["a", "b"], "layers": [{"kind": "attention", "attention": "unique_hard",
            "tie": "leftmost", "query": {"weights": [["1/2", "1"], ["0", "2"]], "bias": ["1", "0"]},
            "key": {"weights": [["1", "0"], ["3", "-1"]]}, "value": {"weights": [["1", "2"]]},
            "position_bias": "-1/3", "window": 3, "residual": true}], "accept": {"output": [2, 0]}})",
        R"({"alphabet": ["a"], "layers": [{"kind": "attention", "attention": "softmax",
            "query": {"weights": [["1"]]}, "key": {"weights": [["1"]]},
            "value": {"weights": [["1"]]}}]})"}) {
    const Model m = parse_model(text, "m.json");
    const auto j = model_to_json(m);
    const Model back = parse_model(j.dump(), "back.json");
    CHECK(model_to_json(back) == j);
    const auto& a = std::get<AttentionLayer>(m.layers[0].layer);
    const auto& b = std::get<AttentionLayer>(back.layers[0].layer);
    CHECK(a.kind == b.kind);
    CHECK(a.tie == b.tie);
    CHECK(a.query.weights == b.query.weights);
    CHECK(a.query.bias == b.query.bias);
    CHECK(a.key.weights == b.key.weights);
    CHECK(a.value.weights == b.value.weights);
    CHECK(a.position_bias == b.position_bias);
    CHECK(a.window == b.window);
    CHECK(a.residual == b.residual);
  }
  const Model h = load_model(test::example("hybrid_counter_attention.json"));
  const auto j = model_to_json(h);
  CHECK(model_to_json(parse_model(j.dump(), "back.json")) == j);
  for (const auto& w : test::all_strings(2, 1, 5))
    CHECK(evaluate(parse_model(j.dump(), "b"), RationalField{}, w).outputs() ==
          evaluate(h, RationalField{}, w).outputs());
}

TEST_CASE("diagnostic: attention layers", "[rnn][attention][json][diagnostics]") {
  const std::string ok = attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])");
  REQUIRE_NOTHROW(parse_model(ok, "m.json"));
  expect_model_error(
      patched(ok, R"("attention": "unique_hard")", R"("attention": "hard")"),
      "m.json: /layers/0/attention",
      R"(expected an attention kind: "unique_hard", "averaging_hard" or "softmax", got the string "hard")");
  expect_model_error(patched(ok, R"("attention": "unique_hard", )", ""), "m.json: /layers/0",
                     R"(expected a member "attention")");
  expect_model_error(patched(ok, R"("kind": "attention")", R"("kind": "transformer")"),
                     "m.json: /layers/0/kind", R"(or "attention", got the string "transformer")");
  expect_model_error(
      attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])", R"(, "tie": "latest")"),
      "m.json: /layers/0/tie", R"(expected "leftmost" or "rightmost", got the string "latest")");
  expect_model_error(attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])", "",
                                    R"([["1", "0", "1"]])"),
                     "m.json: /layers/0/query/weights", "expected 1×2 matrix, got 1×3");
  expect_model_error(
      attention_text("unique_hard", R"([["1", "0"], ["0", "1"]])", R"([["1", "0"]])"),
      "m.json: /layers/0/key/weights", "expected 1×2 matrix, got 2×2");
  expect_model_error(attention_text("unique_hard", R"([["1", "0"]])", R"([])"),
                     "m.json: /layers/0/value/weights",
                     "expected a non-empty matrix with 2 columns, got an empty array");
  expect_model_error(patched(ok, R"("value": {"weights": [["1", "0"]]})",
                             R"("value": {"weights": [["1", "0"]], "bias": ["1", "2"]})"),
                     "m.json: /layers/0/value/bias",
                     "expected a vector of 1 entry, got an array of 2");
  expect_model_error(
      patched(ok, R"("value": {"weights": [["1", "0"]]})", R"("value": {"W": [["1", "0"]]})"),
      "m.json: /layers/0/value/W", R"(unknown member "W" (expected one of: weights, bias))");
  expect_model_error(patched(ok, R"(, "value": {"weights": [["1", "0"]]})", ""),
                     "m.json: /layers/0", R"(expected a member "value")");
  expect_model_error(
      attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])", R"(, "window": 0)"),
      "m.json: /layers/0/window", "expected an integer in 1..4294967296, got the number 0");
  expect_model_error(
      attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])", R"(, "residual": "yes")"),
      "m.json: /layers/0/residual", R"(expected true or false, got the string "yes")");
  expect_model_error(attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])",
                                    R"(, "position_bias": 0.5)"),
                     "m.json: /layers/0/position_bias", "expected an exact rational as a string");
  expect_model_error(
      attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])", R"(, "heads": 2)"),
      "m.json: /layers/0/heads",
      R"(unknown member "heads" (expected one of: kind, attention, tie)");
  expect_model_error(attention_text("unique_hard", R"([["1", "0"]])", R"([["1", "0"]])",
                                    R"(, "input_map": {"weights": [["1"]]})"),
                     "m.json: /layers/0/input_map", "layer 0 reads the one-hot symbols directly");
  // accept output beyond the attention output (r = 1 row).
  expect_model_error(patched(ok, "}]}", R"(}], "accept": {"output": [1, 0]}})"),
                     "m.json: /accept/output/0", "expected an integer in 0..0, got the number 1");
}

TEST_CASE("diagnostic: attention layers, check_layer shapes", "[rnn][attention][diagnostics]") {
  AttentionLayer l;
  l.features = 2;
  l.query = {Matrix<Rational>(1, 2), Matrix<Rational>(1, 1)};
  l.key = {Matrix<Rational>(1, 2), Matrix<Rational>(1, 1)};
  l.value = {Matrix<Rational>(1, 2), Matrix<Rational>(1, 1)};
  REQUIRE_NOTHROW(check_layer(l));
  AttentionLayer bad = l;
  bad.query.bias = Matrix<Rational>(2, 1);
  CHECK_THROWS_WITH(check_layer(bad), Catch::Contains("expected 1×1 column, got 2×1"));
  bad = l;
  bad.window = 0;
  CHECK_THROWS_WITH(check_layer(bad), Catch::Contains("expected a window ≥ 1"));
  bad = l;
  bad.key.weights = Matrix<Rational>(2, 2);
  bad.key.bias = Matrix<Rational>(2, 1);
  CHECK_THROWS_WITH(check_layer(bad), Catch::Contains("keys have as many rows as queries"));
}
