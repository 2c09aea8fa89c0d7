// The verify engine: checks the claim "model X computes f on strings over Σ" that a
// construction makes (constructions/construction.hpp), with evidence.
//
// Methods (docs/constructions.md, "Verifying"):
//   prove       first, by default: where f is a weighted automaton (Target::automaton) and X is
//               linear in its state (verify/linear_representation.hpp, from_model, through
//               encode's input map), decide X ≡ f on every string of every length exactly
//               (verify/equivalence.hpp): proved, or refuted with the shortest, llex-least
//               counterexample. A fixed-length target (a finite domain) is proved by the
//               exhaustive method over the whole domain when it fits under the cap. What is
//               proved keeps the testing methods below as cross-checks, with `random` cut to
//               random_after_proof strings;
//   random      seeded random strings, lengths drawn to include long ones;
//   exhaustive  every string of length 1..L (or every assignment of a fixed-length domain);
//   identity    polynomial identity testing over F_p, p = 2^61 − 1: X's compiled circuit
//               against f's, at K random points of the variety Σ_σ x[t,σ] = 1 (every t).
//               Both circuits are affine in each position's block of indicators, so agreeing
//               there is the same as agreeing on every one-hot input: a probabilistic proof for
//               all strings of each length tested, with error ≤ Σ_n (deg_n/p)^K;
//   three-way   on the strings checked, f vs X's reference evaluator vs X's compiled circuit;
//   gpu         (--device gpu) exhaustive and random strings on the GPU through one check circuit
//               (X's compiled circuit on encode(w) against f's), exact by multi-modular
//               arithmetic with a bound check (verify/device_check.hpp).
//   shrinking   a failure is shrunk to the shortest, then lexicographically least, failing string
//               (exactly, by enumeration in that order, when the search space is under a cap;
//               greedily otherwise, and the report says so) and shown with X's state trace;
//   claims      the construction's claims are part of the verdict: holds = no counterexample and
//               every claim ok.
// verify.cpp runs them as one member function each of a small class, in the order above
// (exhaustive before random, so an exhaustive failure is the one shrunk).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "constructions/construction.hpp"

namespace rnncc {

struct VerifyOptions {
  std::size_t random = 200;               // random strings
  std::size_t max_random_length = 40;     // longest random string (target symbols)
  std::optional<std::size_t> exhaustive;  // every string up to this length
  std::size_t identity_rounds = 0;        // K; 0 = no identity test
  std::size_t identity_max_length = 8;    // identity test for n = 1..this
  std::uint64_t seed = 1;
  bool three_way = true;
  std::size_t three_way_max_tokens = 48;   // compile X only for encodings up to this length
  std::size_t exhaustive_cap = 2'000'000;  // refuse larger enumerations (InputError)
  std::size_t shrink_cap = 200'000;        // exact shrinking up to this many candidates
  // --device gpu: the exhaustive and random methods run on the GPU through the construction's
  // check circuit (verify/device_check.hpp) — exhaustive up to gpu_exhaustive_cap strings,
  // random `random` strings at every length 1..max_random_length — and every string the GPU
  // finds failing is re-checked by the CPU (model, circuit, f), shrunk and traced as usual.
  // Without a GPU or a check circuit, a note says why and the CPU methods run instead.
  bool gpu = false;
  std::uint64_t gpu_exhaustive_cap = std::uint64_t{1} << 40;
  std::uint32_t gpu_threads = 1024;
  // prove (above): false = testing methods only.
  bool prove = true;
  // Once proved, the random cross-check runs min(random, this) strings; nullopt: `random` as is
  // (the CLI sets nullopt when --random is given).
  std::optional<std::size_t> random_after_proof = 20;
  // Produce the proof's certificate (Proof::certificate_json) where the certificate checker
  // can re-check it: X one LRNN layer with one output, reading f's symbols one token each.
  bool certificate = false;
  bool timing = true;  // false: Proof::seconds unset (reproducible reports)
};

// What the `prove` method established (VerifyReport::proof; absent when it did not apply).
struct Proof {
  bool proved = false;  // true: X computes f on every string; false: refuted (counterexample)
  std::string scope;    // "every length", or "the finite domain (length n)"
  std::string
      method;  // "forward basis (Schützenberger–Tzeng)", "exhaustive over the finite domain"
  std::string field;                      // "Q" or "F_p" (the decider); empty for the finite domain
  std::optional<std::size_t> basis_size;  // basis words found, of at most dim_f + dim_x
  std::size_t dim_f = 0, dim_x = 0;       // f's automaton and X's representation
  std::size_t strings = 0;                // finite domain: strings checked
  std::optional<double> seconds;
  std::optional<std::string> certificate;     // the file it was written to (set by the caller)
  std::string certificate_json;               // the certificate, when asked for and possible
  std::optional<std::string> no_certificate;  // why there is none, when asked for
};

struct Counterexample {
  std::vector<std::size_t> input;  // f's string
  std::string input_text;
  std::string expected, got;  // f(w) and what failed to equal it
  std::string disagreeing;    // "model" (reference evaluator) or "circuit" (compiled X)
  std::string found_by;       // method that first failed
  bool minimal = true;        // false when shrinking was greedy
  std::string trace;          // X's state trace on encode(w), text
  std::size_t position = 0;   // the position compared: |w| (the last symbol)
};

struct VerifyReport {
  std::string construction;
  bool holds = false;
  std::map<std::string, std::size_t> checked;  // method → strings (or points) checked
  std::optional<Counterexample> counterexample;
  std::vector<Claim> claims;
  std::optional<std::string> error_bound;  // identity testing: "≤ 1.2e-55"
  std::vector<std::string> notes;
  std::optional<Proof> proof;                         // the prove method's outcome
  std::map<std::string, std::string> tested_lengths;  // method → lengths it tested ("1..8")
};

// Throws InputError when options ask for more than the caps allow.
VerifyReport verify(const Construction& c, const VerifyOptions& options);

nlohmann::ordered_json to_json(const VerifyReport& r);
std::string format_text(const VerifyReport& r);
// The verdict line: HOLDS or FAILS, and what was established — "proved: every length (…)",
// "refuted: …" or "tested: …" (which methods, which lengths).
std::string verdict_text(const VerifyReport& r);

}  // namespace rnncc
