// ISCAS-89 .bench: a hand-written file with known truth tables (every gate type, ABC's LUT and
// constants); write/read round trips of random boolean circuits and EPFL circuits, compared
// bit-parallel; one test per diagnostic.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "algebra/error.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/iscas.hpp"
#include "tests/circuits/random_circuits.hpp"

#include "tests/circuits/netlist_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using testing::check_same_function;
using testing::epfl_dir;
using testing::truth_table;

namespace {

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { parse_bench(text, "f.bench"); }, where, what);
}

}  // namespace

TEST_CASE(".bench: a hand-written file reads with the expected functions", "[circuits][iscas]") {
  const std::string text =
      "# c17-like\n"
      "INPUT(a)\nINPUT(b)\ninput(c)\n"
      "OUTPUT(y_and)\nOUTPUT(y_nand)\nOUTPUT(y_or)\nOUTPUT(y_nor)\nOUTPUT(y_xor)\n"
      "OUTPUT(y_xnor)\nOUTPUT(y_not)\nOUTPUT(y_buf)\nOUTPUT(y_lut)\nOUTPUT(y_one)\n"
      "OUTPUT(y_zero)\nOUTPUT(y_lutx)\n"
      "y_and = AND(a, b, c)\n"
      "y_nand = NAND(a, t)   # t is defined below\n"
      "t = nand(b, c)\n"
      "y_or = OR(a, b)\n"
      "y_nor = NOR(a,b,c)\n"
      "y_xor = XOR(a, b, c)\n"
      "y_xnor = XNOR(a, b)\n"
      "y_not = NOT(c)\n"
      "y_buf = BUFF(b)\n"
      "y_lut = LUT 0xe8 ( a, b, c )\n"  // majority
      "y_one = vdd\n"
      "y_zero = gnd\n"
      "y_lutx = LUT 0x6 ( a, c )\n";
  Circuit c = parse_bench(text, "c.bench");
  REQUIRE(c.inputs().size() == 3);
  CHECK(c.input_names() == std::vector<std::string>{"a", "b", "c"});
  CHECK(truth_table(c, 0) == 0b10000000);
  CHECK(truth_table(c, 1) == (~(0b10101010u & ~0b11000000u) & 0xFF));  // ¬(a ∧ ¬(b ∧ c))
  CHECK(truth_table(c, 2) == 0b11101110);
  CHECK(truth_table(c, 3) == 0b00000001);
  CHECK(truth_table(c, 4) == 0b10010110);
  CHECK(truth_table(c, 5) == 0b10011001);
  CHECK(truth_table(c, 6) == 0b00001111);
  CHECK(truth_table(c, 7) == 0b11001100);
  CHECK(truth_table(c, 8) == 0b11101000);
  CHECK(truth_table(c, 9) == 0xFF);
  CHECK(truth_table(c, 10) == 0);
  CHECK(truth_table(c, 11) == 0b01011010);  // a ⊕ c
  CHECK(c.kind(c.outputs()[11]) == GateKind::xor_);
  CHECK(c.outputs()[7] == c.inputs()[1]);
}

TEST_CASE(".bench: random boolean circuits of every kind survive writing and reading",
          "[circuits][iscas]") {
  std::mt19937_64 rng(71);
  for (int trial = 0; trial < 60; ++trial) {
    INFO("trial " << trial);
    Circuit c = testing::random_boolean_circuit(rng, 3 + trial % 9, 20 + 7 * trial, 8);
    Circuit back = parse_bench(write_bench(c), "random.bench");
    check_same_function(c, back, rng);
    // .bench and BLIF describe the same netlist.
    check_same_function(back, parse_blif(write_blif(c), "random.blif"), rng);
  }
}

TEST_CASE(".bench: names are kept, escaped where .bench does not allow them, and read back",
          "[circuits][iscas]") {
  CircuitBuilder b;
  const GateId x = b.input("x[1,a]"), y = b.input("vdd"), z = b.input("p(q)"), w = b.input("INPUT");
  const GateId ops[] = {x, y, z, w};
  const GateId g = b.raw(GateKind::or_, ops);
  Circuit c = b.finish({g, x, y}, {"out", "x_copy", "vdd"});
  const std::string text = write_bench(c);
  // ',' '(' ')' are %2C %28 %29; INPUT's first letter is escaped (ABC reads a line starting
  // with INPUT as a declaration); vdd is a name like any other.
  CHECK_THAT(text,
             Catch::Contains("INPUT(x[1%2Ca])\nINPUT(vdd)\nINPUT(p%28q%29)\nINPUT(%49NPUT)\n"));
  CHECK_THAT(text, Catch::Contains("out = OR(x[1%2Ca], vdd, p%28q%29, %49NPUT)\n"));
  CHECK_THAT(text, Catch::Contains("x_copy = BUFF(x[1%2Ca])\n"));
  CHECK_THAT(text, Catch::Contains("OUTPUT(vdd)\n"));  // the output is the input vdd itself
  Circuit back = parse_bench(text, "n.bench");
  CHECK(back.input_names() == std::vector<std::string>{"x[1,a]", "vdd", "p(q)", "INPUT"});
  CHECK(back.output_names() == std::vector<std::string>{"out", "x_copy", "vdd"});
  std::mt19937_64 rng(7);
  check_same_function(c, back, rng);
}

TEST_CASE(".bench: EPFL circuits survive writing and reading", "[circuits][iscas]") {
  std::mt19937_64 rng(73);
  for (const char* name : {"ctrl", "router", "int2float", "cavlc", "dec", "adder", "i2c",
                           "priority", "max", "multiplier"}) {
    INFO(name);
    Circuit c = load_aiger((epfl_dir() / (std::string(name) + ".aig")).string());
    Circuit back = parse_bench(write_bench(c), std::string(name) + ".bench");
    CHECK(and_count(back) == and_count(c));
    CHECK(aig_levels(back) == aig_levels(c));
    check_same_function(c, back, rng, 8);
  }
}

TEST_CASE(".bench writing refuses circuits that are not boolean", "[circuits][iscas]") {
  CircuitBuilder a;
  const GateId x = a.input(), y = a.input();
  test::expect_input_error([&] { write_bench(a.finish({a.mul(x, y)})); }, "bench",
                           "gate 2 is mul: ISCAS .bench holds boolean circuits");
}

TEST_CASE(".bench diagnostics", "[circuits][iscas][diagnostics]") {
  const std::string head = "INPUT(a)\nINPUT(b)\nOUTPUT(y)\n";  // lines 1-3
  expect_error(head + "y = DFF(a)\n", "f.bench:4:5", "sequential .bench is not supported: DFF");
  expect_error(head + "y = MUX(a, b)\n", "f.bench:4:5", "unknown gate type 'MUX'");
  expect_error(head + "y AND(a, b)\n", "f.bench:4:1",
               "expected INPUT(name), OUTPUT(name) or 'name = GATE(operands)', got 'y'");
  expect_error("INPUT a\n", "f.bench:1:7", "expected '(', got 'a'");
  expect_error("INPUT(a\n", "f.bench:1:8", "expected ')', got the end of the line");
  expect_error("INPUT()\n", "f.bench:1:7", "expected a signal name, got ')'");
  expect_error("INPUT(a) b\n", "f.bench:1:10", "unexpected 'b' at the end of the line");
  expect_error(head + "y =\n", "f.bench:4:4",
               "expected a gate type after '=', got the end of the line");
  expect_error(head + "y = AND a, b\n", "f.bench:4:9", "expected '(', got 'a'");
  expect_error(head + "y = AND(a b)\n", "f.bench:4:11", "expected ')', got 'b'");
  expect_error(head + "y = AND(a, )\n", "f.bench:4:12", "expected a signal name, got ')'");
  expect_error(head + "y = AND()\n", "f.bench:4:5", "AND needs at least one operand, got 0");
  expect_error(head + "y = NOT(a, b)\n", "f.bench:4:5", "NOT takes one operand, got 2");
  expect_error(head + "y = vdd(a)\n", "f.bench:4:5", "vdd takes no operands, got 1");
  expect_error(head + "y = LUT 12 (a, b)\n", "f.bench:4:9", "expected a truth table 0x… after LUT");
  expect_error(head + "y = LUT 0x1F (a, b)\n", "f.bench:4:9",
               "the truth table 0x1F has bits beyond the 4 minterms of 2 inputs");
  expect_error(head + "y = LUT 0x1 (a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a)\n",
               "f.bench:4:5", "LUT takes at most 16 operands, got 17");
  expect_error(head + "y = AND(a, z)\n", "f.bench:4:12", "signal 'z' is used but never defined");
  expect_error(head + "y = AND(a, b)\ny = OR(a, b)\n", "f.bench:5:1",
               "signal 'y' is defined twice (first defined at 4:1)");
  expect_error(head + "a = NOT(b)\n", "f.bench:4:1",
               "signal 'a' is defined twice (first declared an input at 1:7)");
  expect_error("INPUT(a)\nINPUT(a)\n", "f.bench:2:7", "input 'a' is declared twice (first at 1:7)");
  expect_error("INPUT(a)\nOUTPUT(a)\nOUTPUT(a)\n", "f.bench:3:8",
               "output 'a' is declared twice (first at 2:8)");
  expect_error(head + "y = AND(a, q)\nq = OR(y, b)\n", "f.bench:5:8",
               "combinational cycle: y -> q -> y (each signal reads the next)");
  expect_error("INPUT(a)\nOUTPUT(y)\n", "f.bench:2:8", "signal 'y' is used but never defined");
}
