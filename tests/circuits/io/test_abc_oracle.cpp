// ABC (berkeley-abc, the Debian package of Berkeley's logic synthesis system) as an oracle for
// the AIGER, BLIF and .bench writers:
//   (a) EPFL circuits: our AND count and levels of the AIGER we write equal ABC's print_stats
//       after `read_aiger F; strash` — and after `read_blif`/`read_bench` of our BLIF/.bench;
//   (b) our own circuits (a formula, random boolean circuits with threshold gates lowered):
//       ABC strashes our BLIF, our .bench and our AIGER of the same circuit to the same and/lev;
//   (c) ABC's `cec -n` (inputs and outputs matched by order: our AIGER has no input symbols)
//       proves our AIGER and our BLIF (and .bench) of one circuit equivalent, and finds a
//       deliberately changed one NOT EQUIVALENT;
//   (d) the other way round: BLIF and .bench files that ABC writes (after `strash`, and after
//       mapping into 4-input LUTs with `if -K 4`: covers with don't cares and off-sets, LUT lines)
//       read back as the EPFL circuit they came from (bit-parallel, random patterns).
// Every test is skipped with a warning when berkeley-abc is not on PATH (it does not read
// abc.rc, so commands are spelled out: print_stats, strash, cec).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/sexpr.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/raw_copy.hpp"
#include "circuits/passes/strash.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/abc_testing.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"

using namespace rnncc;
using namespace rnncc::testing;
namespace fs = std::filesystem;

namespace {

struct AbcStats {
  long ands = -1, levels = -1;
  bool operator==(const AbcStats&) const = default;
};
std::ostream& operator<<(std::ostream& os, const AbcStats& s) {
  return os << "and = " << s.ands << ", lev = " << s.levels;
}

// print_stats of a strashed network: "… i/o = 7/ 26  lat = 0  and = 174  lev = 10".
AbcStats parse_stats(const std::string& out) {
  AbcStats s;
  std::smatch m;
  if (std::regex_search(out, m, std::regex(R"(and\s*=\s*(\d+))"))) s.ands = std::stol(m[1]);
  if (std::regex_search(out, m, std::regex(R"(lev\s*=\s*(\d+))"))) s.levels = std::stol(m[1]);
  INFO(out);
  CHECK(s.ands >= 0);
  CHECK(s.levels >= 0);
  return s;
}

AbcStats strash_stats(const std::string& read, const std::string& path) {
  return parse_stats(abc(read + " " + path + "; strash; print_stats"));
}

// Random boolean circuits whose and/or gates take 2 or 3 distinct operands and whose xor gates
// any number of distinct operands: ABC strashes an n-ary cover as a chain ((a∧b)∧c)∧d, our AIGER
// writer as a balanced tree; for n ≤ 3 the two coincide. maj/thr gates are lowered.
Circuit abc_comparable_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (std::size_t i = 0; i < inputs; ++i) pool.push_back(b.input());
  for (std::size_t g = 0; g < gates; ++g) {
    std::vector<GateId> ops;
    const unsigned kind = rng() % 6;
    const std::size_t k = kind == 2 ? 2 + rng() % 5 : kind == 5 ? 1 + rng() % 7 : 2 + rng() % 2;
    while (ops.size() < std::min(k, pool.size())) {
      const GateId o = pool[pool.size() - 1 - rng() % std::min<std::size_t>(pool.size(), 16)];
      if (std::find(ops.begin(), ops.end(), o) == ops.end()) ops.push_back(o);
    }
    if (ops.size() < 2 && kind <= 2) {
      pool.push_back(b.raw(GateKind::not_, ops));
      continue;
    }
    switch (kind) {
      case 0:
        pool.push_back(b.raw(GateKind::and_, ops));
        break;
      case 1:
        pool.push_back(b.raw(GateKind::or_, ops));
        break;
      case 2:
        pool.push_back(b.raw(GateKind::xor_, ops));
        break;
      case 3:
        pool.push_back(b.raw(GateKind::not_, std::span(ops).first(1)));
        break;
      case 4:
        pool.push_back(b.raw(GateKind::maj, ops));
        break;
      default: {
        std::vector<std::int32_t> w;
        for (std::size_t i = 0; i < ops.size(); ++i)
          w.push_back(static_cast<std::int32_t>(rng() % 21) - 10);
        pool.push_back(b.raw(GateKind::thr, ops, w, static_cast<std::int32_t>(rng() % 11) - 5));
      }
    }
  }
  std::vector<GateId> outs(pool.end() - 6, pool.end());
  return lower_threshold_gates(b.finish(outs));
}

}  // namespace

TEST_CASE("ABC: EPFL circuits as we write them have ABC's AND count and levels",
          "[circuits][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  for (const char* name : {"ctrl", "router", "int2float", "cavlc", "dec", "i2c", "priority",
                           "adder", "bar", "max", "sin", "voter", "multiplier"}) {
    INFO(name);
    const Circuit c = load_aiger((epfl_dir() / (std::string(name) + ".aig")).string());
    const std::string aig = write_aiger(c, AigerFormat::binary);
    const Circuit ours = parse_aiger(aig, "ours");
    const AbcStats expected{static_cast<long>(and_count(ours)),
                            static_cast<long>(aig_levels(ours))};
    CHECK(strash_stats("read_aiger", tmp.file("c.aig", aig)) == expected);
    CHECK(strash_stats("read_blif", tmp.file("c.blif", write_blif(c, name))) == expected);
    CHECK(strash_stats("read_bench", tmp.file("c.bench", write_bench(c))) == expected);
  }
}

TEST_CASE("ABC: our compiled boolean and threshold circuits have ABC's AND count and levels",
          "[circuits][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  struct Case {
    const char* example;
    CircuitTarget target;
    std::optional<unsigned> log_c;
    std::size_t n;
  };
  for (const Case& k : {Case{"dplr_d3.json", CircuitTarget::boolean, 1u, 4},
                        Case{"s5_word_problem.json", CircuitTarget::boolean, std::nullopt, 8},
                        Case{"relu_counter.json", CircuitTarget::boolean, std::nullopt, 8},
                        Case{"majority_counter.json", CircuitTarget::threshold, std::nullopt, 8},
                        Case{"attention_most_recent_a.json", CircuitTarget::threshold, 1u, 6}}) {
    INFO(k.example);
    TargetOptions o;
    o.target = k.target;
    o.precision.log_c = k.log_c;
    CompiledCircuit compiled =
        compile_model(load_model(std::string(RNNCC_SOURCE_DIR) + "/examples/" + k.example), k.n, o);
    const Circuit c = lower_threshold_gates(compiled.circuit);
    // Our structural hashing (strash: AND(a,a) = a, AND(a,¬a) = 0, constants, shared ordered
    // pairs, the outputs' cones) against ABC's `read; strash` of the AIGER file we write.
    const Circuit ours = strash(c);
    const AbcStats expected{static_cast<long>(and_count(ours)),
                            static_cast<long>(aig_levels(ours))};
    CHECK(strash_stats("read_aiger", tmp.file("c.aig", write_aiger(c, AigerFormat::binary))) ==
          expected);
    // the report's AIG line (rnncc compile --stats / rnncc stats) is that same graph
    const CircuitReport report = report_circuit(compiled);
    REQUIRE(report.and_nodes.has_value());
    CHECK(AbcStats{static_cast<long>(*report.and_nodes), static_cast<long>(*report.and_levels)} ==
          expected);
    // and strash computes the same function
    std::mt19937_64 rng(5);
    rnncc::testing::check_same_function(c, ours, rng);
  }
}

TEST_CASE("ABC: our BLIF, .bench and AIGER of one circuit strash alike", "[circuits][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  std::vector<Circuit> circuits;
  circuits.push_back(
      parse_formula("(or (and x1 x2) (and x1 x3) (and x2 x3) (not (or x4 (and x5 x1))))", "f")
          .circuit);
  std::mt19937_64 rng(91);
  for (int trial = 0; trial < 12; ++trial)
    circuits.push_back(abc_comparable_circuit(rng, 4 + trial % 8, 30 + 20 * trial));
  for (std::size_t i = 0; i < circuits.size(); ++i) {
    INFO("circuit " << i);
    const Circuit& c = circuits[i];
    const AbcStats via_aiger =
        strash_stats("read_aiger", tmp.file("c.aig", write_aiger(c, AigerFormat::binary)));
    CHECK(strash_stats("read_blif", tmp.file("c.blif", write_blif(c))) == via_aiger);
    CHECK(strash_stats("read_bench", tmp.file("c.bench", write_bench(c))) == via_aiger);
  }
}

TEST_CASE("ABC: cec proves our AIGER, BLIF and .bench equivalent and catches a change",
          "[circuits][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  std::mt19937_64 rng(92);
  for (int trial = 0; trial < 8; ++trial) {
    INFO("trial " << trial);
    // Every gate kind, threshold gates included (lowered for AIGER; the BLIF and .bench writers
    // lower them themselves).
    const Circuit c = testing::random_boolean_circuit(rng, 5 + trial, 40 + 25 * trial, 6);
    const std::string a =
        tmp.file("a.aig", write_aiger(lower_threshold_gates(c), AigerFormat::binary));
    const std::string b = tmp.file("b.blif", write_blif(c));
    const std::string d = tmp.file("d.bench", write_bench(c));
    std::string out = abc("cec -n " + a + " " + b);
    INFO(out);
    CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
    out = abc("cec -n " + a + " " + d);
    INFO(out);
    CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
    // The same circuit with its output `trial % 6` complemented.
    CircuitBuilder cb;
    std::vector<GateId> map(c.size());
    for (GateId id = 0; id < c.size(); ++id)
      map[id] = c.kind(id) == GateKind::input ? cb.input() : copy_gate_raw(cb, c, id, map);
    std::vector<GateId> outs;
    for (GateId o : c.outputs()) outs.push_back(map[o]);
    outs[static_cast<std::size_t>(trial) % outs.size()] =
        cb.not_(outs[static_cast<std::size_t>(trial) % outs.size()]);
    const std::string changed = tmp.file("changed.blif", write_blif(cb.finish(outs)));
    out = abc("cec -n " + a + " " + changed);
    INFO(out);
    CHECK_THAT(out, Catch::Contains("Networks are NOT EQUIVALENT"));
  }
}

TEST_CASE("ABC: BLIF and .bench files ABC writes read back as the circuit", "[circuits][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  std::mt19937_64 rng(93);
  for (const char* name : {"ctrl", "router", "int2float", "cavlc", "dec", "i2c", "adder"}) {
    INFO(name);
    const std::string aig = (epfl_dir() / (std::string(name) + ".aig")).string();
    const Circuit c = load_aiger(aig);
    const fs::path d = tmp.path;
    const std::string out =
        abc("read_aiger " + aig + "; strash; write_blif " + (d / "aig.blif").string() +
            "; write_bench -l " + (d / "aig.bench").string() + "; if -K 4; write_blif " +
            (d / "k4.blif").string() + "; write_bench " + (d / "k4.bench").string());
    INFO(out);
    std::vector<bits::Word> patterns(8 * c.inputs().size());
    for (auto& w : patterns) w = rng();
    const auto expected = evaluate_bits_batch(c, patterns, 1);
    for (const char* file : {"aig.blif", "k4.blif"}) {
      INFO(file);
      const Circuit back = load_blif((d / file).string());
      REQUIRE(back.inputs().size() == c.inputs().size());
      REQUIRE(back.outputs().size() == c.outputs().size());
      CHECK(evaluate_bits_batch(back, patterns, 1) == expected);
    }
    for (const char* file : {"aig.bench", "k4.bench"}) {
      INFO(file);
      const Circuit back = load_bench((d / file).string());
      REQUIRE(back.inputs().size() == c.inputs().size());
      REQUIRE(back.outputs().size() == c.outputs().size());
      CHECK(evaluate_bits_batch(back, patterns, 1) == expected);
    }
  }
}
