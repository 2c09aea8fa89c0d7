// Formulas as S-expressions (docs/formats.md, "Formula files"). A formula is a circuit with
// fan-out one (docs/architecture.md, "Layers"); Barrington and Ben-Or–Cleve start from one.
//
//   formula   := leaf | '(' operator formula+ ')'
//   leaf      := variable | constant
//   variable  := 'x' index            index = 1, 2, … (decimal, no leading zeros, ≤ 65536)
//   constant  := a rational of algebra/rational.hpp: 0, 1, -2, 3/4, 0.5
//   operator  := 'and' | 'or' | 'not'          (boolean formulas)
//              | '+' | '-' | '*'               (arithmetic formulas)
//   ';' starts a comment that runs to the end of the line; whitespace separates tokens.
//
// Arities: `not` takes one operand, `-` exactly two (negation is (- 0 F)); `and`, `or`, `+`,
// `*` take two or more, and (op F₁ F₂ … F_n) means the left-nested binary formula
// (op (… (op F₁ F₂) …) F_n): the circuit, the depth and `text` all describe that binary tree.
//
// A formula is boolean (and/or/not; constants 0 and 1) or arithmetic (+ - *; any rational
// constant), never both; the first operator decides. A formula without operators is boolean
// when it is a variable or the constant 0 or 1 (read as arithmetic, it has the same value), and
// arithmetic for any other constant.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "circuits/circuit.hpp"

namespace rnncc {

struct Formula {
  // Inputs x1…xk in this order (input i is named "x{i+1}"), then the gates of the binary tree
  // in post-order, built with CircuitBuilder::raw (no folding, no sharing: every operator gate
  // has fan-out one) except constants, which CircuitBuilder::constant shares. One output, "f".
  // Boolean formulas use and/or/not gates on 0/1 values, arithmetic ones add/sub/mul.
  Circuit circuit;
  std::size_t variables = 0;  // k = the largest variable index used (x3 alone gives k = 3)
  bool boolean = false;
  // Depth of the binary tree: a leaf has depth 0, an operator 1 + the largest operand depth
  // (`not` counts as an operator).
  std::size_t depth = 0;
  // The binary tree as a canonical S-expression ("(and (and x1 x2) x3)", constants in canonical
  // rational form, no comments); parse_formula(text) gives the same circuit back.
  std::string text;
};

// Parses `text`. Throws InputError at "source:line:column" (1-based, columns in code points)
// for: unbalanced parentheses, an unknown operator, a wrong number of operands, a bad token,
// x0 or x without an index (or an index too large), mixing boolean and arithmetic, input left
// after the formula, and empty input.
Formula parse_formula(std::string_view text, const std::string& source);

// Reads and parses a file (source = the path).
Formula load_formula(const std::string& path);

// For the CLI: `arg` is inline formula text (source "<formula>") when, after leading
// whitespace, it starts with '(' or ';', or it is one bare token: 'x' followed by digits only
// (x1, x12, and also x and x0, which then get their diagnostics) or a rational constant (0, 1,
// -3/4). Anything else is a file path ("xor.sexp", "examples/formula_poly.sexp").
Formula formula_from_argument(const std::string& arg);

// A formula's text for a message: cut after 60 bytes (at a token boundary) when longer than 72.
std::string excerpt(const std::string& text);

}  // namespace rnncc
