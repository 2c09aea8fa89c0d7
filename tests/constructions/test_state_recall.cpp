// State-based recall [OLMOH26]: a Gated DeltaNet layer (Householder transpositions) and one
// unique-hard attention layer, in both token orders, checked by the verify engine.
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/state_recall.hpp"
#include "rnn/evaluate.hpp"
#include "tests/constructions/claims.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

std::vector<std::size_t> ids(const Construction& c, const std::string& text) {
  return c.target.alphabet.tokenize(text, "test");
}

Rational output(const Construction& c, const std::string& text) {
  RationalField Q;
  return evaluate(c.model, Q, c.encode(ids(c, text))).outputs().back()(0, 0);
}

}  // namespace

TEST_CASE("state recall: GDN + one attention layer, both orders and interleaved",
          "[constructions][state_recall]") {
  for (RecallOrder order :
       {RecallOrder::bits_first, RecallOrder::perm_first, RecallOrder::as_given}) {
    Construction c = state_recall(order);
    VerifyOptions o;
    // bits first: every string of length ≤ 3 (17 + 17² + 17³ = 5219); the other orders ≤ 2
    // (17 + 17² = 306), to keep the binary fast; random strings up to length 30 for all
    const bool full = order == RecallOrder::bits_first;
    o.exhaustive = full ? 3 : 2;
    o.random = 100;
    o.max_random_length = 30;
    o.three_way_max_tokens = 6;  // the compiled hybrid circuit too, on the short strings
    VerifyReport r = verify(c, o);
    INFO(format_text(r));
    CHECK(r.holds);
    CHECK(r.checked["exhaustive"] == (full ? 5219u : 306u));
    CHECK(r.checked["random"] == 100);
    test::check_all_claims(c);
    CHECK(test::claim(c, "GDN state").measured == "12×2");
    CHECK(test::claim(c, "attention layers").measured == "1");
    CHECK(test::claim(c, "precision").measured == "25");
  }
}

TEST_CASE("state recall: hand-checked instances", "[constructions][state_recall]") {
  Construction bits = state_recall(RecallOrder::bits_first);
  Construction perm = state_recall(RecallOrder::perm_first);
  CHECK(bits.target.alphabet.size() == 17);
  // f, then the model in both orders
  const std::vector<std::pair<std::string, int>> cases = {
      {"1 a", 1},                      // register 1 → the bit 1
      {"1 b", 0},                      // register 1 never marked
      {"1 b (12)", 1},                 // after (12) slot 1 holds register 2 → bit 1
      {"(12) 1 b", 1},                 // the same instance, permutation first
      {"1 0 a 1 b (12)", 1},           // a → 0 (the second bit), b → 1
      {"1 0 a 1 b", 0},                //   without the swap: register 1 → 0
      {"(12) (23) 0 a 1 b", 1},        // slots (2,3,1,…): register 2 → 1
      {"(12) (23) 0 a 1 c", 0},        //   register 2 unmarked
      {"(12) (23) (12) 1 c", 1},       // (12)(23)(12) = (13): register 3
      {"1 a 0 a", 0},                  // the latest marker of a register counts
      {"a 1", 0},                      // a marker before any bit points at no bit
      {"(45) (34) (23) (12) 1 e", 1},  // slots (5,1,2,3,4): slot 1 ← register 5
  };
  for (const auto& [text, want] : cases) {
    INFO(text);
    CHECK(bits.target.value(ids(bits, text)) == want);
    CHECK(output(bits, text) == want);
    CHECK(output(perm, text) == want);
  }
  // the orders really differ in what the model reads
  CHECK(bits.model.alphabet.join(bits.encode(ids(bits, "(12) 1 b"))) == "1 b (12)");
  CHECK(perm.model.alphabet.join(perm.encode(ids(perm, "1 b (12)"))) == "(12) 1 b");
}

TEST_CASE("state recall: leftmost ties fetch a stale pointer, and the checker finds it",
          "[constructions][state_recall]") {
  Construction c = state_recall(RecallOrder::bits_first);
  std::get<AttentionLayer>(c.model.layers[1].layer).tie = TieRule::leftmost;
  VerifyOptions o;
  o.exhaustive = 3;
  o.random = 0;
  VerifyReport r = verify(c, o);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == "a 1 a");  // the first "a" (no bit) wins the tie
  CHECK(r.counterexample->expected == "1");
  CHECK(r.counterexample->got == "0");
}

TEST_CASE("state recall: diagnostics", "[constructions][state_recall]") {
  CHECK(parse_recall_order("bits-first") == RecallOrder::bits_first);
  CHECK(parse_recall_order("perm-first") == RecallOrder::perm_first);
  CHECK_FALSE(parse_recall_order("sideways"));
  Construction c = state_recall(RecallOrder::bits_first);
  CHECK_THROWS_AS(c.encode({17}), InputError);
}
