// The CLI-only estimators of cli/limits.hpp against the work they estimate: verify's every-length
// proof (verify_proof_work, D³·|Σ|) against the forward basis the decider runs (its candidate
// words × D² operations each), on seeded random WFAs of 2..80 states, exact and multimodular.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "cli/limits.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "verify/equivalence.hpp"
#include "verify/linear_representation.hpp"

using namespace rnncc;

namespace {

Wfa random_wfa(std::mt19937_64& rng, std::size_t d) {
  Wfa a;
  a.alphabet = Alphabet({"a", "b"}, "test");
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(Rational(static_cast<long>(rng() % 5) - 2));
    a.final.push_back(Rational(static_cast<long>(rng() % 5) - 2));
  }
  for (int s = 0; s < 2; ++s) {
    Matrix<Rational> m(d, d, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j)
        if (rng() % 3 == 0) m(i, j) = Rational(static_cast<long>(rng() % 5) - 2);
    a.transition.push_back(std::move(m));
  }
  return a;
}

}  // namespace

TEST_CASE("verify's proof estimate bounds the forward basis's operations", "[limits][work]") {
  std::mt19937_64 rng(25);
  for (const std::size_t d : {2u, 5u, 12u, 30u, 55u, 80u}) {
    const Wfa a = random_wfa(rng, d);
    const Construction c = wfa_to_lrnn(a, WfaFamily::general);
    const VerifyOptions o;
    const std::uint64_t estimate = cli::verify_proof_work(c, o);
    EquivalenceParams params;
    params.certificate = false;
    const LinearRepresentation f = from_wfa(a), x = from_model(c.model);
    const EquivalenceResult r = decide_equivalence(f, x, params);
    REQUIRE(r.equivalent);
    const std::uint64_t D = r.dim_f + r.dim_g;
    const std::uint64_t counted = r.candidates * D * D;  // a vector × matrix product each
    const bool modular = uses_multimodular(r.dim_f, r.dim_g, false);
    const std::uint64_t in_ops = modular ? estimate : estimate / cli::kModularOpsPerFieldOp;
    INFO("d = " << d << ", D = " << D << ", " << r.candidates << " candidates: counted " << counted
                << ", estimate " << in_ops << (modular ? " (modular)" : " (exact)"));
    CHECK(counted <= in_ops);
    // The basis spans at most f's reachable space (d of D), each basis word extended by |Σ|
    // symbols, and the multimodular path runs 1..4 bases: within 2·|Σ|·2 = 8 of the count.
    CHECK(in_ops <= 8 * counted);
  }
  // The refusal names --no-proof; no proof (--no-proof) is no work.
  std::mt19937_64 rng2(26);
  const Construction c = wfa_to_lrnn(random_wfa(rng2, 10), WfaFamily::general);
  CHECK_THROWS_WITH(cli::check_verify_proof_work(c, VerifyOptions{}, 1000),
                    Catch::Contains("--no-proof skips the proof") &&
                        Catch::Contains("(raise --max-work to run it anyway)"));
  VerifyOptions no_proof;
  no_proof.prove = false;
  CHECK(cli::verify_proof_work(c, no_proof) == 0);
}

TEST_CASE("verify's exhaustive estimate: past the per-string cap only without three-way",
          "[limits][work]") {
  std::mt19937_64 rng(27);
  const Construction c = wfa_to_lrnn(random_wfa(rng, 3), WfaFamily::general);  // |Σ| = 2
  VerifyOptions o;
  o.random = 0;
  o.prove = false;
  o.exhaustive = 24;  // 2^25 − 2 strings, Σ n·2^n = 23·2^25 + 2 = 771 751 938 symbol steps
  // Three-way (the default): past exhaustive_cap the engine's own refusal speaks, not this one.
  CHECK_NOTHROW(cli::check_verify_work(c, o, 1000));
  // Without three-way the engine may take those lengths by prefix sharing: the estimate bounds
  // them, n steps a string.
  o.three_way = false;
  CHECK_THROWS_WITH(cli::check_verify_work(c, o, 771751937),
                    Catch::Contains("about 771751938 symbol steps") &&
                        Catch::Contains("(raise --max-work to run it anyway)"));
  CHECK_NOTHROW(cli::check_verify_work(c, o, 771751938));
  // Past shared_exhaustive_cap too: the engine's refusal again.
  o.shared_exhaustive_cap = 1000;
  CHECK_NOTHROW(cli::check_verify_work(c, o, 1000));
}
