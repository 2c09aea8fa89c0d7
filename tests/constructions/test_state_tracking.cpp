// Parity, counting mod k and S_n by DeltaNet / Gated DeltaNet at β = 2 [GSZ+25]: right by the
// verify engine (exhaustive + random), and caught, with the minimal counterexample, when the same
// construction is built with β ∈ (0, 1).
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/state_tracking.hpp"
#include "rnn/evaluate.hpp"
#include "tests/constructions/claims.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

VerifyOptions options(std::size_t exhaustive, std::size_t random, std::size_t length) {
  VerifyOptions o;
  o.exhaustive = exhaustive;
  o.random = random;
  o.max_random_length = length;
  o.three_way_max_tokens = 24;
  return o;
}

StateTrackingOptions restricted() {
  StateTrackingOptions o;
  o.beta_range = BetaRange::open_0_1;  // β = 1 − 2⁻⁸, the default of the open range
  return o;
}

// The model's output at the last position on encode(w).
Rational output(const Construction& c, const std::vector<std::size_t>& w) {
  RationalField Q;
  auto trace = evaluate(c.model, Q, c.encode(w));
  return trace.outputs().back()(c.out_row, c.out_col);
}

}  // namespace

TEST_CASE("state tracking: parity by one reflection at β = 2", "[constructions][state_tracking]") {
  for (bool gated : {false, true}) {
    StateTrackingOptions o;
    o.gated = gated;
    Construction c = parity(o);
    VerifyReport r = verify(c, options(10, 200, 60));
    INFO(format_text(r));
    CHECK(r.holds);
    CHECK(r.checked["exhaustive"] == 2046);  // 2 + 4 + … + 2^10
    test::check_all_claims(c);
    CHECK(test::claim(c, "state dimension").measured == "1");
    CHECK(test::claim(c, "tokens with eigenvalue −1").measured == "1");
    // hand-checked: 1101 has three ones, the state is (−1)^3 = −1, y = (1 − (−1))/2 = 1
    CHECK(output(c, {1, 1, 0, 1}) == 1);
    CHECK(output(c, {1, 1}) == 0);
    RationalField Q;
    auto trace = evaluate(c.model, Q, c.encode({1, 1, 0, 1}));
    CHECK(trace.layers[0].states.back()(0, 0) == -1);
  }
}

TEST_CASE("state tracking: parity with β ∈ (0,1) fails at \"1\"",
          "[constructions][state_tracking]") {
  for (bool gated : {false, true}) {
    StateTrackingOptions o = restricted();
    o.gated = gated;
    Construction c = parity(o);
    CHECK(default_beta(BetaRange::open_0_1) == Rational(255, 256));
    VerifyReport r = verify(c, options(6, 50, 20));
    REQUIRE(r.counterexample);
    CHECK_FALSE(r.holds);
    CHECK(r.counterexample->minimal);
    CHECK(r.counterexample->input_text == "1");
    CHECK(r.counterexample->expected == "1");
    CHECK(r.counterexample->got == "255/512");     // S = 1 − β = 1/256, y = (1 − 1/256)/2
    CHECK(r.counterexample->found_by == "proof");  // decided for every length first
    // the claims that need β = 2 fail, the others still hold
    CHECK_FALSE(test::claim(c, "tokens with eigenvalue −1").ok);
    CHECK_FALSE(test::claim(c, "tokens with A_σ A_σᵀ ≠ I").ok);
    CHECK(test::claim(c, "nonzero keys with ‖k‖² ≠ 1").ok);
  }
  // At the level of acceptance (y > 0) "1" is still accepted (y = 255/512); the first string
  // ACCEPTED wrongly is "11": y = (1 − 2⁻¹⁶)/2 > 0 although the count is even.
  Construction c = parity(restricted());
  CHECK(output(c, {1}) > 0);
  CHECK(output(c, {1, 1}) == Rational(65535, 131072));
  CHECK(c.target.value({1, 1}) == 0);
  // β = 1/2 (also in (0,1)): the same minimal counterexample
  StateTrackingOptions half = restricted();
  half.beta = Rational(1, 2);
  VerifyReport r = verify(parity(half), options(6, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "1");
  CHECK(r.counterexample->got == "1/4");
}

TEST_CASE("state tracking: counting mod k by k − 1 reflections per symbol",
          "[constructions][state_tracking]") {
  // every residue for k = 3; r = k − 1 for k = 2 and 5; gated at odd r
  for (auto [k, r] :
       std::vector<std::pair<std::size_t, std::size_t>>{{2, 1}, {3, 0}, {3, 1}, {3, 2}, {5, 4}}) {
    StateTrackingOptions o;
    o.gated = r % 2 == 1;
    Construction c = mod_count(k, r, o);
    VerifyReport rep = verify(c, options(k == 5 ? 6 : 8, 40, 30));
    INFO(c.name << "\n" << format_text(rep));
    CHECK(rep.holds);
    test::check_all_claims(c);
    CHECK(test::claim(c, "state dimension").measured == std::to_string(2 * k));
    CHECK(test::claim(c, "sub-steps").measured == std::to_string(k - 1));
    CHECK(test::claim(c, "tokens with eigenvalue −1").measured == std::to_string(k - 1));
  }
  // hand-checked: mod 3, residue 1: "1011" has three ones ≡ 0, "1" one ≡ 1
  Construction c = mod_count(3, 1, {});
  CHECK(c.model.alphabet.size() == 4);  // Σ × [2]: 0/0 0/1 1/0 1/1
  CHECK(c.model.alphabet.symbol(2) == "1/0");
  CHECK(output(c, {1, 0, 1, 1}) == 0);
  CHECK(output(c, {1}) == 1);
  CHECK(output(c, {1, 1, 1, 1}) == 1);
  RationalField Q;
  // after one "1" the state is (e_1; e_1): the cycle moved the token from 0 to 1
  auto trace = evaluate(c.model, Q, c.encode({1}));
  const auto& S = trace.layers[0].states.back();
  CHECK(S(0, 0) == 0);
  CHECK(S(1, 0) == 1);
  CHECK(S(4, 0) == 1);
}

TEST_CASE("state tracking: counting mod k with β ∈ (0,1) fails at \"1\"",
          "[constructions][state_tracking]") {
  for (std::size_t k : {2u, 3u, 4u}) {
    Construction c = mod_count(k, 0, restricted());
    VerifyReport r = verify(c, options(5, 0, 1));
    INFO(format_text(r));
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->minimal);
    CHECK(r.counterexample->input_text == "1");
    CHECK(r.counterexample->expected == "0");
    CHECK(r.counterexample->got != "0");
  }
  // k = 3, r = 0: after (1 2) then (0 1) with β = 255/256, x_0 = 257/512 (hand-computed:
  // (1 2) leaves e_0 alone, (0 1) keeps (1 − β/2) of it)
  VerifyReport r = verify(mod_count(3, 0, restricted()), options(5, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->got == "257/512");
}

TEST_CASE("state tracking: the S_n word problem (n = 3, 4, 5)", "[constructions][state_tracking]") {
  for (std::size_t n : {3u, 4u, 5u})
    for (auto g : {SymmetricGenerators::cycle_and_swap, SymmetricGenerators::transpositions}) {
      StateTrackingOptions o;
      o.gated = n == 4;
      Construction c = symmetric_word(n, g, o);
      const bool swaps = g == SymmetricGenerators::transpositions;
      const std::size_t exhaustive = swaps ? (n == 3 ? 5 : n == 4 ? 3 : 2) : (n == 5 ? 6 : 8);
      VerifyReport r = verify(c, options(exhaustive, 30, 30));
      INFO(c.name << "\n" << format_text(r));
      CHECK(r.holds);
      test::check_all_claims(c);
      CHECK(test::claim(c, "state dimension").measured == std::to_string(2 * n));
      CHECK(test::claim(c, "sub-steps").measured == (swaps ? "1" : std::to_string(n - 1)));
      CHECK(c.model.accept.mode == Acceptance::Mode::zero);
    }
  // hand-checked, S3 by transpositions: (12)(23)(12) = (23)(12)(23) = (13) — f = 1·3 + 2·2 +
  // 3·1 − 14 = −4 (not the identity); (12)(12) = id → 0; (12)(23)(13)… a 3-cycle: 1·2+2·3+3·1 − 14
  Construction c = symmetric_word(3, SymmetricGenerators::transpositions, {});
  CHECK(c.target.alphabet.symbol(0) == "(12)");
  CHECK(c.target.alphabet.symbol(1) == "(13)");
  CHECK(c.target.alphabet.symbol(2) == "(23)");
  CHECK(c.target.value({0, 2, 0}) == -4);
  CHECK(output(c, {0, 2, 0}) == -4);
  CHECK(output(c, {2, 0, 2}) == -4);
  CHECK(output(c, {0, 0}) == 0);
  CHECK(output(c, {0, 2}) == -3);  // a 3-cycle: 11 − 14
  // S5 with (swap, cycle): c^5 = id, s c s c^4 ≠ id, (s c)^4 = id? no: s c is a 4-cycle in S5
  Construction d = symmetric_word(5, SymmetricGenerators::cycle_and_swap, {});
  CHECK(output(d, {1, 1, 1, 1, 1}) == 0);
  CHECK(output(d, {0, 1, 0, 1, 1, 1, 1}) != 0);
  CHECK(output(d, {0, 1, 0, 1, 0, 1, 0, 1}) == 0);
}

TEST_CASE("state tracking: S_n with β ∈ (0,1) fails at the first swap",
          "[constructions][state_tracking]") {
  VerifyReport r = verify(symmetric_word(3, SymmetricGenerators::transpositions, restricted()),
                          options(3, 0, 1));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == "(12)");
  CHECK(r.counterexample->expected == "-1");  // (12): 1·2 + 2·1 + 3·3 − 14
  VerifyReport s = verify(symmetric_word(5, SymmetricGenerators::cycle_and_swap, restricted()),
                          options(3, 0, 1));
  REQUIRE(s.counterexample);
  CHECK(s.counterexample->input_text == "s");
}

TEST_CASE("state tracking: diagnostics", "[constructions][state_tracking]") {
  StateTrackingOptions o;
  CHECK_THROWS_AS(mod_count(1, 0, o), InputError);
  CHECK_THROWS_AS(mod_count(17, 0, o), InputError);
  CHECK_THROWS_WITH(mod_count(3, 3, o), Catch::Contains("residue r in 0..2"));
  CHECK_THROWS_WITH(symmetric_word(7, SymmetricGenerators::transpositions, o),
                    Catch::Contains("n in 2..6"));
  o.beta = Rational(3);
  CHECK_THROWS_WITH(parity(o), Catch::Contains("outside the beta range (0,2]"));
  StateTrackingOptions r = restricted();
  r.beta = Rational(1);  // (0,1) is open
  CHECK_THROWS_AS(parity(r), InputError);
  CHECK(default_beta(BetaRange::half_open_0_1) == 1);
  CHECK(default_beta(BetaRange::open_0_2) == Rational(511, 256));
}
