// compile_nonlinear_sequential against the Elman reference evaluator: the ReLU counter example
// and seeded random ReLU and sign Elman models, every string up to length 6 (exact over Q, with
// the acceptance test); depth grows linearly with n; refusals. The finite-state route
// (compile_nonlinear_composed): the verdict circuit against the reference evaluator at log
// precision and exactly, on every string up to length 8, for the counter, random ReLU/sign Elman
// models and an LSTM; the reachable-state machine against hand-counted state sets; depth within
// the finite-state bound and growing like log n · log S; refusals.
#include <catch2/catch.hpp>
#include <optional>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using rnncc::test::one_hot;

namespace {

const RationalField Q;

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
  auto q = [&] {
    return Rational(static_cast<int>(rng() % 7) - 3, 1 + static_cast<int>(rng() % 3));
  };
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
    for (int trial = 0; trial < 4; ++trial)
      check_model(random_elman(rng, act, 1 + trial % 3, 2 + trial % 2), 5);
}

TEST_CASE("sequential nonlinear circuits have depth linear in n", "[circuits][nonlinear][depth]") {
  const Model m = load_model(test::example("relu_counter.json"));
  CompileOptions o;
  std::vector<std::size_t> depth;
  for (std::size_t n : {16u, 32u, 64u, 128u})
    depth.push_back(compute_stats(compile_nonlinear_sequential(m, n, o).circuit).depth);
  for (std::size_t i = 1; i < depth.size(); ++i) {
    REQUIRE(depth[i] >= 2 * depth[i - 1] - 8);  // doubling n about doubles the depth
    REQUIRE(depth[i] <= 2 * depth[i - 1] + 8);
  }
}

TEST_CASE("compile_nonlinear_sequential refuses what it cannot compile",
          "[circuits][nonlinear][errors]") {
  const Model lrnn = load_model(test::example("dplr_d3.json"));
  REQUIRE_THROWS_WITH(compile_nonlinear_sequential(lrnn, 4, {}),
                      Catch::Contains("single Elman layer"));
  const Model m = load_model(test::example("relu_counter.json"));
  REQUIRE_THROWS_AS(compile_nonlinear_sequential(m, 0, {}), InputError);
  CompileOptions tiny;
  tiny.budget.max_gates = 10;
  REQUIRE_THROWS_WITH(compile_nonlinear_sequential(m, 100, tiny), Catch::Contains("--max-gates"));
}

// ---- the finite-state route -----------------------------------------------------------------

namespace {

// The composed circuit's verdict (every prefix, OutputMode::all) against the reference
// evaluator in the same domain, on every string of length ≤ max_n.
template <class K>
void check_composed(const Model& m, std::size_t max_n, const K& k, std::optional<FixedFormat> fmt) {
  const std::size_t S = m.alphabet.size();
  for (std::size_t n = 1; n <= max_n; ++n) {
    ComposedOptions o;
    o.precision.fixed = fmt;
    o.circuit.outputs = OutputMode::all;
    const Circuit c = compile_nonlinear_composed(m, n, o).circuit;
    REQUIRE(c.outputs().size() == n);
    for (const auto& w : test::all_strings(S, n, n)) {
      const auto y = evaluate(c, Q, std::span<const Rational>(one_hot(w, S)));
      const auto ref = evaluate(m, k, w).outputs();
      for (std::size_t t = 0; t < n; ++t) {
        const bool want = accepts(m.accept, k, ref[t]).value();
        INFO("n = " << n << ", t = " << t + 1);
        REQUIRE(y[t] == Rational(want ? 1 : 0));
      }
    }
  }
}

FixedFormat log1(std::size_t n, Rounding r = Rounding::nearest_even) {
  return log_precision(1, n, std::nullopt, r, Overflow::saturate);
}

}  // namespace

TEST_CASE("the counter's reachable states at log precision are the 2n+1 counts",
          "[circuits][nonlinear][composed]") {
  const Model m = load_model(test::example("relu_counter.json"));
  for (std::size_t n : {1u, 3u, 8u, 20u}) {
    ComposedOptions o;
    o.precision.fixed = log1(n);  // I = F = ⌈log₂(n+1)⌉ bits: every count |c| ≤ n is representable
    const FiniteStateMachine fsm = nonlinear_state_machine(m, n, o);
    // h = (relu(c), relu(−c)) for c = #a − #b ∈ [−n, n]; the states first reached at step n
    // get a sink (never entered by inputs of length ≤ n).
    REQUIRE(fsm.states() == 2 * n + 1 + 1);
    REQUIRE(fsm.labels[fsm.start] == "(0, 0)");
    if (n >= 2) REQUIRE(fsm.accepting[fsm.delta[fsm.delta[fsm.start][0]][1]]);  // ab is balanced
    REQUIRE_FALSE(fsm.accepting[fsm.delta[fsm.start][0]]);
  }
}

TEST_CASE("composed circuits equal the reference evaluator at log precision and exactly",
          "[circuits][nonlinear][composed]") {
  const Model counter = load_model(test::example("relu_counter.json"));
  for (std::size_t n : {4u, 8u}) {
    // the format depends on n, so compile and compare per length
    ComposedOptions o;
    o.precision.fixed = log1(n);
    const Circuit c = compile_nonlinear_composed(counter, n, o).circuit;
    for (const auto& w : test::all_strings(2, n, n)) {
      const auto y = evaluate(c, Q, std::span<const Rational>(one_hot(w, 2)));
      const FixedPoint k(*o.precision.fixed);
      REQUIRE(y[0] ==
              Rational(accepts(counter.accept, k, evaluate(counter, k, w).outputs().back()).value()
                           ? 1
                           : 0));
    }
  }
  check_composed(counter, 8, Q, std::nullopt);  // exact: the counts are integers anyway

  std::mt19937_64 rng(67);
  for (Activation act : {Activation::relu, Activation::sign})
    for (int trial = 0; trial < 3; ++trial) {
      const Model m = random_elman(rng, act, 1 + trial % 2, 2);
      // A fixed small format (I = 3, F = 2), the same for every length: the evaluator's
      // semantics at that precision, rounding nearest-even and toward zero.
      for (Rounding r : {Rounding::nearest_even, Rounding::toward_zero}) {
        const FixedFormat f{2, 3, r, Overflow::saturate};
        check_composed(m, 6, FixedPoint(f), f);
      }
    }
}

// The machine is the shared search of reachable configurations (rnn/reachable.hpp) stepping the
// reference semantics: every state but the sink carries the label of the evaluator's state on a
// shortest word reaching it, and every state entered carries the verdict of the evaluator's y
// there; states are numbered breadth-first (shortest words nondecreasing in length), the states
// first reached at step n lead to the sink.
TEST_CASE("nonlinear_state_machine: each state is the evaluator's on a word reaching it",
          "[circuits][nonlinear][composed]") {
  std::mt19937_64 rng(68);
  auto label = [](const FixedPoint& k, const Matrix<FixedPoint::Element>& h) {
    std::string s = "(";
    for (std::size_t i = 0; i < h.rows(); ++i)
      s += (i ? ", " : "") + to_string(k.to_rational(h(i, 0)));
    return s + ")";
  };
  for (Activation act : {Activation::relu, Activation::sign})
    for (int trial = 0; trial < 3; ++trial) {
      const Model m = random_elman(rng, act, 1 + trial % 2, 2);
      const FixedFormat f{2, 3, Rounding::nearest_even, Overflow::saturate};
      const FixedPoint k(f);
      for (std::size_t n : {1u, 3u, 6u}) {
        ComposedOptions o;
        o.precision.fixed = f;
        const FiniteStateMachine fsm = nonlinear_state_machine(m, n, o);
        // Shortest words, breadth-first over the machine (symbols in order).
        std::vector<std::optional<std::vector<std::size_t>>> word(fsm.states());
        word[fsm.start] = std::vector<std::size_t>{};
        for (std::size_t q = 0; q < fsm.states(); ++q) {
          REQUIRE(word[q]);  // numbered breadth-first: reached from an earlier state
          for (std::size_t s = 0; s < 2; ++s) {
            const std::size_t to = fsm.delta[q][s];
            if (!word[to]) {
              word[to] = *word[q];
              word[to]->push_back(s);
            }
          }
        }
        for (std::size_t q = 0; q < fsm.states(); ++q) {
          INFO(to_string(act) << ", n = " << n << ", state " << q);
          if (fsm.labels[q] == "sink") {
            REQUIRE(word[q]->size() == n + 1);  // only after the states reached at step n
            REQUIRE_FALSE(fsm.accepting[q]);
            continue;
          }
          REQUIRE(word[q]->size() <= n);
          if (q == fsm.start) continue;
          const Trace<FixedPoint> t = evaluate(m, k, *word[q]);
          REQUIRE(fsm.labels[q] == label(k, t.layers[0].states.back()));
          REQUIRE(fsm.accepting[q] == accepts(m.accept, k, t.outputs().back()).value());
        }
      }
    }
}

TEST_CASE("an LSTM layer compiles by the finite-state route too",
          "[circuits][nonlinear][composed]") {
  // d = 1 hard-gated cell counting a's with saturation at the precision's range.
  LstmLayer l;
  l.d = 1;
  l.features = 2;
  auto affine = [](Rational w, Rational ua, Rational ub, Rational b) {
    AffineMap f;
    f.W = Matrix<Rational>(1, 1);
    f.W(0, 0) = w;
    f.U = Matrix<Rational>(1, 2);
    f.U(0, 0) = ua;
    f.U(0, 1) = ub;
    f.bias = Matrix<Rational>(1, 1);
    f.bias(0, 0) = b;
    return f;
  };
  l.forget = affine(0, 2, 2, 2);             // σ̂ ≥ 1: keep c
  l.input = affine(0, 2, -2, 0);             // a: 1, b: 0
  l.output = affine(0, 0, 0, 2);             // 1
  l.cell = affine(0, Rational(1, 2), 0, 0);  // g = 1/2 on a
  l.initial_hidden = Matrix<Rational>(1, 1);
  l.initial_cell = Matrix<Rational>(1, 1);
  l.readout = Matrix<Rational>(1, 1);
  l.readout(0, 0) = 1;
  l.readout_bias = Matrix<Rational>(1, 1);
  l.readout_bias(0, 0) = Rational(-3, 4);
  Model m;
  m.alphabet = Alphabet({"a", "b"}, "test");
  m.layers.push_back(StackLayer{std::nullopt, l});
  const FixedFormat f{3, 2, Rounding::nearest_even, Overflow::saturate};
  check_composed(m, 7, FixedPoint(f), f);
}

TEST_CASE("composed depth stays within the finite-state bound and grows like log n · log S",
          "[circuits][nonlinear][composed][depth]") {
  const Model m = load_model(test::example("relu_counter.json"));
  std::vector<std::size_t> depth;
  for (std::size_t n : {8u, 16u, 32u, 64u}) {
    ComposedOptions o;
    o.precision.fixed = log1(n);
    const FiniteStateMachine fsm = nonlinear_state_machine(m, n, o);
    const CircuitStats s = compute_stats(compile_nonlinear_composed(m, n, o).circuit);
    REQUIRE(s.depth <= finite_state_depth_bound(fsm, n, o.circuit));
    REQUIRE(s.depth == s.bounded_fanin_depth);  // fan-in 2
    depth.push_back(s.depth);
    // far below the sequential route's 4n + 2
    CompileOptions so;
    REQUIRE(s.depth < compute_stats(compile_nonlinear_sequential(m, n, so).circuit).depth);
  }
  // log n · log S with S ≈ 2n: each doubling of n adds more than the previous one did (the
  // log² shape), while staying far below doubling.
  for (std::size_t i = 1; i < depth.size(); ++i) REQUIRE(depth[i] > depth[i - 1]);
  REQUIRE(depth[3] - depth[2] >= depth[1] - depth[0]);
  REQUIRE(depth[3] < 2 * depth[2]);
}

TEST_CASE("the finite-state route refuses what it cannot compile",
          "[circuits][nonlinear][composed][errors]") {
  const Model lrnn = load_model(test::example("dplr_d3.json"));
  REQUIRE_THROWS_WITH(compile_nonlinear_composed(lrnn, 4, {}),
                      Catch::Contains("single Elman or LSTM"));
  const Model m = load_model(test::example("relu_counter.json"));
  REQUIRE_THROWS_AS(compile_nonlinear_composed(m, 0, {}), InputError);
  ComposedOptions few;
  few.precision.fixed = log1(40);
  few.max_states = 10;
  REQUIRE_THROWS_WITH(nonlinear_state_machine(m, 40, few), Catch::Contains("more than 10 states"));
  ComposedOptions tiny;
  tiny.precision.fixed = log1(64);
  tiny.circuit.budget.max_gates = 1000;
  REQUIRE_THROWS_WITH(compile_nonlinear_composed(m, 64, tiny), Catch::Contains("--max-gates"));
}
