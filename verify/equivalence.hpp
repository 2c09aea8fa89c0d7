// Equivalence of two linear representations on every nonempty prefix, decided exactly
// (Schützenberger 1961; Tzeng 1992, "A polynomial-time algorithm for the equivalence of
// probabilistic automata", SIAM J. Comput. 21(2)); docs/constructions.md, "Proving for every
// length".
//
// f ≡ g means y_f(w) = y_g(w) (every coordinate) for every nonempty w ∈ Σ*, and also for w = ε
// when both define y(ε) (two WFAs). The reference evaluator outputs y_1 … y_n and nothing at
// t = 0, so for LRNN models ε is not compared.
//
// Method. The difference automaton has α = [α_f, α_g], M_σ = diag(M^f_σ, M^g_σ) and
// O_σ = [O^f_σ; −O^g_σ], so y_f(uσ) − y_g(uσ) = v(u)·O_σ with v(u) = α·M_u. Let V be the span
// of {v(u) : u ∈ Σ*}. f ≡ g iff V·O_σ = 0 for every σ (and the ε check). V is built by
// breadth-first search in length-lexicographic (llex) order: candidates are ε and uσ for each
// basis word u, visited in llex order; a candidate whose vector is independent of the basis so
// far becomes a basis word. At most n = d_f + d_g basis words; each visit costs one vector ×
// matrix product (n²) and one reduction (n·(n + k)) — O(n·|Σ|·n²) field operations in all.
//
// Shortest counterexample. (1) Every word x has v(x) ∈ span{v(b) : b basis word, b ≤ x}
// (llex induction: a candidate is a basis word or depends on earlier ones; a non-candidate
// x = yσ has y not a basis word, so v(y) ∈ span{v(b) : b < y} and v(x) ∈ span{v(bσ) : b < y},
// each bσ < x a candidate). (2) If x = yσ is the llex-least distinguishing word, y is a basis
// word: else v(y) = Σ c_b v(b) over basis words b < y, so v(b)·O_σ ≠ 0 for some b and bσ < x
// distinguishes. (3) Pairs (b, σ) checked in order of b (llex), then σ, are in llex order of bσ,
// and every basis word < b is found before b is checked. So the first failing check is the
// shortest distinguishing word, the llex-least of that length. The same holds over F_p.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "verify/linear_representation.hpp"

namespace rnncc {

struct EquivalenceParams {
  // Decide over F_p. Unset: over F_p when both representations carry the same modulus, over Q
  // when neither does (different moduli: InputError).
  std::optional<std::uint64_t> modulus;
  // false: no coefficients (EquivalenceResult::coefficients stays empty, so no certificate);
  // the decision and counterexample are the same, for about half the work.
  bool certificate = true;
};

struct EquivalenceCounterexample {
  std::vector<std::size_t> input;          // the shortest, llex-least distinguishing word
  std::size_t position = 0;                // 1-based position of its last symbol (0: ε)
  std::vector<std::string> expected, got;  // y_f, y_g there (exact, or residues mod p)
};

struct EquivalenceResult {
  bool equivalent = false;
  std::string method = "forward basis (Schützenberger–Tzeng)";
  std::string field;  // "Q" or "F_p"
  std::optional<std::uint64_t> modulus;
  std::size_t dim_f = 0, dim_g = 0;  // n = dim_f + dim_g
  std::size_t basis_size = 0;        // basis words found (all of them when equivalent)
  std::size_t candidates = 0;        // words whose vector was reduced
  double seconds = 0;
  std::size_t max_bits = 0;          // largest numerator/denominator in the working basis
  std::size_t max_bits_vectors = 0;  // … in the vectors v(u) of the basis words
  std::vector<std::vector<std::size_t>> basis_words;  // llex order, basis_words[0] = ε
  // Certificate data (when equivalent): coefficients[i][σ][j] with
  // v(basis_words[i])·M_σ = Σ_j coefficients[i][σ][j]·v(basis_words[j]), and the common output
  // values[i][σ] = y_f(basis_words[i]σ) = y_g(basis_words[i]σ); empty_value = y(ε) if compared.
  std::vector<std::vector<std::vector<std::string>>> coefficients;
  std::vector<std::vector<std::vector<std::string>>> values;
  std::optional<std::vector<std::string>> empty_value;
  std::optional<EquivalenceCounterexample> counterexample;
};

// Both deciders compare functions with the same alphabet (same symbols, same order) and the same
// number of outputs; otherwise an InputError naming both alphabets or both dimensions.
void check_same_interface(const std::vector<std::string>& symbols_f, std::size_t outputs_f,
                          const std::vector<std::string>& symbols_g, std::size_t outputs_g);

// Throws InputError when the alphabets differ (naming the symbols), the output dimensions
// differ, or the moduli disagree; DomainError when a parameter has no value mod p.
EquivalenceResult decide_equivalence(const LinearRepresentation& f, const LinearRepresentation& g,
                                     const EquivalenceParams& params = {});

// Plain twin for tests: the llex-least word of length ≤ max_length where f and g differ, by
// evaluating both on every word (exact over Q, or reduced mod p).
std::optional<EquivalenceCounterexample> exhaustive_counterexample(
    const LinearRepresentation& f, const LinearRepresentation& g, std::size_t max_length,
    std::optional<std::uint64_t> modulus = std::nullopt);

}  // namespace rnncc
