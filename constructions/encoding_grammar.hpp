// The encoding grammar of a construction (issue 24, item 7a): a deterministic automaton over
// the MODEL's tokens that accepts exactly the encodings encode(w) of the target strings w that
// satisfy the promise, each accepted with f(w). The promise-restricted product search
// (verify/promise_search.hpp) runs the model in product with it: only prefixes of valid
// encodings are explored, so a model whose configurations are infinite on arbitrary token
// strings (a counter fed "s9 s9 s9 …") can still be proved on every string that encodes an
// instance. What the grammar assumes is stated in `promise`, in words, and printed with every
// verdict that rests on it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algebra/rational.hpp"

namespace rnncc {

struct EncodingGrammar {
  // What is assumed, in words: which token strings are valid encodings and of what.
  std::string promise;
  // States 0..states−1 (only those reachable from start), start = 0. next[q][token]: the state
  // after reading the token, unset where no valid encoding continues with it.
  std::size_t start = 0;
  std::vector<std::vector<std::optional<std::size_t>>> next;
  // value[q]: set exactly when the tokens read so far are a complete valid encoding encode(w);
  // then it is f(w) (the same for every w with that encoding).
  std::vector<std::optional<Rational>> value;
  // A target string w with encode(w) = tokens, for an accepted token string (for reports).
  std::function<std::vector<std::size_t>(const std::vector<std::size_t>& tokens)> decode;
  std::size_t states() const { return next.size(); }
};

}  // namespace rnncc
