// Deciding two subject files (verify/subject_file.hpp) as `rnncc equiv` and the Python package's
// `equiv` do: which decision procedure applies, and the report as JSON.
//
//   method "linear"   the forward basis (verify/equivalence.hpp); a subject that is not linear
//                     in its state is refused (InputError naming its file and the reason);
//   method "product"  the product search over reachable configurations
//                     (verify/finite_equivalence.hpp); a subject with infinitely many (or too
//                     many) is refused likewise;
//   method "auto"     linear when both subjects are linear, else product when both are finite,
//                     else InputError naming both reasons.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "rnn/alphabet.hpp"
#include "verify/equivalence.hpp"
#include "verify/finite_equivalence.hpp"
#include "verify/linear_representation.hpp"
#include "verify/subject_file.hpp"

namespace rnncc {

struct EquivalenceInputs {
  std::optional<LinearRepresentation> f, g;  // set: the forward basis decides
  std::optional<FiniteMachine> mf, mg;       // set: the product search decides
  bool linear() const { return f.has_value(); }
  // b's alphabet is a's in another order: b's symbols were matched to a's by name (b's
  // representation or machine is re-indexed in a's order; words are spelled in a's order).
  bool reordered = false;
};

// Symbols are matched by name: when b's alphabet is a's in another order, b is re-indexed in
// a's order (EquivalenceInputs::reordered); different symbol sets are an InputError naming the
// symbols only one side has. Throws InputError as above (and for a method other than linear,
// product, auto).
EquivalenceInputs equivalence_inputs(const SubjectFile& a, const SubjectFile& b,
                                     const std::string& method);

// b's symbol ids in a's order (perm[i] = the id in b of a's symbol i); InputError when the
// symbol sets differ.
std::vector<std::size_t> symbol_permutation(const std::vector<std::string>& a,
                                            const std::vector<std::string>& b);
// The representation / machine with its symbols re-indexed: symbol i becomes old perm[i].
LinearRepresentation reorder_symbols(const LinearRepresentation& r,
                                     const std::vector<std::size_t>& perm);
FiniteMachine reorder_symbols(const FiniteMachine& m, const std::vector<std::size_t>& perm);

// {"input": "a b" (ε when empty), "position", "expected", "got"}, or null.
nlohmann::ordered_json counterexample_json(const std::optional<EquivalenceCounterexample>& c,
                                           const Alphabet& alphabet);

// `rnncc equiv --json` of the forward basis: verdict ("proved" or "refuted"), proved, method,
// field ("Q" or "F_p"), modulus (p or null), dimensions, basis_size,
// candidates, seconds (with timing), max_bits, certificate (its path or null), counterexample.
nlohmann::ordered_json equivalence_json(const EquivalenceResult& r, const LinearRepresentation& f,
                                        bool timing, const std::optional<std::string>& certificate);

// The same for the product search: verdict, proved, method, field ("Q"), states, states_visited,
// seconds (with timing), certificate (null), counterexample.
nlohmann::ordered_json finite_equivalence_json(const FiniteEquivalenceResult& r,
                                               const FiniteMachine& f, bool timing);

}  // namespace rnncc
