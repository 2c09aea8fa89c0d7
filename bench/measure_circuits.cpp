// Measurements behind the size and depth tables of docs/circuits.md (formerly hidden test cases):
//   build/bench/measure_circuits threshold      time-invariant LRNNs → threshold circuits
//   build/bench/measure_circuits attention      unique-hard attention → threshold; hybrids → arith
//   build/bench/measure_circuits lrnn-boolean   examples/dplr_d3.json at log:1 → boolean
// Every row is built, measured and compared with its estimate (an estimate below the built size
// is reported as a failure: exit 1). Run from the repository root; figures depend on nothing
// but the code, except the build times.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/threshold.hpp"
#include "rnn/model_json.hpp"

namespace {

using namespace rnncc;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t wires(const Circuit& c) {
  std::size_t w = 0;
  for (GateId g = 0; g < c.size(); ++g) w += c.operands(g).size();
  return w;
}

int threshold_tables() {
  struct Row {
    const char* name;
    const char* file;
    Precision precision;
  };
  const Row rows[] = {
      {"s4 (examples/s4_decay.json), log C=1", "examples/s4_decay.json", Precision::log(1)},
      {"s4 (examples/s4_decay.json), exact", "examples/s4_decay.json", Precision{}},
      {"counter 1/3, -2/5 (examples/counter_rational.json), log C=1",
       "examples/majority_counter.json", Precision::log(1)}};
  int failures = 0;
  for (const Row& row : rows) {
    const Model model = load_model(row.file);
    std::printf("\n%s\n%6s %6s %6s %5s %10s %12s %12s %12s %9s\n", row.name, "n", "levels", "W",
                "depth", "gates", "wires", "est.gates", "est.wires", "build_s");
    bool stop = false;
    for (std::size_t n = 2; n <= 8192 && !stop; n *= 2) {
      for (unsigned levels : {1u, 2u}) {
        ThresholdOptions o;
        o.precision = row.precision;
        o.sum.levels = levels;
        ThresholdEstimate e;
        try {
          e = estimate_time_invariant_threshold_size(model, n, o);
        } catch (const InputError&) {
          std::printf("%6zu %6u refused (a block of too many terms)\n", n, levels);
          continue;
        }
        if (e.wires > o.max_wires || e.gates > o.budget.max_gates) {
          std::printf("%6zu %6u %6zu %5s %10s %12s %12zu %12zu %9s\n", n, levels, e.width, "-", "-",
                      "-", e.gates, e.wires, "refused");
          continue;
        }
        const auto t0 = std::chrono::steady_clock::now();
        const CompiledCircuit cc = compile_time_invariant_threshold(model, n, o);
        const double secs = seconds_since(t0);
        std::printf("%6zu %6u %6zu %5u %10zu %12zu %12zu %12zu %9.3f\n", n, levels,
                    cc.circuit.outputs().size() - 1, compute_stats(cc.circuit).depth,
                    cc.circuit.size(), wires(cc.circuit), e.gates, e.wires, secs);
        std::fflush(stdout);
        if (cc.circuit.size() > e.gates) {
          std::printf("  FAILS: built %zu gates above the estimate %zu\n", cc.circuit.size(),
                      e.gates);
          ++failures;
        }
        if (secs > 8) stop = true;
      }
    }
  }
  return failures;
}

int attention_tables() {
  int failures = 0;
  const Model m = load_model("examples/attention_most_recent_a.json");
  for (std::size_t n : {2, 4, 16, 64, 256, 1024, 4096}) {
    AttentionCompileOptions o;
    o.precision.fixed =
        log_precision(1, n, std::nullopt, Rounding::nearest_even, Overflow::saturate);
    const auto t0 = std::chrono::steady_clock::now();
    const CompiledCircuit cc = compile_unique_hard_threshold(m, n, o);
    const double secs = seconds_since(t0);
    const CircuitStats st = compute_stats(cc.circuit);
    const std::size_t estimate = estimate_unique_hard_threshold_gates(m, n, o);
    std::printf(
        "threshold |S|=%zu n=%zu F=%u size=%zu thr=%zu depth=%u fanin2=%u maxfanin=%u "
        "bytes=%zu estimate=%zu build=%.2fs\n",
        m.alphabet.size(), n, o.precision.fixed->frac_bits, st.size,
        st.by_kind[static_cast<std::size_t>(GateKind::thr)], st.depth, st.bounded_fanin_depth,
        st.max_fanin, cc.circuit.memory_bytes(), estimate, secs);
    if (st.size > estimate) ++failures;
  }
  const Model h = load_model("examples/hybrid_counter_attention.json");
  for (std::size_t n : {2, 4, 8, 16, 32, 64, 128, 256}) {
    const auto t0 = std::chrono::steady_clock::now();
    const CompiledCircuit cc = compile_attention_arith(h, n, {});
    const double secs = seconds_since(t0);
    const CircuitStats st = compute_stats(cc.circuit);
    std::printf("hybrid n=%zu size=%zu ops=%zu positive=%zu depth=%u fanin2=%u build=%.2fs\n", n,
                st.size, st.operations(), st.by_kind[static_cast<std::size_t>(GateKind::positive)],
                st.depth, st.bounded_fanin_depth, secs);
  }
  return failures;
}

int lrnn_boolean_table() {
  int failures = 0;
  const Model model = load_model("examples/dplr_d3.json");
  std::printf(
      "| scan | n | bits | gates | estimate | depth (fan-in 2) | depth bound | build s |\n");
  for (ScanKind scan : {ScanKind::brent_kung, ScanKind::sklansky, ScanKind::sequential}) {
    for (std::size_t n = 2; n <= 128; n *= 2) {
      BooleanLrnnOptions o;
      o.scan = scan;
      o.budget.max_gates = std::size_t{1} << 30;
      const auto t0 = std::chrono::steady_clock::now();
      const CompiledCircuit cc = compile_lrnn_boolean(model, n, o);
      const double secs = seconds_since(t0);
      const CircuitStats s = compute_stats(cc.circuit);
      const FixedFormat f = boolean_lrnn_format(n, o);
      const std::size_t estimate = estimate_lrnn_boolean_gates(model, n, o);
      const std::size_t bound = lrnn_boolean_depth_bound(model, n, o);
      std::printf("| %s | %zu | %u | %zu | %zu | %u | %zu | %.2f |\n", to_string(scan).c_str(), n,
                  1 + f.int_bits + f.frac_bits, s.size, estimate, s.bounded_fanin_depth, bound,
                  secs);
      std::fflush(stdout);
      if (s.size > estimate || s.bounded_fanin_depth > bound) ++failures;
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  try {
    int failures = 0;
    if (!std::strcmp(what, "threshold"))
      failures = threshold_tables();
    else if (!std::strcmp(what, "attention"))
      failures = attention_tables();
    else if (!std::strcmp(what, "lrnn-boolean"))
      failures = lrnn_boolean_table();
    else {
      std::fprintf(stderr, "usage: measure_circuits threshold|attention|lrnn-boolean\n");
      return 2;
    }
    if (failures) std::printf("%d rows above their estimate or bound\n", failures);
    return failures ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "measure_circuits: %s\n", e.what());
    return 2;
  }
}
