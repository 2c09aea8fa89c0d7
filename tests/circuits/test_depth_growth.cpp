// Depth growth across architectures (circuits/depth_growth.hpp): length ranges, architecture
// lists, least-squares fits on synthetic series with known laws, the measured laws (log depth for
// every LRNN family, linear for the ReLU RNN), and the refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

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
  REQUIRE_THROWS_WITH(parse_architectures("dplr,lstm"),
                      Catch::Contains("unknown architecture 'lstm'"));
  REQUIRE(architecture_names().size() == 11);
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
  const auto archs =
      parse_architectures("diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,counter,hybrid");
  const auto pts =
      measure_depths(archs, parse_lengths("4..512"), DepthTarget::arithmetic, 1u << 26);
  REQUIRE(pts.size() == archs.size() * 8);
  for (const auto& f : fit_depths(pts))
    if (f.best) REQUIRE(f.model == (f.arch == "relu-rnn" ? GrowthModel::linear : GrowthModel::log));
  for (const auto& p : pts) {
    REQUIRE(p.bounded_fanin_depth >= p.depth);
    REQUIRE(p.size > p.n);
  }
}

TEST_CASE("arith: unique-hard attention has constant unbounded-fan-in depth", "[depth-growth]") {
  const auto pts =
      measure_depths({"uhat"}, parse_lengths("8..256"), DepthTarget::arithmetic, 1u << 26);
  for (const auto& p : pts) REQUIRE(p.depth == pts.front().depth);
  REQUIRE(pts.back().bounded_fanin_depth > pts.front().bounded_fanin_depth);  // fan-in n products
}

TEST_CASE("boolean target: finite-state models O(log n), the ReLU counter O(log² n)",
          "[depth-growth]") {
  const auto pts = measure_depths({"pd"}, parse_lengths("4..1024"), DepthTarget::boolean, 1u << 26);
  for (const auto& p : pts) REQUIRE(p.depth == p.bounded_fanin_depth);  // fan-in 2 throughout
  for (const auto& f : fit_depths(pts))
    if (f.best) REQUIRE(f.model == GrowthModel::log);
  REQUIRE(pts.back().depth < 60);

  const auto relu =
      measure_depths({"relu-rnn"}, parse_lengths("4..128"), DepthTarget::boolean, 1u << 26);
  for (const auto& f : fit_depths(relu))
    if (f.best) REQUIRE(f.model == GrowthModel::log_squared);
  for (const auto& p : relu) REQUIRE(p.depth < 4 * p.n + 2);  // below the sequential route
}

TEST_CASE("boolean target: LRNNs at log precision, fan-in 2, depth O(log n · log log n)",
          "[depth-growth]") {
  const auto pts =
      measure_depths({"dplr", "counter"}, parse_lengths("2..32"), DepthTarget::boolean, 1u << 26);
  REQUIRE(pts.size() == 10);
  for (const auto& p : pts) REQUIRE(p.depth == p.bounded_fanin_depth);
  for (std::size_t i = 1; i < 5; ++i) {
    REQUIRE(pts[i].depth > pts[i - 1].depth);      // grows …
    REQUIRE(pts[i].depth < 2 * pts[i - 1].depth);  // … far slower than n
  }
}

TEST_CASE("threshold target: depth does not grow with n", "[depth-growth]") {
  const auto pts = measure_depths({"s4", "counter", "uhat"}, parse_lengths("4..256"),
                                  DepthTarget::threshold, 1u << 26);
  REQUIRE(pts.size() == 21);
  for (const auto& p : pts) REQUIRE(p.depth <= 10);
  for (std::size_t i = 1; i < pts.size(); ++i)
    if (pts[i].arch == pts[i - 1].arch && pts[i].n >= 32) REQUIRE(pts[i].depth == pts[i - 1].depth);
}

TEST_CASE("depth measurement refuses what it cannot do", "[depth-growth][errors]") {
  REQUIRE_THROWS_WITH(measure_depths({"dplr"}, {1u << 20}, DepthTarget::arithmetic, 1000),
                      Catch::Contains("dplr at n = 1048576"));
  REQUIRE_THROWS_WITH(measure_depths({"dplr"}, {4, 8, 1024}, DepthTarget::boolean, 1u << 20),
                      Catch::Contains("the largest length of the range that fits is 8"));
  REQUIRE_THROWS_WITH(measure_depths({"hybrid"}, {4}, DepthTarget::boolean, 1u << 20),
                      Catch::Contains("no boolean compiler for attention over LRNN"));
  REQUIRE_THROWS_WITH(measure_depths({"pd"}, {4}, DepthTarget::threshold, 1u << 20),
                      Catch::Contains("TC⁰ = NC¹"));
  REQUIRE_THROWS_WITH(measure_depths({"relu-rnn"}, {4}, DepthTarget::threshold, 1u << 20),
                      Catch::Contains("L-complete"));
  REQUIRE_THROWS_WITH(measure_depths({"diagonal"}, {4}, DepthTarget::threshold, 1u << 20),
                      Catch::Contains("iterated multiplication"));
  // With a list for the reasons, unsupported architectures are skipped, not fatal …
  std::vector<std::string> skipped;
  const auto pts = measure_depths({"pd", "s4"}, {4, 8}, DepthTarget::threshold, 1u << 20, &skipped);
  REQUIRE(pts.size() == 2);
  REQUIRE(skipped.size() == 1);
  REQUIRE_THAT(skipped[0], Catch::Contains("pd"));
  // … unless nothing is left.
  REQUIRE_THROWS_WITH(measure_depths({"pd"}, {4}, DepthTarget::threshold, 1u << 20, &skipped),
                      Catch::Contains("none of the architectures"));
  // A limit only the compiler can check names the architecture and length.
  REQUIRE_THROWS_WITH(measure_depths({"relu-rnn"}, {64}, DepthTarget::boolean, 1000),
                      Catch::Contains("relu-rnn at n = 64"));
}

TEST_CASE("the depth points as CSV: a header, then one row per point", "[depth-growth]") {
  const auto pts = measure_depths({"dplr", "relu-rnn"}, parse_lengths("2..4"),
                                  DepthTarget::arithmetic, 1u << 20);
  const std::string csv = depth_csv(pts);
  REQUIRE(csv.rfind("arch,n,size,depth,bounded_fanin_depth\ndplr,2,", 0) == 0);
  REQUIRE(std::count(csv.begin(), csv.end(), '\n') == 1 + static_cast<long>(pts.size()));
  REQUIRE_THAT(csv, Catch::Contains("\nrelu-rnn,4," + std::to_string(pts.back().size) + "," +
                                    std::to_string(pts.back().depth) + ","));
}
