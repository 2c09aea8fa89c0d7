// DWFA ↔ PD LRNN: the column-one-hot convention, random deterministic WFAs through both
// directions on all strings up to length 5, and one test per diagnostic.
#include <catch2/catch.hpp>

#include "tests/constructions/claims.hpp"

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/dwfa_pd.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

using test::all_strings;

Rational nonzero_rational(std::mt19937_64& rng) {
  Rational q = test::small_rational(rng);
  return q == 0 ? Rational(-2) : q;
}

// A random DWFA: one initial state, each (state, symbol) with no arc (1 in 4) or one arc of a
// random nonzero weight.
Wfa random_dwfa(std::mt19937_64& rng, std::size_t d, std::size_t symbols) {
  Wfa a;
  std::vector<std::string> names{"a", "b", "c"};
  names.resize(symbols);
  a.alphabet = Alphabet(names, "test");
  a.initial.assign(d, Rational(0));
  a.initial[rng() % d] = nonzero_rational(rng);
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back("s" + std::to_string(i));
    a.final.push_back(rng() % 3 ? test::small_rational(rng) : Rational(0));
  }
  for (std::size_t s = 0; s < symbols; ++s) {
    Matrix<Rational> m(d, d, Rational(0));
    for (std::size_t p = 0; p < d; ++p)
      if (rng() % 4) m(p, rng() % d) = nonzero_rational(rng);
    a.transition.push_back(std::move(m));
  }
  return a;
}

Rational model_value(const Construction& c, const std::vector<std::size_t>& w) {
  return evaluate(c.model, Q, c.encode(w)).outputs().back()(c.out_row, c.out_col);
}

// The model agrees with the target on all strings of length 1..5 (one run per length-5 string;
// the evaluator is causal and reads one token per symbol, so output t is f(w₁…w_t)).
void check_values(const Construction& c, std::size_t symbols) {
  for (const auto& w : all_strings(symbols, 5, 5)) {
    const auto outputs = evaluate(c.model, Q, c.encode(w)).outputs();
    REQUIRE(outputs.size() == 5);
    for (std::size_t t = 1; t <= 5; ++t) {
      const std::vector<std::size_t> prefix(w.begin(), w.begin() + t);
      REQUIRE(outputs[t - 1](0, 0) == c.target.value(prefix));
    }
  }
}

using test::check_all_claims;
using test::claim;

// A one-layer PD model over {a, b}, d = 2, with P_a the swap and P_b collapsing both states
// to state 0; `patch` edits the frame and steps before building.
template <class Patch>
Model pd_model(Patch&& patch) {
  LayerFrame frame;
  frame.d = 2;
  frame.m = 1;
  frame.features = 2;
  frame.initial_state = Matrix<Rational>(2, 1, Rational(0));
  frame.initial_state(0, 0) = 1;
  frame.readout = Matrix<Rational>(1, 2, Rational(0));
  frame.readout(0, 1) = 3;
  std::vector<PdStep> steps{{{1, 0}, {2, Rational(1, 2)}, Matrix<Rational>(2, 1, Rational(0))},
                            {{0, 0}, {-1, 5}, Matrix<Rational>(2, 1, Rational(0))}};
  patch(frame, steps);
  Model m;
  m.name = "pd-test";
  m.alphabet = Alphabet({"a", "b"}, "test");
  m.layers.push_back(StackLayer{std::nullopt, make_pd(frame, steps, false)});
  return m;
}
Model pd_model() {
  return pd_model([](LayerFrame&, std::vector<PdStep>&) {});
}

void expect_dwfa_error(const Wfa& a, const std::string& what) {
  const test::Diagnostic d = test::input_error_of([&] { dwfa_to_pd(a); });
  CHECK(d.where.empty());
  CHECK(d.what == what);
}

void expect_pd_error(const Model& m, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { pd_to_dwfa(m); }, where, what);
  CHECK_THROWS_AS(pd_to_dwfa_check(m), InputError);
}

}  // namespace

TEST_CASE("dwfa to pd: the column-one-hot convention", "[constructions][dwfa]") {
  // Arcs p --σ/w--> q: 0 --a/2--> 1, 1 --a/-1/2--> 1, 0 --b/3--> 0; state 1 has no b-arc.
  const Wfa a = parse_wfa_att("0 1 a 2\n1 1 a -1/2\n0 0 b 3\n1 7\n", "t.att");
  const Construction c = dwfa_to_pd(a);
  CHECK(c.name == "dwfa-pd");
  const auto& l = std::get<LrnnLayer>(c.model.layers.at(0).layer);
  CHECK(l.family == Family::pd);
  const auto& pa = std::get<PdParams>(l.record[0]);
  const auto& pb = std::get<PdParams>(l.record[1]);
  CHECK(pa.image == std::vector<std::size_t>{1, 1});            // image[p] = q
  CHECK(pa.diag == std::vector<Rational>{2, Rational(-1, 2)});  // D_p = w
  CHECK_FALSE(pa.permutation);
  CHECK(pb.image == std::vector<std::size_t>{0, 1});  // no b-arc from 1: image[1] = 1, D_1 = 0
  CHECK(pb.diag == std::vector<Rational>{3, 0});
  CHECK(l.A[0](1, 0) == 2);  // A_σ[q][p] = w
  CHECK(l.A[0](1, 1) == Rational(-1, 2));
  CHECK(l.A[0](0, 0) == 0);
  CHECK(l.A[1] == transpose(a.transition[1]));
  CHECK(model_value(c, {0}) == 14);         // 2 · 7
  CHECK(model_value(c, {1, 0, 0}) == -21);  // 3 · 2 · (−1/2) · 7
  CHECK(model_value(c, {0, 1}) == 0);       // state 1 has no b-arc
  // P_b is the identity (a zero column keeps its index), so only P_a is not a permutation.
  CHECK(claim(c, "P_σ kind").measured == "column-one-hot; not a permutation for 'a'");
  check_all_claims(c);
  check_values(c, 2);
  REQUIRE(c.embedding);
  CHECK(c.embedding(2).size() == 4);
  CHECK(c.embedding(2)[3].variables == std::vector<std::uint32_t>{3});
}

TEST_CASE("dwfa to pd: divisibility by 3", "[constructions][dwfa]") {
  const Wfa a = load_wfa(test::example("dwfa_mod3.att"));
  const Construction c = dwfa_to_pd(a);
  check_all_claims(c);
  CHECK(claim(c, "P_σ kind").measured == "permutation for every symbol");
  CHECK(claim(c, "state size").measured == "3");
  CHECK(claim(c, "steps per symbol").measured == "1");
  check_values(c, 2);
  for (unsigned v = 1; v < 64; ++v) {
    std::vector<std::size_t> w;
    for (int b = 5; b >= 0; --b) w.push_back((v >> b) & 1);
    CHECK(model_value(c, w) == (v % 3 == 0 ? 1 : 0));
  }
}

TEST_CASE("dwfa ↔ pd: random DWFAs both ways on all strings up to length 5",
          "[constructions][dwfa]") {
  std::mt19937_64 rng(31337);
  for (std::size_t d = 2; d <= 4; ++d)
    for (std::size_t symbols = 2; symbols <= 3; ++symbols)
      for (int rep = 0; rep < 3; ++rep) {
        const Wfa a = random_dwfa(rng, d, symbols);
        INFO("d = " << d << ", |Σ| = " << symbols << ", rep " << rep);
        REQUIRE(a.deterministic());
        const Construction forward = dwfa_to_pd(a);
        check_all_claims(forward);
        check_values(forward, symbols);
        for (const auto& w : all_strings(symbols, 0, 3))
          CHECK(forward.target.value(w) == evaluate(a, w));

        // Back: the extracted WFA is the one we started from (up to state names).
        const Wfa back = pd_to_dwfa(forward.model);
        CHECK(back.deterministic());
        CHECK(back.initial == a.initial);
        CHECK(back.final == a.final);
        CHECK(back.transition == a.transition);
        CHECK(back.alphabet.symbols() == a.alphabet.symbols());
        CHECK(back.state_names.front() == "0");

        const Construction check = pd_to_dwfa_check(forward.model);
        CHECK(check.name == "pd-dwfa");
        check_all_claims(check);
        check_values(check, symbols);
        CHECK(check.encode({1, 0}) == std::vector<std::size_t>{1, 0});
      }
}

TEST_CASE("pd to dwfa: an S_0 that is not one-hot", "[constructions][dwfa]") {
  const Model m = pd_model([](LayerFrame& f, std::vector<PdStep>&) { f.initial_state(1, 0) = 4; });
  const Wfa a = pd_to_dwfa(m);
  CHECK_FALSE(a.deterministic());  // two initial states; transitions still deterministic
  CHECK(a.initial == std::vector<Rational>{1, 4});
  CHECK(a.transition[0](0, 1) == 2);  // M_σ = A_σᵀ
  const Construction c = pd_to_dwfa_check(m);
  check_values(c, 2);  // the extraction is still exact
  CHECK(claim(c, "rows of M_σ").ok);
  const Claim& one = claim(c, "one initial state");
  CHECK_FALSE(one.ok);
  CHECK(one.measured == "2");
  CHECK_THROWS_AS(dwfa_to_pd(a), InputError);
}

TEST_CASE("diagnostic: a WFA that is not deterministic", "[constructions][dwfa][diagnostics]") {
  expect_dwfa_error(load_wfa(test::example("wfa_binary_value.att")),
                    "the WFA is not deterministic: state 'u' has 2 arcs labelled '1' (to 'u' and "
                    "'v'); a DWFA has at most one arc per state and symbol");
  Wfa a = load_wfa(test::example("dwfa_mod3.att"));
  a.initial = {1, 0, Rational(1, 2)};
  expect_dwfa_error(a,
                    "the WFA is not deterministic: it has 2 initial states ('0' and '2'); a DWFA "
                    "has exactly one");
  a.initial = {0, 0, 0};
  expect_dwfa_error(
      a, "the WFA is not deterministic: it has no initial state (α = 0); a DWFA has exactly one");
}

TEST_CASE("diagnostic: PD models that are not a WFA", "[constructions][dwfa][diagnostics]") {
  CHECK_NOTHROW(pd_to_dwfa(pd_model()));
  {
    Model two = pd_model();
    two.layers.push_back(two.layers[0]);
    two.layers[1].input = InputMap{Matrix<Rational>(2, 1, Rational(1)), Matrix<Rational>()};
    expect_pd_error(two, "layers", "a WFA is read off a one-layer model, got 2 layers");
  }
  expect_pd_error(load_model(test::example("binary_value_wfa.json")), "layer 0",
                  "expected an lrnn/pd layer (a DWFA's transitions are P·D), got lrnn/general");
  expect_pd_error(pd_model([](LayerFrame& f, std::vector<PdStep>& s) {
                    f.m = 2;
                    f.initial_state = Matrix<Rational>(2, 2, Rational(0));
                    for (auto& step : s) step.B = Matrix<Rational>(2, 2, Rational(0));
                  }),
                  "layer 0", "expected one state column (m = 1), got m = 2");
  expect_pd_error(pd_model([](LayerFrame& f, std::vector<PdStep>&) {
                    f.readout = Matrix<Rational>(2, 2, Rational(1));
                  }),
                  "layer 0", "expected a readout of one row (a WFA's final weights), got 2 rows");
  expect_pd_error(pd_model([](LayerFrame& f, std::vector<PdStep>&) {
                    f.readout_bias = Matrix<Rational>(1, 1, Rational(-5));
                  }),
                  "layer 0", "a nonzero readout_bias is not supported");
  expect_pd_error(pd_model([](LayerFrame& f, std::vector<PdStep>&) {
                    f.readout_feature = {Matrix<Rational>(1, 2, Rational(0)),
                                         Matrix<Rational>(1, 2, Rational(1))};
                  }),
                  "layer 0",
                  "a per-symbol readout C (symbol 'b') is not supported: a WFA has one final "
                  "vector β");
  expect_pd_error(pd_model([](LayerFrame&, std::vector<PdStep>& s) { s[1].B(0, 0) = 1; }),
                  "layer 0",
                  "symbol 'b' has a nonzero B (an affine write); a WFA's transitions are linear");
  // A zero readout bias and zero per-symbol readouts change nothing, so they are accepted.
  CHECK_NOTHROW(pd_to_dwfa(pd_model([](LayerFrame& f, std::vector<PdStep>&) {
    f.readout_bias = Matrix<Rational>(1, 1, Rational(0));
  })));
  // The S5 example has y = trace − 5: a readout bias.
  expect_pd_error(load_model(test::example("s5_word_problem.json")), "layer 0",
                  "a nonzero readout_bias is not supported");
}
