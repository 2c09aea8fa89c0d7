// Proofs per length by SAT (verify/sat_proof.hpp): the word circuits against Integer arithmetic,
// the model circuit against the reference evaluator and each boolean specification against
// Target::value on seeded random strings (constant inputs fold every circuit to its value),
// then proofs: the retrieval and state-recall constructions proved at small N, and deliberately
// broken constructions (a window too small, ties to the oldest binding, the LRNN alone)
// refuted with a counterexample the exact evaluators confirm.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/exact.hpp"
#include "constructions/retrieval.hpp"
#include "constructions/state_recall.hpp"
#include "rnn/evaluate.hpp"
#include "verify/bitvec.hpp"
#include "verify/model_circuit.hpp"
#include "verify/sat_proof.hpp"
#include "verify/sat_specs.hpp"
#include "verify/verify.hpp"
#include "verify/verify_tm.hpp"

using namespace rnncc;
using namespace rnncc::sat;

namespace {

std::vector<Lit> one_hot(std::size_t size, std::size_t id) {
  std::vector<Lit> x(size, kFalse);
  x[id] = kTrue;
  return x;
}

std::vector<std::size_t> random_string(std::mt19937_64& rng, std::size_t sigma, std::size_t n) {
  std::vector<std::size_t> w(n);
  for (auto& s : w) s = rng() % sigma;
  return w;
}

std::vector<Construction> retrieval_and_recall() {
  SelectiveCopyOptions sc;
  sc.data_symbols = 2;
  sc.max_distance = 3;
  AssocRecallOptions ar;
  ar.keys = 2;
  ar.values = 2;
  return {selective_copy(sc), associative_recall(ar), state_recall(RecallOrder::bits_first),
          state_recall(RecallOrder::as_given)};
}

}  // namespace

TEST_CASE("sat: word circuits compute exact integer arithmetic", "[sat]") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 30; ++round) {
    Aig g;
    WordBuilder w(g, 64);
    // Two symbolic 6-bit signed words.
    Word a, b;
    for (int i = 0; i < 6; ++i) {
      a.bits.push_back(g.input());
      b.bits.push_back(g.input());
    }
    a.lo = b.lo = -32;
    a.hi = b.hi = 31;
    const Word sum = w.add(a, b), diff = w.sub(a, b), prod = w.mul(a, b),
               scaled = w.mul_const(a, Integer(-7)), relu = w.relu(a);
    const Lit lt = w.less(a, b), eq = w.equal(a, b);
    const Word third = w.div_exact(w.mul_const(a, Integer(12)), Integer(3));
    const Lit flag = w.take_flag();
    std::vector<bool> in;
    for (int i = 0; i < 12; ++i) in.push_back(rng() & 1u);
    // Inputs were created a0, b0, a1, b1, …
    Integer va = 0, vb = 0;
    for (int i = 0; i < 6; ++i) {
      if (in[2 * i]) va += Integer(1) << i;
      if (in[2 * i + 1]) vb += Integer(1) << i;
    }
    if (va >= 32) va -= 64;
    if (vb >= 32) vb -= 64;
    const auto v = g.evaluate(in);
    CHECK(WordBuilder::value(sum, v) == va + vb);
    CHECK(WordBuilder::value(diff, v) == va - vb);
    CHECK(WordBuilder::value(prod, v) == va * vb);
    CHECK(WordBuilder::value(scaled, v) == va * -7);
    CHECK(WordBuilder::value(relu, v) == (va > 0 ? va : Integer(0)));
    CHECK(WordBuilder::value(third, v) == va * 4);
    CHECK(Aig::value(v, lt) == (va < vb));
    CHECK(Aig::value(v, eq) == (va == vb));
    CHECK_FALSE(Aig::value(v, flag));
  }
}

TEST_CASE("sat: overflow and inexact division raise the flag", "[sat]") {
  Aig g;
  WordBuilder w(g, 8);
  Word a;
  for (int i = 0; i < 8; ++i) a.bits.push_back(g.input());
  a.lo = -128;
  a.hi = 127;
  const Word big = w.mul_const(a, Integer(3));  // needs 10 bits: capped at 8 with a flag
  CHECK(big.width() == 8);
  const Lit over = w.take_flag();
  const Word half = w.div_exact(a, Integer(6));
  const Lit inexact = w.take_flag();
  auto with = [&](long value) {
    std::vector<bool> in;
    for (int i = 0; i < 8; ++i) in.push_back((static_cast<unsigned long>(value) >> i) & 1u);
    return g.evaluate(in);
  };
  CHECK_FALSE(Aig::value(with(42), over));
  CHECK(Aig::value(with(43), over));
  CHECK(WordBuilder::value(big, with(-40)) == -120);
  CHECK_FALSE(Aig::value(with(-42), inexact));
  CHECK(WordBuilder::value(half, with(-42)) == -7);
  CHECK(Aig::value(with(9), inexact));
  CHECK(Aig::value(with(4), inexact));
}

TEST_CASE("sat: the model circuit and the specifications agree with the exact evaluators",
          "[sat]") {
  std::mt19937_64 rng(11);
  for (const Construction& c : retrieval_and_recall()) {
    INFO(c.name);
    const std::size_t S = c.target.alphabet.size();
    for (int round = 0; round < 40; ++round) {
      const std::size_t n = 1 + rng() % 14;
      const auto w = random_string(rng, S, n);
      Aig g;
      WordBuilder words(g, 64);
      ModelCircuit model(c.model, words);
      const auto spec = make_spec(c.target.boolean_spec, words);
      const auto u = spec->reads_encoded() ? w : c.encode(w);
      const auto trace = evaluate(c.model, RationalField{}, u);
      const std::size_t cols = output_cols(c.model.layers.back().layer);
      for (std::size_t t = 1; t <= n; ++t) {
        const auto y = model.step(one_hot(S, u[t - 1]));
        const Word x = y.at(c.out_row * cols + c.out_col);
        REQUIRE(x.constant());
        CHECK(Rational(WordBuilder::value(x, {false})) / Rational(model.scale()) ==
              trace.outputs()[t - 1](c.out_row, c.out_col));
        const SpecStep f = spec->step(one_hot(S, u[t - 1]));
        REQUIRE(f.value.constant());
        const std::vector<std::size_t> prefix(u.begin(), u.begin() + static_cast<long>(t));
        const bool in_promise = !c.target.promise || c.target.promise(prefix);
        const bool sorted = c.encode(prefix) == prefix;  // in encode's image
        CHECK(f.promise == ((in_promise && (!spec->reads_encoded() || sorted)) ? kTrue : kFalse));
        if (in_promise)
          CHECK(Rational(WordBuilder::value(f.value, {false})) == c.target.value(prefix));
      }
      CHECK(words.take_flag() == kFalse);
    }
  }
}

#if RNNCC_TEST_HAVE_CADICAL
TEST_CASE("sat: retrieval and state recall proved for every input of length ≤ N", "[sat]") {
  for (const Construction& c : retrieval_and_recall()) {
    INFO(c.name);
    SatOptions o;
    o.max_length = c.name.rfind("state-recall", 0) == 0 ? 3 : 6;  // state recall: 1 s at 4
    const SatOutcome r = prove_by_sat(c, o);
    INFO(r.reason);
    CHECK(r.verdict == SatOutcome::Verdict::proved);
    CHECK(r.check.valid);
    CHECK(r.check.lemmas > 0);
  }
}

TEST_CASE("sat: broken constructions are refuted with a confirmed counterexample", "[sat]") {
  SelectiveCopyOptions small_window;
  small_window.max_distance = 3;
  small_window.window = 2;
  AssocRecallOptions leftmost;
  leftmost.tie = TieRule::leftmost;
  AssocRecallOptions alone;
  alone.attention = false;
  for (const Construction& c :
       {selective_copy(small_window), associative_recall(leftmost), associative_recall(alone)}) {
    INFO(c.name);
    SatOptions o;
    o.max_length = 7;
    const SatOutcome r = prove_by_sat(c, o);
    INFO(r.reason);
    REQUIRE(r.verdict == SatOutcome::Verdict::refuted);
    // The counterexample is in the promise and X's exact output differs from f.
    REQUIRE(c.target.promise(r.counterexample));
    const auto trace = evaluate(c.model, RationalField{}, c.encode(r.counterexample));
    CHECK(trace.outputs().back()(c.out_row, c.out_col) != c.target.value(r.counterexample));
  }
  // Through verify(): refuted, and shrunk to the shortest counterexample.
  VerifyOptions vo;
  vo.sat_length = 7;
  vo.random = 0;
  vo.seed = 1;
  const VerifyReport report = verify(selective_copy(small_window), vo);
  CHECK_FALSE(report.holds);
  REQUIRE(report.counterexample);
  CHECK(report.counterexample->found_by == "sat");
  CHECK(report.counterexample->input.size() == 3);  // "3" needs three tokens: distance 3 > window
  CHECK(verdict_text(report).find(
            "refuted — shortest counterexample below (every input of length ≤ 7") !=
        std::string::npos);
}

TEST_CASE("sat: what cannot be encoded says why", "[sat]") {
  SelectiveCopyOptions sc;
  Construction c = selective_copy(sc);
  c.target.boolean_spec = {};
  const SatOutcome r = prove_by_sat(c, SatOptions{});
  CHECK(r.verdict == SatOutcome::Verdict::unavailable);
  CHECK(r.reason.find("no boolean specification") != std::string::npos);
}
#endif

#if RNNCC_TEST_HAVE_CADICAL
TEST_CASE("sat: the Turing-machine hybrid on every tape, and its defects refuted", "[sat]") {
  const TuringMachine bb2 = parse_machine("1RB1LB_1LA1RZ");
  const SatOutcome ok = prove_tm_by_sat(bb2, 3, 8, {}, SatOptions{});
  INFO(ok.reason);
  CHECK(ok.verdict == SatOutcome::Verdict::proved);
  CHECK(ok.check.valid);
  for (auto defect :
       {TmHybridOptions::Defect::off_by_one_position, TmHybridOptions::Defect::leftmost_ties}) {
    TmHybridOptions h;
    h.defect = defect;
    const SatOutcome bad = prove_tm_by_sat(bb2, 3, 8, h, SatOptions{});
    REQUIRE(bad.verdict == SatOutcome::Verdict::refuted);
    // The tape is a real counterexample: the step-by-step checker fails on it.
    TmVerifyOptions vo;
    vo.max_steps = 8;
    vo.hybrid = h;
    CHECK_FALSE(verify_tm(bb2, bad.counterexample, vo).report.holds);
  }
}
#endif
