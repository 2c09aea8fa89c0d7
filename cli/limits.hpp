// Resource limits of the commands (issue 14; the table in docs/architecture.md, "Exit codes,
// limits"): a command that can be asked for huge work estimates it from its flags and the sizes
// of its inputs before doing any of it, and refuses — at once, without allocating — when the
// estimate passes the limit, naming the estimate and the option that raises the limit, in the
// words of the gate budget (circuits/compile/common.hpp, Budget::check):
//   --max-work: eval would take about E word operations (P patterns × G gates), more than the
//   limit of M (raise --max-work to run it anyway)
// Estimates are upper bounds computed in saturating arithmetic (an estimate past 2^64 − 1 stays
// there rather than wrapping to something small).
#pragma once

#include <cstdint>
#include <string>

#include "algebra/saturating.hpp"
#include "constructions/construction.hpp"
#include "verify/verify.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace rnncc::cli {

// The default of every --max-work: about 2^34 elementary steps, a minute or so of one core.
inline constexpr std::uint64_t kDefaultMaxWork = std::uint64_t{1} << 34;
// The default for exact field operations (equiv, minimize): rationals grow, so fewer.
inline constexpr std::uint64_t kDefaultMaxFieldWork = std::uint64_t{1} << 30;

using rnncc::saturating_add;  // algebra/saturating.hpp
using rnncc::saturating_mul;
using rnncc::saturating_pow;

// "about E", or "more than 2^64" once saturated.
std::string estimate_text(std::uint64_t estimate);

// InputError(option, "<what> about E <unit> (<detail>), more than the limit of M (raise <option>
// to run it anyway)") when estimate > limit; `what` ends in its verb ("eval would take").
void check_work(const std::string& option, std::uint64_t estimate, std::uint64_t limit,
                const std::string& what, const std::string& unit, const std::string& detail);

// The forward basis (verify/equivalence.hpp, verify/minimize.hpp) over dimension D and |Σ|
// symbols: at most D·|Σ| + 1 candidates, each a D×D product and a reduction against ≤ D basis
// vectors, so about D³·|Σ| field operations. `command` names the command in the message.
// modular: the multimodular path decides (verify/equivalence.hpp, uses_multimodular): its
// D³·|Σ| operations are word operations modulo a prime < 2^24 in a vectorized kernel, counted
// against kModularOpsPerFieldOp × max_work (an exact fallback is bounded by the decider itself,
// EquivalenceParams::max_exact_work).
void check_forward_basis_work(std::uint64_t dimension, std::uint64_t symbols,
                              std::uint64_t max_work, const std::string& command,
                              bool modular = false);
// The forward basis's memory: the two representations' |Σ| matrices of dimension D = d_f + d_g
// as exact rationals (homogenized and combined) and the basis itself (≤ D vectors of D
// entries), (|Σ| + 1)·D² entries at kRationalEntryBytes (algebra/memory.hpp); refused above
// max_memory_mib (check_memory, naming --max-memory).
void check_forward_basis_memory(std::uint64_t dimension, std::uint64_t symbols,
                                std::size_t max_memory_mib, const std::string& command);
// How many word operations modulo p one exact field operation of the limit stands for: a
// rational operation on the small numbers of a forward basis costs 100–500 ns here, one entry of
// modmat_muladd well under 1 ns (bench_equivalence, docs/constructions.md).
inline constexpr std::uint64_t kModularOpsPerFieldOp = 256;
inline constexpr std::uint64_t kMultimodularRuns = 4;

// verify's limit, after the construction is built and before any check, in symbol steps (one
// model step on one symbol): --random R strings of length ≤ L (R·L),
// --exhaustive L every string of length 1..L (Σ n·|Σ|^n; a fixed-length target: its length
// only; beyond the engine's cap of strings, and on the GPU, the engine refuses), --identity K
// rounds at n = 1..L (K·|Σ|·L(L+1)/2: the circuit at length n has n·|Σ| inputs).
// `option` names the limit in the message ("--max-work"; the Python package: "max_work").
// Then the every-length proof's (verify_proof_work), checked against the same limit.
void check_verify_work(const Construction& c, const VerifyOptions& o, std::uint64_t max_work,
                       const std::string& option = "--max-work");

// verify's every-length proof (verify/verify.hpp, prove) of one LRNN layer against a WFA target:
// a forward basis over D = (f's states) + (d·m + 1) dimensions, D³·|Σ| operations — modulo
// primes on the multimodular path (verify/equivalence.hpp, uses_multimodular; 1 each, and up to
// kMultimodularRuns bases: the first prime's and the reconstruction's), exact ones counted as
// kModularOpsPerFieldOp; 0 when no such proof runs. Tested against the decider's candidate
// words × D² (tests/cli/test_limits.cpp: counted ≤ estimate ≤ 8 × counted). check_verify_proof_work
// refuses it above max_work, naming --no-proof.
std::uint64_t verify_proof_work(const Construction& c, const VerifyOptions& o);
void check_verify_proof_work(const Construction& c, const VerifyOptions& o, std::uint64_t max_work,
                             const std::string& option = "--max-work");
// The same from the shape a builder reports before it builds (constructions/registry.hpp,
// PlannedShape: an automaton target and one LRNN layer; no modulus): how `verify wfa` refuses
// a 1 448-state chain's proof from its arcs, before the 4.2 million dense entries exist.
std::uint64_t verify_proof_work(const PlannedShape& s, const VerifyOptions& o);
// check_verify_work from the planned shape: the same refusals, in the same order, before the
// construction is built.
void check_verify_work(const PlannedShape& s, const VerifyOptions& o, std::uint64_t max_work,
                       const std::string& option = "--max-work");
void check_verify_proof_work(const PlannedShape& s, const VerifyOptions& o, std::uint64_t max_work,
                             const std::string& option = "--max-work");

// --max-memory MIB on `cmd` (default algebra/memory.hpp default_max_memory_mib(), half the
// machine's memory), bound to `mib`; `what` says what is estimated ("the trace: positions ×
// state entries"). The refusal is algebra/memory.hpp check_memory's.
CLI::Option* add_max_memory_option(CLI::App* cmd, std::size_t& mib, const std::string& what);

// --max-input MIB on the app and every subcommand: the input size limit of every file reader
// (rnn/json_cursor.hpp, max_input_mib; default 256, or RNNCC_MAX_INPUT_MIB; 0: none).
void add_max_input_option(CLI::App& app);

}  // namespace rnncc::cli
