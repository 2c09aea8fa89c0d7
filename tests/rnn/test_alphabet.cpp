#include <catch2/catch.hpp>
#include <optional>
#include <random>

#include "algebra/error.hpp"
#include "rnn/alphabet.hpp"

using namespace rnncc;

TEST_CASE("single-character alphabets read character by character", "[rnn][alphabet]") {
  Alphabet a({"0", "1"}, "t");
  CHECK(a.single_characters());
  CHECK(a.tokenize("0110", "in") == std::vector<std::size_t>{0, 1, 1, 0});
  CHECK(a.join({1, 0}) == "10");
  CHECK_THROWS_WITH(a.tokenize("01a1", "input 1"),
                    Catch::Contains("input 1:3: 'a' is not a symbol of the alphabet {0, 1}"));
  CHECK_THROWS_WITH(a.tokenize("", "input 2"),
                    Catch::Contains("input 2: expected a non-empty string"));
  CHECK(a.tokenize("", "x", true).empty());
}

TEST_CASE("multi-character alphabets read separated tokens", "[rnn][alphabet]") {
  Alphabet a({"push", "pop", "x"}, "t");
  CHECK_FALSE(a.single_characters());
  CHECK(a.tokenize("push x,pop  pop", "in") == std::vector<std::size_t>{0, 2, 1, 1});
  CHECK(a.join({0, 2}) == "push x");
  CHECK_THROWS_WITH(a.tokenize("push poop", "in"), Catch::Contains("in:6: 'poop'"));
  CHECK_THROWS_WITH(a.tokenize(" , ", "in"), Catch::Contains("non-empty"));
}

// The alphabet finds repeats in sorted order and symbols by binary search (issue 25: comparing
// every pair was quadratic, 0.25 s for 13 000 symbols, found by the size-scaling fuzz target);
// the plain twins here are the pairwise scan and the linear search.
TEST_CASE("alphabets: repeats and lookups agree with the pairwise scan", "[rnn][alphabet]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::string> symbols(1 + rng() % 12);
    for (std::string& s : symbols)
      s = std::string(1 + rng() % 2, static_cast<char>('a' + rng() % 5));
    if (rng() % 4 == 0) symbols[rng() % symbols.size()] = "x y";  // an invalid symbol too
    std::optional<std::string> expected;                          // the first problem in file order
    for (std::size_t i = 0; i < symbols.size() && !expected; ++i) {
      if (symbols[i] == "x y") expected = "t/" + std::to_string(i) + ": symbol 'x y' contains";
      for (std::size_t j = 0; j < i && !expected; ++j)
        if (symbols[j] == symbols[i])
          expected = "t/" + std::to_string(i) + ": symbol '" + symbols[i] + "' is repeated";
    }
    if (expected) {
      CHECK_THROWS_WITH(Alphabet(symbols, "t"), Catch::StartsWith(*expected));
      continue;
    }
    const Alphabet a(symbols, "t");
    for (const char* probe : {"a", "b", "aa", "ee", "c", "z", ""}) {
      std::optional<std::size_t> linear;
      for (std::size_t i = 0; i < symbols.size(); ++i)
        if (symbols[i] == probe) linear = i;
      CHECK(a.find(probe) == linear);
    }
  }
  // A large alphabet reads in O(|Σ| log |Σ|).
  std::vector<std::string> many;
  for (int i = 0; i < 100000; ++i) many.push_back("s" + std::to_string(i));
  const Alphabet big(many, "t");
  CHECK(big.find("s99999") == std::optional<std::size_t>(99999));
  many.push_back("s5");
  CHECK_THROWS_WITH(Alphabet(many, "t"), "t/100000: symbol 's5' is repeated");
}
