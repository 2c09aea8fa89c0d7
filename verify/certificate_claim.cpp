#include "verify/certificate_claim.hpp"

#include "algebra/error.hpp"
#include "algebra/suggest.hpp"

namespace rnncc {

ClaimField parse_claim_field(const std::string& text, const std::string& where) {
  if (text == "Q") return ClaimField::q;
  if (text == "F_p") return ClaimField::f_p;
  throw InputError(where,
                   with_suggestion("expected Q or F_p, got '" + text + "'", text, {"Q", "F_p"}));
}

std::string field_words(const std::string& field, std::optional<std::uint64_t> modulus) {
  if (field == "Q") return "over Q";
  // "F_p", or the decider's name of its field ("F_7"): both mean modulo the prime.
  if (field.rfind("F_", 0) == 0 && modulus) return "modulo p = " + std::to_string(*modulus);
  return "";
}

CertificateVerdict check_certificate_claim(const SubjectFile& f, const SubjectFile& g,
                                           std::string_view certificate_json, ClaimField claim) {
  CertificateVerdict v;
  v.check = check_certificate(f, g, certificate_json);
  v.claim = claim;
  v.field_text = field_words(v.check.field, v.check.modulus);
  const bool modular = v.check.field == "F_p";
  v.field_too_weak = v.check.ok && modular && claim == ClaimField::q;
  v.valid = v.check.ok && !v.field_too_weak;
  if (v.field_too_weak)
    v.check.problems.push_back("the certificate proves agreement " + v.field_text +
                               " only; a claim over Q needs a certificate over Q (--field F_p "
                               "accepts agreement modulo p)");
  return v;
}

std::string certificate_statement(const CertificateVerdict& v, const SubjectFile& f,
                                  const SubjectFile& g) {
  return f.path + " and " + g.path + " agree " + v.field_text + " on every nonempty prefix" +
         (f.is_wfa() && g.is_wfa() ? " and on ε" : "");
}

nlohmann::ordered_json certificate_verdict_json(const CertificateVerdict& v, const SubjectFile& f,
                                                const SubjectFile& g) {
  nlohmann::ordered_json j;
  j["valid"] = v.valid;
  j["claim_field"] = v.claim == ClaimField::q ? "Q" : "F_p";
  j["field"] =
      v.check.field.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(v.check.field);
  j["modulus"] =
      v.check.modulus ? nlohmann::ordered_json(*v.check.modulus) : nlohmann::ordered_json();
  j["models"] = {f.path, g.path};
  j["statement"] =
      v.valid ? nlohmann::ordered_json(certificate_statement(v, f, g)) : nlohmann::ordered_json();
  j["problems"] = v.check.problems;
  return j;
}

}  // namespace rnncc
