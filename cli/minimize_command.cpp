// rnncc minimize MODEL [-o OUT.json] [--json]: the Schützenberger reduction of a one-layer LRNN
// model or a WFA (verify/minimize.hpp) as a general-family LRNN, proved equal to the input on
// every nonempty prefix by the decider (verify/equivalence.hpp) before it is written.
#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"
#include "cli/commands.hpp"
#include "rnn/model_json.hpp"
#include "verify/certificate.hpp"
#include "verify/minimize.hpp"

namespace rnncc::cli {

Action add_minimize_command(CLI::App& app) {
  struct Flags {
    std::string model, out;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "minimize", "Reduce a one-layer LRNN or a WFA to an equal general LRNN of least dimension");
  cmd->add_option("MODEL", f->model, "model or WFA file")->required();
  cmd->add_option("-o,--output", f->out, "write the minimized model (JSON) here");
  cmd->add_flag("--json", f->json, "print JSON");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const SubjectFile s = load_subject_file(f->model);
    LinearRepresentation rep;
    try {
      rep = subject_representation(s);
    } catch (const NotLinearError& e) {
      throw InputError(s.path, e.what());
    }
    if (rep.readout.empty())
      throw InputError(s.path, "minimize reads one-layer LRNN models and WFAs");
    const MinimizeResult m = minimize(rep, "minimized");
    LinearRepresentation original = rep;
    original.empty.reset();  // the LRNN has no output at t = 0
    const EquivalenceResult proof = decide_equivalence(from_model(m.model), original);
    if (!proof.equivalent)
      throw std::logic_error("minimize: the reduced model differs from the input (a bug)");
    if (!f->out.empty()) write_file_atomically(f->out, model_to_json(m.model).dump(2) + "\n");
    if (f->json) {
      nlohmann::ordered_json j;
      j["dimension"] = rep.dim;
      j["forward_dimension"] = m.forward_dim;
      j["minimal_dimension"] = m.reduced.dim;
      j["proved"] = true;
      j["method"] = proof.method;
      j["basis_size"] = proof.basis_size;
      j["output"] = f->out.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f->out);
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << "minimize: " << f->model << ": dimension " << rep.dim
                << (s.is_wfa() ? "" : " (homogenized: d·m + 1)") << " → forward " << m.forward_dim
                << " → minimal " << m.reduced.dim << " (Hankel rank)\n"
                << "proved: every length — the minimized model equals the input on every "
                   "nonempty prefix ("
                << proof.method << ", basis size " << proof.basis_size << ")\n";
      if (!f->out.empty()) std::cout << "wrote " << f->out << "\n";
    }
    return 0;
  };
}

}  // namespace rnncc::cli
