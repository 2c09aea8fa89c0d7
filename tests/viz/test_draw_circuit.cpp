// Drawings: the DOT text has what the picture promises (clusters per region, rank by depth,
// the critical path in red, one box per region when collapsed); SVG and PNG render; and the
// layout itself (Graphviz's JSON output: positions, label texts and widths) keeps collapsed
// leaves in time order, F1 … Fn all there, and edge labels apart.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"
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
  // each operand's edge carries that operand's weight (weights per operand, not sorted), as an
  // HTML label whose one cell pads the text (so that labels keep apart)
  const Circuit& c = cc.circuit;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::string attrs = edge(dot, "g" + std::to_string(c.operands(t)[k]), g);
    REQUIRE(!attrs.empty());
    CHECK(std::regex_search(attrs,
                            std::regex("label=<<table [^>]*cellpadding=\"2\"><tr><td>" +
                                       std::to_string(c.weights(t)[k]) + "</td></tr></table>>")));
  }
  CHECK(count(dot, "<td>-1</td>") == 1);
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

namespace {
CompiledCircuit targeted(const char* example, std::size_t n, const char* target,
                         const char* precision, const char* scan = "brent-kung") {
  TargetText text;
  text.target = target;
  text.precision = precision;
  text.scan = scan;
  return compile_model(load_model(test::example(example)), n, parse_target_options(text));
}
nlohmann::json layout_of(const CompiledCircuit& cc, bool collapse) {
  DrawOptions o;
  o.format = DrawFormat::json;
  o.collapse = collapse;
  return nlohmann::json::parse(draw_circuit(cc, o));
}
// The graph's title (its label attribute) in the DOT text.
std::string title_of(const std::string& dot) {
  std::smatch m;
  static const std::regex title(R"re(graph \[[^\]]*label="([^"]*)")re");
  return std::regex_search(dot, m, title) ? m.str(1) : "";
}
}  // namespace

TEST_CASE("collapsed drawings: leaves F1 … Fn, one column, in time order", "[viz]") {
  struct Case {
    const char* example;
    std::size_t n;
    const char* scan;
  };
  // mamba_diagonal's first leaf has no gate of its own (the combine reads x[1,·] directly);
  // gated_deltanet at n = 20 came out F17, F18, …, F1, F2 before
  for (const Case& k :
       {Case{"gated_deltanet.json", 20, "brent-kung"}, Case{"mamba_diagonal.json", 20, "sklansky"},
        Case{"dplr_d3.json", 16, "sklansky"}, Case{"s4_decay.json", 9, "sklansky"},
        Case{"parity_deltanet.json", 12, "brent-kung"}}) {
    INFO(k.example << ", n = " << k.n);
    const nlohmann::json layout =
        layout_of(targeted(k.example, k.n, "arith", "exact", k.scan), true);
    std::map<std::size_t, std::pair<double, double>> at;  // t → (x, y) of F_t's box
    static const std::regex leaf(R"(^F([0-9]+) = \(A\(x[0-9]+\), B\(x[0-9]+\)\) — [0-9]+ gates?$)");
    for (const auto& object : layout.at("objects")) {
      if (!object.contains("label") || !object.contains("pos")) continue;
      const std::string label = object.at("label");
      std::smatch m;
      if (!std::regex_match(label, m, leaf)) continue;
      const std::size_t t = std::stoul(m.str(1));
      CHECK(at.count(t) == 0);  // each position once
      const std::string pos = object.at("pos");
      at[t] = {std::stod(pos.substr(0, pos.find(','))), std::stod(pos.substr(pos.find(',') + 1))};
    }
    REQUIRE(at.size() == k.n);  // F1 … Fn, none missing
    CHECK(at.begin()->first == 1);
    CHECK(at.rbegin()->first == k.n);
    for (std::size_t t = 2; t <= k.n; ++t) {
      CHECK(at[t].first == at[1].first);       // one column
      CHECK(at[t].second < at[t - 1].second);  // below its predecessor (Graphviz's y points up)
    }
  }
  // a leaf without gates is drawn with 0 and feeds the combine that reads its inputs
  DrawOptions o;
  o.format = DrawFormat::dot;
  o.collapse = true;
  const std::string dot = draw_circuit(targeted("mamba_diagonal.json", 4, "arith", "exact"), o);
  CHECK_THAT(dot, Catch::Contains("F1 = (A(x1), B(x1)) — 0 gates"));
  CHECK(std::regex_search(dot, std::regex(R"(\tleaf_0_1 -> r[0-9]+)")));
}

TEST_CASE("drawings are titled by what they are: threshold, boolean, arithmetic", "[viz]") {
  const CompiledCircuit thr = targeted("s4_decay.json", 4, "threshold", "log:1");
  const CompiledCircuit boolean = targeted("majority_counter.json", 2, "boolean", "log:1");
  const CompiledCircuit arith = targeted("s4_decay.json", 4, "arith", "exact");
  CHECK(circuit_kind_name(thr.circuit) == "threshold");
  CHECK(circuit_kind_name(boolean.circuit) == "boolean");
  CHECK(circuit_kind_name(arith.circuit) == "arithmetic");
  for (const CompiledCircuit* cc : {&thr, &boolean, &arith}) {
    const std::string dot = dot_of(*cc);
    // the oracle: live gates, inputs and constants aside, and the deepest of them
    const auto live = live_table(cc->circuit);
    const auto depth = depth_table(cc->circuit, FaninModel::unbounded);
    std::size_t gates = 0, deepest = 0;
    for (GateId g = 0; g < cc->circuit.size(); ++g)
      if (live[g] && cc->circuit.kind(g) != GateKind::constant &&
          cc->circuit.kind(g) != GateKind::input) {
        ++gates;
        deepest = std::max<std::size_t>(deepest, depth[g]);
      }
    CHECK(title_of(dot) == circuit_kind_name(cc->circuit) + " circuit — " + std::to_string(gates) +
                               " gates, depth " + std::to_string(deepest));
  }
  // the threshold sum is one region: titled as a threshold circuit, not as a scan step
  const std::string dot = dot_of(thr);
  CHECK(count(dot, "∘") == 0);
  CHECK(std::regex_search(dot, std::regex(R"(label="threshold circuit — [0-9]+ gates")")));
  // a title given is kept
  DrawOptions o;
  o.format = DrawFormat::dot;
  o.title = "my title";
  CHECK(title_of(draw_circuit(thr, o)) == "my title");
}

TEST_CASE("edge labels keep apart: no two weights' boxes meet", "[viz]") {
  struct Case {
    const char* example;
    std::size_t n;
  };
  // the time-invariant sum, unique-hard attention, the diagonal product, a majority counter
  std::size_t checked = 0;
  for (const Case& k : {Case{"s4_decay.json", 8}, Case{"attention_most_recent_a.json", 6},
                        Case{"mamba_diagonal.json", 4}, Case{"majority_counter.json", 4}}) {
    INFO(k.example << ", n = " << k.n);
    const nlohmann::json layout = layout_of(targeted(k.example, k.n, "threshold", "log:1"), false);
    // Each edge label's text box from its drawing operations: "F" sets the font size, "T" draws
    // text at pt (baseline) centred ("c"), left ("l") or right ("r") of it, `width` wide.
    struct Box {
      double x0, y0, x1, y1;
      std::string text;
    };
    std::vector<Box> boxes;
    for (const auto& e : layout.at("edges")) {
      if (!e.contains("_ldraw_")) continue;
      double size = 14;
      for (const auto& op : e.at("_ldraw_")) {
        if (op.at("op") == "F") size = op.at("size");
        if (op.at("op") != "T") continue;
        const double x = op.at("pt")[0], y = op.at("pt")[1], w = op.at("width");
        const std::string align = op.at("align");
        const double x0 = align == "c" ? x - w / 2 : align == "l" ? x : x - w;
        boxes.push_back({x0, y - 0.25 * size, x0 + w, y + 0.75 * size, op.at("text")});
      }
    }
    REQUIRE(boxes.size() > 20);
    checked += boxes.size();
    // apart by a margin of 1 point at least (touching boxes read "1" "-1" as "1-1")
    const double margin = 1;
    std::size_t meeting = 0;
    std::string first;
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        const Box &a = boxes[i], &b = boxes[j];
        if (a.x0 < b.x1 + margin && b.x0 < a.x1 + margin && a.y0 < b.y1 + margin &&
            b.y0 < a.y1 + margin && meeting++ == 0)
          first = "'" + a.text + "' at " + std::to_string(a.x0) + "," + std::to_string(a.y0) +
                  " and '" + b.text + "' at " + std::to_string(b.x0) + "," + std::to_string(b.y0);
      }
    INFO(first);
    CHECK(meeting == 0);
  }
  CHECK(checked > 200);
}
