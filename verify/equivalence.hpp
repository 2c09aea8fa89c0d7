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
//
// Over Q at scale (the default): multimodular. The forward basis is computed modulo a prime
// p < 2^24, layer by layer (each layer's candidates are v(u)·M_σ for its basis words, one matrix
// product per symbol; the greedy basis of a layer is the row rank profile of its candidates
// reduced by the basis so far, also by matrix products: algebra/multimodular.hpp, modmat). The
// layers visit the candidates in the same llex order, so the run finds the same basis words and
// the same first failing check as the word-at-a-time decider over F_p. Then:
//   - proof: as soon as the basis has d_f vectors whose f-parts are independent mod p, its span
//     is the graph of P = V_f⁻¹·V_g; P is reconstructed over Q (rational reconstruction from one
//     or two primes) and checked exactly as a morphism (EquivalenceMorphism: integer identities
//     checked modulo primes whose product exceeds a bound on both sides — deterministic). Also
//     tried from g to f. This exists whenever the "from" side is reachable (its vectors h(u) span
//     its space) and the other observable, e.g. both minimal;
//   - refutation: a word that differs modulo p differs over Q (reduction mod p is a ring
//     homomorphism on the rationals with denominators prime to p). It is the shortest over Q by
//     a deterministic argument: runs modulo more primes p_i (up to its length) give the llex-least
//     word differing modulo Π p_i (the least of the words each run finds); once Π p_i exceeds a
//     bound on the numerator of y_f(w) − y_g(w) over every word w of that length or less, every
//     llex-smaller word has difference ≡ 0 modulo Π p_i and smaller than it in absolute value,
//     so 0. The outputs reported are evaluated exactly over Q;
//   - otherwise (equal modulo p but no morphism either way, e.g. a non-minimal pair; numbers
//     beyond 64 bits; more than 40 primes needed): the exact forward basis over Q decides.
// So "proved over Q" and the shortest counterexample are exact on either path.
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
  // Over Q: exact runs only the exact forward basis over Q (the plain twin); multimodular
  // first runs the multimodular path (above), which falls back to it when it cannot conclude;
  // automatic is multimodular from d_f + d_g ≥ kMultimodularFromDimension on (below it the exact
  // decider takes well under a second, and its proof is the forward-basis certificate).
  enum class Method { automatic, exact, multimodular } method = Method::automatic;
  // Over Q: when set, the exact forward basis refuses (InputError naming --max-work) if its
  // estimate (d_f + d_g)³·|Σ| field operations passes this — also when the multimodular path
  // falls back to it (a non-minimal pair, entries past its primes), which no caller can foresee.
  std::optional<std::uint64_t> max_exact_work = std::nullopt;
};
inline constexpr std::size_t kMultimodularFromDimension = 100;

// Whether decide_equivalence(f, g, params) over dimensions d_f, d_g starts on the multimodular
// path (over Q, method multimodular, or automatic from kMultimodularFromDimension on).
bool uses_multimodular(std::size_t dim_f, std::size_t dim_g, bool modulus,
                       const EquivalenceParams& params = {});

// A morphism P (rows × cols) with h_to(u) = h_from(u)·P for every word u, checked exactly:
// α_from·P = α_to, M^from_σ·P = P·M^to_σ and O^from_σ = P·O^to_σ for every σ. Then
// y_to(uσ) = h_to(u)·O^to_σ = h_from(u)·O^from_σ = y_from(uσ): f ≡ g on every nonempty word.
// Entries P_ij = numerators[i·cols + j] / denominator.
struct EquivalenceMorphism {
  bool f_to_g = true;  // from = f, to = g (else from = g, to = f)
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> numerators;
  std::int64_t denominator = 1;
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
  // The multimodular path: the proof (instead of coefficients), the primes of the forward-basis
  // runs, and the primes of the exact check of the morphism.
  std::optional<EquivalenceMorphism> morphism;
  std::vector<std::uint32_t> primes, check_primes;
};

// Both deciders compare functions with the same alphabet (same symbols, same order) and the same
// number of outputs; otherwise an InputError naming both alphabets or both dimensions.
void check_same_interface(const std::vector<std::string>& symbols_f, std::size_t outputs_f,
                          const std::vector<std::string>& symbols_g, std::size_t outputs_g);

// Throws InputError when the alphabets differ (naming the symbols), the output dimensions
// differ, or the moduli disagree; DomainError when a parameter has no value mod p.
EquivalenceResult decide_equivalence(const LinearRepresentation& f, const LinearRepresentation& g,
                                     const EquivalenceParams& params = {});

// The multimodular path's layered forward basis modulo one prime p < 2^24, alone — for tests
// against the word-at-a-time decider over F_p (decide_equivalence with modulus p): the basis
// words, and the counterexample's word (its values left empty). y(ε) is not compared. Throws
// std::invalid_argument when p divides a denominator or a number does not fit in 62 bits.
EquivalenceResult forward_basis_layered_mod_p(const LinearRepresentation& f,
                                              const LinearRepresentation& g, std::uint32_t p);

// Plain twin for tests: the llex-least word of length ≤ max_length where f and g differ, by
// evaluating both on every word (exact over Q, or reduced mod p).
std::optional<EquivalenceCounterexample> exhaustive_counterexample(
    const LinearRepresentation& f, const LinearRepresentation& g, std::size_t max_length,
    std::optional<std::uint64_t> modulus = std::nullopt);

}  // namespace rnncc
