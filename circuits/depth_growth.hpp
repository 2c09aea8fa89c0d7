// Depth growth across architectures (`rnncc depth`): the circuit-complexity hierarchy of
// [MJLLS26] (Merrill, Jiang, Li, Lin, Sabharwal 2026, Figure 1) as measured numbers. For each
// architecture, a representative model (state size d = 3, |Σ| = 2, generic rational parameters
// fixed by a seed) is compiled at each length n and its circuit measured: size, depth
// (unbounded fan-in) and bounded-fan-in depth (circuits/analysis.hpp). Depth is then fitted by
// least squares to a·log₂n + b, a·log₂²n + b and a·n + b; the model with the smallest residual
// (root-mean-square) is named best.
//
// Architectures and the compilers that measure them:
//   diagonal, s4, pd, dplr, deltanet, gdn, rwkv7   arith: compile_lrnn, Brent–Kung prefix scan
//   relu-rnn                                        arith: compile_nonlinear_sequential (depth Θ(n))
//   uhat, hybrid                                    not yet: attention is not in rnncc (issue 7)
//   pd (permutation matrices, D = 1)                boolean: compile_finite_state (fan-in 2)
// The other boolean targets and the threshold target need the arithmetic-to-boolean and
// threshold compilers (issue 6); until then they are refused with the reason.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rnn/model.hpp"

namespace rnncc {

enum class DepthTarget { arithmetic, boolean, threshold };

// "diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,uhat,hybrid"
const std::vector<std::string>& architecture_names();

// The representative model of an architecture. Throws InputError for unknown names and for
// architectures rnncc cannot build yet.
Model representative_model(const std::string& arch);

struct DepthPoint {
  std::string arch;
  std::size_t n = 0, size = 0, depth = 0, bounded_fanin_depth = 0;
};

enum class GrowthModel { log, log_squared, linear };
std::string to_string(GrowthModel m);  // "a·log2(n)+b", …

struct DepthFit {
  std::string arch;
  GrowthModel model = GrowthModel::log;
  double a = 0, b = 0, residual = 0;  // residual: RMS of depth − (a·f(n) + b)
  bool best = false;
};

// Parses "A..B": the lengths A, 2A, 4A, … up to B, and B. InputError (naming `flag`) for bad
// syntax, A < 1, B < A.
std::vector<std::size_t> parse_lengths(const std::string& text, const std::string& flag = "--lengths");

// Parses a comma-separated architecture list (InputError naming the unknown name).
std::vector<std::string> parse_architectures(const std::string& text, const std::string& flag = "--arch");

// Measures every (arch, n). Checks every estimate against max_gates before compiling anything
// (InputError naming the architecture and n). Throws InputError for a target an architecture
// has no compiler for yet.
std::vector<DepthPoint> measure_depths(const std::vector<std::string>& archs,
                                       const std::vector<std::size_t>& lengths, DepthTarget target,
                                       std::size_t max_gates);

// Least-squares fits of depth per architecture (needs ≥ 2 distinct lengths; ≥ 3 to tell the
// models apart meaningfully).
std::vector<DepthFit> fit_depths(const std::vector<DepthPoint>& points);

// The points as CSV: "arch,n,size,depth,bounded_fanin_depth".
std::string depth_csv(const std::vector<DepthPoint>& points);

// Plots depth against n (log-scaled n axis), one line per architecture, to an SVG file through
// gnuplot. Returns false, writing nothing, when gnuplot is not installed; throws InputError when
// gnuplot fails. The SVG is written atomically.
bool plot_depths_svg(const std::vector<DepthPoint>& points, const std::string& svg_path);

}  // namespace rnncc
