// Drawing circuits through Graphviz (cgraph + gvc): SVG, PNG or DOT. Gates are coloured by
// kind and ranked by depth; a compiled circuit's regions (leaves, scan combines, readouts)
// become clusters; the critical path can be highlighted; `collapse` draws each region as one
// box with the gates it holds, so a scan over n = 64 stays readable.
#pragma once

#include <cstddef>
#include <string>

#include "circuits/compile/compiled_circuit.hpp"

namespace rnncc {

enum class DrawFormat { svg, png, dot };

struct DrawOptions {
  DrawFormat format = DrawFormat::svg;
  bool collapse = false;
  bool highlight_critical = false;
  std::size_t max_nodes = 4000;  // refuse larger drawings (suggest --collapse)
  std::string title;
};

// The format from a file name's extension (.svg, .png, .dot); InputError otherwise.
DrawFormat draw_format_for(const std::string& path);

// Renders to bytes (SVG/PNG) or DOT text.
std::string draw_circuit(const CompiledCircuit& c, const DrawOptions& options);

}  // namespace rnncc
