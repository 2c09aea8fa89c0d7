// Routing models to compilers by target (target.hpp states the table).
#include "circuits/compile/target.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <variant>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "algebra/precision.hpp"
#include "algebra/suggest.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/compile/iterated_multiplication.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/compile/threshold.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/lower_threshold.hpp"
#include "circuits/passes/pipeline.hpp"
#include "circuits/passes/valid_output.hpp"

namespace rnncc {

std::string to_string(CircuitTarget t) {
  switch (t) {
    case CircuitTarget::arithmetic:
      return "arith";
    case CircuitTarget::boolean:
      return "boolean";
    case CircuitTarget::threshold:
      return "threshold";
  }
  return "?";
}

CircuitTarget parse_target(const std::string& text, const std::string& flag) {
  if (text == "arith") return CircuitTarget::arithmetic;
  if (text == "boolean") return CircuitTarget::boolean;
  if (text == "threshold") return CircuitTarget::threshold;
  throw InputError(flag, with_suggestion("'" + text + "': expected arith, boolean or threshold",
                                         text, {"arith", "boolean", "threshold"}));
}

void parse_target_precision(const std::string& text, Precision& precision,
                            const std::string& flag) {
  PrecisionSpec p;
  try {
    p = parse_precision(text, flag);  // the syntax of `rnncc run --precision`
  } catch (const InputError&) {
    throw InputError(flag, with_suggestion_before_colon(
                               "'" + text + "': expected exact or log:C (C an integer 1..64)", text,
                               {"exact", "log"}));
  }
  if (p.kind == PrecisionSpec::Kind::mod)
    throw InputError(flag, "'" + text +
                               "': circuits are compiled exact or at log:C; mod p "
                               "evaluates a compiled arithmetic circuit (rnncc eval)");
  if (p.kind == PrecisionSpec::Kind::exact)
    precision.log_c.reset();
  else
    precision.log_c = p.log_c;
}

TargetOptions parse_target_options(const TargetText& text, const std::string& prefix) {
  TargetOptions t;
  CompileOptions& o = t.compile;
  o.scan = parse_scan(text.scan, prefix + "scan");
  if (text.outputs != "last" && text.outputs != "all")
    throw InputError(prefix + "outputs",
                     with_suggestion("'" + text.outputs + "': expected last or all", text.outputs,
                                     {"last", "all"}));
  o.outputs = text.outputs == "all" ? OutputMode::all : OutputMode::last;
  if (text.structure != "auto" && text.structure != "dense")
    throw InputError(prefix + "structure",
                     with_suggestion("'" + text.structure + "': expected auto or dense",
                                     text.structure, {"auto", "dense"}));
  o.structure = text.structure == "dense" ? Structure::dense : Structure::automatic;
  o.budget.max_gates = text.max_gates;
  o.budget.max_memory_mib = text.max_memory_mib;
  t.target = parse_target(text.target, prefix + "target");
  parse_target_precision(text.precision, t.precision, prefix + "precision");
  t.precision.rounding = parse_rounding(text.rounding, prefix + "rounding");
  t.precision.overflow = parse_overflow(text.overflow, prefix + "overflow");
  // As `rnncc run` refuses it: integer bits are a fixed-point format's, never silently unused.
  if (text.int_bits && !t.precision.log_c)
    throw InputError(prefix.empty() ? "int_bits" : prefix + "int-bits",
                     "applies to log:C precision only (the compile uses " + text.precision + ")");
  t.precision.int_bits = text.int_bits;
  t.max_states = text.max_states;
  if (text.valid_output && t.target == CircuitTarget::arithmetic)
    throw InputError(prefix.empty() ? "valid_output" : prefix + "valid-output",
                     "applies to --target boolean or threshold: the output says whether the "
                     "0/1 inputs spell a string, for equivalence checkers such as ABC's cec");
  t.valid_output = text.valid_output;
  return t;
}

namespace {

enum class Route {
  lrnn,
  nonlinear_sequential,
  attention_arith,
  finite_state,
  lrnn_boolean,
  nonlinear_composed,
  unique_hard_lowered,
  time_invariant,
  unique_hard_threshold,
  diagonal_threshold,
};

const char* route_name(Route r) {
  switch (r) {
    case Route::lrnn:
      return "compile_lrnn";
    case Route::nonlinear_sequential:
      return "compile_nonlinear_sequential";
    case Route::attention_arith:
      return "compile_attention_arith";
    case Route::finite_state:
      return "compile_finite_state";
    case Route::lrnn_boolean:
      return "compile_lrnn_boolean";
    case Route::nonlinear_composed:
      return "compile_nonlinear_composed";
    case Route::unique_hard_lowered:
      return "compile_unique_hard_threshold + lower_threshold_gates";
    case Route::time_invariant:
      return "compile_time_invariant_threshold";
    case Route::unique_hard_threshold:
      return "compile_unique_hard_threshold";
    case Route::diagonal_threshold:
      return "compile_diagonal_threshold";
  }
  return "?";
}

// Peak memory of `rnncc compile -o` over the arena of the circuit it builds (the compiler's
// own tables, the builder's hash chains and growth, the dead-gate sweep's copy, the streamed
// write): peak RSS less the process's own, divided by the built circuit's arena bytes, measured
// per route over a range of n (bench/compile_memory.sh; docs/reliability.md, "Memory
// estimates") and rounded up over the models measured; the comments give estimate / measured
// with the factor.
double route_peak_factor(Route r) {
  switch (r) {
    case Route::lrnn:
      return 3.4;  // s5 arith 1.9–2.0, dplr_d3 1.3, rwkv7 1.2–1.4, gated_deltanet 1.3
    case Route::nonlinear_sequential:
      return 4;  // relu_counter 1.4
    case Route::attention_arith:
      return 4;  // attention_most_recent_a 1.4–1.5
    case Route::finite_state:
      return 5;  // s5_word_problem 1.3
    case Route::lrnn_boolean:
      return 4;  // mamba_diagonal log:1
    case Route::nonlinear_composed:
      return 4;  // (not estimated: the state exploration dominates)
    case Route::unique_hard_lowered:
      return 9;  // attention_most_recent_a 1.2
    case Route::time_invariant:
      return 4;  // (not estimated: the convolution form dominates)
    case Route::unique_hard_threshold:
      return 4;  // attention_most_recent_a 1.6–1.8
    case Route::diagonal_threshold:
      return 4;  // (estimated from its gate estimate instead)
  }
  return 4;
}

bool all_lrnn(const Model& m, std::size_t upto) {
  for (std::size_t i = 0; i < upto; ++i)
    if (!std::holds_alternative<LrnnLayer>(m.layers[i].layer)) return false;
  return true;
}

const AttentionLayer* last_attention(const Model& m) {
  return m.layers.empty() ? nullptr : std::get_if<AttentionLayer>(&m.layers.back().layer);
}

bool single(const Model& m) {
  return m.layers.size() == 1;
}

bool time_invariant(const LrnnLayer& l) {
  for (std::size_t k = 1; k < l.A.size(); ++k)
    if (!(l.A[k] == l.A[0])) return false;
  return true;
}

// The deterministic-transition test of the finite-state route, without building the machine:
// tracked_fsm_from_model throws InputError naming the entry that breaks it.
bool finite_state(const Model& m) {
  try {
    (void)tracked_fsm_from_model(m);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// Why an input-dependent, non-diagonal layer has no threshold compiler: which case applies.
std::string non_diagonal_reason(const LrnnLayer& l) {
  const std::string tail =
      " — a constant-depth threshold circuit would show TC⁰ = NC¹. (Input-dependent DIAGONAL "
      "transitions commute and do compile: iterated multiplication [HAB02].)";
  if (l.family == Family::pd)
    return "input-dependent PD transitions (permutation × diagonal) compose permutations; the "
           "word problem of S₅, products of 5×5 permutation matrices, is NC¹-complete [Bar89]" +
           tail;
  return "input-dependent transitions that are not diagonal (family " + to_string(l.family) +
         ") compose matrix products, which are NC¹-hard already for 5×5 permutation matrices "
         "[Bar89]" +
         tail;
}

std::string describe(const Model& m) {
  std::string s;
  for (std::size_t i = 0; i < m.layers.size(); ++i)
    s += (i ? " + " : "") + layer_kind(m.layers[i].layer);
  return s.empty() ? "no layers" : s;
}

Route choose(const Model& model, const TargetOptions& o) {
  if (model.layers.empty()) throw InputError("model", "the model has no layers");
  const std::string what = describe(model);
  const bool exact = o.precision.exact();
  switch (o.target) {
    case CircuitTarget::arithmetic:
      if (!exact)
        throw InputError("--precision",
                         "arithmetic circuits compute over Q exactly; log precision "
                         "applies to --target boolean and threshold");
      if (all_lrnn(model, model.layers.size())) return Route::lrnn;
      if (single(model) && std::holds_alternative<ElmanLayer>(model.layers[0].layer))
        return Route::nonlinear_sequential;
      if (last_attention(model) && all_lrnn(model, model.layers.size() - 1))
        return Route::attention_arith;
      throw InputError("model", what +
                                    ": --target arith compiles LRNN stacks, one Elman layer, "
                                    "or LRNN layers followed by one attention layer");
    case CircuitTarget::boolean:
      if (single(model) && std::holds_alternative<LrnnLayer>(model.layers[0].layer)) {
        if (!exact) return Route::lrnn_boolean;
        if (finite_state(model)) return Route::finite_state;
        throw InputError("--precision",
                         what +
                             ": an exact boolean circuit needs a finite-state layer (0/1 "
                             "transition matrices with one 1 per column, B = 0); use "
                             "--precision log:C for the fixed-point circuit");
      }
      if (single(model) && (std::holds_alternative<ElmanLayer>(model.layers[0].layer) ||
                            std::holds_alternative<LstmLayer>(model.layers[0].layer)))
        return Route::nonlinear_composed;
      if (single(model) && last_attention(model) &&
          last_attention(model)->kind == AttentionKind::unique_hard) {
        if (exact)
          throw InputError("--precision", what +
                                              ": attention compiles at log precision; use "
                                              "--precision log:C");
        return Route::unique_hard_lowered;
      }
      throw InputError("model", what +
                                    ": --target boolean compiles one LRNN, Elman, LSTM or "
                                    "unique-hard attention layer (hybrids: use --target arith)");
    case CircuitTarget::threshold:
      if (single(model) && std::holds_alternative<LrnnLayer>(model.layers[0].layer)) {
        const LrnnLayer& l = std::get<LrnnLayer>(model.layers[0].layer);
        if (time_invariant(l)) return Route::time_invariant;
        if (diagonal_transitions(l)) {
          if (exact)
            throw InputError("--precision",
                             what +
                                 ": input-dependent DIAGONAL transitions commute, so y is a sum "
                                 "of iterated products of numbers, in TC⁰ [HAB02]; the circuit "
                                 "is built at log precision: use --precision log:C");
          return Route::diagonal_threshold;
        }
        throw InputError("model", what + ": " + non_diagonal_reason(l));
      }
      if (single(model) && last_attention(model) &&
          last_attention(model)->kind == AttentionKind::unique_hard) {
        if (exact)
          throw InputError("--precision", what +
                                              ": attention compiles at log precision; use "
                                              "--precision log:C");
        return Route::unique_hard_threshold;
      }
      if (single(model) && (std::holds_alternative<ElmanLayer>(model.layers[0].layer) ||
                            std::holds_alternative<LstmLayer>(model.layers[0].layer)))
        throw InputError("model", what +
                                      ": --target threshold has no compiler for nonlinear RNNs "
                                      "(log-precision ReLU RNNs are L-complete [MJLLS26, Thm 1]; "
                                      "a TC⁰ circuit would show TC⁰ = L)");
      throw InputError("model", what +
                                    ": --target threshold compiles one time-invariant LRNN "
                                    "layer or one unique-hard attention layer");
  }
  throw InputError("--target", "unknown target");
}

// The chosen compiler's options: the parts it shares with TargetOptions, passed whole.
BooleanLrnnOptions boolean_options(const TargetOptions& o) {
  return {.precision = o.precision,
          .scan = o.compile.scan,
          .outputs = o.compile.outputs,
          .budget = o.compile.budget};
}

ThresholdOptions threshold_options(const TargetOptions& o) {
  return {.precision = o.precision, .acceptance = o.compile.acceptance, .budget = o.compile.budget};
}

AttentionCompileOptions attention_options(const TargetOptions& o) {
  return {.precision = o.precision, .acceptance = o.compile.acceptance, .budget = o.compile.budget};
}

FiniteStateOptions finite_state_options(const TargetOptions& o) {
  return {.scan = o.compile.scan, .outputs = o.compile.outputs, .budget = o.compile.budget};
}

ComposedOptions composed_options(const TargetOptions& o) {
  return {.precision = o.precision, .max_states = o.max_states, .circuit = finite_state_options(o)};
}

// Every circuit has n·|Σ| input gates: refuse before any compiler allocates per-position
// tables (n = 2^40 would otherwise exhaust memory before a compiler's own estimate runs).
void check_inputs(const Model& model, std::size_t n, const TargetOptions& o) {
  const std::size_t S = std::max<std::size_t>(model.alphabet.size(), 1);
  const std::size_t max_gates = o.compile.budget.max_gates;
  if (n > max_gates / S)
    throw InputError(
        "--max-gates",
        "n·|Σ| = " + std::to_string(n) + "·" + std::to_string(S) + " = " +
            (n > SIZE_MAX / S ? std::string("more than 2^64") : std::to_string(n * S)) +
            " input gates alone, more than the limit of " + std::to_string(max_gates));
}

}  // namespace

std::string compiler_name(const Model& model, const TargetOptions& options) {
  return route_name(choose(model, options));
}

namespace {

// The compiler of `route`, called without the memory estimate (compile_model's body; the probes
// of estimate_compile_memory).
CompiledCircuit compile_route(Route route, const Model& model, std::size_t n,
                              const TargetOptions& o) {
  check_inputs(model, n, o);
  switch (route) {
    case Route::lrnn:
      return compile_lrnn(model, n, o.compile);
    case Route::nonlinear_sequential:
      return compile_nonlinear_sequential(model, n, o.compile);
    case Route::attention_arith:
      return compile_attention_arith(model, n, o.compile);
    case Route::finite_state:
      return compile_finite_state(tracked_fsm_from_model(model), n, finite_state_options(o));
    case Route::lrnn_boolean:
      return compile_lrnn_boolean(model, n, boolean_options(o));
    case Route::nonlinear_composed:
      return compile_nonlinear_composed(model, n, composed_options(o));
    case Route::unique_hard_lowered: {
      // The threshold circuit with every thr gate rewritten as a bit-sliced adder and a
      // comparator (circuits/passes/lower_threshold.hpp): and/or/xor/not only. Regions: the inputs,
      // then one region for the rest (the lowering does not keep the threshold circuit's regions).
      return run_pass(compile_unique_hard_threshold(model, n, attention_options(o)),
                      {PassKind::lower_threshold});
    }
    case Route::time_invariant:
      return compile_time_invariant_threshold(model, n, threshold_options(o));
    case Route::unique_hard_threshold:
      return compile_unique_hard_threshold(model, n, attention_options(o));
    case Route::diagonal_threshold:
      return compile_diagonal_threshold(model, n, threshold_options(o));
  }
  throw std::logic_error("compile_model: unhandled route");
}

}  // namespace

// The bytes used, not the capacity: the builder reserves from the gate estimate, and what it
// never touches is not resident.
std::uint64_t compiled_arena_bytes(const CompiledCircuit& cc) {
  const Circuit& c = cc.circuit;
  std::uint64_t bytes = c.size() * sizeof(Gate) + cc.regions.size() * sizeof(Region) +
                        (c.inputs().size() + c.outputs().size()) * sizeof(GateId);
  for (GateId id = 0; id < c.size(); ++id) {
    const GateKind k = c.kind(id);
    if (k == GateKind::constant)
      bytes += sizeof(Rational);
    else if (k != GateKind::input)
      bytes += c.operands(id).size() * sizeof(GateId) * (k == GateKind::thr ? 2 : 1) +
               (k == GateKind::thr ? sizeof(std::int32_t) : 0);
  }
  for (const auto* names : {&c.input_names(), &c.output_names()})
    for (const auto& s : *names) bytes += sizeof(std::string) + (s.size() > 15 ? s.size() + 1 : 0);
  return bytes;
}

namespace {

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// Above this many gates (gate estimate × kCertainBytesPerGate) the estimate builds probes; below,
// the gate estimate bounds the memory well within any limit and nothing is built twice.
constexpr std::uint64_t kCertainBytesPerGate = 256;

}  // namespace

CompileMemoryEstimate estimate_compile_memory(const Model& model, std::size_t n,
                                              const TargetOptions& options) {
  const Route route = choose(model, options);
  CompileMemoryEstimate e;
  e.compiler = route_name(route);
  // The diagonal threshold route's gates are large and its gate estimate close (1–3× the
  // built size): gates × the bytes a gate it measured (iterated_multiplication.hpp).
  if (route == Route::diagonal_threshold) {
    const std::size_t g = estimate_diagonal_threshold_gates(model, n, threshold_options(options));
    e.bytes = e.arena_bytes = saturating_product(g, kDiagonalThresholdBytesPerGate);
    e.detail = std::to_string(g) + " gates × " + std::to_string(kDiagonalThresholdBytesPerGate) +
               " bytes a gate, measured for " + e.compiler;
    return e;
  }
  // Two routes whose memory is not their circuit's: the time-invariant threshold route's
  // convolution form (peak RSS 82 MiB at n = 8000 for s4_decay, whose circuit takes 1 MiB; it
  // grows as about n^1.9) and the composed nonlinear route's state exploration (bounded by
  // --max-states). Not estimated (bytes = 0); docs/reliability.md, "Memory estimates".
  if (route == Route::time_invariant || route == Route::nonlinear_composed) return e;
  // The probes: the circuits of the same route for n_b = min(kProbeLength, n/4) and n_a = n_b/4,
  // n_b lowered while the route's gate estimate passes 2^22 (so a probe stays small).
  std::size_t nb = std::min(kProbeLength, n / 4);
  for (; nb >= 32; nb /= 2) {
    std::optional<std::size_t> g;
    try {
      g = estimate_model_gates(model, nb, options);
    } catch (const InputError&) {
      return e;  // the compile itself will say why
    }
    if (!g || *g <= (std::size_t{1} << 22)) break;
  }
  if (nb < 32) return e;  // n is short: the compilers' own budgets bound it
  const std::size_t na = nb / 4;
  double a = 0, b = 0;
  try {
    a = static_cast<double>(compiled_arena_bytes(compile_route(route, model, na, options)));
    b = static_cast<double>(compiled_arena_bytes(compile_route(route, model, nb, options)));
  } catch (const InputError&) {
    return e;  // a probe refused (states, gates): the compile will refuse with its own words
  }
  // Growth as a power of n between the probes, at least linear (every circuit has n·|Σ| inputs)
  // and at most n^4 (the fastest route measured, diagonal threshold, grows as about n^3.5).
  const double alpha = std::clamp(
      std::log(b / a) / std::log(static_cast<double>(nb) / static_cast<double>(na)), 1.0, 4.0);
  const double arena = b * std::pow(static_cast<double>(n) / static_cast<double>(nb), alpha);
  const double factor = route_peak_factor(route);
  const double peak = arena * factor;
  constexpr double kMax = 1.8e19;  // beyond 2^64: saturate
  e.arena_bytes = arena >= kMax ? UINT64_MAX : static_cast<std::uint64_t>(arena);
  e.bytes = peak >= kMax ? UINT64_MAX : static_cast<std::uint64_t>(peak);
  char text[160];
  std::snprintf(text, sizeof text,
                "the circuits for n = %zu and %zu grow as n^%.2f: %.1f MiB of gates at n = %zu, "
                "× %.1f for the build and the write",
                na, nb, alpha, arena / 1048576.0, n, factor);
  e.detail = std::string(text) + ", measured for " + e.compiler;
  return e;
}

std::uint64_t estimate_report_memory(const CompiledCircuit& cc, std::string* detail) {
  // The class as report_circuit decides it: the AIG count strashes boolean circuits, after
  // lowering every thr/maj gate (lower_threshold_gates) in threshold circuits.
  bool boolean = true, threshold = false;
  const Circuit& c = cc.circuit;
  for (GateId g = 0; g < c.size() && boolean; ++g) {
    const GateKind k = c.kind(g);
    const GateFamily f = info(k).family;
    if (k == GateKind::constant)
      boolean = c.constant(g) == 0 || c.constant(g) == 1;
    else if (f == GateFamily::threshold)
      threshold = true;
    else if (k != GateKind::input && f != GateFamily::boolean)
      boolean = false;
  }
  // Peak RSS of `rnncc compile … --json` (less the process's own) over the arena, measured on
  // s5_word_problem (boolean, n = 20000: 10.8), dplr_d3 (arith, n = 32000: 1.7),
  // mamba_selective (threshold log:1, n = 16 and 24: 20.6, 14.3) and attention_most_recent_a
  // (threshold log:1, n = 400: 46), rounded up (docs/reliability.md, "Memory estimates").
  const std::uint64_t factor = !boolean ? 3 : threshold ? 48 : 12;
  const std::uint64_t arena = compiled_arena_bytes(cc);
  if (detail) {
    char text[120];
    std::snprintf(text, sizeof text, "%.1f MiB of gates × %llu, measured for %s circuits",
                  static_cast<double>(arena) / 1048576.0, static_cast<unsigned long long>(factor),
                  !boolean    ? "arithmetic"
                  : threshold ? "threshold"
                              : "boolean");
    *detail = text;
  }
  return saturating_product(arena, factor);
}

CompiledCircuit compile_model(const Model& model, std::size_t n, const TargetOptions& o) {
  const Route route = choose(model, o);
  check_inputs(model, n, o);
  // Peak memory before building: the gate estimate × kCertainBytesPerGate where that is within
  // the limit, else the probes' extrapolation (estimate_compile_memory). The diagonal threshold
  // compiler checks its own (gates × kDiagonalThresholdBytesPerGate), from the estimate it makes;
  // two routes are not estimated (estimate_compile_memory).
  if (route != Route::diagonal_threshold && route != Route::time_invariant &&
      route != Route::nonlinear_composed) {
    const std::optional<std::size_t> gates = estimate_model_gates(model, n, o);
    const std::uint64_t limit = saturating_product(o.compile.budget.max_memory_mib, 1u << 20);
    // A circuit past --max-gates is refused by the route's own gate check, before it builds
    // anything: that refusal names the cause (the size), and its numbers do not depend on the
    // machine's memory.
    const bool past_max_gates = gates && *gates > o.compile.budget.max_gates;
    if (!past_max_gates && (!gates || saturating_product(*gates, kCertainBytesPerGate) > limit)) {
      const CompileMemoryEstimate e = estimate_compile_memory(model, n, o);
      check_memory("--max-memory", e.bytes, o.compile.budget.max_memory_mib, "compiling would take",
                   e.detail);
    }
  }
  return compile_route(route, model, n, o);
}

const char* circuit_function_note(const Model& model, const TargetOptions& options) {
  return choose(model, options) == Route::diagonal_threshold ? diagonal_threshold_function()
                                                             : nullptr;
}

std::optional<ScanDisagreement> scan_function_disagreement(const Model& model, std::size_t n,
                                                           const TargetOptions& options) {
  if (choose(model, options) != Route::lrnn_boolean ||
      options.compile.scan.kind == ScanKind::sequential)
    return std::nullopt;
  return scan_disagreement(model, n, boolean_options(options));
}

std::string scan_function_note(const ScanDisagreement& d, std::size_t n, const Scan& scan) {
  if (d.differing == 0) return {};
  return fmt::format(
      "the scan-rounded function of {} (docs/semantics.md): differs from the sequential rule "
      "(`rnncc run`) on {} of {} random strings of length {} ({:.2f} %); `rnncc run --scan {}` "
      "computes it",
      to_string(scan), d.differing, d.strings, n,
      100.0 * static_cast<double>(d.differing) / static_cast<double>(d.strings), to_string(scan));
}

Pipeline compile_pipeline(const Model& model, const TargetOptions& options) {
  return as_written_pipeline(model.alphabet.size(), options.valid_output);
}

std::string compiler_params(const TargetOptions& options) {
  std::string t = "target = " + to_string(options.target);
  if (options.target != CircuitTarget::arithmetic)
    t += ", precision = " + to_string(options.precision);
  t += ", scan = " + to_string(options.compile.scan);
  t += std::string(", outputs = ") + (options.compile.outputs == OutputMode::last ? "last" : "all");
  return t;
}

PipelinePlan compile_plan(const Model& model, std::size_t n, const TargetOptions& options,
                          const std::string& output_path) {
  PipelinePlan plan;
  plan.compiler = compiler_name(model, options);
  plan.compiler_params = "n = " + std::to_string(n) + ", " + compiler_params(options);
  plan.pipelines.push_back(compile_pipeline(model, options));
  if (!output_path.empty()) {
    plan.pipelines.push_back(
        netlist_pipeline(output_path, options.target == CircuitTarget::threshold));
    plan.writer = netlist_writer(output_path);
  }
  return plan;
}

CompiledCircuit compile_as_written(const Model& model, std::size_t n,
                                   const TargetOptions& options) {
  CompiledCircuit c = compile_model(model, n, options);
  c.passes = {{"compile", compiler_name(model, options),
               "n = " + std::to_string(n) + ", " + compiler_params(options), 0, c.circuit.size()}};
  c = run_pipeline(c, compile_pipeline(model, options));
  if (c.dead_gates_swept && *c.dead_gates_swept > 0)
    if (const char* why = dead_gates_note(model, options)) c.dead_gates_note = why;
  return c;
}

const char* dead_gates_note(const Model& model, const TargetOptions& options) {
  const Route r = choose(model, options);
  const Scan& scan = options.compile.scan;
  if ((r != Route::lrnn && r != Route::lrnn_boolean) ||
      options.compile.outputs != OutputMode::last || scan.chunk > 0 ||
      scan.kind == ScanKind::sequential)
    return nullptr;
  return scan.kind == ScanKind::brent_kung
             ? "outputs = last reads the last prefix only: Brent–Kung's down-sweep, which "
               "computes the other prefixes, is dead"
             : "outputs = last reads the last prefix only: the gates that compute only the other "
               "prefixes are dead";
}

std::optional<ThresholdDepthBound> threshold_depth_bound(const Model& model, std::size_t n,
                                                         const TargetOptions& options) {
  const Route r = choose(model, options);
  if (r == Route::diagonal_threshold)
    return diagonal_threshold_depth_bound(model, n, threshold_options(options));
  if (r == Route::time_invariant)
    return time_invariant_threshold_depth_bound(model, n, threshold_options(options));
  return std::nullopt;
}

std::optional<std::size_t> threshold_depth_reached(const Model& model, const TargetOptions& options,
                                                   std::size_t max_n) {
  if (max_n == 0) return std::nullopt;
  auto reached = [&](std::size_t n) {
    const auto b = threshold_depth_bound(model, n, options);
    return b && b->at_n >= b->limit;
  };
  if (!threshold_depth_bound(model, 1, options)) return std::nullopt;
  std::size_t hi = 1;
  while (hi < max_n && !reached(hi)) hi = std::min(max_n, 2 * hi);
  if (!reached(hi)) return std::nullopt;
  std::size_t lo = hi / 2;  // not reached at lo (lo = 0: below every length)
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (reached(mid) ? hi : lo) = mid;
  }
  return hi;
}

std::optional<std::string> threshold_depth_text(const Model& model, std::size_t n,
                                                const TargetOptions& options, std::size_t max_n) {
  const auto b = threshold_depth_bound(model, n, options);
  if (!b) return std::nullopt;
  const auto from = threshold_depth_reached(model, options, max_n);
  return "depth ≤ " + std::to_string(b->limit) + " at every n (" + b->stages + "); stated " +
         std::to_string(b->at_n) + " at n = " + std::to_string(n) + "; " +
         (from ? "stated = limit from n = " + std::to_string(*from)
               : "stated < limit up to n = " + std::to_string(max_n));
}

std::optional<std::size_t> estimate_model_gates(const Model& model, std::size_t n,
                                                const TargetOptions& o) {
  const Route route = choose(model, o);
  check_inputs(model, n, o);
  switch (route) {
    case Route::lrnn:
      return estimate_lrnn_gates(model, n, o.compile);
    case Route::nonlinear_sequential:
      return std::nullopt;
    case Route::attention_arith: {
      Model prefix = model;
      prefix.layers.pop_back();
      CompileOptions all = o.compile;
      all.outputs = OutputMode::all;
      const std::size_t lrnn = prefix.layers.empty() ? 0 : estimate_lrnn_gates(prefix, n, all);
      return lrnn + estimate_attention_arith_gates(model, n, o.compile);
    }
    case Route::finite_state:
      return std::nullopt;
    case Route::lrnn_boolean:
      return estimate_lrnn_boolean_gates(model, n, boolean_options(o));
    case Route::nonlinear_composed:
      return std::nullopt;
    case Route::unique_hard_lowered:
      return std::nullopt;  // the lowering's size depends on weights
    case Route::time_invariant:
      return estimate_time_invariant_threshold_gates(model, n, threshold_options(o));
    case Route::unique_hard_threshold:
      return estimate_unique_hard_threshold_gates(model, n, attention_options(o));
    case Route::diagonal_threshold:
      return estimate_diagonal_threshold_gates(model, n, threshold_options(o));
  }
  return std::nullopt;
}

}  // namespace rnncc
