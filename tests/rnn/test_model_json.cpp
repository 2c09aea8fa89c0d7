// The model-file reader: one test per diagnostic (file, JSON path, what was expected), and
// positive checks that what it reads is what the file says.
#include <catch2/catch.hpp>

#include "tests/rnn/model_testing.hpp"

#include "algebra/error.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using rnncc::testing::expect_model_error;

namespace {

// A one-layer general model over {a, b}, d = 2; `layer_extra`/`a_params` patch pieces in.
std::string model_text(const std::string& a_params = R"("A": [["1","0"],["0","1"]])",
                       const std::string& layer_extra = "", const std::string& top_extra = "") {
  return R"({"alphabet": ["a", "b"], )" + top_extra +
         R"("layers": [{"kind": "lrnn", "family": "general", "d": 2, )" + layer_extra +
         R"("symbols": {"a": {)" + a_params + R"(}, "b": {"A": [["1","0"],["0","1"]]}},
         "readout": [["1", "0"]]}]})";
}

// `text` with the first `from` replaced by `to` (which must occur).
std::string patched(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("model files: well-formed files read as written", "[rnn][json]") {
  Model m =
      parse_model(model_text(R"("A": [["2","1/2"],["0","-0.25"]], "B": ["1", "7"])"), "m.json");
  REQUIRE(m.layers.size() == 1);
  const auto& l = std::get<LrnnLayer>(m.layers[0].layer);
  CHECK(l.A[0](0, 1) == Rational(1, 2));
  CHECK(l.A[0](1, 1) == Rational(-1, 4));
  CHECK(l.B[0](1, 0) == 7);
  CHECK(l.B[1](0, 0) == 0);  // B defaults to zero
  CHECK(l.initial_state(0, 0) == 0);
  CHECK(m.accept.mode == Acceptance::Mode::positive);
  // JSON integers are exact rationals too
  Model n = parse_model(model_text(R"("A": [[2, -3],[0, 1]])"), "m.json");
  CHECK(std::get<LrnnLayer>(n.layers[0].layer).A[0](0, 1) == -3);
}

TEST_CASE("model files: every example loads", "[rnn][json]") {
  for (const char* name :
       {"parity_deltanet.json", "binary_value_wfa.json", "mamba_diagonal.json",
        "s5_word_problem.json", "gated_deltanet.json", "rwkv7_overwrite.json", "relu_counter.json"})
    CHECK_NOTHROW(load_model(test::example(name)));
}

TEST_CASE("diagnostic: malformed JSON names line and column", "[rnn][json][diagnostics]") {
  expect_model_error("{\n  \"alphabet\": [\"a\",\n  ]\n}", "m.json:3:3", "malformed JSON");
  expect_model_error("", "m.json:1:1", "malformed JSON");
  CHECK(line_column("ab\ncd", 4) == std::pair<std::size_t, std::size_t>{2, 2});
}

TEST_CASE("diagnostic: missing, unknown and mistyped members", "[rnn][json][diagnostics]") {
  expect_model_error(R"({"layers": []})", "m.json: /", "expected a member \"alphabet\"");
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]])", "", R"("colour": "red", )"),
                     "m.json: /colour", "unknown member \"colour\"");
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]], "Q": 1)"),
                     "m.json: /layers/0/symbols/a/Q", "unknown member");
  expect_model_error(R"({"alphabet": "ab", "layers": []})", "m.json: /alphabet",
                     "expected an array, got the string");
  expect_model_error(R"({"alphabet": ["a"], "layers": []})", "m.json: /layers",
                     "non-empty array of layers");
  expect_model_error(R"({"format": "rnncc-model/9", "alphabet": ["a"], "layers": []})",
                     "m.json: /format", "rnncc-model/1");
}

TEST_CASE("diagnostic: alphabets", "[rnn][json][diagnostics]") {
  expect_model_error(R"({"alphabet": [], "layers": []})", "m.json: /alphabet",
                     "non-empty alphabet");
  expect_model_error(R"({"alphabet": ["a", "a"], "layers": []})", "m.json: /alphabet/1",
                     "repeated");
  expect_model_error(R"({"alphabet": ["a", ""], "layers": []})", "m.json: /alphabet/1",
                     "non-empty symbol");
  expect_model_error(R"({"alphabet": ["a b"], "layers": []})", "m.json: /alphabet/0", "whitespace");
  expect_model_error(
      patched(model_text(R"("A": [["1","0"],["0","1"]])", ""), R"("b": {"A")", R"("c": {"A")"),
      "m.json: /layers/0/symbols/c", "'c' is not a symbol of the alphabet");
  expect_model_error(patched(model_text(), R"(, "b": {"A": [["1","0"],["0","1"]]})", ""),
                     "m.json: /layers/0/symbols", "expected parameters for symbol 'b'");
}

TEST_CASE("diagnostic: rationals", "[rnn][json][diagnostics]") {
  expect_model_error(model_text(R"("A": [["1","x"],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A/0/1", "expected a rational such as \"3/4\"");
  expect_model_error(model_text(R"("A": [["1","1/0"],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A/0/1", "expected a rational");
  expect_model_error(model_text(R"("A": [["1",0.1],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A/0/1",
                     "inexact floats: write the value as a string, e.g. \"0.1\"");
  expect_model_error(model_text(R"("A": [["1",1e20],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A/0/1", "such as \"3/4\"");
  expect_model_error(model_text(R"("A": [["1",true],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A/0/1", "got true");
}

TEST_CASE("diagnostic: dimensions", "[rnn][json][diagnostics]") {
  expect_model_error(model_text(R"("A": ["1","0","0","1"])"), "m.json: /layers/0/symbols/a/A",
                     "expected 2×2 matrix (an array of rows), got a flat array of 4");
  expect_model_error(model_text(R"("A": [["1","0"],["0"]])"), "m.json: /layers/0/symbols/a/A",
                     "expected 2×2 matrix, got 2×1");
  expect_model_error(model_text(R"("A": [["1","0","0"],["0","1","0"],["0","0","1"]])"),
                     "m.json: /layers/0/symbols/a/A", "expected 2×2 matrix, got 3×3");
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]], "B": ["1"])"),
                     "m.json: /layers/0/symbols/a/B", "expected a vector of 2 entries");
  expect_model_error(
      model_text(R"("A": [["1","0"],["0","1"]])", R"("initial_state": ["1", "2", "3"], )"),
      "m.json: /layers/0/initial_state", "vector of 2 entries");
  expect_model_error(patched(model_text(), R"("readout": [["1", "0"]])", R"("readout": [["1"]])"),
                     "m.json: /layers/0/readout", "expected 1×2 matrix, got 1×1");
  expect_model_error(patched(model_text(), R"("d": 2)", R"("d": 0)"), "m.json: /layers/0/d",
                     "an integer in 1..4096");
}

TEST_CASE("diagnostic: layer kinds and families", "[rnn][json][diagnostics]") {
  expect_model_error(patched(model_text(), R"("family": "general")", R"("family": "mamba3")"),
                     "m.json: /layers/0/family", "expected a family");
  expect_model_error(patched(model_text(), R"("kind": "lrnn")", R"("kind": "gru")"),
                     "m.json: /layers/0/kind", "expected a layer kind");
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]])", R"x("beta_range": "(0,1)", )x"),
                     "m.json: /layers/0/beta_range", "applies to deltanet");
  const std::string delta =
      R"x({"alphabet": ["0", "1"], "layers": [{"kind": "lrnn", "family": "deltanet", "d": 1,
      "beta_range": "(0,1)", "symbols": {"0": {"beta": "1/2", "k": ["1"], "v": ["0"]},
                                         "1": {"beta": "2", "k": ["1"], "v": ["0"]}}, "readout": [["1"]]}]})x";
  expect_model_error(delta, "m.json: /layers/0/symbols/1/beta",
                     "β = 2 is outside the layer's beta_range (0,1)");
  std::string bad_range = delta;
  bad_range.replace(bad_range.find("(0,1)"), 5, "[0,1]");
  expect_model_error(bad_range, "m.json: /layers/0/beta_range", "one of \"any\"");
  const std::string pd = R"({"alphabet": ["a"], "layers": [{"kind": "lrnn", "family": "pd", "d": 2,
      "symbols": {"a": {"P": [["1", "0"], ["1", "0"]]}}, "readout": [["1", "0"]]}]})";
  expect_model_error(pd, "m.json: /layers/0/symbols/a/P", "column 0 has 2 nonzero entries");
  std::string pd_entry = pd;
  pd_entry.replace(pd_entry.find(R"([["1", "0"], ["1", "0"]])"), 24, R"([["2", "0"], ["0", "1"]])");
  expect_model_error(pd_entry, "m.json: /layers/0/symbols/a/P", "entry [0][0] is 2");
  std::string perm = pd;
  perm.replace(perm.find(R"([["1", "0"], ["1", "0"]])"), 24, "[0, 0]");
  perm.replace(perm.find(R"("d": 2,)"), 7, R"("d": 2, "P_kind": "permutation",)");
  expect_model_error(perm, "m.json: /layers/0/symbols/a/P", "expected a permutation matrix");
  std::string range = pd;
  range.replace(range.find(R"([["1", "0"], ["1", "0"]])"), 24, "[0, 2]");
  expect_model_error(range, "m.json: /layers/0/symbols/a/P/1", "an integer in 0..1");
}

TEST_CASE("diagnostic: stacks and acceptance", "[rnn][json][diagnostics]") {
  const std::string two = R"({"alphabet": ["a", "b"], "layers": [
      {"kind": "lrnn", "family": "general", "d": 1, "symbols": {"a": {"A": [["1"]]}, "b": {"A": [["2"]]}}, "readout": [["1"]]},
      {"kind": "elman", "activation": "relu", "d": 1, INPUT "W": [["1"]], "U": [["1", "1"]], "readout": [["1"]]}]})";
  auto with = [&](const std::string& input) {
    std::string s = two;
    return s.replace(s.find("INPUT"), 5, input);
  };
  CHECK_NOTHROW(parse_model(with(R"("input_map": {"weights": [["1"], ["-1"]]},)"), "m.json"));
  expect_model_error(with(""), "m.json: /layers/1", "expected a member \"input_map\"");
  expect_model_error(with(R"("input_map": {"weights": [["1", "2"]]},)"),
                     "m.json: /layers/1/input_map/weights", "expected 1×1 matrix, got 1×2");
  expect_model_error(with(R"("input_map": {"weights": [["1"]]},)"), "m.json: /layers/1/U",
                     "expected 1×1 matrix, got 1×2");
  expect_model_error(
      model_text(R"("A": [["1","0"],["0","1"]])", R"("input_map": {"weights": [["1"]]}, )"),
      "m.json: /layers/0/input_map", "takes no \"input_map\"");
  expect_model_error(
      model_text(R"("A": [["1","0"],["0","1"]])", "", R"("accept": {"mode": "negative"}, )"),
      "m.json: /accept/mode", "\"positive\" or \"zero\"");
  expect_model_error(
      model_text(R"("A": [["1","0"],["0","1"]])", "", R"("accept": {"output": [1, 0]}, )"),
      "m.json: /accept/output/0", "an integer in 0..0");
  expect_model_error(
      R"({"alphabet": ["a"], "layers": [{"kind": "elman", "activation": "tanh", "d": 1}]})",
      "m.json: /layers/0/activation", "\"relu\" or \"sign\"");
  expect_model_error(
      model_text(R"("A": [["1","0"],["0","1"]])", "", R"("accept": {"output": [0]}, )"),
      "m.json: /accept/output", "[row, column]");
  expect_model_error(
      R"({"alphabet": ["a"], "layers": [{"kind": "lstm", "d": 1, "gates": {"f": {}, "i": {}, "o": {}}}]})",
      "m.json: /layers/0/gates/f", "expected a member \"W\"");
  const std::string lstm =
      R"({"alphabet": ["a"], "layers": [{"kind": "lstm", "d": 1, "gates": {GATES},
      "readout": [["1"]]}]})";
  const std::string gate = R"({"W": [["1"]], "U": [["1"]]})";
  expect_model_error(
      patched(lstm, "GATES", "\"f\": " + gate + ", \"i\": " + gate + ", \"o\": " + gate),
      "m.json: /layers/0/gates", "expected a member \"g\"");
  expect_model_error(patched(lstm, "GATES",
                             "\"f\": " + gate + ", \"i\": " + gate + ", \"o\": " + gate +
                                 ", \"g\": " + R"({"W": [["1"]], "U": [["1", "2"]]})"),
                     "m.json: /layers/0/gates/g/U", "expected 1×1 matrix, got 1×2");
  CHECK_NOTHROW(parse_model(
      patched(lstm, "GATES",
              "\"f\": " + gate + ", \"i\": " + gate + ", \"o\": " + gate + ", \"g\": " + gate),
      "m.json"));
}

TEST_CASE("diagnostic: members in the wrong place", "[rnn][json][diagnostics]") {
  expect_model_error(patched(model_text(), R"("symbols")", R"("features": [], "symbols")"),
                     "m.json: /layers/0/features", "layer 0 reads symbols");
  const std::string two = R"({"alphabet": ["a"], "layers": [
      {"kind": "lrnn", "family": "general", "d": 1, "symbols": {"a": {"A": [["1"]]}}, "readout": [["1"]]},
      {"kind": "lrnn", "family": "general", "d": 1, "input_map": {"weights": [["1"]]}, PARAMS, "readout": [["1"]]}]})";
  expect_model_error(patched(two, "PARAMS", R"("symbols": {"a": {"A": [["1"]]}})"),
                     "m.json: /layers/1/symbols", "use \"features\"");
  expect_model_error(patched(two, "PARAMS", R"("features": [{"A": [["1"]]}, {"A": [["1"]]}])"),
                     "m.json: /layers/1/features", "an array of 1 parameter objects");
  CHECK_NOTHROW(
      parse_model(patched(two, "PARAMS", R"("features": [{"A": [["1"]], "B": ["1"]}])"), "m.json"));
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]], "C": [["1","1"]])"),
                     "m.json: /layers/0/symbols/b",
                     "per-symbol readouts are given for all symbols or for none");
  expect_model_error(patched(model_text(), R"("d": 2,)", R"("d": 2, "P_kind": "permutation",)"),
                     "m.json: /layers/0/P_kind", "applies to pd layers only");
  expect_model_error(patched(model_text(), R"("d": 2,)", R"("d": 2, "decay": ["1", "1"],)"),
                     "m.json: /layers/0/decay", "applies to s4 layers only");
  const std::string pd =
      R"({"alphabet": ["a"], "layers": [{"kind": "lrnn", "family": "pd", "d": 2, "P_kind": "perm",
      "symbols": {"a": {"P": [0, 1]}}, "readout": [["1", "0"]]}]})";
  expect_model_error(pd, "m.json: /layers/0/P_kind", "\"permutation\" or \"column_one_hot\"");
  CHECK_NOTHROW(parse_model(patched(pd, R"(, "P_kind": "perm")", ""), "m.json"));
}

TEST_CASE("diagnostic: unreadable file", "[rnn][json][diagnostics]") {
  CHECK_THROWS_WITH(load_model("/nonexistent/m.json"),
                    Catch::Contains("/nonexistent/m.json: cannot open"));
  CHECK_THROWS_WITH(load_model(RNNCC_SOURCE_DIR), Catch::Contains("is a directory"));
}

// The "generation" member (the rule of rnncc run --generate) is read with the model, from the
// same parse: the model is parse_model's, the stop tokens are looked up in its alphabet, and
// each malformed member is refused with its JSON path. The model's own errors come first (a
// bad layer and a bad generation member: the layer is named), and parse_model ignores the
// member, malformed or not, as every command but run does.
TEST_CASE("model files: the generation member is read in the same parse as the model",
          "[rnn][json][generation]") {
  const std::string with_stop =
      patched(model_text(), R"("layers")", R"("generation": {"stop": ["b"]}, "layers")");
  const GenerativeModel g = parse_generative_model(with_stop, "m.json");
  REQUIRE(g.rule);
  CHECK(g.rule->stop == std::vector<std::size_t>{1});
  CHECK(g.rule->stops_on(1));
  CHECK_FALSE(g.rule->stops_on(0));
  CHECK(model_to_json(g.model) == model_to_json(parse_model(with_stop, "m.json")));
  CHECK(generative_model_to_json(g.model, *g.rule)["generation"] ==
        nlohmann::ordered_json::parse(R"({"rule": "argmax", "stop": ["b"]})"));
  const GenerativeModel none = parse_generative_model(model_text(), "m.json");
  CHECK_FALSE(none.rule);
  CHECK(parse_generative_model(
            patched(model_text(), R"("layers")", R"("generation": {"rule": "argmax"}, "layers")"),
            "m.json")
            .rule->stop.empty());

  auto generation = [&](const std::string& member) {
    return patched(model_text(), R"("layers")", R"("generation": )" + member + R"(, "layers")");
  };
  auto refused = [&](const std::string& text, const std::string& where, const std::string& what) {
    test::expect_input_error([&] { parse_generative_model(text, "m.json"); }, where, what);
    CHECK_NOTHROW(parse_model(text, "m.json"));  // the model alone does not read it
  };
  refused(generation("3"), "m.json: /generation", "expected an object, got the number 3");
  refused(generation(R"({"stop": [1]})"), "m.json: /generation/stop/0",
          "expected a string, got the number 1");
  refused(generation(R"({"stop": ["a", "c"]})"), "m.json: /generation/stop/1",
          "'c' is not a symbol of the alphabet");
  refused(generation(R"({"stop": "a"})"), "m.json: /generation/stop",
          "expected an array of alphabet symbols, got the string \"a\"");
  refused(generation(R"({"rule": "sample"})"), "m.json: /generation/rule",
          "expected \"argmax\" (the only generation rule)");
  refused(generation(R"({"rule": "argmax", "temperature": 1})"), "m.json: /generation/temperature",
          "unknown member \"temperature\" (expected one of: rule, stop)");
  // A malformed layer beside a malformed generation member: the layer is reported.
  test::expect_input_error(
      [&] {
        parse_generative_model(patched(generation("3"), R"("d": 2,)", R"("d": 0,)"), "m.json");
      },
      "m.json: /layers/0/d", "");
  // Malformed JSON: located in the text as given.
  test::expect_input_error([&] { parse_generative_model("{\n  \"generation\": ,}", "m.json"); },
                           "m.json:2:17", "");
}

TEST_CASE("diagnostic: duplicate members are named by pointer", "[rnn][json][diagnostics]") {
  expect_model_error(model_text(R"("A": [["1","0"],["0","1"]], "A": [["2","0"],["0","1"]])"),
                     "m.json: /layers/0/symbols/a/A", "duplicate member \"A\"");
  expect_model_error(R"({"alphabet": ["a"], "alphabet": ["b"]})", "m.json: /alphabet",
                     "duplicate member");
  // arrays advance the pointer's index
  expect_model_error(R"({"layers": [{}, {"kind": "lrnn", "kind": "elman"}]})",
                     "m.json: /layers/1/kind", "duplicate");
}

#include "algebra/exact.hpp"
#include "rnn/evaluate.hpp"
#include "tests/random_models.hpp"

TEST_CASE("model files round-trip: model_to_json then parse_model rebuilds every family",
          "[rnn][json]") {
  std::mt19937_64 rng(8);
  for (Family family : test::all_families)
    for (int trial = 0; trial < 3; ++trial) {
      Model m =
          test::single_layer_model(test::random_layer(rng, family, 1 + trial, 1 + trial % 2, 2), 2);
      m.layers.push_back({InputMap{test::random_matrix(rng, 3, 2 * (1 + trial % 2)),
                                   test::random_matrix(rng, 3, 1)},
                          test::random_layer(rng, Family::gla, 2, 1, 3)});
      const std::string text = model_to_json(m).dump(2);
      Model back = parse_model(text, "round.json");
      INFO(to_string(family) << "\n" << text);
      REQUIRE(back.layers.size() == 2);
      const auto& a = std::get<LrnnLayer>(m.layers[0].layer);
      const auto& b = std::get<LrnnLayer>(back.layers[0].layer);
      CHECK(b.family == a.family);
      CHECK(b.A == a.A);
      CHECK(b.B == a.B);
      CHECK(b.readout == a.readout);
      CHECK(b.readout_feature == a.readout_feature);
      CHECK(b.initial_state == a.initial_state);
      CHECK(std::get<LrnnLayer>(back.layers[1].layer).A ==
            std::get<LrnnLayer>(m.layers[1].layer).A);
      CHECK(back.layers[1].input->weights == m.layers[1].input->weights);
      CHECK(model_to_json(back).dump(2) == text);
    }
  for (const char* name : {"relu_counter.json", "parity_deltanet.json", "s5_word_problem.json"}) {
    Model m = load_model(test::example(name));
    Model back = parse_model(model_to_json(m).dump(), name);
    RationalField Q;
    auto w = m.alphabet.tokenize(
        m.alphabet.single_characters()
            ? std::string(m.alphabet.symbol(0)) + m.alphabet.symbol(1) + m.alphabet.symbol(0)
            : m.alphabet.symbol(0),
        "w");
    CHECK(evaluate(back, Q, w).outputs() == evaluate(m, Q, w).outputs());
  }
}
