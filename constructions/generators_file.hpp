// Generator files: a finite set of 3×3 matrices over Q, the alphabet of `rnncc verify matmul3
// --generators FILE` (docs/formats.md, "Generator files").
//
//   {"format": "rnncc-generators",
//    "description": "optional text",
//    "matrices": [ [["1","0","0"], ["0","1/2","0"], [0, 0, 2]], … ]}
//
// Each matrix is an array of 3 rows, each row an array of 3 entries; an entry is a JSON integer
// or a string in the rational grammar of algebra/rational.hpp ("3/4", "-2", "0.125"). Matrix i
// is the symbol "M<i>" of the construction's alphabet. Every diagnostic is an InputError at
// "FILE: /json/pointer" (rnn/json_cursor.hpp): not an object, a wrong or missing "format", an
// unknown member, "matrices" missing, empty or longer than max_generators, a matrix that is not
// 3 rows of 3 entries, a float or a non-rational entry, a zero denominator ("1/0").
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "algebra/rational.hpp"

namespace rnncc {

// A 3×3 matrix over Q, row-major: entry (r, k) is [3r + k].
using Matrix3 = std::array<Rational, 9>;

// The most generators a file (or Matmul3Options) may hold: the matmul3 model has up to
// 18·|G| + 1 symbols, each with its own 18×18 transition, and its reference evaluator looks
// symbols up per token; 256 generators are 4609 symbols (about 1.5·10⁶ rationals).
inline constexpr std::size_t max_generators = 256;

// Parses the text of a generator file (`source` names it in diagnostics).
std::vector<Matrix3> parse_generators(std::string_view text, const std::string& source);

// Reads and parses the file at `path`.
std::vector<Matrix3> load_generators(const std::string& path);

// The file text of `matrices` (entries as canonical rational strings), which parse_generators
// reads back to the same matrices.
std::string generators_to_json(const std::vector<Matrix3>& matrices);

}  // namespace rnncc
