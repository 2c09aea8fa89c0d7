// Depth growth across architectures (circuits/depth_growth.hpp): length ranges, architecture
// lists, least-squares fits on synthetic series with known laws, the measured laws (log depth for
// every LRNN family, linear for the ReLU RNN), and the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "algebra/error.hpp"
#include "circuits/depth_growth.hpp"

using namespace rnncc;

TEST_CASE("length ranges double from A and end at B", "[depth-growth]") {
  REQUIRE(parse_lengths("2..16") == std::vector<std::size_t>{2, 4, 8, 16});
  REQUIRE(parse_lengths("3..20") == std::vector<std::size_t>{3, 6, 12, 20});
  REQUIRE(parse_lengths("5..5") == std::vector<std::size_t>{5});
  REQUIRE_THROWS_WITH(parse_lengths("8..4"), Catch::Contains("empty"));
  REQUIRE_THROWS_WITH(parse_lengths("0..4"), Catch::Contains("empty"));
  REQUIRE_THROWS_WITH(parse_lengths("2-8"), Catch::Contains("expected A..B"));
  REQUIRE_THROWS_WITH(parse_lengths("2..x"), Catch::Contains("expected A..B"));
}

TEST_CASE("architecture lists name known architectures only", "[depth-growth]") {
  REQUIRE(parse_architectures("dplr,relu-rnn") == std::vector<std::string>{"dplr", "relu-rnn"});
  REQUIRE_THROWS_WITH(parse_architectures("dplr,lstm"), Catch::Contains("unknown architecture 'lstm'"));
  REQUIRE(architecture_names().size() == 10);
}

TEST_CASE("fits recover the law a synthetic series follows", "[depth-growth]") {
  std::vector<DepthPoint> pts;
  for (std::size_t n = 2; n <= 4096; n *= 2) {
    const double l = std::log2(static_cast<double>(n));
    pts.push_back({"log", n, 0, static_cast<std::size_t>(3 * l + 5), 0});
    pts.push_back({"log2", n, 0, static_cast<std::size_t>(2 * l * l + 1), 0});
    pts.push_back({"lin", n, 0, 7 * n + 2, 0});
  }
  const auto fits = fit_depths(pts);
  REQUIRE(fits.size() == 9);
  for (const auto& f : fits) {
    if (!f.best) continue;
    if (f.arch == "log") {
      REQUIRE(f.model == GrowthModel::log);
      REQUIRE(f.a == Approx(3));
      REQUIRE(f.b == Approx(5));
    }
    if (f.arch == "log2") REQUIRE(f.model == GrowthModel::log_squared);
    if (f.arch == "lin") {
      REQUIRE(f.model == GrowthModel::linear);
      REQUIRE(f.a == Approx(7));
    }
    REQUIRE(f.residual < 1e-6);
  }
}

TEST_CASE("measured: every LRNN family grows like log n, the ReLU RNN like n", "[depth-growth]") {
  const auto archs = parse_architectures("diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn");
  const auto pts = measure_depths(archs, parse_lengths("4..512"), DepthTarget::arithmetic, 1u << 26);
  REQUIRE(pts.size() == archs.size() * 8);
  for (const auto& f : fit_depths(pts))
    if (f.best) REQUIRE(f.model == (f.arch == "relu-rnn" ? GrowthModel::linear : GrowthModel::log));
  for (const auto& p : pts) {
    REQUIRE(p.bounded_fanin_depth >= p.depth);
    REQUIRE(p.size > p.n);
  }
}

TEST_CASE("boolean target: the permutation PD model has fan-in-2 depth O(log n)", "[depth-growth]") {
  const auto pts = measure_depths({"pd"}, parse_lengths("4..1024"), DepthTarget::boolean, 1u << 26);
  for (const auto& p : pts) REQUIRE(p.depth == p.bounded_fanin_depth);  // fan-in 2 throughout
  for (const auto& f : fit_depths(pts))
    if (f.best) REQUIRE(f.model == GrowthModel::log);
  REQUIRE(pts.back().depth < 60);
}

TEST_CASE("depth measurement refuses what it cannot do", "[depth-growth][errors]") {
  REQUIRE_THROWS_WITH(measure_depths({"dplr"}, {1u << 20}, DepthTarget::arithmetic, 1000),
                      Catch::Contains("dplr at n = 1048576"));
  REQUIRE_THROWS_WITH(measure_depths({"uhat"}, {4}, DepthTarget::arithmetic, 1u << 20),
                      Catch::Contains("attention"));
  REQUIRE_THROWS_WITH(measure_depths({"dplr"}, {4}, DepthTarget::boolean, 1u << 20),
                      Catch::Contains("no boolean compiler yet"));
  REQUIRE_THROWS_WITH(measure_depths({"pd"}, {4}, DepthTarget::threshold, 1u << 20),
                      Catch::Contains("threshold"));
}

TEST_CASE("the depth plot is an SVG through gnuplot, or nothing without it", "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn"}, parse_lengths("2..16"), DepthTarget::arithmetic, 1u << 20);
  const std::string path = (std::filesystem::temp_directory_path() / "rnncc-depth-test.svg").string();
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
  REQUIRE(depth_csv(pts).rfind("arch,n,size,depth,bounded_fanin_depth\ndplr,2,", 0) == 0);
}
