// rnncc verify tm MACHINE [--input STRING] [--max-steps N] [--index] [--json]
// rnncc verify tm MACHINE --sat-tape N --max-steps T   (every tape of N symbols, by SAT)
// rnncc construct tm MACHINE [--input STRING] -o MODEL.json
// rnncc draw tm MACHINE -o OUT.(svg|png|dot) [--layers]           (Graphviz builds)
// Turing machines simulated by a hybrid RNN with chain of thought [WDL24]
// (constructions/turing_machine.hpp, verify/verify_tm.hpp, viz/draw_tm.hpp).
#include <iostream>
#include <memory>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "algebra/suggest.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/limits.hpp"
#include "cli/progress.hpp"
#include "constructions/turing_machine.hpp"
#include "rnn/generate.hpp"
#include "rnn/run_report.hpp"
#include "verify/sat_proof.hpp"
#include "verify/verify_tm.hpp"
#ifdef RNNCC_HAVE_GRAPHVIZ
#include "viz/draw_tm.hpp"
#endif

namespace rnncc::cli {

namespace {

struct TmFlags {
  std::string machine, input, output, defect = "none";
  std::uint64_t max_steps = 10'000;
  std::uint64_t max_work = kDefaultMaxWork;
  std::size_t max_memory = 0;  // --max-memory (MiB)
  bool json = false, index = false, lenient = false, layers = false, no_timing = false;
  std::optional<std::size_t> sat_tape;  // --sat-tape N
  std::size_t sat_width = 24;
};

TmHybridOptions::Defect parse_defect(const std::string& d) {
  if (d == "none") return TmHybridOptions::Defect::none;
  if (d == "off-by-one") return TmHybridOptions::Defect::off_by_one_position;
  if (d == "leftmost-ties") return TmHybridOptions::Defect::leftmost_ties;
  throw InputError("--defect",
                   with_suggestion("'" + d + "': expected none, off-by-one or leftmost-ties", d,
                                   {"none", "off-by-one", "leftmost-ties"}));
}

void add_machine_flags(CLI::App* cmd, TmFlags& f) {
  cmd->add_option("MACHINE", f.machine,
                  "bbchallenge string (1RB1LB_1LA1RZ) or a file holding one (examples/tm_*.txt)")
      ->required();
  cmd->add_flag("--lenient", f.lenient,
                "any next-state letter outside the states halts (default: only Z)");
}

#ifdef RNNCC_HAVE_GRAPHVIZ
// The parent's own required arguments stay required unless `tm` was the subcommand given
// (`draw`; `construct` has a subcommand per kind, cli/verify_command.cpp).
void relax(CLI::App* parent, std::vector<std::string> names, CLI::App* tm) {
  for (const std::string& n : names) parent->get_option(n)->required(false);
  parent->parse_complete_callback([parent, names, tm] {
    if (tm->parsed()) return;
    for (const std::string& n : names)
      if (parent->get_option(n)->count() == 0)
        throw CLI::RequiredError(parent->get_option(n)->get_name());
  });
}
#endif

// verify tm's limit (cli/limits.hpp), before the first step: the library's estimate of the
// incremental evaluator's operations over prompt + --max-steps positions (each generated step
// attends over every earlier position: quadratic in the positions; --index: log2 of them) and
// of the reference re-evaluation (verify/verify_tm.hpp, estimate_verify_tm_work).
void check_tm_work(const TuringMachine& m, const std::vector<std::size_t>& input,
                   const TmVerifyOptions& o, std::uint64_t max_work, std::size_t max_memory) {
  const TmWorkEstimate e = estimate_verify_tm_work(m, input, o);
  std::string detail = "prompt of " + std::to_string(e.prompt) + " tokens + " +
                       std::to_string(e.positions - e.prompt) +
                       " steps = " + std::to_string(e.positions) + " positions, " +
                       (o.attention_index ? "each looked up in the attention index"
                                          : "each attending over every earlier one");
  if (e.reference > e.total() / 100) detail += ", and the reference evaluator's re-evaluation";
  if (!o.attention_index) detail += "; --index: O(log n) a step";
  check_work("--max-work", e.total(), max_work, "verify tm would take", "operations", detail);
  check_memory("--max-memory", e.memory_bytes, max_memory, "verify tm would take",
               std::to_string(e.positions) + " positions' attention keys and values" +
                   (e.reference > 0 ? " and the reference evaluator's trace" : ""));
}
}  // namespace

Action add_tm_commands(CLI::App& app) {
  auto f = std::make_shared<TmFlags>();

  CLI::App* verify = app.get_subcommand("verify");
  CLI::App* vt = verify->add_subcommand(
      "tm",
      "Turing machine by a hybrid RNN with chain of thought [WDL24], step by step against "
      "the direct simulator");
  add_machine_flags(vt, *f);
  vt->add_option("--input", f->input, "tape symbols written from cell 0 (e.g. 0110)");
  vt->add_option("--max-steps", f->max_steps, "step cap (not halting by then is not a failure)")
      ->capture_default_str();
  vt->add_flag("--index", f->index,
               "evaluate the attention through the parabola index (same argmax, O(log n) a step)");
  vt->add_option("--defect", f->defect,
                 "a deliberately broken model: none, off-by-one or leftmost-ties")
      ->capture_default_str();
  vt->add_flag("--json", f->json, "print the report as JSON");
  vt->add_option("--sat-tape", f->sat_tape,
                 "prove for every input tape of N symbols and the first --max-steps steps by SAT "
                 "(CaDiCaL, DRAT proof checked)");
  vt->add_option("--sat-width", f->sat_width,
                 "first word width (bits) of the SAT encoding; doubled while a value overflows")
      ->capture_default_str();
  vt->add_flag("--no-timing", f->no_timing, "leave the SAT proof's time out (reproducible output)");
  vt->add_option("--max-work", f->max_work,
                 "refuse runs estimated above this many operations (about 2·(prompt + steps)² "
                 "for the attention; --index: (prompt + steps)·log2)")
      ->capture_default_str();
  add_max_memory_option(vt, f->max_memory, "the attention's keys and values: positions × (h + r)");

  CLI::App* construct = app.get_subcommand("construct");
  CLI::App* ct = construct->add_subcommand(
      "tm",
      "the hybrid model of a Turing machine; run it with `rnncc run MODEL PROMPT --generate N`");
  add_machine_flags(ct, *f);
  ct->add_option("--input", f->input, "tape symbols written from cell 0 (sets the printed prompt)");
  ct->add_option("-o,--output", f->output, "MODEL.json")->required();

  CLI::App* dt = nullptr;
#ifdef RNNCC_HAVE_GRAPHVIZ
  if (CLI::App* draw = app.get_subcommand("draw")) {
    dt = draw->add_subcommand("tm",
                              "a Turing machine's state diagram (--layers: the hybrid "
                              "model's layers) as SVG, PNG or DOT");
    add_machine_flags(dt, *f);
    dt->add_option("-o,--output", f->output, "OUT.svg, OUT.png or OUT.dot")->required();
    dt->add_flag("--layers", f->layers, "draw the hybrid model's layer diagram instead");
    relax(draw, {"INPUT", "--output"}, dt);
  }
#endif

  return [vt, ct, dt, f]() -> int {
    if (vt->parsed() && f->sat_tape) {
      const TuringMachine m = machine_from_argument(f->machine, f->lenient);
      if (vt->count("--max-steps") == 0)
        throw InputError("--max-steps", "give the number of steps T that --sat-tape proves");
      if (!f->input.empty())
        throw InputError("--input", "not with --sat-tape (every tape is checked)");
      std::string why;
      if (!sat::sat_available(&why)) throw InputError("--sat-tape", why);
      if (f->sat_width < 2 || f->sat_width > 128)
        throw InputError("--sat-width",
                         "expected 2..128 bits, got " + std::to_string(f->sat_width));
      TmHybridOptions hybrid;
      hybrid.defect = parse_defect(f->defect);
      sat::SatOptions so;
      so.width = f->sat_width;
      const sat::SatOutcome r = sat::prove_tm_by_sat(m, *f->sat_tape, f->max_steps, hybrid, so);
      if (r.verdict == sat::SatOutcome::Verdict::unavailable ||
          r.verdict == sat::SatOutcome::Verdict::inconclusive)
        throw InputError("--sat-tape", "no proof: " + r.reason);
      const std::string name = turing_machine_hybrid(m, {}, hybrid).name;
      if (f->json) {
        nlohmann::ordered_json j;
        j["construction"] = name;
        j["holds"] = r.verdict == sat::SatOutcome::Verdict::proved;
        j["sat"] = sat::to_json(r, !f->no_timing);
        std::cout << json_text(j, 2) << "\n";
      } else {
        std::cout << sat::tm_sat_text(name, r, f->max_steps, !f->no_timing);
      }
      return r.verdict == sat::SatOutcome::Verdict::proved ? 0 : 1;
    }
    if (vt->parsed()) {
      const TuringMachine m = machine_from_argument(f->machine, f->lenient);
      TmVerifyOptions o;
      o.max_steps = f->max_steps;
      o.attention_index = f->index;
      o.hybrid.defect = parse_defect(f->defect);
      const std::vector<std::size_t> input = parse_tape_input(m, f->input);
      check_tm_work(m, input, o, f->max_work, f->max_memory);
      o.progress = &progress();
      const TmVerifyReport r = verify_tm(m, input, o);
      if (f->json)
        std::cout << json_text(to_json(r), 2) << "\n";
      else
        std::cout << format_text(r);
      return r.report.holds ? 0 : 1;
    }
    if (ct->parsed()) {
      OutputFile out(f->output);  // before the work (circuits/io/output_file.hpp)
      const TuringMachine m = machine_from_argument(f->machine, f->lenient);
      const TmHybrid h = turing_machine_hybrid(m, parse_tape_input(m, f->input));
      out.write(json_text(generative_model_to_json(h.model, h.rule), 2) + "\n");
      out.commit();
      std::cout << h.name << ": wrote " << f->output << " (" << describe_layers(h.model)
                << ", |Σ| = " << h.model.alphabet.size() << ")\n";
      std::cout << "  prompt: " << h.model.alphabet.join(h.prompt) << "\n";
      for (const Claim& cl : h.claims)
        std::cout << "  claim " << cl.name << ": claimed " << cl.claimed << ", measured "
                  << cl.measured << (cl.ok ? "" : "  FAILS") << "\n";
      return 0;
    }
#ifdef RNNCC_HAVE_GRAPHVIZ
    if (dt && dt->parsed()) {
      const TuringMachine m = machine_from_argument(f->machine, f->lenient);
      const DrawFormat format = draw_format_for(f->output);
      OutputFile out(f->output);  // before the work (circuits/io/output_file.hpp)
      const std::string dot = f->layers ? tm_layer_diagram_dot(m, turing_machine_hybrid(m, {}))
                                        : tm_state_diagram_dot(m);
      out.write(render_dot(dot, format));
      out.commit();
      return 0;
    }
#endif
    return -1;
  };
}

}  // namespace rnncc::cli
