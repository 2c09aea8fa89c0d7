// The Turing-machine checker: runs the hybrid model of constructions/turing_machine.hpp by
// generation and the direct simulator side by side and compares, at every step t,
//   * the generated token with the transition the machine takes (write, move, next state),
//   * that generation stops exactly when the machine halts (the rule's stop tokens),
// and at the end the tape and head decoded from the generated tokens with the simulator's.
// It also measures the claims: the model's sizes and the largest |value| it took against the
// bound 4·(T + n + 1)² (O(log T) bits), and, for runs of at most `reference_max_steps` steps,
// re-evaluates the whole generated sequence once with the reference evaluator
// (rnn/evaluate.hpp) and checks argmax y_t = u_{t+1} at every generated position.
//
// A step cap reached without halting is not a failure: the report holds for the steps run and
// says halted: false. The report is a VerifyReport (same exit codes and JSON keys as
// `rnncc verify`: 0 holds, 1 a differing step, shown with the step, the expected and generated
// token and a trace of the last steps) plus steps, halted, ones.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "constructions/turing_machine.hpp"
#include "verify/verify.hpp"

namespace rnncc {

struct TmVerifyOptions {
  std::uint64_t max_steps = 10'000;
  std::uint64_t reference_max_steps = 200;  // re-run with rnn/evaluate.hpp up to this many
  bool attention_index = false;             // the parabola index (rnn/generate.hpp)
  bool integer_fast_path = true;
  TmHybridOptions hybrid;        // defects for negative tests
  Progress* progress = nullptr;  // steps compared so far (of max_steps); null: none
};

struct TmVerifyReport {
  VerifyReport report;
  std::uint64_t steps = 0;  // steps compared (the machine's steps when it halted)
  bool halted = false;
  HaltReason reason = HaltReason::step_cap;
  std::uint64_t ones = 0;
  std::int64_t head = 0;
  std::string tape;  // trimmed, "" when longer than 200 cells
  std::optional<std::uint64_t> first_differing_step;
  Rational largest = 0;  // largest |value| the model took
  bool on_integers = false, indexed = false;
};

TmVerifyReport verify_tm(const TuringMachine& m, const std::vector<std::size_t>& input,
                         const TmVerifyOptions& options);

nlohmann::ordered_json to_json(const TmVerifyReport& r);
std::string format_text(const TmVerifyReport& r);

}  // namespace rnncc
