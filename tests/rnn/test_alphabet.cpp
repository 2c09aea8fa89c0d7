#include <catch2/catch.hpp>

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
