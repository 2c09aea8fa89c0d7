// Depth growth across architectures (circuits/measure/depth_growth.hpp): length ranges,
// architecture lists, least-squares fits on synthetic series with known laws, the measured laws
// (log depth for every LRNN family, linear for the ReLU RNN), and the refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "algebra/error.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "rnn/model_json.hpp"

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

namespace {

std::vector<double> doubling(std::size_t from, std::size_t to) {
  std::vector<double> ns;
  for (std::size_t n = from; n <= to; n *= 2) ns.push_back(static_cast<double>(n));
  return ns;
}

}  // namespace

TEST_CASE("fits recover the law a synthetic series follows, exact and noisy", "[depth-growth]") {
  const auto ns = doubling(2, 4096);
  struct Law {
    GrowthModel model;
    double a, b;
  };
  const std::vector<Law> laws = {{GrowthModel::constant, 0, 5},
                                 {GrowthModel::log, 3, 5},
                                 {GrowthModel::log_loglog, 4, 7},
                                 {GrowthModel::log_squared, 2, 1},
                                 {GrowthModel::linear, 7, 2}};
  std::mt19937_64 rng(20261201);
  std::normal_distribution<double> noise(0.0, 0.05);
  for (const Law& law : laws)
    for (bool noisy : {false, true}) {
      const int reps = noisy ? 20 : 1;
      int hits = 0;
      for (int rep = 0; rep < reps; ++rep) {
        std::vector<double> ys;
        for (double n : ns)
          ys.push_back(law.a * growth_term(law.model, n) + law.b + (noisy ? noise(rng) : 0.0));
        const DepthFit fit = fit_series("synthetic", ns, ys);
        INFO(to_string(law.model) << (noisy ? " noisy" : " exact"));
        REQUIRE(fit.models.size() == 5);
        REQUIRE(fit.residuals.size() == ns.size());
        const GrowthFit& same = fit.models[static_cast<std::size_t>(law.model)];
        REQUIRE(same.a == Approx(law.a).margin(noisy ? 0.05 : 1e-9));
        REQUIRE(same.b == Approx(law.b).margin(noisy ? 0.2 : 1e-9));
        if (fit.best().model == law.model) ++hits;
        if (!noisy) {
          REQUIRE(fit.best().model == law.model);
          REQUIRE(fit.best().rss == 0);  // exact data: a perfect fit, AICc −∞
          REQUIRE(std::isinf(fit.best().aicc));
          for (double r : fit.residuals) REQUIRE(r == 0);
        }
      }
      // With noise, AICc may prefer a spurious second parameter now and then (its nominal rate
      // is about 1 in 6 for nested laws); growing laws are never mistaken for one another here.
      INFO(to_string(law.model) << ": " << hits << " of " << reps);
      REQUIRE(hits >= (law.model == GrowthModel::constant && noisy ? 14 : reps));
    }
}

TEST_CASE("AICc by hand on four points, perfect fits and ties", "[depth-growth]") {
  // n = 2, 4, 8, 16 (log₂n = 1..4), depth 3, 5, 8, 9. a·log₂n + b: x̄ = 2.5, ȳ = 6.25,
  // Sxy = (−1.5)(−3.25) + (−0.5)(−1.25) + (0.5)(1.75) + (1.5)(2.75) = 10.5, Sxx = 5, so a = 2.1,
  // b = 6.25 − 5.25 = 1; residuals −0.1, −0.2, 0.7, −0.4, RSS = 0.70;
  // AICc = 4·ln(0.70/4) + 2·2 + 2·2·3/(4 − 2 − 1) = 16 + 4·ln 0.175 ≈ 9.03.
  // The constant: b = 6.25, RSS = 10.5625 + 1.5625 + 3.0625 + 7.5625 = 22.75;
  // AICc = 4·ln(22.75/4) + 2 + 2·1·2/(4 − 1 − 1) = 4 + 4·ln 5.6875 ≈ 10.95.
  const DepthFit fit = fit_series("hand", {2, 4, 8, 16}, {3, 5, 8, 9});
  const GrowthFit& lg = fit.models[1];
  REQUIRE(lg.model == GrowthModel::log);
  REQUIRE(lg.a == Approx(2.1));
  REQUIRE(lg.b == Approx(1.0));
  REQUIRE(lg.rss == Approx(0.70));
  REQUIRE(lg.rms == Approx(std::sqrt(0.175)));
  REQUIRE(lg.aicc == Approx(16 + 4 * std::log(0.175)));
  REQUIRE(fit.models[0].rss == Approx(22.75));
  REQUIRE(fit.models[0].aicc == Approx(4 + 4 * std::log(5.6875)));
  for (std::size_t i = 2; i < 5; ++i) REQUIRE(fit.models[i].aicc > lg.aicc);
  REQUIRE(aicc(0.62, 4, 2) == Approx(16 + 4 * std::log(0.155)));
  REQUIRE(aicc(2.0, 5, 1) == Approx(5 * std::log(0.4) + 2 + 4.0 / 3));
  REQUIRE(std::isinf(aicc(0, 4, 2)));
  // Per-point residuals of the chosen law (log: AICc 9.03, the smallest).
  REQUIRE(fit.best().model == GrowthModel::log);
  REQUIRE(fit.residuals[0] == Approx(-0.1));
  REQUIRE(fit.residuals[1] == Approx(-0.2));
  REQUIRE(fit.residuals[2] == Approx(0.7));
  REQUIRE(fit.residuals[3] == Approx(-0.4));
  // A constant series: every law fits perfectly; the one with fewer parameters wins.
  const DepthFit flat = fit_series("flat", {2, 4, 8, 16, 32}, {4, 4, 4, 4, 4});
  REQUIRE(flat.best().model == GrowthModel::constant);
  for (const auto& m : flat.models) REQUIRE(m.rss == 0);
  // A series exact in log₂n (from n = 1) chooses log over the faster laws.
  const DepthFit lg2 = fit_series("log", {1, 2, 4, 8}, {5, 7, 9, 11});
  REQUIRE(lg2.best().model == GrowthModel::log);
}

TEST_CASE("fits refuse fewer than four points", "[depth-growth][errors]") {
  REQUIRE_THROWS_WITH(fit_series("x", {2, 4, 8}, {1, 2, 3}),
                      Catch::Contains("x: 3 points, but the fits need at least 4"));
  REQUIRE_THROWS_WITH(
      check_fit_lengths(parse_lengths("2..8")),
      Catch::Contains("3 lengths, but the fits need at least 4") && Catch::Contains("e.g. 2..16"));
  REQUIRE_NOTHROW(check_fit_lengths(parse_lengths("2..16")));
  REQUIRE_THROWS_WITH(aicc(1.0, 3, 2), Catch::Contains("needs at least 4 points"));
  std::vector<DepthPoint> pts = {{"a", 2, 0, 1, 0}, {"a", 4, 0, 2, 0}};
  REQUIRE_THROWS_AS(fit_depths(pts), InputError);
}

TEST_CASE("model files are measured next to the architectures", "[depth-growth]") {
  const std::string dir = RNNCC_SOURCE_DIR "/examples/";
  REQUIRE(model_label(dir + "dplr_d3.json") == "dplr_d3");
  REQUIRE(parse_model_paths("a.json,b/c.json") == std::vector<std::string>{"a.json", "b/c.json"});
  REQUIRE_THROWS_WITH(parse_model_paths("a.json,"), Catch::Contains("an empty entry"));
  std::vector<std::pair<std::string, DepthSubject>> subjects;
  subjects.emplace_back("dplr_d3",
                        model_depth_subject(dir + "dplr_d3.json", DepthTarget::arithmetic));
  subjects.emplace_back("s4_decay",
                        model_depth_subject(dir + "s4_decay.json", DepthTarget::arithmetic));
  const auto pts =
      measure_subjects(subjects, parse_lengths("2..64"), DepthTarget::arithmetic, 1u << 26);
  REQUIRE(pts.size() == 12);
  const auto fits = fit_depths(pts);
  REQUIRE(fits.size() == 2);
  for (const auto& f : fits) {
    REQUIRE(f.best().model == GrowthModel::log);  // a Brent–Kung scan: 2 per doubling
    REQUIRE(f.best().a == Approx(2));
    REQUIRE(f.best().rss == 0);
  }
  // The same model file and the built-in architecture it matches measure alike.
  const auto builtin = measure_depths({"counter"}, {8, 64}, DepthTarget::threshold, 1u << 26);
  const auto file = measure_subjects(
      {{"majority_counter",
        model_depth_subject(dir + "majority_counter.json", DepthTarget::threshold)}},
      {8, 64}, DepthTarget::threshold, 1u << 26);
  REQUIRE(file.size() == 2);
  REQUIRE(file[1].depth == file[0].depth);  // constant depth under the threshold target
  REQUIRE(builtin[1].depth == builtin[0].depth);
  // Refusals name the file: unreadable, and no compiler for the target (with the reason).
  REQUIRE_THROWS_WITH(model_depth_subject(dir + "no_such_model.json", DepthTarget::arithmetic),
                      Catch::Contains("no_such_model.json"));
  REQUIRE_THROWS_WITH(
      model_depth_subject(dir + "dplr_d3.json", DepthTarget::threshold),
      Catch::Contains("dplr_d3.json: no threshold circuit") && Catch::Contains("TC⁰ = NC¹"));
  // A model in memory (the Python package's objects): measured as its file is; a refusal names
  // its label and the keyword that gave it.
  const auto from_memory =
      measure_subjects({{"m", model_depth_subject(load_model(dir + "dplr_d3.json"), "m",
                                                  DepthTarget::arithmetic, "models")}},
                       {4, 16}, DepthTarget::arithmetic, 1u << 26);
  const auto from_file =
      measure_subjects({{"m", model_depth_subject(dir + "dplr_d3.json", DepthTarget::arithmetic)}},
                       {4, 16}, DepthTarget::arithmetic, 1u << 26);
  REQUIRE(from_memory.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) {
    REQUIRE(from_memory[k].size == from_file[k].size);
    REQUIRE(from_memory[k].depth == from_file[k].depth);
  }
  REQUIRE_THROWS_WITH(model_depth_subject(load_model(dir + "dplr_d3.json"), "mine",
                                          DepthTarget::threshold, "models"),
                      Catch::StartsWith("models: mine: no threshold circuit"));
}

TEST_CASE("measured: every LRNN family grows like log n, the ReLU RNN like n", "[depth-growth]") {
  const auto archs =
      parse_architectures("diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,counter,hybrid");
  const auto pts =
      measure_depths(archs, parse_lengths("4..512"), DepthTarget::arithmetic, 1u << 26);
  REQUIRE(pts.size() == archs.size() * 8);
  for (const auto& f : fit_depths(pts))
    REQUIRE(f.best().model == (f.arch == "relu-rnn" ? GrowthModel::linear : GrowthModel::log));
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
  for (const auto& f : fit_depths(pts)) REQUIRE(f.best().model == GrowthModel::log);
  REQUIRE(pts.back().depth < 60);

  const auto relu =
      measure_depths({"relu-rnn"}, parse_lengths("4..128"), DepthTarget::boolean, 1u << 26);
  for (const auto& f : fit_depths(relu)) REQUIRE(f.best().model == GrowthModel::log_squared);
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
  // Input-dependent diagonal decays compile (iterated multiplication); a small budget refuses.
  REQUIRE(measure_depths({"diagonal"}, {4}, DepthTarget::threshold, 1u << 20).size() == 1);
  REQUIRE_THROWS_WITH(measure_depths({"diagonal"}, {4, 64}, DepthTarget::threshold, 1u << 20),
                      Catch::Contains("the largest length of the range that fits is 4"));
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

TEST_CASE("the depth JSON names its target and precision when given one", "[depth-growth]") {
  const auto pts = measure_depths({"s4"}, parse_lengths("2..16"), DepthTarget::threshold, 1u << 20);
  const auto fits = fit_depths(pts);
  const auto doc = depth_json(pts, fits, {}, DepthTarget::threshold);
  std::vector<std::string> keys;
  for (const auto& item : doc.items()) keys.push_back(item.key());
  // in this order: what was measured, then the measurements
  REQUIRE(keys == std::vector<std::string>{"criterion", "target", "precision", "points", "fits",
                                           "skipped"});
  REQUIRE(doc["target"] == "threshold");
  REQUIRE(doc["precision"] == "log:1 fixed point");
  REQUIRE(depth_precision(DepthTarget::arithmetic) == "exact rationals");
  REQUIRE_THAT(depth_precision(DepthTarget::boolean), Catch::Contains("finite-state models exact"));
  // without a target, neither (the document as before)
  const auto bare = depth_json(pts, fits, {});
  REQUIRE(!bare.contains("target"));
  REQUIRE(!bare.contains("precision"));
  REQUIRE(bare["points"] == doc["points"]);
}
