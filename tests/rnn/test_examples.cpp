// Every shipped example against values computed by hand, in exact, log-precision and mod-p
// semantics.
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

std::vector<std::size_t> ids(const Model& m, const std::string& s) {
  return m.alphabet.tokenize(s, "test");
}

// y_t (entry [0][0]) at every position, exact.
std::vector<Rational> exact_outputs(const Model& m, const std::string& s) {
  RationalField Q;
  std::vector<Rational> out;
  for (const auto& y : evaluate(m, Q, ids(m, s)).outputs()) out.push_back(y(0, 0));
  return out;
}

std::vector<Rational> fixed_outputs(const Model& m, const std::string& s, const FixedPoint& k) {
  std::vector<Rational> out;
  for (const auto& y : evaluate(m, k, ids(m, s)).outputs()) out.push_back(k.to_rational(y(0, 0)));
  return out;
}

std::vector<std::uint64_t> mod_outputs(const Model& m, const std::string& s, std::uint64_t p) {
  ModP k(p);
  std::vector<std::uint64_t> out;
  for (const auto& y : evaluate(m, k, ids(m, s)).outputs()) out.push_back(y(0, 0));
  return out;
}

std::vector<Rational> R(std::initializer_list<Rational> v) {
  return v;
}
FixedPoint log_format(unsigned c, std::size_t n, Rounding r = Rounding::nearest_even) {
  return FixedPoint(log_precision(c, n, std::nullopt, r, Overflow::saturate));
}

}  // namespace

TEST_CASE("example: parity by a DeltaNet reflection", "[rnn][examples]") {
  Model m = load_model(test::example("parity_deltanet.json"));
  CHECK(exact_outputs(m, "0110") == R({1, -1, 1, 1}));
  CHECK(exact_outputs(m, "111") == R({-1, 1, -1}));
  CHECK(fixed_outputs(m, "0110", log_format(1, 4)) == R({1, -1, 1, 1}));
  CHECK(mod_outputs(m, "0110", 7) == std::vector<std::uint64_t>{1, 6, 1, 1});
  RationalField Q;
  CHECK(*accepts(m.accept, Q, evaluate(m, Q, ids(m, "1001")).outputs().back()));
  CHECK_FALSE(*accepts(m.accept, Q, evaluate(m, Q, ids(m, "1000")).outputs().back()));
}

TEST_CASE("example: binary value WFA over Z", "[rnn][examples]") {
  Model m = load_model(test::example("binary_value_wfa.json"));
  CHECK(exact_outputs(m, "1011") == R({1, 2, 5, 11}));
  CHECK(exact_outputs(m, "0001") == R({0, 0, 0, 1}));
  // log:1 at n = 4: F = I = 3, so |x| ≤ 63/8 and 11 saturates
  CHECK(fixed_outputs(m, "1011", log_format(1, 4)) == R({1, 2, 5, Rational(63, 8)}));
  CHECK(mod_outputs(m, "1011", 7) == std::vector<std::uint64_t>{1, 2, 5, 4});
  FixedPoint strict(log_precision(1, 4, std::nullopt, Rounding::nearest_even, Overflow::error));
  CHECK_THROWS_WITH(evaluate(m, strict, ids(m, "1011")), Catch::Contains("layer 0") &&
                                                             Catch::Contains("position 4") &&
                                                             Catch::Contains("overflows"));
}

TEST_CASE("example: Mamba-2 style decaying vote", "[rnn][examples]") {
  Model m = load_model(test::example("mamba_diagonal.json"));
  CHECK(exact_outputs(m, "aab") == R({1, Rational(3, 2), Rational(-1, 4)}));
  CHECK(exact_outputs(m, "aba") == R({1, Rational(-1, 2), Rational(3, 4)}));
  // F = 2 at n = 3: exact here. At n = 7, F = 3: the a-vote 2^-4 is half an ulp and rounds
  // to 0, and the b-count 31/16 is a tie that rounds to the even 2, so y = −2 (exact −125/64)
  CHECK(fixed_outputs(m, "aab", log_format(1, 3)) == R({1, Rational(3, 2), Rational(-1, 4)}));
  CHECK(exact_outputs(m, "abbbbbb").back() == Rational(-63, 32) + Rational(1, 64));
  CHECK(fixed_outputs(m, "abbbbbb", log_format(1, 7)).back() == -2);
  CHECK(fixed_outputs(m, "abbbbbb", log_format(1, 7, Rounding::toward_zero)).back() ==
        Rational(-15, 8));
  // mod 5: 1/2 ≡ 3, so "aab" gives 1, 1 + 3 = 4 (= 3/2), and 3/4 − 1 ≡ −1/4 ≡ 1
  CHECK(mod_outputs(m, "aab", 5) == std::vector<std::uint64_t>{1, 4, 1});
  CHECK_THROWS_WITH(mod_outputs(m, "ab", 2), Catch::Contains("divisible by p = 2"));
}

TEST_CASE("example: S5 word problem by a PD LRNN", "[rnn][examples]") {
  Model m = load_model(test::example("s5_word_problem.json"));
  RationalField Q;
  auto accepted = [&](const std::string& s) {
    return *accepts(m.accept, Q, evaluate(m, Q, ids(m, s)).outputs().back());
  };
  CHECK(accepted("ss"));
  CHECK(accepted("ccccc"));
  CHECK(accepted("scscscsc"));  // sc = x ↦ c(s(x)) is a 4-cycle fixing one point
  CHECK_FALSE(accepted("scscscscsc"));
  CHECK_FALSE(accepted("sc"));
  CHECK_FALSE(accepted("cccc"));
  // y = (number of fixed points) − 5: s fixes 3 points, c none, sc one
  CHECK(exact_outputs(m, "s") == R({-2}));
  CHECK(exact_outputs(m, "sc") == R({-2, -4}));
  CHECK(mod_outputs(m, "ss", 29) == std::vector<std::uint64_t>{27, 0});
  // permutation matrices are 0/1 and traces are small integers: log precision is exact
  CHECK(fixed_outputs(m, "scscscsc", log_format(1, 8)) == exact_outputs(m, "scscscsc"));
  CHECK(fixed_outputs(m, "scscscsc", log_format(1, 8)).back() == 0);
}

TEST_CASE("example: Gated DeltaNet memory", "[rnn][examples]") {
  Model m = load_model(test::example("gated_deltanet.json"));
  CHECK(exact_outputs(m, "ab") == R({1, 0}));
  CHECK(exact_outputs(m, "aba") == R({1, 0, Rational(1, 2)}));
  // b: A = ½·diag(1, ½), B = (0, −½): S = (0, −½), then (0, −⅛ − ½)
  CHECK(exact_outputs(m, "bb") == R({Rational(-1, 2), Rational(-5, 8)}));
  ModP k(1000000007);
  std::vector<std::uint64_t> expect{1, 0, k.from_rational(Rational(1, 2))};
  CHECK(mod_outputs(m, "aba", 1000000007) == expect);
  // F = 2: −⅛ is half an ulp and rounds to the even 0 (nearest-even), so y stays −½
  CHECK(fixed_outputs(m, "bb", log_format(1, 2)) == R({Rational(-1, 2), Rational(-1, 2)}));
}

TEST_CASE("example: RWKV-7 overwrite", "[rnn][examples]") {
  Model m = load_model(test::example("rwkv7_overwrite.json"));
  CHECK(exact_outputs(m, "xxy") == R({0, 1, Rational(1, 2)}));
  CHECK(exact_outputs(m, "xxxx") == R({0, 1, 2, 3}));
  CHECK(mod_outputs(m, "xxy", 3) == std::vector<std::uint64_t>{0, 1, 2});  // 1/2 ≡ 2 mod 3
  CHECK(fixed_outputs(m, "xxy", log_format(1, 3, Rounding::toward_zero)) ==
        R({0, 1, Rational(1, 2)}));
}

TEST_CASE("example: ReLU RNN tracking #a − #b", "[rnn][examples]") {
  Model m = load_model(test::example("relu_counter.json"));
  CHECK(exact_outputs(m, "aab") == R({1, 2, 1}));
  CHECK(exact_outputs(m, "bbba") == R({-1, -2, -3, -2}));
  CHECK(fixed_outputs(m, "bbba", log_format(1, 4)) == R({-1, -2, -3, -2}));
  RationalField Q;
  CHECK(*accepts(m.accept, Q, evaluate(m, Q, ids(m, "abba")).outputs().back()));
  CHECK_THROWS_WITH(mod_outputs(m, "ab", 5), Catch::Contains("ordered"));
}

TEST_CASE("majority_counter: y = #a − #b, accepted iff a is the strict majority", "[examples]") {
  const Model m = load_model(test::example("majority_counter.json"));
  REQUIRE(exact_outputs(m, "aabab") == std::vector<Rational>{1, 2, 1, 2, 1});
  REQUIRE(exact_outputs(m, "bba") == std::vector<Rational>{-1, -2, -1});
  const RationalField Q;
  REQUIRE(accepts(m.accept, Q, evaluate(m, Q, ids(m, "aab")).outputs().back()).value());
  REQUIRE_FALSE(
      accepts(m.accept, Q, evaluate(m, Q, ids(m, "abab")).outputs().back()).value());  // a tie
  // log:1 on n = 5: I = F = 3, every count fits, so nothing rounds
  const FixedPoint k(log_precision(1, 5, std::nullopt, Rounding::nearest_even, Overflow::saturate));
  REQUIRE(fixed_outputs(m, "aabab", k) == std::vector<Rational>{1, 2, 1, 2, 1});
  REQUIRE(mod_outputs(m, "bbbbb", 3) == std::vector<std::uint64_t>{2, 1, 0, 2, 1});
}
