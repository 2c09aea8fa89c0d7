// The verify engine: checks the claim "model X computes f on strings over Σ" that a
// construction makes (constructions/construction.hpp), with evidence.
//
// Methods (docs/constructions.md, "Verifying"):
//   prove       first, by default: where f is a weighted automaton (Target::automaton) and X is
//               linear in its state (verify/linear_representation.hpp, from_model, through
//               encode's input map), decide X ≡ f on every string of every length exactly
//               (verify/equivalence.hpp): proved, or refuted with the shortest, llex-least
//               counterexample. A fixed-length target (a finite domain) is proved by the
//               exhaustive method over the whole domain when it fits under the cap. What is
//               proved keeps the testing methods below as cross-checks, with `random` cut to
//               random_after_proof strings;
//   random      seeded random strings, lengths drawn to include long ones;
//   exhaustive  every string of length 1..L (or every assignment of a fixed-length domain);
//   identity    polynomial identity testing over F_p for a prime p drawn at random from
//               [2^61, 2^62) by the seed: X's compiled circuit (dense, so affine per block)
//               against f's, at K random points of the variety Σ_σ x[t,σ] = 1 (every t). Where
//               both circuits are affine in each position's block of indicators (checked on the
//               circuits; declined with a note otherwise), agreeing there is the same as agreeing
//               on every one-hot input: a probabilistic proof for all strings of each length
//               tested, with error ≤ Σ_n [(deg_n/p)^K + ⌊b_n/61⌋/N] over the random points AND
//               the random prime (b_n bounds the bits of |X(w) − f(w)|'s numerator, N the primes
//               in the range);
//   three-way   on the strings checked, f vs X's reference evaluator vs X's compiled circuit;
//   gpu         (--device gpu) exhaustive and random strings on the GPU through one check circuit
//               (X's compiled circuit on encode(w) against f's), exact by multi-modular
//               arithmetic with a bound check (verify/device_check.hpp).
//   shrinking   a failure is shrunk to the shortest, then lexicographically least, failing string
//               (exactly, by enumeration in that order, when the search space is under a cap;
//               greedily otherwise, and the report says so) and shown with X's state trace;
//   claims      the construction's claims are part of the verdict: a claim measured false
//               refutes the construction.
// verify.cpp runs them as one member function each of a small class, in the order above
// (exhaustive before random, so an exhaustive failure is the one shrunk).
//
// The verdict (docs/semantics.md, "Verdicts") is one of three words: "proved" (the prove
// method decided X ≡ f, over Q or modulo p, and every claim is met), "refuted" (a counterexample,
// the shortest found, or a claim measured false) or "tested" (the testing methods found no
// counterexample up to the lengths they covered: VerifyReport::tested — a model may differ from
// f only on strings longer than any tested; docs/constructions.md, "Verifying").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/progress.hpp"
#include "algebra/ranks.hpp"
#include "constructions/construction.hpp"
#include "constructions/registry.hpp"
#include "constructions/spectral.hpp"

namespace rnncc {

struct VerifyOptions {
  std::size_t random = 200;               // random strings
  std::size_t max_random_length = 40;     // longest random string (target symbols)
  std::optional<std::size_t> exhaustive;  // every string up to this length
  std::size_t identity_rounds = 0;        // K; 0 = no identity test
  std::size_t identity_max_length = 8;    // identity test for n = 1..this
  // The seed of every random choice (strings, identity points, the identity prime). Unset: drawn
  // from std::random_device, so no fixed public seed can be gamed; the report states it, and
  // --seed S reproduces a run.
  std::optional<std::uint64_t> seed;
  // Three-way agreement: X compiled to a circuit per length, and every string checked
  // X = circuit = f (verify/three_way.cpp). Off (--no-three-way): X against f only, so the
  // exhaustive method takes prefix sharing or the model walk at every length where they apply.
  bool three_way = true;
  std::size_t three_way_max_tokens = 48;  // compile X only for encodings up to this length
  // ... and only while compiling it takes at most this many multiply-adds (about a second):
  // a general d-state layer costs (n/2)·⌈log₂ n⌉·d³ at length n.
  double three_way_max_work = 2e7;
  std::size_t exhaustive_cap = 2'000'000;  // refuse larger enumerations (InputError)
  // ... of strings checked one by one; the lengths prefix sharing or the model walk take on the
  // CPU (about one model step a string, every core) count against this cap instead.
  std::uint64_t shared_exhaustive_cap = std::uint64_t{1} << 36;
  std::size_t shrink_cap = 200'000;  // exact shrinking up to this many candidates
  // --device gpu: the exhaustive and random methods run on the GPU through the construction's
  // check circuit (verify/device_check.hpp) — exhaustive up to gpu_exhaustive_cap strings,
  // random `random` strings at every length 1..max_random_length — and every string the GPU
  // finds failing is re-checked by the CPU (model, circuit, f), shrunk and traced as usual.
  // Without a check circuit, exhaustive checks of a model the model walk takes (nonlinear and
  // hybrid, integer parameters: verify/model_walk_check.hpp) still run on the GPU, and random
  // strings on the CPU. Without a GPU, or with neither, a note says why and the CPU methods run.
  bool gpu = false;
  std::uint64_t gpu_exhaustive_cap = std::uint64_t{1} << 40;
  std::uint32_t gpu_threads = 1024;
  // prove (above): false = testing methods only.
  bool prove = true;
  // Once proved, the random cross-check runs min(random, this) strings; nullopt: `random` as is
  // (the CLI sets nullopt when --random is given).
  std::optional<std::size_t> random_after_proof = 20;
  // Produce the proof's certificate (Proof::certificate_json) where the certificate checker
  // can re-check it: X one LRNN layer with one output, reading f's symbols one token each.
  bool certificate = false;
  // --sat N: prove X computes f on every input of length ≤ N by SAT with a checked DRAT proof
  // (verify/sat_proof.hpp), where nothing proved it for every length; the first word width cap.
  std::optional<std::size_t> sat_length;
  std::size_t sat_width = 24;
  // --k-induction K: prove X computes f on every input by k-induction over the recurrent state
  // with Z3, k = 1..K (verify/k_induction.hpp; the graph-walk RNN), where nothing else proved it.
  std::optional<std::size_t> k_induction;
  bool timing = true;  // false: Proof::seconds unset (reproducible reports)
  // Sharded exhaustive checks (`mpirun -np R rnncc verify … --exhaustive L`, or --checkpoint):
  // the exhaustive method's strings in blocks of fixed size over the ranks, folded in (length,
  // lex) order and resumable from `checkpoint` (algebra/sharded_run.hpp), so its counts and its
  // first counterexample are the same for any R. Every other method runs on every rank alike
  // (the drawn seed is rank 0's); rank 0 reports. Null: one process, the unsharded method.
  Ranks* ranks = nullptr;
  std::optional<std::string> checkpoint;
  std::string job;  // the caller's words for the construction and its options (checkpoint)
  // Strings checked so far by each testing method (algebra/progress.hpp); null: none.
  Progress* progress = nullptr;
};

// What the `prove` method established (VerifyReport::proof; absent when it did not apply).
struct Proof {
  bool proved = false;  // true: X computes f on every string; false: refuted (counterexample)
  std::string scope;    // "every length", or "the finite domain (length n)"
  std::string
      method;  // "forward basis (Schützenberger–Tzeng)", "exhaustive over the finite domain"
  bool finite_domain = false;             // proved by enumerating a fixed-length domain
  std::string field;                      // "Q" or "F_p": the arithmetic of the proof
  std::optional<std::uint64_t> modulus;   // p when field is "F_p" (X and f are read mod p)
  std::optional<std::size_t> basis_size;  // basis words found, of at most dim_f + dim_x
  std::size_t dim_f = 0, dim_x = 0;       // f's automaton and X's representation
  std::size_t strings = 0;                // finite domain: strings checked (promise search:
                                          // transitions into a complete encoding compared)
  std::size_t pairs = 0;  // promise-restricted product search: the pairs explored (else 0)
  std::optional<double> seconds;
  std::optional<std::string> certificate;     // the file it was written to (set by the caller)
  std::string certificate_json;               // the certificate, when asked for and possible
  std::optional<std::string> no_certificate;  // why there is none, when asked for
  // SAT proofs (VerifyOptions::sat_length): the figures in words, shown in place of the string
  // count, and as JSON under proof.sat (gates, variables, clauses, proof lemmas, seconds).
  std::string detail;
  nlohmann::ordered_json sat;
  // k-induction proofs (VerifyOptions::k_induction): k, the invariant, what is assumed, the
  // solver, queries and seconds, as JSON under proof.k_induction.
  nlohmann::ordered_json induction;
};

struct Counterexample {
  std::vector<std::size_t> input;  // f's string
  std::string input_text;
  std::string expected, got;  // f(w) and what failed to equal it
  std::string disagreeing;    // "model" (reference evaluator) or "circuit" (compiled X)
  std::string found_by;       // method that first failed
  bool minimal = true;        // false when shrinking was greedy
  std::string trace;          // X's state trace on encode(w), text
  std::size_t position = 0;   // the position compared: |w| (the last symbol)
  // When the exact values differ but the accept verdicts (X's acceptance rule applied to f(w)
  // and to X's value) agree on `input`: the first string in (length, lex) order whose verdict
  // differs, or none up to verdict_searched_length. Unset when the verdicts differ on `input`
  // or no verdict applies (mod-p positivity, a circuit disagreement).
  struct VerdictDifference {
    bool agree_on_input = true;
    std::optional<std::string> first_differing;  // "w (expected accept, got reject)"
    std::size_t searched_up_to = 0;              // every string of length ≤ this was searched
  };
  std::optional<VerdictDifference> verdict;
};

// What the testing methods covered. `proved` (a decision procedure) may later sit beside it.
struct TestedScope {
  std::vector<std::string> methods;  // "exhaustive", "random", "identity", "three-way", …
  std::size_t max_length = 0;        // the longest string of f's alphabet any method checked
  // method → (shortest, longest) length it covered (identity: the lengths that passed).
  std::map<std::string, std::pair<std::size_t, std::size_t>> lengths;
  bool complete = false;  // every string of a fixed-length domain was checked
};

// Identity testing's random choices and its bound, when it ran.
struct IdentityScope {
  std::uint64_t prime = 0;
  std::size_t rounds = 0;
  std::vector<std::size_t> lengths_passed;
};

struct VerifyReport {
  std::string construction;
  // Not refuted: no counterexample and every claim met. NOT a proof — verdict() says whether it
  // is "proved" or only "tested"; JSON and Python carry the verdict, never this flag.
  bool holds = false;
  std::optional<std::uint64_t> seed;           // the seed used (given or drawn)
  bool seed_given = false;                     // the user chose it (VerifyOptions::seed)
  std::map<std::string, std::size_t> checked;  // method → strings (or points) checked
  std::optional<Counterexample> counterexample;
  std::vector<Claim> claims;
  // Set when no counterexample was found: what was tested (the verdict is "tested up to
  // length L", not a proof for every length).
  std::optional<TestedScope> tested;
  std::optional<IdentityScope> identity;
  std::optional<std::string> error_bound;  // identity testing: "≤ 1.2e-16 (…)"
  std::vector<std::string> notes;
  std::optional<Proof> proof;                         // the prove method's outcome
  std::map<std::string, std::string> tested_lengths;  // method → lengths it tested ("1..8")
  // Sharded exhaustive checks: "exhaustive: 120 blocks over 3 MPI ranks, 40 resumed from FILE"
  // (for the caller's log; not in the report's text or JSON, which are the same for any R).
  std::string sharding;
  // Delta-rule layers of the model: β, key norms and exact spectra, as checked properties
  // (constructions/spectral.hpp). Informational: the verdict counts only `claims`.
  std::vector<LayerSpectrum> spectral;
};

// Throws InputError when options ask for more than the caps allow.
VerifyReport verify(const Construction& c, const VerifyOptions& options);

nlohmann::ordered_json to_json(const VerifyReport& r);
std::string format_text(const VerifyReport& r);
// "proved", "refuted" or "tested" (above).
std::string verdict(const VerifyReport& r);
// "over Q", "modulo p = 31" for a proof; "" otherwise.
std::string proof_field_words(const Proof& p);
// The verdict line: the verdict word first, then what was established — "proved over Q — every
// length (…)", "refuted — …" or "tested up to length L, no counterexample (…)".
std::string verdict_text(const VerifyReport& r);

// ---- Errata as results (docs/errata.md) ----
//
// Where a construction as printed in its paper differs from the one that works, both exist and
// are named: an erratum says which kind, which options select the printed version and which the
// corrected one. `rnncc verify KIND --as-printed` runs both (verify_as_printed) and reports the
// printed version's shortest counterexample (or the claim that fails) next to what the
// corrected version established.
struct Erratum {
  std::vector<std::string> kinds;  // the kinds it concerns ("graph-walk", "dgc")
  std::string source;              // "[MJLLS26, Thm 5] (RWKV-7)"
  std::string paper;               // what the paper states
  std::string correction;          // what the corrected version does instead
  // The options selecting each version. The printed run: the user's options without any of
  // these names, plus `printed`. The corrected run: the user's options without the printed
  // selections (name and value), plus each of `corrected` the user did not give.
  std::vector<std::pair<std::string, std::string>> printed, corrected;
};

const std::vector<Erratum>& errata();
const Erratum* find_erratum(std::string_view kind);  // nullptr: none

struct AsPrintedReport {
  std::string kind;
  Erratum erratum;
  std::string printed_command, corrected_command;  // "verify matmul3 --no-bos"
  VerifyReport printed, corrected;
  // The printed version is refuted (a counterexample or a failing claim) and the corrected one
  // is not (proved or tested).
  bool reproduced = false;
};

// Builds both versions of `kind` (InputError "--as-printed" naming the kinds that have an
// erratum when `kind` has none), calls `before_check` on each construction (the CLI's work
// limit), and verifies each with `options`.
AsPrintedReport verify_as_printed(const std::string& kind, const ConstructionArgs& args,
                                  const Registry& registry, const VerifyOptions& options,
                                  const std::function<void(const Construction&)>& before_check);

// "refuted — shortest counterexample M0 M2 M0: expected 2, got 1", "refuted — claim '…':
// claimed …, measured …", or verdict_text.
std::string as_printed_summary(const VerifyReport& r);
nlohmann::ordered_json to_json(const AsPrintedReport& r);
std::string format_text(const AsPrintedReport& r);

}  // namespace rnncc
