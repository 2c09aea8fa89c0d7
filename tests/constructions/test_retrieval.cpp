// Selective copying and associative recall with decoding by a diagonal-LRNN + sliding-window
// attention hybrid [CDMS26 Thms 4.3, 4.6]: verified exhaustively and on random long strings, the
// compiled hybrid circuit agrees (three-way), the log-precision run agrees, and each ablation —
// a window one too small, the LRNN without the attention layer, the wrong tie rule — is caught
// with its minimal counterexample.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

#include <random>
#include "rnn/model_json.hpp"

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/retrieval.hpp"
#include "rnn/evaluate.hpp"
#include "tests/constructions/claims.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

std::vector<std::size_t> ids(const Construction& c, const std::string& text) {
  return c.target.alphabet.tokenize(text, "test");
}

// The model's output at the last position, and the position the attention picked there.
std::pair<Rational, std::size_t> run(const Construction& c, const std::string& text) {
  const auto trace = evaluate(c.model, RationalField{}, c.encode(ids(c, text)));
  const auto& att = trace.layers.back().attended;
  return {trace.outputs().back()(c.out_row, c.out_col), att.empty() ? 0 : att.back().front()};
}

VerifyOptions exhaustive(std::size_t length, std::size_t random, std::size_t max_length) {
  VerifyOptions o;
  o.exhaustive = length;
  o.random = random;
  o.max_random_length = max_length;
  o.seed = 7;
  return o;
}

// Three-way on every string of length 1..n in f's domain: f, the reference evaluator and the
// arithmetic circuit compile_attention_arith makes of the hybrid (verify's own three-way method
// compiles LRNN-only models, so the tests do it here). Returns the strings compared.
std::size_t three_way(const Construction& c, std::size_t max_n) {
  const std::size_t S = c.model.alphabet.size();
  std::size_t compared = 0;
  for (std::size_t n = 1; n <= max_n; ++n) {
    CompileOptions co;
    co.acceptance = false;
    const Circuit circ = compile_attention_arith(c.model, n, co).circuit;
    std::vector<std::size_t> w(n, 0);
    for (;;) {
      if (c.target.promise(w)) {
        std::vector<Rational> in(n * S, Rational(0));
        for (std::size_t t = 0; t < n; ++t) in[t * S + w[t]] = 1;
        const auto out = evaluate(circ, RationalField{}, std::span<const Rational>(in));
        INFO(c.target.alphabet.join(w));
        REQUIRE(out.at(0) == c.target.value(w));
        ++compared;
      }
      std::size_t i = n;
      while (i > 0 && ++w[i - 1] == S) w[--i] = 0;
      if (i == 0) break;
    }
  }
  return compared;
}

// Random strings in f's domain of length n, at log precision log:c with overflow = error.
void check_log_precision(const Construction& c, unsigned precision, std::size_t n,
                         std::size_t count) {
  std::mt19937_64 rng(11);
  const FixedPoint fx(
      log_precision(precision, n, std::nullopt, Rounding::nearest_even, Overflow::error));
  std::size_t done = 0;
  while (done < count) {
    std::vector<std::size_t> w(n);
    for (auto& s : w) s = rng() % c.target.alphabet.size();
    if (!c.target.promise(w)) continue;
    const auto trace = evaluate(c.model, fx, c.encode(w));
    INFO(c.target.alphabet.join(w));
    REQUIRE(fx.to_rational(trace.outputs().back()(c.out_row, c.out_col)) == c.target.value(w));
    ++done;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Selective copying.

TEST_CASE("selective copy: the hybrid copies x_{L+1-n} (exhaustive + random long strings)",
          "[constructions][retrieval]") {
  const Construction c = selective_copy({});
  VerifyReport r = verify(c, exhaustive(5, 200, 40));
  INFO(format_text(r));
  CHECK(r.holds);
  CHECK(r.checked["exhaustive"] > 2000);
  CHECK(r.checked["random"] > 150);
  CHECK(r.checked["skipped (outside the promise)"] > 0);
  test::check_all_claims(c);
  CHECK(test::claim(c, "state dimension").measured == "7");
  CHECK(test::claim(c, "attention window").measured == "3");
  // other alphabets: one data symbol / distance 1 (window 1), and K = 3, N = 5
  for (auto [K, N] : {std::pair<std::size_t, std::size_t>{1, 1}, {3, 2}, {3, 5}}) {
    SelectiveCopyOptions o;
    o.data_symbols = K;
    o.max_distance = N;
    const Construction ck = selective_copy(o);
    VerifyReport rk = verify(ck, exhaustive(4, 50, 30));
    INFO(format_text(rk));
    CHECK(rk.holds);
  }
}

TEST_CASE("selective copy: hand-checked runs", "[constructions][retrieval]") {
  const Construction c = selective_copy({});  // a=0 b=1 "1"=2 "2"=3 "3"=4
  CHECK(c.target.value(ids(c, "ab2")) == 1);  // n = 2: w_2 = b
  CHECK(run(c, "ab2") == std::pair<Rational, std::size_t>{1, 2});
  CHECK(run(c, "a1") == std::pair<Rational, std::size_t>{2, 2});     // n = 1: the token "1" itself
  CHECK(run(c, "ba3ab") == std::pair<Rational, std::size_t>{4, 3});  // n = 3 from t = 5: w_3 = "3"
  CHECK(run(c, "b3aab") == std::pair<Rational, std::size_t>{0, 3});
  // layer 2's state after "ab2": (t², t, n, v) = (9, 3, 2, 3)
  const auto trace = evaluate(c.model, RationalField{}, ids(c, "ab2"));
  const auto& s = trace.layers[1].states.back();
  CHECK(s(0, 0) == 9);
  CHECK(s(1, 0) == 3);
  CHECK(s(2, 0) == 2);
  CHECK(s(3, 0) == 3);
  CHECK_FALSE(c.target.promise(ids(c, "ab")));  // no number token
  CHECK_FALSE(c.target.promise(ids(c, "3")));   // n = 3 > L = 1
  CHECK_THROWS_AS(c.target.value(ids(c, "ab")), DomainError);
}

TEST_CASE("selective copy: the compiled hybrid circuit agrees (three-way)",
          "[constructions][retrieval]") {
  CHECK(three_way(selective_copy({}), 5) > 1500);
}

TEST_CASE("selective copy: log precision log:2 suffices, log:1 overflows",
          "[constructions][retrieval]") {
  const Construction c = selective_copy({});
  check_log_precision(c, 2, 40, 50);
  // log:1 at n = 40: I = F = 6 bits, but t² = 1600 > 2^6
  const FixedPoint fx1(log_precision(1, 40, std::nullopt, Rounding::nearest_even, Overflow::error));
  std::vector<std::size_t> w(40, 0);
  w[30] = 4;
  CHECK_THROWS_AS(evaluate(c.model, fx1, w), DomainError);
}

TEST_CASE("selective copy: a window of N - 1 is caught with ab3", "[constructions][retrieval]") {
  SelectiveCopyOptions o;
  o.window = 2;
  const Construction c = selective_copy(o);
  VerifyReport r = verify(c, exhaustive(5, 0, 1));
  REQUIRE(r.counterexample);
  CHECK_FALSE(r.holds);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == "ab3");  // target w_1 = a is outside the window {2, 3}
  CHECK(r.counterexample->expected == "0");
  CHECK(r.counterexample->got == "1");
  CHECK_FALSE(test::claim(c, "attention window").ok);
  // random strings alone find it too, and shrinking makes it the same minimal one
  VerifyReport rr = verify(c, exhaustive(0, 300, 30));
  REQUIRE(rr.counterexample);
  CHECK(rr.counterexample->input_text == "ab3");
  // a larger window is still right (the construction needs window ≥ N, not = N)
  o.window = 6;
  CHECK(verify(selective_copy(o), exhaustive(5, 100, 30)).counterexample == std::nullopt);
}

TEST_CASE("selective copy: the LRNN stack without attention is caught with a2",
          "[constructions][retrieval]") {
  SelectiveCopyOptions o;
  o.attention = false;
  const Construction c = selective_copy(o);
  VerifyReport r = verify(c, exhaustive(4, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "a2");
  CHECK(r.counterexample->expected == "0");
  CHECK(r.counterexample->got == "3");  // the current token "2"
  CHECK_FALSE(test::claim(c, "attention layers").ok);
}

// Building with these options must throw an InputError at `where` whose message has `what`.
TEST_CASE("selective copy: bad options are InputErrors", "[constructions][retrieval]") {
  auto fails = [](const SelectiveCopyOptions& o, const std::string& where,
                  const std::string& what) {
    test::expect_input_error([&] { (void)selective_copy(o); }, where, what);
  };
  SelectiveCopyOptions o;
  o.data_symbols = 0;
  fails(o, "--data-symbols", "expected 1..26");
  o.data_symbols = 27;
  fails(o, "--data-symbols", "got 27");
  o = {};
  o.max_distance = 0;
  fails(o, "--max-distance", "1..9");
  o.max_distance = 10;
  fails(o, "--max-distance", "got 10");
  o = {};
  o.window = 0;
  fails(o, "--window", "at least 1");
}

// ---------------------------------------------------------------------------------------------
// Associative recall with decoding.

TEST_CASE("assoc recall: the hybrid returns the most recent bound value (exhaustive + random)",
          "[constructions][retrieval]") {
  const Construction c = associative_recall({});
  VerifyReport r = verify(c, exhaustive(5, 300, 40));
  INFO(format_text(r));
  CHECK(r.holds);
  CHECK(r.checked["exhaustive"] > 500);
  CHECK(r.checked["random"] > 20);
  test::check_all_claims(c);
  CHECK(test::claim(c, "state dimension").measured == "5");
  CHECK(test::claim(c, "attention window").measured == "5");
  // more keys and values, and a span wider than the dictionary (long random strings hit it)
  AssocRecallOptions o;
  o.keys = 3;
  o.values = 4;
  o.span = 12;
  const Construction c3 = associative_recall(o);
  VerifyReport r3 = verify(c3, exhaustive(3, 600, 40));
  INFO(format_text(r3));
  CHECK(r3.holds);
  CHECK(r3.checked["random"] > 40);
}

TEST_CASE("assoc recall: hand-checked runs", "[constructions][retrieval]") {
  const Construction c = associative_recall({});  // a b 0 1 A B
  CHECK(run(c, "a0b1A") == std::pair<Rational, std::size_t>{0, 2});
  CHECK(run(c, "a0b1B") == std::pair<Rational, std::size_t>{1, 4});
  CHECK(run(c, "a0a1A") == std::pair<Rational, std::size_t>{1, 4});  // re-bound: the most recent
  CHECK(run(c, "Ab1a0") == std::pair<Rational, std::size_t>{0, 5});  // the query first
  CHECK(run(c, "a01A") == std::pair<Rational, std::size_t>{1, 3});   // 1 is bound to a as well
  CHECK(c.target.value(ids(c, "Bbbbbbba1b0")) == 0);  // the query far before the dictionary
  CHECK(run(c, "Bbbbbbba1b0").first == 0);
  CHECK_FALSE(c.target.promise(ids(c, "a0b1")));     // no query
  CHECK_FALSE(c.target.promise(ids(c, "a0B")));      // b has no value
  CHECK_FALSE(c.target.promise(ids(c, "a0bbbbA")));  // the answer is 5 tokens back, span 5
  CHECK(c.target.promise(ids(c, "a0bbbA")));
  CHECK_THROWS_AS(c.target.value(ids(c, "a0B")), DomainError);
}

TEST_CASE("assoc recall: the compiled hybrid circuit agrees (three-way)",
          "[constructions][retrieval]") {
  CHECK(three_way(associative_recall({}), 5) > 200);
}

TEST_CASE("assoc recall: constant precision (log:1 at length 40)", "[constructions][retrieval]") {
  check_log_precision(associative_recall({}), 1, 40, 30);
}

TEST_CASE("assoc recall: a window of span - 1 is caught with a0aaaA",
          "[constructions][retrieval]") {
  AssocRecallOptions o;
  o.window = 4;
  const Construction c = associative_recall(o);
  VerifyReport r = verify(c, exhaustive(6, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == "a0aaaA");  // the answer at 2 is outside {3..6}
  CHECK(r.counterexample->expected == "0");
  CHECK(r.counterexample->got == "-1");  // it attends to a non-value
  CHECK_FALSE(test::claim(c, "attention window").ok);
}

TEST_CASE("assoc recall: the LRNN without attention is caught with a0A",
          "[constructions][retrieval]") {
  AssocRecallOptions o;
  o.attention = false;
  VerifyReport r = verify(associative_recall(o), exhaustive(4, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "a0A");
  CHECK(r.counterexample->expected == "0");
  CHECK(r.counterexample->got == "-1");
}

TEST_CASE("assoc recall: ties to the leftmost (oldest) binding are caught with a01A",
          "[constructions][retrieval]") {
  AssocRecallOptions o;
  o.tie = TieRule::leftmost;
  VerifyReport r = verify(associative_recall(o), exhaustive(5, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "a01A");
  CHECK(r.counterexample->expected == "1");
  CHECK(r.counterexample->got == "0");
}

TEST_CASE("assoc recall: bad options are InputErrors", "[constructions][retrieval]") {
  auto fails = [](const AssocRecallOptions& o, const std::string& where, const std::string& what) {
    test::expect_input_error([&] { (void)associative_recall(o); }, where, what);
  };
  AssocRecallOptions o;
  o.keys = 0;
  fails(o, "--keys", "expected 1..26");
  o.keys = 27;
  fails(o, "--keys", "got 27");
  o = {};
  o.values = 0;
  fails(o, "--values", "1..10");
  o.values = 11;
  fails(o, "--values", "got 11");
  o = {};
  o.span = 1;
  fails(o, "--span", "at least 2");
  o = {};
  o.window = 0;
  fails(o, "--window", "at least 1");
}
// ---------------------------------------------------------------------------------------------
// The example model files are these constructions' models (default options).

TEST_CASE("retrieval: the example model files are the default constructions",
          "[constructions][retrieval]") {
  for (const auto& [file, c] :
       {std::pair<std::string, Construction>{"selective_copy_hybrid.json", selective_copy({})},
        {"assoc_recall_hybrid.json", associative_recall({})}}) {
    INFO(file);
    const Model m = load_model(std::string(RNNCC_SOURCE_DIR) + "/examples/" + file);
    REQUIRE(m.alphabet.symbols() == c.model.alphabet.symbols());
    REQUIRE(m.layers.size() == c.model.layers.size());
    std::mt19937_64 rng(5);
    for (std::size_t i = 0; i < 200; ++i) {
      std::vector<std::size_t> w(1 + rng() % 30);
      for (auto& x : w) x = rng() % m.alphabet.size();
      INFO(m.alphabet.join(w));
      const auto a = evaluate(m, RationalField{}, w).outputs();
      const auto b = evaluate(c.model, RationalField{}, w).outputs();
      REQUIRE(a.size() == b.size());
      for (std::size_t t = 0; t < a.size(); ++t) REQUIRE(a[t](0, 0) == b[t](0, 0));
    }
  }
}
