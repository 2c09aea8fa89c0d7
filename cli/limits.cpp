#include "cli/limits.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "rnn/json_cursor.hpp"
#include "verify/equivalence.hpp"

namespace rnncc::cli {

namespace {
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
}

std::string estimate_text(std::uint64_t estimate) {
  return estimate == kMax ? "more than 2^64" : "about " + std::to_string(estimate);
}

void check_work(const std::string& option, std::uint64_t estimate, std::uint64_t limit,
                const std::string& what, const std::string& unit, const std::string& detail) {
  if (estimate <= limit) return;
  throw InputError(option, what + " " + estimate_text(estimate) + " " + unit +
                               (detail.empty() ? "" : " (" + detail + ")") +
                               ", more than the limit of " + std::to_string(limit) + " (raise " +
                               option + " to run it anyway)");
}

void check_forward_basis_work(std::uint64_t dimension, std::uint64_t symbols,
                              std::uint64_t max_work, const std::string& command, bool modular) {
  const std::string detail = "dimension " + std::to_string(dimension) +
                             ", |Σ| = " + std::to_string(symbols) + ": dimension^3 · |Σ|";
  const std::uint64_t work = saturating_mul(saturating_pow(dimension, 3), symbols);
  if (modular)
    check_work("--max-work", work, saturating_mul(max_work, kModularOpsPerFieldOp),
               command + " would take", "word operations modulo primes",
               detail + "; " + std::to_string(kModularOpsPerFieldOp) +
                   " of them count as one field operation of --max-work");
  else
    check_work("--max-work", work, max_work, command + " would take", "field operations", detail);
}

void check_forward_basis_memory(std::uint64_t dimension, std::uint64_t symbols,
                                std::size_t max_memory_mib, const std::string& command) {
  const std::uint64_t entries =
      saturating_mul(saturating_add(symbols, 1), saturating_mul(dimension, dimension));
  check_memory("--max-memory", saturating_mul(entries, kRationalEntryBytes), max_memory_mib,
               command + " would take",
               "dimension " + std::to_string(dimension) + ", |Σ| = " + std::to_string(symbols) +
                   ": (|Σ| + 1) · dimension^2 exact entries at about " +
                   std::to_string(kRationalEntryBytes) + " bytes");
}

namespace {

// The checks' symbol steps over |Σ| = sigma symbols, f of every length or of fixed_length only.
void check_check_work(std::uint64_t sigma, std::optional<std::size_t> fixed_length,
                      const VerifyOptions& o, std::uint64_t max_work, const std::string& option) {
  std::uint64_t work = 0;
  std::vector<std::string> parts;
  const std::uint64_t random_length = fixed_length ? *fixed_length : o.max_random_length;
  if (o.random > 0) {
    work = saturating_add(work, saturating_mul(o.random, random_length));
    parts.push_back("--random " + std::to_string(o.random) + " × length " +
                    std::to_string(random_length));
  }
  if (o.exhaustive && !o.gpu) {
    const std::uint64_t lo = fixed_length ? *fixed_length : 1;
    const std::uint64_t hi = fixed_length ? *fixed_length : *o.exhaustive;
    std::uint64_t e = 0, strings = 0;
    // The engine's cap: strings checked one by one; without three-way agreement, the lengths
    // prefix sharing or the model walk take may hold more (verify.hpp, shared_exhaustive_cap),
    // and this estimate (n steps a string: an upper bound there) is what bounds them.
    const std::uint64_t cap =
        o.three_way ? o.exhaustive_cap
                    : std::max<std::uint64_t>(o.exhaustive_cap, o.shared_exhaustive_cap);
    // Stops once past the cap: at most cap + 1 rounds (|Σ| = 1), whatever L is.
    for (std::uint64_t n = lo; n <= hi && sigma > 0 && strings <= cap; ++n) {
      strings = saturating_add(strings, saturating_pow(sigma, n));
      e = saturating_add(e, saturating_mul(n, saturating_pow(sigma, n)));
    }
    // More strings than the engine's own cap: its refusal (which no option raises) says so.
    if (strings <= cap) {
      work = saturating_add(work, e);
      parts.push_back("--exhaustive: lengths " + std::to_string(lo) + ".." + std::to_string(hi) +
                      " over |Σ| = " + std::to_string(sigma));
    }
  }
  if (o.identity_rounds > 0) {
    const std::uint64_t l = o.identity_max_length;
    const std::uint64_t lengths = saturating_mul(l, l + 1) / 2;
    work = saturating_add(work, saturating_mul(saturating_mul(o.identity_rounds, sigma), lengths));
    parts.push_back("--identity " + std::to_string(o.identity_rounds) +
                    " × |Σ| = " + std::to_string(sigma) + " × lengths 1.." + std::to_string(l));
  }
  std::string detail;
  for (const std::string& p : parts) detail += (detail.empty() ? "" : "; ") + p;
  check_work(option, work, max_work, "verify would take", "symbol steps", detail);
}

}  // namespace

void check_verify_work(const Construction& c, const VerifyOptions& o, std::uint64_t max_work,
                       const std::string& option) {
  check_check_work(c.target.alphabet.size(), c.target.fixed_length, o, max_work, option);
  check_verify_proof_work(c, o, max_work, option);
}

void check_verify_work(const PlannedShape& s, const VerifyOptions& o, std::uint64_t max_work,
                       const std::string& option) {
  check_check_work(s.alphabet, std::nullopt, o, max_work, option);  // f of every length
  check_verify_proof_work(s, o, max_work, option);
}

namespace {

// The proof's forward basis: D = dim_f + dim_x over |Σ| symbols (see the header).
struct ProofDimensions {
  std::uint64_t dim_f = 0, dim_x = 0, symbols = 0;
  bool modulus = false;
};

std::uint64_t proof_work(const ProofDimensions& p) {
  const std::uint64_t ops = saturating_mul(saturating_pow(p.dim_f + p.dim_x, 3), p.symbols);
  if (p.modulus) return ops;
  // Multimodular: the forward basis modulo a first prime and up to three more for the
  // morphism's reconstruction (verify/equivalence_multimodular.cpp), each D³·|Σ| at most.
  if (uses_multimodular(p.dim_f, p.dim_x, false)) return saturating_mul(ops, kMultimodularRuns);
  return saturating_mul(ops, kModularOpsPerFieldOp);
}

void check_proof_work(const ProofDimensions& p, std::uint64_t max_work, const std::string& option) {
  const std::uint64_t work = proof_work(p);
  const bool multimodular = !p.modulus && uses_multimodular(p.dim_f, p.dim_x, false);
  const bool words = p.modulus || multimodular;
  check_work(
      option, work, max_work, "verify's every-length proof would take",
      words ? "operations modulo primes" : "operations",
      "a forward basis of dimension " + std::to_string(p.dim_f + p.dim_x) + " = " +
          std::to_string(p.dim_f) + " states of f + " + std::to_string(p.dim_x) +
          " of the model, |Σ| = " + std::to_string(p.symbols) + ": dimension^3 · |Σ|" +
          (multimodular ? " · " + std::to_string(kMultimodularRuns) +
                              " (the basis modulo a first prime, up to three more for the "
                              "reconstruction)"
           : words ? ""
                   : ", each exact operation counted as " + std::to_string(kModularOpsPerFieldOp)) +
          "; --no-proof skips the proof");
}

std::optional<ProofDimensions> proof_dimensions(const Construction& c, const VerifyOptions& o) {
  if (!o.prove || !c.target.automaton || c.target.fixed_length || c.target.promise ||
      (c.grammar && !o.k_induction) || c.model.layers.size() != 1)
    return std::nullopt;
  const auto* l = std::get_if<LrnnLayer>(&c.model.layers[0].layer);
  if (!l) return std::nullopt;
  return ProofDimensions{c.target.automaton->states(), l->d * l->m + 1, c.target.alphabet.size(),
                         c.modulus.has_value()};
}

std::optional<ProofDimensions> proof_dimensions(const PlannedShape& s, const VerifyOptions& o) {
  if (!o.prove) return std::nullopt;
  return ProofDimensions{s.target_states, s.layer_d * s.layer_m + 1, s.alphabet, false};
}

}  // namespace

std::uint64_t verify_proof_work(const Construction& c, const VerifyOptions& o) {
  const std::optional<ProofDimensions> p = proof_dimensions(c, o);
  return p ? proof_work(*p) : 0;
}

void check_verify_proof_work(const Construction& c, const VerifyOptions& o, std::uint64_t max_work,
                             const std::string& option) {
  if (const std::optional<ProofDimensions> p = proof_dimensions(c, o))
    check_proof_work(*p, max_work, option);
}

std::uint64_t verify_proof_work(const PlannedShape& s, const VerifyOptions& o) {
  const std::optional<ProofDimensions> p = proof_dimensions(s, o);
  return p ? proof_work(*p) : 0;
}

void check_verify_proof_work(const PlannedShape& s, const VerifyOptions& o, std::uint64_t max_work,
                             const std::string& option) {
  if (const std::optional<ProofDimensions> p = proof_dimensions(s, o))
    check_proof_work(*p, max_work, option);
}

CLI::Option* add_max_memory_option(CLI::App* cmd, std::size_t& mib, const std::string& what) {
  mib = default_max_memory_mib();
  // No default shown in --help: it depends on the machine (the help goldens do not).
  return cmd->add_option("--max-memory", mib,
                         "refuse runs whose estimated peak memory (" + what +
                             ") passes this many MiB (default: half the machine's memory)");
}

void add_max_input_option(CLI::App& app) {
  app.add_option_function<std::uint64_t>(
         "--max-input", [](const std::uint64_t& mib) { set_max_input_mib(mib); },
         "refuse input files larger than this many MiB (default " +
             std::to_string(kDefaultMaxInputMiB) + ", or $RNNCC_MAX_INPUT_MIB; 0: no limit)")
      ->type_name("UINT");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    add_max_input_option(*sub);
}

}  // namespace rnncc::cli
