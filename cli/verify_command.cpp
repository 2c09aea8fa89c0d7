// rnncc construct KIND [INPUT] -o MODEL.json   and   rnncc verify KIND … (exit 0 holds, 1 fails, 2
// bad input)
#include <iostream>
#include <memory>

#include "algebra/error.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/sexpr.hpp"
#include "cli/commands.hpp"
#include "constructions/barrington.hpp"
#include "constructions/ben_or_cleve.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/retrieval.hpp"
#include "constructions/state_recall.hpp"
#include "constructions/state_tracking.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/model_json.hpp"
#include "rnn/run_report.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

namespace rnncc::cli {

namespace {

// Everything a construction needs from the command line.
struct ConstructionFlags {
  std::string input;
  std::string family = "general";
  std::optional<std::uint64_t> modulus;
  bool no_bos = false;
  std::string defect = "none";
  std::string values;  // ben-or-cleve value set, comma separated
  std::size_t vertices = 3;
  std::string variant = "ever";
  // parity, mod-count, sn (DeltaNet state tracking) and state-recall
  std::size_t k = 3, r = 0, n = 5;
  std::string generators = "cycle";
  std::string beta_range = "(0,2]";
  std::string beta;  // empty: the largest β of the range (state_tracking.hpp)
  bool gated = false;
  std::string order = "bits-first";
  // selective-copy and assoc-recall (constructions/retrieval.hpp)
  std::size_t data_symbols = 2, max_distance = 3, keys = 2;
  std::optional<std::size_t> window, span;
  bool no_attention = false;
  std::string tie = "rightmost";
};

StateTrackingOptions state_tracking_options(const ConstructionFlags& f) {
  StateTrackingOptions o;
  o.gated = f.gated;
  const auto range = parse_beta_range(f.beta_range);
  if (!range)
    throw InputError("--beta-range",
                     "'" + f.beta_range + "': expected any, (0,1), (0,1], (0,2) or (0,2]");
  o.beta_range = *range;
  if (!f.beta.empty()) {
    o.beta = try_parse_rational(f.beta);
    if (!o.beta) throw InputError("--beta", "'" + f.beta + "' is not a rational");
  }
  return o;
}

Construction build(const std::string& kind, const ConstructionFlags& f) {
  if (kind == "wfa" || kind == "dwfa") {
    const Wfa a = load_wfa(f.input);
    if (kind == "dwfa" || f.family == "pd") return dwfa_to_pd(a);
    auto fam = parse_wfa_family(f.family);
    if (!fam)
      throw InputError("--family", "'" + f.family + "': expected general, dplr, deltanet or pd");
    return wfa_to_lrnn(a, *fam);
  }
  if (kind == "barrington") {
    if (f.defect != "none" && f.defect != "swapped-cycle")
      throw InputError("--defect", "'" + f.defect + "': expected none or swapped-cycle");
    return barrington(formula_from_argument(f.input), f.defect == "swapped-cycle"
                                                          ? BarringtonDefect::swapped_cycle
                                                          : BarringtonDefect::none);
  }
  if (kind == "ben-or-cleve") {
    const Formula formula = formula_from_argument(f.input);
    if (f.values.empty()) return ben_or_cleve(formula);
    std::vector<Rational> values;
    std::size_t start = 0;
    while (start <= f.values.size()) {
      std::size_t end = f.values.find(',', start);
      if (end == std::string::npos) end = f.values.size();
      auto q = try_parse_rational(f.values.substr(start, end - start));
      if (!q)
        throw InputError("--values",
                         "'" + f.values.substr(start, end - start) + "' is not a rational");
      values.push_back(*q);
      start = end + 1;
    }
    return ben_or_cleve(formula, values);
  }
  if (kind == "matmul3") {
    Matmul3Options o;
    o.modulus = f.modulus;
    o.init_on_bos = !f.no_bos;
    return matmul3(o);
  }
  if (kind == "graph-walk" || kind == "dgc") {
    GraphWalkVariant v =
        f.variant == "ever"    ? GraphWalkVariant::ever
        : f.variant == "final" ? GraphWalkVariant::final_with_promise
        : f.variant == "final-no-promise"
            ? GraphWalkVariant::final_no_promise
            : throw InputError("--variant",
                               "'" + f.variant + "': expected ever, final or final-no-promise");
    return graph_walk(f.vertices, v);
  }
  if (kind == "parity") return parity(state_tracking_options(f));
  if (kind == "mod-count") return mod_count(f.k, f.r, state_tracking_options(f));
  if (kind == "sn") {
    if (f.generators != "cycle" && f.generators != "transpositions")
      throw InputError("--generators", "'" + f.generators + "': expected cycle or transpositions");
    return symmetric_word(f.n,
                          f.generators == "cycle" ? SymmetricGenerators::cycle_and_swap
                                                  : SymmetricGenerators::transpositions,
                          state_tracking_options(f));
  }
  if (kind == "state-recall") {
    const auto order = parse_recall_order(f.order);
    if (!order)
      throw InputError("--order", "'" + f.order + "': expected bits-first, perm-first or as-given");
    return state_recall(*order);
  }
  if (kind == "selective-copy") {
    SelectiveCopyOptions o;
    o.data_symbols = f.data_symbols;
    o.max_distance = f.max_distance;
    o.window = f.window;
    o.attention = !f.no_attention;
    return selective_copy(o);
  }
  if (kind == "assoc-recall") {
    AssocRecallOptions o;
    o.keys = f.keys;
    if (!f.values.empty()) {
      if (f.values.size() > 3 || f.values.find_first_not_of("0123456789") != std::string::npos)
        throw InputError("--values", "'" + f.values + "': expected a number of values (1..10)");
      o.values = std::stoul(f.values);
    }
    o.span = f.span;
    o.window = f.window;
    o.attention = !f.no_attention;
    const auto tie = parse_tie_rule(f.tie);
    if (!tie) throw InputError("--tie", "'" + f.tie + "': expected leftmost or rightmost");
    o.tie = *tie;
    return associative_recall(o);
  }
  throw InputError("construct", "'" + kind +
                                    "': expected wfa, dwfa, barrington, ben-or-cleve, matmul3, "
                                    "graph-walk, dgc, parity, mod-count, sn, state-recall, "
                                    "selective-copy, assoc-recall or tm");
}

void add_construction_flags(CLI::App* cmd, ConstructionFlags& f, bool with_input) {
  if (with_input)
    cmd->add_option("INPUT", f.input, "WFA file, or formula (file or inline S-expression)")
        ->required();
  cmd->add_option("--family", f.family, "wfa: general, dplr, deltanet or pd")
      ->capture_default_str();
  cmd->add_option("--modulus", f.modulus, "matmul3: compute modulo this prime (e.g. 29)");
  cmd->add_flag("--no-bos", f.no_bos,
                "matmul3: the flawed schedule that initializes on the first data token");
  cmd->add_option("--defect", f.defect,
                  "barrington: none or swapped-cycle (a deliberately broken program)")
      ->capture_default_str();
  cmd->add_option("--values", f.values,
                  "ben-or-cleve: the variables' value set, e.g. -1,0,1,2; assoc-recall: the "
                  "number of values (1..10, default 2)");
  cmd->add_option("--vertices", f.vertices, "graph-walk: vertices V")->capture_default_str();
  cmd->add_option("--variant", f.variant,
                  "graph-walk, dgc: ever, final (t a sink) or final-no-promise")
      ->capture_default_str();
  cmd->add_option("--k", f.k, "mod-count: the modulus k (2..16)")->capture_default_str();
  cmd->add_option("--r", f.r, "mod-count: accept iff the count of 1s ≡ r (mod k)")
      ->capture_default_str();
  cmd->add_option("--n", f.n, "sn: the points n (2..6)")->capture_default_str();
  cmd->add_option("--generators", f.generators,
                  "sn: cycle ((1 2) and the n-cycle) or transpositions")
      ->capture_default_str();
  cmd->add_option(
         "--beta-range", f.beta_range,
         "parity, mod-count, sn: the layer's beta range: (0,2], (0,2), (0,1], (0,1) or any")
      ->capture_default_str();
  cmd->add_option(
      "--beta", f.beta,
      "parity, mod-count, sn: β of every token (default: the largest the range allows)");
  cmd->add_flag("--gated", f.gated, "parity, mod-count, sn: Gated DeltaNet (gates α = 1)");
  cmd->add_option("--order", f.order, "state-recall: bits-first, perm-first or as-given")
      ->capture_default_str();
  cmd->add_option("--data-symbols", f.data_symbols, "selective-copy: data symbols K (1..26)")
      ->capture_default_str();
  cmd->add_option("--max-distance", f.max_distance, "selective-copy: largest distance N (1..9)")
      ->capture_default_str();
  cmd->add_option("--keys", f.keys, "assoc-recall: keys (1..26)")->capture_default_str();
  cmd->add_option("--span", f.span, "assoc-recall: the answer lies in the last SPAN tokens");
  cmd->add_option("--window", f.window, "selective-copy, assoc-recall: the attention's window");
  cmd->add_flag("--no-attention", f.no_attention,
                "selective-copy, assoc-recall: the LRNN alone (a negative variant)");
  cmd->add_option("--tie", f.tie, "assoc-recall: rightmost (most recent binding) or leftmost")
      ->capture_default_str();
}

// Kinds built from a file or a formula; the others take flags only.
bool needs_input(const std::string& kind) {
  return kind == "wfa" || kind == "dwfa" || kind == "barrington" || kind == "ben-or-cleve";
}

struct ConstructCommand {
  std::string kind, output;
  ConstructionFlags flags;
};

struct VerifyCommand {
  ConstructionFlags flags;
  VerifyOptions options;
  std::optional<std::size_t> exhaustive;
  bool exhaustive_flag = false;
  std::string against, device = "cpu";
  bool json = false;
};

}  // namespace

Action add_construct_command(CLI::App& app) {
  auto f = std::make_shared<ConstructCommand>();
  CLI::App* cmd =
      app.add_subcommand("construct", "Build a construction's model and write it as a model file");
  cmd->add_option("KIND", f->kind,
                  "wfa, dwfa, barrington, ben-or-cleve, matmul3, graph-walk, dgc, parity, "
                  "mod-count, sn or state-recall")
      ->required();
  cmd->add_option("INPUT", f->flags.input,
                  "WFA file or formula (wfa, dwfa, barrington, ben-or-cleve)");
  add_construction_flags(cmd, f->flags, false);
  cmd->add_option("-o,--output", f->output, "MODEL.json")->required();
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    if (f->flags.input.empty() && needs_input(f->kind))
      throw InputError("INPUT",
                       "construct " + f->kind + " needs an input (a WFA file or a formula)");
    Construction c = build(f->kind, f->flags);
    write_file_atomically(f->output, model_to_json(c.model).dump(2) + "\n");
    std::cout << c.name << ": wrote " << f->output << " (" << describe_layers(c.model)
              << ", |Σ| = " << c.model.alphabet.size() << ")\n";
    for (const Claim& cl : c.claims)
      std::cout << "  claim " << cl.name << ": claimed " << cl.claimed << ", measured "
                << cl.measured << (cl.ok ? "" : "  FAILS") << "\n";
    return 0;
  };
}

Action add_verify_command(CLI::App& app) {
  auto f = std::make_shared<VerifyCommand>();
  CLI::App* verify_cmd =
      app.add_subcommand("verify", "Machine-check a construction: exit 0 holds, 1 counterexample");
  verify_cmd->require_subcommand(1);
  std::vector<std::pair<std::string, CLI::App*>> kinds;
  auto add = [&](const std::string& kind, const std::string& help, bool input) {
    CLI::App* k = verify_cmd->add_subcommand(kind, help);
    add_construction_flags(k, f->flags, input);
    if (kind == "model")
      k->add_option("--against", f->against, "the WFA the model should compute")->required();
    k->add_option("--random", f->options.random, "random strings")->capture_default_str();
    k->add_option("--length,--max-length", f->options.max_random_length, "longest random string")
        ->capture_default_str();
    k->add_option("--exhaustive", f->exhaustive,
                  "every string of length 1..L (fixed-length domains: all)")
        ->expected(0, 1);
    k->add_option("--identity", f->options.identity_rounds,
                  "K rounds of identity testing over F_p, p = 2^61 − 1");
    k->add_option("--identity-length", f->options.identity_max_length, "identity test lengths 1..L")
        ->capture_default_str();
    k->add_option("--seed", f->options.seed, "seed of the random choices")->capture_default_str();
    k->add_option("--device", f->device,
                  "gpu: exhaustive and random checks on the GPU (exact, multi-modular)")
        ->capture_default_str();
    k->add_flag("--json", f->json, "print the report as JSON");
    kinds.emplace_back(kind, k);
  };
  add("wfa", "WFA → LRNN (--family general|dplr|deltanet|pd) against the WFA", true);
  add("dwfa", "deterministic WFA → PD LRNN against the WFA", true);
  add("barrington", "boolean formula → width-5 permutation program → PD LRNN, against the formula",
      true);
  add("ben-or-cleve", "arithmetic formula → 3×3 elementary matrices → LRNN, against the formula",
      true);
  add("matmul3", "iterated 3×3 matrix product by the RWKV-7 overwrite layer, against the product",
      false);
  add("graph-walk", "sorted deterministic graph connectivity by a ReLU RNN, against reachability",
      false);
  add("dgc",
      "sorted deterministic graph connectivity [MJLLS26 Thm 2] (the graph-walk ReLU RNN), "
      "against reachability",
      false);
  add("parity", "parity by DeltaNet / Gated DeltaNet with a reflection (β = 2) [GSZ+25]", false);
  add("mod-count", "counting mod k by k − 1 DeltaNet reflections per symbol [GSZ+25]", false);
  add("sn", "the S_n word problem by DeltaNet reflections [GSZ+25], accept iff the identity",
      false);
  add("state-recall",
      "state-based recall by a Gated DeltaNet layer + one attention layer [OLMOH26]", false);
  add("selective-copy",
      "selective copying by a Mamba-style LRNN + sliding-window attention [CDMS26]", false);
  add("assoc-recall", "associative recall by a diagonal LRNN + sliding-window attention [CDMS26]",
      false);
  add("model", "a model file against a WFA (--against WFA)", true);
  return [verify_cmd, f, kinds]() -> int {
    if (!verify_cmd->parsed()) return -1;
    std::string kind;
    CLI::App* sub = nullptr;
    for (auto& [k, a] : kinds)
      if (a->parsed()) {
        kind = k;
        sub = a;
      }
    if (sub->count("--exhaustive")) f->options.exhaustive = f->exhaustive.value_or(0);
    if (f->device != "cpu" && f->device != "gpu")
      throw InputError("--device", "'" + f->device + "': expected cpu or gpu");
    f->options.gpu = f->device == "gpu";
    if (f->options.gpu) {
      const gpu::DeviceInfo d = gpu::probe();
      if (!d.available) std::cerr << "rnncc: no GPU (" << d.why_not << "); verifying on the CPU\n";
    }
    Construction c = kind == "model"
                         ? model_against_wfa(load_model(f->flags.input), load_wfa(f->against))
                         : build(kind, f->flags);
    if (f->options.exhaustive && *f->options.exhaustive == 0 && !c.target.fixed_length)
      throw InputError("--exhaustive", "give a length: every string of length 1..L");
    VerifyReport r = verify(c, f->options);
    if (f->json)
      std::cout << to_json(r).dump(2) << "\n";
    else
      std::cout << format_text(r);
    return r.holds ? 0 : 1;
  };
}

}  // namespace rnncc::cli
