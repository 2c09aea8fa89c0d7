// The verify engine: verify(), the script that runs the methods in order, and what every method
// shares: recording the first failing string, shrinking it, its trace, the verdict.
#include "verify/verify.hpp"

#include <algorithm>
#include <exception>
#include <random>

#include <fmt/format.h>

#include "rnn/run_report.hpp"
#include "verify/verification.hpp"

namespace rnncc {

VerifyReport verify(const Construction& c, const VerifyOptions& o) {
  verify_internal::Verification v(c, o);
  v.prove();
  v.sat();
  v.k_induction();
  v.minimal_state_size();
  v.choose_device();
  v.exhaustive();
  v.domain_proof();
  v.random();
  v.count_skipped();
  v.three_way();
  v.identity();
  v.shrink();
  return v.verdict();
}

}  // namespace rnncc

namespace rnncc::verify_internal {

Verification::Verification(const Construction& c, const VerifyOptions& o)
    : c_(c),
      o_(o),
      checker_(c, o),
      sigma_(c.target.alphabet),
      S_(sigma_.size()),
      seed_(o.seed ? *o.seed : shared_seed(o.ranks)) {
  report_.construction = c.name;
  report_.claims = c.claims;
  report_.seed = seed_;
  report_.seed_given = o.seed.has_value();
  report_.notes = c.notes;
  report_.spectral = spectral_report(c.model);
}

// shrinking: the first failing string becomes the shortest, then lexicographically least,
// failing string — exactly, by enumeration in that order, when the search space is under
// shrink_cap (exhaustive failures are minimal already); greedily otherwise (delete symbols,
// then lower them, while it still fails; the report says "locally minimal") — and is reported
// with X's state trace on its encoding.
void Verification::shrink() {
  if (!failing_) return;
  // Two variables, not a structured binding: clang 14 cannot capture one in a lambda.
  auto w = failing_->first;
  const auto method = failing_->second;
  Counterexample ce;
  ce.found_by = method;
  const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
  double space = 0;
  for (std::size_t n = lo; n <= w.size(); ++n) space += count_strings(S_, n);
  // exhaustive: (length, lex) order; proof: the decider's shortest, llex-least string
  const bool minimal_already = method.rfind("exhaustive", 0) == 0 || method == "proof";
  if (!minimal_already && space <= static_cast<double>(o_.shrink_cap)) {
    bool found = false;
    for (std::size_t n = lo; n <= w.size() && !found; ++n)
      found = for_each_string(S_, n, [&](const std::vector<std::size_t>& cand) {
        if (in_domain(cand) && checker_.check(cand, false)) {
          w = cand;
          return true;
        }
        return false;
      });
  } else if (!minimal_already) {
    ce.minimal = false;
    bool progress = true;
    while (progress) {
      progress = false;
      for (std::size_t i = 0; i < w.size() && w.size() > 1 && !c_.target.fixed_length; ++i) {
        auto cand = w;
        cand.erase(cand.begin() + static_cast<long>(i));
        if (in_domain(cand) && checker_.check(cand, false)) {
          w = cand;
          progress = true;
          break;
        }
      }
      for (std::size_t i = 0; i < w.size() && !progress; ++i)
        for (std::size_t s = 0; s < w[i] && !progress; ++s) {
          auto cand = w;
          cand[i] = s;
          if (in_domain(cand) && checker_.check(cand, false)) {
            w = cand;
            progress = true;
          }
        }
    }
  }
  const auto m = checker_.check(w, true).value_or(*failing_mismatch_);
  ce.input = w;
  ce.input_text = join(sigma_, w);
  ce.expected = m.expected;
  ce.got = m.got;
  ce.disagreeing = m.disagreeing;
  ce.trace = trace_of(w);
  ce.position = w.size();
  if (ce.disagreeing == "model") ce.verdict = verdict_difference(w);
  report_.counterexample = std::move(ce);
}

// claims: the verdict — holds when no method found a counterexample and every claim the
// construction makes was measured ok.
// The report says what was tested: the methods and lengths covered (TestedScope), set when no
// counterexample was found — testing is never reported as a proof for every length.
VerifyReport Verification::verdict() {
  report_.holds = !report_.counterexample && !refuted_ &&
                  std::all_of(report_.claims.begin(), report_.claims.end(),
                              [](const Claim& cl) { return cl.ok; });
  if (!report_.counterexample && !refuted_) {
    if (const auto it = report_.checked.find("three-way (lengths compiled)");
        it != report_.checked.end() && it->second > 0)
      tested_.methods.push_back("three-way");
    report_.tested = std::move(tested_);
  }
  return std::move(report_);
}

std::uint64_t Verification::drawn_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

// Sharded: rank 0's drawn seed on every rank, so every rank checks the same random strings.
std::uint64_t Verification::shared_seed(Ranks* ranks) {
  const std::uint64_t mine = drawn_seed();
  return ranks ? std::stoull(ranks->broadcast(std::to_string(mine))) : mine;
}

// Records that `method` checked lengths lo..hi (TestedScope).
void Verification::covered(const std::string& method, std::size_t lo, std::size_t hi) {
  tested_.methods.push_back(method);
  tested_.lengths[method] = {lo, hi};
  tested_.max_length = std::max(tested_.max_length, hi);
  if (c_.target.fixed_length && method.rfind("exhaustive", 0) == 0) tested_.complete = true;
}

// For a value mismatch on w: do the accept verdicts (X's acceptance rule on f(w) and on X's
// value) agree on w, and if so, which string is the first, in (length, lex) order, whose
// verdict differs? Searched over every string up to the longest length tested (at least |w|),
// within shrink_cap strings. Unset for mod-p constructions (positivity is undefined there).
std::optional<Counterexample::VerdictDifference> Verification::verdict_difference(
    const std::vector<std::size_t>& w) {
  const Acceptance& rule = c_.model.accept;
  auto accepts = [&](const Rational& v) {
    return rule.mode == Acceptance::Mode::zero ? v == 0 : v > 0;
  };
  auto verdict_of = [&](const std::vector<std::size_t>& x) -> std::optional<std::pair<bool, bool>> {
    const auto values = checker_.exact_values(x);
    if (!values) return std::nullopt;
    return std::pair{accepts(values->first), accepts(values->second)};
  };
  const auto on_w = verdict_of(w);
  if (!on_w) return std::nullopt;
  Counterexample::VerdictDifference d;
  d.agree_on_input = on_w->first == on_w->second;
  if (!d.agree_on_input) return d;
  const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
  std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : w.size();
  for (const auto& [method, range] : tested_.lengths) hi = std::max(hi, range.second);
  double budget = static_cast<double>(o_.shrink_cap);
  for (std::size_t n = lo; n <= hi && !d.first_differing; ++n) {
    if ((budget -= count_strings(S_, n)) < 0) break;
    for_each_string(S_, n, [&](const std::vector<std::size_t>& x) {
      if (!in_domain(x)) return false;
      const auto v = verdict_of(x);
      if (!v || v->first == v->second) return false;
      d.first_differing =
          fmt::format("{} (expected {}, got {})", join(sigma_, x), v->first ? "accept" : "reject",
                      v->second ? "accept" : "reject");
      return true;
    });
    if (!d.first_differing) d.searched_up_to = n;
  }
  return d;
}

bool Verification::in_domain(const std::vector<std::size_t>& w) const {
  return !c_.target.promise || c_.target.promise(w);
}

// Checks w (outside the promise: counted and skipped); the first failure is kept, with the
// method that found it. Returns whether w fails.
bool Verification::record(const std::vector<std::size_t>& w, const std::string& method,
                          bool with_circuit) {
  if (!in_domain(w)) {
    ++outside_promise_;
    return false;
  }
  auto m = checker_.check(w, with_circuit);
  if (m && !failing_) {
    failing_ = {w, method};
    failing_mismatch_ = m;
  }
  return m.has_value();
}

// X's state trace on encode(w), as `rnncc run --trace` prints it.
std::string Verification::trace_of(const std::vector<std::size_t>& w) const {
  try {
    const std::vector<std::size_t> x = c_.encode(w);
    if (x.empty()) return {};
    PrecisionSpec p;
    if (c_.modulus) {
      p.kind = PrecisionSpec::Kind::mod;
      p.modulus = *c_.modulus;
    }
    RunReport run = run_model(c_.model, c_.model.alphabet.join(x), "counterexample", p);
    return format_text(c_.model, {run}, true);
  } catch (const std::exception& e) {
    return std::string("(no trace: ") + e.what() + ")";
  }
}

}  // namespace rnncc::verify_internal
