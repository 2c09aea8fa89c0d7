// The validity output (circuits/passes/valid_output.hpp): `valid` = every position has exactly
// one symbol, checked on every assignment of small shapes and on seeded random assignments of
// larger ones, the circuit's own outputs unchanged on every assignment, the stated depth bound,
// the option's refusal for arithmetic circuits, and ABC's recipe (docs/formats.md): with
// `constr -N 1; constr -i; fold` cec ignores assignments that spell no string and every
// counterexample it returns is a string.
#include <catch2/catch.hpp>

#include <random>
#include <regex>

#include "circuits/analysis.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/netlist.hpp"
#include "circuits/passes/raw_copy.hpp"
#include "circuits/passes/valid_output.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/abc_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

// A circuit over the one-hot layer of n positions and `symbols` symbols whose outputs are
// seeded random XORs and ANDs of inputs: what with_valid_output must leave as it is.
CompiledCircuit random_one_hot_circuit(std::size_t n, std::size_t symbols, std::mt19937_64& rng) {
  CircuitBuilder b;
  const auto x = one_hot_inputs(b, n, symbols);
  std::vector<GateId> flat;
  for (const auto& row : x) flat.insert(flat.end(), row.begin(), row.end());
  std::vector<GateId> outs;
  for (int k = 0; k < 3; ++k) {
    const GateId a = flat[rng() % flat.size()], c = flat[rng() % flat.size()];
    outs.push_back(k % 2 ? b.and_(std::vector<GateId>{a, b.not_(c)})
                         : b.xor_(std::vector<GateId>{a, c}));
  }
  CompiledCircuit cc;
  cc.circuit = b.finish(outs, {"y1", "y2", "y3"});
  return cc;
}

// Exactly one of the position's indicators is set in every position of pattern p.
bool spells_string(std::span<const bits::Word> in, std::size_t n, std::size_t symbols,
                   std::size_t p) {
  for (std::size_t t = 0; t < n; ++t) {
    int ones = 0;
    for (std::size_t s = 0; s < symbols; ++s) ones += (in[t * symbols + s] >> p) & 1;
    if (ones != 1) return false;
  }
  return true;
}

// Evaluates both circuits on 64 patterns and checks `valid` and the unchanged outputs.
void check_patterns(const CompiledCircuit& plain, const CompiledCircuit& with_valid,
                    std::span<const bits::Word> in, std::size_t n, std::size_t symbols,
                    std::size_t patterns) {
  const auto a = evaluate_bits(plain.circuit, in), b = evaluate_bits(with_valid.circuit, in);
  REQUIRE(b.size() == a.size() + 1);
  for (std::size_t o = 0; o < a.size(); ++o) CHECK(a[o] == b[o]);
  for (std::size_t p = 0; p < patterns; ++p) {
    INFO("pattern " << p);
    CHECK(((b.back() >> p) & 1) == (spells_string(in, n, symbols, p) ? 1u : 0u));
  }
}

}  // namespace

TEST_CASE("valid output: hand-checked on two positions of three symbols",
          "[circuits][passes][valid_output]") {
  std::mt19937_64 rng(1);
  const CompiledCircuit plain = random_one_hot_circuit(2, 3, rng);
  const CompiledCircuit v = with_valid_output(plain, 3);
  CHECK(v.circuit.output_names() == std::vector<std::string>{"y1", "y2", "y3", "valid"});
  CHECK(v.circuit.input_names() == plain.circuit.input_names());
  // All 64 assignments of the 6 inputs in one word: pattern p sets input i when bit i of p is.
  std::vector<bits::Word> in(6, 0);
  for (std::size_t p = 0; p < 64; ++p)
    for (std::size_t i = 0; i < 6; ++i)
      if ((p >> i) & 1) in[i] |= bits::Word{1} << p;
  const auto out = evaluate_bits(v.circuit, in);
  // The strings: (p & 7) and (p >> 3) each one of 1, 2, 4 — 9 of the 64 patterns.
  std::size_t strings = 0;
  for (std::size_t p = 0; p < 64; ++p) {
    const auto one = [](std::size_t g) { return g == 1 || g == 2 || g == 4; };
    const bool is_string = one(p & 7) && one(p >> 3);
    strings += is_string;
    CHECK(((out.back() >> p) & 1) == (is_string ? 1u : 0u));
  }
  CHECK(strings == 9);
  // The valid region holds the new gates and nothing else.
  REQUIRE(!v.regions.empty());
  CHECK(v.regions.back().kind == RegionKind::valid);
  CHECK(v.regions.back().first_gate == plain.circuit.size());
}

TEST_CASE("valid output: every assignment of small shapes, seeded random ones of larger",
          "[circuits][passes][valid_output]") {
  std::mt19937_64 rng(27);
  for (std::size_t symbols : {1, 2, 3, 4, 5, 7})
    for (std::size_t n : {1, 2, 3, 5, 9}) {
      INFO("n = " << n << ", |Σ| = " << symbols);
      const CompiledCircuit plain = random_one_hot_circuit(n, symbols, rng);
      const CompiledCircuit v = with_valid_output(plain, symbols);
      const std::size_t inputs = n * symbols;
      if (inputs <= 14) {  // every assignment, 64 a word
        const std::size_t total = std::size_t{1} << inputs;
        for (std::size_t base = 0; base < total; base += 64) {
          std::vector<bits::Word> in(inputs, 0);
          const std::size_t count = std::min<std::size_t>(64, total - base);
          for (std::size_t p = 0; p < count; ++p)
            for (std::size_t i = 0; i < inputs; ++i)
              if (((base + p) >> i) & 1) in[i] |= bits::Word{1} << p;
          check_patterns(plain, v, in, n, symbols, count);
        }
      } else {  // strings, strings with one indicator flipped, and uniform assignments
        for (int round = 0; round < 8; ++round) {
          std::vector<bits::Word> in(inputs, 0);
          for (std::size_t p = 0; p < 64; ++p) {
            if (p % 3 == 2) {
              for (std::size_t i = 0; i < inputs; ++i)
                if (rng() & 1) in[i] |= bits::Word{1} << p;
              continue;
            }
            for (std::size_t t = 0; t < n; ++t)
              in[t * symbols + rng() % symbols] |= bits::Word{1} << p;
            if (p % 3 == 1) in[rng() % inputs] ^= bits::Word{1} << p;
          }
          check_patterns(plain, v, in, n, symbols, 64);
        }
      }
      // The stated depth of the valid tree: 2·⌈log₂|Σ|⌉ + 2 + ⌈log₂ n⌉ (fan-in 2, NOT counted).
      const auto depth = depth_table(v.circuit, FaninModel::bounded);
      CHECK(depth[v.circuit.outputs().back()] <= 2 * ceil_log2(symbols) + 2 + ceil_log2(n));
      // At most 4·|Σ| gates a position, plus the AND tree.
      CHECK(v.circuit.size() - plain.circuit.size() <= 4 * inputs + n);
    }
}

TEST_CASE("valid output: compile_as_written appends it to boolean and threshold circuits only",
          "[circuits][passes][valid_output]") {
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  TargetText text;
  text.target = "boolean";
  text.valid_output = true;
  const CompiledCircuit v = compile_as_written(s5, 6, parse_target_options(text));
  text.valid_output = false;
  const CompiledCircuit plain = compile_as_written(s5, 6, parse_target_options(text));
  CHECK(v.circuit.output_names().back() == "valid");
  CHECK(v.circuit.outputs().size() == plain.circuit.outputs().size() + 1);
  CHECK(v.dead_gates_swept == plain.dead_gates_swept);
  std::mt19937_64 rng(6);
  for (int round = 0; round < 4; ++round) {
    std::vector<bits::Word> in(12, 0);
    for (std::size_t p = 0; p < 64; ++p)
      for (std::size_t t = 0; t < 6; ++t) {
        in[2 * t + rng() % 2] |= bits::Word{1} << p;
        if (p % 2) in[rng() % 12] |= bits::Word{1} << p;  // some positions get both symbols
      }
    check_patterns(plain, v, in, 6, 2, 64);
  }
  text.target = "arith";
  text.valid_output = true;
  test::expect_input_error([&] { parse_target_options(text); }, "--valid-output",
                           "boolean or threshold");
  test::expect_input_error([&] { parse_target_options(text, ""); }, "valid_output",
                           "boolean or threshold");
}

namespace {

// a's circuit with its first output XORed with ∧ of the inputs `extra` (indices): the copy a
// test compares a against.
Circuit with_twist(const Circuit& c, std::vector<std::size_t> extra) {
  CircuitBuilder b;
  std::vector<GateId> map(c.size(), kNoGate);
  for (GateId id = 0; id < c.size(); ++id)
    map[id] = c.kind(id) == GateKind::input ? b.input(c.input_names()[c.input_index(id)])
                                            : copy_gate_raw(b, c, id, map);
  std::vector<GateId> outs, term;
  for (GateId o : c.outputs()) outs.push_back(map[o]);
  for (std::size_t i : extra) term.push_back(map[c.inputs()[i]]);
  outs[0] = b.xor_(std::vector<GateId>{outs[0], b.and_(term)});
  return b.finish(outs, c.output_names());
}

// The assignment of ABC's "Input pattern:" line: name=value pairs, a name either an input's
// (spelled as AIGER writes it) or "pi<k>" (input k, as after `fold`); inputs it omits are 0.
std::vector<int> abc_pattern(const std::string& out, const Circuit& c) {
  const auto at = out.find("Input pattern:");
  REQUIRE(at != std::string::npos);
  const std::string line = out.substr(at, out.find('\n', at) - at);
  std::vector<int> bits(c.inputs().size(), 0);
  const std::regex pair(R"(([^\s=]+)=([01]))");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), pair); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1];
    std::size_t index = bits.size();
    if (std::regex_match(name, std::regex(R"(pi\d+)"))) {
      index = std::stoul(name.substr(2));
    } else {
      const auto& names = c.input_names();
      index = static_cast<std::size_t>(
          std::find(names.begin(), names.end(), netlist_io::decode_name(name)) - names.begin());
    }
    REQUIRE(index < bits.size());
    bits[index] = (*it)[2] == "1";
  }
  return bits;
}

}  // namespace

TEST_CASE("valid output: ABC's cec restricted to strings (docs/formats.md's recipe)",
          "[circuits][passes][valid_output][abc]") {
  REQUIRE_ABC();
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  TargetText text;
  text.target = "boolean";
  text.valid_output = true;
  const std::size_t n = 4;
  const CompiledCircuit a = compile_as_written(s5, n, parse_target_options(text));
  // Inputs x[t,s], x[t,c] at 2(t−1) and 2(t−1)+1. b differs from a exactly where position 1
  // holds both symbols: on no string.
  const Circuit b = with_twist(a.circuit, {0, 1});
  // d differs from a where position 2 holds s and position 3 holds c: on strings too.
  const Circuit d = with_twist(a.circuit, {2, 5});

  const testing::TempDir tmp;
  const auto aig = [&](const std::string& name, const Circuit& c) {
    return tmp.file(name + ".aig", write_aiger(c, AigerFormat::binary));
  };
  const std::string fa = aig("a", a.circuit), fb = aig("b", b), fd = aig("d", d);
  // The recipe: ABC's constraints are outputs that must stay 0; `constr -N 1` makes the last
  // output (valid) one, `constr -i` complements it (so valid must be 1), and `fold` ANDs every
  // other output with the complemented constraint and drops it.
  const auto on_strings = [&](const std::string& x, const std::string& y) {
    const std::string xs = (tmp.path / "x_strings.aig").string(),
                      ys = (tmp.path / "y_strings.aig").string();
    return testing::abc("read " + x + "; constr -N 1; constr -i; fold; write_aiger " + xs +
                        "; read " + y + "; constr -N 1; constr -i; fold; write_aiger " + ys +
                        "; cec " + xs + " " + ys);
  };
  // On every assignment a and b differ — at one that sets both symbols at position 1.
  const std::string plain = testing::abc("cec " + fa + " " + fb);
  CHECK_THAT(plain, Catch::Contains("NOT EQUIVALENT"));
  const std::vector<int> both = abc_pattern(plain, a.circuit);
  CHECK(both[0] + both[1] == 2);
  // On strings they are equal.
  CHECK_THAT(on_strings(fa, fb), Catch::Contains("Networks are equivalent"));
  // a and d differ on strings: the counterexample is one, and they differ on it.
  const std::string out = on_strings(fa, fd);
  CHECK_THAT(out, Catch::Contains("NOT EQUIVALENT"));
  const std::vector<int> w = abc_pattern(out, a.circuit);
  std::vector<bits::Word> in(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) in[i] = static_cast<bits::Word>(w[i]);
  for (std::size_t t = 0; t < n; ++t) CHECK(w[2 * t] + w[2 * t + 1] == 1);
  CHECK(w[2] == 1);
  CHECK(w[5] == 1);
  CHECK(evaluate_bits(a.circuit, in)[0] != evaluate_bits(d, in)[0]);
}
