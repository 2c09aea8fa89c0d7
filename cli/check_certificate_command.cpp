// rnncc check-certificate MODEL_F MODEL_G FILE: re-check an equivalence certificate with the
// independent checker (verify/check_certificate.hpp). Exit 0 valid, 1 invalid, 2 bad input
// (unreadable files, a file that is not JSON, or a certificate for other models).
#include <iostream>

#include "algebra/error.hpp"
#include "cli/commands.hpp"
#include "rnn/json_cursor.hpp"
#include "verify/check_certificate.hpp"

namespace rnncc::cli {

Action add_check_certificate_command(CLI::App& app) {
  struct Flags {
    std::string f, g, file;
  };
  auto fl = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "check-certificate", "Re-check an equivalence certificate written by `rnncc equiv`");
  cmd->add_option("MODEL_F", fl->f, "model or WFA file (f)")->required();
  cmd->add_option("MODEL_G", fl->g, "model or WFA file (g)")->required();
  cmd->add_option("FILE", fl->file, "the certificate (JSON)")->required();
  return [cmd, fl]() -> int {
    if (!cmd->parsed()) return -1;
    const SubjectFile f = load_subject_file(fl->f), g = load_subject_file(fl->g);
    const std::string text = read_certificate_file(fl->file);
    const CertificateCheck c = check_certificate(f, g, text);
    if (c.ok) {
      std::cout << "certificate valid: " << fl->f << " and " << fl->g
                << " agree on every nonempty prefix (checked by the independent checker)\n";
      return 0;
    }
    const bool bad_input = c.other_models || c.not_json;
    for (const std::string& p : c.problems)
      std::cerr << "rnncc: " << (bad_input ? "error" : "invalid certificate") << ": " << fl->file
                << ": " << p << "\n";
    return bad_input ? 2 : 1;
  };
}

}  // namespace rnncc::cli
