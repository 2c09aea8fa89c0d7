// The proving methods of verify, run before any testing: the every-length decision, SAT per
// length, the promise-restricted product search, k-induction, the finite domain enumerated,
// and the minimal state size.
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "circuits/io/json_text.hpp"
#include "verify/certificate.hpp"
#include "verify/compared_output.hpp"
#include "verify/equivalence.hpp"
#include "verify/k_induction.hpp"
#include "verify/minimize.hpp"
#include "verify/product_certificate.hpp"
#include "verify/promise_search.hpp"
#include "verify/sat_proof.hpp"
#include "verify/verification.hpp"

namespace rnncc::verify_internal {

// prove: decide X ≡ f for every length where both are linear (docs/constructions.md,
// "Proving for every length"). f = from_wfa(target.automaton); X = from_model(model) read
// through encode's input map (input_map_from_encode, period encode_period), restricted to
// the compared output (out_row, out_col); over F_p when the construction has a modulus.
// Every symbol boundary of every string is compared, so a refutation is the shortest,
// llex-least string whose last output differs (earlier prefixes agree): the same string the
// exhaustive method finds first. A fixed-length target instead has the exhaustive method
// enumerate its whole (finite) domain, which is a proof when it completes (domain_proof).
void Verification::prove() {
  if (!o_.prove) return;
  // --k-induction chooses that proof (k_induction below) over the grammar's product search.
  if (c_.grammar && !o_.k_induction) prove_on_valid_encodings();
  if (c_.target.fixed_length) {
    const double total = count_strings(S_, *c_.target.fixed_length);
    // Decided on every valid encoding by the grammar: the domain is enumerated only when
    // asked (--exhaustive); random strings still cross-check the grammar against f.
    force_domain_ = !grammar_proved_ && total <= static_cast<double>(o_.exhaustive_cap);
    if (!force_domain_ && !grammar_proved_)
      report_.notes.push_back(
          fmt::format("no proof: the finite domain has {:.0f} strings, over the cap of {}", total,
                      o_.exhaustive_cap));
    return;
  }
  if (!c_.target.automaton) return;
  if (c_.target.promise) {
    report_.notes.push_back("no proof: f is claimed under a promise only");
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  LinearRepresentation f, x;
  bool certifiable = false;
  try {
    f = from_wfa(*c_.target.automaton);
    const ComparedOutput compared = compared_output(c_);
    x = compared.x;
    // One LRNN layer with one output, read one token a symbol: the certificate checker can
    // recompute X's states.
    certifiable = compared.one_token_each && compared.model_outputs == 1 &&
                  c_.model.layers.size() == 1 &&
                  std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer);
    if (c_.modulus) f.modulus = x.modulus = *c_.modulus;
  } catch (const NotLinearError& e) {
    report_.notes.push_back(std::string("no proof: X is not linear in its state (") + e.what() +
                            "); tested only");
    return;
  } catch (const std::invalid_argument& e) {
    report_.notes.push_back(std::string("no proof: encode is not a sequential input map (") +
                            e.what() + "); tested only");
    return;
  }
  EquivalenceParams params;
  params.modulus = c_.modulus;
  params.certificate = o_.certificate;
  const EquivalenceResult r = decide_equivalence(f, x, params);
  Proof p;
  p.proved = r.equivalent;
  p.scope = "every length";
  p.method = r.method;
  p.field = r.modulus ? "F_p" : "Q";
  p.modulus = r.modulus;
  p.basis_size = r.basis_size;
  p.dim_f = r.dim_f;
  p.dim_x = r.dim_g;
  if (o_.timing)
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool one_layer =
      c_.model.layers.size() == 1 && std::holds_alternative<LrnnLayer>(c_.model.layers[0].layer);
  if (o_.certificate && !certifiable && r.equivalent && one_layer && !r.coefficients.empty()) {
    // Through an input map: the input-map certificate (the checker composes the map itself).
    const std::size_t cols = output_cols(c_.model.layers.back().layer);
    p.certificate_json =
        json_text(
            input_map_certificate(
                r, *c_.target.automaton, SubjectFile{"X: the model of " + c_.name, c_.model},
                input_map_from_encode(c_.target.alphabet.symbols(), c_.encode, c_.encode_period),
                c_.out_row * cols + c_.out_col),
            1) +
        "\n";
  } else if (o_.certificate && !certifiable)
    p.no_certificate =
        "the certificate checker recomputes one LRNN layer with one output reading f's "
        "symbols one token each; this model " +
        std::string(c_.model.layers.size() != 1
                        ? "has " + std::to_string(c_.model.layers.size()) + " layers"
                        : "reads its input through an input map or "
                          "has several outputs");
  else if (o_.certificate && !r.equivalent)
    p.no_certificate = "refuted: a counterexample, not a certificate";
  else if (o_.certificate) {
    const SubjectFile fa{"f: the target WFA of " + c_.name, *c_.target.automaton};
    const SubjectFile xm{"X: the model of " + c_.name, c_.model};
    p.certificate_json = json_text(equivalence_certificate(r, fa, xm), 1) + "\n";
  }
  if (!r.equivalent) {
    const EquivalenceCounterexample& ce = *r.counterexample;
    failing_ = {ce.input, "proof"};
    failing_mismatch_ = Mismatch{ce.expected.at(0), ce.got.at(0), "model"};
  }
  report_.proof = std::move(p);
}

// sat (--sat N): X computes f on every input of length ≤ N, by CaDiCaL on the miter of X's and
// f's boolean circuits with its DRAT proof re-checked (verify/sat_proof.hpp), where prove
// established nothing for every length. A satisfying assignment is a counterexample only once
// the exact evaluators confirm it; it is then shrunk like any other.
void Verification::sat() {
  if (!o_.sat_length) return;
  if (report_.proof) {
    report_.notes.push_back("--sat: not run, " +
                            std::string(report_.proof->proved ? "proved" : "refuted") +
                            " for every length already");
    return;
  }
  sat::SatOptions so;
  so.max_length = *o_.sat_length;
  so.width = o_.sat_width;
  const sat::SatOutcome s = sat::prove_by_sat(c_, so);
  if (s.verdict == sat::SatOutcome::Verdict::unavailable ||
      s.verdict == sat::SatOutcome::Verdict::inconclusive) {
    report_.notes.push_back("--sat " + std::to_string(so.max_length) + ": no proof (" + s.reason +
                            ")");
    return;
  }
  Proof p;
  p.proved = s.verdict == sat::SatOutcome::Verdict::proved;
  p.scope = fmt::format("every input of length ≤ {}{}", s.max_length,
                        c_.target.promise ? " in f's promise" : "");
  p.method = fmt::format("SAT: {}, DRAT proof checked", s.solver);
  if (!p.proved)
    p.method = fmt::format("SAT: {}, the model confirmed by exact evaluation", s.solver);
  p.field = "Q";  // the model's exact semantics over Q, every word's range proved (bitvec.hpp)
  p.detail = fmt::format("{} gates, {} variables, {} clauses, {}-bit words", s.gates, s.variables,
                         s.clauses, s.width);
  // The solver's proof size depends on its search (not only on the formula): a reproducible
  // report (--no-timing) leaves it out; JSON keeps it under proof.sat.drat.
  if (p.proved && o_.timing)
    p.detail += fmt::format(", {} lemmas checked ({} RAT), {} deletions", s.check.lemmas,
                            s.check.rat_lemmas, s.check.deletions);
  p.sat = {{"solver", s.solver},       {"max_length", s.max_length}, {"gates", s.gates},
           {"variables", s.variables}, {"clauses", s.clauses},       {"width", s.width},
           {"statement", s.statement}};
  if (p.proved)
    p.sat["drat"] = {{"checked", true},
                     {"lemmas", s.check.lemmas},
                     {"rat_lemmas", s.check.rat_lemmas},
                     {"deletions", s.check.deletions},
                     {"ignored_deletions", s.check.ignored_deletions},
                     {"bytes", s.proof_bytes}};
  if (o_.timing) {
    p.seconds = s.encode_seconds + s.solve_seconds + s.check_seconds;
    p.sat["seconds"] = {
        {"encode", s.encode_seconds}, {"solve", s.solve_seconds}, {"check", s.check_seconds}};
  }
  if (o_.certificate) p.no_certificate = "a SAT proof's DRAT file is checked, not kept";
  if (!p.proved) {
    failing_ = {s.counterexample, "sat"};
    failing_mismatch_ = Mismatch{s.expected, s.got, "model"};
  }
  report_.proof = std::move(p);
}

// prove_on_valid_encodings: the promise-restricted product search (verify/promise_search.hpp)
// of X against the construction's encoding grammar: proved on every token string that
// encodes an instance within the promise, or refuted on the shortest such encoding. Strings
// the grammar rejects stay tested. Too many pairs: a note, and the other methods go on.
void Verification::prove_on_valid_encodings() {
  const EncodingGrammar& g = *c_.grammar;
  const std::size_t cols = output_cols(c_.model.layers.back().layer);
  const std::size_t out = c_.out_row * cols + c_.out_col;
  PromiseSearchResult r;
  try {
    r = promise_search(c_.model, out, g, o_.certificate);
  } catch (const InputError& e) {
    report_.notes.push_back(std::string("no proof on valid encodings: ") + e.what());
    return;
  }
  Proof p;
  p.proved = r.proved;
  p.scope = "every string that encodes an instance (promise: " + g.promise + ")";
  p.method = "promise-restricted product search";
  p.field = "Q";  // exact rational outputs compared
  p.strings = r.comparisons;
  p.pairs = r.pairs;
  if (o_.timing) p.seconds = r.seconds;
  report_.notes.push_back(fmt::format(
      "promise-restricted product search: {} (grammar state, configuration) pairs, {} grammar "
      "states, {} configurations of X, {} transitions into a complete encoding compared; "
      "token strings that encode no instance are outside the claim",
      r.pairs, r.grammar_states, r.configurations, r.comparisons));
  if (o_.certificate && r.proved)
    p.certificate_json =
        json_text(
            promise_certificate(r, g, SubjectFile{"X: the model of " + c_.name, c_.model}, out),
            1) +
        "\n";
  else if (o_.certificate)
    p.no_certificate = "refuted: a counterexample, not a certificate";
  if (!r.proved) {
    const std::vector<std::size_t> w = g.decode(*r.counterexample);
    failing_ = {w, "proof"};
    failing_mismatch_ = Mismatch{to_string(r.expected), to_string(r.got), "model"};
    report_.notes.push_back("the shortest failing encoding (llex-least of its length): " +
                            c_.model.alphabet.join(*r.counterexample));
  }
  report_.proof = std::move(p);
  grammar_proved_ = true;
}

// k_induction (--k-induction K): X computes f on every input, by k-induction over the
// recurrent state with Z3 (verify/k_induction.hpp), where nothing before proved it. A failed
// base or step is reported (with its counterexample to induction) and the verdict stays what
// testing finds.
void Verification::k_induction() {
  if (!o_.k_induction) return;
  if (report_.proof) {
    report_.notes.push_back("--k-induction: not run, " +
                            std::string(report_.proof->proved ? "proved" : "refuted") + " already");
    return;
  }
  kind::InductionOutcome s;
  try {
    s = kind::prove_by_k_induction(c_, *o_.k_induction);
  } catch (const std::exception& e) {  // Z3 answered unknown, or threw: no proof, say why
    s.verdict = kind::InductionOutcome::Verdict::failed;
    s.reason = e.what();
  }
  if (s.verdict != kind::InductionOutcome::Verdict::proved) {
    std::string note =
        "--k-induction " + std::to_string(*o_.k_induction) + ": no proof (" + s.reason + ")";
    if (!s.counterexample.empty()) note += ": " + s.counterexample;
    report_.notes.push_back(note);
    return;
  }
  // The finite domain was too large to enumerate: say so without "no proof".
  for (std::string& note : report_.notes)
    if (note.rfind("no proof: the finite domain", 0) == 0)
      note = "not enumerated (k-induction proved it instead): " + note.substr(10);
  Proof p;
  p.proved = true;
  p.scope = "every input in f's promise (edge blocks of any number and order)";
  p.method = fmt::format("k-induction over the recurrent state, k = {}, {}", s.k, s.solver);
  p.field = "Q";  // the model's exact step over Q (Z3 reals), f's state over Z3 integers
  p.detail = fmt::format("invariant: {}; assumed: {}; {} queries unsat", s.invariant, s.assumed,
                         s.queries);
  p.induction = {{"solver", s.solver},
                 {"k", s.k},
                 {"invariant", s.invariant},
                 {"assumed", s.assumed},
                 {"queries", s.queries}};
  if (o_.timing) {
    p.seconds = s.seconds;
    p.induction["seconds"] = s.seconds;
  }
  if (o_.certificate) p.no_certificate = "a k-induction proof by Z3 has no certificate";
  report_.proof = std::move(p);
}

// domain_proof: the exhaustive method enumerated a fixed-length target's whole domain (on the
// CPU, or on the GPU with every agreement proved exact): X computes f on all of it.
void Verification::domain_proof() {
  if (!force_domain_ || !domain_complete_) return;
  if (grammar_proved_) {  // the grammar's proof stands; the enumeration confirms it
    report_.notes.push_back("the exhaustive method also checked every string of the domain");
    return;
  }
  if (report_.proof && !report_.proof->induction.is_null() && !failing_) {  // k-induction proved it
    report_.notes.push_back("also proved by enumerating the finite domain");
    return;
  }
  Proof p;
  p.proved = !failing_;
  p.scope = "the finite domain (length " + std::to_string(*c_.target.fixed_length) + ")";
  p.method = "exhaustive over the finite domain";
  p.finite_domain = true;
  p.field = c_.modulus ? "F_p" : "Q";  // every value compared exactly (or mod p)
  p.modulus = c_.modulus;
  const auto it = report_.checked.find(gpu_ ? "exhaustive (gpu)" : "exhaustive");
  p.strings = it == report_.checked.end() ? 0 : it->second;
  if (o_.certificate)
    p.no_certificate = "a finite domain is proved by enumeration, which has no certificate";
  report_.proof = std::move(p);
}

// minimal_state_size: for a model linear in its state with per-step readouts (one LRNN
// layer), the claim "state size d vs minimal d_min": d_min is the dimension of the reduction
// of X (verify/minimize.hpp), the least of an LRNN computing X's function on nonempty token
// strings (an upper bound with per-token readouts). d_min ≤ d always holds.
void Verification::minimal_state_size() {
  try {
    const LinearRepresentation rep = from_model(c_.model);
    if (rep.readout.empty()) return;    // a product with a finite control
    const std::size_t d = rep.dim - 1;  // from_lrnn_layer: [vec(S), 1]
    const MinimizeResult m = minimize(rep, c_.name);
    report_.claims.push_back({"state size d vs minimal d_min", "d = " + std::to_string(d),
                              "d_min = " + std::to_string(m.dimension), m.dimension <= d});
  } catch (const InputError&) {  // NotLinearError and kin: no such claim
  } catch (const DomainError&) {
  }
}

}  // namespace rnncc::verify_internal
