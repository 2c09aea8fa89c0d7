// Proofs per length by SAT (docs/constructions.md, "Proofs per length by SAT"; issue 24 item
// 7b): "X computes f on every input of length ≤ N" for constructions with attention and hybrids,
// where exhaustive evaluation cannot go.
//
//   1. X's exact semantics at positions 1..N as a boolean circuit (verify/model_circuit.hpp) on
//      symbolic inputs — each position's symbol as ⌈log₂|Σ|⌉ input bits, decoded one-hot — read
//      through encode (Construction::input_forms, one model token per symbol; or the model reads
//      the specification's string, SpecCircuit::reads_encoded), and f's boolean specification
//      (verify/sat_specs.hpp) on the same inputs;
//   2. the miter: some t ≤ N where the prefix w_1..t is valid and in the promise, and X's output
//      at t differs from f(w_1..t) or an overflow / inexact-division flag was raised at a
//      position ≤ t; Tseitin-encoded to CNF (verify/cnf.hpp);
//   3. CaDiCaL decides it, writing a DRAT proof; UNSAT is reported as proved only after the
//      project's own checker (verify/drat_check.hpp) accepts the proof against the CNF as DIMACS
//      text. SAT yields a string whose prefix is re-checked exactly — f (Target::value) against
//      the reference evaluator over Q — and reported refuted only if they differ; a satisfying
//      assignment that only raised a flag doubles the word width (up to 128 bits) and retries.
//
// What is proved: for every string w of f's alphabet with |w| ≤ N in the promise, every value
// the circuit computes fits its word (so equals the exact rational value times D) and X's output
// at |w| equals f(w) exactly — the model's exact semantics, not a rounded one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "constructions/construction.hpp"
#include "constructions/turing_machine.hpp"
#include "verify/drat_check.hpp"

namespace rnncc::sat {

struct SatOptions {
  std::size_t max_length = 8;  // N
  std::size_t width = 24;      // the first word-width cap (bits); doubled on a spurious flag
  bool check_proof = true;     // false: trust the solver (never reported as proved)
};

struct SatOutcome {
  enum class Verdict { proved, refuted, inconclusive, unavailable };
  Verdict verdict = Verdict::unavailable;
  std::string reason;     // inconclusive / unavailable: why
  std::string statement;  // what the specification says f is
  std::size_t max_length = 0;
  std::vector<std::size_t> counterexample;  // refuted: f's string (a prefix where X ≠ f)
  std::string expected, got;                // refuted: f(w) and X's output, exact
  std::size_t gates = 0, variables = 0, clauses = 0, width = 0;
  std::size_t proof_bytes = 0;
  DratCheck check;
  std::string solver;  // "CaDiCaL 1.5.3"
  double encode_seconds = 0, solve_seconds = 0, check_seconds = 0;
};

std::string to_string(SatOutcome::Verdict v);  // "proved", "refuted", "inconclusive", …

// False (and why) when rnncc was built without CaDiCaL.
bool sat_available(std::string* why = nullptr);

// Never throws for a construction it cannot encode: the outcome says unavailable and why.
SatOutcome prove_by_sat(const Construction& c, const SatOptions& options);

// The Turing-machine hybrid (constructions/turing_machine.hpp) for every input tape of
// `tape_length` symbols and its first `steps` steps: greedy generation from "^ x_0 … x_{n−1}"
// (the model's exact outputs, argmax with ties to the lowest index, each generated token fed
// back) emits at every step j ≤ steps at which M has not halted before j the token of the
// transition M takes — so it stops exactly when M halts, if M halts within `steps` steps — with
// every value exact (no flag). The miter compares the model circuit's argmax with TmSpec
// (verify/sat_specs.hpp); a satisfying tape is confirmed by verify_tm (verify/verify_tm.hpp)
// before it is reported refuted (counterexample = the tape, expected/got = the tokens).
SatOutcome prove_tm_by_sat(const TuringMachine& m, std::size_t tape_length, std::size_t steps,
                           const TmHybridOptions& hybrid, const SatOptions& options);

// The outcome as JSON (verdict, statement, solver, sizes, the DRAT check, seconds when timed)
// and the TM verdict line: "NAME: HOLDS — proved: every tape of n symbols, the first T steps
// (…)", "NAME: FAILS — refuted: …".
nlohmann::ordered_json to_json(const SatOutcome& r, bool timing);
std::string tm_sat_text(const std::string& name, const SatOutcome& r, std::size_t steps,
                        bool timing);

}  // namespace rnncc::sat
