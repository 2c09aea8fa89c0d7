// Names survive every netlist format (docs/formats.md, "Names in AIGER, BLIF and .bench"): the
// one spelling encode_name gives a name in AIGER symbols, BLIF and .bench, read back by
// decode_name to the original; seeded random circuits with hostile names round-trip through
// .aag, .aig, .blif and .bench with their names and functions; ABC's plain `cec` (names, not
// positions) proves rnncc's .aig, .blif and .bench of one circuit equal; and the .bench, BLIF
// and AIGER files ABC writes from them read back with the original names and functions.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/netlist.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/raw_copy.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/abc_testing.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using namespace rnncc::testing;
using netlist_io::decode_name;
using netlist_io::encode_name;

namespace {

// The characters a name may hold in every format without an escape (docs/formats.md).
bool plain(unsigned char ch, bool first) {
  return ch > ' ' && ch < 0x7F &&
         std::string_view("#,()=\\%").find(static_cast<char>(ch)) == std::string_view::npos &&
         !(first && ch == '.');
}

// A random name over an alphabet rich in the characters the formats reserve.
std::string hostile_name(std::mt19937_64& rng) {
  static const std::vector<std::string> pieces = {
      "x", "y",  "[", "]", ",", "(", ")",     "=",      "#",   "%",   "%2C",  "\\",  " ", "\t", ".",
      "_", "_1", "0", "7", "σ", "é", "INPUT", "output", "vdd", "gnd", "\x01", "%zz", ";", "$"};
  std::string s;
  const std::size_t k = 1 + rng() % 6;
  for (std::size_t i = 0; i < k; ++i) s += pieces[rng() % pieces.size()];
  return s;
}

// `c` with its inputs and outputs renamed (gates copied one for one).
Circuit renamed(const Circuit& c, const std::vector<std::string>& ins,
                const std::vector<std::string>& outs) {
  CircuitBuilder b;
  std::vector<GateId> map(c.size());
  for (GateId id = 0; id < c.size(); ++id)
    map[id] = c.kind(id) == GateKind::input ? b.input(ins[c.input_index(id)])
                                            : copy_gate_raw(b, c, id, map);
  std::vector<GateId> o;
  for (GateId g : c.outputs()) o.push_back(map[g]);
  return b.finish(o, outs);
}

// A random boolean circuit whose inputs and outputs carry distinct hostile names.
Circuit named_random_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates,
                             std::size_t outputs) {
  // Threshold gates lowered: AIGER holds and/or/xor/not only.
  const Circuit c = lower_threshold_gates(random_boolean_circuit(rng, inputs, gates, outputs));
  std::vector<std::string> names;
  while (names.size() < inputs + outputs) {
    std::string n = hostile_name(rng);
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  }
  return renamed(c, {names.begin(), names.begin() + static_cast<std::ptrdiff_t>(inputs)},
                 {names.begin() + static_cast<std::ptrdiff_t>(inputs), names.end()});
}

struct Format {
  const char* ext;
  std::string (*write)(const Circuit&);
  Circuit (*read)(std::string_view, const std::string&);
};
const Format kFormats[] = {
    {"aag", [](const Circuit& c) { return write_aiger(c, AigerFormat::ascii); }, parse_aiger},
    {"aig", [](const Circuit& c) { return write_aiger(c, AigerFormat::binary); }, parse_aiger},
    {"blif", [](const Circuit& c) { return write_blif(c); }, parse_blif},
    {"bench", [](const Circuit& c) { return write_bench(c); }, parse_bench},
};

// Compiled circuits of the examples (boolean and lowered threshold), as in test_abc_oracle.
std::vector<std::pair<std::string, Circuit>> compiled_circuits() {
  struct Case {
    const char* example;
    CircuitTarget target;
    std::optional<unsigned> log_c;
    std::size_t n;
  };
  std::vector<std::pair<std::string, Circuit>> out;
  for (const Case& k : {Case{"dplr_d3.json", CircuitTarget::boolean, 1u, 3},
                        Case{"s5_word_problem.json", CircuitTarget::boolean, std::nullopt, 4},
                        Case{"relu_counter.json", CircuitTarget::boolean, std::nullopt, 6},
                        Case{"majority_counter.json", CircuitTarget::threshold, std::nullopt, 6},
                        Case{"attention_most_recent_a.json", CircuitTarget::threshold, 1u, 4}}) {
    TargetOptions o;
    o.target = k.target;
    o.precision.log_c = k.log_c;
    CompiledCircuit compiled =
        compile_model(load_model(std::string(RNNCC_SOURCE_DIR) + "/examples/" + k.example), k.n, o);
    out.emplace_back(k.example, lower_threshold_gates(compiled.circuit));
  }
  return out;
}

}  // namespace

TEST_CASE("netlist names: the spelling of hand-checked names", "[circuits][names]") {
  CHECK(encode_name("x[1,0]") == "x[1%2C0]");
  CHECK(encode_name("y[3][0][0]") == "y[3][0][0]");
  CHECK(encode_name("a b\tc") == "a%20b%09c");
  CHECK(encode_name("f(x)=#1") == "f%28x%29%3D%231");
  CHECK(encode_name("50%") == "50%25");
  CHECK(encode_name("a\\b") == "a%5Cb");
  CHECK(encode_name(".dot.dot") == "%2Edot.dot");
  CHECK(encode_name("INPUT") == "%49NPUT");
  CHECK(encode_name("output") == "%6Futput");
  CHECK(encode_name("OUTPUTS") == "OUTPUTS");
  CHECK(encode_name("x[t,σ]") == "x[t%2C%CF%83]");  // ABC splits names at bytes > 0x7F
  CHECK(encode_name("a\xff") == "a%FF");
  CHECK(encode_name("vdd") == "vdd");
  CHECK(decode_name("x[1%2C0]") == "x[1,0]");
  CHECK(decode_name("x[1%2c0]") == "x[1,0]");  // lower-case hex digits read too
  CHECK(decode_name("%zz%2") == "%zz%2");      // not an escape: kept
  CHECK(decode_name("%49NPUT") == "INPUT");
}

TEST_CASE("netlist names: decode(encode(s)) = s and encode writes only plain characters",
          "[circuits][names]") {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string s;
    const std::size_t k = rng() % 12;
    for (std::size_t i = 0; i < k; ++i)
      s += trial % 2 ? static_cast<char>(rng() % 256) : hostile_name(rng)[0];
    const std::string e = encode_name(s);
    INFO(s << " -> " << e);
    CHECK(decode_name(e) == s);
    for (std::size_t i = 0; i < e.size(); ++i)
      CHECK((plain(static_cast<unsigned char>(e[i]), i == 0) || e[i] == '%'));
  }
}

TEST_CASE("netlist names: an escape that decodes to bytes that are not UTF-8 is a diagnostic",
          "[circuits][names][diagnostics]") {
  auto error = [](auto parse, const std::string& text, const std::string& where) {
    INFO(text);
    test::expect_input_error([&] { parse(text); }, where,
                             "the name 'a%FF' is not UTF-8 once its %XX escapes are decoded");
  };
  error([](const std::string& t) { return parse_aiger(t, "f.aag"); },
        "aag 1 1 0 1 0\n2\n2\ni0 a%FF\n", "f.aag:4:4");
  error([](const std::string& t) { return parse_blif(t, "f.blif"); },
        ".model m\n.inputs b\n.outputs a%FF\n.names b a%FF\n1 1\n", "f.blif:3:10");
  error([](const std::string& t) { return parse_bench(t, "f.bench"); },
        "INPUT(a%FF)\nOUTPUT(y)\ny = NOT(a%FF)\n", "f.bench:1:7");
  // Escapes of UTF-8 read back: %C3%A9 is é.
  CHECK(parse_bench("INPUT(caf%C3%A9)\nOUTPUT(y)\ny = NOT(caf%C3%A9)\n", "u.bench").input_names() ==
        std::vector<std::string>{"café"});
}

TEST_CASE("netlist names: random circuits keep their names through every format",
          "[circuits][names]") {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 40; ++trial) {
    const Circuit c = named_random_circuit(rng, 1 + rng() % 8, 6 + rng() % 40, 1 + rng() % 6);
    for (const Format& f : kFormats) {
      INFO("trial " << trial << ", ." << f.ext);
      const std::string text = f.write(c);
      INFO(text);
      const Circuit back = f.read(text, std::string("r.") + f.ext);
      CHECK(back.input_names() == c.input_names());
      CHECK(back.output_names() == c.output_names());
      check_same_function(c, back, rng);
    }
    // One spelling across the formats: the AIGER symbols are the BLIF and .bench names.
    const std::string aag = write_aiger(c, AigerFormat::ascii), blif = write_blif(c),
                      bench = write_bench(c);
    for (std::size_t i = 0; i < c.inputs().size(); ++i) {
      const std::string n = encode_name(c.input_names()[i]);
      CHECK_THAT(aag, Catch::Contains("\ni" + std::to_string(i) + " " + n + "\n"));
      CHECK_THAT(bench, Catch::Contains("INPUT(" + n + ")\n"));
      CHECK_THAT(blif, Catch::Contains(" " + n));
    }
  }
}

// The circuits the ABC tests write: the compiled models and six seeded random circuits with
// hostile names.
std::vector<std::pair<std::string, Circuit>> abc_cases(std::uint64_t seed) {
  std::vector<std::pair<std::string, Circuit>> cases = compiled_circuits();
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 6; ++trial)
    cases.emplace_back("random " + std::to_string(trial),
                       named_random_circuit(rng, 2 + rng() % 8, 10 + rng() % 60, 1 + rng() % 6));
  return cases;
}

TEST_CASE("ABC: plain cec proves rnncc's .aig, .blif and .bench of one circuit equal",
          "[circuits][abc][names]") {
  REQUIRE_ABC();
  TempDir tmp;
  const std::vector<std::pair<std::string, Circuit>> cases = abc_cases(41);
  for (const auto& [label, c] : cases) {
    INFO(label);
    const std::string a = tmp.file("a.aig", write_aiger(c, AigerFormat::binary));
    const std::string b = tmp.file("b.blif", write_blif(c));
    const std::string d = tmp.file("c.bench", write_bench(c));
    for (const std::string& other : {b, d}) {
      const std::string out = abc_cec(a, other);
      INFO(out);
      CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
    }
    // The names are what decides: one output renamed and ABC's plain cec refuses the pair.
    std::vector<std::string> outs = c.output_names();
    if (outs.empty()) outs.assign(c.outputs().size(), "");
    for (std::size_t k = 0; k < outs.size(); ++k)
      if (outs[k].empty()) outs[k] = "o" + std::to_string(k);
    outs[0] += "_renamed";
    const std::string r = tmp.file("r.blif", write_blif(renamed(c, c.input_names(), outs)));
    const std::string out = abc_cec(a, r);
    INFO(out);
    CHECK_THAT(out, !Catch::Contains("Networks are equivalent"));
  }
}

TEST_CASE("ABC: the .bench, BLIF and AIGER files ABC writes read back with our names",
          "[circuits][abc][names]") {
  REQUIRE_ABC();
  TempDir tmp;
  const std::vector<std::pair<std::string, Circuit>> cases = abc_cases(43);
  std::mt19937_64 rng(44);  // the evaluation patterns
  for (const auto& [label, c] : cases) {
    INFO(label);
    const std::filesystem::path d = tmp.path;
    const std::string in = tmp.file("in.blif", write_blif(c));
    const std::string out =
        abc("read_blif " + in + "; write_bench " + (d / "abc.bench").string() + "; write_blif " +
            (d / "abc.blif").string() + "; strash; write_aiger -s " + (d / "abc.aig").string() +
            "; write_bench -l " + (d / "abc_aig.bench").string());
    INFO(out);
    const Circuit reads[] = {
        load_bench((d / "abc.bench").string()), load_blif((d / "abc.blif").string()),
        load_aiger((d / "abc.aig").string()), load_bench((d / "abc_aig.bench").string())};
    for (const Circuit& back : reads) {
      // Our spelling of the names: an unnamed output is o<k>.
      std::vector<std::string> outs = c.output_names();
      if (outs.empty())
        for (std::size_t k = 0; k < c.outputs().size(); ++k)
          outs.push_back("o" + std::to_string(k));
      CHECK(back.input_names() == c.input_names());
      CHECK(back.output_names() == outs);
      check_same_function(c, back, rng);
    }
  }
}
