// Depth growth across architectures (`rnncc depth`): the circuit-complexity hierarchy of
// [MJLLS26] (Merrill, Jiang, Li, Lin, Sabharwal 2026, Figure 1) as measured numbers. For each
// architecture, a representative model (state size d = 3, |Σ| = 2, generic rational parameters
// fixed by a seed) is compiled at each length n and its circuit measured: size, depth
// (unbounded fan-in) and bounded-fan-in depth (circuits/analysis.hpp). Depth is then fitted by
// least squares to a·log₂n + b, a·log₂²n + b and a·n + b; the model with the smallest residual
// (root-mean-square) is named best.
//
// Architectures, targets and what is compiled (compile_model, circuits/compile/target.hpp):
//   arith      diagonal, s4, pd, dplr, deltanet, gdn, rwkv7,  compile_lrnn, Brent–Kung (exact)
//              counter (y = #a − #b, time-invariant)
//              relu-rnn                                     compile_nonlinear_sequential (Θ(n))
//              uhat, hybrid (gdn + unique-hard attention)    compile_attention_arith
//   boolean    diagonal, s4, dplr, deltanet, gdn, rwkv7,     compile_lrnn_boolean at log:1
//              counter
//              pd (the S₃ permutation automaton, exact)     compile_finite_state
//              relu-rnn (the balance counter, log:1)        compile_nonlinear_composed
//              uhat (log:1)                                 threshold circuit, thr gates lowered
//   threshold  s4, counter (log:1, convolution-rounded)     compile_time_invariant_threshold
//              uhat (log:1)                                 compile_unique_hard_threshold
// Other pairs have no compiler; depth_subject says why (for most, a complexity-class reason).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "circuits/compile/target.hpp"
#include "rnn/model.hpp"

namespace rnncc {

using DepthTarget = CircuitTarget;

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
std::vector<std::size_t> parse_lengths(const std::string& text,
                                       const std::string& flag = "--lengths");

// Parses a comma-separated architecture list (InputError naming the unknown name).
std::vector<std::string> parse_architectures(const std::string& text,
                                             const std::string& flag = "--arch");

// The model and compile options measured for an architecture and target (the table above).
// Throws InputError with the reason when the pair has no compiler.
struct DepthSubject {
  Model model;
  TargetOptions options;
};
DepthSubject depth_subject(const std::string& arch, CircuitTarget target);

// Measures every (arch, n). Checks every estimate against max_gates before compiling anything
// (InputError naming the architecture, n and the largest length that fits). An architecture
// with no compiler for the target throws — or, when `skipped` is given, is left out with
// "arch: reason" appended there (InputError, with every reason, only if none is left).
std::vector<DepthPoint> measure_depths(const std::vector<std::string>& archs,
                                       const std::vector<std::size_t>& lengths,
                                       CircuitTarget target, std::size_t max_gates,
                                       std::vector<std::string>* skipped = nullptr);

// Least-squares fits of depth per architecture (needs ≥ 2 distinct lengths; ≥ 3 to tell the
// models apart meaningfully).
std::vector<DepthFit> fit_depths(const std::vector<DepthPoint>& points);

// The points as CSV: "arch,n,size,depth,bounded_fanin_depth".
std::string depth_csv(const std::vector<DepthPoint>& points);

// The plot of the points is viz/plot_depth.hpp (plot_depths_svg).

}  // namespace rnncc
