// Turing machines by a hybrid RNN with chain of thought [WDL24]: the parser and its diagnostics,
// the direct simulator on hand-derived machines and the busy-beaver champions, the hybrid model
// against the simulator on every step (incremental, reference and indexed evaluation), and the
// checker catching deliberately broken models at the first differing step.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "constructions/turing_machine.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/generate.hpp"
#include "tests/support.hpp"
#include "verify/verify_tm.hpp"

using namespace rnncc;

namespace {

const char* kBB2 = "1RB1LB_1LA1RZ";
const char* kBB3 = "1RB1RZ_1LB0RC_1LC1LA";
const char* kBB4 = "1RB1LB_1LA0LC_1RZ1LD_1RD0RA";
const char* kIncrement = "0LB1RA2RA_2LZ2LZ1LB";
const char* kPalindrome = "0RZ0RB0RC_0LD1RB2RB_0LE1RC2RC_0RZ0LF---_0RZ---0LF_0RA1LF2LF";

std::string parse_error(const std::string& text) {
  return test::input_error_of([&] { parse_machine(text); }).what;
}

std::vector<std::size_t> tape(const std::string& s) {
  std::vector<std::size_t> out;
  for (char c : s) out.push_back(static_cast<std::size_t>(c - '0'));
  return out;
}

bool is_palindrome(const std::vector<std::size_t>& w) {
  return std::equal(w.begin(), w.end(), w.rbegin());
}

}  // namespace

TEST_CASE("tm: parse the bbchallenge format", "[tm][parse]") {
  const TuringMachine m = parse_machine(kBB2);
  CHECK(m.states == 2);
  CHECK(m.symbols == 2);
  CHECK(m.at(0, 0).defined);
  CHECK(m.at(0, 0).write == 1);
  CHECK(m.at(0, 0).move == 1);
  CHECK(m.at(0, 0).next == std::optional<std::size_t>(1));
  CHECK(m.at(0, 1).move == -1);
  CHECK(m.at(1, 1).write == 1);
  CHECK(!m.at(1, 1).next);  // Z halts
  CHECK(to_string(m) == kBB2);
  const TuringMachine p = parse_machine(kPalindrome);
  CHECK(p.states == 6);
  CHECK(p.symbols == 3);
  CHECK(!p.at(3, 2).defined);
  CHECK(to_string(p) == kPalindrome);
  // Lenient: any letter outside the states halts and is written back as Z.
  CHECK(to_string(parse_machine("1RB1LB_1LA1RH", "m", true)) == kBB2);
}

TEST_CASE("tm: every parse diagnostic names the column and the reason", "[tm][parse]") {
  CHECK(parse_error("") == "machine: empty machine string (expected e.g. 1RB1LB_1LA1RZ)");
  CHECK(parse_error("1RB1LB_1LA1xZ") ==
        "machine: column 12: unexpected character 'x' (expected a move L or R or '-')");
  CHECK(parse_error("1RB1LB_1LA1R") ==
        "machine: column 8: state B has 5 characters; each transition is 3 characters (write, "
        "move, next state)");
  CHECK(parse_error("1RB1LB_1LA") ==
        "machine: column 8: state B has 1 transition, but state A has 2 (one per read symbol)");
  CHECK(parse_error("1RB1LB_1LA1RQ") ==
        "machine: column 13: unknown state 'Q' (states A..B; 'Z' halts)");
  CHECK(parse_error("1RB2LB_1LA1RZ") ==
        "machine: column 4: writes symbol 2, but the machine reads symbols 0..1");
  CHECK(parse_error("1R-1LB_1LA1RZ") ==
        "machine: column 3: '-' may only appear as the undefined transition '---'");
  CHECK(parse_error("1RB1LB__1LA1RZ") == "machine: column 8: state B has no transitions");
  CHECK(parse_error("xRB") ==
        "machine: column 1: unexpected character 'x' (expected a symbol 0-9 to write or '-')");
  CHECK(parse_error("1XB") ==
        "machine: column 2: unexpected character 'X' (expected a move L or R or '-')");
  std::string many;
  for (int i = 0; i < 26; ++i) many += (i ? "_" : "") + std::string("1RA");
  CHECK(parse_error(many) == "machine: 26 states; at most 25 (A..Y; the letter Z means halt)");
  std::string wide;
  for (int i = 0; i < 11; ++i) wide += "0RA";
  CHECK(parse_error(wide) == "machine: column 1: 11 symbols; at most 10 (0..9)");
  const TuringMachine m = parse_machine(kBB2);
  CHECK_THROWS_WITH(parse_tape_input(m, "0120"),
                    "--input: column 3: '2' is not a tape symbol (0..1)");
  CHECK_THROWS_WITH(machine_from_argument("examples/no_such_machine.txt"),
                    "examples/no_such_machine.txt: cannot open machine file");
}

TEST_CASE("tm: machine files skip comments", "[tm][parse]") {
  CHECK(to_string(machine_from_argument(test::example("tm_bb4.txt"))) == kBB4);
  CHECK(to_string(machine_from_argument(test::example("tm_palindrome.txt"))) == kPalindrome);
}

TEST_CASE("tm: busy-beaver champions halt with their known step and ones counts", "[tm][sim]") {
  struct Case {
    const char* machine;
    std::uint64_t steps, ones;
  };
  for (const Case& c : {Case{kBB2, 6, 4}, Case{kBB3, 21, 5}, Case{kBB4, 107, 13}}) {
    INFO(c.machine);
    const TuringMachine m = parse_machine(c.machine);
    const TmRun r = simulate(m, {}, 1000);
    CHECK(r.halted);
    CHECK(r.reason == HaltReason::halt_state);
    CHECK(r.steps == c.steps);
    CHECK(r.ones == c.ones);
    CHECK(r.transitions.size() == c.steps);
    std::uint64_t counted = 0;
    for (std::size_t a : r.tape) counted += a != 0;
    CHECK(counted == c.ones);
  }
  // BB(2) by hand: A0 → 1RB, B0 → 1LA, A1 → 1LB, B0 → 1LA, A0 → 1RB, B1 → 1RZ.
  const TuringMachine bb2 = parse_machine(kBB2);
  const TmRun r = simulate(bb2, {}, 100);
  std::vector<std::string> names;
  for (const TmStep& s : r.transitions)
    names.push_back(state_name(s.state) + std::to_string(s.read) + ":" +
                    transition_name(bb2, *s.transition));
  CHECK(names ==
        std::vector<std::string>{"A0:1RB", "B0:1LA", "A1:1LB", "B0:1LA", "A0:1RB", "B1:1RZ"});
  CHECK(tape_text(r) == "1111");
  CHECK(r.leftmost == -2);
  CHECK(r.head == 0);
  // The cap: BB(4) stopped after 50 steps is not halted.
  const TuringMachine bb4 = parse_machine(kBB4);
  const TmRun capped = simulate(bb4, {}, 50);
  CHECK(!capped.halted);
  CHECK(capped.reason == HaltReason::step_cap);
  CHECK(capped.steps == 50);
}

TEST_CASE("tm: the binary incrementer, by hand", "[tm][sim]") {
  const TuringMachine m = parse_machine(kIncrement);
  struct Case {
    const char* in;
    const char* out;
    std::int64_t leftmost;
    std::uint64_t steps;
  };
  // n bits ending in k one-bits: n + k + 2 steps.
  for (const Case& c : {Case{"122", "211", 0, 7}, Case{"222", "2111", -1, 8}, Case{"1", "2", 0, 3},
                        Case{"2", "21", -1, 4}, Case{"121", "122", 0, 5}, Case{"", "2", -1, 2}}) {
    INFO(c.in);
    const TmRun r = simulate(m, tape(c.in), 100);
    CHECK(r.halted);
    CHECK(r.reason == HaltReason::halt_state);
    CHECK(tape_text(r) == c.out);
    CHECK(r.leftmost == c.leftmost);
    CHECK(r.steps == c.steps);
  }
}

TEST_CASE("tm: the palindrome checker, by hand and exhaustively", "[tm][sim]") {
  const TuringMachine m = parse_machine(kPalindrome);
  const TmRun yes = simulate(m, tape("121"), 1000);
  CHECK(yes.reason == HaltReason::halt_state);
  CHECK(yes.steps == 10);
  CHECK(yes.ones == 0);
  const TmRun no = simulate(m, tape("12"), 1000);
  CHECK(no.reason == HaltReason::undefined);
  CHECK(no.steps == 3);
  CHECK(state_name(no.state) == "D");
  CHECK(tape_text(no) == "2");
  CHECK(simulate(m, {}, 10).steps == 1);
  CHECK(simulate(m, tape("1"), 10).steps == 3);
  CHECK(simulate(m, tape("22"), 20).steps == 6);
  // Accept (halt state) exactly on palindromes, every string over {1,2} up to length 8.
  for (std::size_t n = 0; n <= 8; ++n)
    for (std::size_t bits = 0; bits < (std::size_t{1} << n); ++bits) {
      std::vector<std::size_t> w;
      for (std::size_t i = 0; i < n; ++i) w.push_back(1 + ((bits >> i) & 1));
      const TmRun r = simulate(m, w, 10'000);
      REQUIRE(r.halted);
      CHECK((r.reason == HaltReason::halt_state) == is_palindrome(w));
    }
}

TEST_CASE("tm: hybrid model sizes", "[tm][hybrid]") {
  const TmHybrid h = turing_machine_hybrid(parse_machine(kBB4), {});
  REQUIRE(h.model.layers.size() == 4);
  CHECK(layer_kind(h.model.layers[0].layer) == "lrnn/general");
  CHECK(layer_kind(h.model.layers[1].layer) == "attention/unique_hard");
  CHECK(layer_kind(h.model.layers[2].layer) == "elman/relu");
  CHECK(layer_kind(h.model.layers[3].layer) == "elman/relu");
  CHECK(std::get<LrnnLayer>(h.model.layers[0].layer).d == 5 + 4 + 2);
  CHECK(std::get<AttentionLayer>(h.model.layers[1].layer).tie == TieRule::rightmost);
  for (const Claim& c : h.claims) {
    INFO(c.name << ": " << c.claimed << " vs " << c.measured);
    CHECK(c.ok);
  }
  // Tokens: ^, x0, x1, then BB(4)'s 8 transitions, all distinct.
  CHECK(h.model.alphabet.size() == 3 + 8);
  CHECK(h.model.alphabet.symbol(3) == "1RB");
  CHECK(h.rule.stop == std::vector<std::size_t>{*h.model.alphabet.find("1RZ")});
}

TEST_CASE("tm: the hybrid model's tokens are the simulator's transitions, step by step",
          "[tm][hybrid]") {
  // Every step: generation (incremental, exact) against the simulator, then the whole sequence
  // once more through the reference evaluator, and the generated tokens decoded into the tape.
  struct Case {
    const char* machine;
    const char* input;
  };
  for (const Case& c : {Case{kBB2, ""}, Case{kBB3, ""}, Case{kBB4, ""}, Case{kIncrement, "122"},
                        Case{kIncrement, "222"}, Case{kIncrement, ""}, Case{kPalindrome, "121"},
                        Case{kPalindrome, "1221"}, Case{kPalindrome, "12"},
                        Case{kPalindrome, "2112"}, Case{kPalindrome, ""}}) {
    INFO(c.machine << " on '" << c.input << "'");
    const TuringMachine m = parse_machine(c.machine);
    const std::vector<std::size_t> in = tape(c.input);
    TmVerifyOptions o;
    o.max_steps = 1000;
    o.reference_max_steps = 1000;
    const TmVerifyReport r = verify_tm(m, in, o);
    INFO(format_text(r));
    CHECK(r.report.holds);
    const TmRun sim = simulate(m, in, 1000);
    CHECK(r.halted);
    CHECK(r.steps == sim.steps);
    CHECK(r.ones == sim.ones);
    CHECK(r.reason == sim.reason);
    CHECK(r.report.checked.at("tokens (reference)") > 0);
    CHECK(r.on_integers);
    // Precision: integers, within 4·(T + n + 1)².
    CHECK(denominator(r.largest) == 1);
    CHECK(numerator(r.largest) <= tm_value_bound(r.steps, in.size()));
  }
}

TEST_CASE("tm: generated tokens equal the simulator's transitions (explicit)", "[tm][hybrid]") {
  const TuringMachine m = parse_machine(kBB3);
  const TmHybrid h = turing_machine_hybrid(m, {});
  const Generation g = generate(h.model, RationalField{}, h.prompt, 100, h.rule);
  const TmRun sim = simulate(m, {}, 100);
  REQUIRE(g.stopped);
  REQUIRE(g.tokens.size() == sim.steps);
  for (std::size_t t = 0; t < g.tokens.size(); ++t)
    CHECK(h.model.alphabet.symbol(g.tokens[t]) ==
          transition_name(m, *sim.transitions[t].transition));
  // The plain twin (prefix re-evaluation) generates the same tokens.
  const Generation p = generate_plain(h.model, RationalField{}, h.prompt, 100, h.rule);
  CHECK(p.tokens == g.tokens);
  CHECK(p.stopped);
  // "---": the palindrome checker rejecting "12" ends on the undefined token.
  const TuringMachine pal = parse_machine(kPalindrome);
  const TmHybrid hp = turing_machine_hybrid(pal, tape("12"));
  const Generation gp = generate(hp.model, RationalField{}, hp.prompt, 100, hp.rule);
  std::vector<std::string> names;
  for (std::size_t u : gp.tokens) names.push_back(hp.model.alphabet.symbol(u));
  CHECK(names == std::vector<std::string>{"0RB", "2RB", "0LD", "---"});
}

TEST_CASE("tm: rational, integer and indexed evaluation agree on every step", "[tm][hybrid]") {
  const TuringMachine m = parse_machine(kBB4);
  const TmHybrid h = turing_machine_hybrid(m, {});
  IncrementalOptions rat, integ, idx;
  rat.integer_fast_path = false;
  idx.attention_index = true;
  IncrementalModel a(h.model, rat), b(h.model, integ), c(h.model, idx);
  CHECK(!a.on_integers());
  CHECK(b.on_integers());
  CHECK(c.on_integers());
  CHECK(c.indexed());
  CHECK(!b.indexed());
  for (std::size_t u : h.prompt) {
    a.feed(u);
    b.feed(u);
    c.feed(u);
  }
  std::size_t steps = 0;
  for (;;) {
    REQUIRE(a.output() == b.output());
    REQUIRE(a.output() == c.output());
    REQUIRE(a.attended() == b.attended());
    REQUIRE(a.attended() == c.attended());  // the index picks the same position
    const std::size_t u = a.next_token();
    ++steps;
    if (h.rule.stops_on(u)) break;
    a.feed(u);
    b.feed(u);
    c.feed(u);
  }
  CHECK(steps == 107);
  CHECK(a.largest() == b.largest());
  CHECK(a.largest() == c.largest());
}

TEST_CASE("tm: the indexed checker agrees with the brute-force checker", "[tm][hybrid]") {
  for (const char* machine : {kBB3, kBB4, kPalindrome}) {
    INFO(machine);
    const TuringMachine m = parse_machine(machine);
    const std::vector<std::size_t> in =
        std::string(machine) == kPalindrome ? tape("1221") : tape("");
    TmVerifyOptions o, oi;
    oi.attention_index = true;
    const TmVerifyReport r = verify_tm(m, in, o), ri = verify_tm(m, in, oi);
    CHECK(r.report.holds);
    CHECK(ri.report.holds);
    CHECK(ri.indexed);
    CHECK(ri.steps == r.steps);
    CHECK(ri.largest == r.largest);
  }
}

TEST_CASE("tm: a step cap without halting is reported, not failed", "[tm][verify]") {
  TmVerifyOptions o;
  o.max_steps = 40;
  const TmVerifyReport r = verify_tm(parse_machine(kBB4), {}, o);
  CHECK(r.report.holds);
  CHECK(!r.halted);
  CHECK(r.steps == 40);
  CHECK(r.report.checked.at("tokens (model vs simulator)") == 40);
  CHECK(to_json(r)["halted"] == false);
  CHECK(format_text(r).find("step cap 40 reached without halting") != std::string::npos);
  // A machine that never halts: 1RA_… runs right forever.
  const TmVerifyReport forever = verify_tm(parse_machine("1RA1RA"), {}, o);
  CHECK(forever.report.holds);
  CHECK(!forever.halted);
  CHECK(forever.ones == 40);
}

TEST_CASE("tm: broken models are caught at the first differing step", "[tm][verify]") {
  SECTION("off-by-one write position") {
    TmVerifyOptions o;
    o.hybrid.defect = TmHybridOptions::Defect::off_by_one_position;
    const TmVerifyReport r = verify_tm(parse_machine(kBB2), {}, o);
    INFO(format_text(r));
    CHECK(!r.report.holds);
    REQUIRE(r.report.counterexample);
    // BB(2): A0 → 1RB at cell 0 (recorded at cell 1 by the broken model), then B at cell 1
    // reads the phantom 1 and emits B1's 1RZ instead of B0's 1LA: step 2.
    CHECK(r.first_differing_step == std::optional<std::uint64_t>(2));
    CHECK(r.report.counterexample->expected == "step 2: 1LA (state B reads 0 at cell 1)");
    CHECK(r.report.counterexample->got == "step 2: 1RZ");
    CHECK(to_json(r)["verdict"] == "refuted");
    CHECK(to_json(r)["first_differing_step"] == 2);
  }
  SECTION("leftmost attention ties read stale symbols") {
    TmVerifyOptions o;
    o.hybrid.defect = TmHybridOptions::Defect::leftmost_ties;
    const TmVerifyReport r = verify_tm(parse_machine(kBB2), {}, o);
    INFO(format_text(r));
    REQUIRE(r.report.counterexample);
    // Step 3: A at cell 0 reads the 1 written at step 1, but the oldest token keyed to cell 0
    // is "^" (nothing written): the model reads blank and emits A0's 1RB, not A1's 1LB.
    CHECK(r.first_differing_step == std::optional<std::uint64_t>(3));
    CHECK(r.report.counterexample->got == "step 3: 1RB");
  }
}

TEST_CASE("tm: the precision claim grows as O(log T)", "[tm][verify]") {
  // Measured largest |value| for BB(2), BB(3), BB(4): within 4·(T + 1)², and growing.
  std::vector<Rational> largest;
  for (const char* machine : {kBB2, kBB3, kBB4}) {
    const TmVerifyReport r = verify_tm(parse_machine(machine), {}, {});
    REQUIRE(r.report.holds);
    largest.push_back(r.largest);
  }
  CHECK(largest[0] < largest[2]);
  for (const Claim& c : verify_tm(parse_machine(kBB4), {}, {}).report.claims) {
    INFO(c.name);
    CHECK(c.ok);
  }
}

TEST_CASE("tm: BB(5) — indexed and brute-force attention agree on its first 3000 steps",
          "[tm][hybrid]") {
  // The full run (47 176 870 steps, 4098 ones) takes ~30 s with the index: docs, not a test.
  const TuringMachine m = parse_machine("1RB1LC_1RC1RB_1RD0LE_1LA1LD_1RZ0LA");
  const TmHybrid h = turing_machine_hybrid(m, {});
  IncrementalOptions idx;
  idx.attention_index = true;
  IncrementalModel brute(h.model), fast(h.model, idx);
  for (std::size_t u : h.prompt) {
    brute.feed(u);
    fast.feed(u);
  }
  TmSimulator sim(m, {});
  for (int t = 0; t < 3000; ++t) {
    REQUIRE(brute.attended() == fast.attended());
    REQUIRE(brute.output() == fast.output());
    const std::size_t u = fast.next_token();
    REQUIRE(u == h.step_token[sim.state() * m.symbols + sim.read(sim.head())]);
    REQUIRE(sim.step());
    brute.feed(u);
    fast.feed(u);
  }
  CHECK(brute.largest() == fast.largest());
  TmVerifyOptions o;
  o.attention_index = true;
  o.max_steps = 200'000;
  const TmVerifyReport r = verify_tm(m, {}, o);
  CHECK(r.report.holds);
  CHECK(r.steps == 200'000);
  CHECK(!r.halted);
  CHECK(r.ones == simulate(m, {}, 200'000, false).ones);
}

// The work estimate verify tm checks before its first step, against the work verify_tm counts
// (the incremental evaluator's, and the reference evaluator's × kExactOperationWork), for BB(5)
// over a range of steps and inputs (on a blank tape it runs past every cap; on 600 ones it halts
// early, which the estimate foresees), brute force and indexed: an upper bound, within 2x.
TEST_CASE("tm: the work estimate bounds the counted work within 2x", "[tm][verify][work]") {
  const TuringMachine m = parse_machine("1RB1LC_1RC1RB_1RD0LE_1LA1LD_1RZ0LA");  // BB(5)
  for (const bool index : {false, true})
    for (const std::size_t input : {0u, 30u, 600u})
      for (const std::uint64_t steps : {1u, 50u, 200u, 201u, 1500u}) {
        TmVerifyOptions o;
        o.max_steps = steps;
        o.attention_index = index;
        const std::vector<std::size_t> tape(input, 1);
        const TmVerifyReport r = verify_tm(m, tape, o);
        REQUIRE(r.report.holds);
        const TmWorkEstimate e = estimate_verify_tm_work(m, tape, o);
        INFO("index " << index << ", input " << input << ", steps " << steps << ": counted "
                      << r.work << ", estimate " << e.total());
        CHECK(e.positions == input + 1 + r.steps);  // on 600 ones BB(5) halts after 77 steps
        CHECK(r.work <= e.total());
        CHECK(e.total() <= 2 * r.work);
      }
}
