// The depth-growth plot (viz/plot_depth.hpp): the script and data beside the picture (always),
// the picture through gnuplot when it is installed, in the format of the extension; a log depth
// axis, one panel per chosen growth class, the fitted laws drawn as functions. Built without
// Graphviz too.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "algebra/error.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "viz/plot_depth.hpp"

using namespace rnncc;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
std::size_t count(const std::string& text, const std::string& pattern) {
  std::size_t n = 0;
  for (auto at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + 1)) ++n;
  return n;
}
std::string fmt_f(std::size_t i, double a, const std::string& term, double b) {
  char buffer[200];
  std::snprintf(buffer, sizeof buffer, "f%zu(x) = %.17g*%s + %.17g", i, a, term.c_str(), b);
  return buffer;
}
bool have_gnuplot() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}
std::string temp(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / name;
  for (const char* ext : {"", ".gp", ".dat"}) std::filesystem::remove(p.string() + ext);
  return p.string();
}
}  // namespace

TEST_CASE("the depth plot script: log axes, one panel per class, the fitted laws",
          "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn", "diagonal"}, parse_lengths("2..64"),
                                  DepthTarget::arithmetic, 1u << 20);
  const auto fits = fit_depths(pts);
  const std::string gp =
      depth_plot_script(pts, fits, DepthTarget::arithmetic, PlotFormat::svg, "d.svg", "d.svg.dat");
  CHECK_THAT(gp, Catch::Contains("set logscale x 2"));
  CHECK_THAT(gp, Catch::Contains("set logscale y 2"));
  CHECK_THAT(gp, Catch::Contains("set multiplot layout 2,2"));  // every series, log, n
  CHECK_THAT(gp, Catch::Contains("target arith (exact rationals)"));
  CHECK_THAT(gp, Catch::Contains("set terminal svg"));
  CHECK_THAT(gp, Catch::Contains("output = 'd.svg'"));
  // one fitted function per series, with the fit's own coefficients, drawn as a line
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const GrowthFit& c = fits[i].best();
    const std::string term = c.model == GrowthModel::linear ? "x" : "lg(x)";
    CHECK_THAT(gp, Catch::Contains(fmt_f(i, c.a, term, c.b)));
    // drawn in "every series" and in its class's panel; diagonal's (equal to dplr's) is not
    CHECK(count(gp, "f" + std::to_string(i) + "(x) with lines") == (i == 2 ? 0u : 2u));
  }
  CHECK_THAT(gp, Catch::Contains("chosen law a*n+b"));
  CHECK_THAT(gp, Catch::Contains("chosen law a*log2(n)+b"));
  // dplr and diagonal have the same depths: one entry naming both (drawn once per panel)
  CHECK_THAT(gp, Catch::Contains("title 'dplr, diagonal: 2 log2(n) + 6'"));
  CHECK(count(gp, "data index 2 ") == 0);
  // the law the fit chose, evaluated as gnuplot would, matches the measured depth at n = 64
  const GrowthFit& relu = fits[1].best();
  REQUIRE(relu.model == GrowthModel::linear);
  CHECK(relu.a * 64 + relu.b == Approx(static_cast<double>(pts[2 * 6 - 1].depth)));
  // without fits: one panel of points
  const std::string bare =
      depth_plot_script(pts, {}, DepthTarget::boolean, PlotFormat::png, "d.png", "d.png.dat");
  CHECK(count(bare, "multiplot") == 0);
  CHECK(count(bare, "with lines") == 0);
  CHECK_THAT(bare, Catch::Contains("pngcairo"));
  CHECK_THAT(bare, Catch::Contains("target boolean (log:1"));
}

TEST_CASE("the depth plot data: one index block per series", "[depth-growth]") {
  std::vector<DepthPoint> pts = {{"a", 2, 10, 3, 4}, {"b", 2, 11, 5, 6}, {"a", 4, 20, 4, 5}};
  CHECK(depth_plot_data(pts) ==
        "# a\n# n depth size bounded_fanin_depth\n2 3 10 4\n4 4 20 5\n"
        "\n\n# b\n# n depth size bounded_fanin_depth\n2 5 11 6\n");
}

TEST_CASE("the depth plot: format from the extension, script and data kept beside",
          "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn"}, parse_lengths("2..16"),
                                  DepthTarget::arithmetic, 1u << 20);
  const auto fits = fit_depths(pts);
  CHECK(plot_format_for("a/b.svg") == PlotFormat::svg);
  CHECK(plot_format_for("b.png") == PlotFormat::png);
  CHECK(plot_format_for("b.pdf") == PlotFormat::pdf);
  for (const char* bad : {"b.jpg", "b", "b.svg.gp", "svg"}) {
    CHECK_THROWS_AS(plot_format_for(bad), InputError);
    CHECK_THROWS_WITH(plot_format_for(bad),
                      Catch::Contains("expected a file ending in .svg, .png or .pdf"));
  }
  const std::string jpg = temp("rnncc-depth-test.jpg");
  CHECK_THROWS_AS(plot_depths(pts, fits, DepthTarget::arithmetic, jpg), InputError);
  CHECK_FALSE(std::filesystem::exists(jpg + ".gp"));  // refused before anything is written
  const bool gnuplot = have_gnuplot();
  for (const char* name : {"rnncc-depth-test.svg", "rnncc-depth-test.png"}) {
    const std::string path = temp(name);
    const DepthPlotFiles files = plot_depths(pts, fits, DepthTarget::arithmetic, path);
    CHECK(files.rendered == gnuplot);
    CHECK(files.script == path + ".gp");
    CHECK(slurp(path + ".dat") == depth_plot_data(pts));
    CHECK_THAT(slurp(path + ".gp"), Catch::Contains("multiplot"));
    CHECK_THAT(files.render_hint, Catch::EndsWith("gnuplot '" + std::string(name) + ".gp'"));
    REQUIRE(std::filesystem::exists(path) == gnuplot);
    if (!gnuplot) continue;
    const std::string bytes = slurp(path);
    if (std::string(name).ends_with(".svg")) {
      CHECK_THAT(bytes, Catch::Contains("<svg"));
      CHECK_THAT(bytes, Catch::Contains("relu-rnn"));
    } else {
      REQUIRE(bytes.size() > 8);
      CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    }
    // the kept script renders the same picture again, run by hand in its directory
    std::filesystem::remove(path);
    const std::string rerun = "cd '" + std::filesystem::path(path).parent_path().string() +
                              "' && gnuplot '" + name + ".gp' 2>/dev/null";
    CHECK(std::system(rerun.c_str()) == 0);
    CHECK(std::filesystem::exists(path));
  }
}

TEST_CASE("the depth plot without gnuplot: the script and data, and how to render them",
          "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn"}, parse_lengths("2..16"),
                                  DepthTarget::arithmetic, 1u << 20);
  const std::string path = temp("rnncc-depth-nognuplot.svg");
  const char* saved = std::getenv("PATH");
  const std::string old_path = saved ? saved : "";
  ::setenv("PATH", "/nonexistent-rnncc-test", 1);  // no gnuplot on it
  const DepthPlotFiles files = plot_depths(pts, fit_depths(pts), DepthTarget::arithmetic, path);
  ::setenv("PATH", old_path.c_str(), 1);
  CHECK_FALSE(files.rendered);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(slurp(path + ".dat") == depth_plot_data(pts));
  CHECK_THAT(slurp(path + ".gp"), Catch::Contains("f1(x) = 4*x + 2"));  // relu-rnn: 4n + 2
  CHECK(files.render_hint == "cd '" + std::filesystem::path(path).parent_path().string() +
                                 "' && gnuplot 'rnncc-depth-nognuplot.svg.gp'");
  if (!have_gnuplot()) return;
  const std::string rerun = files.render_hint + " 2>/dev/null";
  CHECK(std::system(rerun.c_str()) == 0);  // the hint renders the picture
  CHECK_THAT(slurp(path), Catch::Contains("<svg"));
}
