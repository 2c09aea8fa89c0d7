// Drawings: the DOT text has what the picture promises (clusters per region, rank by depth,
// the critical path in red, one box per region when collapsed); SVG and PNG render.
#include <catch2/catch.hpp>

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
