// The graph-walk ReLU RNN [MJLLS26, Thm 2]: right under the sink promise and with the "ever"
// flag; caught, with the reviewer's counterexample, when the promise is dropped.
#include <catch2/catch.hpp>

#include "algebra/exact.hpp"
#include "constructions/graph_walk.hpp"
#include "rnn/evaluate.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

TEST_CASE("graph walk: final-vertex test is right under the sink promise",
          "[constructions][graph_walk]") {
  for (std::size_t V : {2u, 3u, 4u, 5u}) {
    VerifyOptions o;
    o.exhaustive = 0;
    o.random = 0;
    VerifyReport r = verify(graph_walk(V, GraphWalkVariant::final_with_promise), o);
    INFO(format_text(r));
    CHECK(r.holds);
    CHECK(r.checked["exhaustive"] > 0);
    CHECK(r.checked["skipped (outside the promise)"] > 0);
  }
}

TEST_CASE("graph walk: the 'ever' flag is right on every instance", "[constructions][graph_walk]") {
  for (std::size_t V : {2u, 3u, 4u, 5u}) {
    VerifyOptions o;
    o.exhaustive = 0;
    o.random = 50;
    VerifyReport r = verify(graph_walk(V, GraphWalkVariant::ever), o);
    INFO(format_text(r));
    CHECK(r.holds);
  }
}

TEST_CASE("graph walk: dropping the promise is caught with s = 1, edges (1,2),(2,3), t = 2",
          "[constructions][graph_walk]") {
  VerifyOptions o;
  o.random = 2000;  // random assignments find a failure; shrinking makes it the minimal one
  Construction c = graph_walk(3, GraphWalkVariant::final_no_promise);
  VerifyReport r = verify(c, o);
  REQUIRE(r.counterexample);
  CHECK_FALSE(r.holds);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == "1223");  // s = 1, t = 2, out(1) = 2, out(2) = 3
  CHECK(r.counterexample->expected == "1");
  CHECK(r.counterexample->got == "0");
  CHECK_THAT(r.counterexample->trace, Catch::Contains("e23d"));
  // the exhaustive search finds the same one
  o.exhaustive = 0;
  o.random = 0;
  CHECK(verify(c, o).counterexample->input_text == "1223");
}

TEST_CASE("graph walk: the ReLU zero test is exact on the states reached",
          "[constructions][graph_walk]") {
  Construction c = graph_walk(4, GraphWalkVariant::ever);
  RationalField Q;
  // s = 1, t = 4, edges 1→2, 2→4, 3→4: reachable; the flag is 1 exactly once S = 4
  std::vector<std::size_t> w{0, 3, 1, 3, 3};
  auto trace = evaluate(c.model, Q, c.encode(w));
  CHECK(trace.outputs().back()(0, 0) == 1);
  CHECK(c.target.value(w) == 1);
  CHECK_THROWS_AS(graph_walk(1, GraphWalkVariant::ever), InputError);
}
