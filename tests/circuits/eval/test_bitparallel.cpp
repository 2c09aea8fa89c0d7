// Bit-parallel boolean/threshold evaluation against its plain twin (the exact evaluator, one
// pattern at a time) on seeded random circuits of every boolean and threshold gate kind.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "tests/circuits/random_circuits.hpp"

using namespace rnncc;

using testing::random_boolean_circuit;

TEST_CASE("bit-parallel evaluation equals the plain evaluator lane by lane",
          "[circuits][eval][bitparallel]") {
  std::mt19937_64 rng(31);
  RationalField Q;
  for (int trial = 0; trial < 30; ++trial) {
    Circuit c = random_boolean_circuit(rng, 5 + trial % 7, 200);
    REQUIRE(is_boolean(c));
    std::vector<bits::Word> words(c.inputs().size());
    for (auto& w : words) w = rng();
    auto got = evaluate_bits(c, words);
    for (unsigned lane = 0; lane < 64; ++lane) {
      std::vector<Rational> in;
      for (auto w : words) in.push_back(Rational(static_cast<int>(w >> lane & 1)));
      auto expect = evaluate(c, Q, std::span<const Rational>(in));
      for (std::size_t o = 0; o < expect.size(); ++o)
        REQUIRE((got[o] >> lane & 1) == (expect[o] == 1 ? 1u : 0u));
    }
  }
}

TEST_CASE("batch evaluation on all cores equals word-by-word evaluation",
          "[circuits][eval][bitparallel]") {
  std::mt19937_64 rng(32);
  Circuit c = random_boolean_circuit(rng, 9, 500);
  const std::size_t words = 37;
  std::vector<bits::Word> patterns(words * c.inputs().size());
  for (auto& w : patterns) w = rng();
  auto batch = evaluate_bits_batch(c, patterns, 3);
  for (std::size_t w = 0; w < words; ++w) {
    auto one = evaluate_bits(c, std::span(patterns).subspan(w * 9, 9));
    for (std::size_t o = 0; o < one.size(); ++o)
      REQUIRE(batch[w * c.outputs().size() + o] == one[o]);
  }
  RationalField Q;
  std::vector<std::vector<Rational>> rows;
  for (int r = 0; r < 20; ++r) {
    std::vector<Rational> row;
    for (int i = 0; i < 9; ++i) row.push_back(Rational(static_cast<int>(rng() & 1)));
    rows.push_back(row);
  }
  auto many = evaluate_batch(c, Q, rows, 4);
  for (std::size_t r = 0; r < rows.size(); ++r)
    REQUIRE(many[r] == evaluate(c, Q, std::span<const Rational>(rows[r])));
}

TEST_CASE("threshold gates at the edges of their range", "[circuits][eval][bitparallel]") {
  CircuitBuilder b;
  GateId x = b.input(), y = b.input();
  const GateId ops[] = {x, y};
  const std::int32_t big[] = {INT32_MAX, INT32_MIN};
  GateId t = b.raw(GateKind::thr, ops, big, -1);  // x·(2³¹−1) − y·2³¹ ≥ −1
  Circuit c = b.finish({t});
  const bits::Word in[] = {0b1010, 0b1100};
  // lanes (x,y): 0:(0,0) → 0 ≥ −1 ✓; 1:(1,0) ✓; 2:(0,1) → −2³¹ ✗; 3:(1,1) → −1 ✓
  CHECK((evaluate_bits(c, in)[0] & 0xF) == 0b1011);
  CircuitBuilder a;
  GateId u = a.input(), v = a.input();
  Circuit arith = a.finish({a.add(u, v)});
  const bits::Word w2[] = {1, 2};
  CHECK_THROWS_WITH(evaluate_bits(arith, w2), Catch::Contains("not a boolean or threshold gate"));
}
