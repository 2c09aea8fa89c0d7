// verify's `prove` method: every linear construction of the catalogue proved for every length,
// and every known negative refuted with the shortest counterexample — the same string the
// exhaustive engine (prove off) finds first, and the same as a plain enumeration.
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
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

ConstructionArgs input(std::string path) {
  ConstructionArgs a;
  a.input = std::move(path);
  return a;
}

Construction build(const std::string& kind, ConstructionArgs args) {
  const Registry& r = verify_registry();
  const ConstructionKind* k = r.find(kind);
  REQUIRE(k);
  return k->build(args, r);
}

VerifyOptions proof_only() {
  VerifyOptions o;
  o.random = 0;
  o.three_way = false;
  o.timing = false;
  return o;
}

void expect_proved(const Construction& c) {
  const VerifyReport r = verify(c, proof_only());
  INFO(c.name << "\n" << format_text(r));
  CHECK(r.holds);
  REQUIRE(r.proof);
  CHECK(r.proof->proved);
  CHECK(r.proof->scope == "every length");
  CHECK(r.proof->basis_size.value_or(0) > 0);
  CHECK_FALSE(r.counterexample);
  // Over Q, or modulo p for a construction defined mod p (matmul3 --modulus 29): named so.
  const std::string field = c.modulus ? "modulo p = " + std::to_string(*c.modulus) : "over Q";
  CHECK_THAT(verdict_text(r), Catch::Contains(": proved " + field + " — every length ("));
  CHECK(verdict(r) == "proved");
  const auto j = to_json(r);
  CHECK(j["verdict"] == "proved");
  CHECK(j["field"] == (c.modulus ? "F_p" : "Q"));
  CHECK(j["modulus"] ==
        (c.modulus ? nlohmann::ordered_json(*c.modulus) : nlohmann::ordered_json()));
  CHECK(!j.contains("holds"));
  CHECK(j["proved"] == true);
  CHECK(j["basis_size"] == *r.proof->basis_size);
}

// Refuted by the proof (or, for a finite domain, by its enumeration) with the shortest
// counterexample, equal to the exhaustive engine's and to the plain enumeration's.
void expect_refuted(const Construction& c, std::size_t max_length, bool finite_domain) {
  const VerifyReport r = verify(c, proof_only());
  INFO(c.name << "\n" << format_text(r));
  CHECK_FALSE(r.holds);
  REQUIRE(r.proof);
  CHECK_FALSE(r.proof->proved);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->found_by == (finite_domain ? "exhaustive" : "proof"));
  CHECK(r.counterexample->minimal);
  CHECK(r.counterexample->position == r.counterexample->input.size());
  CHECK_FALSE(r.counterexample->trace.empty());
  CHECK_THAT(verdict_text(r), Catch::Contains(": refuted — shortest counterexample below ("));
  CHECK(verdict(r) == "refuted");

  VerifyOptions tested = proof_only();
  tested.prove = false;
  tested.exhaustive = max_length;
  const VerifyReport e = verify(c, tested);
  CHECK_FALSE(e.proof);
  REQUIRE(e.counterexample);
  CHECK(e.counterexample->found_by == "exhaustive");
  CHECK(r.counterexample->input_text == e.counterexample->input_text);
  CHECK(r.counterexample->expected == e.counterexample->expected);
  CHECK(r.counterexample->got == e.counterexample->got);
  CHECK(test::first_failure(c, max_length) == r.counterexample->input_text);
  CHECK_THAT(verdict_text(e),
             Catch::Contains(": refuted — a counterexample found by testing (exhaustive)"));
  const auto j = to_json(r);
  CHECK(j["proved"] == false);
  CHECK(j["counterexample"]["input"] == r.counterexample->input_text);
  CHECK(j["counterexample"]["position"] == r.counterexample->input.size());
}

}  // namespace

TEST_CASE("prove: every linear construction of the catalogue is proved for every length",
          "[verify][prove]") {
  const std::string binary = test::example("wfa_binary_value.att");
  const std::string count_ab = test::example("wfa_count_ab.att");
  for (const char* family : {"general", "dplr", "deltanet"})
    for (const std::string& file : {binary, count_ab})
      expect_proved(build("wfa", input(file).set("--family", family)));
  expect_proved(build("dwfa", input(test::example("dwfa_mod3.att"))));
  expect_proved(build("matmul3", ConstructionArgs{}));
  expect_proved(build("matmul3", ConstructionArgs{}.set("--modulus", "29")));
  expect_proved(build("parity", ConstructionArgs{}));
  expect_proved(build("parity", ConstructionArgs{}.set("--gated")));
  expect_proved(build("mod-count", ConstructionArgs{}.set("--k", "3").set("--r", "1")));
  expect_proved(build("sn", ConstructionArgs{}.set("--n", "4")));
  expect_proved(
      build("sn", ConstructionArgs{}.set("--n", "3").set("--generators", "transpositions")));
  expect_proved(
      build("model", input(test::example("binary_value_wfa.json")).set("--against", binary)));
}

TEST_CASE("prove: the target automata compute the targets' values", "[verify][prove]") {
  // Each construction's automaton against its value function on every string up to length 4:
  // the decider trusts the automaton, so it must be f.
  for (const Construction& c :
       {build("matmul3", ConstructionArgs{}), build("parity", ConstructionArgs{}),
        build("mod-count", ConstructionArgs{}.set("--k", "5").set("--r", "3")),
        build("sn", ConstructionArgs{}.set("--n", "5"))}) {
    REQUIRE(c.target.automaton);
    const std::size_t S = c.target.alphabet.size();
    std::size_t checked = 0;
    for (std::size_t n = 1; n <= 4; ++n) {
      std::vector<std::size_t> w(n, 0);
      while (true) {
        CHECK(evaluate(*c.target.automaton, w) == c.target.value(w));
        ++checked;
        std::size_t i = n;
        while (i > 0 && ++w[i - 1] == S) w[--i] = 0;
        if (i == 0) break;
      }
    }
    CHECK(checked > 10);
  }
}

TEST_CASE("prove: known negatives are refuted with the exhaustive engine's shortest string",
          "[verify][prove][negative]") {
  SECTION("a wrong DPLR factor") {
    const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
    Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
    auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
    layer.A[layer.features - 1](0, 0) += 1;
    expect_refuted(c, 4, false);
  }
  SECTION("matmul3 without BOS, over Z and mod 29") {
    for (std::optional<std::uint64_t> modulus :
         {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(29)}) {
      Matmul3Options mo;
      mo.init_on_bos = false;
      mo.modulus = modulus;
      const Construction c = matmul3(mo);
      expect_refuted(c, 3, false);
      CHECK(verify(c, proof_only()).counterexample->input_text == "M0 M2 M0");
    }
  }
  SECTION("parity and mod-count with β ∈ (0, 1)") {
    expect_refuted(build("parity", ConstructionArgs{}.set("--beta-range", "(0,1)")), 4, false);
    expect_refuted(
        build("mod-count", ConstructionArgs{}.set("--k", "3").set("--beta-range", "(0,1)")), 4,
        false);
  }
  SECTION("a swapped Barrington cycle: the finite domain, enumerated") {
    const Construction c = barrington(load_formula(test::example("formula_majority3.sexp")),
                                      BarringtonDefect::swapped_cycle);
    expect_refuted(c, 0, true);
    CHECK(verify(c, proof_only()).proof->method == "exhaustive over the finite domain");
  }
}

TEST_CASE("prove: a finite domain enumerated completely is proved, the rest is tested",
          "[verify][prove]") {
  const VerifyReport b =
      verify(build("barrington", input(test::example("formula_majority3.sexp"))), proof_only());
  CHECK(b.holds);
  REQUIRE(b.proof);
  CHECK(b.proof->proved);
  CHECK(b.proof->strings == 8);  // 2^3 assignments
  CHECK_THAT(verdict_text(b),
             Catch::Contains("proved over Q — every string of the finite domain (length 3)"));

  // No automaton for f (graph walk, attention): tested, and the verdict says so.
  VerifyOptions o = proof_only();
  o.random = 10;
  const VerifyReport s = verify(build("selective-copy", ConstructionArgs{}), o);
  CHECK_FALSE(s.proof);
  CHECK_THAT(verdict_text(s),
             Catch::Contains(": tested up to length 40, no counterexample (random "));
  CHECK_THAT(verdict_text(s), Catch::EndsWith("; not proved for every length"));
  CHECK(verdict(s) == "tested");
  CHECK(to_json(s)["verdict"] == "tested");
  CHECK(!to_json(s).contains("holds"));
}

TEST_CASE("prove: cross-checks shrink once proved, the state-size claim is measured",
          "[verify][prove]") {
  const Construction c =
      build("wfa", input(test::example("wfa_binary_value.att")).set("--family", "dplr"));
  VerifyOptions o;
  o.timing = false;
  const VerifyReport r = verify(c, o);
  REQUIRE(r.proof);
  CHECK(r.checked.at("random") == 20);  // random_after_proof
  o.random_after_proof.reset();
  CHECK(verify(c, o).checked.at("random") == 200);
  o.prove = false;
  CHECK_FALSE(verify(c, o).proof);
  bool found = false;
  for (const Claim& cl : r.claims)
    if (cl.name.rfind("state size d vs minimal d_min", 0) == 0) {
      found = true;
      CHECK(cl.ok);
      CHECK(cl.claimed == "d = 2");
      CHECK_THAT(cl.measured, Catch::StartsWith("d_min = "));
    }
  CHECK(found);
}

TEST_CASE("prove: a certificate for one layer or through an input map, declined for two layers",
          "[verify][prove]") {
  VerifyOptions o = proof_only();
  o.certificate = true;
  const VerifyReport g = verify(build("wfa", input(test::example("wfa_binary_value.att"))), o);
  REQUIRE(g.proof);
  CHECK_THAT(g.proof->certificate_json, Catch::Contains("rnncc-equivalence-certificate/1"));
  CHECK_FALSE(g.proof->no_certificate);
  // Through an input map: the input-map certificate (issue 24, item 6).
  const VerifyReport m = verify(build("matmul3", ConstructionArgs{}.set("--modulus", "29")), o);
  REQUIRE(m.proof);
  CHECK(m.proof->proved);
  CHECK_THAT(m.proof->certificate_json, Catch::Contains("rnncc-input-map-certificate/1"));
  CHECK_FALSE(m.proof->no_certificate);
  // Two layers (a counter supplies the sub-position): declined, with the reason.
  const VerifyReport st =
      verify(build("matmul3", ConstructionArgs{}.set("--modulus", "29").set("--stacked")), o);
  REQUIRE(st.proof);
  CHECK(st.proof->proved);
  CHECK(st.proof->certificate_json.empty());
  REQUIRE(st.proof->no_certificate);
  CHECK_THAT(*st.proof->no_certificate, Catch::Contains("2 layers"));
}
