// verify's report: the verdict in words and as JSON, and the text of the report.
#include <algorithm>

#include <fmt/format.h>

#include "verify/verify.hpp"

namespace rnncc {

namespace {

// "exhaustive 1..4, random 1..40, identity 1..8, three-way"
std::string describe(const TestedScope& t) {
  std::string out;
  for (const std::string& m : t.methods) {
    if (!out.empty()) out += ", ";
    out += m;
    if (const auto it = t.lengths.find(m); it != t.lengths.end())
      out += it->second.first == it->second.second
                 ? fmt::format(" {}", it->second.first)
                 : fmt::format(" {}..{}", it->second.first, it->second.second);
  }
  return out;
}

// What the testing methods covered, in words: "tested up to length L, no counterexample (…)".
std::string tested_text(const TestedScope& t) {
  if (t.complete)
    return fmt::format("tested on every string of its domain, no counterexample ({})", describe(t));
  return fmt::format("tested up to length {}, no counterexample ({})", t.max_length, describe(t));
}

}  // namespace

namespace {

// The spectral section (constructions/spectral.hpp): JSON and text.
nlohmann::ordered_json spectral_json(const std::vector<LayerSpectrum>& layers) {
  using json = nlohmann::ordered_json;
  json out = json::array();
  for (const LayerSpectrum& l : layers) {
    json props = json::array();
    for (const Claim& cl : l.properties)
      props.push_back(
          {{"name", cl.name}, {"claimed", cl.claimed}, {"measured", cl.measured}, {"ok", cl.ok}});
    json spectra = json::array();
    for (const MatrixSpectrum& s : l.spectra) {
      json coeffs = json::array(), roots = json::array();
      for (const Rational& c : s.charpoly) coeffs.push_back(to_string(c));
      for (const RealRoot& r : s.real_roots)
        roots.push_back({{"lo", to_string(r.lo)},
                         {"hi", to_string(r.hi)},
                         {"exact", r.exact()},
                         {"multiplicity", r.multiplicity}});
      spectra.push_back({{"tokens", s.tokens},
                         {"charpoly", poly_to_string(s.charpoly)},
                         {"coefficients", coeffs},
                         {"real_roots", roots},
                         {"complex_pairs", s.complex_pairs},
                         {"radius_bound", to_string(s.radius_bound)}});
    }
    out.push_back({{"layer", l.layer},
                   {"family", l.family},
                   {"d", l.d},
                   {"tokens", l.tokens},
                   {"properties", props},
                   {"spectra", spectra}});
  }
  return out;
}

std::string spectral_text(const std::vector<LayerSpectrum>& layers) {
  std::string out;
  for (const LayerSpectrum& l : layers) {
    out += fmt::format(
        "  spectral layer {} ({}, d = {}, {} tokens, {} distinct characteristic polynomials)\n",
        l.layer, l.family, l.d, l.tokens, l.spectra.size());
    for (const Claim& cl : l.properties)
      out += fmt::format("    property {:<32} claimed {:<8} measured {}  {}\n", cl.name, cl.claimed,
                         cl.measured, cl.ok ? "ok" : "FAILS");
    for (const MatrixSpectrum& s : l.spectra) {
      std::string toks;
      for (std::size_t i = 0; i < s.tokens.size() && i < 4; ++i)
        toks += (i ? " " : "") + s.tokens[i];
      if (s.tokens.size() > 4) toks += fmt::format(" … ({} tokens)", s.tokens.size());
      std::string roots;
      for (const RealRoot& r : s.real_roots) roots += (roots.empty() ? "" : ", ") + to_string(r);
      out += fmt::format(
          "    A of {}: det(xI − A) = {}; real roots {}; complex pairs {}; "
          "|λ| ≤ {}\n",
          toks, poly_to_string(s.charpoly), roots.empty() ? "none" : roots, s.complex_pairs,
          to_string(s.radius_bound));
    }
  }
  return out;
}

}  // namespace

nlohmann::ordered_json to_json(const VerifyReport& r) {
  using json = nlohmann::ordered_json;
  json j;
  j["construction"] = r.construction;
  // What was established (verdict_text in words): proved (every length, or the finite domain;
  // over Q or modulo p), refuted, or only tested.
  j["verdict"] = verdict(r);
  const Proof* p = r.proof ? &*r.proof : nullptr;
  j["proved"] = p && p->proved;
  j["field"] = p ? json(p->field) : json(nullptr);
  j["modulus"] = p && p->modulus ? json(*p->modulus) : json(nullptr);
  j["method"] = p ? json(p->method) : json(nullptr);
  j["basis_size"] = p && p->basis_size ? json(*p->basis_size) : json(nullptr);
  j["certificate"] = p && p->certificate ? json(*p->certificate) : json(nullptr);
  if (p) {
    j["proof"] = {
        {"proved", p->proved}, {"scope", p->scope}, {"method", p->method}, {"field", p->field}};
    if (p->modulus) j["proof"]["modulus"] = *p->modulus;
    if (!p->sat.is_null())
      j["proof"]["sat"] = p->sat;
    else if (!p->induction.is_null())
      j["proof"]["k_induction"] = p->induction;
    else if (p->pairs) {
      j["proof"]["pairs"] = p->pairs;
      j["proof"]["compared"] = p->strings;
    } else if (!p->finite_domain)
      j["proof"]["dimensions"] = {p->dim_f, p->dim_x};
    else
      j["proof"]["strings"] = p->strings;
    if (p->seconds) j["proof"]["seconds"] = *p->seconds;
    if (p->no_certificate) j["proof"]["no_certificate"] = *p->no_certificate;
  } else {
    j["proof"] = nullptr;
  }
  if (r.tested) {
    const TestedScope& t = *r.tested;
    json lengths = json::object();
    for (const auto& [m, range] : t.lengths) lengths[m] = {range.first, range.second};
    j["tested"] = {{"methods", t.methods},
                   {"max_length", t.max_length},
                   {"lengths", lengths},
                   {"complete", t.complete}};
  } else {
    j["tested"] = nullptr;
  }
  j["seed"] = r.seed ? json(*r.seed) : json(nullptr);
  j["seed_given"] = r.seed_given;
  j["checked"] = json::object();
  for (const auto& [k, v] : r.checked) j["checked"][k] = v;
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    j["counterexample"] = {{"input", c.input_text},        {"position", c.position},
                           {"expected", c.expected},       {"got", c.got},
                           {"disagreeing", c.disagreeing}, {"found_by", c.found_by},
                           {"minimal", c.minimal},         {"trace", c.trace}};
    if (c.verdict)
      j["counterexample"]["verdict"] = {
          {"agree_on_input", c.verdict->agree_on_input},
          {"first_differing",
           c.verdict->first_differing ? json(*c.verdict->first_differing) : json(nullptr)},
          {"searched_up_to", c.verdict->searched_up_to}};
  } else {
    j["counterexample"] = nullptr;
  }
  j["claims"] = json::array();
  for (const Claim& cl : r.claims)
    j["claims"].push_back(
        {{"name", cl.name}, {"claimed", cl.claimed}, {"measured", cl.measured}, {"ok", cl.ok}});
  if (!r.spectral.empty()) j["spectral"] = spectral_json(r.spectral);
  if (r.identity)
    j["identity"] = {{"prime", r.identity->prime},
                     {"rounds", r.identity->rounds},
                     {"lengths_passed", r.identity->lengths_passed}};
  else
    j["identity"] = nullptr;
  j["error_bound"] = r.error_bound ? json(*r.error_bound) : json(nullptr);
  j["notes"] = r.notes;
  return j;
}

std::string verdict(const VerifyReport& r) {
  if (!r.holds) return "refuted";  // a counterexample, a refuting decision, or a failing claim
  return r.proof && r.proof->proved ? "proved" : "tested";
}

std::string proof_field_words(const Proof& p) {
  if (p.field == "Q") return "over Q";
  if (p.field == "F_p" && p.modulus) return fmt::format("modulo p = {}", *p.modulus);
  return "";
}

std::string verdict_text(const VerifyReport& r) {
  const bool claims_ok =
      std::all_of(r.claims.begin(), r.claims.end(), [](const Claim& cl) { return cl.ok; });
  // What a decision established, in words: "proved over Q — every length (…)".
  auto decided = [](const Proof& p) {
    // A per-length proof by SAT (Proof::detail set) names its figures; enumeration its strings.
    const std::string detail =
        !p.detail.empty()
            ? fmt::format("{}; {}{}", p.method, p.detail,
                          p.seconds ? fmt::format(", {:.2f} s", *p.seconds) : std::string())
        : p.finite_domain
            ? fmt::format("{}, {} strings", p.method, p.strings)
            : fmt::format("{}, basis size {} of at most {}{}", p.method, p.basis_size.value_or(0),
                          p.dim_f + p.dim_x,
                          p.seconds ? fmt::format(", {:.3f} s", *p.seconds) : std::string());
    const std::string scope = p.finite_domain ? "every string of " + p.scope : p.scope;
    if (p.proved) return fmt::format("proved {} — {} ({})", proof_field_words(p), scope, detail);
    return fmt::format("refuted — shortest counterexample below ({} decided {}: {})", scope,
                       proof_field_words(p), detail);
  };
  std::string what;
  if (r.proof && r.proof->pairs) {  // the promise-restricted product search
    const Proof& p = *r.proof;
    const std::string detail =
        fmt::format("{}, {} pairs closed under the grammar's tokens{}", p.method, p.pairs,
                    p.seconds ? fmt::format(", {:.3f} s", *p.seconds) : std::string());
    what = p.proved ? fmt::format(
                          "proved {} — {} ({}); strings outside the promise are not "
                          "claimed",
                          proof_field_words(p), p.scope, detail)
                    : fmt::format("refuted — shortest failing encoding below ({} decided {}: {})",
                                  p.scope, proof_field_words(p), detail);
    if (!claims_ok)
      what = p.proved ? "refuted — a claim fails (below); X computes f: " + what
                      : what + "; a claim fails too";
  } else if (r.proof && r.proof->proved) {
    what = decided(*r.proof);
    if (!claims_ok) what = "refuted — a claim fails (below); X computes f: " + what;
  } else if (r.proof) {  // refuted by the decision (or by enumerating the finite domain)
    what = decided(*r.proof) + (claims_ok ? "" : "; a claim fails too");
  } else if (r.counterexample) {
    what = "refuted — a counterexample found by testing (" + r.counterexample->found_by + ")" +
           (claims_ok ? "" : ", and a claim fails");
  } else if (r.tested) {
    what = (claims_ok ? "" : "refuted — a claim fails (below); ") + tested_text(*r.tested) +
           "; not proved for every length";
  } else {
    // A report without a TestedScope (the Turing-machine checker): what it counted.
    std::string methods;
    for (const auto& [k, v] : r.checked)
      if (k.rfind("skipped", 0) != 0)
        methods += (methods.empty() ? "" : ", ") + k + " " + std::to_string(v);
    what = (claims_ok ? "" : "refuted — a claim fails (below); ") + std::string("tested — ") +
           (methods.empty() ? std::string("nothing") : methods) + "; not proved for every length";
  }
  return r.construction + ": " + what;
}

std::string format_text(const VerifyReport& r) {
  std::string out = verdict_text(r) + "\n";
  if (r.proof && r.proof->certificate)
    out +=
        fmt::format("  certificate {} ({})\n", *r.proof->certificate, proof_field_words(*r.proof));
  if (r.proof && r.proof->no_certificate)
    out += fmt::format("  no certificate: {}\n", *r.proof->no_certificate);
  for (const auto& [k, v] : r.checked) out += fmt::format("  checked {:<28} {}\n", k, v);
  if (r.seed && (r.checked.count("random") || r.checked.count("random (gpu)") || r.identity))
    out +=
        fmt::format("  seed                          {} (--seed reproduces this run)\n", *r.seed);
  if (r.identity) out += fmt::format("  identity prime                {}\n", r.identity->prime);
  if (r.error_bound) out += fmt::format("  identity error bound          {}\n", *r.error_bound);
  for (const Claim& cl : r.claims)
    out += fmt::format("  claim {:<40} claimed {:<14} measured {:<14} {}\n", cl.name, cl.claimed,
                       cl.measured, cl.ok ? "ok" : "FAILS");
  out += spectral_text(r.spectral);
  if (r.counterexample) {
    const Counterexample& c = *r.counterexample;
    out += fmt::format(
        "  counterexample ({}{}, found by {}): {}\n", c.minimal ? "minimal" : "locally minimal",
        c.disagreeing == "circuit" ? ", compiled circuit vs model" : "",
        c.found_by == "proof" ? "the every-length decision" : c.found_by + " search", c.input_text);
    out += fmt::format("    expected {}\n    got      {}\n", c.expected, c.got);
    if (c.verdict && c.verdict->agree_on_input)
      out += c.verdict->first_differing
                 ? fmt::format(
                       "    the accept verdicts agree on it; the first string whose "
                       "verdict differs: {}\n",
                       *c.verdict->first_differing)
                 : fmt::format(
                       "    the accept verdicts agree on it, and on every string of "
                       "length ≤ {}\n",
                       c.verdict->searched_up_to);
    if (!c.trace.empty()) {
      out += "    trace of the model on the encoded input:\n";
      std::size_t start = 0;
      while (start < c.trace.size()) {
        std::size_t end = c.trace.find('\n', start);
        if (end == std::string::npos) end = c.trace.size();
        out += "      " + c.trace.substr(start, end - start) + "\n";
        start = end + 1;
      }
    }
  }
  for (const std::string& n : r.notes) out += "  note: " + n + "\n";
  return out;
}

}  // namespace rnncc
