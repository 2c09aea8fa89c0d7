// The shared breadth-first search of reachable configurations (rnn/reachable.hpp): on a machine
// small enough to check by hand, and on models against the reference evaluator (each
// configuration's output and layer states are the evaluator's on the word that first reached it).
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "rnn/reachable.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

template <class State>
std::vector<std::size_t> word(const Reachable<State>& r, std::size_t q) {
  std::vector<std::size_t> w;
  for (; q != 0; q = r.parent[q]) w.insert(w.begin(), r.symbol[q]);
  return w;
}

// llex: shorter first, then lexicographic.
bool llex_less(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

}  // namespace

TEST_CASE("breadth_first numbers states by their least words, up to max_depth and max_states",
          "[rnn][reachable]") {
  // Counting modulo 5 by +1 (symbol 0) and +2 (symbol 1).
  auto step = [](const int& x, std::size_t s) { return (x + 1 + int(s)) % 5; };
  auto key = [](const int& x) { return std::to_string(x); };
  int revisits = 0;
  auto revisit = [&](int& known, const int& successor) {
    CHECK(known == successor);
    ++revisits;
  };
  auto too_many = [] { throw std::runtime_error("too many"); };
  const Reachable<int> r = breadth_first(0, 2, 100, SIZE_MAX, step, key, revisit, too_many);
  CHECK(r.states == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(r.next == std::vector<std::vector<std::size_t>>{{1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 1}});
  CHECK(r.parent == std::vector<std::size_t>{0, 0, 0, 1, 2});
  CHECK(r.symbol == std::vector<std::size_t>{0, 0, 1, 1, 1});
  CHECK(r.depth == std::vector<std::size_t>{0, 1, 1, 2, 2});
  CHECK(revisits == 10 - 4);  // every transition but the four that found a state
  // Depth 1: the states one symbol away are reached, not expanded.
  const Reachable<int> one = breadth_first(0, 2, 100, 1, step, key, revisit, too_many);
  CHECK(one.states == std::vector<int>{0, 1, 2});
  CHECK(one.next == std::vector<std::vector<std::size_t>>{{1, 2}, {}, {}});
  // Three states allowed: the fourth is refused.
  CHECK_THROWS_WITH(breadth_first(0, 2, 3, SIZE_MAX, step, key, revisit, too_many), "too many");
  CHECK_NOTHROW(breadth_first(0, 2, 5, SIZE_MAX, step, key, revisit, too_many));
}

TEST_CASE("reachable_configurations: each configuration is the evaluator's on its least word",
          "[rnn][reachable]") {
  std::mt19937_64 rng(53);
  std::vector<Model> models{load_model(test::example("s5_word_problem.json"))};
  for (int trial = 0; trial < 4; ++trial) {  // sign Elman layers: h ∈ {−1, 0, 1}^d, finitely many
    ElmanLayer l;
    l.activation = Activation::sign;
    l.d = 2 + trial % 2;
    l.features = 2;
    l.pre = {test::random_matrix(rng, l.d, l.d), test::random_matrix(rng, l.d, 2),
             test::random_matrix(rng, l.d, 1)};
    l.initial_state = test::random_matrix(rng, l.d, 1);
    l.readout = test::random_matrix(rng, 1, l.d);
    Model m;
    m.alphabet = Alphabet({"a", "b"}, "test");
    StackLayer sl;
    sl.layer = l;
    m.layers.push_back(sl);
    models.push_back(m);
  }
  const RationalField Q;
  for (const Model& m : models) {
    const auto r = reachable_configurations(m, Q, {}, [] { throw std::runtime_error("too many"); });
    const std::size_t S = m.alphabet.size();
    CHECK(r.states[0].output.empty());  // the start: no step entered it
    for (std::size_t q = 1; q < r.states.size(); ++q) {
      const auto w = word(r, q);
      REQUIRE(llex_less(word(r, q - 1), w));
      const Trace<RationalField> t = evaluate(m, Q, w);
      REQUIRE(r.states[q].output == t.outputs().back());
      for (std::size_t l = 0; l < m.layers.size(); ++l)
        REQUIRE(r.states[q].layers[l].state == t.layers[l].states.back());
    }
    for (std::size_t q = 0; q < r.states.size(); ++q)
      for (std::size_t s = 0; s < S; ++s) {
        auto w = word(r, q);
        w.push_back(s);
        REQUIRE(r.states[r.next[q][s]].output == evaluate(m, Q, w).outputs().back());
      }
  }
  // Without y in the state (the finite-state route of nonlinear models): the ReLU counter's
  // h = (relu(c), relu(−c)) returns to the start by "ab", which then keeps that y; at log
  // precision and depth 4, the states one to four symbols from the start.
  const Model counter = load_model(test::example("relu_counter.json"));
  ConfigurationSearch search;
  search.max_depth = 4;
  search.output_in_state = false;
  const FixedPoint k(FixedFormat{3, 3, Rounding::nearest_even, Overflow::saturate});
  const auto r = reachable_configurations(counter, k, search, [] { throw std::runtime_error(""); });
  CHECK(r.states.size() == 9);  // counts −4..4
  REQUIRE(equal(k, r.states[0].output, evaluate(counter, k, {0, 1}).outputs().back()));
  for (std::size_t q = 0; q < r.states.size(); ++q) CHECK(r.next[q].empty() == (r.depth[q] == 4));
  search.max_states = 8;
  CHECK_THROWS_WITH(
      reachable_configurations(counter, k, search, [] { throw std::runtime_error("more than 8"); }),
      "more than 8");
}
