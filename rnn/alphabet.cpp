#include "rnn/alphabet.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "algebra/error.hpp"
#include "rnn/utf8.hpp"

namespace rnncc {

namespace {
bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',';
}

std::string listing(const std::vector<std::string>& symbols) {
  std::string out = "{";
  for (std::size_t i = 0; i < symbols.size(); ++i) out += (i ? ", " : "") + symbols[i];
  return out + "}";
}
}  // namespace

Alphabet::Alphabet(std::vector<std::string> symbols, const std::string& where)
    : symbols_(std::move(symbols)) {
  if (symbols_.empty()) throw InputError(where, "expected a non-empty alphabet, got []");
  sorted_.resize(symbols_.size());
  for (std::size_t i = 0; i < sorted_.size(); ++i) sorted_[i] = i;
  // Equal symbols end up adjacent, in the order of their ids (stable); the first repeat is the
  // least id that equals an earlier symbol, as a scan of the file would meet it.
  std::stable_sort(sorted_.begin(), sorted_.end(),
                   [&](std::size_t a, std::size_t b) { return symbols_[a] < symbols_[b]; });
  std::size_t repeat = symbols_.size();
  for (std::size_t k = 1; k < sorted_.size(); ++k)
    if (symbols_[sorted_[k]] == symbols_[sorted_[k - 1]]) repeat = std::min(repeat, sorted_[k]);
  for (std::size_t i = 0; i < symbols_.size(); ++i) {
    const std::string& s = symbols_[i];
    if (s.empty()) throw InputError(where + "/" + std::to_string(i), "expected a non-empty symbol");
    if (auto bad = first_invalid_utf8(s))  // symbols are written out (JSON, DOT, reports)
      throw InputError(where + "/" + std::to_string(i), "expected a UTF-8 symbol, got " +
                                                            byte_name(s[*bad]) + " at byte " +
                                                            std::to_string(*bad));
    if (std::any_of(s.begin(), s.end(), is_separator))
      throw InputError(where + "/" + std::to_string(i),
                       "symbol '" + s + "' contains whitespace or ','; those separate symbols");
    if (i == repeat)
      throw InputError(where + "/" + std::to_string(i), "symbol '" + s + "' is repeated");
    if (s.size() != 1) single_characters_ = false;
  }
}

std::optional<std::size_t> Alphabet::find(std::string_view symbol) const {
  const auto it =
      std::lower_bound(sorted_.begin(), sorted_.end(), symbol,
                       [&](std::size_t id, std::string_view s) { return symbols_[id] < s; });
  if (it == sorted_.end() || symbols_[*it] != symbol) return std::nullopt;
  return *it;
}

std::vector<std::size_t> Alphabet::tokenize(std::string_view input, const std::string& where,
                                            bool allow_empty) const {
  std::vector<std::size_t> ids;
  auto unknown = [&](std::string_view token, std::size_t column) {
    return InputError(
        where + ":" + std::to_string(column),
        "'" + std::string(token) + "' is not a symbol of the alphabet " + listing(symbols_));
  };
  if (single_characters_) {
    for (std::size_t i = 0; i < input.size(); ++i) {
      auto id = find(input.substr(i, 1));
      if (!id) throw unknown(input.substr(i, 1), i + 1);
      ids.push_back(*id);
    }
  } else {
    std::size_t i = 0;
    while (i < input.size()) {
      if (is_separator(input[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < input.size() && !is_separator(input[j])) ++j;
      auto id = find(input.substr(i, j - i));
      if (!id) throw unknown(input.substr(i, j - i), i + 1);
      ids.push_back(*id);
      i = j;
    }
  }
  if (ids.empty() && !allow_empty)
    throw InputError(
        where, "expected a non-empty string over " + listing(symbols_) + ", got an empty one");
  return ids;
}

std::string Alphabet::join(const std::vector<std::size_t>& ids) const {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i && !single_characters_) out += ' ';
    out += symbol(ids[i]);
  }
  return out;
}

}  // namespace rnncc
