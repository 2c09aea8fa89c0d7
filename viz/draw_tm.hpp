// Drawing Turing machines and their hybrid models through Graphviz: the machine's state diagram
// (one node per state, a double circle "Z" for the halt state, an edge q → q' per defined
// transition labelled "read/write,move"; undefined transitions "---" go to a grey "undefined"
// node), and the layer diagram of the hybrid model (turing_machine_hybrid), one box per layer
// with its kind, sizes and the equation it computes. DOT is written as text (deterministic, so
// golden tests can compare it); SVG and PNG are rendered from that text by gvc.
#pragma once

#include <string>

#include "constructions/turing_machine.hpp"
#include "viz/draw_circuit.hpp"

namespace rnncc {

std::string tm_state_diagram_dot(const TuringMachine& m);
std::string tm_layer_diagram_dot(const TuringMachine& m, const TmHybrid& h);
// DOT text → the format's bytes (dot: unchanged).
std::string render_dot(const std::string& dot, DrawFormat format);

}  // namespace rnncc
