// The figures `rnncc stats` prints, against the tools people compare with (docs/circuits.md,
// "Metrics"): ABC's `print_stats` (i/o, and, lev; nd and lev of a logic network) and Yosys's
// `stat -json` ($_AND_, $_NOT_, num_cells) on the same files rnncc writes, for compiled
// circuits and EPFL benchmarks; the NOT-free depth and live_size on hand-checked circuits; the
// builder's folds of repeated and complementary operands, hand-checked and against the unfolded
// twin on seeded random circuits; dead gates swept before a netlist is written.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <random>
#include <regex>

#include "circuits/analysis.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/measure/report.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/abc_testing.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using rnncc::testing::truth_table;

namespace {

bool is_const(const Circuit& c, GateId g, int v) {
  return c.kind(g) == GateKind::constant && c.constant(g) == v;
}

}  // namespace

TEST_CASE("builder folds repeated and complementary boolean operands", "[circuits][folds]") {
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y"), z = b.input("z");
  const GateId nx = b.not_(x), ny = b.not_(y);
  const std::size_t before = b.size();
  const auto v = [](std::initializer_list<GateId> l) { return std::vector<GateId>(l); };
  // Two operands.
  CHECK(is_const(b.view(), b.xor_(v({x, x})), 0));
  CHECK(is_const(b.view(), b.xor_(v({x, nx})), 1));
  CHECK(is_const(b.view(), b.xor_(v({nx, x})), 1));
  CHECK(is_const(b.view(), b.and_(v({x, nx})), 0));
  CHECK(is_const(b.view(), b.or_(v({nx, x})), 1));
  CHECK(b.and_(v({x, x})) == x);
  CHECK(b.or_(v({y, y})) == y);
  CHECK(b.not_(nx) == x);
  const std::size_t constants = 2;  // 0 and 1, made once
  CHECK(b.size() == before + constants);
  // n-ary: the rest stays.
  CHECK(b.xor_(v({x, y, x})) == y);
  CHECK(b.xor_(v({x, x, x})) == x);
  CHECK(is_const(b.view(), b.xor_(v({y, x, y, x})), 0));
  CHECK(b.xor_(v({nx, y, x})) == ny);  // x ⊕ ¬x ⊕ y = ¬y
  CHECK(b.xor_(v({nx, ny, x, y})) == b.constant(Rational(0)));
  CHECK(is_const(b.view(), b.and_(v({y, nx, z, x})), 0));
  CHECK(is_const(b.view(), b.or_(v({y, ny, z})), 1));
  CHECK(b.size() == before + constants);  // nothing above made a gate
  // Not folded: distinct operands, and a negation whose operand is absent.
  const GateId a = b.and_(v({nx, y}));
  CHECK(b.view().kind(a) == GateKind::and_);
  const GateId r = b.xor_(v({nx, y, z}));
  CHECK(b.view().kind(r) == GateKind::xor_);
  CHECK(b.view().operands(r).size() == 3);
}

TEST_CASE("folds keep the function: random circuits against their raw twin", "[circuits][folds]") {
  // Each gate is requested twice: raw (appended as given) and through the builder's folds, on
  // operands drawn with many repeats and negations, so every fold fires. Truth tables over 5
  // inputs agree output by output.
  std::mt19937_64 rng(1717);
  for (int trial = 0; trial < 200; ++trial) {
    CircuitBuilder raw, fold;
    std::vector<GateId> pr, pf;  // the pools, position by position
    for (int i = 0; i < 5; ++i) {
      pr.push_back(raw.input());
      pf.push_back(fold.input());
    }
    pr.push_back(raw.constant(Rational(trial % 2)));
    pf.push_back(fold.constant(Rational(trial % 2)));
    for (int g = 0; g < 30; ++g) {
      const std::size_t k = 2 + rng() % 4;
      std::vector<GateId> orr, off;
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t p = (rng() % 3 == 0 && !orr.empty()) ? 0 : rng() % pr.size();
        // Repeat an operand already chosen, or its negation, a third of the time.
        if (p == 0 && !orr.empty()) {
          const std::size_t j = rng() % orr.size();
          if (rng() % 2) {
            const GateId o1[] = {orr[j]};
            orr.push_back(raw.raw(GateKind::not_, o1));
            off.push_back(fold.not_(off[j]));
          } else {
            orr.push_back(orr[j]);
            off.push_back(off[j]);
          }
          continue;
        }
        orr.push_back(pr[p]);
        off.push_back(pf[p]);
      }
      const GateKind kinds[] = {GateKind::and_, GateKind::or_, GateKind::xor_};
      const GateKind kind = kinds[rng() % 3];
      pr.push_back(raw.raw(kind, orr));
      pf.push_back(kind == GateKind::and_  ? fold.and_(off)
                   : kind == GateKind::or_ ? fold.or_(off)
                                           : fold.xor_(off));
    }
    std::vector<GateId> outs_r(pr.end() - 8, pr.end()), outs_f(pf.end() - 8, pf.end());
    const Circuit cr = raw.finish(outs_r), cf = fold.finish(outs_f);
    for (std::size_t o = 0; o < 8; ++o) {
      INFO("trial " << trial << ", output " << o);
      CHECK(truth_table(cf, o) == truth_table(cr, o));
    }
  }
}

TEST_CASE("depth counts NOT free, depth_counting_not counts it, live_size", "[circuits][figures]") {
  // y = ¬(¬x ∧ y) over x, y; a dead x ⊕ y and a dead constant beside it.
  CircuitBuilder b;
  const GateId x = b.input("x"), y = b.input("y");
  const std::array<GateId, 2> xy{x, y};
  b.raw(GateKind::xor_, xy);  // dead
  b.constant(Rational(1));    // dead
  const GateId ops1[] = {x};
  const GateId nx = b.raw(GateKind::not_, ops1);
  const GateId ops2[] = {nx, y};
  const GateId a = b.raw(GateKind::and_, ops2);
  const GateId ops3[] = {a};
  const GateId out = b.raw(GateKind::not_, ops3);
  CompiledCircuit cc;
  cc.circuit = b.finish({out}, {"y"});
  const CircuitReport r = report_circuit(cc);
  CHECK(r.stats.size == 7);
  CHECK(r.stats.live_size == 5);  // x, y, ¬x, ∧, ¬
  CHECK(r.stats.depth == 1);
  CHECK(r.stats.bounded_fanin_depth == 1);
  CHECK(r.stats.depth_counting_not == 3);
  CHECK(r.logic_gates == std::optional<std::size_t>(2));  // the dead xor counts in size
  CHECK(r.not_gates == std::optional<std::size_t>(2));
  CHECK(r.and_levels == std::optional<std::uint32_t>(1));
  const auto j = to_json(r);
  CHECK(j["live_size"] == 5);
  CHECK(j["depth"] == 1);
  CHECK(j["depth_counting_not"] == 3);
  CHECK(j["logic_gates"] == 2);
  CHECK(j["not_gates"] == 2);
  const std::string text = format_text(r);
  CHECK(text.find("live size     5 gates") != std::string::npos);
  CHECK(text.find("depth         1 (unbounded fan-in, NOT free), 1 (fan-in 2, NOT free); 3 "
                  "counting NOT as a level") != std::string::npos);
  CHECK(text.find("logic gates   2 and/or/xor, 2 not") != std::string::npos);
  // Arithmetic circuits: no logic-gate figures, the depth line without the NOT note.
  CircuitBuilder ab;
  const GateId p = ab.input(), q = ab.input();
  CompiledCircuit ac;
  ac.circuit = ab.finish({ab.neg(ab.mul(p, q))});
  const CircuitReport ar = report_circuit(ac);
  CHECK(!ar.logic_gates);
  CHECK(to_json(ar)["not_gates"].is_null());
  CHECK(ar.stats.depth == 2);  // neg is a level
  CHECK(ar.stats.depth_counting_not == 2);
  CHECK(format_text(ar).find("depth         2 (unbounded fan-in), 2 (fan-in 2); lower") !=
        std::string::npos);
}

TEST_CASE("netlists are written without dead gates, regions follow", "[circuits][figures]") {
  TargetOptions o;
  o.target = parse_target("boolean");
  const CompiledCircuit cc = compile_model(load_model(test::example("s5_word_problem.json")), 4, o);
  const CircuitReport r = report_circuit(cc);
  CHECK(r.stats.size == 129);
  CHECK(r.stats.live_size == 25);
  DeadGateStats st;
  const CompiledCircuit swept = sweep_dead_gates(cc, &st);
  CHECK(swept.circuit.size() == 25);
  CHECK(st.dead == 104);
  CHECK(report_circuit(swept).stats.depth == r.stats.depth);
  std::mt19937_64 rng(5);
  rnncc::testing::check_same_function(cc.circuit, swept.circuit, rng);
  // The regions name kept gates, in order, and read back.
  REQUIRE(!swept.regions.empty());
  for (std::size_t i = 1; i < swept.regions.size(); ++i)
    CHECK(swept.regions[i - 1].first_gate < swept.regions[i].first_gate);
  CHECK(swept.regions.back().first_gate < swept.circuit.size());
  const CompiledCircuit back = circuit_from_json(circuit_file_text(swept, "s5.json"), "s5.json");
  CHECK(back.regions.size() == swept.regions.size());
  // Every netlist format: the file of the unswept circuit is the file of the swept one.
  for (const char* path : {"s5.aag", "s5.blif", "s5.bench"})
    CHECK(circuit_file_text(cc, path) == circuit_file_text(swept, path));
}

namespace {

bool yosys_available() {
  static const bool found = std::system("command -v yosys >/dev/null 2>&1") == 0;
  return found;
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  return out;
}

// The number after `key` (a regex) in `text`; fails the test when absent.
std::size_t figure(const std::string& text, const std::string& key) {
  std::smatch m;
  const std::regex re(key + R"(\s*(\d+))");
  if (!std::regex_search(text, m, re)) FAIL("no '" << key << "' in:\n" << text);
  return std::stoul(m[1]);
}
// Like figure, 0 when absent (Yosys lists no cell type it has none of).
std::size_t figure_or_0(const std::string& text, const std::string& key) {
  std::smatch m;
  const std::regex re(key + R"(\s*(\d+))");
  return std::regex_search(text, m, re) ? std::stoul(m[1]) : 0;
}

// rnncc's figures of an AIGER file against ABC's `read; print_stats` and Yosys's `read_aiger;
// stat -json` on the same file. ABC's reader hashes the ANDs (strash), so its "and" is
// and_nodes; logic_gates counts the ANDs as the file lists them, which Yosys keeps — the two
// agree on a file without duplicate ANDs (`strashed`: every EPFL file). Yosys draws a constant
// output 1 as a NOT of 0, so its NOT and cell counts are compared on circuits without constants.
void check_aiger_figures(const std::string& file, bool strashed) {
  INFO(file);
  const CircuitReport r = report_circuit(load_circuit(file));
  REQUIRE(r.logic_gates);
  const std::string abc = rnncc::testing::abc("read " + file + "; print_stats");
  CHECK(figure(abc, "i/o =") == r.stats.inputs);
  CHECK(figure(abc, "i/o =\\s*\\d+/") == r.stats.outputs);
  CHECK(figure(abc, "and =") == *r.and_nodes);
  CHECK(figure(abc, "lev =") == *r.and_levels);
  CHECK(figure(abc, "lev =") == r.stats.depth);
  if (strashed) CHECK(figure(abc, "and =") == *r.logic_gates);
  if (!yosys_available()) return;
  const std::string ys = run("timeout 300 yosys -Q -T -p 'read_aiger " + file + "; stat -json'");
  CHECK(figure_or_0(ys, "\"\\$_AND_\":") == *r.logic_gates);
  if (r.constants == 0) {
    CHECK(figure_or_0(ys, "\"\\$_NOT_\":") == *r.not_gates);
    CHECK(figure(ys, "\"num_cells\":") == r.stats.operations());
  }
}

// The same for BLIF: ABC reads a logic network (nd nodes, each a level: rnncc's operations plus
// constants and depth_counting_not), then `strash` (and_nodes, and_levels); Yosys makes a $lut
// cell of every .names (num_cells = operations).
void check_blif_figures(const std::string& file) {
  INFO(file);
  const CircuitReport r = report_circuit(load_circuit(file));
  const std::string abc =
      rnncc::testing::abc("read " + file + "; print_stats; strash; print_stats");
  CHECK(figure(abc, "i/o =") == r.stats.inputs);
  CHECK(figure(abc, "i/o =\\s*\\d+/") == r.stats.outputs);
  CHECK(figure(abc, "nd =") == r.stats.operations() + r.constants);
  CHECK(figure(abc, "lev =") == r.stats.depth_counting_not);
  const std::string strashed = abc.substr(abc.find("and ="));
  CHECK(figure(strashed, "and =") == *r.and_nodes);
  CHECK(figure(strashed, "lev =") == *r.and_levels);
  if (!yosys_available()) return;
  const std::string ys = run("timeout 300 yosys -Q -T -p 'read_blif " + file + "; stat -json'");
  CHECK(figure(ys, "\"num_cells\":") == r.stats.operations());
}

}  // namespace

TEST_CASE("figures agree with ABC and Yosys on written circuits", "[circuits][figures][abc]") {
  REQUIRE_ABC();
  if (!yosys_available()) WARN("yosys not found: the Yosys figures are not checked");
  struct Case {
    const char* example;
    std::size_t n;
    const char* target;
    const char* precision;
  };
  const Case cases[] = {{"s5_word_problem.json", 4, "boolean", "exact"},
                        {"relu_counter.json", 8, "boolean", "exact"},
                        {"s4_decay.json", 4, "boolean", "log:1"},
                        {"majority_counter.json", 8, "threshold", "exact"}};
  rnncc::testing::TempDir dir;
  for (const Case& k : cases) {
    INFO(k.example << " -n " << k.n << " --target " << k.target << " --precision " << k.precision);
    TargetOptions o;
    o.target = parse_target(k.target);
    parse_target_precision(k.precision, o.precision);
    const CompiledCircuit cc = compile_model(load_model(test::example(k.example)), k.n, o);
    const std::string aig =
        dir.file(std::string(k.example) + ".aig", circuit_file_text(cc, "x.aig"));
    const std::string blif =
        dir.file(std::string(k.example) + ".blif", circuit_file_text(cc, "x.blif"));
    check_aiger_figures(aig, false);
    check_blif_figures(blif);
    // The compiled circuit's own figures: live_size is what the netlist holds, and its AIG
    // figures are ABC's on the written file.
    const CircuitReport r = report_circuit(cc);
    const CircuitReport ra = report_circuit(load_circuit(aig));
    CHECK(r.and_nodes == ra.and_nodes);
    CHECK(r.and_levels == ra.and_levels);
    if (std::string(k.target) == "boolean") {
      CHECK(report_circuit(load_circuit(blif)).stats.size == r.stats.live_size);
      CHECK(r.stats.depth == report_circuit(load_circuit(blif)).stats.depth);
    }
  }
}

TEST_CASE("figures agree with ABC and Yosys on EPFL benchmarks", "[circuits][figures][abc]") {
  REQUIRE_ABC();
  const auto dir = rnncc::testing::epfl_dir();
  for (const char* name : {"ctrl", "int2float", "router", "cavlc", "dec", "multiplier"})
    check_aiger_figures((dir / (std::string(name) + ".aig")).string(), true);
  // The figures of benchmarks/README.md: multiplier 128/128 inputs/outputs, 27062 ANDs,
  // 274 levels (534 counting its NOT gates).
  const CircuitReport m = report_circuit(load_circuit((dir / "multiplier.aig").string()));
  CHECK(*m.logic_gates == 27062);
  CHECK(m.stats.depth == 274);
  CHECK(m.stats.depth_counting_not == 534);
}

// `rnncc compile --stats` describes the circuit as written (issue 27, item 2): the report of the
// swept circuit equals the report of its JSON file read back — size, depth, combine levels and
// the rest — on every example the route compiles, for parallel and sequential scans, last and
// all outputs, and the three targets. Hand-checked: DPLR d = 3 at n = 64 under Brent–Kung keeps
// 3 369 of 4 030 gates and 6 of 10 combine levels (the up-sweep; the down-sweep is dead).
TEST_CASE("compile --stats: the swept circuit's report equals its file's", "[circuits][figures]") {
  const std::vector<std::string> examples{
      "dplr_d3.json",         "mamba_diagonal.json",  "parity_deltanet.json",
      "s4_decay.json",        "gated_deltanet.json",  "majority_counter.json",
      "s5_word_problem.json", "rwkv7_overwrite.json", "counter_rational.json"};
  std::size_t compared = 0;
  for (const std::string& name : examples) {
    const Model model = load_model(test::example(name));
    for (const char* target : {"arith", "boolean", "threshold"})
      for (const char* scan : {"brent-kung", "sklansky", "sequential"})
        for (const char* outputs : {"last", "all"}) {
          TargetText text;
          text.target = target;
          text.precision = std::string(target) == "arith" ? "exact" : "log:2";
          text.scan = scan;
          text.outputs = outputs;
          const TargetOptions options = parse_target_options(text);
          CompiledCircuit compiled;
          try {
            compiled = compile_model(model, 8, options);
          } catch (const InputError&) {
            continue;  // this route does not compile this model
          }
          DeadGateStats dead;
          const CompiledCircuit written = sweep_dead_gates(compiled, &dead);
          const CompiledCircuit read =
              circuit_from_json(circuit_to_json(written).dump(), "written.json");
          INFO(name << " " << target << " " << scan << " " << outputs);
          nlohmann::ordered_json as_compiled = to_json(report_circuit(written));
          CHECK(as_compiled.at("dead_gates_swept") == dead.dead);
          as_compiled.erase("dead_gates_swept");  // what only the compile knows
          as_compiled.erase("dead_gates_note");
          CHECK(to_json(report_circuit(read)).dump() == as_compiled.dump());
          CHECK(written.circuit.size() + dead.dead == compiled.circuit.size());
          ++compared;
        }
  }
  CHECK(compared >= 40);
}

TEST_CASE("compile --stats: the DPLR example at n = 64 with Brent–Kung, swept as written",
          "[circuits][figures]") {
  TargetText text;
  text.scan = "brent-kung";
  const Model dplr = load_model(test::example("dplr_d3.json"));
  const CompiledCircuit compiled = compile_model(dplr, 64, parse_target_options(text));
  CHECK(compiled.circuit.size() == 4030);
  CHECK(compiled.combine_levels == 10);
  DeadGateStats dead;
  const CompiledCircuit written = sweep_dead_gates(compiled, &dead);
  CHECK(written.circuit.size() == 3369);
  CHECK(written.combine_levels == 6);
  CHECK(dead.dead == 661);
  CHECK(std::string(dead_gates_note(dplr, parse_target_options(text))).find("down-sweep") !=
        std::string::npos);
  const CompiledCircuit as_written = compile_as_written(dplr, 64, parse_target_options(text));
  CHECK(as_written.circuit.size() == 3369);
  CHECK(as_written.dead_gates_swept == std::optional<std::size_t>(661));
  CHECK(as_written.dead_gates_note.find("down-sweep") != std::string::npos);
  text.scan = "sequential";
  CHECK(dead_gates_note(dplr, parse_target_options(text)) == nullptr);
}
