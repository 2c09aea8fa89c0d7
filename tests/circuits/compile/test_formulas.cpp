// docs/circuits.md's size and depth formulas against measurement: for generic parameters the
// compiled circuit has exactly predict_size() operations and predict_depth() depth, on a grid of
// n (powers of two and not), d, m, |Σ|, every scan; with structure (PD) or symmetry (DeltaNet)
// it has at most that many.
#include <catch2/catch.hpp>

#include "circuits/analysis.hpp"
#include "circuits/compile/cost.hpp"
#include "rnn/families.hpp"
#include "tests/random_models.hpp"

using namespace rnncc;
using namespace rnncc::test;

namespace {

// Distinct rationals with large numerators: never 0 or 1, no two equal (no folding or sharing).
struct Generic {
  std::mt19937_64 rng{99};
  Rational next() {
    return Rational(static_cast<long>(rng() % 1000000007) + 2,
                    static_cast<long>(rng() % 1000) + 1001);
  }
  Matrix<Rational> matrix(std::size_t r, std::size_t c) {
    Matrix<Rational> m(r, c);
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) m(i, j) = next();
    return m;
  }
  Vector vec(std::size_t n) {
    Vector v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(next());
    return v;
  }
  LayerFrame frame(std::size_t d, std::size_t m, std::size_t k, bool bias) {
    LayerFrame f;
    f.d = d;
    f.m = m;
    f.features = k;
    f.initial_state = matrix(d, m);
    f.readout = matrix(2, d);
    if (bias) f.readout_bias = matrix(2, m);
    return f;
  }
};

std::vector<CompileOptions> scans() {
  std::vector<CompileOptions> out;
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer}) {
    CompileOptions o;
    o.scan = k;
    out.push_back(o);
  }
  return out;
}

void check_exact(const Model& model, std::size_t n, CompileOptions o) {
  for (OutputMode mode : {OutputMode::last, OutputMode::all}) {
    o.outputs = mode;
    o.acceptance = mode == OutputMode::last;
    CompiledCircuit cc = compile_lrnn(model, n, o);
    CircuitStats s = compute_stats(cc.circuit);
    INFO("scan " << to_string(o.scan) << ", n = " << n << ", outputs "
                 << (mode == OutputMode::all ? "all" : "last"));
    REQUIRE(s.operations() == predict_size(model, n, o).total());
    REQUIRE(s.depth == predict_depth(model, n, o, FaninModel::unbounded));
    REQUIRE(s.bounded_fanin_depth == predict_depth(model, n, o, FaninModel::bounded));
    REQUIRE(cc.combine_levels == o.scan.chain_depth(n));
  }
}

const std::size_t lengths[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 33, 64};

}  // namespace

TEST_CASE("formulas: dense combines (general family), generic parameters", "[circuits][formulas]") {
  Generic g;
  for (std::size_t d : {1u, 2u, 3u, 4u})
    for (std::size_t m : {1u, 2u}) {
      const std::size_t sigma = 2 + d % 2;
      std::vector<AffineStep> steps;
      for (std::size_t k = 0; k < sigma; ++k) steps.push_back({g.matrix(d, d), g.matrix(d, m)});
      Model model =
          single_layer_model(make_general(g.frame(d, m, sigma, d % 2 == 0), steps), sigma);
      INFO("d = " << d << ", m = " << m);
      for (const CompileOptions& o : scans())
        for (std::size_t n : lengths) check_exact(model, n, o);
    }
}

TEST_CASE("formulas: DPLR compiles as dense, generic parameters", "[circuits][formulas]") {
  Generic g;
  for (std::size_t d : {2u, 3u}) {
    std::vector<DplrStep> steps;
    for (std::size_t k = 0; k < 2; ++k)
      steps.push_back({g.vec(d), g.vec(d), g.vec(d), g.matrix(d, 1)});
    Model model = single_layer_model(make_dplr(g.frame(d, 1, 2, false), steps), 2);
    for (const CompileOptions& o : scans())
      for (std::size_t n : lengths) check_exact(model, n, o);
  }
}

TEST_CASE("formulas: diagonal combines (GLA, Mamba-2), generic parameters",
          "[circuits][formulas]") {
  Generic g;
  for (std::size_t d : {1u, 2u, 4u})
    for (std::size_t m : {1u, 3u}) {
      std::vector<DecayStep> steps;
      for (std::size_t k = 0; k < 3; ++k) steps.push_back({g.vec(d), g.matrix(d, m)});
      Model model =
          single_layer_model(make_diagonal(Family::gla, g.frame(d, m, 3, true), steps), 3);
      for (const CompileOptions& o : scans())
        for (std::size_t n : lengths) check_exact(model, n, o);
    }
}

TEST_CASE("formulas: PD combines, generic permutation leaves", "[circuits][formulas]") {
  // For odd d, the 2d permutations j ↦ j + s and j ↦ s − j (mod d) make every leaf entry P(i, j)
  // a different sum x[shift i−j] + x[reflection i+j]: no entry of P folds or repeats, so nothing
  // is shared and the PD formula is exact. (Circulant P alone repeats entries and shares gates.)
  Generic g;
  for (std::size_t d : {3u, 5u})
    for (std::size_t m : {1u, 2u}) {
      std::vector<PdStep> steps;
      for (std::size_t s = 0; s < d; ++s)
        for (bool reflect : {false, true}) {
          std::vector<std::size_t> image(d);
          for (std::size_t j = 0; j < d; ++j) image[j] = reflect ? (s + d - j) % d : (j + s) % d;
          steps.push_back({image, g.vec(d), g.matrix(d, m)});
        }
      Model model = single_layer_model(make_pd(g.frame(d, m, 2 * d, false), steps, true), 2 * d);
      INFO("d = " << d << ", m = " << m);
      for (const CompileOptions& o : scans())
        for (std::size_t n : {1u, 2u, 3u, 5u, 8u, 13u, 16u, 33u}) check_exact(model, n, o);
    }
}

TEST_CASE("formulas are upper bounds with structure or symmetry", "[circuits][formulas]") {
  std::mt19937_64 rng(5);
  for (Family family : {Family::pd, Family::deltanet, Family::gated_deltanet, Family::kda,
                        Family::rwkv7, Family::mamba2, Family::s4})
    for (const CompileOptions& o : scans())
      for (std::size_t n : {1u, 6u, 17u, 32u}) {
        Model model = single_layer_model(random_layer(rng, family, 3, 2, 2), 2);
        CompiledCircuit cc = compile_lrnn(model, n, o);
        INFO(to_string(family) << " " << to_string(o.scan) << " n=" << n);
        REQUIRE(compute_stats(cc.circuit).operations() <= predict_size(model, n, o).total());
      }
}
