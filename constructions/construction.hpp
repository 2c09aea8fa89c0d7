// What every construction returns (docs/architecture.md, "Constructions and the registry": a
// construction takes an automaton / formula / machine and returns a model plus its claims): the
// model X, the claimed semantics f it should compute, how a string of f's alphabet becomes X's
// input, and the claims to check. verify/ checks "X computes f" by random, exhaustive and identity
// tests and measures claims.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algebra/rational.hpp"
#include "circuits/circuit.hpp"
#include "constructions/encoding_grammar.hpp"
#include "constructions/wfa.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// A claim of the construction's theorem, with the figure measured on what was built:
// ok = claimed relation holds (e.g. "program length ≤ 4^d": claimed "≤ 64", measured "52").
struct Claim {
  std::string name;
  std::string claimed;
  std::string measured;
  bool ok = false;
};

// f: the claimed semantics on strings over `alphabet`.
struct Target {
  Alphabet alphabet;
  // f(w), exact. Throws DomainError where f is undefined.
  std::function<Rational(const std::vector<std::size_t>& w)> value;
  // Only strings of this length are in f's domain (a formula's assignments), if set.
  std::optional<std::size_t> fixed_length;
  // A promise: f is claimed only on strings where this returns true (e.g. "the target vertex
  // is a sink"); verify skips the others and counts them. Empty = every string.
  std::function<bool(const std::vector<std::size_t>& w)> promise;
  // f on strings of length n as an arithmetic circuit in the one-hot inputs x[t,σ] (input index
  // (t−1)·|Σ| + σ, as compile_lrnn numbers them), one output; empty when not available.
  std::function<Circuit(std::size_t n)> circuit;
  // f as a weighted automaton, when f is rational: its output α·M_u·β at every nonempty prefix
  // u equals value(u) exactly (over F_modulus when the construction has a modulus). verify
  // decides "X computes f" for every length from it (verify/equivalence.hpp), comparing X's
  // output (out_row, out_col) after each symbol with it. Empty: f has no automaton here.
  std::optional<Wfa> automaton;
  // f as a boolean specification for proofs per length by SAT (verify/sat_specs.hpp): the name
  // of f's definition there and its parameters ("selective-copy", {K, N}); the circuit is
  // written from f's definition, independently of the model. Empty kind: none.
  struct BooleanSpec {
    std::string kind;
    std::map<std::string, std::size_t> parameters;
  };
  BooleanSpec boolean_spec;
};

// One model input of the identity test, as a linear form in f's inputs: constant + Σ vars.
struct InputSource {
  Rational constant;
  std::vector<std::uint32_t> variables;  // indices into f's circuit inputs
};

struct Construction {
  std::string name;  // "wfa-general", "wfa-dplr", "barrington", …
  Model model;       // X
  Target target;     // f
  // X's input string for f's string w (identity, Σ×[K] sub-steps, a BOS prefix, …).
  std::function<std::vector<std::size_t>(const std::vector<std::size_t>& w)> encode;
  // The period of encode as an input map: encode(w) = encode(ε) · τ(q₀, w₁) · τ(q₁, w₂) ⋯ with
  // q_i = i mod encode_period (verify/linear_representation.hpp, input_map_from_encode):
  // 1 for a fixed token sequence per symbol, 2 for matmul3 (the parity of the matrix index).
  std::size_t encode_period = 1;
  // The output of X compared with f(w): entry (row, col) of the last layer at the last position.
  std::size_t out_row = 0, out_col = 0;
  // If set, X runs in F_modulus and f(w) is compared modulo it (e.g. matmul3 mod 29).
  std::optional<std::uint64_t> modulus;
  // Identity testing: X's one-hot inputs for encode(w), |w| = n, as linear forms in f's
  // inputs. Set only when X reads one token per symbol of w (then both circuits are linear in
  // each position's block of indicators, and agreement on one-hot points is a polynomial
  // identity: docs/constructions.md, "Identity testing").
  std::function<std::vector<InputSource>(std::size_t n)> embedding;
  // Check circuits (verify/check_circuit.hpp): X's one-hot inputs for encode(w), |w| = n, as
  // linear forms in f's inputs x[t,σ] (index (t−1)·|Σ| + σ), model input (u−1)·|Σ_X| + τ for
  // token position u = 1..|encode(w)| and token τ. The forms must be EXACT on one-hot inputs:
  // for every w of length n, substituting x = onehot(w) gives onehot(encode(w)). Unlike
  // `embedding` nothing is claimed off the one-hot points, so this may be set whenever the token
  // at every position of encode(w) is a function of one symbol w_i (the form is then
  // Σ_σ [token(σ) = τ]·x[i,σ]) or constant (a BOS token: the form is the constant [τ = BOS]);
  // encode(w) must have the same length for every w of length n. Where `embedding` is set it
  // serves as input_forms too. Throws std::invalid_argument for an n outside f's domain
  // (a fixed_length target); empty when X's input is not of this kind.
  std::function<std::vector<InputSource>(std::size_t n)> input_forms;
  // The valid encodings as an automaton over X's tokens, with f on them, where encode is not a
  // sequential input map but a grammar is known (graph walk): verify then proves X on every
  // valid encoding by the promise-restricted product search (verify/promise_search.hpp).
  std::optional<EncodingGrammar> grammar;
  std::vector<Claim> claims;
  // Said in the verify report as notes (e.g. that the model was replaced from a file and the
  // claims, measured on the construction's own model, were dropped: with_model).
  std::vector<std::string> notes;
};

// What a construction will be, known before it is built: a target that is an automaton with
// `target_states` states over `alphabet` symbols (no promise, no grammar, every length, no
// modulus) and a model of one LRNN layer of state d × m. Builders whose input can be large for
// its size (the `wfa` kind: |Σ| dense d×d matrices from a file of a few kB) report it before the
// dense build (ConstructionArgs::before_build, constructions/registry.hpp), so that a command
// refuses on its own estimate at once (verify's every-length proof, cli/limits.hpp). A lower
// bound where the exact d is known only after building (the unit-key DeltaNet's 2d copies).
struct PlannedShape {
  std::size_t target_states = 0, alphabet = 0, layer_d = 0, layer_m = 1;
};

// The construction with its model X replaced by `model` (read from `source`, named in the
// diagnostics): f, encode, the compared output and the modulus stay the construction's, so
// `verify KIND --model FILE` checks a user's model, or an emitted and edited one, against the
// construction's specification. Requires (InputError naming `source`) the same alphabet — the
// same symbols; in another order they are renumbered through encode and the input forms — and a
// last layer with the compared output entry. The claims, measured on the construction's own
// model, are dropped, and a note says so.
Construction with_model(Construction c, Model model, const std::string& source);

// "≤"/"=" claims on integers, formatted consistently.
Claim claim_equal(std::string name, const Integer& claimed, const Integer& measured);
Claim claim_at_most(std::string name, const Integer& bound, const Integer& measured);

}  // namespace rnncc
