// WFAs: the plain evaluator on hand-checked automata, the AT&T and JSON readers (what they read
// is what the file says), and one test per reader diagnostic (where and what).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "constructions/wfa.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

std::vector<std::size_t> ids(const Wfa& a, const std::string& w) {
  return a.alphabet.tokenize(w, "test", true);
}

Rational f(const Wfa& a, const std::string& w) {
  return evaluate(a, ids(a, w));
}

std::vector<std::vector<std::size_t>> all_strings(std::size_t symbols, std::size_t n) {
  return test::all_strings(symbols, 0, n);
}

// The JSON form of a WFA (the inverse of parse_wfa_json), for round trips.
std::string to_json_text(const Wfa& a) {
  nlohmann::json j;
  j["format"] = "rnncc-wfa/1";
  j["alphabet"] = a.alphabet.symbols();
  j["states"] = a.state_names;
  auto vec = [](const std::vector<Rational>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (const Rational& x : v) out.push_back(to_string(x));
    return out;
  };
  j["initial"] = vec(a.initial);
  j["final"] = vec(a.final);
  for (std::size_t s = 0; s < a.alphabet.size(); ++s) {
    nlohmann::json m = nlohmann::json::array();
    for (std::size_t p = 0; p < a.states(); ++p) {
      std::vector<Rational> row;
      for (std::size_t q = 0; q < a.states(); ++q) row.push_back(a.transition[s](p, q));
      m.push_back(vec(row));
    }
    j["transitions"][a.alphabet.symbol(s)] = m;
  }
  return j.dump(2);
}

void expect_att_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { parse_wfa_att(text, "t.att"); }, where, what);
}

void expect_json_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { parse_wfa_json(text, "t.json"); }, where, what);
}

// A small valid JSON WFA with `from` replaced by `to` (which must occur).
std::string json_patched(const std::string& from, const std::string& to) {
  std::string text = R"({"format": "rnncc-wfa/1", "alphabet": ["a", "b"], "states": 2,
    "initial": ["1", "0"], "final": ["0", "1"],
    "transitions": {"a": [["1", "1"], ["0", "1"]], "b": [["1", "0"], ["0", "1"]]}})";
  if (from.empty()) return text;
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("wfa: hand-checked values", "[constructions][wfa]") {
  const Wfa bin = load_wfa(test::example("wfa_binary_value.att"));
  CHECK(f(bin, "") == 0);
  CHECK(f(bin, "0") == 0);
  CHECK(f(bin, "1") == 1);
  CHECK(f(bin, "1011") == 11);
  CHECK(f(bin, "0110") == 6);
  CHECK(f(bin, "11111111") == 255);

  const Wfa ab = load_wfa(test::example("wfa_count_ab.att"));
  CHECK(f(ab, "") == 0);
  CHECK(f(ab, "ab") == 1);
  CHECK(f(ab, "abab") == 2);
  CHECK(f(ab, "aabb") == 1);
  CHECK(f(ab, "ba") == 0);
  CHECK(f(ab, "abaab") == 2);

  const Wfa mod3 = load_wfa(test::example("dwfa_mod3.att"));
  for (unsigned v = 0; v < 64; ++v) {
    std::string w;
    for (int b = 5; b >= 0; --b) w += ((v >> b) & 1) ? '1' : '0';
    CHECK(f(mod3, w) == (v % 3 == 0 ? 1 : 0));
  }
  CHECK(f(mod3, "") == 1);  // ε spells 0

  // Counting a's with two states: α = e₀, M_a = [[1,1],[0,1]], M_b = I, β = e₁.
  Wfa count = parse_wfa_att("0 1 a\n0 0 a\n0 0 b\n1 1 a\n1 1 b\n1\n", "count.att");
  CHECK(f(count, "") == 0);
  CHECK(f(count, "babaa") == 3);
  CHECK(f(count, "bbb") == 0);
  // Weights multiply along a path and paths add: 1/2 · (−3) on "ab", plus 1 on "aa".
  Wfa w = parse_wfa_att("s t a 1/2\nt u b -3\ns v a\nv u a\nu\n", "w.att");
  CHECK(f(w, "ab") == Rational(-3, 2));
  CHECK(f(w, "aa") == 1);
  CHECK(f(w, "ba") == 0);
}

TEST_CASE("wfa: determinism", "[constructions][wfa]") {
  CHECK(load_wfa(test::example("dwfa_mod3.att")).deterministic());
  CHECK_FALSE(load_wfa(test::example("wfa_binary_value.att")).deterministic());  // u --1--> u, v
  CHECK_FALSE(load_wfa(test::example("wfa_count_ab.att")).deterministic());
  Wfa a = parse_wfa_att("0 1 a 2\n1 0 a -1\n", "t.att");
  CHECK(a.deterministic());
  a.initial[1] = 3;  // two initial states
  CHECK_FALSE(a.deterministic());
  a.initial = {0, 0};  // none
  CHECK_FALSE(a.deterministic());
}

TEST_CASE("wfa: evaluate rejects a symbol outside the alphabet", "[constructions][wfa]") {
  const Wfa a = parse_wfa_att("0 0 a\n", "t.att");
  CHECK_THROWS_AS(evaluate(a, {1}), std::out_of_range);
}

TEST_CASE("wfa att: states, labels, weights, comments", "[constructions][wfa][att]") {
  const std::string text =
      "# a comment line\n"
      "\n"
      "q0\tq1  b   3/4   # inline comment\n"
      "q1 q2 a\n"
      "   q2 q0 b -0.5\n"
      "q0 q1 b 1/4\n"  // a repeated arc adds: 3/4 + 1/4 = 1
      "q2 2/3\r\n"
      "q1\n"
      "# trailing comment";
  const Wfa a = parse_wfa_att(text, "t.att");
  REQUIRE(a.states() == 3);
  CHECK(a.state_names == std::vector<std::string>{"q0", "q1", "q2"});
  CHECK(a.alphabet.symbols() == std::vector<std::string>{"b", "a"});  // first appearance
  CHECK(a.initial == std::vector<Rational>{1, 0, 0});
  CHECK(a.final == std::vector<Rational>{0, 1, Rational(2, 3)});
  const std::size_t b = 0, ax = 1;
  CHECK(a.transition[b](0, 1) == 1);
  CHECK(a.transition[ax](1, 2) == 1);  // missing weight = 1
  CHECK(a.transition[b](2, 0) == Rational(-1, 2));
  CHECK(a.transition[ax](0, 1) == 0);
  CHECK(f(a, "b") == 1);
  CHECK(f(a, "ba") == Rational(2, 3));
  CHECK(f(a, "bab") == 0);                 // q0→q1→q2→q0 ends in q0, final weight 0
  CHECK(f(a, "babb") == Rational(-1, 2));  // … then q0→q1: 1·1·(−1/2)·1, final weight 1

  // The first line's source is the initial state, even on a final line.
  const Wfa g = parse_wfa_att("z 5\nx z a\n", "g.att");
  CHECK(g.state_names == std::vector<std::string>{"z", "x"});
  CHECK(g.initial == std::vector<Rational>{1, 0});
  CHECK(g.final == std::vector<Rational>{5, 0});
  // Weights are exact: decimals, signs, zero.
  const Wfa h = parse_wfa_att("0 0 x 0.125\n0 1 y +2\n1 1 y 0\n1 -7/3\n", "h.att");
  CHECK(h.transition[0](0, 0) == Rational(1, 8));
  CHECK(h.transition[1](0, 1) == 2);
  CHECK(h.transition[1](1, 1) == 0);
  CHECK(h.final[1] == Rational(-7, 3));
  // No trailing newline, Windows line ends, a byte-order mark.
  CHECK(parse_wfa_att("\xEF\xBB\xBF"
                      "0 1 a\r\n1",
                      "t.att")
            .final == std::vector<Rational>{0, 1});
}

TEST_CASE("wfa json: the same automaton as the AT&T form", "[constructions][wfa][json]") {
  const Wfa att = load_wfa(test::example("wfa_binary_value.att"));
  const Wfa js = load_wfa(test::example("wfa_binary_value.wfa.json"));
  CHECK(js.alphabet.symbols() == att.alphabet.symbols());
  CHECK(js.state_names == att.state_names);
  CHECK(js.initial == att.initial);
  CHECK(js.final == att.final);
  CHECK(js.transition == att.transition);
  for (const auto& w : all_strings(2, 6)) CHECK(evaluate(js, w) == evaluate(att, w));

  // Round trip through the JSON form for every example.
  for (const char* name : {"wfa_binary_value.att", "wfa_count_ab.att", "dwfa_mod3.att"}) {
    const Wfa a = load_wfa(test::example(name));
    const Wfa b = parse_wfa_json(to_json_text(a), "round.json");
    CHECK(b.alphabet.symbols() == a.alphabet.symbols());
    CHECK(b.state_names == a.state_names);
    CHECK(b.initial == a.initial);
    CHECK(b.final == a.final);
    CHECK(b.transition == a.transition);
  }

  // "states" as a count names them 0..n−1; "format" is optional; integers are exact.
  const Wfa n = parse_wfa_json(R"({"alphabet": ["a"], "states": 2, "initial": [1, 0],
      "final": ["0", "1/2"], "transitions": {"a": [[0, 3], [0, 0]]}, "comment": "x"})",
                               "n.json");
  CHECK(n.state_names == std::vector<std::string>{"0", "1"});
  CHECK(evaluate(n, {0}) == Rational(3, 2));
  CHECK(evaluate(n, {0, 0}) == 0);
}

TEST_CASE("diagnostic: att weights that are not rationals", "[constructions][wfa][diagnostics]") {
  expect_att_error("0 1 a 1\n0 1 b x\n", "t.att:2:7",
                   "expected a rational weight such as -3/4, got 'x'");
  expect_att_error("0 1 a 1/0\n", "t.att:1:7", "got '1/0'");
  expect_att_error("0 1 a 0.5e3\n", "t.att:1:7", "got '0.5e3'");
  // A final line's weight, with the hint that an arc needs three fields.
  expect_att_error("0 1 a\n  1 two\n", "t.att:2:5",
                   "expected a rational weight such as -3/4, got 'two' (a line of two fields is "
                   "a final state 'state weight'; an arc needs 'src dst label [weight]')");
  // Columns count code points, not bytes.
  expect_att_error("é é a y\n", "t.att:1:7", "got 'y'");
  // Tabs are one column each.
  expect_att_error("0\t1\ta\tz\n", "t.att:1:7", "got 'z'");
}

TEST_CASE("diagnostic: att lines with too many fields", "[constructions][wfa][diagnostics]") {
  expect_att_error("0 1 a\n0 1 a 1 extra\n", "t.att:2:9",
                   "expected 'src dst label [weight]' (an arc) or 'state [weight]' (a final "
                   "state), got 5 fields");
  expect_att_error("0 1 a 1 # 2 3 4\n1 0 b 1 2 3\n", "t.att:2:9", "got 6 fields");
}

TEST_CASE("diagnostic: att empty files", "[constructions][wfa][diagnostics]") {
  expect_att_error("", "t.att:1:1",
                   "expected at least one line 'src dst label [weight]' (an arc) or 'state "
                   "[weight]' (a final state), got an empty WFA file");
  expect_att_error("# only a comment\n\n   \n", "t.att:1:1", "got an empty WFA file");
  expect_att_error("# no arcs\n0 1\n1\n", "t.att:2:1",
                   "expected at least one arc 'src dst label [weight]': the alphabet is the set "
                   "of arc labels, and this file has only final-state lines");
}

TEST_CASE("diagnostic: att labels that are not symbols", "[constructions][wfa][diagnostics]") {
  expect_att_error("0 1 a\n1 0 a,b 2\n", "t.att:2:5",
                   "label 'a,b' is not a valid symbol: ',' separates symbols in input strings");
  expect_att_error("0 1 <eps>\n", "t.att:1:5",
                   "label '<eps>' is an epsilon arc; a WFA here reads exactly one symbol per arc");
}

TEST_CASE("diagnostic: att repeated final lines", "[constructions][wfa][diagnostics]") {
  expect_att_error("0 1 a\n1 2\n0 1 b\n 1\n", "t.att:4:2",
                   "state '1' already has a final weight (line 2)");
}

TEST_CASE("diagnostic: WFA files that cannot be read", "[constructions][wfa][diagnostics]") {
  test::expect_input_error([&] { load_wfa("/nonexistent/x.att"); }, "/nonexistent/x.att",
                           "cannot open the WFA file");
}

TEST_CASE("diagnostic: json WFA members", "[constructions][wfa][diagnostics]") {
  CHECK_NOTHROW(parse_wfa_json(json_patched("", ""), "t.json"));
  expect_json_error("{\n  \"alphabet\": [\"a\",\n]}", "t.json:3:1", "malformed JSON");
  expect_json_error(json_patched(R"("states": 2,)", R"("states": 2, "colour": 1,)"),
                    "t.json: /colour", "unknown member \"colour\"");
  expect_json_error(json_patched("rnncc-wfa/1", "rnncc-wfa/2"), "t.json: /format",
                    "expected \"rnncc-wfa/1\", got the string \"rnncc-wfa/2\"");
  expect_json_error(json_patched(R"("final": ["0", "1"],)", ""), "t.json: /",
                    "expected a member \"final\"");
  expect_json_error(json_patched(R"(["a", "b"])", R"(["a", "a"])"), "t.json: /alphabet/1",
                    "symbol 'a' is repeated");
  expect_json_error(json_patched(R"(["a", "b"])", R"([])"), "t.json: /alphabet",
                    "non-empty alphabet");
}

TEST_CASE("diagnostic: json WFA states", "[constructions][wfa][diagnostics]") {
  expect_json_error(json_patched(R"("states": 2)", R"("states": 0)"), "t.json: /states",
                    "expected an integer in 1..4096, got the number 0");
  expect_json_error(json_patched(R"("states": 2)", R"("states": "2")"), "t.json: /states",
                    "expected a number of states (an integer in 1..4096) or an array of state "
                    "names, got the string \"2\"");
  expect_json_error(json_patched(R"("states": 2)", R"("states": [])"), "t.json: /states",
                    "expected at least one state name");
  expect_json_error(json_patched(R"("states": 2)", R"("states": ["p", "p"])"), "t.json: /states/1",
                    "state name 'p' is repeated");
  expect_json_error(json_patched(R"("states": 2)", R"("states": ["p", ""])"), "t.json: /states/1",
                    "expected a non-empty state name");
  expect_json_error(json_patched(R"("states": 2)", R"("states": ["p", 3])"), "t.json: /states/1",
                    "expected a string, got");
  // At most 4096 names, as for the number form, refused before the names are compared (issue
  // 25: every pair was compared, 12 s for 60 000 names under the sanitizers).
  std::string names = "[";
  for (int i = 0; i < 4097; ++i) names += (i ? ", \"q" : "\"q") + std::to_string(i) + "\"";
  expect_json_error(json_patched(R"("states": 2)", "\"states\": " + names + "]"), "t.json: /states",
                    "expected at most 4096 states, got 4097");
}

TEST_CASE("diagnostic: json WFA vectors and matrices", "[constructions][wfa][diagnostics]") {
  expect_json_error(json_patched(R"("initial": ["1", "0"])", R"("initial": ["1"])"),
                    "t.json: /initial", "expected a vector of 2 entries");
  expect_json_error(json_patched(R"("final": ["0", "1"])", R"("final": ["0", "x"])"),
                    "t.json: /final/1", "expected a rational such as \"3/4\"");
  expect_json_error(json_patched(R"("final": ["0", "1"])", R"("final": ["0", 0.5])"),
                    "t.json: /final/1", "inexact floats");
  expect_json_error(json_patched(R"("b": [["1", "0"], ["0", "1"]])", R"("c": [["1"]])"),
                    "t.json: /transitions/c", "'c' is not a symbol of the alphabet");
  expect_json_error(json_patched(R"(, "b": [["1", "0"], ["0", "1"]])", ""), "t.json: /transitions",
                    "expected a 2×2 matrix for symbol 'b'");
  expect_json_error(json_patched(R"("b": [["1", "0"], ["0", "1"]])", R"("b": [["1", "0"]])"),
                    "t.json: /transitions/b", "expected 2×2 matrix, got 1×2");
  expect_json_error(
      json_patched(R"("b": [["1", "0"], ["0", "1"]])", R"("b": [["1", "0"], ["0", "1/0"]])"),
      "t.json: /transitions/b/1/1", "expected a rational");
  expect_json_error(json_patched(R"("transitions": {)", R"("transitions": [], "x": {)"),
                    "t.json: /x", "unknown member \"x\"");
  expect_json_error(json_patched(R"("transitions": {"a")", R"("transitions": 1, "y": {"a")"),
                    "t.json: /y", "unknown member");
}
