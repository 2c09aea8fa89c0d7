// Barrington's theorem: a boolean formula of depth d becomes a width-5 permutation branching
// program of length ≤ 4^d, and a one-layer PD LRNN with 5×5 permutation matrices runs it
// (docs/constructions.md, "Barrington"; reference/constructions.md §5).
//
// Source: D. A. Barrington, "Bounded-width polynomial-size branching programs recognize exactly
// those languages in NC¹", JCSS 38 (1989). Theorem: every f computed by a fan-in-2 formula of
// depth d is σ-computed by a width-5 permutation branching program of length ≤ 4^d.
//
// Permutations and their product. A Perm is a map of the points {0,…,4}; cycle notation
// numbers the points 1…5 (point i of "(13254)" is coordinate i−1 of the LRNN state). Products
// read LEFT TO RIGHT: x·(pq) = (x·p)·q, i.e. p is applied first. With this convention the
// reference's commutator (12345)(13542)(54321)(24531) = (13254) holds (tests check it; read
// right to left the same product is (14352)). A program (i₁, p₁⁰, p₁¹) … (i_L, p_L⁰, p_L¹)
// yields on an assignment x the product p₁^{x_{i₁}} ⋯ p_L^{x_{i_L}}, and it σ-computes f when
// that product is σ where f(x) = 1 and the identity e where f(x) = 0.
//
// The induction, with σ = (12345), τ = (13542), ρ = [σ, τ] = στσ⁻¹τ⁻¹ = (13254):
//   x_j:        one instruction (j, e, σ).            constant c: (any, σ^c, σ^c).
//   ¬f:         right-multiply the last instruction of P (σ-computes f) by σ⁻¹: the product is
//               Πσ⁻¹ ∈ {e, σ⁻¹}, so the program σ⁻¹-computes ¬f; conjugating every instruction
//               by π with π⁻¹σ⁻¹π = σ makes it σ-compute ¬f. Length unchanged.
//   f ∧ g:      P σ-computes f, Q (P_g conjugated) τ-computes g; P·Q·P⁻¹·Q⁻¹ (P⁻¹: reversed,
//               each instruction inverted) yields στσ⁻¹τ⁻¹ = ρ when f = g = 1 and e otherwise
//               (if f = 0 it is Q Q⁻¹, if g = 0 it is P P⁻¹); conjugating by π with
//               π⁻¹ρπ = σ makes it σ-compute f ∧ g. Length 2(|P| + |Q|).
//   f ∨ g:      ¬(¬f ∧ ¬g) (De Morgan); the same length as ∧.
// Conjugation (p ↦ π⁻¹pπ in every instruction) conjugates the product and keeps the length,
// so by induction the length is ≤ 4^depth (leaf 1 = 4⁰; ∧: 2(4^{d−1} + 4^{d−1}) = 4^d).
//
// The LRNN reads the program's WORD: position t holds the permutation p_t^{x_{i_t}}. Family pd,
// P_t e_j = e_{p_t(j)}, D = 1, B = 0, S₀ = e₀ (d = 5, m = 1): column form gives S_L =
// P_L ⋯ P_1 e₀ = e_{0·p₁⋯p_L}, the point 0 sent through the left-to-right product. The readout
// y = 1 − S_L[0] (C = [[-1,0,0,0,0]], c₀ = [[1]]) is 1 iff the product moves point 0; since
// σ moves it and e does not, y = f(x) whenever the program σ-computes f.
//
// Claims: program length ≤ 4^depth; width (state dimension) = 5. That the product is σ or e
// on every assignment is for verify/ to check (it is what the model's agreement with f tests).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/io/sexpr.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

// A permutation of {0,…,4}: x ↦ image[x].
struct Perm {
  std::array<std::uint8_t, 5> image{0, 1, 2, 3, 4};

  static Perm identity() { return {}; }
  Perm inverse() const;
  bool is_identity() const { return *this == Perm{}; }
  // Left-to-right product: x·(p*q) = q(p(x)) — p first.
  friend Perm operator*(const Perm& p, const Perm& q);
  friend bool operator==(const Perm&, const Perm&) = default;
  friend auto operator<=>(const Perm&, const Perm&) = default;
};

// Cycle notation on points 1…5, each cycle starting at its smallest point, cycles ordered by
// that point, fixed points left out, no spaces: "(13254)", "(12)(345)"; the identity is "e".
std::string cycle_notation(const Perm& p);
// Reads a product of cycles on points 1…5 ("(12345)(13542)", "e", "(1)"), multiplied left to
// right; std::nullopt when the text is not one.
std::optional<Perm> parse_cycles(std::string_view text);
bool is_five_cycle(const Perm& p);

// σ = (12345), the cycle every program built here σ-computes; τ = (13542), the cycle the second
// operand of ∧ is conjugated to; their commutator στσ⁻¹τ⁻¹ = (13254).
Perm barrington_sigma();
Perm barrington_tau();

// One instruction: read x_variable (0-based: x1 is variable 0) and yield if0 or if1. An
// instruction with if0 == if1 (a constant's) reads nothing: with no variables it names 0.
struct Instruction {
  std::size_t variable = 0;
  Perm if0, if1;
};

// The product p₁^{x_{i₁}} ⋯ p_L^{x_{i_L}}, left to right (the empty program yields e). Entries of
// the assignment are 0 or 1; throws std::out_of_range when an instruction reads past it.
Perm program_product(const std::vector<Instruction>& program,
                     const std::vector<std::size_t>& assignment);

// swapped_cycle (for negative tests): ∧ conjugates Q onto σ instead of τ, so P and Q compute
// the same cycle, the commutator is the identity on every assignment, and each ∧ yields 0
// (each ∨ yields 1) while the conjugation still assumes ρ. The program then fails to
// σ-compute f wherever such a gate's wrong value reaches the output.
enum class BarringtonDefect { none, swapped_cycle };

// The program σ-computing the formula (σ = barrington_sigma()). Throws InputError when the
// formula is arithmetic or the program would exceed 2^22 instructions.
std::vector<Instruction> barrington_program(const Formula& f,
                                            BarringtonDefect defect = BarringtonDefect::none);

// X: the one-layer PD LRNN above over the alphabet of the permutations the program uses
// (symbols in cycle notation, in order of first use); f: the formula over {"0","1"}, strings of
// length k = f.variables; encode(w) = the program's word on the assignment w (length L).
Construction barrington(const Formula& f, BarringtonDefect defect = BarringtonDefect::none);

}  // namespace rnncc
