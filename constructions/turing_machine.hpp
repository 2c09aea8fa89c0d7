// Turing machines, their direct simulator, and their simulation by a hybrid RNN with chain of
// thought [WDL24: Wen, Dang, Lyu, "RNNs are not Transformers (Yet)", arXiv 2402.18510, §5;
// reference constructions.md §7].
//
// Machines are written in the bbchallenge text format: states A, B, … separated by '_', per
// state one 3-character transition per read symbol 0, 1, …: (write symbol, move L|R, next state);
// "---" is undefined (the machine halts when it reaches it, without taking a step); a next state
// that is not among the states ('Z' by convention) halts after the write and the move, and that
// transition counts as a step (BB(2) = 1RB1LB_1LA1RZ halts after 6 steps with 4 ones).
// The tape is two-way infinite with blank 0; an input string is written from cell 0 and the head
// starts on cell 0 in state A.
//
// Theorem (the construction, [WDL24] pattern): for every machine M and input x there is a
// 4-layer hybrid model H_M — a linear RNN, one unique-hard attention head (rightmost ties), two
// ReLU feed-forward layers — such that greedy generation from the prompt "^ x_0 … x_{n−1}"
// emits, as its t-th token, the t-th transition M takes on x, written "bDq" (symbol b written,
// move D, next state q; 'Z' = halt; "---" = undefined transition reached), and stops exactly when
// M halts. The model does not depend on x. Claimed size: LRNN state dimension 5 + |Q| + |Γ|,
// one attention layer with one head (key size 2, value size |Γ|), ReLU widths 1 + |Q| + |Γ| and
// |Q|·|Γ|; every value the model takes after T steps on an input of length n is an integer of
// absolute value ≤ 4·(T + n + 1)², i.e. ≤ 2·log₂(T + n + 1) + 4 bits with the sign = O(log T)
// (measured per run by verify/verify_tm.hpp).
// The layers and their equations are in turing_machine.cpp and docs/constructions.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "constructions/construction.hpp"
#include "rnn/generate.hpp"
#include "rnn/model.hpp"

namespace rnncc {

struct TmTransition {
  bool defined = false;             // false: "---"
  std::size_t write = 0;            // symbol written
  int move = 1;                     // −1 (L) or +1 (R)
  std::optional<std::size_t> next;  // next state; nullopt: halt
};

struct TuringMachine {
  std::size_t states = 0, symbols = 0;  // |Q| ≤ 25 (A..Y), 2 ≤ |Γ| ≤ 10 (0..9)
  std::vector<TmTransition> delta;      // delta[q·symbols + a]
  const TmTransition& at(std::size_t q, std::size_t a) const { return delta[q * symbols + a]; }
};

// Parses the bbchallenge format. Throws InputError naming `where` and the 1-based column:
// a bad character, a transition of the wrong length, a state with a different number of
// transitions than state A, an out-of-range write symbol, more than 25 states, an empty string,
// an unknown next state. Strict (default): only 'Z' halts, another letter outside the states is
// an unknown state; lenient: every letter outside the states halts (the bbchallenge reading).
TuringMachine parse_machine(std::string_view text, const std::string& where = "machine",
                            bool lenient = false);
// A machine given on the command line: the bbchallenge string itself, or a file holding it
// (first non-empty line not starting with '#'). Throws InputError.
TuringMachine machine_from_argument(const std::string& argument, bool lenient = false);
// The text of a machine file named `source`: the first non-empty line not starting with '#'.
TuringMachine parse_machine_file(std::string_view text, const std::string& source,
                                 bool lenient = false);
// Canonical text: halting next states written 'Z'.
std::string to_string(const TuringMachine& m);
std::string state_name(std::size_t q);                                       // "A", "B", …
std::string transition_name(const TuringMachine& m, const TmTransition& t);  // "1RB", "0LZ", "---"

// Parses an input string of tape symbols ("0110"); InputError for another character.
std::vector<std::size_t> parse_tape_input(const TuringMachine& m, std::string_view input,
                                          const std::string& where = "--input");

// ---- The direct simulator (the claimed semantics; the plain twin of the hybrid model) -------

enum class HaltReason { halt_state, undefined, step_cap };
std::string to_string(HaltReason r);  // "halt state", "undefined transition", "step cap"

// One step taken: the transition applied in `state` reading `read` at cell `cell`.
struct TmStep {
  std::size_t state = 0, read = 0;
  std::int64_t cell = 0;
  const TmTransition* transition = nullptr;
};

class TmSimulator {
 public:
  TmSimulator(const TuringMachine& m, const std::vector<std::size_t>& input);
  // Takes one step; returns false (and takes none) when the machine has halted.
  bool step();
  // The transition the machine takes next (halted machines: the one that halted it, or "---").
  const TmTransition& pending() const { return m_->at(state_, read(head_)); }
  bool halted() const { return halted_; }
  std::optional<HaltReason> halt_reason() const { return reason_; }
  std::uint64_t steps() const { return steps_; }
  std::size_t state() const { return state_; }  // meaningless once halted in the halt state
  std::int64_t head() const { return head_; }
  std::size_t read(std::int64_t cell) const;
  const TmStep& last() const { return last_; }
  std::uint64_t ones() const { return nonblank_; }   // non-blank cells
  std::int64_t leftmost() const { return origin_; }  // tape() covers cells leftmost()…
  const std::vector<std::uint8_t>& tape() const { return tape_; }

 private:
  const TuringMachine* m_;
  std::vector<std::uint8_t> tape_;
  std::int64_t origin_ = 0, head_ = 0;
  std::size_t state_ = 0;
  std::uint64_t steps_ = 0, nonblank_ = 0;
  bool halted_ = false;
  std::optional<HaltReason> reason_;
  TmStep last_;
};

struct TmRun {
  std::uint64_t steps = 0;
  bool halted = false;
  HaltReason reason = HaltReason::step_cap;
  std::size_t state = 0;  // state at the end (the halting state for "---")
  std::int64_t head = 0;
  std::uint64_t ones = 0;
  std::int64_t leftmost = 0;  // tape[i] is cell leftmost + i; trimmed of blanks
  std::vector<std::size_t> tape;
  std::vector<TmStep> transitions;  // when recorded
};

// Runs at most max_steps steps (then, if not halted, reason = step_cap).
TmRun simulate(const TuringMachine& m, const std::vector<std::size_t>& input,
               std::uint64_t max_steps, bool record_transitions = true);
// The recorded steps point into `m` (TmStep::transition): a temporary machine would leave them
// dangling (AddressSanitizer found such a use), so simulating one does not compile.
TmRun simulate(TuringMachine&& m, const std::vector<std::size_t>& input, std::uint64_t max_steps,
               bool record_transitions = true) = delete;
std::string tape_text(const TmRun& r);  // "1111" (trimmed), "0" for a blank tape

// ---- The hybrid model -----------------------------------------------------------------------

struct TmHybridOptions {
  // A deliberately broken model for the checker's negative tests:
  //   off_by_one_position  the write position w of a transition token is p_before + 1;
  //   leftmost_ties        the attention breaks ties to the OLDEST write (reads stale symbols).
  enum class Defect { none, off_by_one_position, leftmost_ties };
  Defect defect = Defect::none;
};

struct TmHybrid {
  std::string name;
  Model model;          // 4 layers: lrnn/general → attention → elman/relu → elman/relu
  GenerationRule rule;  // argmax of y_t over the alphabet; stops on halting tokens
  std::vector<std::size_t> prompt;  // "^" then one token "x<a>" per input symbol
  // Token ids: the BOS token, the input token of symbol a, the token of transition δ(q, a).
  std::size_t bos = 0;
  std::vector<std::size_t> input_token;  // per symbol a
  std::vector<std::size_t> step_token;   // per (q, a): q·|Γ| + a
  std::vector<Claim> claims;             // structural claims (sizes); precision is measured
};

TmHybrid turing_machine_hybrid(const TuringMachine& m, const std::vector<std::size_t>& input,
                               const TmHybridOptions& options = {});

// The token a transition is written as ("1RB", "0LZ", "---"), and back: which write, move and
// halt a token means (nullopt for "^" and the input tokens).
struct TokenMeaning {
  bool defined = false;
  std::size_t write = 0;
  int move = 1;
  bool halts = false;
  std::optional<std::size_t> next;
};
std::optional<TokenMeaning> token_meaning(const TuringMachine& m, const std::string& token);

// Precision claim: the largest |value| the model may take after `steps` steps on an input of
// length n is ≤ 4·(steps + n + 1)² (the score 2pw − w² = p² − (p − w)² dominates).
Integer tm_value_bound(std::uint64_t steps, std::size_t input_length);

}  // namespace rnncc
