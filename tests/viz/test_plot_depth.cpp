// The depth-growth plot (viz/plot_depth.hpp): an SVG through gnuplot, or nothing (and false)
// without gnuplot. Built without Graphviz too.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "circuits/depth_growth.hpp"
#include "viz/plot_depth.hpp"

using namespace rnncc;

TEST_CASE("the depth plot is an SVG through gnuplot, or nothing without it", "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn"}, parse_lengths("2..16"),
                                  DepthTarget::arithmetic, 1u << 20);
  const std::string path =
      (std::filesystem::temp_directory_path() / "rnncc-depth-test.svg").string();
  std::filesystem::remove(path);
  const bool gnuplot = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  REQUIRE(plot_depths_svg(pts, path) == gnuplot);
  REQUIRE(std::filesystem::exists(path) == gnuplot);
  if (gnuplot) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE_THAT(text, Catch::Contains("<svg"));
    REQUIRE_THAT(text, Catch::Contains("relu-rnn"));
  }
}
