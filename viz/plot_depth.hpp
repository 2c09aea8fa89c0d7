// The depth-growth plot of `rnncc depth --plot` (circuits/depth_growth.hpp measures the points):
// depth against n, one line per architecture, drawn by gnuplot. Needs no Graphviz, so it is its
// own library (rnncc_plot) and `rnncc depth --plot` works in builds without Graphviz.
#pragma once

#include <string>
#include <vector>

#include "circuits/depth_growth.hpp"

namespace rnncc {

// Plots depth against n (log-scaled n axis), one line per architecture, to an SVG file through
// gnuplot. Returns false, writing nothing, when gnuplot is not installed; throws InputError when
// gnuplot fails. The SVG is written atomically.
bool plot_depths_svg(const std::vector<DepthPoint>& points, const std::string& svg_path);

}  // namespace rnncc
