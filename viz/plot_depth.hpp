// The depth-growth plot of `rnncc depth --plot` (circuits/measure/depth_growth.hpp measures the
// points and fits the laws): drawn by gnuplot. Needs no Graphviz, so it is its own library
// (rnncc_plot) and `rnncc depth --plot` works in builds without Graphviz.
//
// The picture is a gnuplot multiplot: a first panel with every series on log–log axes (n and
// depth both log₂-scaled: a·n + b is a line of slope 1 there, log laws flatten), then one panel
// per chosen growth class (constant, log, log·loglog, log², n), each holding the series whose
// law AICc chose, drawn as points with the fitted law a·f(n) + b as a line beside them: a log₂ n
// axis, where a·log₂n + b is a straight line and a·log₂²n + b a parabola; the linear class keeps
// the log depth axis too (a·n + b straight). The title names the target and its precision.
// Without fits (fewer than 4 lengths) there is one panel of points. The script and the data are
// kept beside the picture, FILE.gp and FILE.dat, so a user can edit them and rerun
// `gnuplot FILE.gp` (in FILE's directory).
#pragma once

#include <string>
#include <vector>

#include "circuits/measure/depth_growth.hpp"

namespace rnncc {

enum class PlotFormat { svg, png, pdf };

// The format from the extension: .svg, .png (pngcairo, or gnuplot's png terminal without
// cairo), .pdf (pdfcairo). InputError("--plot", …) for any other extension.
PlotFormat plot_format_for(const std::string& path);

// "arith (exact rationals)", "boolean (log:1 fixed point; finite-state models exact)", …
std::string plot_target_label(CircuitTarget target);

// The data file: one gnuplot index block per series (first-appearance order), "# label" then
// rows "n depth size bounded_fanin_depth", blocks separated by two blank lines.
std::string depth_plot_data(const std::vector<DepthPoint>& points);

// The gnuplot script reading `data_name` and writing `output_name` (both as written into the
// script: relative to the directory gnuplot runs in). `fits` may be empty (no lines drawn); a
// fit is drawn for the series of the same label. The output name can be overridden with
// `gnuplot -e "output='OTHER'" FILE.gp`.
std::string depth_plot_script(const std::vector<DepthPoint>& points,
                              const std::vector<DepthFit>& fits, CircuitTarget target,
                              PlotFormat format, const std::string& output_name,
                              const std::string& data_name);

// What plot_depths wrote.
struct DepthPlotFiles {
  bool rendered = false;     // false: gnuplot is not installed (script and data still written)
  std::string script, data;  // path + ".gp", path + ".dat"
  std::string render_hint;   // the command that renders them: "cd DIR && gnuplot NAME.gp"
};

// Writes path.gp and path.dat beside `path` (atomically), then, when gnuplot is installed,
// renders the picture to `path` (atomically, through a private working directory). The format
// comes from the extension (plot_format_for, checked before anything is written). InputError
// ("--plot") when gnuplot fails, with its messages.
DepthPlotFiles plot_depths(const std::vector<DepthPoint>& points, const std::vector<DepthFit>& fits,
                           CircuitTarget target, const std::string& path);

}  // namespace rnncc
