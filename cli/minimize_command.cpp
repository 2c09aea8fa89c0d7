// rnncc minimize MODEL [-o OUT.json] [--json]: the Schützenberger reduction of a one-layer LRNN
// model or a WFA (verify/minimize.hpp) as a general-family LRNN, proved equal to the input on
// every nonempty prefix by the decider (verify/equivalence.hpp) before it is written.
#include <algorithm>
#include <iostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/limits.hpp"
#include "rnn/model_json.hpp"
#include "verify/certificate.hpp"
#include "verify/minimize.hpp"

namespace rnncc::cli {

Action add_minimize_command(CLI::App& app) {
  struct Flags {
    std::string model, out;
    bool json = false;
    std::uint64_t max_work = kDefaultMaxFieldWork;
    std::size_t max_memory = 0;  // --max-memory (MiB)
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "minimize",
      "Reduce a one-layer LRNN or a WFA to a general LRNN equal to it on every nonempty string, "
      "of the least dimension an LRNN with that function has (ε's output, which an LRNN does not "
      "have, is not counted; with per-symbol readouts an upper bound)");
  cmd->add_option("MODEL", f->model, "model or WFA file")->required();
  cmd->add_option("-o,--output", f->out, "write the minimized model (JSON) here");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_option("--max-work", f->max_work,
                  "refuse reductions estimated above this many field operations ((2d)^3 · |Σ|)")
      ->capture_default_str();
  add_max_memory_option(cmd, f->max_memory, "the reduction: (|Σ| + 1)·(2d)^2 entries");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    std::optional<OutputFile> out;  // before the work (circuits/io/output_file.hpp)
    if (!f->out.empty()) out.emplace(f->out);
    const SubjectFile s = load_subject_file(f->model);
    const LinearRepresentation rep = minimize_input(s);
    // The reduction and the proof against the input: forward bases of dimension up to 2d.
    check_forward_basis_work(2 * rep.dim, rep.symbols.size(), f->max_work, "minimize");
    check_forward_basis_memory(2 * rep.dim, rep.symbols.size(), f->max_memory, "minimize");
    const ProvedMinimization p = minimize_and_prove(rep, "minimized");
    const MinimizeResult& m = p.minimized;
    const EquivalenceResult& proof = p.proof;
    if (out) {
      out->write(json_text(model_to_json(m.model), 2) + "\n");
      out->commit();
    }
    if (f->json) {
      std::cout << json_text(minimize_json(p, f->out.empty() ? std::nullopt
                                                             : std::optional<std::string>(f->out)),
                             2)
                << "\n";
    } else {
      std::cout << "minimize: " << f->model << ": dimension " << p.dimension
                << (s.is_wfa() ? " (states)" : " (d·m)") << " → minimal " << m.dimension
                << (m.affine ? " (affine steps and a readout bias)" : "")
                << ": the least dimension of an LRNN computing the same function on nonempty "
                   "strings"
                << (std::all_of(rep.readout.begin(), rep.readout.end(),
                                [&](const auto& g) { return g == rep.readout[0]; })
                        ? ""
                        : " (an upper bound: the readout depends on the symbol)")
                << "\n"
                << "proved over Q: every length — the minimized model equals the input on every "
                   "nonempty prefix ("
                << proof.method << ", basis size " << proof.basis_size << ")\n";
      if (!f->out.empty()) std::cout << "wrote " << f->out << "\n";
    }
    return 0;
  };
}

}  // namespace rnncc::cli
