// compile_model: one entry point that picks the compiler for a model, a length and a target
// circuit class (`rnncc compile --target`, `rnncc depth`). The compilers themselves live beside
// this file; this module only routes and refuses, naming why (docs/circuits.md, "Targets").
//
// clang-format off
//   target     model                                     compiler                            number semantics
//   arith      LRNN stack                                compile_lrnn                        exact (Q)
//              one Elman layer                           compile_nonlinear_sequential        exact
//              LRNN layers + one hard-attention layer    compile_attention_arith             exact
//   boolean    one LRNN layer, 0/1 deterministic         compile_finite_state                exact
//                transitions (PD with D = 1, B = 0)
//              one LRNN layer                            compile_lrnn_boolean                log:C (scan-rounded)
//              one Elman / LSTM layer                    compile_nonlinear_composed          exact or log:C
//              one unique-hard attention layer           compile_unique_hard_threshold,      log:C
//                                                          then lower_threshold_gates
//   threshold  one time-invariant LRNN layer             compile_time_invariant_threshold    exact or log:C
//                (A_σ the same for every σ)                                                    (convolution-rounded)
//              one unique-hard attention layer           compile_unique_hard_threshold       log:C
//              one LRNN layer with input-dependent       compile_diagonal_threshold          log:C (product rounded
//                DIAGONAL A_σ (diagonal, gla, mamba2)                                          once; HAB02 iterated
//                                                                                              multiplication)
// clang-format on
//
// Everything else is refused with an InputError that says what the target needs, and — where
// the complexity class is the reason — which result makes a circuit of that kind unlikely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/threshold.hpp"
#include "circuits/passes/pipeline.hpp"
#include "rnn/model.hpp"

namespace rnncc {

enum class CircuitTarget { arithmetic, boolean, threshold };
std::string to_string(CircuitTarget t);  // "arith" | "boolean" | "threshold"
// "arith" | "boolean" | "threshold"; InputError naming `flag` otherwise.
CircuitTarget parse_target(const std::string& text, const std::string& flag = "--target");

// Composed of the compilers' shared parts (common.hpp), which pass to the chosen compiler whole.
struct TargetOptions {
  CircuitTarget target = CircuitTarget::arithmetic;
  Precision precision;            // exact (arith, and the exact boolean route) or log:C
  CompileOptions compile;         // scan, outputs, structure, acceptance, budget (all targets)
  std::size_t max_states = 4096;  // the finite-state route of nonlinear models
  // Append the output "valid" (boolean and threshold targets): 1 exactly when every position has
  // one symbol (circuits/passes/valid_output.hpp), for equivalence checks restricted to strings.
  bool valid_output = false;
};

// Parses --precision: "exact" or "log:C" (C ≥ 1) into precision.log_c (the rest is kept).
void parse_target_precision(const std::string& text, Precision& precision,
                            const std::string& flag = "--precision");

// The compile options as text, as `rnncc compile`'s flags and the Python package's keywords give
// them (docs/circuits.md, docs/python.md), with the same defaults.
struct TargetText {
  std::string target = "arith";     // arith | boolean | threshold
  std::string precision = "exact";  // exact | log:C (boolean and threshold targets)
  std::string scan = "brent-kung", outputs = "last", structure = "auto";
  std::string rounding = "nearest-even", overflow = "saturate";
  std::size_t max_gates = std::size_t{1} << 28;
  std::size_t max_memory_mib = default_max_memory_mib();  // Budget::check_memory
  std::size_t max_states = 4096;  // the finite-state route of nonlinear models
  std::optional<unsigned> int_bits;
  bool valid_output = false;  // --valid-output
};

// TargetOptions from the text; an InputError names the option as `prefix` + its name ("--" for
// the CLI's "--outputs", "" for Python's "outputs").
TargetOptions parse_target_options(const TargetText& text, const std::string& prefix = "--");

// The circuit of `model` for inputs of length n in the target class. Throws InputError (see
// above) for models the target has no compiler for, and whatever the chosen compiler throws.
CompiledCircuit compile_model(const Model& model, std::size_t n, const TargetOptions& options);

// The circuit as `rnncc compile` and the Python package's `compile` return, write and measure
// it: compile_model, then compile_pipeline run on it (circuits/passes/pipeline.hpp): the dead
// gates swept (sweep_dead_gates, circuits/passes/dead_gates.hpp; dead_gates_swept set) and, with
// options.valid_output, the output "valid" appended (with_valid_output); where the compiler's
// structure made dead gates, dead_gates_note — so that `compile --stats` and `stats` of the file
// it wrote say the same (docs/circuits.md). Its `passes` record the compiler (stage "compile")
// and each pass, with the gates before and after.
CompiledCircuit compile_as_written(const Model& model, std::size_t n, const TargetOptions& options);

// The pipeline compile_as_written runs after the compiler (stage "as written").
Pipeline compile_pipeline(const Model& model, const TargetOptions& options);
// The options that choose and shape the compiler, as text: "target = boolean, precision = log:2,
// scan = brent-kung, outputs = last" (precision for the boolean and threshold targets only).
std::string compiler_params(const TargetOptions& options);
// What `rnncc compile --print-pipeline` prints: the compiler for (model, n, options), the
// as-written pipeline and, with an output path, the writer's pipeline for a circuit of
// options.target (lower-threshold assumed for the threshold target) and the writer. InputError
// as compile_model when no compiler applies.
PipelinePlan compile_plan(const Model& model, std::size_t n, const TargetOptions& options,
                          const std::string& output_path);

// Which compiler compile_model would use ("compile_lrnn", …); InputError as compile_model.
std::string compiler_name(const Model& model, const TargetOptions& options);

// For routes whose circuit computes a function other than the model's sequential log-precision
// rule in a way the CLI must state: a one-line description (today the input-dependent diagonal
// threshold route, "product rounded once …"); nullptr otherwise.
const char* circuit_function_note(const Model& model, const TargetOptions& options);

// The boolean LRNN route under a tree scan computes the scan-rounded function
// (lrnn_boolean.hpp), which `rnncc run --scan S` computes too: how often it differs from the
// sequential rule on random strings of length n (scan_disagreement), for `compile`'s note and
// its JSON. nullopt for every other route and for the sequential network, whose circuit computes
// the sequential rule itself.
std::optional<ScanDisagreement> scan_function_disagreement(const Model& model, std::size_t n,
                                                           const TargetOptions& options);
// "the scan-rounded function of brent-kung: differs from the sequential rule (`rnncc run`) on
// 15 of 400 random strings of length 64 (3.75 %); `rnncc run --scan brent-kung` computes it";
// empty when no string differed.
std::string scan_function_note(const ScanDisagreement& d, std::size_t n, const Scan& scan);

// Why a circuit of these options has dead gates by construction, for `compile --stats` to say
// beside the number swept: with outputs = last and a parallel scan of the LRNN routes, only the
// last prefix is read, so the gates that compute only the other prefixes are dead (Brent–Kung's
// whole down-sweep: its combine levels drop from 2·log₂ n − 2 to log₂ n). nullptr otherwise.
const char* dead_gates_note(const Model& model, const TargetOptions& options);

// The depth bound of the threshold routes that have one (compile_diagonal_threshold,
// compile_time_invariant_threshold; threshold.hpp, ThresholdDepthBound) at length n, or nullopt
// for every other route.
std::optional<ThresholdDepthBound> threshold_depth_bound(const Model& model, std::size_t n,
                                                         const TargetOptions& options);
// The least n ≤ max_n from which the stated depth equals the limit (doubling, then bisection:
// the stated depth only grows with n), or nullopt (not reached by max_n, or no such route).
std::optional<std::size_t> threshold_depth_reached(const Model& model, const TargetOptions& options,
                                                   std::size_t max_n);
// "depth ≤ 38 at every n (count 4 + …); stated 34 at n = 16; reached from n = 28" — for
// `rnncc compile` and `rnncc depth` (nullopt where threshold_depth_bound is).
std::optional<std::string> threshold_depth_text(const Model& model, std::size_t n,
                                                const TargetOptions& options, std::size_t max_n);

// The peak memory of compiling (and writing, `rnncc compile -o`) the circuit of `model` for
// length n, estimated before building it: the circuits of the same route for two short lengths
// n_a = n_b/4 and n_b ≤ min(kProbeLength, n/4) are built, their arena bytes extrapolated to n as
// a power of n (exponent between 1 and 4, from the two probes), and multiplied by the peak over
// arena measured for the route (docs/reliability.md, "Memory estimates", states how close this
// came to measured peak RSS). The gate estimates cannot serve: they bound the gates before
// sharing and folding, up to 100× the built circuit. The diagonal threshold route, whose gate
// estimate is close, is estimated as gates × kDiagonalThresholdBytesPerGate instead. bytes = 0
// where n is too short to probe (n_b < 32): the compilers' own gate budgets bound those; and for
// the time-invariant threshold and composed nonlinear routes, whose memory is not their
// circuit's (a convolution form growing as about n^1.9; a state exploration bounded by
// --max-states): not estimated.
// compile_model checks bytes against options.compile.budget.max_memory_mib ("--max-memory")
// whenever the gate estimate × 256 bytes does not already fit the limit.
inline constexpr std::size_t kProbeLength = 1024;
struct CompileMemoryEstimate {
  std::uint64_t bytes = 0;        // the peak estimate (saturates at 2^64 − 1)
  std::uint64_t arena_bytes = 0;  // the circuit's arena at n, extrapolated
  std::string compiler;           // the route
  std::string detail;             // how: for the refusal
};
CompileMemoryEstimate estimate_compile_memory(const Model& model, std::size_t n,
                                              const TargetOptions& options);

// Bytes a compiled circuit's arena uses (8 a gate, 4 an operand, a thr gate's weights and
// threshold, constants, id lists, names and regions): what the memory estimates extrapolate.
std::uint64_t compiled_arena_bytes(const CompiledCircuit& cc);

// The peak memory of report_circuit(cc) (circuits/measure/report.hpp; `rnncc compile --stats`, the
// default without -o): the arena × the factor measured for the circuit's class (its AIG count
// lowers and strashes boolean and threshold circuits). `detail` (optional) says how.
std::uint64_t estimate_report_memory(const CompiledCircuit& cc, std::string* detail = nullptr);

// An upper bound on the gates compile_model creates, computed without building the circuit
// (for --max-gates checks over many lengths). nullopt where the compiler has no estimate short
// of building (the finite-state routes, whose state sets are found by exploration).
std::optional<std::size_t> estimate_model_gates(const Model& model, std::size_t n,
                                                const TargetOptions& options);

}  // namespace rnncc
