// Issue 14 ("Nothing crashes"), model files: nesting depth, UTF-8 names, sizes that a file
// declares but does not contain, and the d = 1024 diagonal model whose run took 20 s.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "algebra/exact.hpp"
#include "algebra/fixed_point.hpp"
#include "algebra/modp.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/json_cursor.hpp"
#include "rnn/model_json.hpp"
#include "rnn/utf8.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using namespace rnncc::test;

TEST_CASE("parse_json refuses nesting deeper than the limit, at the bracket's line:column",
          "[rnn][json][untrusted]") {
  // 100 000 '[' overflowed the stack of an AddressSanitizer build.
  const std::string open(100000, '[');
  expect_input_error([&] { (void)parse_json(open, "deep.json"); }, "deep.json:1:65",
                     "JSON nested deeper than 64 levels");
  // Brackets inside strings do not count toward the reported position; a closed document is
  // refused too (before any recursive comparison or dump could walk it).
  const std::string closed = "{\"a[[\": " + std::string(70, '[') + std::string(70, ']') + "}";
  expect_input_error([&] { (void)parse_json(closed, "m.json"); }, "m.json:1:72",
                     "nested deeper than 64 levels");
  // At the limit it parses.
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  CHECK(parse_json(ok, "ok.json").is_array());
  // The model reader answers with the same diagnostic.
  expect_input_error([&] { (void)parse_model(open, "deep.json"); }, "deep.json:1:65",
                     "nested deeper than 64 levels");
}

TEST_CASE("a number beyond a double is malformed JSON, not an escaping exception",
          "[rnn][json][untrusted]") {
  // Fuzzer finding (corpus/model_json/crash-number-overflow-1e400): nlohmann throws
  // out_of_range 406, which escaped parse_json and ended in std::terminate.
  expect_input_error([] { (void)parse_json("[1,\n 1e400]", "n.json"); }, "n.json:2:2",
                     "malformed JSON: number overflow parsing '1e400'");
  expect_input_error([] { (void)parse_model("1e400", "n.json"); }, "n.json:1:1", "number overflow");
}

TEST_CASE("UTF-8: names are checked where they are read", "[rnn][untrusted]") {
  CHECK(!first_invalid_utf8("ab é ∑ 😀"));
  CHECK(first_invalid_utf8("a\xff") == std::optional<std::size_t>(1));
  CHECK(first_invalid_utf8("\xc0\xaf") == std::optional<std::size_t>(0));          // overlong
  CHECK(first_invalid_utf8("x\xed\xa0\x80") == std::optional<std::size_t>(1));     // surrogate
  CHECK(first_invalid_utf8("\xe2\x88") == std::optional<std::size_t>(0));          // truncated
  CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == std::optional<std::size_t>(0));  // > U+10FFFF
  expect_input_error(
      [] {
        Alphabet({"a", "b\xfe"}, "--alphabet");
      },
      "--alphabet/1", "expected a UTF-8 symbol, got byte 0xFE at byte 1");
  // JSON strings that are not UTF-8 are malformed JSON (a model name, a symbol).
  expect_input_error([] { (void)parse_model("{\"name\": \"x\xff\"}", "m.json"); }, "m.json:1:12",
                     "malformed JSON");
}

TEST_CASE("a layer's declared size is checked before anything is built",
          "[rnn][model_json][untrusted]") {
  // 200 bytes declaring two 4096×4096 matrices of A (a mamba2 layer gives one number per
  // symbol): refused before allocating.
  const std::string text = R"({"alphabet": ["a", "b"], "layers": [{"kind": "lrnn",
    "family": "mamba2", "d": 4096, "symbols": {"a": {"decay": 1}, "b": {"decay": 1}},
    "readout": [[1]]}]})";
  expect_input_error([&] { (void)parse_model(text, "big.json"); }, "big.json: /layers/0/d",
                     "stores 33566720 matrix entries; at most 16777216");
  // m counts too (S_0 and every B are d×m).
  const std::string wide = R"({"alphabet": ["a"], "layers": [{"kind": "lrnn",
    "family": "mamba2", "d": 4096, "m": 4096, "symbols": {"a": {"decay": 1}},
    "readout": [[1]]}]})";
  expect_input_error([&] { (void)parse_model(wide, "wide.json"); }, "wide.json: /layers/0/d",
                     "matrix entries; at most 16777216");
}

TEST_CASE("the d = 1024 diagonal model of issue 14 runs (diagonal steps are O(d))",
          "[rnn][evaluate][untrusted]") {
  const Model model =
      load_model(std::string(RNNCC_SOURCE_DIR) + "/tests/cli/models/diagonal_d1024.json");
  const RationalField Q;
  const auto w = model.alphabet.tokenize("aabbb", "input");
  const auto y = evaluate(model, Q, w).outputs();
  REQUIRE(y.size() == 5);
  CHECK(y[1](0, 0) == Rational(256));   // 1024·2^-2
  CHECK(y[4](0, 0) == Rational(2048));  // 1024·2^(3-2)
}

// The diagonal path (O(d·m) a step) against the dense one: the same layer as `general`.
TEST_CASE("diagonal families: the O(d) step equals the dense step in every domain",
          "[rnn][evaluate][differential][untrusted]") {
  std::mt19937_64 rng(14);
  const RationalField Q;
  const ModP F(2305843009213693951ull);
  const FixedPoint L(FixedFormat{8, 12, Rounding::nearest_even, Overflow::saturate});
  for (Family family : {Family::diagonal, Family::s4, Family::mamba2, Family::gla}) {
    for (int trial = 0; trial < 6; ++trial) {
      const std::size_t d = 1 + rng() % 4, m = 1 + rng() % 2, sigma = 2 + rng() % 2,
                        n = 1 + rng() % 10;
      const LrnnLayer diag = random_layer(rng, family, d, m, sigma);
      LrnnLayer dense = diag;
      dense.family = Family::general;
      dense.record.assign(dense.features, NoParams{});
      const Model a = single_layer_model(diag, sigma), b = single_layer_model(dense, sigma);
      const auto w = random_input(rng, n, sigma);
      INFO("family " << to_string(family) << ", trial " << trial);
      const auto eq = [](const auto& k, const auto& x, const auto& y) {
        for (std::size_t t = 0; t < x.size(); ++t)
          for (std::size_t i = 0; i < x[t].data().size(); ++i)
            REQUIRE(k.equal(x[t].data()[i], y[t].data()[i]));
      };
      eq(Q, evaluate(a, Q, w).layers[0].states, evaluate(b, Q, w).layers[0].states);
      eq(F, evaluate(a, F, w).layers[0].states, evaluate(b, F, w).layers[0].states);
      eq(L, evaluate(a, L, w).layers[0].states, evaluate(b, L, w).layers[0].states);
      eq(L, evaluate(a, L, w).outputs(), evaluate(b, L, w).outputs());
    }
  }
}

// The input size limit of every file reader (read_file_bytes): a regular file is refused by its
// size before it is read, a device or a pipe after the limit's worth of bytes; exactly the limit
// is admitted; RNNCC_MAX_INPUT_MIB and set_max_input_mib set it (0: none).
TEST_CASE("file readers refuse inputs larger than the input size limit", "[rnn][input]") {
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/rnncc-input-limit-test.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string((std::size_t{1} << 20) + 1, ' ');
  }
  set_max_input_mib(1);
  CHECK(max_input_mib() == 1);
  CHECK_THROWS_WITH(read_text_file(path, "model file"),
                    path +
                        ": the model file is larger than the input size limit of 1 MiB (raise "
                        "--max-input or RNNCC_MAX_INPUT_MIB to read it anyway)");
  CHECK_THROWS_WITH(read_text_file("/dev/zero", "circuit file"),
                    "/dev/zero: the circuit file is larger than the input size limit of 1 MiB "
                    "(raise --max-input or RNNCC_MAX_INPUT_MIB to read it anyway)");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << std::string(std::size_t{1} << 20, 'x');
  }
  CHECK(read_text_file(path, "model file").size() == (std::size_t{1} << 20));
  check_input_size(path, "model file", std::size_t{1} << 20);
  CHECK_THROWS_AS(check_input_size(path, "model file", (std::size_t{1} << 20) + 1), InputError);
  set_max_input_mib(0);  // no limit
  CHECK_NOTHROW(check_input_size(path, "model file", std::uint64_t{1} << 50));
  set_max_input_mib(kDefaultMaxInputMiB);
  std::remove(path.c_str());
  CHECK_THROWS_WITH(read_text_file(path, "model file"), path + ": cannot open the model file");
}
