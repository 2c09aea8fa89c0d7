// Soundness of the testing methods (issue 13, item 7): each case is a false claim that an
// earlier verify reported as holding (or a report that said more than was checked), found by
// trying to make verify say HOLDS for something false.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp_ops.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

Matrix<Rational> zero_matrix(std::size_t d) {
  return Matrix<Rational>(d, d, Rational(0));
}

Wfa empty_wfa(const Alphabet& sigma, std::size_t d) {
  Wfa a;
  a.alphabet = sigma;
  for (std::size_t i = 0; i < d; ++i) a.state_names.push_back("q" + std::to_string(i));
  a.initial.assign(d, Rational(0));
  a.final.assign(d, Rational(0));
  a.transition.assign(sigma.size(), zero_matrix(d));
  return a;
}

// f(w) = number of occurrences of `symbol` (2 states).
Wfa count_wfa(const Alphabet& sigma, std::size_t symbol) {
  Wfa a = empty_wfa(sigma, 2);
  a.initial[0] = 1;
  a.final[1] = 1;
  for (std::size_t s = 0; s < sigma.size(); ++s) {
    a.transition[s](0, 0) = a.transition[s](1, 1) = 1;
    if (s == symbol) a.transition[s](0, 1) = 1;
  }
  return a;
}

// f(w) = [w contains the factor u]: the KMP automaton, |u| + 1 states, the last absorbing.
Wfa factor_wfa(const Alphabet& sigma, const std::vector<std::size_t>& u) {
  const std::size_t m = u.size();
  Wfa a = empty_wfa(sigma, m + 1);
  a.initial[0] = 1;
  a.final[m] = 1;
  for (std::size_t q = 0; q <= m; ++q)
    for (std::size_t s = 0; s < sigma.size(); ++s) {
      std::size_t next = m;
      if (q < m) {  // the longest suffix of u[0..q) + s that is a prefix of u
        std::vector<std::size_t> read(u.begin(), u.begin() + static_cast<long>(q));
        read.push_back(s);
        for (next = std::min(read.size(), m); next > 0; --next)
          if (std::equal(read.end() - static_cast<long>(next), read.end(), u.begin())) break;
      }
      a.transition[s](q, next) = 1;
    }
  return a;
}

// x·f_a + y·f_b: the direct sum with the final weights scaled.
Wfa combine(const Wfa& a, const Rational& x, const Wfa& b, const Rational& y) {
  const std::size_t da = a.states(), db = b.states();
  Wfa c = empty_wfa(a.alphabet, da + db);
  for (std::size_t i = 0; i < da; ++i) {
    c.initial[i] = a.initial[i];
    c.final[i] = x * a.final[i];
  }
  for (std::size_t i = 0; i < db; ++i) {
    c.initial[da + i] = b.initial[i];
    c.final[da + i] = y * b.final[i];
  }
  for (std::size_t s = 0; s < a.alphabet.size(); ++s) {
    for (std::size_t i = 0; i < da; ++i)
      for (std::size_t j = 0; j < da; ++j) c.transition[s](i, j) = a.transition[s](i, j);
    for (std::size_t i = 0; i < db; ++i)
      for (std::size_t j = 0; j < db; ++j) c.transition[s](da + i, da + j) = b.transition[s](i, j);
  }
  return c;
}

Model general_model_of(const Wfa& a) {
  return wfa_to_lrnn(a, WfaFamily::general).model;
}

VerifyOptions identity_only(std::size_t rounds, std::size_t max_length, std::uint64_t seed) {
  VerifyOptions o;
  o.prove = false;  // the testing methods alone
  o.random = 0;
  o.identity_rounds = rounds;
  o.identity_max_length = max_length;
  o.seed = seed;
  return o;
}

bool any_note(const VerifyReport& r, const std::string& text) {
  for (const std::string& n : r.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

const Alphabet ab({"a", "b"}, "test");
const Alphabet abcd({"a", "b", "c", "d"}, "test");

}  // namespace

TEST_CASE("identity testing draws its prime: a model off by a multiple of 2^61 − 1 is caught",
          "[verify][soundness][identity]") {
  // X = the count of a's with one weight raised by 2^61 − 1: equal to f modulo the prime the
  // identity test used to fix, so that test passed it with an error bound of ~1e-36.
  const Wfa f = count_wfa(ab, 0);
  Construction c = wfa_to_lrnn(f, WfaFamily::general);
  LrnnLayer& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  layer.A[0](1, 0) += Rational(Integer(2305843009213693951ull));  // A_a = M_aᵀ: the 0→1 arc
  std::set<std::uint64_t> primes;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    INFO("seed " << seed);
    const VerifyReport r = verify(c, identity_only(2, 3, seed));
    CHECK_FALSE(r.holds);
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->found_by == "identity");
    CHECK(r.counterexample->input_text == "a");
    REQUIRE(r.identity);
    CHECK(r.identity->prime > (std::uint64_t{1} << 61));
    CHECK(r.identity->prime < (std::uint64_t{1} << 62));
    CHECK(modp::is_prime(r.identity->prime));
    primes.insert(r.identity->prime);
    CHECK(r.seed == seed);
    CHECK(verify(c, identity_only(2, 3, seed)).identity->prime == r.identity->prime);
  }
  CHECK(primes.size() == 4);  // one prime per seed
  // Without --seed the seed is drawn at random, and reported (text and JSON) to reproduce.
  VerifyOptions o = identity_only(1, 2, 0);
  o.seed.reset();
  const VerifyReport a = verify(wfa_to_lrnn(f, WfaFamily::general), o);
  const VerifyReport b = verify(wfa_to_lrnn(f, WfaFamily::general), o);
  REQUIRE(a.seed);
  REQUIRE(b.seed);
  CHECK(*a.seed != *b.seed);
  CHECK(a.identity->prime != b.identity->prime);
  CHECK(to_json(a)["seed"] == *a.seed);
  CHECK(to_json(a)["identity"]["prime"] == a.identity->prime);
  CHECK_THAT(format_text(a), Catch::Contains(std::to_string(*a.seed)) &&
                                 Catch::Contains(std::to_string(a.identity->prime)));
  REQUIRE(a.error_bound);
  CHECK_THAT(*a.error_bound, Catch::Contains("random prime") && Catch::Contains("2^61, 2^62"));
}

TEST_CASE("wfa --family general: f's circuit is built from the WFA's weights, not a model",
          "[verify][soundness][identity]") {
  // A WFA whose matrices are not symmetric and whose α ≠ β, so that a transposed or swapped
  // reading of the weights gives another function.
  Wfa a = empty_wfa(ab, 2);
  a.initial = {Rational(1), Rational(2)};
  a.final = {Rational(3), Rational(-1)};
  a.transition[0](0, 1) = 2;
  a.transition[0](1, 1) = Rational(1, 2);
  a.transition[1](1, 0) = 5;
  a.transition[1](0, 0) = -1;
  const RationalField Q;
  for (const auto& w : test::all_strings(2, 1, 4)) {
    const Circuit fc = wfa_circuit(a, w.size());
    const auto x = test::one_hot(w, 2);
    CHECK(evaluate(fc, Q, std::span<const Rational>(x)).at(0) == evaluate(a, w));
  }
  // The model corrupted after construction, f kept: identity testing alone catches it.
  Construction c = wfa_to_lrnn(a, WfaFamily::general);
  std::get<LrnnLayer>(c.model.layers[0].layer).A[1](0, 0) = 7;
  const VerifyReport r = verify(c, identity_only(2, 3, 5));
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->found_by == "identity");
  CHECK(r.counterexample->input_text == "b");
  CHECK_FALSE(r.error_bound);
}

TEST_CASE("PD models: identity testing compiles densely and proves what it says",
          "[verify][soundness][identity]") {
  // The PD circuit multiplies P(x_t) and D(x_t), both read from position t: not affine in the
  // block, so it used to differ from f at every random point ("circuits differ" at every length,
  // then an enumeration, then HOLDS with a bound anyway).
  const Construction c = dwfa_to_pd(load_wfa(test::example("dwfa_mod3.att")));
  const VerifyReport r = verify(c, identity_only(2, 5, 3));
  CHECK(r.holds);
  CHECK_FALSE(any_note(r, "differ"));
  REQUIRE(r.identity);
  CHECK(r.identity->lengths_passed == std::vector<std::size_t>{1, 2, 3, 4, 5});
  CHECK(r.error_bound);
  CHECK_FALSE(r.checked.count("identity (strings enumerated)"));
  // And a broken PD model is still caught.
  Construction broken = c;
  std::get<LrnnLayer>(broken.model.layers[0].layer).A[1](0, 0) = 1;
  const VerifyReport rb = verify(broken, identity_only(2, 5, 3));
  REQUIRE(rb.counterexample);
  CHECK(rb.counterexample->found_by == "identity");
}

TEST_CASE("identity testing is declined where a circuit is not affine per block, with no bound",
          "[verify][soundness][identity]") {
  // f's circuit squares each indicator: x² = x on one-hot inputs, so f is the count of a's there,
  // but off them it differs from X's circuit. The old test reported "circuits differ" at every
  // length, enumerated every string, found none, and printed HOLDS with an error bound.
  const Wfa f = count_wfa(ab, 0);
  Construction c = wfa_to_lrnn(f, WfaFamily::general);
  c.target.circuit = [](std::size_t n) {
    CircuitBuilder b;
    std::vector<GateId> terms;
    for (std::size_t t = 0; t < n; ++t) {
      const GateId a = b.input();
      (void)b.input();
      terms.push_back(b.mul(a, a));
    }
    return b.finish({b.sum(terms)}, {"f"});
  };
  const VerifyReport r = verify(c, identity_only(2, 4, 1));
  CHECK(r.holds);
  CHECK_FALSE(r.error_bound);
  CHECK(any_note(r, "identity test declined from n = 1"));
  CHECK_FALSE(any_note(r, "circuits differ"));
  CHECK_FALSE(r.checked.count("identity (strings enumerated)"));
}

TEST_CASE("a difference found by identity testing is located without enumerating past the cap",
          "[verify][soundness][identity]") {
  // X = f + [w contains aaaaaaaa]... over {b, a} so that the only differing string of length 8,
  // bbbbbbbb... is the last in lexicographic order: enumerating for it would take all 256.
  const Alphabet ba({"b", "a"}, "test");
  const Wfa f = count_wfa(ba, 0);
  const Wfa g = combine(f, 1, factor_wfa(ba, std::vector<std::size_t>(8, 1)), 1);
  Construction c = model_against_wfa(general_model_of(g), f);
  VerifyOptions o = identity_only(2, 8, 9);
  o.exhaustive_cap = 100;
  o.shrink_cap = 1000;
  const VerifyReport r = verify(c, o);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->found_by == "identity");
  CHECK(r.counterexample->input_text == "aaaaaaaa");
  CHECK(r.checked.count("identity (strings enumerated)") == 0);
  CHECK(r.checked.at("identity (points)") <= 2 * 8 + 8 * 2 + 2);
  CHECK_FALSE(r.error_bound);
}

TEST_CASE("a model differing only on strings with one factor of length 9 is reported as tested",
          "[verify][soundness][tested]") {
  // f counts a's (2 states); X = f + [w contains u], |u| = 9 (2 + 10 = 12 states). Random
  // strings rarely contain u and identity testing stops at length 8: every testing method
  // passes, so the report must say what was tested, not that the claim holds.
  const std::vector<std::size_t> u = {0, 1, 2, 3, 3, 2, 1, 0, 2};
  const Wfa f = count_wfa(abcd, 0);
  const Wfa g = combine(f, 1, factor_wfa(abcd, u), 1);
  REQUIRE(g.states() == 12);
  CHECK(evaluate(g, u) == evaluate(f, u) + 1);  // the claim is false
  const Construction c = model_against_wfa(general_model_of(g), f);
  VerifyOptions o;
  o.prove = false;  // the testing methods alone
  o.identity_rounds = 3;
  o.seed = 1;
  o.exhaustive = 4;
  const VerifyReport r = verify(c, o);
  CHECK(r.holds);  // exit code 0: no counterexample found
  REQUIRE(r.tested);
  CHECK(r.tested->max_length == 40);
  CHECK(r.tested->methods ==
        std::vector<std::string>{"exhaustive", "random", "identity", "three-way"});
  CHECK(r.tested->lengths.at("exhaustive") == std::pair<std::size_t, std::size_t>{1, 4});
  CHECK(r.tested->lengths.at("identity") == std::pair<std::size_t, std::size_t>{1, 8});
  CHECK_FALSE(r.tested->complete);
  const std::string text = format_text(r);
  CHECK_THAT(text, Catch::StartsWith(c.name + ": tested up to length 40, no counterexample ("));
  CHECK_THAT(text, !Catch::Contains("HOLDS"));
  const auto j = to_json(r);
  CHECK(j["tested"]["max_length"] == 40);
  CHECK(j["tested"]["methods"][0] == "exhaustive");
  CHECK(j["tested"]["lengths"]["random"][1] == 40);
  CHECK(j["proved"] == false);  // nothing was proved: only tested
  // A failing report carries no `tested`; an exhaustive search through length 9 finds u.
  VerifyOptions deep;
  deep.prove = false;  // the testing methods alone
  deep.random = 0;
  deep.exhaustive = 9;
  const VerifyReport refuted = verify(c, deep);
  REQUIRE(refuted.counterexample);
  CHECK(refuted.counterexample->input == u);
  CHECK_FALSE(refuted.tested);
  CHECK(to_json(refuted)["tested"].is_null());
  // With the decision procedure (the default), the claim is refuted for every length at once,
  // by the shortest distinguishing string: u itself.
  VerifyOptions proving;
  proving.random = 0;
  const VerifyReport decided = verify(c, proving);
  REQUIRE(decided.proof);
  CHECK_FALSE(decided.proof->proved);
  REQUIRE(decided.counterexample);
  CHECK(decided.counterexample->found_by == "proof");
  CHECK(decided.counterexample->input == u);
}

TEST_CASE("a fixed-length domain checked exhaustively is reported as complete",
          "[verify][soundness][tested]") {
  Construction c = wfa_to_lrnn(count_wfa(ab, 0), WfaFamily::general);
  c.target.fixed_length = 3;
  VerifyOptions o;
  o.prove = false;  // the testing methods alone
  o.random = 0;
  o.exhaustive = 0;
  const VerifyReport r = verify(c, o);
  REQUIRE(r.tested);
  CHECK(r.tested->complete);
  CHECK_THAT(format_text(r), Catch::Contains("tested on every string of its domain"));
}

TEST_CASE("when the values differ but the verdicts agree, the first differing verdict is named",
          "[verify][soundness][verdict]") {
  // f = #a; X = 2·#a − 3·[w contains bb]. On "a" the values differ (1, 2) but both accept (> 0);
  // the first string whose verdict differs is "abb" (f = 1 accepts, X = −1 rejects).
  const Wfa f = count_wfa(ab, 0);
  const Wfa g = combine(f, 2, factor_wfa(ab, {1, 1}), -3);
  VerifyOptions o;
  o.prove = false;  // the testing methods alone
  o.random = 0;
  o.exhaustive = 4;
  const VerifyReport r = verify(model_against_wfa(general_model_of(g), f), o);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "a");
  REQUIRE(r.counterexample->verdict);
  CHECK(r.counterexample->verdict->agree_on_input);
  REQUIRE(r.counterexample->verdict->first_differing);
  CHECK(*r.counterexample->verdict->first_differing == "abb (expected accept, got reject)");
  CHECK_THAT(format_text(r), Catch::Contains("the first string whose verdict differs: abb"));
  CHECK(to_json(r)["counterexample"]["verdict"]["first_differing"] ==
        "abb (expected accept, got reject)");
  // X = 2·#a: the verdicts agree on every string searched (through the longest length tested).
  const VerifyReport same = verify(model_against_wfa(general_model_of(combine(f, 2, f, 0)), f), o);
  REQUIRE(same.counterexample);
  REQUIRE(same.counterexample->verdict);
  CHECK_FALSE(same.counterexample->verdict->first_differing);
  CHECK(same.counterexample->verdict->searched_up_to == 4);
  CHECK_THAT(format_text(same), Catch::Contains("agree on it, and on every string of length ≤ 4"));
  // Where the verdicts differ on the counterexample itself, nothing more is said.
  const VerifyReport flip = verify(model_against_wfa(general_model_of(combine(f, -1, f, 0)), f), o);
  REQUIRE(flip.counterexample->verdict);
  CHECK_FALSE(flip.counterexample->verdict->agree_on_input);
}

TEST_CASE("verify KIND --model FILE checks a model file against the construction",
          "[verify][soundness][model]") {
  const Registry& registry = verify_registry();
  const ConstructionKind* wfa = registry.find("wfa");
  REQUIRE(wfa);
  const std::string att = test::example("wfa_count_ab.att");
  // construct → write → verify --model: a DPLR model reads K sub-steps per symbol, which
  // `verify model --against` cannot check.
  const Construction built =
      wfa->build(ConstructionArgs{att, {}, {}, {}}.set("--family", "dplr"), registry);
  const std::string path = "soundness_dplr_model.json";
  const auto write = [&](const Model& m) {
    std::ofstream(path) << model_to_json(m).dump(2) << "\n";
  };
  write(built.model);
  auto build_with = [&](const std::string& file) {
    return wfa->build(
        ConstructionArgs{att, {}, {}, {}}.set("--family", "dplr").set("--model", file), registry);
  };
  VerifyOptions o;
  o.prove = false;  // the testing methods alone
  o.random = 20;
  o.exhaustive = 4;
  o.seed = 1;
  const Construction with_file = build_with(path);
  CHECK(with_file.name == "wfa-dplr with the model of " + path);
  CHECK(with_file.claims.empty());
  const VerifyReport ok = verify(with_file, o);
  CHECK(ok.holds);
  CHECK(any_note(ok, "claims"));
  // One number edited in the file (a D entry of sub-step a.2): refuted.
  auto j = model_to_json(built.model);
  REQUIRE(j["layers"][0]["symbols"]["a.2"]["D"][2] == "0");
  j["layers"][0]["symbols"]["a.2"]["D"][2] = "1";
  std::ofstream(path) << j.dump(2) << "\n";
  const VerifyReport bad = verify(build_with(path), o);
  CHECK_FALSE(bad.holds);
  REQUIRE(bad.counterexample);
  // A model over another alphabet: InputError naming the file and the symbols.
  write(load_model(test::example("parity_deltanet.json")));
  CHECK_THAT(
      test::input_error_of([&] { build_with(path); }).what,
      Catch::StartsWith(path + ": the model's alphabet") && Catch::Contains("it lacks 'a.0'"));
  std::remove(path.c_str());
}

TEST_CASE("with_model matches symbols by name, renumbering encode and the identity embedding",
          "[verify][soundness][model]") {
  // The count of a's over the alphabet (b, a): the same function, symbols in another order.
  const Alphabet ba({"b", "a"}, "test");
  const Construction c = with_model(wfa_to_lrnn(count_wfa(ab, 0), WfaFamily::general),
                                    general_model_of(count_wfa(ba, 1)), "reordered.json");
  VerifyOptions o = identity_only(2, 4, 2);
  o.exhaustive = 4;
  const VerifyReport r = verify(c, o);
  CHECK(r.holds);
  CHECK(r.checked.at("exhaustive") == 30);
  CHECK(r.identity->lengths_passed.size() == 4);
  // Counting the other symbol is refuted.
  const VerifyReport wrong = verify(with_model(wfa_to_lrnn(count_wfa(ab, 0), WfaFamily::general),
                                               general_model_of(count_wfa(ba, 0)), "x.json"),
                                    o);
  REQUIRE(wrong.counterexample);
  CHECK(wrong.counterexample->input_text == "a");
}
