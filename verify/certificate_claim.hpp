// What a checked certificate proves, against the claim it is checked for (docs/semantics.md,
// "Verdicts"; docs/cli.md, check-certificate).
//
// A certificate is a proof over one field: over Q it proves y_f(w) = y_g(w) for every nonempty
// w (and ε for two WFAs); over F_p it proves only y_f(w) ≡ y_g(w) (mod p) — two WFAs that
// differ over Q (f ≡ 1, g(aⁿ) = 3ⁿ) have a valid F_2 certificate. So the checker's verdict always
// names the field, and a claim over Q is refused an F_p certificate however valid it is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "verify/check_certificate.hpp"

namespace rnncc {

// The claim's field: Q (agreement of the exact outputs; what the models mean), or F_p
// (agreement modulo the certificate's prime is enough; a Q certificate proves that too).
enum class ClaimField { q, f_p };

// "Q" → q, "F_p" → f_p; InputError naming `where` (the option) otherwise.
ClaimField parse_claim_field(const std::string& text, const std::string& where);

struct CertificateVerdict {
  CertificateCheck check;  // the independent checker's result (problems, field, modulus)
  ClaimField claim = ClaimField::q;
  // The certificate is a valid proof (check.ok) over a field the claim accepts.
  bool valid = false;
  // check.ok, but the certificate is over F_p and the claim over Q.
  bool field_too_weak = false;
  // "over Q" or "modulo p = 2" (the certificate's field; empty when unreadable).
  std::string field_text;
};

// check_certificate, then the claim's field. A valid F_p certificate under a Q claim is not
// valid: `problems` gets "the certificate proves agreement modulo p = … only; a claim over Q
// needs a certificate over Q".
CertificateVerdict check_certificate_claim(const SubjectFile& f, const SubjectFile& g,
                                           std::string_view certificate_json, ClaimField claim);

// "over Q", "modulo p = 2", or "" for an empty field.
std::string field_words(const std::string& field, std::optional<std::uint64_t> modulus);

// `rnncc check-certificate --json`: valid, claim_field, field, modulus, statement (what a valid
// certificate proves, else null), problems.
nlohmann::ordered_json certificate_verdict_json(const CertificateVerdict& v, const SubjectFile& f,
                                                const SubjectFile& g);

// "A and B agree over Q on every nonempty prefix" (with "and on ε" for two WFAs).
std::string certificate_statement(const CertificateVerdict& v, const SubjectFile& f,
                                  const SubjectFile& g);

}  // namespace rnncc
