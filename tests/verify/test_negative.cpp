// Deliberately broken constructions are caught, shrunk and reported with the right
// counterexample: the engine's answer equals the first failing string found by a plain
// enumeration in (length, lexicographic) order with the reference evaluator.
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/io/sexpr.hpp"
#include "constructions/barrington.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "tests/support.hpp"
#include "tests/verify/first_failure.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

void expect_caught(const Construction& c, std::size_t max_length, const VerifyOptions& o) {
  const auto expected = test::first_failure(c, max_length);
  REQUIRE(expected);
  VerifyReport r = verify(c, o);
  INFO(format_text(r));
  CHECK_FALSE(r.holds);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->input_text == *expected);
  CHECK_FALSE(r.counterexample->trace.empty());
  CHECK(to_json(r)["counterexample"]["input"] == *expected);
}

}  // namespace

TEST_CASE("negative: a wrong DPLR factor is caught and the factor-product claim fails",
          "[verify][negative]") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
  auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  // perturb one entry of the first sub-step factor of the last symbol
  const std::size_t token = layer.features - 1;
  layer.A[token](0, 0) += 1;
  const std::size_t K = layer.features / a.alphabet.size();
  c.claims.push_back(check_factor_products(a, layer, K));
  CHECK_FALSE(c.claims.back().ok);
  VerifyOptions o;
  o.random = 300;
  o.max_random_length = 8;
  expect_caught(c, 6, o);
}

TEST_CASE("negative: a swapped Barrington cycle is caught", "[verify][negative]") {
  const Formula f = load_formula(test::example("formula_majority3.sexp"));
  Construction c = barrington(f, BarringtonDefect::swapped_cycle);
  VerifyOptions o;
  o.random = 50;  // fixed-length domain: random assignments, then shrinking
  expect_caught(c, 0, o);
}

TEST_CASE("negative: a matmul schedule that initializes on the first data token is caught",
          "[verify][negative]") {
  Matmul3Options mo;
  mo.init_on_bos = false;
  for (std::optional<std::uint64_t> modulus :
       {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(29)}) {
    mo.modulus = modulus;
    Construction c = matmul3(mo);
    VerifyOptions o;
    o.random = 40;
    o.max_random_length = 6;
    expect_caught(c, 3, o);
  }
  Matmul3Options good;
  VerifyOptions o;
  o.exhaustive = 3;
  o.random = 20;
  CHECK(verify(matmul3(good), o).holds);
}
