// What the model fuzz targets (model_json, generation) do with a model a reader accepted
// (issue 25, item 7): run it and compile it, under small work caps, so that a runaway is a
// finding (libFuzzer's -timeout, -rss_limit_mb) and so are disagreements between a fast path and
// its plain twin:
//   - exercise_evaluation: the reference evaluator over Q on a short string (1..3 symbols, the
//     choice's), the plain path against the prepared one (rnn/evaluate.hpp): outputs must agree;
//   - exercise_compilation: compile_model for n = 1..3 on a target (arith, boolean, threshold)
//     and scan picked by the choice, with --max-gates 2^14, --max-states 64 and --max-memory
//     256 MiB (the CLI's refusals are answers), then what `rnncc stats/eval` does with the
//     circuit (circuit_fuzz.hpp); the circuit may not have more operations (gates other than
//     inputs and constants) than estimate_model_gates said (documented as an upper bound).
// A model whose one step costs more than kMaxStepCost multiply-adds is only compiled (the
// budget bounds that), not run: a 64 KB input can declare a d = 4096 diagonal layer, and runs
// of such models are bounded by the CLI's own limits, not by this target.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <variant>
#include <vector>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model.hpp"
#include "tests/fuzz/circuit_fuzz.hpp"

namespace rnncc::fuzz {

inline constexpr std::size_t kMaxStepCost = std::size_t{1} << 20;

// Multiply-adds of one position of every layer, roughly (an upper bound for dense layers).
inline std::size_t model_step_cost(const Model& m) {
  std::size_t cost = 0;
  for (const StackLayer& sl : m.layers) {
    const std::size_t k = input_features(sl.layer) + 1;
    if (const auto* l = std::get_if<LrnnLayer>(&sl.layer))
      cost += k * l->d * l->d * l->m;
    else if (const auto* e = std::get_if<ElmanLayer>(&sl.layer))
      cost += e->d * (e->d + k);
    else if (const auto* s = std::get_if<LstmLayer>(&sl.layer))
      cost += 4 * s->d * (s->d + k);
    else
      cost += k * k * (output_rows(sl.layer) + 1);
    if (cost > kMaxStepCost) return cost;
  }
  return cost;
}

// A string of 1..3 symbols of m's alphabet, from `choice`.
inline std::vector<std::size_t> short_string(const Model& m, std::size_t choice) {
  std::vector<std::size_t> w(1 + choice % 3);
  for (std::size_t& x : w) {
    choice /= 3;
    x = choice % m.alphabet.size();
  }
  return w;
}

inline void exercise_evaluation(const Model& m, std::size_t choice) {
  if (m.alphabet.size() == 0 || model_step_cost(m) > kMaxStepCost) return;
  const std::vector<std::size_t> w = short_string(m, choice);
  const RationalField k;
  try {
    const auto plain = evaluate(m, k, w).outputs();
    const auto fast = evaluate(PreparedModel<RationalField>(m, k), w).outputs();
    if (plain != fast) {
      std::fprintf(stderr, "evaluate: the prepared path differs from the plain one\n");
      std::abort();
    }
  } catch (const DomainError&) {
  } catch (const InputError&) {
  }
}

inline void exercise_compilation(const Model& m, std::size_t choice) {
  static const char* const targets[] = {"arith", "boolean", "threshold"};
  static const char* const scans[] = {"brent-kung", "sklansky", "sequential", "kogge-stone",
                                      "ladner-fischer:2"};
  TargetText t;
  t.target = targets[choice % 3];
  t.scan = scans[(choice / 3) % 5];
  t.precision = (choice / 15) % 2 ? "log:2" : "exact";
  t.max_gates = std::size_t{1} << 14;
  t.max_states = 64;
  t.max_memory_mib = 256;
  const std::size_t n = 1 + (choice / 30) % 3;
  diagnosed([&] {
    const TargetOptions o = parse_target_options(t);
    const std::optional<std::size_t> estimate = estimate_model_gates(m, n, o);
    const CompiledCircuit cc = compile_model(m, n, o);
    std::size_t operations = 0;  // what the estimates count: gates but inputs and constants
    for (GateId g = 0; g < cc.circuit.size(); ++g)
      operations +=
          cc.circuit.kind(g) != GateKind::input && cc.circuit.kind(g) != GateKind::constant;
    if (estimate && operations > *estimate) {
      std::fprintf(stderr,
                   "compile_model(--target %s --scan %s --precision %s, n = %zu): %zu "
                   "operations, estimated at most %zu\n",
                   t.target.c_str(), t.scan.c_str(), t.precision.c_str(), n, operations, *estimate);
      std::abort();
    }
    exercise(cc);
  });
}

}  // namespace rnncc::fuzz
