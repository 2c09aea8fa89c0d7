// The Turing-machine checker: runs the hybrid model of constructions/turing_machine.hpp by
// generation and the direct simulator side by side and compares, at every step t,
//   * the generated token with the transition the machine takes (write, move, next state),
//   * that generation stops exactly when the machine halts (the rule's stop tokens),
// and at the end the tape and head decoded from the generated tokens with the simulator's.
// It also measures the claims: the model's sizes and the largest |value| it took against the
// bound 4·(T + n + 1)² (O(log T) bits), and, for runs of at most `reference_max_steps` steps
// and `reference_max_positions` positions (prompt and steps), re-evaluates the whole generated
// sequence once with the reference evaluator (rnn/evaluate.hpp) and checks argmax y_t = u_{t+1}
// at every generated position.
//
// Work (estimate_verify_tm_work, before the first step; TmVerifyReport::work, counted): the
// incremental evaluator over P = prompt + T positions (rnn/generate.hpp: the attention layer
// scores every earlier position, about 2·P² operations; with the index about P·log P), plus the
// reference evaluator's operations on rationals, each counted as kExactOperationWork
// (rnn/run_report.hpp: about 1 µs against the incremental evaluator's 4 ns).
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
#include "rnn/run_report.hpp"
#include "verify/verify.hpp"

namespace rnncc {

struct TmVerifyOptions {
  std::uint64_t max_steps = 10'000;
  std::uint64_t reference_max_steps = 200;      // re-run with rnn/evaluate.hpp up to this many
  std::uint64_t reference_max_positions = 500;  // ... when the sequence is at most this long
  bool attention_index = false;                 // the parabola index (rnn/generate.hpp)
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
  std::uint64_t work = 0;  // counted: the incremental evaluator's, the reference's × weight
};

struct TmWorkEstimate {
  std::uint64_t prompt = 0, positions = 0;  // prompt tokens; prompt + the steps run
  std::uint64_t generation = 0;             // estimate_incremental_work over the positions
  std::uint64_t reference = 0;              // the reference evaluator's, weighted; 0: not run
  // Peak memory: every position's attention keys and values (h + r numbers, exact rationals at
  // worst: kRationalEntryBytes each) and token, and the reference evaluator's trace when it runs.
  std::uint64_t memory_bytes = 0;
  std::uint64_t total() const;
};
// An upper bound on TmVerifyReport::work before any step (saturating): the steps run are
// --max-steps, or fewer when the direct simulator sees the machine halt within 2^20 steps
// (and then whether the reference evaluator runs is known too). Tested against the counted
// work (tests/constructions/test_turing_machine.cpp).
TmWorkEstimate estimate_verify_tm_work(const TuringMachine& m,
                                       const std::vector<std::size_t>& input,
                                       const TmVerifyOptions& options);

TmVerifyReport verify_tm(const TuringMachine& m, const std::vector<std::size_t>& input,
                         const TmVerifyOptions& options);

nlohmann::ordered_json to_json(const TmVerifyReport& r);
std::string format_text(const TmVerifyReport& r);

}  // namespace rnncc
