// Drawing Turing machines: the rendered state diagram names every state (a graph read before the
// Graphviz context existed lost its nodes' default labels), and the layer diagram names the
// hybrid's four layers.
#include <catch2/catch.hpp>

#include "constructions/turing_machine.hpp"
#include "viz/draw_tm.hpp"

using namespace rnncc;

TEST_CASE("the rendered state diagram labels every state and transition", "[viz][tm]") {
  const TuringMachine m = parse_machine("1RB1LB_1LA1RZ");
  const std::string svg = render_dot(tm_state_diagram_dot(m), DrawFormat::svg);
  REQUIRE_THAT(svg, Catch::Contains("<svg"));
  for (const char* text : {">A</text>", ">B</text>", ">Z</text>", ">0/1,L</text>", ">1/1,R</text>"})
    CHECK_THAT(svg, Catch::Contains(text));
}

TEST_CASE("the layer diagram names the hybrid's layers", "[viz][tm]") {
  const TuringMachine m = parse_machine("1RB1LB_1LA1RZ");
  const std::string dot = tm_layer_diagram_dot(m, turing_machine_hybrid(m, {}, {}));
  for (const char* text : {"LRNN (general), d = 9", "attention, unique-hard", "ReLU", "argmax"})
    CHECK_THAT(dot, Catch::Contains(text));
}
