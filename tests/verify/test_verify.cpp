// The verify engine on hand-built claims whose truth is known: the binary-value LRNN against
// the binary value (true), and broken variants (false, with known minimal counterexamples).
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "circuits/compile/lrnn.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"
#include "tests/thread_ranks.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

// "The binary-value model computes the number w spells (MSB first)", optionally with the
// transition of symbol 1 broken to v ↦ 2v + 2.
Construction binary_value(bool broken) {
  Construction c;
  c.name = broken ? "binary-value (broken)" : "binary-value";
  c.model = load_model(test::example("binary_value_wfa.json"));
  if (broken) std::get<LrnnLayer>(c.model.layers[0].layer).A[1](0, 1) = 2;
  c.target.alphabet = c.model.alphabet;
  c.target.value = [](const std::vector<std::size_t>& w) {
    Integer v = 0;
    for (std::size_t s : w) v = 2 * v + static_cast<long>(s);
    return Rational(v);
  };
  const Model reference = load_model(test::example("binary_value_wfa.json"));
  c.target.circuit = [reference](std::size_t n) {
    CompileOptions o;
    o.acceptance = false;
    return compile_lrnn(reference, n, o).circuit;
  };
  c.encode = [](const std::vector<std::size_t>& w) { return w; };
  c.embedding = [](std::size_t n) {
    std::vector<InputSource> e;
    for (std::uint32_t i = 0; i < 2 * n; ++i) e.push_back({Rational(0), {i}});
    return e;
  };
  c.claims = {claim_equal("state size", 2, 2)};
  return c;
}

}  // namespace

TEST_CASE("a true claim holds under every method, with an error bound", "[verify]") {
  VerifyOptions o;
  o.exhaustive = 6;
  o.random = 60;
  o.identity_rounds = 3;
  o.identity_max_length = 6;
  VerifyReport r = verify(binary_value(false), o);
  CHECK(r.holds);
  CHECK_FALSE(r.counterexample);
  CHECK(r.checked["exhaustive"] == 126);  // 2^1 + … + 2^6
  CHECK(r.checked["random"] == 60);
  CHECK(r.checked["identity (points)"] == 18);
  CHECK(r.checked["three-way (lengths compiled)"] > 0);
  REQUIRE(r.error_bound);
  CHECK_THAT(*r.error_bound, Catch::Contains("2^61"));
  auto j = to_json(r);
  CHECK(j["verdict"] == verdict(r));
  CHECK(j["verdict"] != "refuted");
  CHECK(!j.contains("holds"));      // a tested claim never reads as established
  CHECK(j["seed_given"] == false);  // drawn from std::random_device
  CHECK(j["counterexample"].is_null());
  CHECK(j["claims"][0]["ok"] == true);
}

TEST_CASE("exhaustive search finds the minimal counterexample with its trace", "[verify]") {
  VerifyOptions o;
  o.exhaustive = 5;
  o.random = 0;
  VerifyReport r = verify(binary_value(true), o);
  CHECK_FALSE(r.holds);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->input_text == "1");  // "0" and ε still agree
  CHECK(r.counterexample->expected == "1");
  CHECK(r.counterexample->got == "2");
  CHECK(r.counterexample->found_by == "exhaustive");
  CHECK(r.counterexample->minimal);
  CHECK_THAT(r.counterexample->trace, Catch::Contains("S0_1 = (2, 1)"));
  CHECK(to_json(r)["counterexample"]["input"] == "1");
}

TEST_CASE("random search shrinks to the shortest, then lexicographically least, string",
          "[verify]") {
  VerifyOptions o;
  o.random = 5;
  o.max_random_length = 12;
  VerifyReport r = verify(binary_value(true), o);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->found_by == "random");
  CHECK(r.counterexample->input_text == "1");
  CHECK(r.counterexample->minimal);
}

TEST_CASE("identity testing alone catches a wrong model", "[verify]") {
  VerifyOptions o;
  o.random = 0;
  o.identity_rounds = 2;
  o.identity_max_length = 4;
  VerifyReport r = verify(binary_value(true), o);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->found_by == "identity");
  CHECK(r.counterexample->input_text == "1");
  CHECK_FALSE(r.error_bound);
}

TEST_CASE("a failed claim fails the verdict, mod-p claims compare residues", "[verify]") {
  Construction c = binary_value(false);
  c.claims.push_back(claim_at_most("program length", 4, 5));
  VerifyOptions o;
  o.random = 20;
  VerifyReport r = verify(c, o);
  CHECK_FALSE(r.holds);
  CHECK_FALSE(r.counterexample);
  CHECK_FALSE(r.claims.at(c.claims.size() - 1).ok);  // the construction's last claim
  Construction m = binary_value(false);
  m.modulus = 7;
  o.exhaustive = 4;
  CHECK(verify(m, o).holds);
  Construction mb = binary_value(true);
  mb.modulus = 7;
  VerifyReport rb = verify(mb, o);
  REQUIRE(rb.counterexample);
  CHECK(rb.counterexample->input_text == "1");
  CHECK_THAT(rb.counterexample->expected, Catch::Contains("mod 7"));
}

TEST_CASE("enumerations beyond the cap are refused with the count", "[verify][diagnostics]") {
  VerifyOptions o;
  o.exhaustive = 30;
  CHECK_THROWS_WITH(verify(binary_value(false), o), Catch::Contains("exceed the cap"));
}

TEST_CASE("identity testing is declined where the circuits are not block-linear", "[verify]") {
  Construction c = binary_value(false);
  c.embedding = nullptr;
  VerifyOptions o;
  o.random = 3;
  o.identity_rounds = 2;
  VerifyReport r = verify(c, o);
  CHECK(r.holds);
  REQUIRE_FALSE(r.notes.empty());
  CHECK_THAT(r.notes[0], Catch::Contains("not applicable"));
}

TEST_CASE("verify's kinds: every construction, then `model` (verify only), built from files",
          "[verify]") {
  const Registry& r = verify_registry();
  REQUIRE(r.kinds().size() == 15);
  CHECK(r.kinds().front().name == "wfa");
  const ConstructionKind* model = r.find("model");
  REQUIRE(model == &r.kinds().back());
  CHECK(model->verify_only);
  ConstructionArgs args;
  args.input = test::example("binary_value_wfa.json");
  CHECK(test::input_error_of([&] { model->build(args, r); }).what ==
        "--against: required by model");
  CHECK(test::input_error_of([&] {
          model->check_applicable(ConstructionArgs{}.set("--family", "pd"), r);
        }).what == "--family: does not apply to model (an option of wfa)");
  args.set("--against", test::example("wfa_binary_value.att"));
  const Construction c = model->build(args, r);
  CHECK(c.name == "model " + c.model.name + " against the WFA");
  VerifyOptions o;
  o.exhaustive = 4;
  o.random = 10;
  o.identity_rounds = 1;
  const VerifyReport rep = verify(c, o);
  CHECK(rep.holds);
  CHECK(rep.checked.at("exhaustive") == 2 + 4 + 8 + 16);
  CHECK(rep.error_bound.has_value());
}

TEST_CASE("sharded exhaustive checks give the unsharded report for any number of ranks",
          "[verify][sharded]") {
  // binary_value, and a copy whose f is off by one on a single string of length 13 (in the
  // second block of 4096 strings of that length).
  const std::vector<std::size_t> bad = {1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1};
  Construction wrong_f = binary_value(false);
  wrong_f.target.value = [f = wrong_f.target.value, bad](const std::vector<std::size_t>& w) {
    return w == bad ? f(w) + Rational(1) : f(w);
  };
  const Construction right = binary_value(false), &wrong = wrong_f;
  for (const Construction* c : {&right, &wrong}) {
    VerifyOptions o;
    o.exhaustive = 13;
    o.random = 20;
    o.prove = false;
    o.seed = 3;
    o.timing = false;
    const std::string plain = to_json(verify(*c, o)).dump();
    for (int R : {1, 3}) {
      const auto reports = test::on_ranks<std::string>(R, [&](Ranks& ranks) {
        VerifyOptions sharded = o;
        sharded.ranks = &ranks;
        const VerifyReport r = verify(*c, sharded);
        CHECK_THAT(r.sharding, Catch::Contains("blocks over"));
        return to_json(r).dump();
      });
      INFO("R = " << R << (c == &wrong ? ", wrong f" : ", right f"));
      CHECK(reports[0] == plain);  // rank 0's report, which the CLI prints
    }
    const nlohmann::json j = nlohmann::json::parse(plain);
    if (c == &wrong) {
      CHECK(j["counterexample"]["input"] == "1011101110001");
      CHECK(j["checked"]["exhaustive"] == (1u << 13) - 2 + 0b1011101110001 + 1);
    } else {
      CHECK(j["checked"]["exhaustive"] == (1u << 14) - 2);
    }
  }
}
