// A certificate says over which field it holds (verify/certificate_claim.hpp): two WFAs that
// differ over Q but agree modulo p have a valid F_p certificate, which a claim over Q refuses.
#include <catch2/catch.hpp>

#include "tests/support.hpp"
#include "verify/certificate.hpp"
#include "verify/certificate_claim.hpp"
#include "verify/check_certificate.hpp"

using namespace rnncc;

namespace {

// f(aⁿ) = 1, g(aⁿ) = wⁿ: one state each.
SubjectFile one_state(const std::string& name, const std::string& weight) {
  return parse_subject_file("0 0 a " + weight + "\n0 1\n", name + ".att");
}

}  // namespace

TEST_CASE("a forged F_2 certificate: valid modulo 2, refused for a claim over Q") {
  const SubjectFile f = one_state("f", "1"), g = one_state("g", "3");
  // Over Q they differ at "a" (1 vs 3): the decider refutes.
  const EquivalenceResult q =
      decide_equivalence(subject_representation(f), subject_representation(g));
  REQUIRE(!q.equivalent);
  REQUIRE(q.counterexample->input == std::vector<std::size_t>{0});
  // Modulo 2 they agree (3ⁿ ≡ 1): a certificate over F_2.
  for (const std::uint64_t p : {std::uint64_t{2}, std::uint64_t{2305843009213693951}}) {
    const SubjectFile h = p == 2 ? g : one_state("h", "2305843009213693952");  // 2^61 ≡ 1
    const EquivalenceResult r =
        decide_equivalence(subject_representation(f), subject_representation(h), {p});
    REQUIRE(r.equivalent);
    const std::string cert = equivalence_certificate(r, f, h).dump();
    // The checker accepts the arithmetic and says which field it was over.
    const CertificateCheck c = check_certificate(f, h, cert);
    REQUIRE(c.ok);
    REQUIRE(c.field == "F_p");
    REQUIRE(c.modulus == p);
    // A claim over Q: refused, with the field named.
    const CertificateVerdict over_q = check_certificate_claim(f, h, cert, ClaimField::q);
    REQUIRE(!over_q.valid);
    REQUIRE(over_q.field_too_weak);
    REQUIRE(over_q.check.problems.size() == 1);
    REQUIRE_THAT(over_q.check.problems[0],
                 Catch::Contains("proves agreement modulo p = " + std::to_string(p) +
                                 " only; a claim over Q needs a certificate over Q"));
    const auto j = certificate_verdict_json(over_q, f, h);
    REQUIRE(j["valid"] == false);
    REQUIRE(j["field"] == "F_p");
    REQUIRE(j["modulus"] == p);
    REQUIRE(j["statement"].is_null());
    // A claim modulo p: valid, and the statement says modulo p, never a bare "agree".
    const CertificateVerdict mod_p = check_certificate_claim(f, h, cert, ClaimField::f_p);
    REQUIRE(mod_p.valid);
    const std::string said = certificate_statement(mod_p, f, h);
    REQUIRE_THAT(said, Catch::Contains("agree modulo p = " + std::to_string(p) + " on every"));
    REQUIRE(certificate_verdict_json(mod_p, f, h)["statement"] == said);
  }
}

TEST_CASE("a certificate over Q is valid for either claim and says over Q") {
  const SubjectFile f = one_state("f", "1"), g = one_state("g", "1");
  const EquivalenceResult r =
      decide_equivalence(subject_representation(f), subject_representation(g));
  REQUIRE(r.equivalent);
  const std::string cert = equivalence_certificate(r, f, g).dump();
  for (const ClaimField claim : {ClaimField::q, ClaimField::f_p}) {
    const CertificateVerdict v = check_certificate_claim(f, g, cert, claim);
    REQUIRE(v.valid);
    REQUIRE(v.check.field == "Q");
    REQUIRE(!v.check.modulus);
    REQUIRE_THAT(certificate_statement(v, f, g), Catch::Contains("agree over Q on every"));
  }
  // An invalid certificate stays invalid under either claim, and is not "too weak".
  std::string broken = cert;
  broken.replace(broken.find("\"field\":\"Q\""), 11, "\"field\":\"R\"");
  const CertificateVerdict b = check_certificate_claim(f, g, broken, ClaimField::q);
  REQUIRE(!b.valid);
  REQUIRE(!b.field_too_weak);
  REQUIRE(b.check.field.empty());
  test::expect_input_error([] { parse_claim_field("R", "--field"); }, "--field",
                           "expected Q or F_p");
}
