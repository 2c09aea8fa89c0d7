// compile_nonlinear_sequential against the Elman reference evaluator: the ReLU counter example
// and seeded random ReLU and sign Elman models, every string up to length 6 (exact over Q, with
// the acceptance test); depth grows linearly with n; refusals.
#include <catch2/catch.hpp>
#include <random>

#include "../support.hpp"
#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

std::vector<Rational> one_hot(const std::vector<std::size_t>& w, std::size_t S) {
  std::vector<Rational> x(w.size() * S, Rational(0));
  for (std::size_t t = 0; t < w.size(); ++t) x[t * S + w[t]] = 1;
  return x;
}

// Circuit (all outputs + acceptance) against the reference evaluator on every string ≤ max_n.
void check_model(const Model& m, std::size_t max_n) {
  const std::size_t S = m.alphabet.size();
  for (std::size_t n = 1; n <= max_n; ++n) {
    CompileOptions o;
    o.outputs = OutputMode::all;
    const Circuit c = compile_nonlinear_sequential(m, n, o).circuit;
    for (const auto& w : test::all_strings(S, n, n)) {
      const auto y = evaluate(c, Q, std::span<const Rational>(one_hot(w, S)));
      const auto ref = evaluate(m, Q, w).outputs();
      std::size_t k = 0;
      for (std::size_t t = 0; t < n; ++t)
        for (std::size_t r = 0; r < ref[t].rows(); ++r) REQUIRE(y[k++] == ref[t](r, 0));
      const Rational last = ref[n - 1](m.accept.row, 0);
      const bool accepted = m.accept.mode == Acceptance::Mode::positive ? last > 0 : last == 0;
      REQUIRE(y[k] == Rational(accepted ? 1 : 0));
    }
  }
}

Model random_elman(std::mt19937_64& rng, Activation act, std::size_t d, std::size_t S) {
  auto q = [&] { return Rational(static_cast<int>(rng() % 7) - 3, 1 + static_cast<int>(rng() % 3)); };
  ElmanLayer l;
  l.activation = act;
  l.d = d;
  l.features = S;
  l.pre.W = Matrix<Rational>(d, d);
  l.pre.U = Matrix<Rational>(d, S);
  l.pre.bias = Matrix<Rational>(d, 1);
  l.initial_state = Matrix<Rational>(d, 1);
  l.readout = Matrix<Rational>(1, d);
  l.readout_bias = Matrix<Rational>(1, 1);
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t j = 0; j < d; ++j) l.pre.W(i, j) = q();
    for (std::size_t s = 0; s < S; ++s) l.pre.U(i, s) = q();
    l.pre.bias(i, 0) = q();
    l.initial_state(i, 0) = q();
    l.readout(0, i) = q();
  }
  l.readout_bias(0, 0) = q();
  Model m;
  std::vector<std::string> names;
  for (std::size_t s = 0; s < S; ++s) names.push_back(std::string(1, static_cast<char>('a' + s)));
  m.alphabet = Alphabet(names, "test");
  m.layers.push_back(StackLayer{std::nullopt, l});
  return m;
}

}  // namespace

TEST_CASE("the ReLU counter compiles to a circuit equal to the model on every string",
          "[circuits][nonlinear]") {
  check_model(load_model(test::example("relu_counter.json")), 6);
}

TEST_CASE("random ReLU and sign Elman models: circuit = model, exactly", "[circuits][nonlinear]") {
  std::mt19937_64 rng(61);
  for (Activation act : {Activation::relu, Activation::sign})
    for (int trial = 0; trial < 4; ++trial) check_model(random_elman(rng, act, 1 + trial % 3, 2 + trial % 2), 5);
}

TEST_CASE("sequential nonlinear circuits have depth linear in n", "[circuits][nonlinear][depth]") {
  const Model m = load_model(test::example("relu_counter.json"));
  CompileOptions o;
  std::vector<std::size_t> depth;
  for (std::size_t n : {16u, 32u, 64u, 128u}) depth.push_back(compute_stats(compile_nonlinear_sequential(m, n, o).circuit).depth);
  for (std::size_t i = 1; i < depth.size(); ++i) {
    REQUIRE(depth[i] >= 2 * depth[i - 1] - 8);  // doubling n about doubles the depth
    REQUIRE(depth[i] <= 2 * depth[i - 1] + 8);
  }
}

TEST_CASE("compile_nonlinear_sequential refuses what it cannot compile", "[circuits][nonlinear][errors]") {
  const Model lrnn = load_model(test::example("dplr_d3.json"));
  REQUIRE_THROWS_WITH(compile_nonlinear_sequential(lrnn, 4, {}), Catch::Contains("single Elman layer"));
  const Model m = load_model(test::example("relu_counter.json"));
  REQUIRE_THROWS_AS(compile_nonlinear_sequential(m, 0, {}), InputError);
  CompileOptions tiny;
  tiny.max_gates = 10;
  REQUIRE_THROWS_WITH(compile_nonlinear_sequential(m, 100, tiny), Catch::Contains("--max-gates"));
}
