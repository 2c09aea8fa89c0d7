// `rnncc equiv --compare accept`: do two models / WFAs accept the same strings? Acceptance reads
// one output coordinate: a model's Acceptance (entry (row, col) of its last layer's output,
// > 0 or = 0), a WFA's value > 0. Only nonempty strings are compared (an LRNN outputs nothing
// at ε).
//
// What can be decided, and what is only tested (docs/semantics.md, "Verdicts"):
//   1. equal outputs at the accepting coordinates, proved for every length (forward basis or
//      product search), imply the same accepted strings when both use the same rule: proved;
//   2. when both have finitely many reachable configurations, the product search over their
//      accept verdicts decides acceptance exactly: proved, or refuted with the shortest,
//      llex-least string accepted by one and rejected by the other;
//   3. otherwise different outputs do not refute acceptance (positivity of a linear model's
//      output is not decidable in general): every string up to a length is searched in
//      llex order — the first disagreement is the shortest (refuted), none is "tested up to
//      length L".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/equivalence_report.hpp"

namespace rnncc {

struct AcceptanceParams {
  std::optional<std::size_t> max_length;  // the search's length; unset: the longest L ≤ 16 with
                                          // at most max_words strings of length 1..L
  std::size_t max_words = std::size_t{1} << 16;
  std::size_t max_states = 10000;  // reachable configurations for the product search
};

struct AcceptanceResult {
  std::string verdict;                // "proved", "refuted" or "tested"
  std::string method;                 // how the verdict was reached
  std::string rule_f, rule_g;         // "y > 0", "y = 0"
  std::optional<bool> outputs_equal;  // decided for every length (linear or finite)
  std::optional<std::vector<std::size_t>> outputs_differ_at;  // the shortest such word
  std::size_t searched_up_to = 0;  // exhaustive search: every string of length 1..this
  std::size_t strings_searched = 0;
  // The shortest, llex-least string accepted by exactly one: expected = f's value at the
  // accepting coordinate, got = g's; accepts = (f accepts it, g accepts it).
  std::optional<EquivalenceCounterexample> counterexample;
  std::pair<bool, bool> accepts{false, false};
  double seconds = 0;
};

// Throws InputError when the search would exceed 2^24 strings (naming --accept-length).
AcceptanceResult decide_acceptance(const SubjectFile& a, const SubjectFile& b,
                                   const EquivalenceInputs& in, const AcceptanceParams& params);

// `rnncc equiv --compare accept --json`: compare, verdict, proved, method, field ("Q"),
// modulus (null), acceptance [rule_f, rule_g], outputs_equal, outputs_differ_at,
// searched_up_to, strings_searched, seconds (with timing), certificate (null), counterexample.
nlohmann::ordered_json acceptance_json(const AcceptanceResult& r,
                                       const std::vector<std::string>& symbols, bool timing);

}  // namespace rnncc
