// Differential tests of the reference evaluators on seeded random models of every family:
// exact vs mod p (a ring homomorphism), exact vs log precision (error bounds), the step-by-
// step recurrence vs the composed affine map, and stacks vs layers run one after the other; one
// step (step_stack, the sparse product, checked int64) against the whole-input evaluator.
#include <catch2/catch.hpp>
#include <optional>
#include <random>

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "rnn/checked_int64.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using namespace rnncc::test;

TEST_CASE("every family: mod-p run = exact run reduced mod p", "[rnn][evaluate][differential]") {
  std::mt19937_64 rng(42);
  RationalField Q;
  ModP F(2305843009213693951ull);  // 2^61 − 1: no small-rational denominator vanishes
  for (Family family : all_families) {
    for (int trial = 0; trial < 8; ++trial) {
      std::size_t d = 1 + rng() % 4, m = 1 + rng() % 2, sigma = 2 + rng() % 2, n = 1 + rng() % 12;
      Model model = single_layer_model(random_layer(rng, family, d, m, sigma), sigma);
      auto w = random_input(rng, n, sigma);
      auto exact = evaluate(model, Q, w);
      auto modular = evaluate(model, F, w);
      INFO("family " << to_string(family) << ", trial " << trial);
      for (std::size_t t = 0; t < n; ++t) {
        REQUIRE(equal(F, from_rational(F, exact.outputs()[t]), modular.outputs()[t]));
        REQUIRE(equal(F, from_rational(F, exact.layers[0].states[t]), modular.layers[0].states[t]));
      }
    }
  }
}

TEST_CASE("every family: the state is the composed affine map applied to S_0",
          "[rnn][evaluate][differential]") {
  // S_t = (F_t ∘ … ∘ F_1)(S_0) with (A₂,B₂)∘(A₁,B₁) = (A₂A₁, A₂B₁ + B₂): the monoid the scan uses.
  std::mt19937_64 rng(43);
  RationalField Q;
  for (Family family : all_families) {
    std::size_t d = 3, m = 2, sigma = 3, n = 9;
    LrnnLayer layer = random_layer(rng, family, d, m, sigma);
    Model model = single_layer_model(layer, sigma);
    auto w = random_input(rng, n, sigma);
    auto trace = evaluate(model, Q, w);
    Matrix<Rational> A = identity(Q, d), B = zeros(Q, d, m);
    for (std::size_t t = 0; t < n; ++t) {
      const auto& a = layer.A[w[t]];
      const auto& b = layer.B[w[t]];
      B = affine(Q, a, B, b);
      A = mul(Q, a, A);
      REQUIRE(trace.layers[0].states[t] == affine(Q, A, layer.initial_state, B));
    }
  }
}

TEST_CASE("log precision tracks exact within the rounding error on contracting models",
          "[rnn][evaluate][differential]") {
  // Dyadic parameters (exact at F ≥ 3) and decays in [−1/2, 1/2]: each step adds one rounding
  // (≤ ½ ulp nearest-even, < 1 ulp toward zero) and halves older errors, so the state error
  // stays ≤ 1 ulp (nearest-even) and < 2 ulp (toward zero).
  std::mt19937_64 rng(44);
  auto dyadic = [&](std::size_t r, std::size_t c) {
    Matrix<Rational> m(r, c);
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) m(i, j) = Rational(static_cast<long>(rng() % 33) - 16, 8);
    return m;
  };
  RationalField Q;
  for (Rounding mode : {Rounding::nearest_even, Rounding::toward_zero}) {
    for (int trial = 0; trial < 40; ++trial) {
      std::size_t d = 3, sigma = 2, n = 30;
      LayerFrame f;
      f.d = d;
      f.features = sigma;
      f.initial_state = dyadic(d, 1);
      f.readout = dyadic(1, d);
      std::vector<DecayStep> s;
      for (std::size_t i = 0; i < sigma; ++i) {
        Vector decay;
        for (std::size_t j = 0; j < d; ++j)
          decay.push_back(Rational(static_cast<long>(rng() % 9) - 4, 8));
        s.push_back({decay, dyadic(d, 1)});
      }
      Model model = single_layer_model(make_diagonal(Family::gla, f, s), sigma);
      auto w = random_input(rng, n, sigma);
      FixedPoint k(log_precision(2, n, std::nullopt, mode, Overflow::error));
      auto exact = evaluate(model, Q, w);
      auto fixed = evaluate(model, k, w);
      Rational ulp(1, Integer(1) << k.format().frac_bits);
      for (std::size_t t = 0; t < n; ++t)
        for (std::size_t i = 0; i < d; ++i) {
          Rational err = boost::multiprecision::abs(k.to_rational(fixed.layers[0].states[t](i, 0)) -
                                                    exact.layers[0].states[t](i, 0));
          REQUIRE(err <= (mode == Rounding::nearest_even ? ulp : 2 * ulp));
        }
    }
  }
}

TEST_CASE("a stack equals its layers run one after the other", "[rnn][evaluate][stack]") {
  std::mt19937_64 rng(45);
  RationalField Q;
  for (int trial = 0; trial < 20; ++trial) {
    std::size_t sigma = 2, n = 7;
    LrnnLayer first = random_layer(rng, Family::dplr, 3, 1, sigma);  // outputs 2×1
    InputMap map{random_matrix(rng, 2, 2), random_matrix(rng, 2, 1)};
    LrnnLayer second = random_layer(rng, Family::deltanet, 2, 2, 2);
    Model stack = single_layer_model(first, sigma);
    stack.layers.push_back({map, second});
    auto w = random_input(rng, n, sigma);
    auto trace = evaluate(stack, Q, w);
    auto lower = evaluate(single_layer_model(first, sigma), Q, w);
    // by hand: z_t = W·vec(y_t) + b, then S_t = A(z_t) S_{t−1} + B(z_t), A(z) = Σ z_k A_k
    Matrix<Rational> S = second.initial_state;
    for (std::size_t t = 0; t < n; ++t) {
      Matrix<Rational> z = affine(Q, map.weights, lower.outputs()[t], map.bias);
      Matrix<Rational> A = zeros(Q, 2, 2), B = zeros(Q, 2, 2), C = second.readout;
      for (std::size_t f = 0; f < 2; ++f) {
        A = add(Q, A, scale(Q, z(f, 0), second.A[f]));
        B = add(Q, B, scale(Q, z(f, 0), second.B[f]));
        if (!second.readout_feature.empty())
          C = add(Q, C, scale(Q, z(f, 0), second.readout_feature[f]));
      }
      S = affine(Q, A, S, B);
      REQUIRE(trace.layers[1].states[t] == S);
      REQUIRE(trace.outputs()[t] == affine(Q, C, S, second.readout_bias));
    }
  }
}

TEST_CASE("Elman sign and LSTM hard gates, by hand", "[rnn][evaluate][nonlinear]") {
  RationalField Q;
  Model sign = parse_model(
      R"({"alphabet": ["a", "b"], "layers": [{"kind": "elman", "activation": "sign", "d": 1,
      "W": [["2"]], "U": [["1", "-3"]], "bias": ["0"], "readout": [["1"]]}], "accept": {"mode": "zero"}})",
      "sign.json");
  // h = sign(2h + [a] − 3[b]): a → 1, b → sign(2 − 3) = −1, a → sign(−2 + 1) = −1, a → sign(−1) =
  // −1
  auto ys = evaluate(sign, Q, sign.alphabet.tokenize("abaa", "t")).outputs();
  CHECK(ys[0](0, 0) == 1);
  CHECK(ys[1](0, 0) == -1);
  CHECK(ys[2](0, 0) == -1);
  Model lstm = parse_model(R"({"alphabet": ["a", "b"], "layers": [{"kind": "lstm", "d": 1,
      "gates": {"f": {"W": [["0"]], "U": [["2", "-2"]], "bias": ["0"]},
                "i": {"W": [["0"]], "U": [["0", "0"]], "bias": ["2"]},
                "o": {"W": [["0"]], "U": [["0", "0"]], "bias": ["6"]},
                "g": {"W": [["1"]], "U": [["1", "-1"]]}},
      "initial_state": {"c": ["1"]}, "readout": [["1"]]}]})",
                           "lstm.json");
  // step a: f = σ̂(2) = 1, i = σ̂(2) = 1, o = σ̂(6) = 1 (clamped), g = tanĥ(0 + 1) = 1
  //         c = 1·1 + 1·1 = 2, h = tanĥ(2) = 1
  // step b: f = σ̂(−2) = 0, g = tanĥ(1 − 1) = 0, c = 0, h = 0
  auto trace = evaluate(lstm, Q, lstm.alphabet.tokenize("ab", "t"));
  CHECK(trace.outputs()[0](0, 0) == 1);
  CHECK(trace.layers[0].states[0](1, 0) == 2);
  CHECK(trace.outputs()[1](0, 0) == 0);
  CHECK(hard_sigmoid(Rational(1)) == Rational(3, 4));
  CHECK(hard_sigmoid(Rational(-3)) == 0);
  CHECK(hard_tanh(Rational(-1, 2)) == Rational(-1, 2));
}

// PreparedModel converts the parameters once; evaluate(prepared, w) must equal the plain twin
// evaluate(model, k, w) on every input, whatever was evaluated before (no state carried over).
template <Domain K>
void require_prepared_equals_plain(const Model& model, const K& k, std::mt19937_64& rng,
                                   std::size_t sigma) {
  const PreparedModel<K> prepared(model, k);
  for (int input = 0; input < 4; ++input) {
    const auto w = random_input(rng, 1 + rng() % 9, sigma);
    const auto fast = evaluate(prepared, w);
    const auto plain = evaluate(model, k, w);
    REQUIRE(fast.layers.size() == plain.layers.size());
    for (std::size_t l = 0; l < plain.layers.size(); ++l) {
      REQUIRE(fast.layers[l].states.size() == plain.layers[l].states.size());
      for (std::size_t t = 0; t < w.size(); ++t) {
        REQUIRE(equal(k, fast.layers[l].outputs[t], plain.layers[l].outputs[t]));
        REQUIRE(equal(k, fast.layers[l].states[t], plain.layers[l].states[t]));
      }
    }
  }
}

TEST_CASE("a prepared model evaluates as the plain twin, in every domain",
          "[rnn][evaluate][prepared]") {
  std::mt19937_64 rng(46);
  const RationalField Q;
  const ModP F(1000000007);
  const FixedPoint L(FixedFormat{8, 12, Rounding::nearest_even, Overflow::saturate});
  for (Family family : all_families) {
    INFO("family " << to_string(family));
    const std::size_t sigma = 2 + rng() % 2;
    const Model model = single_layer_model(random_layer(rng, family, 3, 2, sigma), sigma);
    require_prepared_equals_plain(model, Q, rng, sigma);
    require_prepared_equals_plain(model, F, rng, sigma);
    require_prepared_equals_plain(model, L, rng, sigma);
  }
  // A stack (input map, second LRNN layer) and a hybrid with attention and nonlinear layers.
  LrnnLayer first = random_layer(rng, Family::dplr, 3, 1, 2);
  Model stack = single_layer_model(first, 2);
  stack.layers.push_back({InputMap{random_matrix(rng, 2, 2), random_matrix(rng, 2, 1)},
                          random_layer(rng, Family::deltanet, 2, 2, 2)});
  require_prepared_equals_plain(stack, Q, rng, 2);
  require_prepared_equals_plain(stack, F, rng, 2);
  const Model hybrid = load_model(test::example("hybrid_counter_attention.json"));
  require_prepared_equals_plain(hybrid, Q, rng, hybrid.alphabet.size());
}

TEST_CASE("preparing a model in a domain that cannot hold a parameter names it",
          "[rnn][evaluate][prepared]") {
  Model m = load_model(test::example("mamba_diagonal.json"));  // has parameters with denominator 2
  const ModP two(2);
  CHECK_THROWS_AS(evaluate(m, two, {0}), DomainError);
  try {
    const PreparedModel<ModP> p(m, two);
    FAIL("prepared a model whose parameters have denominator 2 mod 2");
  } catch (const DomainError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("layer 0: "));
  }
}

// ---- One step (evaluate.hpp: step, step_stack) ----------------------------------------------

// The sparse product (a converted parameter's nonzero entries) against the dense affine map of
// algebra/matrix.hpp, its plain twin: in Q, in F_p and in small fixed-point formats, where
// entries round and saturate, the same matrix entry for entry.
TEST_CASE("the sparse product equals the dense affine map, in every domain",
          "[rnn][evaluate][sparse]") {
  std::mt19937_64 rng(50);
  auto check = [&](const auto& k) {
    for (int trial = 0; trial < 60; ++trial) {
      const std::size_t r = 1 + rng() % 4, c = 1 + rng() % 5, m = 1 + rng() % 3;
      Matrix<Rational> a(r, c, Rational(0));
      for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j)
          if (rng() % 3 == 0) a(i, j) = small_rational(rng);
      const auto A = from_rational(k, a), X = from_rational(k, random_matrix(rng, c, m));
      const auto B = trial % 2 ? from_rational(k, random_matrix(rng, r, m)) : decltype(X)();
      INFO(k.name() << ", trial " << trial);
      REQUIRE(equal(k, detail::affine(k, detail::sparse(k, A), X, B), affine(k, A, X, B)));
    }
  };
  check(RationalField{});
  check(ModP(1000000007));
  check(FixedPoint(FixedFormat{2, 3, Rounding::nearest_even, Overflow::saturate}));
  check(FixedPoint(FixedFormat{3, 2, Rounding::toward_zero, Overflow::saturate}));
}

namespace {

ElmanLayer random_elman(std::mt19937_64& rng, Activation act, std::size_t d, std::size_t k,
                        bool integer) {
  auto mat = [&](std::size_t r, std::size_t c) {
    return integer ? random_int_matrix(rng, r, c) : random_matrix(rng, r, c);
  };
  ElmanLayer l;
  l.activation = act;
  l.d = d;
  l.features = k;
  l.pre = {mat(d, d), mat(d, k), mat(d, 1)};
  l.initial_state = mat(d, 1);
  l.readout = mat(2, d);
  l.readout_bias = mat(2, 1);
  return l;
}

LstmLayer random_lstm(std::mt19937_64& rng, std::size_t d, std::size_t k) {
  LstmLayer l;
  l.d = d;
  l.features = k;
  for (AffineMap* f : {&l.forget, &l.input, &l.output, &l.cell})
    *f = {random_matrix(rng, d, d), random_matrix(rng, d, k), random_matrix(rng, d, 1)};
  l.initial_hidden = random_matrix(rng, d, 1);
  l.initial_cell = random_matrix(rng, d, 1);
  l.readout = random_matrix(rng, 2, d);
  l.readout_bias = random_matrix(rng, 2, 1);
  return l;
}

AttentionLayer random_attention(std::mt19937_64& rng, std::size_t k, bool integer) {
  auto mat = [&](std::size_t r, std::size_t c) {
    return integer ? random_int_matrix(rng, r, c) : random_matrix(rng, r, c);
  };
  AttentionLayer a;
  a.kind = integer || rng() % 2 ? AttentionKind::unique_hard : AttentionKind::averaging_hard;
  a.tie = rng() % 2 ? TieRule::rightmost : TieRule::leftmost;
  a.features = k;
  a.query = {mat(2, k), mat(2, 1)};
  a.key = {mat(2, k), mat(2, 1)};
  a.value = {mat(2, k), mat(2, 1)};
  a.position_bias = Rational(static_cast<long>(rng() % 3) - 1, integer ? 1 : 3);
  if (rng() % 3 == 0) a.window = 1 + rng() % 3;
  a.residual = rng() % 2;
  return a;
}

// Layers over |Σ| = 2, built field by field (GCC 12 warns, wrongly, about a braced StackLayer).
Model stack_of(std::vector<Layer> layers, std::vector<std::optional<InputMap>> maps) {
  Model model;
  model.alphabet = Alphabet({"a", "b"}, "test");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    StackLayer sl;
    sl.layer = std::move(layers[i]);
    sl.input = maps[i];
    model.layers.push_back(std::move(sl));
  }
  return model;
}

// Seeded models of every layer kind: one layer of every LRNN family, Elman ReLU and sign, LSTM,
// attention, and stacks through input maps (an LRNN over a map, so z_t is not one-hot).
std::vector<Model> step_models(std::mt19937_64& rng, bool integer) {
  std::vector<Model> out;
  auto map_to = [&](std::size_t k, std::size_t from) {
    return InputMap{integer ? random_int_matrix(rng, k, from) : random_matrix(rng, k, from),
                    integer ? random_int_matrix(rng, k, 1) : random_matrix(rng, k, 1)};
  };
  for (Family fam : all_families) {
    if (integer && fam != Family::general) continue;
    LrnnLayer l = random_layer(rng, fam, 2, 1 + rng() % 2, 2);
    if (integer) integer_parameters(rng, l, 2);
    out.push_back(stack_of({l}, {std::nullopt}));
    // Over an input map of the layer below (2×m outputs): a general layer with 3 features.
    LrnnLayer up = random_layer(rng, Family::general, 2, 1, 3);
    if (integer) integer_parameters(rng, up, 2);
    out.push_back(stack_of({l, up}, {std::nullopt, map_to(3, 2 * l.m)}));
  }
  for (Activation act : {Activation::relu, Activation::sign}) {
    out.push_back(stack_of({random_elman(rng, act, 3, 2, integer)}, {std::nullopt}));
    const AttentionLayer a = random_attention(rng, 3, integer);
    out.push_back(stack_of({random_elman(rng, act, 2, 2, integer), a,
                            random_elman(rng, Activation::relu, 2, a.output_rows(), integer)},
                           {std::nullopt, map_to(3, 2), map_to(a.output_rows(), a.output_rows())}));
  }
  if (!integer) {
    out.push_back(stack_of({random_lstm(rng, 2, 2)}, {std::nullopt}));
    out.push_back(stack_of({random_elman(rng, Activation::sign, 2, 2, false),
                            random_layer(rng, Family::general, 2, 1, 3), random_lstm(rng, 2, 2)},
                           {std::nullopt, map_to(3, 2), map_to(2, 2)}));
  }
  return out;
}

// step_stack from t = 0 against evaluate on w: every layer's output, state and attended
// positions at every position.
template <OrderedDomain K>
void require_steps_equal_evaluate(const Model& m, const K& k, const std::vector<std::size_t>& w) {
  const Trace<K> ref = evaluate(m, k, w);
  const StackParams<K> p = prepare_stack(m, k);
  auto states = initial_states(p);
  for (std::size_t t = 0; t < w.size(); ++t) {
    NoMeter meter;
    const auto y = step_stack(p, k, states, w[t], meter, t + 1);
    INFO("position " << t + 1);
    REQUIRE(equal(k, y, ref.outputs()[t]));
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
      REQUIRE(equal(k, states[l].state, ref.layers[l].states[t]));
      if (!ref.layers[l].attended.empty())
        REQUIRE(states[l].memory.attended == ref.layers[l].attended[t]);
    }
  }
}

}  // namespace

// step_stack runs one position through every layer: the step of the generator
// (rnn/generate.hpp) and of the searches of reachable configurations (rnn/reachable.hpp: the
// product search, the finite-state route of nonlinear models). evaluate runs each layer over
// the whole input, layer after layer. Both from the same steps; this checks their composition
// (input maps, the state carried between positions, the attention memory) in Q and at log
// precision, on seeded models of every layer kind and on the examples.
TEST_CASE("step_stack equals the reference evaluator at every position, in Q and fixed point",
          "[rnn][evaluate][step]") {
  std::mt19937_64 rng(51);
  std::vector<Model> models = step_models(rng, false);
  for (const char* example :
       {"s5_word_problem.json", "relu_counter.json", "hybrid_counter_attention.json",
        "tm_bb2_hybrid.json", "selective_copy_hybrid.json", "assoc_recall_hybrid.json"})
    models.push_back(load_model(test::example(example)));
  const RationalField Q;
  const FixedPoint L(FixedFormat{4, 6, Rounding::nearest_even, Overflow::saturate});
  for (std::size_t i = 0; i < models.size(); ++i) {
    const Model& m = models[i];
    INFO("model " << i << " " << m.name << ": " << layer_kind(m.layers[0].layer));
    for (int trial = 0; trial < 3; ++trial) {
      const auto w = random_input(rng, 1 + rng() % 9, m.alphabet.size());
      require_steps_equal_evaluate(m, Q, w);
      require_steps_equal_evaluate(m, L, w);
    }
  }
}

// Checked 64-bit integers (rnn/checked_int64.hpp) are exact: on integer models evaluate gives
// Q's values at every position (every layer kind the generator runs: LRNN, also over an input
// map, Elman, unique-hard attention); a non-integer parameter is refused naming it, and a value
// past 2^63 throws Int64Overflow from step_stack instead of wrapping.
TEST_CASE("evaluate over checked int64 equals Q on integer models, and overflow throws",
          "[rnn][evaluate][int64]") {
  std::mt19937_64 rng(52);
  const CheckedInt64 I;
  int compared = 0, overflowed = 0;
  for (const Model& m : step_models(rng, true))
    for (int trial = 0; trial < 3; ++trial) {
      const auto w = random_input(rng, 1 + rng() % 9, m.alphabet.size());
      const Trace<RationalField> q = evaluate(m, RationalField{}, w);
      std::optional<Trace<CheckedInt64>> t;
      try {
        t = evaluate(m, I, w);
      } catch (const DomainError& e) {  // a stack's products outgrow 64 bits: checked, not wrapped
        REQUIRE_THAT(e.what(), Catch::EndsWith("a value overflows 64-bit integers"));
        ++overflowed;
        continue;
      }
      ++compared;
      for (std::size_t l = 0; l < m.layers.size(); ++l)
        for (std::size_t p = 0; p < w.size(); ++p) {
          REQUIRE(map(t->layers[l].outputs[p], [&](Int64 x) { return I.to_rational(x); }) ==
                  q.layers[l].outputs[p]);
          REQUIRE(map(t->layers[l].states[p], [&](Int64 x) { return I.to_rational(x); }) ==
                  q.layers[l].states[p]);
        }
    }
  CHECK(compared > 3 * overflowed);
  // y_t = 10^6·y_{t−1}: 10^18 fits, 10^24 does not.
  Model m = parse_model(R"({"alphabet": ["a"], "layers": [{"kind": "lrnn", "family": "general",
      "d": 1, "initial_state": ["1"], "symbols": {"a": {"A": [["1000000"]]}},
      "readout": [["1"]]}]})",
                        "grow.json");
  CHECK(evaluate(m, I, {0, 0, 0}).outputs().back()(0, 0) == Int64{1000000000000000000});
  const StackParams<CheckedInt64> p = prepare_stack(m, I);
  auto states = initial_states(p);
  NoMeter meter;
  for (std::size_t t = 1; t <= 3; ++t) step_stack(p, I, states, 0, meter, t);
  CHECK_THROWS_AS(step_stack(p, I, states, 0, meter, 4), Int64Overflow);
  CHECK_THROWS_WITH(evaluate(m, I, {0, 0, 0, 0}),
                    "layer 0: position 4: a value overflows 64-bit integers");
  std::get<LrnnLayer>(m.layers[0].layer).A[0](0, 0) = Rational(1, 2);
  CHECK_THROWS_WITH(evaluate(m, I, {0}),
                    "layer 0: A of symbol 'a', entry [0][0]: the rational 1/2 is not an integer");
}
