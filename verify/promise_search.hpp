// The promise-restricted product search (issue 24, item 7a; docs/constructions.md, "Proving
// for every length"): a model X run in product with an encoding grammar G
// (constructions/encoding_grammar.hpp), an automaton over X's tokens accepting exactly the
// valid encodings, each with the specification's value f. The pairs (q, c) — G's state and X's
// configuration (verify/finite_equivalence.hpp: every layer's state, exact over Q) — are
// explored breadth-first from (start, c₀), tokens in id order, following only the tokens G
// allows; at every pair whose grammar state accepts, X's compared output after the step is
// compared with G's value. X's configurations may be infinite on arbitrary token strings and
// still finite on prefixes of valid encodings: the graph walk's counter S takes values 1..V
// there, and grows without bound on "s9 s9 s9 …", which encodes nothing.
//
// What a completed search proves: every valid encoding x is a path from the start in G, and
// the pair reached by x is in the explored set (it is closed under G's tokens); at its end G
// accepts, and X's output there was compared with G's value: X(x) = f(w) for every w within
// the promise, encode(w) = x. A failing comparison is reached first on the shortest valid
// encoding (the llex-least of its length), by the argument of verify/finite_equivalence.hpp
// (breadth-first, successors in token order). Nothing is claimed on strings G rejects.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "algebra/rational.hpp"
#include "constructions/encoding_grammar.hpp"
#include "rnn/model.hpp"

namespace rnncc {

struct PromiseSearchParams {
  std::size_t max_pairs = 2000000;  // more: refused (InputError), the configurations may be
                                    // infinite even on valid encodings
};

struct PromiseSearchResult {
  bool proved = false;
  std::size_t pairs = 0;           // (grammar state, configuration) pairs reached
  std::size_t grammar_states = 0;  // G's states
  std::size_t configurations = 0;  // distinct configurations of X among the pairs
  std::size_t comparisons = 0;     // transitions into an accepting state, each compared
  double seconds = 0;
  // Refuted: the shortest valid encoding (llex-least of its length) where X's output differs.
  std::optional<std::vector<std::size_t>> counterexample;
  Rational expected, got;
  // The explored set, for the certificate (verify/product_certificate.hpp): per pair its
  // grammar state, X's configuration (every layer's state flattened, layer by layer) and its
  // transitions (token, successor pair, X's compared output after the step).
  struct Pair {
    std::size_t q = 0;
    std::vector<Rational> configuration;
    std::vector<std::tuple<std::size_t, std::size_t, Rational>> next;
  };
  std::vector<Pair> explored;  // filled only when asked (keep_pairs)
};

// output: the index of X's compared output in its top layer's y, flattened row by row.
// Throws NotFiniteError (an attention layer), InputError (past max_pairs; the grammar's token
// count is not X's alphabet size).
PromiseSearchResult promise_search(const Model& x, std::size_t output, const EncodingGrammar& g,
                                   bool keep_pairs, const PromiseSearchParams& params = {});

}  // namespace rnncc
