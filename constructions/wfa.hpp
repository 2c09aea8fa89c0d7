// Weighted finite automata over Q, the claimed semantics of the automata constructions
// (constructions.md §4).
//
//   f(w) = αᵀ · M_{w₁} · M_{w₂} ⋯ M_{w_n} · β      (row-vector convention: (M_σ)_{pq} is the
//                                                  weight of the arc p --σ--> q)
// α is the initial vector (1 on the initial state), β the final weights. A WFA is
// deterministic when α has one nonzero entry and every row of every M_σ has at most one
// nonzero entry (docs/formats.md, "WFA files").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "algebra/matrix.hpp"
#include "algebra/rational.hpp"
#include "rnn/alphabet.hpp"

namespace rnncc {

struct Wfa {
  Alphabet alphabet;
  std::vector<std::string> state_names;      // state i's name in the file
  std::vector<Rational> initial;             // α, one entry per state
  std::vector<Rational> final;               // β
  std::vector<Matrix<Rational>> transition;  // M_σ, states × states, per symbol id
  std::size_t states() const { return initial.size(); }
  bool deterministic() const;
};

// f(w), exactly.
Rational evaluate(const Wfa& a, const std::vector<std::size_t>& w);

// A WFA as an AT&T file lists it, before the |Σ| dense states × states matrices of Wfa exist:
// its arcs (a repeated arc's weights summed) and final weights. What reading a file costs is
// then linear in the file, and what is estimated from the sizes and the nonzero entries (the
// memory of wfa_to_lrnn's model, verify's every-length proof) is refused before |Σ|·d²
// rationals are allocated: a 30 kB chain of 1 448 states holds 4.2 million of them.
struct WfaArcs {
  struct Arc {
    std::size_t src = 0, dst = 0, label = 0;
    Rational weight;
  };
  Alphabet alphabet;
  std::vector<std::string> state_names;
  std::vector<std::pair<std::size_t, Rational>> initial;  // α's entries (a file: (start, 1))
  std::vector<std::pair<std::size_t, Rational>> finals;   // β's entries, as listed
  std::vector<Arc> arcs;                                  // one per (src, dst, label)
  std::size_t states() const { return state_names.size(); }
};
// The dense form: α and β from their entries, (M_label)(src, dst) = weight.
Wfa dense_wfa(const WfaArcs& arcs);
// The nonzero entries of a dense WFA; dense_wfa(wfa_arcs(a)) == a.
WfaArcs wfa_arcs(const Wfa& a);

// The OpenFst/AT&T text format: arc lines "src dst label [weight]", final lines
// "state [weight]"; the first line's source is the initial state; weights exact rationals;
// a missing weight is 1; '#' starts a comment. Labels form the alphabet in order of first
// appearance. The text must be UTF-8; at most att_max_states states and labels, and at most
// att_max_entries = |Σ|·states² matrix entries (the WFA is stored densely). Throws InputError
// at file:line:column.
inline constexpr std::size_t att_max_states = 4096;
inline constexpr std::size_t att_max_entries = std::size_t{1} << 22;
Wfa parse_wfa_att(std::string_view text, const std::string& source);
WfaArcs parse_wfa_att_arcs(std::string_view text, const std::string& source);  // the same, sparse
// The JSON form (docs/formats.md): {"format": "rnncc-wfa/1", "alphabet", "states",
// "initial", "final", "transitions": {"a": [[...]]}}. Throws InputError with a JSON path.
Wfa parse_wfa_json(std::string_view text, const std::string& source);
// By extension: .json → JSON, anything else → AT&T text.
Wfa load_wfa(const std::string& path);
// The sparse form of an AT&T file; a JSON file (dense text already) is read and then listed.
WfaArcs load_wfa_arcs(const std::string& path);

}  // namespace rnncc
