// rnncc construct KIND [INPUT] -o MODEL.json   and   rnncc verify KIND … (exit 0 holds, 1 fails, 2
// bad input). Both are generated from the construction registry (constructions/registry.hpp):
// one subcommand per kind with that kind's options; `tm` is added by cli/tm_command.cpp.
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/ranks.hpp"
#include "algebra/sharded_run.hpp"
#include "algebra/suggest.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/limits.hpp"
#include "cli/progress.hpp"
#include "constructions/registry.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"
#include "verify/k_induction.hpp"
#include "verify/sat_proof.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

namespace rnncc::cli {

namespace {

// One kind's subcommand and the text of its options as parsed. Every option of the registry is
// added to every kind's subcommand: the kind's own ones shown in its help, the others hidden, so
// that giving one is refused by ConstructionKind::check_applicable with a diagnostic naming the
// kinds it belongs to (rather than CLI11 misreading its value as INPUT).
struct KindCommand {
  const ConstructionKind* kind = nullptr;
  CLI::App* app = nullptr;
  std::string input;
  std::map<std::string, std::string> text;  // option name → value as given (or its default)
  std::map<std::string, bool> flags;
  std::map<const CLI::Option*, std::string> names;  // the registry's name (CLI11 may rename)
};

// The options of `k.kind`, in its order, then (verify) the options every kind takes, then every
// other option of the registry, hidden.
void add_kind_options(KindCommand& k, const Registry& registry, bool verify) {
  auto add = [&](const OptionSpec& o, bool own) {
    CLI::Option* opt = nullptr;
    if (o.kind == OptionKind::flag) {
      opt = k.app->add_flag(o.name, k.flags[o.name], o.help);
    } else {
      std::string& value = k.text[o.name];
      if (own && o.default_value) value = *o.default_value;
      opt = k.app->add_option(o.name, value, o.help);
      if (o.kind == OptionKind::whole_number) opt->type_name("UINT");  // main.cpp checks UINTs
      if (own && o.default_value) opt->capture_default_str();
      if (own && o.required) opt->required();
    }
    if (!own) opt->group("");
    k.names[opt] = o.name;
  };
  for (const OptionSpec& o : k.kind->options) add(o, true);
  if (verify)
    for (const OptionSpec& o : verify_options()) add(o, true);
  for (const OptionSpec* o : registry.all_options())
    if (!k.kind->option(o->name)) add(*o, false);
}

// The options given, in the order given (the diagnostics name the first offending one).
ConstructionArgs args_of(const KindCommand& k) {
  ConstructionArgs args;
  args.input = k.input;
  std::set<std::string> seen;
  for (const CLI::Option* o : k.app->parse_order()) {
    const auto n = k.names.find(o);
    if (n == k.names.end() || !seen.insert(n->second).second) continue;  // INPUT, verify's own
    const std::string& name = n->second;
    if (auto f = k.flags.find(name); f != k.flags.end()) {
      if (f->second) args.set(name);
    } else if (auto t = k.text.find(name); t != k.text.end()) {
      args.set(name, t->second);
    }
  }
  return args;
}

// One subcommand per kind of the registry (verify-only kinds skipped unless `verify`), appended
// to `kinds` (a deque: CLI11 keeps pointers into its elements).
void add_kinds(CLI::App* parent, bool verify, std::deque<KindCommand>& kinds) {
  const Registry& registry = verify_registry();
  for (const ConstructionKind& kind : registry.kinds()) {
    if (kind.verify_only && !verify) continue;
    KindCommand& k = kinds.emplace_back();
    k.kind = &kind;
    k.app = parent->add_subcommand(kind.name, kind.help);
    if (!kind.input_help.empty()) {
      CLI::Option* in = k.app->add_option("INPUT", k.input, kind.input_help);
      if (verify && !kind.input_optional) in->required();
    }
    add_kind_options(k, registry, verify);
  }
}

KindCommand* parsed(std::deque<KindCommand>& kinds) {
  for (KindCommand& k : kinds)
    if (k.app->parsed()) return &k;
  return nullptr;
}

struct ConstructCommand {
  std::deque<KindCommand> kinds;
  std::string output;
  std::size_t max_memory = 0;  // --max-memory (MiB)
};

struct VerifyCommand {
  std::deque<KindCommand> kinds;
  VerifyOptions options;
  std::optional<std::size_t> exhaustive;
  std::string device = "cpu";
  std::string certificate;
  bool json = false, no_proof = false, no_timing = false, no_three_way = false;
  bool as_printed = false;  // the paper's version beside the corrected one (docs/errata.md)
  std::uint64_t max_work = kDefaultMaxWork;
  std::size_t max_memory = 0;              // --max-memory (MiB)
  std::optional<std::size_t> sat;          // --sat N
  std::optional<std::size_t> k_induction;  // --k-induction K
  std::optional<std::string> checkpoint;   // --checkpoint FILE
};

// The options that choose the construction and the exhaustive range, as given ("--n 4
// --exhaustive 9"): the words a checkpoint keeps to refuse another job's file.
std::string given_options(const CLI::App& app) {
  std::string out;
  for (const CLI::Option* o : app.get_options()) {
    const std::string name = o->get_name();
    if (!o->count() || name == "--checkpoint" || name == "--json" || name == "--quiet") continue;
    out += (out.empty() ? "" : " ") + name;
    for (const std::string& v : o->results()) out += " " + v;
  }
  return out;
}

// verify KIND --as-printed: both versions of an erratum (verify.hpp, verify_as_printed).
int verify_as_printed_command(const KindCommand& k, const ConstructionArgs& args,
                              const VerifyCommand& f) {
  if (!f.certificate.empty())
    throw InputError("--certificate", "not with --as-printed (two versions are checked)");
  VerifyOptions options = f.options;
  options.progress = &progress();
  const AsPrintedReport r =
      verify_as_printed(k.kind->name, args, verify_registry(), options, [&](const Construction& c) {
        if (f.options.exhaustive && *f.options.exhaustive == 0 && !c.target.fixed_length)
          throw InputError("--exhaustive", "give a length: every string of length 1..L");
        check_verify_work(c, f.options, f.max_work);
      });
  if (f.json)
    std::cout << json_text(to_json(r), 2) << "\n";
  else
    std::cout << format_text(r);
  return r.reproduced ? 0 : 1;
}

}  // namespace

Action add_construct_command(CLI::App& app) {
  auto f = std::make_shared<ConstructCommand>();
  CLI::App* cmd = app.add_subcommand(
      "construct",
      "Build a construction's model and write it as a model file (construct KIND --help: KIND's "
      "options)");
  add_kinds(cmd, false, f->kinds);
  for (KindCommand& k : f->kinds) {
    k.app->add_option("-o,--output", f->output, "MODEL.json")->required();
    add_max_memory_option(k.app, f->max_memory, "the model, for kinds built from a file");
  }
  // A first word that is no kind is refused by the parse, which names the nearest kind and
  // lists them all, `tm` included (cli/usage_errors.hpp).
  cmd->require_subcommand(1);
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    KindCommand* k = parsed(f->kinds);
    if (!k) return -1;  // `construct tm` (cli/tm_command.cpp)
    if (k->input.empty() && !k->kind->input_help.empty() && !k->kind->input_optional)
      throw InputError("INPUT",
                       "construct " + k->kind->name + " needs an input (a WFA file or a formula)");
    OutputFile out(f->output);  // before the work (circuits/io/output_file.hpp)
    ConstructionArgs args = args_of(*k);
    args.max_memory_mib = f->max_memory;
    Construction c = k->kind->build(args, verify_registry());
    out.write(json_text(model_to_json(c.model), 2) + "\n");
    out.commit();
    std::cout << c.name << ": wrote " << f->output << " (" << describe_layers(c.model)
              << ", |Σ| = " << c.model.alphabet.size() << ")\n";
    for (const Claim& cl : c.claims)
      std::cout << "  claim " << cl.name << ": claimed " << cl.claimed << ", measured "
                << cl.measured << (cl.ok ? "" : "  FAILS") << "\n";
    for (const std::string& note : c.notes) std::cout << "  note: " << note << "\n";
    return 0;
  };
}

Action add_verify_command(CLI::App& app) {
  auto f = std::make_shared<VerifyCommand>();
  CLI::App* verify_cmd = app.add_subcommand(
      "verify",
      "Machine-check a construction: exit 0 holds, 1 counterexample (verify KIND --help: KIND's "
      "options)");
  verify_cmd->require_subcommand(1);
  add_kinds(verify_cmd, true, f->kinds);
  for (KindCommand& kc : f->kinds) {
    CLI::App* k = kc.app;
    k->add_option("--random", f->options.random, "random strings")->capture_default_str();
    k->add_option("--length,--max-length", f->options.max_random_length, "longest random string")
        ->capture_default_str();
    k->add_option("--exhaustive", f->exhaustive,
                  "every string of length 1..L (fixed-length domains: all)")
        ->expected(0, 1);
    k->add_option("--identity", f->options.identity_rounds,
                  "K rounds of identity testing over F_p, p a random prime in [2^61, 2^62)");
    k->add_option("--identity-length", f->options.identity_max_length, "identity test lengths 1..L")
        ->capture_default_str();
    k->add_option("--seed", f->options.seed,
                  "seed of the random choices (default: drawn at random; the report states it)");
    k->add_option(
         "--device", f->device,
         "gpu: exhaustive and random checks on the GPU (exact: multi-modular, or the model walk)")
        ->capture_default_str();
    k->add_flag("--no-proof", f->no_proof,
                "test only: skip the every-length decision (linear constructions)");
    k->add_flag("--no-three-way", f->no_three_way,
                "check X against f only, no circuit of X per string; exhaustive then takes prefix "
                "sharing or the model walk at every length they apply to");
    k->add_option("--certificate", f->certificate,
                  "write the every-length proof (JSON) to this file, where it can be re-checked");
    k->add_option("--sat", f->sat,
                  "prove for every input of length <= N by SAT (CaDiCaL, DRAT proof checked) where "
                  "nothing proves every length (attention, hybrids)");
    k->add_option("--sat-width", f->options.sat_width,
                  "first word width (bits) of the SAT encoding; doubled while a value overflows")
        ->capture_default_str();
    k->add_option("--k-induction", f->k_induction,
                  "prove for every input by k-induction over the recurrent state (Z3), k = 1..K "
                  "(the graph-walk / dgc RNN)");
    k->add_flag("--no-timing", f->no_timing, "leave the proof's time out (reproducible output)");
    k->add_flag("--json", f->json, "print the report as JSON");
    k->add_option("--checkpoint", f->checkpoint,
                  "run the exhaustive method in blocks, recorded in this file; a rerun resumes "
                  "where a killed run stopped (also under mpirun: docs/performance.md, \"Past "
                  "one machine\")");
    k->add_option("--max-work", f->max_work,
                  "refuse checks estimated above this many symbol steps (random, exhaustive, "
                  "identity), and proofs above this many operations")
        ->capture_default_str();
    add_max_memory_option(k, f->max_memory, "the model, for kinds built from a file");
    k->add_flag("--as-printed", f->as_printed,
                "run the paper's version beside the corrected one (docs/errata.md); exit 0 when "
                "the printed version fails and the corrected one holds");
  }
  return [verify_cmd, f]() -> int {
    if (!verify_cmd->parsed()) return -1;
    KindCommand* k = parsed(f->kinds);
    if (!k) return -1;  // `verify tm` (cli/tm_command.cpp)
    ConstructionArgs args = args_of(*k);
    args.max_memory_mib = f->max_memory;
    k->kind->check_applicable(args, verify_registry());
    if (k->app->count("--exhaustive")) f->options.exhaustive = f->exhaustive.value_or(0);
    if (f->device != "cpu" && f->device != "gpu")
      throw InputError("--device", with_suggestion("'" + f->device + "': expected cpu or gpu",
                                                   f->device, {"cpu", "gpu"}));
    f->options.gpu = f->device == "gpu";
    f->options.prove = !f->no_proof;
    f->options.three_way = !f->no_three_way;
    if (f->sat) {
      if (*f->sat == 0)
        throw InputError("--sat", "expected a length N ≥ 1 (every input of length ≤ N)");
      if (f->no_proof) throw InputError("--sat", "not with --no-proof (a SAT proof is a proof)");
      std::string why;
      if (!sat::sat_available(&why)) throw InputError("--sat", why);
      if (f->options.sat_width < 2 || f->options.sat_width > 128)
        throw InputError("--sat-width",
                         "expected 2..128 bits, got " + std::to_string(f->options.sat_width));
      f->options.sat_length = f->sat;
    }
    if (f->k_induction) {
      if (*f->k_induction == 0 || *f->k_induction > 16)
        throw InputError("--k-induction",
                         "expected K in 1..16 (k = 1..K), got " + std::to_string(*f->k_induction));
      if (f->no_proof)
        throw InputError("--k-induction", "not with --no-proof (k-induction is a proof)");
      std::string why;
      if (!kind::k_induction_available(&why)) throw InputError("--k-induction", why);
      f->options.k_induction = f->k_induction;
    }
    f->options.timing = !f->no_timing;
    f->options.certificate = !f->certificate.empty();
    if (k->app->count("--random")) f->options.random_after_proof.reset();  // as given
    if (f->options.gpu) {
      const gpu::DeviceInfo d = gpu::probe();
      if (!d.available) std::cerr << "rnncc: no GPU (" << d.why_not << "); verifying on the CPU\n";
    }
    if (f->as_printed) return verify_as_printed_command(*k, args, *f);
    // Opened before the work; committed only when a proof wrote a certificate.
    // Under mpirun, rank 0 alone writes (and prints: cli/main.cpp).
    std::optional<OutputFile> certificate;
    const bool writer = world_ranks().rank() == 0;
    if (!f->certificate.empty() && writer) certificate.emplace(f->certificate);
    // The estimates from the planned shape, before a large input is built densely.
    args.before_build = [&](const PlannedShape& shape) {
      check_verify_work(shape, f->options, f->max_work);
    };
    const Construction c = k->kind->build(args, verify_registry());
    if (f->options.exhaustive && *f->options.exhaustive == 0 && !c.target.fixed_length)
      throw InputError("--exhaustive", "give a length: every string of length 1..L");
    check_verify_work(c, f->options, f->max_work);
    f->options.progress = &progress();
    if (f->checkpoint || launcher_ranks() > 0) {
      if (f->as_printed) throw InputError("--checkpoint", "not with --as-printed");
      f->options.ranks = &world_ranks();
      f->options.checkpoint = f->checkpoint;
      f->options.job = fmt::format("{} {}, model {:016x}", k->kind->name, given_options(*k->app),
                                   checkpoint_hash(model_to_json(c.model).dump()));
    }
    VerifyReport r = verify(c, f->options);
    if (!r.sharding.empty()) std::cerr << "rnncc: " << r.sharding << "\n";
    if (r.proof && !r.proof->certificate_json.empty() && !certificate) {
      r.proof->certificate = f->certificate;  // written by rank 0
    } else if (r.proof && !r.proof->certificate_json.empty()) {
      certificate->write(r.proof->certificate_json);
      certificate->commit();
      r.proof->certificate = f->certificate;
    } else if (!f->certificate.empty() && !(r.proof && r.proof->no_certificate)) {
      r.notes.push_back("no certificate written: nothing was proved for every length");
    }
    if (f->json)
      std::cout << json_text(to_json(r), 2) << "\n";
    else
      std::cout << format_text(r);
    return r.holds ? 0 : 1;
  };
}

}  // namespace rnncc::cli
