// Depth growth across architectures (`rnncc depth`): the circuit-complexity hierarchy of
// [MJLLS26] (Merrill, Jiang, Li, Lin, Sabharwal 2026, Figure 1) as measured numbers. For each
// architecture, a representative model (state size d = 3, |Σ| = 2, generic rational parameters
// fixed by a seed) is compiled at each length n and its circuit measured: size, depth
// (unbounded fan-in) and bounded-fan-in depth (circuits/analysis.hpp). Any model file can be
// measured next to them (model_depth_subject). Depth is then fitted by least squares (closed
// form) to five growth models — b, a·log₂n + b, a·log₂n·log₂log₂n + b, a·log₂²n + b, a·n + b —
// and one is chosen by the corrected Akaike information criterion (Hurvich & Tsai 1989)
//   AICc = m·ln(RSS/m) + 2k + 2k(k+1)/(m − k − 1)
// (m points, k parameters: 1 for the constant, 2 for the others), the smallest winning. AICc
// rather than the residual alone: with the residual alone a two-parameter law always beats the
// constant (and ties with it on constant data); AICc rather than BIC because the series are short
// (m = 5…13), where AICc's small-sample correction matters and BIC's ln m penalty is barely
// larger than 2k. RSS = 0 (up to rounding: RSS ≤ 10⁻¹⁸·Σy²) is AICc = −∞: a perfect fit wins;
// ties go to fewer parameters, then to the slower-growing class (the enum order below).
// AICc needs m ≥ k + 2, so a fit needs at least 4 lengths (fit_depths refuses fewer).
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
//              diagonal (log:1, product rounded once)       compile_diagonal_threshold
// Other pairs have no compiler; depth_subject says why (for most, a complexity-class reason).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/memory.hpp"
#include "algebra/progress.hpp"
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

// Slowest-growing first (the tie order).
enum class GrowthModel { constant, log, log_loglog, log_squared, linear };
const std::vector<GrowthModel>& growth_models();  // all five, in that order
std::string to_string(GrowthModel m);        // "b", "a*log2(n)+b", "a*log2(n)*log2(log2(n))+b", …
std::string short_name(GrowthModel m);       // "1", "log", "loglog", "log^2", "n"
std::size_t parameter_count(GrowthModel m);  // k: 1 for constant, else 2
// f(n) in a·f(n) + b (0 for the constant). log₂n·log₂log₂n is taken as 0 for n ≤ 2.
double growth_term(GrowthModel m, double n);

// AICc = m·ln(rss/m) + 2k + 2k(k+1)/(m − k − 1); −∞ for rss = 0. InputError if m < k + 2.
double aicc(double rss, std::size_t m, std::size_t k);
// The smallest number of points every model's AICc is defined for: 4.
constexpr std::size_t kMinFitPoints = 4;

struct GrowthFit {
  GrowthModel model = GrowthModel::constant;
  double a = 0, b = 0;  // depth ≈ a·f(n) + b (a = 0 for the constant)
  double rss = 0;       // Σ (depth − fit)², 0 exactly for a perfect fit
  double rms = 0;       // sqrt(rss / m)
  double aicc = 0;      // −∞ for rss = 0
};

// One series (an architecture or a model file) fitted: every model, and the chosen one.
struct DepthFit {
  std::string arch;
  std::vector<GrowthFit> models;  // growth_models() order
  std::size_t chosen = 0;         // index into models
  std::vector<std::size_t> n;     // the lengths, in the points' order
  std::vector<double> residuals;  // depth − chosen fit, per point
  const GrowthFit& best() const { return models[chosen]; }
};

// Fits one series by least squares and chooses by AICc (as above). InputError ("--lengths")
// naming `arch` for fewer than kMinFitPoints points.
DepthFit fit_series(const std::string& arch, const std::vector<double>& n,
                    const std::vector<double>& depth);

// InputError ("--lengths") unless there are at least kMinFitPoints lengths: the message says how
// many are needed and gives a range that has them.
void check_fit_lengths(const std::vector<std::size_t>& lengths);

// Parses "A..B": the lengths A, 2A, 4A, … up to B, and B. InputError (naming `flag`) for bad
// syntax, A < 1, B < A.
std::vector<std::size_t> parse_lengths(const std::string& text,
                                       const std::string& flag = "--lengths");

// The default --lengths per target: "2..1024"; for boolean "4..256" — the dense boolean LRNNs
// exceed the default --max-gates past 256, and n = 2 (where log₂log₂n = 0 and the word width is
// smallest) is left out (docs/depth.md: what the criterion picks over which ranges).
std::string default_depth_lengths(CircuitTarget target);

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

// A model file (rnn/model_json.hpp, as `rnncc run`/`compile` read it) as a depth subject:
// exact for arith and for the finite-state boolean route, log:1 otherwise (as the built-ins).
// InputError ("--model", naming the file) when it cannot be read or the target has no compiler
// for it, with compile_model's reason (for most, a complexity-class reason).
DepthSubject model_depth_subject(const std::string& path, CircuitTarget target);
// The same for a model in memory (the Python package's objects), `label` naming it in messages
// and `flag` the option or keyword that gave it.
DepthSubject model_depth_subject(Model model, const std::string& label, CircuitTarget target,
                                 const std::string& flag = "--model");

// The file's stem ("examples/dplr_d3.json" → "dplr_d3"), its label in the tables.
std::string model_label(const std::string& path);

// Model files as labelled subjects: each labelled by its stem, or by its path where the stem is
// taken (a built-in architecture in `archs`, or an earlier file).
std::vector<std::pair<std::string, DepthSubject>> model_depth_subjects(
    const std::vector<std::string>& paths, const std::vector<std::string>& archs,
    CircuitTarget target);

// Parses a comma-separated list of model files (InputError for an empty entry).
std::vector<std::string> parse_model_paths(const std::string& text,
                                           const std::string& flag = "--model");

// Called with each point as soon as it is measured (rnncc depth prints the row then).
using DepthPointSink = std::function<void(const DepthPoint&)>;

// Measures labelled subjects at every length (the checks and errors of measure_depths below).
// Reports one unit of `progress` per circuit compiled and measured. Each compile is also held
// to max_memory_mib (compile_model's memory estimate, "--max-memory").
std::vector<DepthPoint> measure_subjects(
    const std::vector<std::pair<std::string, DepthSubject>>& subjects,
    const std::vector<std::size_t>& lengths, CircuitTarget target, std::size_t max_gates,
    const DepthPointSink& on_point = {}, Progress& progress = no_progress(),
    std::size_t max_memory_mib = default_max_memory_mib());

// Measures every (arch, n). Checks every estimate against max_gates before compiling anything
// (InputError naming the architecture, n and the largest length that fits). An architecture
// with no compiler for the target throws — or, when `skipped` is given, is left out with
// "arch: reason" appended there (InputError, with every reason, only if none is left).
std::vector<DepthPoint> measure_depths(const std::vector<std::string>& archs,
                                       const std::vector<std::size_t>& lengths,
                                       CircuitTarget target, std::size_t max_gates,
                                       std::vector<std::string>* skipped = nullptr,
                                       const DepthPointSink& on_point = {},
                                       Progress& progress = no_progress(),
                                       std::size_t max_memory_mib = default_max_memory_mib());

// fit_series for every architecture of the points, in their order of first appearance.
std::vector<DepthFit> fit_depths(const std::vector<DepthPoint>& points);

// The precision a target's depths are measured at (depth_subject, model_depth_subject):
// "exact rationals", "log:1 fixed point; finite-state models exact", "log:1 fixed point".
std::string depth_precision(CircuitTarget target);

// `rnncc depth --json` (and the Python package's depth): {"criterion": "AICc", "target",
// "precision" (depth_precision; both only when `target` is given), "points": [{arch, n, size,
// depth, bounded_fanin_depth}], "fits": [{arch, chosen, a, b, rms, n, residuals, models: [{model,
// k, a, b, rss, rms, aicc (null for −∞)}]}], "skipped": [...]}. The target and precision are what
// a plot of the document titles it with (rnncc.plotting.plot_depth).
nlohmann::ordered_json depth_json(const std::vector<DepthPoint>& points,
                                  const std::vector<DepthFit>& fits,
                                  const std::vector<std::string>& skipped,
                                  std::optional<CircuitTarget> target = std::nullopt);

// The points as CSV: "arch,n,size,depth,bounded_fanin_depth".
std::string depth_csv(const std::vector<DepthPoint>& points);

// The plot of the points is viz/plot_depth.hpp (plot_depths).

}  // namespace rnncc
