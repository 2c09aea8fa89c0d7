// Drawings: the DOT text has what the picture promises (clusters per region, rank by depth,
// the critical path in red, one box per region when collapsed); SVG and PNG render.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include "../support.hpp"
#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "rnn/model_json.hpp"
#include "viz/draw_circuit.hpp"

using namespace rnncc;

namespace {
std::size_t count(const std::string& text, const std::string& pattern) {
  std::size_t n = 0;
  for (std::size_t at = text.find(pattern); at != std::string::npos;
       at = text.find(pattern, at + 1))
    ++n;
  return n;
}
std::string fmt_gates(std::size_t n) {
  return "— " + std::to_string(n) + (n == 1 ? " gate\"" : " gates\"");
}
CompiledCircuit compiled(const char* example, std::size_t n, ScanKind scan) {
  CompileOptions o;
  o.scan = scan;
  o.outputs = OutputMode::all;
  return compile_lrnn(load_model(test::example(example)), n, o);
}
}  // namespace

TEST_CASE("gate drawings: a cluster per region, critical path highlighted", "[viz]") {
  CompiledCircuit cc = compiled("binary_value_wfa.json", 4, ScanKind::brent_kung);
  DrawOptions o;
  o.format = DrawFormat::dot;
  o.highlight_critical = true;
  std::string dot = draw_circuit(cc, o);
  std::size_t combines = 0;
  for (const Region& r : cc.regions) combines += r.kind == RegionKind::combine;
  CHECK(count(dot, "subgraph cluster_") >= combines);
  CHECK(count(dot, "rank=same") > 0);
  // every gate on the critical path (inputs and constants aside) is drawn red
  const auto path = critical_path(cc.circuit, FaninModel::unbounded);
  std::size_t drawn = 0;
  for (GateId g : path) drawn += cc.circuit.kind(g) != GateKind::constant;
  CHECK(count(dot, "penwidth=2.5") >= 2 * drawn - 1);  // nodes and the edges between them
  o.highlight_critical = false;
  CHECK(count(draw_circuit(cc, o), "#d62728") == 0);
}

TEST_CASE("collapsed drawings: one box per live region", "[viz]") {
  CompiledCircuit cc = compiled("gated_deltanet.json", 64, ScanKind::sklansky);
  DrawOptions o;
  o.format = DrawFormat::dot;
  o.collapse = true;
  std::string dot = draw_circuit(cc, o);
  std::size_t expected = 0;
  for (const Region& r : cc.regions) expected += r.kind == RegionKind::combine;
  CHECK(count(dot, "level ") == expected);  // every combine box (all outputs are live)
  CHECK(count(dot, "shape=box") >= 64 + expected);
  CHECK_THROWS_WITH(draw_circuit(cc, DrawOptions{DrawFormat::dot, false, false, 100, ""}),
                    Catch::Contains("try --collapse"));
}

TEST_CASE("SVG and PNG render", "[viz]") {
  CompiledCircuit cc = compiled("parity_deltanet.json", 3, ScanKind::sklansky);
  DrawOptions o;
  std::string svg = draw_circuit(cc, o);
  CHECK(svg.find("<svg") != std::string::npos);
  o.format = DrawFormat::png;
  std::string png = draw_circuit(cc, o);
  REQUIRE(png.size() > 8);
  CHECK(png.substr(1, 3) == "PNG");
  CHECK(draw_format_for("a/b.svg") == DrawFormat::svg);
  CHECK_THROWS_AS(draw_format_for("a/b.pdf"), InputError);
}

TEST_CASE("two drawings in one process are identical", "[viz]") {
  CompiledCircuit cc = compiled("parity_deltanet.json", 3, ScanKind::sklansky);
  for (DrawFormat f : {DrawFormat::dot, DrawFormat::svg}) {
    DrawOptions o;
    o.format = f;
    const std::string first = draw_circuit(cc, o);
    o.format = DrawFormat::svg;
    (void)draw_circuit(cc, o);  // a rendering in between (layout attributes)
    o.format = f;
    CHECK(draw_circuit(cc, o) == first);
  }
}

namespace {
// The DOT statements of a subgraph (agwrite: "\tsubgraph NAME {" … "\t}").
std::string subgraph(const std::string& dot, const std::string& name) {
  const auto at = dot.find("\tsubgraph " + name + " {");
  if (at == std::string::npos) return "";
  return dot.substr(at, dot.find("\n\t}", at) - at);
}
// The gate nodes declared in a block, in order ("g12" for gate 12).
std::vector<std::string> declared(const std::string& block) {
  std::vector<std::string> out;
  static const std::regex decl(R"(\n\t\t(g[0-9]+)[\t ;])");
  for (std::sregex_iterator it(block.begin(), block.end(), decl), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}
// The attributes of the edge FROM -> TO (the first one).
std::string edge(const std::string& dot, const std::string& from, const std::string& to) {
  const std::regex e("\\t" + from + " -> " + to + R"((\t\[[^\]]*\])?)");
  std::smatch m;
  return std::regex_search(dot, m, e) ? m.str(0) + " " : "";
}
CompiledCircuit bare(Circuit c) {
  CompiledCircuit cc;
  cc.circuit = std::move(c);
  return cc;
}
std::string dot_of(const CompiledCircuit& cc) {
  DrawOptions o;
  o.format = DrawFormat::dot;
  return draw_circuit(cc, o);
}
}  // namespace

TEST_CASE("threshold gates: the threshold in the node, each weight on its edge", "[viz]") {
  CircuitBuilder b;
  const GateId x = b.input("a"), y = b.input("b"), z = b.input("c");
  const GateId ops[] = {x, y, z};
  const std::int32_t w[] = {2, -1, 3};
  const GateId t = b.thr(ops, w, 2);
  const CompiledCircuit cc = bare(b.finish({t}));
  const std::string dot = dot_of(cc);
  const std::string g = "g" + std::to_string(t);
  CHECK(std::regex_search(dot, std::regex("label=\"?≥2\"?[,\\]]")));
  // each operand's edge carries that operand's weight (weights per operand, not sorted)
  const Circuit& c = cc.circuit;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::string attrs = edge(dot, "g" + std::to_string(c.operands(t)[k]), g);
    REQUIRE(!attrs.empty());
    CHECK(std::regex_search(
        attrs, std::regex("label=\"?" + std::to_string(c.weights(t)[k]) + "\"?[,\\]]")));
  }
  CHECK(count(dot, "label=-1") + count(dot, "label=\"-1\"") == 1);
}

TEST_CASE("AIG inversions: a NOT feeding an AND is a marked edge, not a node", "[viz]") {
  CircuitBuilder b;
  const GateId x = b.input("a"), y = b.input("b");
  const GateId nx = b.not_(x);
  const GateId ops[] = {nx, y};
  const GateId g = b.and_(ops);
  const std::string dot = dot_of(bare(b.finish({g})));
  CHECK(count(dot, "label=¬") + count(dot, "label=\"¬\"") == 0);  // no NOT node
  CHECK(count(dot, "\tg" + std::to_string(nx) + "\t") +
            count(dot, "\tg" + std::to_string(nx) + ";") ==
        0);
  const std::string inverted = edge(dot, "g" + std::to_string(x), "g" + std::to_string(g));
  CHECK_THAT(inverted, Catch::Contains("arrowhead=odot"));
  CHECK_THAT(inverted, Catch::Contains("style=dashed"));
  const std::string plain = edge(dot, "g" + std::to_string(y), "g" + std::to_string(g));
  REQUIRE(!plain.empty());
  CHECK(plain.find("odot") == std::string::npos);
  CHECK_THAT(dot, Catch::Contains("subgraph cluster_legend"));
  // a NOT that is an output stays a node; without inversions there is no legend
  CircuitBuilder b2;
  const GateId x2 = b2.input("a");
  const std::string dot2 = dot_of(bare(b2.finish({b2.not_(x2)})));
  CHECK(count(dot2, "label=¬") + count(dot2, "label=\"¬\"") == 1);
  CHECK(count(dot2, "cluster_legend") == 0);
}

TEST_CASE("inputs in time order, left to right in one rank", "[viz]") {
  CircuitBuilder b;
  const GateId i0 = b.input("x[2,a]"), i1 = b.input("x[1,b]"), i2 = b.input("x[1,a]"),
               i3 = b.input("x[10,a]");
  const GateId ops[] = {i0, i1, i2, i3};
  const std::string dot = dot_of(bare(b.finish({b.sum(ops)})));
  // time first (1, 1, 2, 10: numerically), then the input's index
  const std::vector<std::string> expected = {"g" + std::to_string(i1), "g" + std::to_string(i2),
                                             "g" + std::to_string(i0), "g" + std::to_string(i3)};
  CHECK(declared(subgraph(dot, "rank_0")) == expected);
  for (std::size_t k = 1; k < expected.size(); ++k)
    CHECK_THAT(edge(dot, expected[k - 1], expected[k]), Catch::Contains("style=invis"));
  // a compiled circuit: the input rank reads x[1,·], x[2,·], … in order
  CompiledCircuit cc = compiled("parity_deltanet.json", 5, ScanKind::sklansky);
  const std::string rank = subgraph(dot_of(cc), "rank_0");
  std::vector<int> times;
  static const std::regex label(R"(label="x\[([0-9]+),)");
  for (std::sregex_iterator it(rank.begin(), rank.end(), label), end; it != end; ++it)
    times.push_back(std::stoi((*it)[1]));
  CHECK(times.size() == cc.circuit.inputs().size());
  CHECK(std::is_sorted(times.begin(), times.end()));
  CHECK(times.front() == 1);
  CHECK(times.back() == 5);
}

TEST_CASE("cluster labels count the gates drawn in them", "[viz]") {
  for (const char* example : {"binary_value_wfa.json", "gated_deltanet.json"}) {
    CompiledCircuit cc = compiled(example, 4, ScanKind::brent_kung);
    const std::string dot = dot_of(cc);
    const auto live = live_table(cc.circuit);
    std::size_t clusters = 0;
    for (std::uint32_t r = 0; r < cc.regions.size(); ++r) {
      const std::string block = subgraph(dot, "cluster_" + std::to_string(r));
      // the oracle: live gates of the region, constants and inputs aside
      std::size_t expected = 0;
      for (GateId g = 0; g < cc.circuit.size(); ++g)
        expected += cc.region_of(g) == r && live[g] && cc.circuit.kind(g) != GateKind::constant &&
                    cc.circuit.kind(g) != GateKind::input;
      if (expected == 0) {
        CHECK(block.empty());
        continue;
      }
      ++clusters;
      CHECK(declared(block).size() == expected);
      CHECK_THAT(block, Catch::Contains(fmt_gates(expected)));
    }
    CHECK(clusters > 0);
  }
}
