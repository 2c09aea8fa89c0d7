// `rnncc eval CIRCUIT --against MODEL`: does a circuit compiled from MODEL compute the function
// it was compiled for? The reference is the function of the precision and scan it was compiled
// with (docs/semantics.md, "Which function: three side by side"), not the model's sequential
// rule:
//
//   - an arithmetic circuit (outputs y[t][i][j], accept) is compared with the model's exact run
//     (rnn/evaluate.hpp over Q): every prefix network is the same polynomial over Q, so the scan
//     does not matter;
//   - a boolean circuit of the LRNN route (outputs y[t][i][j].b[k], the W = 1 + I + F bits of
//     the two's-complement fixed-point value, and accept) is compared with the scan-rounded
//     function of its scan (evaluate_scan_rounded, circuits/compile/lrnn_boolean.hpp; `rnncc run
//     --scan S --precision log:C`), raw value against raw value. A tree scan rounds its partial
//     products, so its circuit and the sequential rule differ on some strings (3.75 % of the
//     strings of length 64 for examples/dplr_d3.json, Brent–Kung): checked against the
//     sequential rule such a circuit would be reported wrong although it is exactly right.
//
// The circuit's inputs must be the one-hot x[t,σ] (t = 1..n, σ the symbols in the alphabet's
// order), so n is read from the circuit. An output "valid" (--valid-output) must be 1 on every
// string. Strings are drawn at random (seeded) or enumerated (every string of Σ^n). When a boolean
// circuit differs from the reference, the report says which other scans' functions it agrees
// with on the strings checked (a circuit compiled with another --scan than the one given).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/circuit.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/model.hpp"

namespace rnncc {

struct AgainstModelOptions {
  TargetOptions target;  // precision and scan the circuit was compiled with (log for boolean)
  std::size_t strings = 1000;
  bool exhaustive = false;  // every string of Σ^n in place of `strings` random ones
  // Refuse more strings than this: |Σ|^n naming --exhaustive, random ones naming --batch.
  std::size_t max_strings = 1u << 24;
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: all cores
};

struct AgainstModelMismatch {
  std::string input;               // the string, symbols joined as `rnncc run` reads them
  std::string output;              // the output's name: y[t][i][j] or accept (or valid)
  std::string circuit, reference;  // values as `rnncc run` prints them
};

struct AgainstModelReport {
  std::string kind;       // "arithmetic" or "boolean"
  std::string reference;  // the function compared with, in words
  std::string command;    // the `rnncc run` options that compute it
  std::size_t length = 0, strings = 0, differing = 0;
  bool exhaustive = false;
  std::optional<AgainstModelMismatch> first;  // the first differing string, in the order checked
  // Boolean circuits that differ: the scans whose scan-rounded function the circuit equals on
  // every string checked (empty: none).
  std::vector<std::string> agreeing_scans;
  // "proved" (every string of Σ^n agrees: the circuit is for length n only), "tested" (the
  // random strings agree) or "refuted".
  std::string verdict() const;
};

// Throws InputError when the circuit is not one of the two kinds above, its inputs are not the
// one-hot x[t,σ] of the model's alphabet, its output words do not have the width the precision
// gives at its length, or there are no strings or more than max_strings.
AgainstModelReport check_circuit_against_model(const Circuit& circuit, const Model& model,
                                               const AgainstModelOptions& options);

std::string format_text(const AgainstModelReport& report, const std::string& circuit_name,
                        const std::string& model_name);
nlohmann::ordered_json to_json(const AgainstModelReport& report);

}  // namespace rnncc
