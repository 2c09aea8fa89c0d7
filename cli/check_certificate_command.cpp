// rnncc check-certificate MODEL_F MODEL_G FILE [--field Q|F_p] [--json]: re-check an equivalence
// certificate with the independent checker (verify/check_certificate.hpp) against a claim over
// a field (verify/certificate_claim.hpp): over Q by default, where a certificate over F_p is
// refused. Exit 0 valid, 1 invalid (or over a field weaker than the claim's), 2 bad input
// (unreadable files, a file that is not JSON, or a certificate for other models).
#include <iostream>

#include "algebra/error.hpp"
#include "circuits/io/json_text.hpp"
#include "cli/commands.hpp"
#include "cli/usage_errors.hpp"
#include "rnn/json_cursor.hpp"
#include "verify/certificate_claim.hpp"
#include "verify/check_certificate.hpp"
#include "verify/check_product_certificate.hpp"

namespace rnncc::cli {

Action add_check_certificate_command(CLI::App& app) {
  struct Flags {
    std::string f, g, file, field = "Q";
    bool json = false;
  };
  auto fl = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "check-certificate", "Re-check an equivalence certificate written by `rnncc equiv`");
  cmd->add_option("MODEL_F", fl->f, "model or WFA file (f)")->required();
  cmd->add_option("MODEL_G", fl->g, "model or WFA file (g)")->required();
  cmd->add_option("FILE", fl->file,
                  "the certificate (JSON); with two files, MODEL CERTIFICATE: a promise or "
                  "input-map certificate, whose specification is in it");
  cmd->add_option("--field", fl->field,
                  "the claim's field: Q (equal outputs; a certificate over F_p is refused) or F_p "
                  "(agreement modulo the certificate's prime is enough)")
      ->check(choice_of({"Q", "F_p"}))
      ->capture_default_str();
  cmd->add_flag("--json", fl->json, "print JSON");
  return [cmd, fl]() -> int {
    if (!cmd->parsed()) return -1;
    const ClaimField claim = parse_claim_field(fl->field, "--field");
    // The certificates of product searches, promise searches and input maps (their own
    // independent checkers, verify/check_product_certificate.hpp), by their "format".
    {
      const bool two = fl->file.empty();
      const std::string cert = two ? fl->g : fl->file;
      const std::string text = read_certificate_file(cert);
      const std::string format = certificate_format(text);
      std::optional<ProductCertificateCheck> c;
      if (format == "rnncc-promise-certificate/1") {
        if (!two)
          throw InputError(fl->file,
                           "a promise certificate is checked against one model: "
                           "rnncc check-certificate MODEL CERTIFICATE");
        c = check_promise_certificate(load_subject_file(fl->f), text);
      } else if (format == "rnncc-input-map-certificate/1") {
        const std::optional<SubjectFile> spec =
            two ? std::nullopt : std::optional<SubjectFile>(load_subject_file(fl->f));
        c = check_input_map_certificate(spec, load_subject_file(two ? fl->f : fl->g), text);
      } else if (format == "rnncc-product-certificate/1") {
        if (two)
          throw InputError(cert,
                           "a product certificate is checked against two models: "
                           "rnncc check-certificate F G CERTIFICATE");
        c = check_product_certificate(load_subject_file(fl->f), load_subject_file(fl->g), text);
      } else if (two) {
        throw InputError(cert,
                         "expected a promise or input-map certificate with two files "
                         "(MODEL CERTIFICATE); an equivalence certificate needs F G FILE");
      }
      if (c) {
        // A claim over Q (the default) needs a certificate over Q: an input map read modulo p
        // proves agreement modulo p only.
        const bool weaker = c->ok && claim == ClaimField::q && c->field != "Q";
        if (fl->json && !c->other_models && !c->not_json) {
          nlohmann::ordered_json j;
          j["valid"] = c->ok && !weaker;
          j["format"] = format;
          j["claim_field"] = fl->field;
          j["field"] = c->field;
          if (c->modulus) j["modulus"] = *c->modulus;
          if (c->ok) j["statement"] = c->established;
          j["problems"] = c->problems;
          if (weaker)
            j["problems"].push_back(
                "the certificate proves agreement modulo p = " + std::to_string(*c->modulus) +
                " only; a claim over Q needs a certificate over Q");
          std::cout << json_text(j, 2) << "\n";
          return c->ok && !weaker ? 0 : 1;
        }
        if (weaker) {
          std::cerr << "rnncc: certificate valid modulo p = " << *c->modulus
                    << " only; a claim over Q needs a certificate over Q (pass --field F_p to "
                       "accept agreement modulo p): "
                    << c->established << "\n";
          return 1;
        }
        if (c->ok) {
          std::cout << "certificate valid: " << c->established
                    << " (checked by the independent checker)\n";
          return 0;
        }
        const bool bad_input = c->other_models || c->not_json;
        for (const std::string& p : c->problems)
          std::cerr << "rnncc: " << (bad_input ? "error" : "invalid certificate") << ": " << cert
                    << ": " << p << "\n";
        return bad_input ? 2 : 1;
      }
    }
    const SubjectFile f = load_subject_file(fl->f), g = load_subject_file(fl->g);
    const std::string text = read_certificate_file(fl->file);
    const CertificateVerdict v = check_certificate_claim(f, g, text, claim);
    const CertificateCheck& c = v.check;
    const bool bad_input = c.other_models || c.not_json;
    if (fl->json && !bad_input) {
      std::cout << json_text(certificate_verdict_json(v, f, g), 2) << "\n";
      return v.valid ? 0 : 1;
    }
    if (v.valid) {
      std::cout << "certificate valid: " << certificate_statement(v, f, g)
                << " (checked by the independent checker)"
                << (c.field == "F_p" ? "; this proves nothing over Q" : "") << "\n";
      return 0;
    }
    for (const std::string& p : c.problems)
      std::cerr << "rnncc: " << (bad_input ? "error" : "invalid certificate") << ": " << fl->file
                << ": " << p << "\n";
    return bad_input ? 2 : 1;
  };
}

}  // namespace rnncc::cli
