// Drawing circuits through Graphviz (cgraph + gvc): SVG, PNG or DOT. Gates are coloured by
// kind and ranked by depth; a compiled circuit's regions (leaves, scan combines, readouts)
// become clusters; the critical path can be highlighted; `collapse` draws each region as one
// box with the gates it holds, so a scan over n = 64 stays readable — its leaves F1 … Fn one
// column in time order (a position whose leaf holds no gate of its own, such as F1 where the
// initial state folds it away, still gets its box). A threshold gate's weights are edge labels
// with a margin, so that two labels never touch. A drawing without a title is titled by the
// circuit's kind (threshold, boolean or arithmetic: circuit_kind_name).
#pragma once

#include <cstddef>
#include <string>

#include "circuits/compiled_circuit.hpp"

namespace rnncc {

// json: Graphviz's JSON output after layout (positions, label texts and widths), what the
// tests measure the layout with; not an extension draw_format_for accepts.
enum class DrawFormat { svg, png, dot, json };

struct DrawOptions {
  DrawFormat format = DrawFormat::svg;
  bool collapse = false;
  bool highlight_critical = false;
  std::size_t max_nodes = 4000;  // refuse larger drawings (suggest --collapse)
  std::string title;
};

// The format from a file name's extension (.svg, .png, .dot); InputError otherwise.
DrawFormat draw_format_for(const std::string& path);

// What a circuit computes over, by its gates: "arithmetic" when it has an arithmetic or test
// gate (add, mul, positive, …) or a constant other than 0/1, else "threshold" when it has a
// threshold or majority gate, else "boolean".
std::string circuit_kind_name(const Circuit& c);

// Renders to bytes (SVG/PNG) or DOT text.
std::string draw_circuit(const CompiledCircuit& c, const DrawOptions& options);

}  // namespace rnncc
