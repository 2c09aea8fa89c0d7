// The verify engine: checks the claim "model X computes f on strings over Σ" that a
// construction makes (constructions/construction.hpp), with evidence.
//
// Methods (docs/constructions.md, "Verifying"):
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
};

struct Counterexample {
  std::vector<std::size_t> input;  // f's string
  std::string input_text;
  std::string expected, got;  // f(w) and what failed to equal it
  std::string disagreeing;    // "model" (reference evaluator) or "circuit" (compiled X)
  std::string found_by;       // method that first failed
  bool minimal = true;        // false when shrinking was greedy
  std::string trace;          // X's state trace on encode(w), text
};

struct VerifyReport {
  std::string construction;
  bool holds = false;
  std::map<std::string, std::size_t> checked;  // method → strings (or points) checked
  std::optional<Counterexample> counterexample;
  std::vector<Claim> claims;
  std::optional<std::string> error_bound;  // identity testing: "≤ 1.2e-55"
  std::vector<std::string> notes;
};

// Throws InputError when options ask for more than the caps allow.
VerifyReport verify(const Construction& c, const VerifyOptions& options);

nlohmann::ordered_json to_json(const VerifyReport& r);
std::string format_text(const VerifyReport& r);

}  // namespace rnncc
