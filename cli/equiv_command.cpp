// rnncc equiv A B [--method linear|product|auto] [--compare outputs|accept] [--accept-length L]
// [--modulus P] [--certificate FILE] [--json] [--no-timing]: decide whether two models / WFAs
// agree on every nonempty prefix, by the forward basis for models linear in their state
// (verify/equivalence.hpp) or by product search for finite-state ones
// (verify/finite_equivalence.hpp); auto: linear when both are linear, else product when both have
// finitely many reachable configurations, else a diagnostic. --compare accept compares the
// accepted strings instead (verify/acceptance_equivalence.hpp). Symbols are matched by name.
// Exit 0 proved (or, for acceptance, tested), 1 refuted (with the shortest, llex-least
// counterexample), 2 bad input.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/limits.hpp"
#include "cli/usage_errors.hpp"
#include "verify/acceptance_equivalence.hpp"
#include "verify/certificate.hpp"
#include "verify/certificate_claim.hpp"
#include "verify/equivalence_report.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/product_certificate.hpp"

namespace rnncc::cli {
namespace {

std::string vector_text(const std::vector<std::string>& v) {
  if (v.size() == 1) return v[0];
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
  return "(" + out + ")";
}

struct EquivFlags {
  std::string a, b, certificate, method = "auto", compare = "outputs";
  std::optional<std::size_t> accept_length;
  std::optional<std::uint64_t> modulus;
  bool json = false, no_timing = false;
  std::uint64_t max_work = kDefaultMaxFieldWork;
  std::size_t max_memory = 0;  // --max-memory (MiB)
};

void refuse_product_flags(const EquivFlags& f) {
  if (f.modulus)
    throw InputError("--modulus",
                     "the product search compares exact rational outputs; --modulus applies to "
                     "the linear decider (--method linear)");
}

// The forward basis (verify/equivalence.hpp): report as before the product search existed.
int linear(const EquivFlags& f, const SubjectFile& a, const SubjectFile& b,
           const LinearRepresentation& ra, const LinearRepresentation& rb) {
  EquivalenceParams params;
  params.modulus = f.modulus;
  params.certificate = !f.certificate.empty();
  params.max_exact_work = f.max_work;
  check_forward_basis_work(ra.dim + rb.dim, ra.symbols.size(), f.max_work, "equiv",
                           uses_multimodular(ra.dim, rb.dim, ra.modulus || rb.modulus, params));
  check_forward_basis_memory(ra.dim + rb.dim, ra.symbols.size(), f.max_memory, "equiv");
  // Opened before the work (circuits/io/output_file.hpp); committed only for a proof.
  std::optional<OutputFile> certificate;
  if (!f.certificate.empty()) certificate.emplace(f.certificate);
  const EquivalenceResult r = decide_equivalence(ra, rb, params);
  std::optional<std::string> written;
  if (r.equivalent && certificate) {
    certificate->write(json_text(equivalence_certificate(r, a, b), 1) + "\n");
    certificate->commit();
    written = f.certificate;
  }
  const Alphabet alphabet(ra.symbols, "alphabet");
  const std::string visited =
      std::to_string(r.candidates) + (r.candidates == 1 ? " word" : " words") + " visited";
  auto word = [&](const std::vector<std::size_t>& w) {
    return w.empty() ? std::string("ε") : alphabet.join(w);
  };
  const std::string field = field_words(r.modulus ? "F_p" : "Q", r.modulus);
  if (f.json) {
    std::cout << json_text(equivalence_json(r, ra, !f.no_timing, written), 2) << "\n";
  } else {
    std::cout << "equiv: " << f.a << " (d = " << r.dim_f << ") vs " << f.b << " (d = " << r.dim_g
              << "), " << (r.modulus ? "arithmetic " : "exact ") << field << "\n";
    const std::string timing = f.no_timing ? "" : fmt::format(", {:.3f} s", r.seconds);
    if (r.equivalent) {
      std::cout << "proved " << field << ": every length — "
                << (r.modulus ? "congruent mod " + std::to_string(*r.modulus) : "equal")
                << " on every nonempty prefix" << (ra.empty && rb.empty ? " and on ε" : "") << " ("
                << r.method << ", basis size " << r.basis_size << " of at most "
                << r.dim_f + r.dim_g << ", " << visited << timing << ", max bits " << r.max_bits
                << ")" << (r.modulus ? "; not a proof over Q" : "") << "\n";
      if (written) std::cout << "certificate: " << *written << " (" << field << ")\n";
    } else {
      const auto& c = *r.counterexample;
      std::cout << "refuted"
                << (r.modulus ? " (the values differ " + field + ", so over Q too)" : "")
                << ": shortest counterexample (least of its length) \"" << word(c.input)
                << "\", position " << c.position << ": " << f.a << " gives "
                << vector_text(c.expected) << ", " << f.b << " gives " << vector_text(c.got) << " ("
                << r.method << ", " << visited << timing << ")\n";
    }
  }
  return r.equivalent ? 0 : 1;
}

// The product search (verify/finite_equivalence.hpp) over the reachable machines.
int product(const EquivFlags& f, const SubjectFile& a, const SubjectFile& b,
            const FiniteMachine& ma, const FiniteMachine& mb) {
  std::optional<OutputFile> certificate;  // opened before the work, committed for a proof
  if (!f.certificate.empty()) certificate.emplace(f.certificate);
  const FiniteEquivalenceResult r = decide_finite_equivalence(ma, mb);
  std::optional<std::string> written;
  if (r.equivalent && certificate) {
    certificate->write(json_text(product_certificate(ma, mb, a, b), 1) + "\n");
    certificate->commit();
    written = f.certificate;
  }
  const Alphabet alphabet(ma.symbols, "alphabet");
  if (f.json) {
    nlohmann::ordered_json j = finite_equivalence_json(r, ma, !f.no_timing);
    if (written) j["certificate"] = *written;
    std::cout << json_text(j, 2) << "\n";
  } else {
    auto states = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " state" : " states"); };
    std::cout << "equiv: " << f.a << " (" << states(r.states_f) << ") vs " << f.b << " ("
              << states(r.states_g) << "), reachable configurations, exact over Q\n";
    const std::string timing = f.no_timing ? "" : fmt::format(", {:.3f} s", r.seconds);
    if (r.equivalent) {
      std::cout << "proved over Q: every length — equal on every nonempty prefix"
                << (ma.start_has_output && mb.start_has_output ? " and on ε" : "") << " ("
                << r.method << ", " << r.states_visited << " of at most " << r.states_f * r.states_g
                << " product states visited" << timing << ")\n";
      if (written) std::cout << "certificate: " << *written << "\n";
    } else {
      const auto& c = *r.counterexample;
      std::cout << "refuted: shortest counterexample (least of its length) \""
                << (c.input.empty() ? std::string("ε") : alphabet.join(c.input)) << "\", position "
                << c.position << ": " << f.a << " gives " << vector_text(c.expected) << ", " << f.b
                << " gives " << vector_text(c.got) << " (" << r.method << ", " << r.states_visited
                << " product states visited" << timing << ")\n";
    }
  }
  return r.equivalent ? 0 : 1;
}

// --compare accept (verify/acceptance_equivalence.hpp).
int accept(const EquivFlags& f, const SubjectFile& a, const SubjectFile& b,
           const EquivalenceInputs& in) {
  if (f.modulus)
    throw InputError("--modulus",
                     "--compare accept reads the sign of exact outputs (y > 0 has no "
                     "meaning mod p)");
  if (!f.certificate.empty())
    throw InputError("--certificate",
                     "certificates prove equal outputs (--compare outputs); acceptance has none");
  if (in.linear()) {
    check_forward_basis_work(in.f->dim + in.g->dim, in.f->symbols.size(), f.max_work, "equiv");
    check_forward_basis_memory(in.f->dim + in.g->dim, in.f->symbols.size(), f.max_memory, "equiv");
  }
  AcceptanceParams params;
  params.max_length = f.accept_length;
  const AcceptanceResult r = decide_acceptance(a, b, in, params);
  const std::vector<std::string>& symbols = in.linear() ? in.f->symbols : in.mf->symbols;
  const Alphabet alphabet(symbols, "alphabet");
  if (f.json) {
    std::cout << json_text(acceptance_json(r, symbols, !f.no_timing), 2) << "\n";
    return r.verdict == "refuted" ? 1 : 0;
  }
  const std::string timing = f.no_timing ? "" : fmt::format(", {:.3f} s", r.seconds);
  std::cout << "equiv --compare accept: " << f.a << " (accepts iff " << r.rule_f << ") vs " << f.b
            << " (accepts iff " << r.rule_g << "), exact over Q\n";
  std::string outputs;
  if (r.outputs_equal && !*r.outputs_equal && r.outputs_differ_at)
    outputs = "the outputs differ (first at \"" + alphabet.join(*r.outputs_differ_at) + "\")";
  else if (r.outputs_equal && *r.outputs_equal)
    outputs = "the outputs are equal but the rules differ";
  if (r.verdict == "proved") {
    std::cout << "proved over Q: every length — the same accepted nonempty strings (" << r.method
              << timing << ")\n";
  } else if (r.verdict == "refuted") {
    const auto& c = *r.counterexample;
    auto says = [](bool accepts) { return accepts ? "accepts" : "rejects"; };
    std::cout << "refuted: shortest string accepted by one only (least of its length) \""
              << alphabet.join(c.input) << "\": " << f.a << " " << says(r.accepts.first)
              << " (y = " << c.expected.at(0) << "), " << f.b << " " << says(r.accepts.second)
              << " (y = " << c.got.at(0) << ") (" << r.method << timing << ")\n";
  } else {
    std::cout << "tested up to length " << r.searched_up_to
              << ": the same accepted strings on every string of length 1.." << r.searched_up_to
              << " (" << r.strings_searched << " strings, " << r.method << timing << "); "
              << outputs << ", which does not refute acceptance; not proved for every length\n";
  }
  return r.verdict == "refuted" ? 1 : 0;
}

}  // namespace

Action add_equiv_command(CLI::App& app) {
  auto f = std::make_shared<EquivFlags>();
  CLI::App* cmd = app.add_subcommand(
      "equiv",
      "Prove two models/WFAs equal on every string (every prefix's output), or refute "
      "them with the shortest counterexample");
  cmd->add_option("A", f->a, "model or WFA file (f)")->required();
  cmd->add_option("B", f->b, "model or WFA file (g)")->required();
  cmd->add_option("--method", f->method,
                  "linear (forward basis), product (product search over finitely many "
                  "reachable states) or auto (linear when both are linear, else product)")
      ->check(choice_of({"linear", "product", "auto"}));
  cmd->add_option("--compare", f->compare,
                  "outputs (equal outputs on every nonempty prefix) or accept (the same accepted "
                  "strings: a model's acceptance rule, a WFA's value > 0)")
      ->check(choice_of({"outputs", "accept"}))
      ->capture_default_str();
  cmd->add_option("--accept-length", f->accept_length,
                  "--compare accept, where nothing decides: search every string of length 1..L "
                  "(default: the longest L ≤ 16 with at most 65536 strings)");
  cmd->add_option("--modulus", f->modulus,
                  "decide over F_p instead of Q (p prime): a proof then holds modulo p only");
  cmd->add_option("--certificate", f->certificate, "write the proof (JSON) to this file");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_flag("--no-timing", f->no_timing, "leave the time out (reproducible output)");
  cmd->add_option("--max-work", f->max_work,
                  "refuse linear decisions estimated above this many field operations "
                  "((d_f + d_g)^3 · |Σ|)")
      ->capture_default_str();
  add_max_memory_option(cmd, f->max_memory, "the linear decision: (|Σ| + 1)·(d_f + d_g)^2 entries");
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const SubjectFile a = load_subject_file(f->a), b = load_subject_file(f->b);
    if (!f->certificate.empty())
      for (const SubjectFile* s : {&a, &b})
        if (auto why = not_certifiable(*s); why && not_product_certifiable(*s))
          throw InputError("--certificate", *why);
    if (f->accept_length && f->compare != "accept")
      throw InputError("--accept-length", "applies to --compare accept");
    if (f->method == "product" && f->compare == "outputs") refuse_product_flags(*f);
    const EquivalenceInputs in = equivalence_inputs(a, b, f->method);
    for (const SubjectFile* s : {&a, &b})
      if (!f->certificate.empty() && f->compare == "outputs")
        if (auto why = in.linear() ? not_certifiable(*s) : not_product_certifiable(*s))
          throw InputError("--certificate", *why);
    if (in.reordered && !f->certificate.empty())
      throw InputError("--certificate",
                       "B's alphabet is A's in another order: symbols were matched by name, but a "
                       "certificate needs the same order (the checker compares symbol by symbol)");
    if (in.reordered && !f->json)
      std::cout << "note: " << f->b << "'s symbols matched to " << f->a << "'s by name\n";
    if (f->compare == "accept") return accept(*f, a, b, in);
    if (in.linear()) return linear(*f, a, b, *in.f, *in.g);
    refuse_product_flags(*f);
    return product(*f, a, b, *in.mf, *in.mg);
  };
}

}  // namespace rnncc::cli
