// Seeded random formulas of an exact depth, for `rnncc verify barrington|ben-or-cleve --depth D
// [--variables K] [--formula-seed S]` (docs/constructions.md, "Random formulas").
//
// The tree is drawn top down from std::mt19937_64(seed): a node that must have depth r > 0 is an
// operator whose first or second operand (a coin decides which) has depth exactly r − 1 and the
// other a depth drawn uniformly from 0..r − 1; boolean nodes are `not` (one operand of depth
// r − 1) with probability 1/5, else `and` or `or`; arithmetic nodes are `+`, `-` or `*`, each
// 1/3. A leaf is x_i with i uniform in 1..K, except with probability 1/8 a constant: 0 or 1
// (boolean), one of −2, −1, 1/2, 1, 2, 3 (arithmetic). The text is parsed by parse_formula, so
// the result is exactly what a file with the same text gives (Formula::depth == depth).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/io/sexpr.hpp"
#include "constructions/registry.hpp"

namespace rnncc {

// Depths accepted (the programs of Barrington and Ben-Or–Cleve are capped at 2^22 steps
// anyway, which their builders refuse with the measured length).
inline constexpr std::size_t max_random_formula_depth = 24;

struct RandomFormulaOptions {
  std::size_t depth = 3;
  std::size_t variables = 4;  // K ≥ 1: leaves draw from x1..xK (not every one need occur)
  std::uint64_t seed = 1;
  bool boolean = true;
};

// Throws InputError (where "--depth" / "--variables") for a depth above
// max_random_formula_depth or K = 0.
Formula random_formula(const RandomFormulaOptions& options);

// The default K for a depth: min(depth + 1, 6) for a boolean formula (at most 64 assignments),
// min(depth + 1, 4) for an arithmetic one (4^4 = 256 strings over the default V) — at most the
// 2^depth leaves. verify checks every string of the domain, each through the whole program.
std::size_t default_random_formula_variables(std::size_t depth, bool boolean);

// The registry options of a formula kind (barrington, ben-or-cleve): --depth D, --variables K,
// --formula-seed S (default 1).
std::vector<OptionSpec> random_formula_options();

// The formula a formula kind's builder reads: INPUT (a file or an inline S-expression,
// formula_from_argument) or, with --depth, random_formula(). InputError for both or neither,
// and for --variables or a given --formula-seed without --depth. A random formula adds a note
// (to `notes`) stating its depth, K, seed and text (cut for a message, excerpt()).
Formula formula_from_options(const OptionValues& v, bool boolean, std::vector<std::string>& notes);

}  // namespace rnncc
