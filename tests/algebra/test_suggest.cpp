// "Did you mean" (algebra/suggest.hpp): hand-checked distances (swaps, case, the optimal-string-
// alignment restriction), the distance against its recursive definition on seeded random words,
// and the suggestion rule: the limit max(1, |word|/3), ties to the first candidate, unique
// prefixes, and no suggestion when nothing is close.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "algebra/suggest.hpp"

using namespace rnncc;

namespace {

// The recurrence of algebra/suggest.hpp as written there, memoized, on exact characters (the
// random words below are lower case).
std::size_t osa_by_recursion(const std::string& a, const std::string& b) {
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> memo;
  std::function<std::size_t(std::size_t, std::size_t)> d = [&](std::size_t i, std::size_t j) {
    if (i == 0) return j;
    if (j == 0) return i;
    if (auto it = memo.find({i, j}); it != memo.end()) return it->second;
    std::size_t best = std::min(
        {d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1)});
    if (i >= 2 && j >= 2 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
      best = std::min(best, d(i - 2, j - 2) + 1);
    return memo[{i, j}] = best;
  };
  return d(a.size(), b.size());
}

// Plain Levenshtein (no swaps): the OSA distance never exceeds it.
std::size_t levenshtein(const std::string& a, const std::string& b) {
  std::vector<std::size_t> back(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) back[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      row[j] =
          std::min({back[j] + 1, row[j - 1] + 1, back[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(back, row);
  }
  return back[b.size()];
}

const std::vector<std::string> kCommands = {
    "run",     "compile", "stats", "construct",         "verify",   "eval",   "depth",
    "convert", "draw",    "equiv", "check-certificate", "minimize", "import", "import-weights"};

}  // namespace

TEST_CASE("edit distance: hand-checked values", "[algebra][suggest]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("parity", "parity") == 0);
  CHECK(edit_distance("kitten", "sitting") == 3);  // k→s, e→i, +g
  CHECK(edit_distance("flaw", "lawn") == 2);       // −f, +n
  CHECK(edit_distance("comple", "compile") == 1);  // +i
  CHECK(edit_distance("precison", "precision") == 1);
  CHECK(edit_distance("boolen", "boolean") == 1);
  CHECK(edit_distance("brent-kong", "brent-kung") == 1);
}

TEST_CASE("edit distance: a swap of adjacent characters costs one", "[algebra][suggest]") {
  CHECK(edit_distance("partiy", "parity") == 1);
  CHECK(edit_distance("lenght", "length") == 1);
  CHECK(edit_distance("ab", "ba") == 1);
  CHECK(edit_distance("abcdef", "badcfe") == 3);  // three disjoint swaps
  // Levenshtein counts a swap as two substitutions.
  CHECK(levenshtein("partiy", "parity") == 2);
  // Optimal string alignment edits no substring twice: "ca" → "ac" → "abc" would be 2 (the
  // unrestricted Damerau–Levenshtein distance), but the inserted b splits the swapped pair, so
  // OSA finds 3.
  CHECK(edit_distance("ca", "abc") == 3);
}

TEST_CASE("edit distance: ASCII letters compare case-folded, other bytes as they are",
          "[algebra][suggest]") {
  CHECK(edit_distance("Parity", "parity") == 0);
  CHECK(edit_distance("LENGHT", "length") == 1);
  CHECK(edit_distance("--Scan", "--scan") == 0);
  CHECK(edit_distance("Σ", "σ") == 2);  // UTF-8 CE A3 against CF 83: two bytes, not folded
}

TEST_CASE("edit distance equals its recurrence on seeded random words", "[algebra][suggest]") {
  std::mt19937 rng(20261202);
  std::uniform_int_distribution<int> length(0, 7), letter(0, 2);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string a, b;
    for (int i = length(rng); i > 0; --i) a += static_cast<char>('a' + letter(rng));
    for (int i = length(rng); i > 0; --i) b += static_cast<char>('a' + letter(rng));
    INFO(a << " / " << b);
    const std::size_t d = edit_distance(a, b);
    REQUIRE(d == osa_by_recursion(a, b));
    REQUIRE(d == edit_distance(b, a));  // symmetric
    REQUIRE(d <= levenshtein(a, b));
    REQUIRE(d >= (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()));
    REQUIRE(d <= std::max(a.size(), b.size()));
  }
}

TEST_CASE("suggestions: the nearest name within max(1, |word|/3)", "[algebra][suggest]") {
  CHECK(closest_name("comple", kCommands) == "compile");
  CHECK(closest_name("verfy", kCommands) == "verify");
  CHECK(closest_name("Depth", kCommands) == "depth");
  CHECK(closest_name("minimise", kCommands) == "minimize");
  CHECK(closest_name("check-certifcate", kCommands) == "check-certificate");
  CHECK(closest_name("imprt", kCommands) == "import");
  CHECK(closest_name("import-weight", kCommands) == "import-weights");
  const std::vector<std::string> kinds = {"wfa", "dwfa", "parity", "mod-count", "sn", "tm"};
  CHECK(closest_name("partiy", kinds) == "parity");
  CHECK(closest_name("parxxy", kinds) == "parity");      // 2 ≤ 6/3
  CHECK(closest_name("pxxxty", kinds) == std::nullopt);  // 3 > 6/3
  CHECK(closest_name("mod_count", kinds) == "mod-count");
  CHECK(closest_name("wf", kinds) == "wfa");  // 1 ≤ max(1, 2/3)
  CHECK(closest_name("dwaf", kinds) == "dwfa");
}

TEST_CASE("suggestions: ties go to the first candidate listed", "[algebra][suggest]") {
  CHECK(closest_name("hat", {"cat", "bat"}) == "cat");
  CHECK(closest_name("hat", {"bat", "cat"}) == "bat");
  // A nearer name wins over an earlier one (limit 2: abcdxy is 2 away, abcdex 1).
  CHECK(closest_name("abcdef", {"abcxyz", "abcdxy", "abcdex"}) == "abcdex");
  // Two kinds of the registry: "tn" is 1 from sn and from tm.
  CHECK(closest_name("tn", {"sn", "tm"}) == "sn");
  CHECK(closest_name("tn", {"tm", "sn"}) == "tm");
}

TEST_CASE("suggestions: a unique prefix, when nothing is near", "[algebra][suggest]") {
  const std::vector<std::string> flags = {"precision", "overflow", "rounding", "length"};
  CHECK(closest_name("prec", flags) == "precision");
  CHECK(closest_name("OVER", flags) == "overflow");
  CHECK(closest_name("check", kCommands) == "check-certificate");
  // Two names start with it: no guess.
  CHECK(closest_name("con", kCommands) == std::nullopt);
  // The distance rule comes first: 1 from import, although only import-weights starts so.
  CHECK(closest_name("import-", kCommands) == "import");
}

TEST_CASE("suggestions: none when nothing is close", "[algebra][suggest]") {
  CHECK(closest_name("", kCommands) == std::nullopt);
  CHECK(closest_name("zzzz", kCommands) == std::nullopt);
  CHECK(closest_name("frobnicate", kCommands) == std::nullopt);
  CHECK(closest_name("x", {}) == std::nullopt);
  // A name is never suggested for itself, even when it is the only candidate.
  CHECK(closest_name("run", {"run"}) == std::nullopt);
  CHECK(closest_name("run", {"run", "rub"}) == "rub");
  CHECK(did_you_mean("zzzz", kCommands).empty());
}

TEST_CASE("suggestions: the line and the diagnostic", "[algebra][suggest]") {
  CHECK(did_you_mean("partiy", {"wfa", "parity"}) == "did you mean parity?");
  CHECK(with_suggestion("--target: 'boolen': expected arith, boolean or threshold", "boolen",
                        {"arith", "boolean", "threshold"}) ==
        "--target: 'boolen': expected arith, boolean or threshold\ndid you mean boolean?");
  CHECK(with_suggestion("--target: 'x': expected arith, boolean or threshold", "x",
                        {"arith", "boolean", "threshold"}) ==
        "--target: 'x': expected arith, boolean or threshold");
}
