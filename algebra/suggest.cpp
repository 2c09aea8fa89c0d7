#include "algebra/suggest.hpp"

#include <algorithm>
#include <vector>

namespace rnncc {

namespace {

char fold(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool starts_with_folded(std::string_view name, std::string_view prefix) {
  if (prefix.size() > name.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (fold(name[i]) != fold(prefix[i])) return false;
  return true;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the table d (header): d(i−2, ·), d(i−1, ·) and d(i, ·).
  const std::size_t m = b.size();
  std::vector<std::size_t> two_back(m + 1), back(m + 1), row(m + 1);
  for (std::size_t j = 0; j <= m; ++j) back[j] = j;  // d(0, j)
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const bool same = fold(a[i - 1]) == fold(b[j - 1]);
      row[j] = std::min({back[j] + 1, row[j - 1] + 1, back[j - 1] + (same ? 0 : 1)});
      if (i >= 2 && j >= 2 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
        row[j] = std::min(row[j], two_back[j - 2] + 1);  // swap of a_{i−1} a_i
    }
    std::swap(two_back, back);
    std::swap(back, row);
  }
  return back[m];
}

std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  if (word.empty()) return std::nullopt;
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  const std::string* best = nullptr;
  std::size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {  // strict: the first of a tie stays
      best = &c;
      best_distance = d;
    }
  }
  if (best) return *best;
  const std::string* extension = nullptr;
  for (const std::string& c : candidates) {
    if (c == word || !starts_with_folded(c, word)) continue;
    if (extension && *extension != c) return std::nullopt;  // two names start so: no guess
    extension = &c;
  }
  if (extension) return *extension;
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::optional<std::string> name = closest_name(word, candidates);
  return name ? "did you mean " + *name + "?" : std::string();
}

std::string with_suggestion(std::string message, std::string_view word,
                            const std::vector<std::string>& candidates) {
  const std::string line = did_you_mean(word, candidates);
  if (!line.empty()) message += "\n" + line;
  return message;
}

std::string with_suggestion_before_colon(std::string message, std::string_view value,
                                         const std::vector<std::string>& names) {
  const std::size_t colon = std::min(value.find(':'), value.size());
  if (const std::optional<std::string> name = closest_name(value.substr(0, colon), names))
    message += "\ndid you mean " + *name + std::string(value.substr(colon)) + "?";
  return message;
}

}  // namespace rnncc
