// Issue 14, circuit formats: untrusted input ends in an answer or a diagnostic naming where and
// what was expected — names that are not UTF-8, header counts that wrap or exceed the file,
// threshold weights at the int32 limits, positive gates under `eval --outputs`, malformed
// circuit files, formulas nested past the depth limit, deep-but-legal circuits (no recursion).
// Every diagnostic added for these classes is triggered here.
#include <catch2/catch.hpp>

#include <climits>
#include <string>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/bulk.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/patterns.hpp"
#include "circuits/eval/program.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/netlist.hpp"
#include "circuits/io/sexpr.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using test::expect_input_error;

TEST_CASE("utf8_error finds the first byte that is not UTF-8", "[circuits][untrusted]") {
  using netlist_io::utf8_error;
  constexpr auto npos = std::string_view::npos;
  CHECK(utf8_error("plain") == npos);
  CHECK(utf8_error("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == npos);  // é € 😀
  CHECK(utf8_error("a\xFF") == 1);
  CHECK(utf8_error("ab\xC3") == 2);            // truncated sequence
  CHECK(utf8_error("\xC0\xAF") == 0);          // overlong '/'
  CHECK(utf8_error("\xE0\x80\xAF") == 0);      // overlong, 3 bytes
  CHECK(utf8_error("x\xED\xA0\x80") == 1);     // surrogate U+D800
  CHECK(utf8_error("\xF4\x90\x80\x80") == 0);  // above U+10FFFF
  CHECK(utf8_error("\xC3\xA9\x80") == 2);      // a stray continuation byte
}

TEST_CASE("names that are not UTF-8 are refused where they are read", "[circuits][untrusted]") {
  expect_input_error([] { parse_aiger("aag 1 1 0 1 0\n2\n2\no0 y\xFF\n", "t.aag"); }, "t.aag:4:5",
                     "expected a UTF-8 name (byte 0xFF is not UTF-8)");
  expect_input_error([] { parse_aiger("aag 1 1 0 1 0\n2\n2\ni0 \xC3(\n", "t.aag"); }, "t.aag:4:4",
                     "expected a UTF-8 name (byte 0xC3 is not UTF-8)");
  // binary AIGER: the symbol table is text after the AND section
  expect_input_error([] { parse_aiger(std::string("aig 1 1 0 1 0\n2\no0 \x80\n"), "t.aig"); },
                     "t.aig:3:4", "expected a UTF-8 name (byte 0x80 is not UTF-8)");
  expect_input_error(
      [] {
        parse_blif(".model m\n.inputs a b\xFE\n.outputs y\n.names a y\n1 1\n.end\n", "t.blif");
      },
      "t.blif:2:12", "expected a UTF-8 name (byte 0xFE is not UTF-8)");
  expect_input_error([] { parse_bench("INPUT(a)\nOUTPUT(y)\ny = NOT(\xE9)\n", "t.bench"); },
                     "t.bench:3:9", "expected a UTF-8 name (byte 0xE9 is not UTF-8)");
  expect_input_error([] { parse_formula("(and x1 \xFE)", "t.sexp"); }, "t.sexp:1:9",
                     "expected UTF-8 text (byte 0xFE is not UTF-8)");
  // UTF-8 names pass and reach JSON intact.
  const Circuit c = parse_bench("INPUT(caf\xC3\xA9)\nOUTPUT(y)\ny = NOT(caf\xC3\xA9)\n", "u.bench");
  CompiledCircuit cc;
  cc.circuit = c;
  CHECK_THAT(circuit_to_json(cc).dump(), Catch::Contains("caf\xC3\xA9"));
  // Non-UTF-8 bytes in comments are not names: ignored.
  CHECK(parse_bench("# \xFF\xFE\nINPUT(a)\nOUTPUT(a)\n", "c.bench").inputs().size() == 1);
}

TEST_CASE("AIGER header counts are checked against the file before allocating",
          "[circuits][untrusted][aiger]") {
  // I + A wraps around to M = 0.
  expect_input_error([] { parse_aiger("aag 0 18446744073709551615 0 0 1\n", "w.aag"); },
                     "w.aag:1:7",
                     "the header declares 18446744073709551615 inputs, but the file can hold 0 "
                     "at most (0 bytes after the header)");
  expect_input_error([] { parse_aiger("aag 3 1 0 1 2\n2\n", "a.aag"); }, "a.aag:1:13",
                     "declares 2 AND gates, but the file can hold 1 at most");
  expect_input_error([] { parse_aiger("aag 1 1 0 4294967296 0\n2\n", "o.aag"); }, "o.aag:1:11",
                     "declares 4294967296 outputs");
  // every line together: 1 input + 1 output + 1 AND need 6 bytes at least, 4 are there
  expect_input_error([] { parse_aiger("aag 2 1 0 1 1\n2\n4\n", "s.aag"); }, "s.aag:1:7",
                     "declares 3 input, output and AND lines, but the file can hold 2 at most");
  // binary: inputs take no bytes, their limit is 2^16 + 16 per byte of the file
  expect_input_error([] { parse_aiger("aig 1000000000 1000000000 0 0 0\n", "b.aig"); },
                     "b.aig:1:16",
                     "declares 1000000000 inputs, but the file can hold 66048 at most");
  expect_input_error([] { parse_aiger("aig 9 0 0 0 9\n", "b.aig"); }, "b.aig:1:13",
                     "declares 9 AND gates, but the file can hold 0 at most");
  // counts that fit but whose variables exceed the limit
  expect_input_error([] { parse_aiger("aig 2147483648 2147483648 0 0 0\n", "m.aig"); },
                     "m.aig:1:16", "inputs, but the file can hold");
  // a binary file within the input limit loads
  const Circuit c = parse_aiger("aig 1000 1000 0 1 0\n2000\n", "ok.aig");
  CHECK(c.inputs().size() == 1000);
  CHECK(c.outputs().size() == 1);
}

namespace {
// x₀, x₁ → ¬x₀ (so lowering folds an inversion), thr(¬x₀, x₁; w; θ).
std::string thr_json(std::int64_t w0, std::int64_t w1, std::int64_t theta) {
  return R"({"format": "rnncc-circuit/1", "gates": [{"op": "input", "name": "a"},
    {"op": "input", "name": "b"}, {"op": "not", "in": [0]},
    {"op": "thr", "in": [2, 1], "weights": [)" +
         std::to_string(w0) + ", " + std::to_string(w1) + R"(], "threshold": )" +
         std::to_string(theta) + R"(}], "outputs": [{"gate": 3}]})";
}

// The outputs of c on all 2^k 0/1 inputs, by the plain exact evaluator.
std::vector<std::vector<Rational>> truth_table(const Circuit& c) {
  std::vector<std::vector<Rational>> rows;
  const std::size_t k = c.inputs().size();
  for (std::uint64_t m = 0; m < (std::uint64_t{1} << k); ++m) {
    std::vector<Rational> x(k);
    for (std::size_t i = 0; i < k; ++i) x[i] = Rational(static_cast<int>(m >> i & 1));
    rows.push_back(evaluate(c, RationalField{}, std::span<const Rational>(x)));
  }
  return rows;
}
}  // namespace

TEST_CASE("threshold gates at the int32 limits: no signed overflow",
          "[circuits][untrusted][threshold]") {
  for (auto [w0, w1, theta] :
       {std::tuple<std::int64_t, std::int64_t, std::int64_t>{INT32_MIN, INT32_MAX, INT32_MAX},
        {INT32_MIN, INT32_MIN, INT32_MIN},
        {INT32_MAX, INT32_MAX, INT32_MIN},
        {-1, INT32_MAX, INT32_MAX},
        {5, -3, 2}}) {
    INFO(w0 << " " << w1 << " " << theta);
    const Circuit c = circuit_from_json(thr_json(w0, w1, theta), "t.json").circuit;
    // [w0·¬a + w1·b ≥ θ] on the 4 patterns, in 64-bit arithmetic
    const auto want = truth_table(c);
    for (std::uint64_t m = 0; m < 4; ++m) {
      const std::int64_t s = ((m & 1) ? 0 : w0) + ((m & 2) ? w1 : 0);
      CHECK(want[m][0] == Rational(s >= theta ? 1 : 0));
    }
    // lowering to and/or/not (convert to .aag/.blif/.bench) keeps the function
    CHECK(truth_table(lower_threshold_gates(c)) == want);
    // bulk evaluation (bit-parallel) agrees with its plain twin
    BulkOptions o;
    o.exhaustive = true;
    o.threads = 1;
    CHECK(evaluate_bulk(c, o).per_output == evaluate_bulk_plain(c, o).per_output);
    // the device program folds ¬a into the weights: a 32-bit answer or a DomainError
    try {
      const ExactOutputs x = evaluate_exact(c, o);
      for (std::uint64_t m = 0; m < 4; ++m) CHECK(x.values[m] == want[m]);
      CHECK(w0 != INT32_MIN);
    } catch (const DomainError& e) {
      CHECK_THAT(e.what(), Catch::Contains("gate 3 (thr)") && Catch::Contains("32-bit range"));
      CHECK((w0 == INT32_MIN || static_cast<std::int64_t>(theta) - w0 > INT32_MAX ||
             static_cast<std::int64_t>(theta) - w0 < INT32_MIN));
    }
  }
  // Folding merges repeated operands: −2^31 + −2^31 does not fit a weight, and says so.
  CircuitBuilder b;
  const GateId x = b.input("x");
  const GateId ops[] = {x, x};
  const std::int32_t huge[] = {INT32_MIN, INT32_MIN};
  REQUIRE_THROWS_AS(b.thr(ops, huge, 0), std::overflow_error);
  const std::int32_t fine[] = {INT32_MIN, INT32_MAX};
  const Circuit d = [&] {
    const GateId g = b.thr(ops, fine, 0);
    return b.finish({g});
  }();
  CHECK(d.weights(d.outputs()[0])[0] == -1);
}

TEST_CASE("eval --outputs answers for positive gates, exactly over Q",
          "[circuits][untrusted][eval]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y");
  const GateId d = b.sub(x, b.mul(y, b.constant(Rational(3, 2))));
  const Circuit c = b.finish({b.positive(d), d});
  REQUIRE_THROWS_AS(lower_program(c, {}), DomainError);  // mod p it has no meaning
  BulkOptions o;
  o.batch = 50;
  o.threads = 1;
  const ExactOutputs out = evaluate_exact(c, o);
  CHECK(out.primes.empty());
  CHECK_THAT(out.device, Catch::Contains("exact over Q"));
  REQUIRE(out.values.size() == 50);
  patterns::Spec spec{patterns::Mode::bits_random, o.seed, 2, 0, 0, 50};
  std::size_t positives = 0;
  for (std::uint64_t k = 0; k < 50; ++k) {
    const Rational xv(Integer(patterns::int_value(spec, k, 0)));
    const Rational yv(Integer(patterns::int_value(spec, k, 1)));
    CHECK(out.values[k][1] == xv - yv * 3 / 2);
    CHECK(out.values[k][0] == Rational(xv - yv * 3 / 2 > 0 ? 1 : 0));
    positives += out.values[k][0] == 1;
  }
  CHECK(positives > 0);
  CHECK(positives < 50);
  // The digest (eval without --outputs) mod p is a DomainError, not an abort.
  REQUIRE_THROWS_AS(evaluate_bulk(c, o), DomainError);
}

TEST_CASE("malformed circuit files are InputErrors, never std exceptions",
          "[circuits][untrusted][json]") {
  const std::string head = R"({"format": "rnncc-circuit/1", "gates": [{"op": "input"}, )";
  auto file = [&](const std::string& gate, const std::string& outputs = "[]") {
    return head + gate + R"(], "outputs": )" + outputs + "}";
  };
  expect_input_error([&] { circuit_from_json(file(R"({"op": "add", "in": [0]})"), "m.json"); },
                     "m.json: /gates/1/in", "add takes 2 operands, got 1");
  expect_input_error([&] { circuit_from_json(file(R"({"op": "not", "in": [1]})"), "m.json"); },
                     "m.json: /gates/1/in/0", "gate 1 is not an earlier gate");
  expect_input_error(
      [&] {
        circuit_from_json(file(R"({"op": "and", "in": [0, 18446744073709551615]})"), "m.json");
      },
      "m.json: /gates/1/in/1", "expected an integer in 0..4294967294");
  expect_input_error([&] { circuit_from_json(file(R"({"op": "nand", "in": [0, 0]})"), "m.json"); },
                     "m.json: /gates/1/op", "expected a gate kind");
  expect_input_error(
      [&] { circuit_from_json(file(R"({"op": "not", "in": [0]})", R"([{"gate": 7}])"), "m.json"); },
      "m.json: /outputs/0/gate", "expected an integer in 0..1");
  expect_input_error(
      [&] {
        circuit_from_json(
            file(R"({"op": "thr", "in": [0], "weights": [2147483648], "threshold": 0})"), "m.json");
      },
      "m.json: /gates/1/weights/0", "expected a 32-bit integer");
  // found by fuzz_circuit_json (corpus/circuit_json/crash-number-overflow): nlohmann's
  // out_of_range for a number it cannot hold escaped the reader
  expect_input_error([] { circuit_from_json("[4e2147483647]", "n.json"); }, "n.json:1:2",
                     "malformed JSON: number overflow parsing '4e2147483647'");
}

TEST_CASE("formulas deeper than the limit are a diagnostic, not a stack overflow",
          "[circuits][untrusted][sexpr]") {
  std::string nested;
  for (int i = 0; i < 10000; ++i) nested += "(not ";
  nested += "x1";
  nested += std::string(10000, ')');
  expect_input_error([&] { parse_formula(nested, "deep.sexp"); },
                     "deep.sexp:1:" + std::to_string(4096 * 5 + 1),
                     "parentheses nest deeper than 4096 levels");
  // n-ary operators nest left: (and x1 … xn) is n − 1 levels deep
  auto flat = [](int n) {
    std::string s = "(and";
    for (int i = 1; i <= n; ++i) s += " x" + std::to_string(i);
    return s + ")";
  };
  const Formula ok = parse_formula(flat(4097), "flat.sexp");
  CHECK(ok.depth == 4096);
  CHECK(parse_formula(ok.text, "again.sexp").text == ok.text);  // its canonical text reads back
  expect_input_error([&] { parse_formula(flat(4098), "flat.sexp"); }, "flat.sexp:1:2",
                     "the formula is deeper than 4096");
}

TEST_CASE("deep legal circuits: stats, writers and readers are iterative",
          "[circuits][untrusted][deep]") {
  // A chain of 100 000 xors (n_i = n_{i−1} ⊕ b) from a file, through everything `stats`,
  // `convert`, `eval` do.
  constexpr int kDepth = 100000;
  std::string blif = ".model chain\n.inputs a b\n.outputs y\n";
  std::string prev = "a";
  for (int i = 0; i < kDepth; ++i) {
    const std::string next = i + 1 == kDepth ? "y" : "n" + std::to_string(i);
    blif += ".names " + prev + " b " + next + "\n01 1\n10 1\n";
    prev = next;
  }
  blif += ".end\n";
  const Circuit c = parse_blif(blif, "chain.blif");
  CompiledCircuit cc;
  cc.circuit = c;
  REQUIRE(c.size() == kDepth + 2);
  const CircuitReport r = report_circuit(cc);
  CHECK(to_json(r).dump().size() > 0);
  for (const char* path : {"x.json", "x.aag", "x.aig", "x.blif", "x.bench"}) {
    INFO(path);
    const std::string text = circuit_file_text(cc, path);
    const std::string p = path;
    const Circuit back = p.ends_with(".json")    ? circuit_from_json(text, p).circuit
                         : p.ends_with(".blif")  ? parse_blif(text, p)
                         : p.ends_with(".bench") ? parse_bench(text, p)
                                                 : parse_aiger(text, p);
    CHECK(truth_table(back) == truth_table(c));
  }
  BulkOptions o;
  o.batch = 64;
  o.threads = 1;
  CHECK(evaluate_exact(c, o).values.size() == 64);
}

TEST_CASE("bulk evaluation of a boolean circuit without inputs", "[circuits][untrusted][eval]") {
  // Found by fuzz_aiger_ascii (corpus/aiger_ascii/constants.aag): the bit-parallel path read
  // outputs that no batch had computed.
  const Circuit c = parse_aiger("aag 0 0 0 2 0\n0\n1\n", "constants.aag");
  BulkOptions o;
  o.batch = 100;
  o.threads = 1;
  const BulkResult r = evaluate_bulk(c, o);
  CHECK(r.per_output == std::vector<std::uint64_t>{0, 100});
  CHECK(r.per_output == evaluate_bulk_plain(c, o).per_output);
  o.batch = 3;
  const ExactOutputs x = evaluate_exact(c, o);
  CHECK(x.values == std::vector<std::vector<Rational>>(3, {Rational(0), Rational(1)}));
}
