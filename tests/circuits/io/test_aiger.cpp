// AIGER: the EPFL benchmark circuits load with ABC's figures (inputs, outputs, ANDs, levels,
// from tests/data/epfl/README.md), and writing then reading
// computes the same function (bit-parallel evaluation on random patterns, the plain evaluator as
// the oracle of the writer).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "algebra/error.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

struct AbcFigures {
  const char* name;
  std::size_t inputs, outputs, ands, levels;
};
// ABC (berkeley-abc): read_aiger F; print_stats — tests/data/epfl/README.md (13 of them)
constexpr AbcFigures kEpfl[] = {
    {"adder", 256, 129, 1020, 255},
    {"arbiter", 256, 129, 11839, 87},
    {"bar", 135, 128, 3336, 12},
    {"cavlc", 10, 11, 693, 16},
    {"ctrl", 7, 26, 174, 10},
    {"dec", 8, 256, 304, 3},
    {"div", 128, 128, 57247, 4372},
    {"hyp", 256, 128, 214335, 24801},
    {"i2c", 147, 142, 1342, 20},
    {"int2float", 11, 7, 260, 16},
    {"log2", 32, 32, 32060, 444},
    {"max", 512, 130, 2865, 287},
    {"mem_ctrl", 1204, 1231, 46836, 114},
    {"multiplier", 128, 128, 27062, 274},
    {"priority", 128, 8, 978, 250},
    {"router", 60, 30, 257, 54},
    {"sin", 24, 25, 5416, 225},
    {"sqrt", 128, 64, 24618, 5058},
    {"square", 64, 128, 18484, 250},
    {"voter", 1001, 1, 13758, 70},
};

// Thirteen circuits ship with the tests (tests/data/epfl); the other seven are read from the
// whole suite where RNNCC_EPFL_DIR names a folder of its .aig files. "" when neither has it.
std::filesystem::path epfl_file(const std::string& name) {
  std::vector<std::filesystem::path> dirs = {std::filesystem::path(RNNCC_SOURCE_DIR) / "tests" /
                                             "data" / "epfl"};
  if (const char* env = std::getenv("RNNCC_EPFL_DIR")) dirs.emplace_back(env);
  for (const auto& dir : dirs)
    if (std::filesystem::exists(dir / (name + ".aig"))) return dir / (name + ".aig");
  return {};
}

std::vector<bits::Word> random_words(std::mt19937_64& rng, std::size_t n) {
  std::vector<bits::Word> w(n);
  for (auto& x : w) x = rng();
  return w;
}

}  // namespace

TEST_CASE("EPFL circuits load with ABC's inputs, outputs, ANDs and levels", "[circuits][aiger]") {
  std::size_t checked = 0;
  std::string missing;
  for (const AbcFigures& e : kEpfl) {
    INFO(e.name);
    const std::filesystem::path f = epfl_file(e.name);
    if (f.empty()) {
      missing += std::string(missing.empty() ? "" : ", ") + e.name;
      continue;
    }
    ++checked;
    Circuit c = load_aiger(f.string());
    CHECK(c.inputs().size() == e.inputs);
    CHECK(c.outputs().size() == e.outputs);
    CHECK(and_count(c) == e.ands);
    CHECK(aig_levels(c) == e.levels);
  }
  CHECK(checked >= 13);  // the shipped ones at least
  if (!missing.empty())
    WARN(
        "not checked (only in the whole suite; set RNNCC_EPFL_DIR to a folder of it): " << missing);
}

TEST_CASE("EPFL circuits survive writing (binary and ASCII) and reading", "[circuits][aiger]") {
  std::mt19937_64 rng(5);
  for (const char* name : {"ctrl", "router", "int2float", "cavlc", "dec", "adder", "multiplier"}) {
    INFO(name);
    Circuit c = load_aiger(epfl_file(name).string());
    for (AigerFormat f : {AigerFormat::binary, AigerFormat::ascii}) {
      Circuit back = parse_aiger(write_aiger(c, f), "round-trip");
      CHECK(and_count(back) == and_count(c));
      CHECK(aig_levels(back) == aig_levels(c));
      auto in = random_words(rng, c.inputs().size());
      CHECK(evaluate_bits(back, in) == evaluate_bits(c, in));
    }
  }
}

TEST_CASE("writing lowers or, xor and n-ary gates and keeps the function", "[circuits][aiger]") {
  std::mt19937_64 rng(6);
  for (int trial = 0; trial < 40; ++trial) {
    CircuitBuilder b;
    std::vector<GateId> pool;
    for (int i = 0; i < 6; ++i) pool.push_back(b.input());
    pool.push_back(b.constant(Rational(trial % 2)));
    for (int g = 0; g < 60; ++g) {
      std::vector<GateId> ops;
      for (std::size_t k = 0, n = 2 + rng() % 4; k < n; ++k)
        ops.push_back(pool[rng() % pool.size()]);
      switch (rng() % 4) {
        case 0:
          pool.push_back(b.raw(GateKind::and_, ops));
          break;
        case 1:
          pool.push_back(b.raw(GateKind::or_, ops));
          break;
        case 2:
          pool.push_back(b.raw(GateKind::xor_, ops));
          break;
        default:
          pool.push_back(b.not_(ops[0]));
      }
    }
    Circuit c = b.finish(std::vector<GateId>(pool.end() - 5, pool.end()));
    for (AigerFormat f : {AigerFormat::binary, AigerFormat::ascii}) {
      Circuit back = parse_aiger(write_aiger(c, f), "w");
      auto in = random_words(rng, 6);
      REQUIRE(evaluate_bits(back, in) == evaluate_bits(c, in));
    }
  }
  CircuitBuilder a;
  GateId x = a.input(), y = a.input();
  CHECK_THROWS_WITH(write_aiger(a.finish({a.add(x, y)}), AigerFormat::ascii),
                    Catch::Contains("AND/NOT circuits"));
}

TEST_CASE("AIGER diagnostics", "[circuits][aiger][diagnostics]") {
  auto error = [](const std::string& text, const std::string& where, const std::string& what) {
    test::expect_input_error([&] { parse_aiger(text, "f.aag"); }, where, what);
  };
  error("aag 1 0 1 0 0\n2 3\n", "f.aag:1:9", "latches");
  error("xyz 1 1 0 0 0\n", "f.aag:1:1", "expected the header");
  error("aag 3 1 0 1 1\n2\n4\n4 2 3\n", "f.aag:1:5", "M = 3 but I + L + A = 2");
  error("aag 2 1 0 1 1\n2\n4\n4 6 2\n", "f.aag:4:1", "not defined before it");
  error("aag 1 1 0 1 0\n3\n2\n", "f.aag:2:1", "input 1 must be literal 2");
  // (two bytes of AND section, as the header's counts require, but both continue the number)
  error("aig 2 1 0 1 1\n4\n\x80\x80", "f.aag:3:1", "ends in the middle of a number");
  error("aig 2 1 0 1 1\n4\n", "f.aag:1:11", "declares 2 output and AND lines");
  Circuit ok = parse_aiger("aag 3 2 0 1 1\n2\n4\n7\n6 2 5\no0 y\n", "f.aag");
  CHECK(ok.output_names() == std::vector<std::string>{"y"});
  const bits::Word in[] = {0b1100, 0b1010};
  CHECK(evaluate_bits(ok, in)[0] == ~(0b1100ull & ~0b1010ull));  // ¬(a ∧ ¬b)
}

TEST_CASE("AIGER: the symbol table names inputs and outputs, written and read",
          "[circuits][aiger]") {
  // Hand-checked: two inputs, one AND, the symbol table in the netlist spelling (',' is %2C).
  const std::string aag =
      "aag 3 2 0 2 1\n2\n4\n6\n3\n6 2 4\ni0 x[1%2C0]\ni1 b\no0 y[0]\no1 nx\n"
      "c\nfree text\ni9 not a symbol\n";
  const Circuit c = parse_aiger(aag, "f.aag");
  CHECK(c.input_names() == std::vector<std::string>{"x[1,0]", "b"});
  CHECK(c.output_names() == std::vector<std::string>{"y[0]", "nx"});
  // Written back: every input and output named, in both forms, then the comment section.
  const std::string out = write_aiger(c, AigerFormat::ascii);
  CHECK(out ==
        "aag 3 2 0 2 1\n2\n4\n6\n3\n6 4 2\ni0 x[1%2C0]\ni1 b\no0 y[0]\no1 nx\n"
        "c\nwritten by rnncc\n");
  const std::string bin = write_aiger(c, AigerFormat::binary);
  CHECK_THAT(bin, Catch::EndsWith("i0 x[1%2C0]\ni1 b\no0 y[0]\no1 nx\nc\nwritten by rnncc\n"));
  for (const std::string& text : {out, bin}) {
    const Circuit back = parse_aiger(text, "back");
    CHECK(back.input_names() == c.input_names());
    CHECK(back.output_names() == c.output_names());
  }
  // A partial table: unnamed inputs are i<n>, unnamed outputs o<n>; no table at all: the same.
  const Circuit partial = parse_aiger("aag 3 2 0 2 1\n2\n4\n6\n3\n6 2 4\ni1 b\no1 q\n", "p.aag");
  CHECK(partial.input_names() == std::vector<std::string>{"i0", "b"});
  CHECK(partial.output_names() == std::vector<std::string>{"o0", "q"});
  const Circuit bare = parse_aiger("aag 3 2 0 2 1\n2\n4\n6\n3\n6 2 4\n", "p.aag");
  CHECK(bare.input_names() == std::vector<std::string>{"i0", "i1"});
  CHECK(write_aiger(bare, AigerFormat::ascii) ==
        "aag 3 2 0 2 1\n2\n4\n6\n3\n6 4 2\ni0 i0\ni1 i1\no0 o0\no1 o1\nc\nwritten by rnncc\n");
  // CRLF line ends: the '\r' is not part of the name.
  const Circuit crlf = parse_aiger("aag 1 1 0 1 0\n2\n2\ni0 a\r\no0 z\r\n", "p.aag");
  CHECK(crlf.input_names() == std::vector<std::string>{"a"});
  CHECK(crlf.output_names() == std::vector<std::string>{"z"});
}

TEST_CASE("AIGER: malformed symbol tables are diagnostics at file:line:column",
          "[circuits][aiger][diagnostics]") {
  auto error = [](const std::string& text, const std::string& where, const std::string& what) {
    test::expect_input_error([&] { parse_aiger(text, "f.aag"); }, where, what);
  };
  const std::string head = "aag 1 1 0 1 0\n2\n2\n";  // one input, its output; symbols on line 4
  error(head + "i1 a\n", "f.aag:4:2", "symbol index 1 out of range (the file has 1 inputs)");
  error(head + "o3 a\n", "f.aag:4:2", "symbol index 3 out of range (the file has 1 outputs)");
  error(head + "ix a\n", "f.aag:4:2", "expected an input index after 'i'");
  error(head + "o\n", "f.aag:4:2", "expected an output index after 'o'");
  error(head + "i0a\n", "f.aag:4:3", "expected ' name' after the symbol index");
  error(head + "i0 \n", "f.aag:4:4", "expected a symbol name");
  error(head + "i0 a\ni0 b\n", "f.aag:5:1", "input 0 is named twice (first at 4:1)");
  error(head + "o0 a\no0 b\n", "f.aag:5:1", "output 0 is named twice (first at 4:1)");
  error(head + "l0 a\n", "f.aag:4:1", "latch symbols in a file without latches");
  error(head + "b0 a\n", "f.aag:4:1", "expected a symbol line");
  error(head + "i0 a\ncomment\n", "f.aag:5:2", "expected the end of the line after 'c'");
  error(head + "i0 \xff\n", "f.aag:4:4", "expected a UTF-8 name (byte 0xFF is not UTF-8)");
}
