// Finite-state views of models and WFAs, and the product breadth-first search against the
// reference evaluator, exhaustive search and the linear decider (verify/finite_equivalence.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/graph_walk.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/linear_representation.hpp"

using namespace rnncc;

namespace {

using QMat = Matrix<Rational>;

std::vector<std::string> names(std::size_t sigma) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < sigma; ++i) out.push_back(std::string(1, char('a' + i)));
  return out;
}

// Built field by field (GCC 12 warns, wrongly, about the braced StackLayer temporary).
Model model_of(std::vector<Layer> layers, std::size_t sigma,
               std::vector<std::optional<InputMap>> maps = {}) {
  Model model;
  model.alphabet = Alphabet(names(sigma), "test");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    StackLayer sl;
    sl.layer = std::move(layers[i]);
    if (i < maps.size()) sl.input = maps[i];
    model.layers.push_back(std::move(sl));
  }
  return model;
}

QMat small_int_matrix(std::mt19937_64& rng, std::size_t r, std::size_t c, long range = 1) {
  QMat m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) m(i, j) = Rational(long(rng() % (2 * range + 1)) - range);
  return m;
}

ElmanLayer random_elman(std::mt19937_64& rng, Activation act, std::size_t d, std::size_t k,
                        bool small = false) {
  ElmanLayer l;
  l.activation = act;
  l.d = d;
  l.features = k;
  auto mat = [&](std::size_t r, std::size_t c) {
    return small ? small_int_matrix(rng, r, c) : test::random_matrix(rng, r, c);
  };
  l.pre = {mat(d, d), mat(d, k), mat(d, 1)};
  l.initial_state = mat(d, 1);
  l.readout = mat(2, d);
  if (rng() % 2) l.readout_bias = mat(2, 1);
  return l;
}

// A one-layer PD model with permutation P_σ, D_σ ∈ {±1}, B = 0 and small integer S_0, C: its
// reachable set is finite (entries stay in ±S_0).
Model random_permutation_model(std::mt19937_64& rng, std::size_t d, std::size_t sigma) {
  LayerFrame f;
  f.d = d;
  f.features = sigma;
  f.initial_state = small_int_matrix(rng, d, 1, 2);
  f.readout = small_int_matrix(rng, 1, d, 2);
  std::vector<PdStep> steps;
  for (std::size_t s = 0; s < sigma; ++s) {
    std::vector<std::size_t> image(d);
    for (std::size_t i = 0; i < d; ++i) image[i] = i;
    std::shuffle(image.begin(), image.end(), rng);
    Vector diag;
    for (std::size_t i = 0; i < d; ++i) diag.push_back(Rational(rng() % 4 == 0 ? -1 : 1));
    steps.push_back({image, diag, QMat(d, 1, Rational(0))});
  }
  return model_of({make_pd(f, steps, true)}, sigma);
}

// A random deterministic WFA with weights in {0, ±1} (at most 2|Q| + 1 reachable vectors).
Wfa random_dwfa(std::mt19937_64& rng, std::size_t n, std::size_t sigma) {
  Wfa a;
  a.alphabet = Alphabet(names(sigma), "test");
  for (std::size_t i = 0; i < n; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(Rational(i == 0 ? 1 : 0));
    a.final.push_back(Rational(long(rng() % 3) - 1));
  }
  for (std::size_t s = 0; s < sigma; ++s) {
    QMat m(n, n, Rational(0));
    for (std::size_t i = 0; i < n; ++i)
      if (rng() % 5 != 0) m(i, rng() % n) = rng() % 4 == 0 ? -1 : 1;
    a.transition.push_back(m);
  }
  return a;
}

// The same function on relabelled states: S' = Π S, A'_σ = Π A_σ Πᵀ, B' = Π B, C' = C Πᵀ
// (a general-family layer), with Π the permutation matrix of `perm` (Π e_i = e_{perm[i]}).
Model relabelled(const Model& m, const std::vector<std::size_t>& perm) {
  const LrnnLayer& l = std::get<LrnnLayer>(m.layers.at(0).layer);
  const std::size_t d = l.d;
  auto rows = [&](const QMat& x) {  // Π x
    QMat y(x.rows(), x.cols());
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < x.cols(); ++j) y(perm[i], j) = x(i, j);
    return y;
  };
  auto cols = [&](const QMat& x) {  // x Πᵀ
    QMat y(x.rows(), x.cols());
    for (std::size_t i = 0; i < x.rows(); ++i)
      for (std::size_t j = 0; j < d; ++j) y(i, perm[j]) = x(i, j);
    return y;
  };
  LayerFrame f;
  f.d = d;
  f.m = l.m;
  f.features = l.features;
  f.initial_state = rows(l.initial_state);
  f.readout = cols(l.readout);
  for (const QMat& c : l.readout_feature) f.readout_feature.push_back(cols(c));
  f.readout_bias = l.readout_bias;
  std::vector<AffineStep> steps;
  for (std::size_t s = 0; s < l.features; ++s) steps.push_back({cols(rows(l.A[s])), rows(l.B[s])});
  Model out = model_of({make_general(f, steps)}, l.features);
  out.alphabet = m.alphabet;
  return out;
}

// The product search's verdict must be the exhaustive engine's: a counterexample equal to the
// first one exhaustive search finds (none shorter), or none up to `proved_length`.
FiniteEquivalenceResult check_against_exhaustive(const std::variant<Model, Wfa>& f,
                                                 const std::variant<Model, Wfa>& g,
                                                 std::size_t proved_length) {
  const FiniteMachine mf = finite_machine(f), mg = finite_machine(g);
  const FiniteEquivalenceResult r = decide_finite_equivalence(mf, mg);
  REQUIRE(r.states_visited <= mf.states() * mg.states());
  if (r.equivalent) {
    CHECK_FALSE(r.counterexample);
    CHECK_FALSE(exhaustive_subject_counterexample(f, g, proved_length));
  } else {
    const EquivalenceCounterexample& c = *r.counterexample;
    const auto e = exhaustive_subject_counterexample(f, g, c.input.size());
    REQUIRE(e);
    CHECK(e->input == c.input);
    CHECK(e->position == c.position);
    CHECK(e->expected == c.expected);
    CHECK(e->got == c.got);
  }
  return r;
}

}  // namespace

// A model's finite machine is the shared search of reachable configurations (rnn/reachable.hpp)
// stepping the reference semantics: on seeded models with finitely many configurations (sign
// Elman layers, two of them through an input map, PD layers of permutations, S5), the states'
// words increase in llex order with their numbers, each state's output is the evaluator's on
// its word, and so is every transition's.
TEST_CASE("finite machines: every state and transition is the evaluator's on its word",
          "[finite][equivalence]") {
  std::mt19937_64 rng(31);
  const RationalField k;
  std::vector<Model> models;
  for (int trial = 0; trial < 3; ++trial) {
    models.push_back(model_of({random_elman(rng, Activation::sign, 2 + trial % 2, 2)}, 2));
    models.push_back(random_permutation_model(rng, 3, 2));
    // sign Elman → a second sign Elman over an input map of its output
    models.push_back(model_of(
        {random_elman(rng, Activation::sign, 2, 2), random_elman(rng, Activation::sign, 2, 3)}, 2,
        {std::nullopt, InputMap{test::random_matrix(rng, 3, 2), test::random_matrix(rng, 3, 1)}}));
  }
  models.push_back(load_model(test::example("s5_word_problem.json")));
  for (const Model& m : models) {
    const FiniteMachine fm = finite_machine(m);
    INFO(layer_kind(m.layers[0].layer) << ", " << fm.states() << " states");
    for (std::size_t q = 1; q < fm.states(); ++q) {
      const auto a = fm.word(q - 1), b = fm.word(q);
      REQUIRE((a.size() < b.size() || (a.size() == b.size() && a < b)));
      REQUIRE(evaluate(m, k, b).outputs().back().data() == fm.output[q]);
    }
    for (std::size_t q = 0; q < fm.states(); ++q)
      for (std::size_t s = 0; s < fm.symbols.size(); ++s) {
        auto w = fm.word(q);
        w.push_back(s);
        REQUIRE(evaluate(m, k, w).outputs().back().data() == fm.output[fm.next[q][s]]);
      }
  }
}

TEST_CASE("finite machines: reachable sets of the examples", "[finite][equivalence]") {
  const FiniteMachine s5 = finite_machine(load_model(test::example("s5_word_problem.json")));
  // The start (no output) and the 120 permutation matrices of S5, each with its own y.
  CHECK(s5.states() == 121);
  CHECK(s5.outputs == 1);
  CHECK_FALSE(s5.start_has_output);
  // y = fixed points − 5: the identity (reached by "ss") gives 0.
  const std::size_t ss = s5.next[s5.next[0][0]][0];
  CHECK(s5.output[ss] == std::vector<Rational>{Rational(0)});
  CHECK(s5.word(ss) == std::vector<std::size_t>{0, 0});
  const Model s5_model = load_model(test::example("s5_word_problem.json"));
  const RationalField k;
  for (std::size_t q = 1; q < s5.states(); ++q)  // each state's word reaches it
    REQUIRE(evaluate(s5_model, k, s5.word(q)).outputs().back().data() == s5.output[q]);
  // The DWFA "binary number divisible by 3": the start vector and its three states (0/1).
  const FiniteMachine mod3 = finite_machine(load_wfa(test::example("dwfa_mod3.att")));
  CHECK(mod3.states() == 3);
  CHECK(mod3.start_has_output);
  CHECK(mod3.output[0] == std::vector<Rational>{Rational(1)});
  // The graph-walk ReLU RNN reads tokens in any order, not only the encodings of instances:
  // its counter S then takes unboundedly many values, so the machine is refused.
  FiniteMachineParams cap;
  cap.max_states = 3000;
  test::expect_input_error(
      [&] { finite_machine(graph_walk(3, GraphWalkVariant::ever).model, cap); }, "",
      "more than 3000 configurations");
}

TEST_CASE("finite machines: refusals", "[finite][equivalence]") {
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  FiniteMachineParams small;
  small.max_states = 50;
  test::expect_input_error([&] { finite_machine(s5, small); }, "", "more than 50 configurations");
  // Counters have infinitely many configurations: refused at the cap, pointing to the linear
  // decider (linear ones) or to testing.
  FiniteMachineParams cap;
  cap.max_states = 2000;
  for (const char* file : {"majority_counter.json", "counter_rational.json", "relu_counter.json"})
    test::expect_input_error([&] { finite_machine(load_model(test::example(file)), cap); }, "",
                             "--method linear");
  test::expect_input_error(
      [&] { finite_machine(load_model(test::example("hybrid_counter_attention.json"))); }, "",
      "is attention/");
  // A WFA counting a's: the vectors α·M_aⁿ are all different.
  test::expect_input_error(
      [&] { finite_machine(load_wfa(test::example("wfa_count_ab.att")), cap); }, "",
      "more than 2000 configurations");
  // Different alphabets / output dimensions.
  const FiniteMachine a = finite_machine(s5);
  const FiniteMachine b = finite_machine(load_wfa(test::example("dwfa_mod3.att")));
  test::expect_input_error([&] { decide_finite_equivalence(a, b); }, "", "alphabets differ");
  FiniteEquivalenceParams few;
  few.max_pairs = 10;
  test::expect_input_error([&] { decide_finite_equivalence(a, a, few); }, "", "more than 10 pairs");
}

TEST_CASE("product search: the S5 word problem", "[finite][equivalence]") {
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  const FiniteMachine f = finite_machine(s5);
  SECTION("against itself and a relabelled copy: proved") {
    const FiniteEquivalenceResult r = decide_finite_equivalence(f, f);
    CHECK(r.equivalent);
    CHECK(r.states_visited == 121);  // the diagonal pairs only
    CHECK(r.method == "product breadth-first search");
    std::vector<std::size_t> perm(25);
    for (std::size_t i = 0; i < 25; ++i) perm[i] = (7 * i + 3) % 25;
    const Model g = relabelled(s5, perm);
    REQUIRE(std::get<LrnnLayer>(g.layers[0].layer).A[0] !=
            std::get<LrnnLayer>(s5.layers[0].layer).A[0]);
    const FiniteEquivalenceResult rg = decide_finite_equivalence(f, finite_machine(g));
    CHECK(rg.equivalent);
    CHECK(rg.states_visited == 121);
    check_against_exhaustive(s5, g, 8);
  }
  SECTION("against a copy with a swapped transition: refuted as exhaustive search") {
    Model g = s5;
    LrnnLayer& l = std::get<LrnnLayer>(g.layers[0].layer);
    // Swap the images of two coordinates under c: another permutation of the matrix entries.
    for (std::size_t j : {std::size_t{0}, std::size_t{1}}) {
      for (std::size_t i = 0; i < 25; ++i) {
        const Rational x = l.A[1](i, j);
        l.A[1](i, j) = l.A[1](i, j + 5);
        l.A[1](i, j + 5) = x;
      }
    }
    const FiniteEquivalenceResult r = decide_finite_equivalence(f, finite_machine(g));
    REQUIRE_FALSE(r.equivalent);
    CHECK_FALSE(check_against_exhaustive(s5, g, 0).equivalent);
    // The linear decider finds the same shortest, llex-least counterexample.
    const EquivalenceResult lin = decide_equivalence(from_model(s5), from_model(g));
    REQUIRE(lin.counterexample);
    CHECK(lin.counterexample->input == r.counterexample->input);
    CHECK(lin.counterexample->expected == r.counterexample->expected);
    CHECK(lin.counterexample->got == r.counterexample->got);
  }
}

TEST_CASE("product search: random permutation models against exhaustive search",
          "[finite][equivalence]") {
  std::mt19937_64 rng(7);
  std::size_t refuted = 0, proved = 0, longest = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t d = 2 + rng() % 3, sigma = 2 + rng() % 2;
    const Model f = random_permutation_model(rng, d, sigma);
    Model g = f;
    LrnnLayer& l = std::get<LrnnLayer>(g.layers[0].layer);
    switch (trial % 3) {
      case 0: {  // relabelled: equivalent
        std::vector<std::size_t> perm(d);
        for (std::size_t i = 0; i < d; ++i) perm[i] = i;
        std::shuffle(perm.begin(), perm.end(), rng);
        g = relabelled(f, perm);
        break;
      }
      case 1:  // one transition entry's sign flipped
        for (std::size_t i = 0; i < d; ++i)
          if (l.A[trial % sigma](i, 0) != 0) l.A[trial % sigma](i, 0) *= -1;
        break;
      default:  // one readout weight changed
        l.readout(0, rng() % d) += 1;
    }
    check_against_exhaustive(f, g, 7);
    const FiniteEquivalenceResult r =
        decide_finite_equivalence(finite_machine(f), finite_machine(g));
    const EquivalenceResult lin = decide_equivalence(from_model(f), from_model(g));
    REQUIRE(lin.equivalent == r.equivalent);
    if (r.equivalent) {
      ++proved;
    } else {
      ++refuted;
      longest = std::max(longest, r.counterexample->input.size());
      CHECK(lin.counterexample->input == r.counterexample->input);
    }
  }
  CHECK(longest >= 3);  // not only one-symbol counterexamples
  CHECK(proved >= 10);
  CHECK(refuted >= 10);
}

TEST_CASE("product search: random DWFAs, and a DWFA against its PD model",
          "[finite][equivalence]") {
  std::mt19937_64 rng(11);
  std::size_t refuted = 0, longest = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 2 + rng() % 3, sigma = 2;
    const Wfa f = random_dwfa(rng, n, sigma);
    Wfa g = f;
    if (trial % 2)
      g.final[rng() % n] += 1;
    else
      g = random_dwfa(rng, n, sigma);
    check_against_exhaustive(f, g, 8);
    const FiniteEquivalenceResult r =
        decide_finite_equivalence(finite_machine(f), finite_machine(g));
    const EquivalenceResult lin = decide_equivalence(from_wfa(f), from_wfa(g));
    REQUIRE(lin.equivalent == r.equivalent);
    if (!r.equivalent) {
      ++refuted;
      longest = std::max(longest, r.counterexample->input.size());
      CHECK(lin.counterexample->input == r.counterexample->input);
      CHECK(lin.counterexample->position == r.counterexample->position);
    }
  }
  CHECK(refuted >= 20);
  CHECK(longest >= 3);
  // A WFA against a model: y(ε) is compared only when both define it.
  const Wfa mod3 = load_wfa(test::example("dwfa_mod3.att"));
  const Model pd = dwfa_to_pd(mod3).model;
  const FiniteEquivalenceResult r =
      decide_finite_equivalence(finite_machine(mod3), finite_machine(pd));
  CHECK(r.equivalent);
  Wfa broken = mod3;
  broken.transition[1](2, 2) = 0;  // state 2 loses its 1-arc
  broken.transition[1](2, 1) = 1;
  CHECK_FALSE(check_against_exhaustive(broken, pd, 0).equivalent);
}

TEST_CASE("product search: random sign and ReLU Elman models (not linear)",
          "[finite][equivalence]") {
  std::mt19937_64 rng(5);
  std::size_t refuted = 0, proved = 0;
  for (int trial = 0; trial < 30; ++trial) {
    // Sign units take values in {−1, 0, 1}: at most 3^d configurations.
    const Model f = model_of({random_elman(rng, Activation::sign, 3, 2, true)}, 2);
    Model g = f;
    ElmanLayer& l = std::get<ElmanLayer>(g.layers[0].layer);
    if (trial % 3 == 0)
      l.pre.W(rng() % 3, rng() % 3) += 2;
    else if (trial % 3 == 1)
      l.readout(rng() % 2, rng() % 3) += 1;
    check_against_exhaustive(f, g, 7);
    decide_finite_equivalence(finite_machine(f), finite_machine(g)).equivalent ? ++proved
                                                                               : ++refuted;
  }
  CHECK(proved >= 5);
  CHECK(refuted >= 5);
  // A ReLU layer whose weights are a permutation: h stays in a finite orbit.
  ElmanLayer relu;
  relu.activation = Activation::relu;
  relu.d = 2;
  relu.features = 2;
  relu.pre = {QMat(2, 2, Rational(0)), QMat(2, 2, Rational(0)), QMat(2, 1, Rational(0))};
  relu.pre.W(0, 1) = relu.pre.W(1, 0) = 1;  // swap on every step
  relu.pre.U(0, 1) = -5;                    // b clears h[0]
  relu.initial_state = QMat(2, 1, Rational(1));
  relu.initial_state(1, 0) = 2;
  relu.readout = QMat(1, 2, Rational(0));
  relu.readout(0, 0) = 1;
  const Model rm = model_of({relu}, 2);
  const FiniteMachine mm = finite_machine(rm);
  CHECK(mm.states() <= 9);
  Model rm2 = rm;
  std::get<ElmanLayer>(rm2.layers[0].layer).pre.U(0, 1) = -1;
  const FiniteEquivalenceResult rr = check_against_exhaustive(rm, rm2, 0);
  REQUIRE_FALSE(rr.equivalent);
  CHECK(rr.counterexample->input == std::vector<std::size_t>{1});
}

TEST_CASE("product search: a re-entered start pair has its outputs compared",
          "[finite][equivalence]") {
  // Two 2-state Moore machines over {a}: 0 →a 1 →a 0. Neither defines y(ε); they agree after
  // "a" (state 1) and differ after "aa", which re-enters the start pair (0, 0): output 0 vs 5.
  FiniteMachine f;
  f.symbols = {"a"};
  f.next = {{1}, {0}};
  f.output = {{Rational(0)}, {Rational(1)}};
  f.parent = {0, 0};
  f.symbol = {0, 0};
  FiniteMachine g = f;
  g.output[0] = {Rational(5)};
  const FiniteEquivalenceResult r = decide_finite_equivalence(f, g);
  REQUIRE(!r.equivalent);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input == std::vector<std::size_t>{0, 0});
  CHECK(r.counterexample->expected == std::vector<std::string>{"0"});
  CHECK(r.counterexample->got == std::vector<std::string>{"5"});
  // Equal start outputs: equivalent.
  g.output[0] = {Rational(0)};
  CHECK(decide_finite_equivalence(f, g).equivalent);
}
