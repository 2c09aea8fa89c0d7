// BLIF: hand-written files with known truth tables; write/read round trips of random boolean
// circuits of every kind and of EPFL circuits, compared bit-parallel on random patterns; the
// threshold lowering against the threshold evaluator; one test per diagnostic.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <random>

#include "algebra/error.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/circuit_json.hpp"
#include "tests/circuits/random_circuits.hpp"

#include "tests/circuits/netlist_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using testing::check_same_function;
using testing::epfl_dir;
using testing::truth_table;

namespace {

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { parse_blif(text, "f.blif"); }, where, what);
}

}  // namespace

TEST_CASE("BLIF: a hand-written file reads with the expected functions", "[circuits][blif]") {
  const std::string text =
      "# a small netlist\n"
      ".model small  # trailing comment\n"
      ".inputs a b \\\n"
      "   c\n"
      ".outputs and_ab maj nand_bc xor3 one zero pass a\n"
      ".names t maj\n"  // used before it is defined
      "1 1\n"
      ".names a b c t\n"
      "11- 1\n"
      "1-1 1\n"
      "-11 1\n"
      ".names a b and_ab\n"
      "11 1\n"
      ".names b c nand_bc\n"
      "11 0\n"  // off-set
      ".names a b c xor3\n"
      "100 1\n010 1\n001 1\n111 1\n"
      ".names one\n"
      " 1\n"  // ABC writes constants with a leading blank
      ".names zero\n"
      ".names c pass\n"
      "1 1\n"
      ".end\n";
  Circuit c = parse_blif(text, "small.blif");
  REQUIRE(c.inputs().size() == 3);
  CHECK(c.input_names() == std::vector<std::string>{"a", "b", "c"});
  CHECK(c.output_names() ==
        std::vector<std::string>{"and_ab", "maj", "nand_bc", "xor3", "one", "zero", "pass", "a"});
  // Minterm m: a = bit 0, b = bit 1, c = bit 2.
  CHECK(truth_table(c, 0) == 0b10001000);  // a ∧ b
  CHECK(truth_table(c, 1) == 0b11101000);  // majority
  CHECK(truth_table(c, 2) == 0b00111111);  // ¬(b ∧ c)
  CHECK(truth_table(c, 3) == 0b10010110);  // a ⊕ b ⊕ c
  CHECK(truth_table(c, 4) == 0xFF);
  CHECK(truth_table(c, 5) == 0);
  CHECK(truth_table(c, 6) == 0b11110000);           // c
  CHECK(truth_table(c, 7) == 0b10101010);           // a
  CHECK(c.kind(c.outputs()[3]) == GateKind::xor_);  // a parity cover is an xor gate
  CHECK(c.outputs()[6] == c.inputs()[2]);           // a buffer is the signal itself
}

TEST_CASE("BLIF: off-set parity covers, don't cares and duplicate fanins", "[circuits][blif]") {
  Circuit c = parse_blif(
      ".model m\n.inputs a b\n.outputs xnor f g\n"
      ".names a b xnor\n01 0\n10 0\n"  // off-set of the odd minterms: a ⊙ b
      ".names a a b f\n1-1 1\n"        // a listed twice
      ".names a b g\n-- 1\n"           // a cube of don't cares: constant 1
      ".end\n",
      "m.blif");
  CHECK(truth_table(c, 0) == 0b1001);
  CHECK(truth_table(c, 1) == 0b1000);
  CHECK(truth_table(c, 2) == 0b1111);
}

TEST_CASE("BLIF: random boolean circuits of every kind survive writing and reading",
          "[circuits][blif]") {
  std::mt19937_64 rng(61);
  for (int trial = 0; trial < 60; ++trial) {
    INFO("trial " << trial);
    Circuit c = testing::random_boolean_circuit(rng, 3 + trial % 9, 20 + 7 * trial, 8);
    const std::string text = write_blif(c, "random");
    Circuit back = parse_blif(text, "random.blif");
    CHECK(back.input_names().size() == c.inputs().size());
    CHECK(back.output_names().size() == 8);
    check_same_function(c, back, rng);
    // Reading what was read and written again changes nothing: a fixed point.
    const std::string again = write_blif(back, "random");
    CHECK(write_blif(parse_blif(again, "again.blif"), "random") == again);
  }
}

TEST_CASE("BLIF: names are kept, escaped, made unique and read back", "[circuits][blif]") {
  CircuitBuilder b;
  const GateId x = b.input("x[1,a]"), y = b.input("has space"), z = b.input(""), w = b.input("n4");
  const GateId ops[] = {x, y};
  const GateId g = b.raw(GateKind::and_, ops);
  // g twice (the second output copies it), the input x under its own name and under another.
  Circuit c = b.finish({g, g, x, x, z, w}, {"y", "y", "x[1,a]", "copy", "", ".dot"});
  const std::string text = write_blif(c, "names test");
  // The netlist spelling (docs/formats.md): ',' is %2C, a blank %20, a leading '.' %2E.
  CHECK_THAT(text, Catch::Contains(".model names%20test"));
  CHECK_THAT(text, Catch::Contains(".inputs x[1%2Ca] has%20space i2 n4"));
  CHECK_THAT(text, Catch::Contains(".outputs y y_1 x[1%2Ca] copy o4 %2Edot"));
  Circuit back = parse_blif(text, "names.blif");
  CHECK(back.input_names() == std::vector<std::string>{"x[1,a]", "has space", "i2", "n4"});
  CHECK(back.output_names() ==
        std::vector<std::string>{"y", "y_1", "x[1,a]", "copy", "o4", ".dot"});
  std::mt19937_64 rng(3);
  check_same_function(c, back, rng);
}

TEST_CASE("BLIF: xor, duplicate operands and constants are written exactly", "[circuits][blif]") {
  CircuitBuilder b;
  std::vector<GateId> in;
  for (int i = 0; i < 7; ++i) in.push_back(b.input());
  const GateId one = b.constant(Rational(1)), zero = b.constant(Rational(0));
  const GateId x7 = b.raw(GateKind::xor_, in);  // a tree of 6 xor2 covers
  const GateId xx[] = {in[0], in[0], in[1]};    // x ⊕ x ⊕ y = y
  const GateId x_dup = b.raw(GateKind::xor_, xx);
  const GateId xz[] = {in[2], in[2]};  // 0
  const GateId x_zero = b.raw(GateKind::xor_, xz);
  const GateId aa[] = {in[3], in[3], one};  // a ∧ a ∧ 1 = a
  const GateId a_dup = b.raw(GateKind::and_, aa);
  const GateId oz[] = {in[4], zero};
  const GateId o_zero = b.raw(GateKind::or_, oz);
  Circuit c = b.finish({x7, x_dup, x_zero, a_dup, o_zero, one, zero});
  const std::string text = write_blif(c);
  CHECK(std::count(text.begin(), text.end(), '\n') > 20);
  Circuit back = parse_blif(text, "x.blif");
  std::mt19937_64 rng(4);
  check_same_function(c, back, rng);
  CHECK(back.kind(back.outputs()[0]) == GateKind::xor_);
}

TEST_CASE("BLIF: a wide majority is written without an exponential cover", "[circuits][blif]") {
  CircuitBuilder b;
  std::vector<GateId> in;
  for (int i = 0; i < 101; ++i) in.push_back(b.input());
  Circuit c = b.finish({b.raw(GateKind::maj, in)});
  const std::string text = write_blif(c);
  CHECK(text.size() < 100000);
  Circuit back = parse_blif(text, "maj.blif");
  std::mt19937_64 rng(5);
  check_same_function(c, back, rng, 16);
}

TEST_CASE("BLIF: EPFL circuits survive writing and reading", "[circuits][blif]") {
  std::mt19937_64 rng(63);
  for (const char* name : {"ctrl", "router", "int2float", "cavlc", "dec", "adder", "i2c", "bar",
                           "priority", "sin", "multiplier"}) {
    INFO(name);
    Circuit c = load_aiger((epfl_dir() / (std::string(name) + ".aig")).string());
    Circuit back = parse_blif(write_blif(c, name), std::string(name) + ".blif");
    // An AIG's ANDs and inverters map one to one onto covers and back.
    CHECK(and_count(back) == and_count(c));
    CHECK(aig_levels(back) == aig_levels(c));
    check_same_function(c, back, rng, 8);
  }
}

TEST_CASE("BLIF writing refuses circuits that are not boolean", "[circuits][blif]") {
  CircuitBuilder a;
  const GateId x = a.input(), y = a.input();
  CHECK_THROWS_WITH(write_blif(a.finish({a.add(x, y)})),
                    Catch::Contains("gate 2 is add: BLIF holds boolean circuits"));
  CircuitBuilder p;
  const GateId u = p.input();
  CHECK_THROWS_WITH(write_blif(p.finish({p.positive(u)})), Catch::Contains("gate 1 is positive"));
  CircuitBuilder k;
  k.input();
  const GateId h = k.constant(Rational(3, 4));
  test::expect_input_error([&] { write_blif(k.finish({h})); }, "blif",
                           "gate 1 is the constant 3/4");
}

TEST_CASE("BLIF diagnostics", "[circuits][blif][diagnostics]") {
  const std::string head = ".model m\n.inputs a b\n.outputs y\n";  // lines 1-3
  expect_error(".inputs a\n", "f.blif:1:1", "expected '.model NAME' first, got '.inputs'");
  expect_error("# only a comment\n", "f.blif:2:1",
               "expected '.model NAME' first, got the end of the file");
  expect_error(head + ".names a b y\n11 1\n.end\n.model n\n", "f.blif:7:1",
               "expected nothing after .end, got '.model'");
  expect_error(head + ".names a b y\n11 1\n.model n\n", "f.blif:6:1",
               "sequential/hierarchical BLIF is not supported: a second .model");
  expect_error(head + ".latch a y re clk 0\n", "f.blif:4:1",
               "sequential/hierarchical BLIF is not supported: .latch");
  expect_error(head + ".subckt adder a=a b=b s=y\n", "f.blif:4:1",
               "sequential/hierarchical BLIF is not supported: .subckt");
  expect_error(head + ".gate nand2 A=a B=b O=y\n", "f.blif:4:1",
               "sequential/hierarchical BLIF is not supported: .gate");
  expect_error(head + ".exdc\n", "f.blif:4:1", "unknown BLIF directive '.exdc'");
  expect_error(head + ".names\n", "f.blif:4:1", ".names needs at least an output signal");
  expect_error(head + "11 1\n", "f.blif:4:1", "a cover row outside .names");
  expect_error(head + ".names a b y\n111 1\n", "f.blif:5:1",
               "the cube '111' has 3 literals but .names has 2 inputs");
  expect_error(head + ".names a b y\n1x 1\n", "f.blif:5:2",
               "expected 0, 1 or - in a cube, got 'x'");
  expect_error(head + ".names a b y\n11\n", "f.blif:5:3",
               "expected the output value 0 or 1 after the cube");
  expect_error(head + ".names a b y\n11 2\n", "f.blif:5:4",
               "expected the output value 0 or 1, got '2'");
  expect_error(head + ".names y\n-\n", "f.blif:5:1", "this .names has no inputs");
  expect_error(head + ".names a b y\n11 1 1\n", "f.blif:5:6",
               "unexpected '1' after the output value");
  expect_error(head + ".names a b y\n11 1\n00 0\n", "f.blif:6:4",
               "the cover mixes on-set rows (output 1) and off-set rows (output 0)");
  expect_error(head + ".names a z y\n11 1\n", "f.blif:4:10",
               "signal 'z' is used but never defined");
  expect_error(".model m\n.inputs a\n.outputs y q\n.names a y\n1 1\n", "f.blif:3:12",
               "signal 'q' is used but never defined");
  expect_error(head + ".names a y\n1 1\n.names b y\n1 1\n", "f.blif:6:10",
               "signal 'y' is defined twice (first defined at 4:10)");
  expect_error(head + ".names b a\n1 1\n", "f.blif:4:10",
               "signal 'a' is defined twice (first declared an input at 2:9)");
  expect_error(".model m\n.inputs a b a\n", "f.blif:2:13",
               "input 'a' is declared twice (first at 2:9)");
  expect_error(".model m\n.inputs a\n.outputs y y\n.names a y\n1 1\n", "f.blif:3:12",
               "output 'y' is declared twice (first at 3:10)");
  expect_error(head + ".names a q y\n11 1\n.names y b q\n11 1\n", "f.blif:6:8",
               "combinational cycle: y -> q -> y (each signal reads the next)");
  expect_error(head + ".names a y y\n11 1\n", "f.blif:4:10", "combinational cycle: y -> y");
  // Ignored: timing directives; missing .end is accepted.
  Circuit ok = parse_blif(head + ".area 3\n.names a b y\n01 1\n", "f.blif");
  CHECK(truth_table(ok, 0) == 0b0100);
}

TEST_CASE("write_circuit and load_circuit go through every format by extension",
          "[circuits][blif][iscas]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("rnncc-write-circuit-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(64);
  const Circuit c = testing::random_boolean_circuit(rng, 9, 150, 8);  // maj and thr included
  for (const char* ext : {".json", ".aig", ".aag", ".blif", ".bench"}) {
    INFO(ext);
    const std::string path = (dir / (std::string("c") + ext)).string();
    write_circuit(c, path);
    const CompiledCircuit back = load_circuit(path);
    check_same_function(c, back.circuit, rng);
  }
  // Refusals name the file and leave nothing behind.
  CircuitBuilder a;
  const GateId x = a.input(), y = a.input();
  const Circuit arith = a.finish({a.add(x, y)});
  for (const char* name : {"bad.blif", "bad.bench", "bad.aig", "bad.txt"}) {
    INFO(name);
    const std::string path = (dir / name).string();
    test::expect_input_error([&] { write_circuit(arith, path); }, path,
                             std::string(name) == "bad.txt"
                                 ? "expected an output file ending in .json"
                                 : "gate 2 is add");
    CHECK_FALSE(std::filesystem::exists(path));
    CHECK_FALSE(std::filesystem::exists(path + ".tmp-rnncc"));
  }
  std::filesystem::remove_all(dir);
}
