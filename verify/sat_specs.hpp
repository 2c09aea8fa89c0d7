// Specifications as boolean circuits, for proofs per length by SAT (verify/sat_proof.hpp): f of a
// construction (Target::boolean_spec names which), written from f's definition in the
// construction's header — not from its model — one position at a time: given position t's
// symbol (one selector per symbol of f's alphabet) it returns f(w_1..t) and the promise at that
// prefix. tests/verify/test_sat_proof.cpp checks each against Target::value on random strings.
//
//   selective-copy {K, N}   f = id(w_{t+1−n}), n the latest number token; promise 1 ≤ n ≤ t
//   assoc-recall {keys, values, span}  f = the value at the latest value position s bound to the
//                           latest query's key; promise: such s exists with s > t − span
//   state-recall {order}    f = the bit of register π⁻¹(1); every string is an instance. Stated
//                           on the model's input u = encode(w) (reads_encoded): f(encode(w)) =
//                           f(w) (f reads the bits-and-markers and the swap subsequences apart),
//                           and the promise is that u is in encode's image (bits-first: no bit or
//                           marker after a swap; perm-first: no swap after a bit or marker)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "constructions/construction.hpp"
#include "constructions/turing_machine.hpp"
#include "verify/bitvec.hpp"

namespace rnncc::sat {

struct SpecStep {
  Word value;           // f(w_1..t), an integer
  Lit promise = kTrue;  // the prefix is in f's promise (and, reads_encoded, in encode's image)
};

class SpecCircuit {
 public:
  virtual ~SpecCircuit() = default;
  virtual SpecStep step(const std::vector<Lit>& one_hot) = 0;
  // True: stated on the model's input (see above), which the model then reads as given.
  virtual bool reads_encoded() const { return false; }
  // What a proof establishes, in words ("f(w) = id(w_{|w|+1−n}) …").
  virtual std::string statement() const = 0;
};

// Throws SatUnsupported (verify/model_circuit.hpp) for an empty or unknown kind.
std::unique_ptr<SpecCircuit> make_spec(const Target::BooleanSpec& spec, WordBuilder& words);

// A Turing machine's direct semantics (constructions/turing_machine.hpp, TmSimulator) on a
// symbolic input of n tape symbols, step by step: the token of the transition step j takes
// (TmHybrid::step_token of (state, read symbol)) and whether the machine is still running before
// step j. Cells −T … n − 1 + T are kept (the head moves at most T − 1 cells in T steps).
class TmSpec {
 public:
  // tape[i]: one selector per tape symbol for cell i (exactly one true).
  TmSpec(Aig& aig, const TuringMachine& m, const std::vector<std::size_t>& step_token,
         std::size_t tokens, const std::vector<std::vector<Lit>>& tape, std::size_t steps);
  struct Step {
    std::vector<Lit> token;  // one-hot over the model's tokens
    Lit running = kTrue;     // not halted before this step
  };
  Step step();

 private:
  Aig& g_;
  const TuringMachine& m_;
  std::vector<std::size_t> step_token_;
  std::size_t tokens_;
  std::vector<std::vector<Lit>> tape_;  // per cell, one-hot over symbols
  std::vector<Lit> head_, state_;
  Lit halted_ = kFalse;
};

// The kinds make_spec knows ("selective-copy, assoc-recall, state-recall").
std::string spec_kinds();

}  // namespace rnncc::sat
