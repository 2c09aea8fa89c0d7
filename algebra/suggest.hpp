// "Did you mean …?": the name a misspelled word most likely stands for, among the names a
// command, an option or a registry accepts (docs/cli.md, "Typos").
//
// It lives beside the error types (algebra/error.hpp) because, like them, every layer's
// diagnostics use it — the CLI for commands, kinds and flags, the library's own "expected a, b
// or c" diagnostics for choice values (`--target`, `--scan`, a registry option's allowed
// values), and the Python package for keyword and kind names — and nothing below algebra/ could
// host it. It is text, not arithmetic; it reads nothing but std.
//
// The distance is Damerau–Levenshtein in its optimal-string-alignment form: the fewest
// insertions, deletions, substitutions and swaps of two adjacent characters that turn one word
// into the other, no substring edited twice. With d(i, j) the distance between the first i
// characters of a and the first j of b:
//   d(i, 0) = i,  d(0, j) = j,
//   d(i, j) = min(d(i−1, j) + 1, d(i, j−1) + 1, d(i−1, j−1) + [a_i ≠ b_j],
//                 d(i−2, j−2) + 1  when i, j ≥ 2, a_i = b_{j−1} and a_{i−1} = b_j).
// Characters compare with ASCII letters folded to lower case (`Parity` is 0 from `parity`);
// other bytes, UTF-8 included, compare as they are.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnncc {

// The optimal-string-alignment distance above, ASCII case folded. O(|a|·|b|) time.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name `word` most likely misspells, or none:
//   1. the candidates within distance max(1, |word| / 3) of `word` (|word| in bytes, / rounding
//      down), the nearest; among equally near ones the first in `candidates`' order (the order
//      the diagnostic lists them, so the answer does not depend on a hash or a sort);
//   2. else the one candidate that starts with `word` (case folded), when exactly one does:
//      `--prec` → `--precision`.
// A candidate equal to `word` (byte for byte) is never suggested, nor anything for an empty word.
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

// "did you mean NAME?" for closest_name(word, candidates), or "" when there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// `message`, then "\ndid you mean NAME?" when closest_name finds one: the second line of a
// diagnostic ("rnncc: error: --target: 'boolen': expected arith, boolean or threshold" /
// "did you mean boolean?").
std::string with_suggestion(std::string message, std::string_view word,
                            const std::vector<std::string>& candidates);

// with_suggestion for a value NAME:ARGS (`ladner-fisher:4`, `lg:8`): NAME is matched, and the
// suggestion keeps ":ARGS" ("did you mean ladner-fischer:4?").
std::string with_suggestion_before_colon(std::string message, std::string_view value,
                                         const std::vector<std::string>& names);

}  // namespace rnncc
