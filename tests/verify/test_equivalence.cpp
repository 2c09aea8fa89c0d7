// Linear representations against the reference evaluator, and the equivalence decider against
// exhaustive search (verify/linear_representation.hpp, verify/equivalence.hpp).
#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "constructions/matmul3.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/equivalence.hpp"

using namespace rnncc;

namespace {

std::vector<Rational> flat(const Matrix<Rational>& y) {
  return y.data();
}

// Random WFA with small integer weights, sparse.
Wfa random_wfa(std::mt19937_64& rng, std::size_t d, std::size_t sigma, long range = 2) {
  Wfa a;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < sigma; ++i) names.push_back(std::string(1, char('a' + i)));
  a.alphabet = Alphabet(names, "test");
  auto w = [&] {
    return rng() % 2 ? Rational(0) : Rational(long(rng() % (2 * range + 1)) - range);
  };
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(w());
    a.final.push_back(w());
  }
  for (std::size_t s = 0; s < sigma; ++s) {
    Matrix<Rational> m(d, d, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) m(i, j) = w();
    a.transition.push_back(m);
  }
  return a;
}

// g = f after a random change of basis P (unit lower × upper triangular, so invertible):
// α' = αP, M'_σ = P⁻¹M_σP, O'_σ = P⁻¹O_σ — the same function.
LinearRepresentation change_basis(const LinearRepresentation& f, std::mt19937_64& rng) {
  const std::size_t d = f.dim;
  Matrix<Rational> L(d, d, Rational(0)), U(d, d, Rational(0));
  for (std::size_t i = 0; i < d; ++i) {
    L(i, i) = 1;
    U(i, i) = Rational(long(rng() % 3) + 1);
    for (std::size_t j = 0; j < i; ++j) L(i, j) = test::small_rational(rng);
    for (std::size_t j = i + 1; j < d; ++j) U(i, j) = test::small_rational(rng);
  }
  RationalField k;
  const Matrix<Rational> P = mul(k, L, U);
  // P⁻¹ by Gauss–Jordan.
  Matrix<Rational> A = P, I = identity(k, d);
  for (std::size_t c = 0; c < d; ++c) {
    std::size_t r = c;
    while (A(r, c) == 0) ++r;
    for (std::size_t j = 0; j < d; ++j) std::swap(A(r, j), A(c, j)), std::swap(I(r, j), I(c, j));
    const Rational p = A(c, c);
    for (std::size_t j = 0; j < d; ++j) A(c, j) /= p, I(c, j) /= p;
    for (std::size_t i = 0; i < d; ++i)
      if (i != c && A(i, c) != 0) {
        const Rational m = A(i, c);
        for (std::size_t j = 0; j < d; ++j) A(i, j) -= m * A(c, j), I(i, j) -= m * I(c, j);
      }
  }
  LinearRepresentation g = f;
  Matrix<Rational> alpha(1, d);
  for (std::size_t i = 0; i < d; ++i) alpha(0, i) = f.initial[i];
  g.initial = mul(k, alpha, P).data();
  for (std::size_t s = 0; s < f.symbols.size(); ++s) {
    g.transition[s] = mul(k, mul(k, I, f.transition[s]), P);
    g.output[s] = mul(k, I, f.output[s]);
  }
  return g;
}

}  // namespace

TEST_CASE("linear representation of every LRNN family equals the reference evaluator") {
  std::mt19937_64 rng(1);
  RationalField k;
  for (Family fam : test::all_families)
    for (std::size_t m : {1, 2}) {
      const Model model = test::single_layer_model(test::random_layer(rng, fam, 3, m, 3), 3);
      const LinearRepresentation rep = from_model(model);
      REQUIRE(rep.dim == 3 * m + 1);
      REQUIRE(rep.outputs == 2 * m);
      for (int t = 0; t < 5; ++t) {
        const auto w = test::random_input(rng, 1 + rng() % 6, 3);
        const auto ref = evaluate(model, k, w).outputs();
        const auto got = evaluate_prefixes(rep, w);
        REQUIRE(got.size() == ref.size());
        for (std::size_t i = 0; i < ref.size(); ++i) REQUIRE(got[i] == flat(ref[i]));
      }
    }
}

TEST_CASE("linear representation of a WFA equals the WFA on every prefix") {
  std::mt19937_64 rng(2);
  for (int round = 0; round < 10; ++round) {
    const Wfa a = random_wfa(rng, 3, 2);
    const LinearRepresentation rep = from_wfa(a);
    REQUIRE((*rep.empty)[0] == evaluate(a, {}));
    const auto w = test::random_input(rng, 6, 2);
    const auto got = evaluate_prefixes(rep, w);
    for (std::size_t t = 1; t <= w.size(); ++t)
      REQUIRE(got[t - 1][0] == evaluate(a, std::vector<std::size_t>(w.begin(), w.begin() + t)));
  }
}

TEST_CASE("input map: prefix and per-symbol tokens, with a two-state control") {
  std::mt19937_64 rng(3);
  RationalField k;
  const Model tokens =
      test::single_layer_model(test::random_layer(rng, Family::general, 2, 1, 4), 4);
  const LinearRepresentation trep = from_model(tokens);
  // Symbols x, y; token 0 is BOS; parity control: x → (1 2) at even, (3) at odd; y → (2).
  InputMapSpec map;
  map.symbols = {"x", "y"};
  map.prefix = {0};
  map.control = {2, 0, {{1, 1}, {0, 0}}};
  map.tokens = {{{1, 2}, {2}}, {{3}, {2}}};
  const LinearRepresentation rep = through_input_map(trep, map);
  for (int round = 0; round < 10; ++round) {
    const auto w = test::random_input(rng, 1 + rng() % 6, 2);
    std::vector<std::size_t> enc{0}, ends;
    std::size_t q = 0;
    for (std::size_t s : w) {
      for (std::size_t t : map.tokens[q][s]) enc.push_back(t);
      ends.push_back(enc.size() - 1);
      q = map.control.next[q][s];
    }
    const auto ref = evaluate(tokens, k, enc).outputs();
    const auto got = evaluate_prefixes(rep, w);
    for (std::size_t i = 0; i < w.size(); ++i) REQUIRE(got[i] == flat(ref[ends[i]]));
  }
}

TEST_CASE("a stack over a finite-state counter is the product with its control") {
  std::mt19937_64 rng(4);
  RationalField k;
  // Layer 1: PD permutation counter mod 3 on symbol a (b keeps it), one-hot readout.
  LayerFrame f1;
  f1.d = 3;
  f1.features = 2;
  f1.initial_state = Matrix<Rational>(3, 1, Rational(0));
  f1.initial_state(0, 0) = 1;
  f1.readout = identity(k, 3);
  const LrnnLayer counter = make_pd(f1,
                                    {{{1, 2, 0}, {1, 1, 1}, Matrix<Rational>(3, 1, Rational(0))},
                                     {{0, 1, 2}, {1, 1, 1}, Matrix<Rational>(3, 1, Rational(0))}},
                                    true);
  Model model = test::single_layer_model(counter, 2);
  StackLayer upper;
  upper.input = InputMap{identity(k, 3), Matrix<Rational>()};
  upper.layer = test::random_layer(rng, Family::general, 2, 1, 3);
  model.layers.push_back(std::move(upper));
  const LinearRepresentation rep = from_model(model);
  REQUIRE(rep.dim == 3 * 3);  // 3 control states × (2 + 1)
  for (int round = 0; round < 10; ++round) {
    const auto w = test::random_input(rng, 1 + rng() % 8, 2);
    const auto ref = evaluate(model, k, w).outputs();
    const auto got = evaluate_prefixes(rep, w);
    for (std::size_t i = 0; i < w.size(); ++i) REQUIRE(got[i] == flat(ref[i]));
  }
  // A lower layer with infinitely many states (a counter that grows) is refused.
  Model grows = model;
  std::get<LrnnLayer>(grows.layers[0].layer).B[0](0, 0) = 1;
  std::get<LrnnLayer>(grows.layers[0].layer).A[0] = identity(k, 3);
  try {
    from_model(grows, {50});
    FAIL("expected NotLinearError");
  } catch (const NotLinearError& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("more than 50 configurations"));
  }
}

TEST_CASE("a nonlinear layer is refused with the reason") {
  const Model relu = load_model(test::example("relu_counter.json"));
  try {
    from_model(relu);
    FAIL("expected NotLinearError");
  } catch (const NotLinearError& e) {
    REQUIRE_THAT(e.what(), Catch::Contains("not linear in its state"));
    REQUIRE_THAT(e.what(), Catch::Contains("rnncc verify"));
  }
}

TEST_CASE(
    "random WFA pairs: change of basis proved, a 1/10^30 perturbation refuted as exhaustive search "
    "does") {
  std::mt19937_64 rng(5);
  const Rational tiny = Rational(Integer(1), boost::multiprecision::pow(Integer(10), 30));
  int refuted = 0;
  for (int round = 0; round < 30; ++round) {
    const std::size_t d = 2 + rng() % 3, sigma = 2 + rng() % 2;
    const LinearRepresentation f = from_wfa(random_wfa(rng, d, sigma));
    LinearRepresentation g = change_basis(f, rng);
    const EquivalenceResult same = decide_equivalence(f, g);
    REQUIRE(same.equivalent);
    REQUIRE(same.basis_size <= 2 * d);
    REQUIRE(same.basis_words.size() == same.basis_size);
    REQUIRE(!exhaustive_counterexample(f, g, 5));
    // Perturb one weight of g.
    const std::size_t s = rng() % sigma, i = rng() % d, j = rng() % d;
    g.transition[s](i, j) += tiny;
    const EquivalenceResult diff = decide_equivalence(f, g);
    const auto ex = exhaustive_counterexample(f, g, 2 * d);
    REQUIRE(diff.equivalent == !ex.has_value());  // shortest witness has length ≤ d_f + d_g
    if (ex) {
      ++refuted;
      REQUIRE(diff.counterexample->input == ex->input);
      REQUIRE(diff.counterexample->position == ex->position);
      REQUIRE(diff.counterexample->expected == ex->expected);
      REQUIRE(diff.counterexample->got == ex->got);
    }
  }
  REQUIRE(refuted >= 10);
}

TEST_CASE(
    "unrelated random pairs: the decider's counterexample is the exhaustive one, over Q and F_p") {
  std::mt19937_64 rng(6);
  for (int round = 0; round < 60; ++round) {
    const std::size_t sigma = 2;
    const LinearRepresentation f = from_wfa(random_wfa(rng, 2 + rng() % 2, sigma, 1));
    LinearRepresentation g = from_wfa(random_wfa(rng, 1 + rng() % 2, sigma, 1));
    g.empty.reset();  // compare nonempty words only
    const std::optional<std::uint64_t> p =
        round % 2 ? std::optional<std::uint64_t>(3) : std::nullopt;
    const EquivalenceResult r = decide_equivalence(f, g, {p});
    const auto ex = exhaustive_counterexample(f, g, f.dim + g.dim, p);
    REQUIRE(r.equivalent == !ex.has_value());
    if (ex) REQUIRE(r.counterexample->input == ex->input);
    if (p) REQUIRE(r.field == "F_3");
  }
}

TEST_CASE("the empty word is compared for two WFAs only") {
  std::mt19937_64 rng(7);
  Wfa a = random_wfa(rng, 2, 2);
  a.initial = {Rational(1), Rational(0)};
  a.final = {Rational(1), Rational(0)};
  a.transition = {Matrix<Rational>(2, 2, Rational(0)), Matrix<Rational>(2, 2, Rational(0))};
  Wfa b = a;
  b.final = {Rational(2), Rational(0)};  // differs only at ε: every M_σ = 0
  const EquivalenceResult r = decide_equivalence(from_wfa(a), from_wfa(b));
  REQUIRE(!r.equivalent);
  REQUIRE(r.counterexample->input.empty());
  REQUIRE(r.counterexample->position == 0);
  REQUIRE(r.counterexample->expected == std::vector<std::string>{"1"});
  REQUIRE(r.counterexample->got == std::vector<std::string>{"2"});
  LinearRepresentation nb = from_wfa(b);
  nb.empty.reset();  // as an LRNN: no output at t = 0
  REQUIRE(decide_equivalence(from_wfa(a), nb).equivalent);
}

TEST_CASE("the binary-value model equals the binary-value WFA, and a broken copy is refuted") {
  const Model m = load_model(test::example("binary_value_wfa.json"));
  const Wfa a = load_wfa(test::example("wfa_binary_value.wfa.json"));
  const EquivalenceResult r = decide_equivalence(from_model(m), from_wfa(a));
  REQUIRE(r.equivalent);
  REQUIRE(r.basis_words.front().empty());
  Model broken = m;
  std::get<LrnnLayer>(broken.layers[0].layer).A[1](0, 1) = 2;  // symbol 1 adds 2
  const EquivalenceResult bad = decide_equivalence(from_model(broken), from_wfa(a));
  REQUIRE(!bad.equivalent);
  REQUIRE(bad.counterexample->input == std::vector<std::size_t>{1});  // "1": 2 vs 1
  REQUIRE(bad.counterexample->expected == std::vector<std::string>{"2"});
  REQUIRE(bad.counterexample->got == std::vector<std::string>{"1"});
}

TEST_CASE("bad input: alphabets, output sizes and moduli") {
  std::mt19937_64 rng(8);
  const LinearRepresentation f = from_wfa(random_wfa(rng, 2, 2));
  LinearRepresentation g = from_wfa(random_wfa(rng, 2, 3));
  REQUIRE_THROWS_WITH(decide_equivalence(f, g),
                      Catch::Contains("alphabets differ: {a b} vs {a b c}"));
  LinearRepresentation h = f;
  h.outputs = 2;
  for (auto& o : h.output) o = Matrix<Rational>(2, 2, Rational(0));
  REQUIRE_THROWS_WITH(decide_equivalence(f, h),
                      Catch::Contains("output dimensions differ: 1 vs 2"));
  LinearRepresentation p = f, q = f;
  p.modulus = 5;
  q.modulus = 7;
  REQUIRE_THROWS_WITH(decide_equivalence(p, q), Catch::Contains("different primes"));
  REQUIRE_THROWS_WITH(decide_equivalence(f, f, {15}), Catch::Contains("not a prime"));
}

TEST_CASE(
    "matmul3 through its input map: proved for every length, without BOS refuted by M0 M2 M0") {
  const auto gens = default_matmul3_generators();
  auto target = [&](const Construction& c) {
    LinearRepresentation t;
    t.symbols = c.target.alphabet.symbols();
    t.dim = 3;
    t.initial = {Rational(1), Rational(0), Rational(0)};
    for (const auto& g : gens) {
      Matrix<Rational> m(3, 3), o(3, 1);
      for (std::size_t i = 0; i < 9; ++i) m(i / 3, i % 3) = g[i];
      for (std::size_t i = 0; i < 3; ++i) o(i, 0) = m(i, 0);
      t.transition.push_back(m);
      t.output.push_back(o);
    }
    return t;
  };
  for (bool bos : {true, false})
    for (std::optional<std::uint64_t> p :
         {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(29)}) {
      Matmul3Options opt;
      opt.modulus = p;
      opt.init_on_bos = bos;
      const Construction c = matmul3(opt);
      const LinearRepresentation model = through_input_map(
          from_model(c.model), input_map_from_encode(c.target.alphabet.symbols(), c.encode, 2));
      const LinearRepresentation t = target(c);
      // The representation is the reference evaluator through encode, at symbol boundaries.
      std::mt19937_64 rng(9);
      const auto w = test::random_input(rng, 5, t.symbols.size());
      const auto got = evaluate_prefixes(model, w);
      for (std::size_t i = 1; i <= w.size(); ++i) {
        const std::vector<std::size_t> u(w.begin(), w.begin() + i);
        REQUIRE(got[i - 1] ==
                flat(evaluate(c.model, RationalField{}, c.encode(u)).outputs().back()));
      }
      const EquivalenceResult r = decide_equivalence(t, model, {p});
      REQUIRE(r.equivalent == bos);
      if (!bos) {
        const auto ex = exhaustive_counterexample(t, model, 3, p);
        REQUIRE(ex);
        REQUIRE(r.counterexample->input == ex->input);
        REQUIRE(t.symbols[ex->input[0]] + t.symbols[ex->input[1]] + t.symbols[ex->input[2]] ==
                "M0M2M0");
        REQUIRE(r.counterexample->expected == std::vector<std::string>{"2"});
        REQUIRE(r.counterexample->got == std::vector<std::string>{"1"});
      }
    }
}
