// Attention to circuits (circuits/compile/attention.hpp): the unique-hard threshold circuit
// against the reference evaluator at the same log precision (every string of length ≤ 6 for
// random models, both tie rules, with and without window and residual; random strings at
// n = 64), its constant depth at n = 4..256; hybrids LRNN → attention compiled to arithmetic
// circuits against the exact evaluator (every string of length ≤ 5, every output position);
// every diagnostic.
#include <catch2/catch.hpp>

#include "tests/circuits/string_testing.hpp"

#include <chrono>
#include <cstdio>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using json = nlohmann::json;
using Word = std::vector<std::size_t>;

namespace {

std::string small(std::mt19937_64& rng, long lo = -3, long hi = 3, long den = 4) {
  const long num = lo + static_cast<long>(rng() % static_cast<unsigned long>(hi - lo + 1));
  return to_string(Rational(num, 1 + static_cast<long>(rng() % static_cast<unsigned long>(den))));
}

json random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols) {
  json m = json::array();
  for (std::size_t i = 0; i < rows; ++i) {
    json row = json::array();
    for (std::size_t j = 0; j < cols; ++j) row.push_back(small(rng));
    m.push_back(row);
  }
  return m;
}

json random_vector(std::mt19937_64& rng, std::size_t n) {
  json v = json::array();
  for (std::size_t i = 0; i < n; ++i) v.push_back(small(rng));
  return v;
}

struct AttentionShape {
  std::string kind = "unique_hard";
  std::string tie = "rightmost";
  std::optional<std::size_t> window;
  bool residual = false;
};

json random_attention(std::mt19937_64& rng, std::size_t k, const AttentionShape& s) {
  const std::size_t h = 1 + rng() % 2, r = 1 + rng() % 2;
  json l{{"kind", "attention"}, {"attention", s.kind}};
  if (s.kind == "unique_hard") l["tie"] = s.tie;
  l["query"] = {{"weights", random_matrix(rng, h, k)}, {"bias", random_vector(rng, h)}};
  l["key"] = {{"weights", random_matrix(rng, h, k)}, {"bias", random_vector(rng, h)}};
  l["value"] = {{"weights", random_matrix(rng, r, k)}, {"bias", random_vector(rng, r)}};
  if (rng() % 2) l["position_bias"] = small(rng, -2, 2, 2);
  if (s.window) l["window"] = *s.window;
  if (s.residual) l["residual"] = true;
  return l;
}

std::size_t rows_of(const json& attention, std::size_t k) {
  return attention["value"]["weights"].size() + (attention.contains("residual") ? k : 0);
}

// A one-layer unique-hard model over |Σ| symbols.
Model random_threshold_model(std::mt19937_64& rng, std::size_t S, const AttentionShape& s) {
  json alphabet = json::array();
  for (std::size_t i = 0; i < S; ++i)
    alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
  json a = random_attention(rng, S, s);
  json m{{"alphabet", alphabet}, {"layers", json::array({a})}};
  m["accept"] = {{"mode", rng() % 3 ? "positive" : "zero"}, {"output", {rng() % rows_of(a, S), 0}}};
  return parse_model(m.dump(), "random");
}

// A hybrid: `lrnn_layers` general LRNN layers (d = 1..2, per-symbol readouts on layer 0), then
// attention.
Model random_hybrid(std::mt19937_64& rng, std::size_t lrnn_layers, const AttentionShape& s) {
  json layers = json::array();
  std::size_t prev_rows = 0;
  for (std::size_t i = 0; i < lrnn_layers; ++i) {
    const std::size_t d = 1 + rng() % 2, r = 1 + rng() % 2, k = i == 0 ? 2 : 1 + rng() % 2;
    json l{{"kind", "lrnn"}, {"family", "general"}, {"d", d}};
    l["initial_state"] = random_vector(rng, d);
    auto feature = [&] {
      return json{{"A", random_matrix(rng, d, d)}, {"B", random_vector(rng, d)}};
    };
    if (i == 0) {
      l["symbols"] = {{"a", feature()}, {"b", feature()}};
    } else {
      l["input_map"] = {{"weights", random_matrix(rng, k, prev_rows)}};
      json fs = json::array();
      for (std::size_t f = 0; f < k; ++f) fs.push_back(feature());
      l["features"] = fs;
    }
    l["readout"] = random_matrix(rng, r, d);
    layers.push_back(l);
    prev_rows = r;
  }
  const std::size_t k = lrnn_layers == 0 ? 2 : 1 + rng() % 3;
  json a = random_attention(rng, k, s);
  if (lrnn_layers > 0) a["input_map"] = {{"weights", random_matrix(rng, k, prev_rows)}};
  layers.push_back(a);
  json m{{"alphabet", {"a", "b"}}, {"layers", layers}};
  m["accept"] = {{"mode", rng() % 3 ? "positive" : "zero"}, {"output", {rng() % rows_of(a, k), 0}}};
  return parse_model(m.dump(), "random");
}

// The evaluator's y_n as two's-complement bits of the raw values (width I + F + 1), then the
// verdict: the layout of compile_unique_hard_threshold's outputs.
std::vector<bool> expected_bits(const Model& m, const FixedPoint& k, const Word& w) {
  const auto y = evaluate(m, k, w).outputs().back();
  const std::size_t width = k.format().int_bits + k.format().frac_bits + 1;
  std::vector<bool> out;
  for (std::size_t i = 0; i < y.rows(); ++i) {
    Integer u = y(i, 0).raw;
    if (u < 0) u += Integer(1) << width;
    for (std::size_t j = 0; j < width; ++j) out.push_back(((u >> j) & 1) != 0);
  }
  out.push_back(*accepts(m.accept, k, y));
  return out;
}

void check_threshold(const Model& m, std::size_t n, const std::vector<Word>& words, unsigned c) {
  AttentionCompileOptions o;
  o.precision.fixed = log_precision(c, n, std::nullopt, Rounding::nearest_even, Overflow::saturate);
  const FixedPoint k(*o.precision.fixed);
  CompiledCircuit cc = compile_unique_hard_threshold(m, n, o);
  const auto got = rnncc::testing::run_on_strings(cc.circuit, words, m.alphabet.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    INFO("model " << model_to_json(m).dump() << "\nword " << m.alphabet.join(words[i]));
    REQUIRE(got[i] == expected_bits(m, k, words[i]));
  }
}

std::vector<Word> random_words(std::mt19937_64& rng, std::size_t count, std::size_t n,
                               std::size_t S) {
  std::vector<Word> ws(count, Word(n));
  for (auto& w : ws)
    for (auto& s : w) s = rng() % S;
  return ws;
}

// Exact values of the arithmetic circuit's outputs on one word.
std::vector<Rational> run_exact(const Circuit& c, const Word& w, std::size_t S) {
  std::vector<Rational> in(c.inputs().size(), Rational(0));
  for (std::size_t t = 0; t < w.size(); ++t) in[t * S + w[t]] = 1;
  return evaluate(c, RationalField{}, std::span<const Rational>(in));
}

void check_arith(const Model& m, std::size_t n, OutputMode mode) {
  CompileOptions o;
  o.outputs = mode;
  CompiledCircuit cc = compile_attention_arith(m, n, o);
  for (const Word& w : test::all_strings(2, n, n)) {
    Trace<RationalField> t = evaluate(m, RationalField{}, w);
    std::vector<Rational> want;
    for (std::size_t p = 0; p < n; ++p)
      if (mode == OutputMode::all || p + 1 == n)
        for (const Rational& v : t.outputs()[p].data()) want.push_back(v);
    want.push_back(*accepts(m.accept, RationalField{}, t.outputs().back()) ? 1 : 0);
    INFO("model " << model_to_json(m).dump() << "\nword " << m.alphabet.join(w));
    REQUIRE(run_exact(cc.circuit, w, 2) == want);
  }
}

}  // namespace

TEST_CASE("threshold attention: most recent a, hand-checked", "[circuits][attention]") {
  const Model m = load_model(test::example("attention_most_recent_a.json"));
  AttentionCompileOptions o;
  o.precision.fixed = log_precision(1, 3, std::nullopt, Rounding::nearest_even, Overflow::saturate);
  REQUIRE(o.precision.fixed->frac_bits == 2);
  CompiledCircuit cc = compile_unique_hard_threshold(m, 3, o);
  const Circuit& c = cc.circuit;
  REQUIRE(c.inputs().size() == 6);
  REQUIRE(c.outputs().size() == 6);  // 5 bits of y (I + F + 1) and accept
  CHECK(c.output_names()[0] == "y[3][0][0].bit[0]");
  CHECK(c.output_names().back() == "accept");
  // y = 3/4 (raw 3 = 00011) when an a occurs, else −1/2 (raw −2 = 11110).
  const std::vector<Word> ws = test::all_strings(2, 3, 3);
  const auto got = rnncc::testing::run_on_strings(c, ws, 2);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const bool has_a = std::count(ws[i].begin(), ws[i].end(), 0) > 0;
    const std::vector<bool> want =
        has_a ? std::vector<bool>{1, 1, 0, 0, 0, 1} : std::vector<bool>{0, 1, 1, 1, 1, 0};
    CHECK(got[i] == want);
  }
  // Comparisons are thr gates over the AND pairs; selection a thr of fan-in n − 1.
  const CircuitStats st = compute_stats(c);
  CHECK(st.by_kind[static_cast<std::size_t>(GateKind::thr)] == 3 + 3);  // 3 pairs, 3 selections
  CHECK(st.depth == kUniqueHardThresholdDepth);
}

TEST_CASE("threshold attention equals the log-precision evaluator: exhaustive n ≤ 6",
          "[circuits][attention]") {
  std::mt19937_64 rng(2024);
  int models = 0;
  for (const char* tie : {"leftmost", "rightmost"})
    for (std::size_t window : {0, 1, 2, 3})
      for (int rep = 0; rep < 6; ++rep) {
        AttentionShape s;
        s.tie = tie;
        if (window) s.window = window;
        s.residual = rep % 3 == 2;
        const std::size_t S = 2 + rep % 2;
        const Model m = random_threshold_model(rng, S, s);
        for (std::size_t n = 1; n <= (S == 2 ? 6u : 5u); ++n)
          check_threshold(m, n, test::all_strings(S, n, n), 1 + rep % 2);
        ++models;
      }
  CHECK(models == 48);
}

TEST_CASE("threshold attention equals the evaluator on random strings at n = 64",
          "[circuits][attention]") {
  std::mt19937_64 rng(99);
  for (const char* tie : {"leftmost", "rightmost"})
    for (std::size_t window : {0, 5}) {
      AttentionShape s;
      s.tie = tie;
      if (window) s.window = window;
      const Model m = random_threshold_model(rng, 3, s);
      check_threshold(m, 64, random_words(rng, 128, 64, 3), 1);
    }
}

TEST_CASE("threshold attention: constant depth", "[circuits][attention][depth]") {
  const Model m = load_model(test::example("attention_most_recent_a.json"));
  for (std::size_t n : {4, 16, 64, 256}) {
    AttentionCompileOptions o;
    o.precision.fixed =
        log_precision(1, n, std::nullopt, Rounding::nearest_even, Overflow::saturate);
    CompiledCircuit cc = compile_unique_hard_threshold(m, n, o);
    const CircuitStats st = compute_stats(cc.circuit);
    INFO("n = " << n << ", size " << st.size << ", fan-in-2 depth " << st.bounded_fanin_depth);
    CHECK(st.depth == kUniqueHardThresholdDepth);
    CHECK(st.size <= estimate_unique_hard_threshold_gates(m, n, o));
    CHECK(st.by_kind[static_cast<std::size_t>(GateKind::thr)] == n * (n - 1) / 2 + n);
  }
}

TEST_CASE("diagnostic: threshold attention", "[circuits][attention][diagnostics]") {
  const Model m = load_model(test::example("attention_most_recent_a.json"));
  AttentionCompileOptions o;
  o.precision.fixed = log_precision(1, 8, std::nullopt, Rounding::nearest_even, Overflow::saturate);
  CHECK_THROWS_WITH(compile_unique_hard_threshold(m, 0, o),
                    Catch::Contains("expected a length n ≥ 1"));
  o.budget.max_gates = 100;
  CHECK_THROWS_WITH(compile_unique_hard_threshold(m, 64, o),
                    Catch::Contains("the circuit would have about") &&
                        Catch::Contains("more than the limit of 100"));
  o.budget.max_gates = std::size_t{1} << 28;
  const Model hybrid = load_model(test::example("hybrid_counter_attention.json"));
  CHECK_THROWS_WITH(compile_unique_hard_threshold(hybrid, 4, o),
                    Catch::Contains("compiles a single attention layer"));
  Model avg = m;
  std::get<AttentionLayer>(avg.layers[0].layer).kind = AttentionKind::averaging_hard;
  CHECK_THROWS_WITH(compile_unique_hard_threshold(avg, 4, o),
                    Catch::Contains("is attention/averaging_hard; the threshold route compiles "
                                    "unique_hard attention only"));
  // Scores of 200 at F = I = 24: raw 200·2^24 > 2^31.
  Model big = m;
  std::get<AttentionLayer>(big.layers[0].layer).key.weights(0, 0) = 200;
  o.precision.fixed = FixedFormat{24, 24, Rounding::nearest_even, Overflow::saturate};
  CHECK_THROWS_WITH(compile_unique_hard_threshold(big, 4, o),
                    Catch::Contains("exceeds the 32-bit weights of thr gates"));
}

TEST_CASE("hybrid arithmetic circuit: the example, hand-checked", "[circuits][attention][hybrid]") {
  const Model m = load_model(test::example("hybrid_counter_attention.json"));
  for (std::size_t n = 1; n <= 6; ++n) check_arith(m, n, OutputMode::all);
  CompileOptions o;
  CompiledCircuit cc = compile_attention_arith(m, 5, o);
  // "babab": last a at 4, the symbol before it is b → y = 1, accepted.
  CHECK(run_exact(cc.circuit, {1, 0, 1, 0, 1}, 2) == std::vector<Rational>{1, 1});
  CHECK(run_exact(cc.circuit, {1, 0, 0, 1, 1}, 2) == std::vector<Rational>{0, 0});
}

TEST_CASE("hybrid arithmetic circuit equals the exact evaluator: random hybrids, n ≤ 5",
          "[circuits][attention][hybrid]") {
  std::mt19937_64 rng(31337);
  for (const char* kind : {"unique_hard", "averaging_hard"})
    for (const char* tie : {"leftmost", "rightmost"})
      for (std::size_t lrnn : {0, 1, 2})
        for (int rep = 0; rep < 3; ++rep) {
          if (std::string(kind) == "averaging_hard" && std::string(tie) == "leftmost") continue;
          AttentionShape s;
          s.kind = kind;
          s.tie = tie;
          if (rep == 1) s.window = 2;
          s.residual = rep == 2;
          const Model m = random_hybrid(rng, lrnn, s);
          for (std::size_t n = 1; n <= 5; ++n)
            check_arith(m, n, n % 2 ? OutputMode::all : OutputMode::last);
        }
}

TEST_CASE("hybrid arithmetic circuit: ties decided exactly", "[circuits][attention][hybrid]") {
  // Equal keys everywhere: every position ties; the rule alone decides.
  for (const char* tie : {"leftmost", "rightmost"}) {
    const std::string text =
        std::string(R"({"alphabet": ["a", "b"], "layers": [{"kind": "attention",
        "attention": "unique_hard", "tie": ")") +
        tie +
        R"(", "query": {"weights": [["1", "1"]]}, "key": {"weights": [["2", "2"]]},
        "value": {"weights": [["1", "-1"]]}}]})";
    const Model m = parse_model(text, "m.json");
    CompiledCircuit cc = compile_attention_arith(m, 3, {});
    // "abb": leftmost → a (1), rightmost → b (−1).
    const Rational want = std::string(tie) == "leftmost" ? 1 : -1;
    CHECK(run_exact(cc.circuit, {0, 1, 1}, 2)[0] == want);
    check_arith(m, 4, OutputMode::all);
  }
}

TEST_CASE("hybrid arithmetic circuit: depth", "[circuits][attention][hybrid][depth]") {
  const Model m = load_model(test::example("hybrid_counter_attention.json"));
  std::size_t prev = 0;
  for (std::size_t n : {2, 4, 8, 16, 32}) {
    CompiledCircuit cc = compile_attention_arith(m, n, {});
    const CircuitStats st = compute_stats(cc.circuit);
    INFO("n = " << n << ": size " << st.size << ", depth " << st.depth << ", fan-in-2 "
                << st.bounded_fanin_depth);
    CHECK(st.depth >= prev);
    CHECK(st.depth <= 2 * 2 * static_cast<std::size_t>(std::ceil(std::log2(n))) + 24);
    prev = st.depth;
  }
}

TEST_CASE("diagnostic: hybrid arithmetic circuit", "[circuits][attention][diagnostics]") {
  const Model m = load_model(test::example("hybrid_counter_attention.json"));
  CHECK_THROWS_WITH(compile_attention_arith(m, 0, {}), Catch::Contains("expected a length n ≥ 1"));
  CompileOptions small;
  small.budget.max_gates = 50;
  CHECK_THROWS_WITH(compile_attention_arith(m, 8, small),
                    Catch::Contains("more than the limit of 50"));
  Model lrnn_only = m;
  lrnn_only.layers.pop_back();
  CHECK_THROWS_WITH(compile_attention_arith(lrnn_only, 4, {}),
                    Catch::Contains("layer 0: is lrnn/general; compile_attention_arith needs an "
                                    "attention layer last"));
  Model two = m;
  two.layers.push_back(m.layers.back());
  CHECK_THROWS_WITH(compile_attention_arith(two, 4, {}),
                    Catch::Contains("layer 1: is attention/unique_hard; compile_attention_arith "
                                    "compiles LRNN layers followed by one attention layer"));
  Model soft = m;
  std::get<AttentionLayer>(soft.layers.back().layer).kind = AttentionKind::softmax;
  CHECK_THROWS_WITH(compile_attention_arith(soft, 4, {}),
                    Catch::Contains("is attention/softmax, which has no exact semantics"));
}
