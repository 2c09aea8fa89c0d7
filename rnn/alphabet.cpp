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
  std::unordered_set<std::string_view> seen;
  if (symbols_.empty()) throw InputError(where, "expected a non-empty alphabet, got []");
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
    if (!seen.insert(s).second)  // a set, not a rescan: an alphabet of 10^6 symbols is linear
      throw InputError(where + "/" + std::to_string(i), "symbol '" + s + "' is repeated");
    if (s.size() != 1) single_characters_ = false;
  }
}

std::optional<std::size_t> Alphabet::find(std::string_view symbol) const {
  for (std::size_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i] == symbol) return i;
  return std::nullopt;
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
