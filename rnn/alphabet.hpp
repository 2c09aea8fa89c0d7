// A finite input alphabet Σ with dense symbol ids 0..|Σ|−1 (the order of the model file).
// Layer 1 of every model reads the one-hot vector x_t = e_{id(w_t)} ∈ {0,1}^|Σ|.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rnncc {

class Alphabet {
 public:
  Alphabet() = default;
  // Throws InputError (where = `where`) for an empty alphabet, an empty or repeated symbol, or
  // a symbol containing whitespace or ','. O(|Σ| log |Σ|) symbol comparisons: repeats are found
  // in sorted order (comparing every pair was quadratic: 0.25 s for 13 000 symbols).
  Alphabet(std::vector<std::string> symbols, const std::string& where);

  std::size_t size() const { return symbols_.size(); }
  const std::string& symbol(std::size_t id) const { return symbols_.at(id); }
  const std::vector<std::string>& symbols() const { return symbols_; }
  // The id of `symbol`, by binary search in the symbols' sorted order (O(log |Σ|)).
  std::optional<std::size_t> find(std::string_view symbol) const;
  // True when every symbol is one character, so an input is read character by character.
  bool single_characters() const { return single_characters_; }

  // Splits an input string into symbol ids. With single-character symbols each character is a
  // symbol ("abba"); otherwise symbols are separated by whitespace or commas ("push a, pop").
  // Throws InputError naming `where` and the 1-based column of an unknown symbol, and for an
  // empty string when `allow_empty` is false.
  std::vector<std::size_t> tokenize(std::string_view input, const std::string& where,
                                    bool allow_empty = false) const;
  std::string join(const std::vector<std::size_t>& ids) const;  // inverse of tokenize

 private:
  std::vector<std::string> symbols_;
  std::vector<std::size_t> sorted_;  // the ids, ordered by symbol (find's binary search)
  bool single_characters_ = true;
};

}  // namespace rnncc
