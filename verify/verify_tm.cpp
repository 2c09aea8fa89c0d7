#include "verify/verify_tm.hpp"

#include <deque>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/memory.hpp"
#include "algebra/saturating.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/generate.hpp"
#include "rnn/run_report.hpp"

namespace rnncc {

namespace {

// The tape as the generated tokens describe it: the input from cell 0, then each token's
// write at the head and move (the decoding a reader of the chain of thought does).
class DecodedTape {
 public:
  explicit DecodedTape(const std::vector<std::size_t>& input)
      : cells_(input.begin(), input.end()) {}
  void apply(const TokenMeaning& t) {
    if (head_ < origin_) {  // grow left by doubling
      const std::size_t grow = std::max<std::size_t>(cells_.size(), 64);
      cells_.insert(cells_.begin(), grow, 0);
      origin_ -= static_cast<std::int64_t>(grow);
    }
    const auto i = static_cast<std::size_t>(head_ - origin_);
    if (i >= cells_.size()) cells_.resize(2 * i + 64, 0);
    cells_[i] = static_cast<std::uint8_t>(t.write);
    head_ += t.move;
  }
  std::int64_t head() const { return head_; }
  // Trimmed contents (leftmost non-blank … rightmost non-blank) and the first cell's index.
  std::pair<std::int64_t, std::vector<std::size_t>> trimmed() const {
    std::size_t lo = 0, hi = cells_.size();
    while (lo < hi && cells_[lo] == 0) ++lo;
    while (hi > lo && cells_[hi - 1] == 0) --hi;
    std::vector<std::size_t> out(cells_.begin() + static_cast<std::ptrdiff_t>(lo),
                                 cells_.begin() + static_cast<std::ptrdiff_t>(hi));
    return {lo == hi ? 0 : origin_ + static_cast<std::int64_t>(lo), out};
  }

 private:
  std::vector<std::uint8_t> cells_;
  std::int64_t origin_ = 0, head_ = 0;
};

// One compared step, formatted only when a failure shows the last few.
struct TraceLine {
  std::uint64_t step;
  std::size_t state, read;
  std::int64_t cell;
  const TmTransition* expected;
  std::size_t got;
  std::vector<std::optional<std::size_t>> attended;
};

std::string tape_string(const std::vector<std::size_t>& tape) {
  if (tape.empty()) return "0";
  std::string s;
  for (std::size_t a : tape) s += static_cast<char>('0' + a);
  return s;
}

}  // namespace

TmVerifyReport verify_tm(const TuringMachine& m, const std::vector<std::size_t>& input,
                         const TmVerifyOptions& options) {
  const TmHybrid h = turing_machine_hybrid(m, input, options.hybrid);
  const Alphabet& sigma = h.model.alphabet;
  TmVerifyReport out;
  VerifyReport& r = out.report;
  r.construction = h.name;
  r.claims = h.claims;

  IncrementalOptions io;
  io.attention_index = options.attention_index;
  io.integer_fast_path = options.integer_fast_path;
  IncrementalModel model(h.model, io);
  for (std::size_t u : h.prompt) model.feed(u);
  TmSimulator sim(m, input);
  DecodedTape decoded(input);
  std::vector<std::size_t> generated;  // kept for the reference re-evaluation only
  const bool keep = options.reference_max_steps > 0;
  std::vector<TokenMeaning> meaning(sigma.size());  // per token id, decoded once
  for (std::size_t k = 0; k < sigma.size(); ++k)
    if (auto t = token_meaning(m, sigma.symbol(k))) meaning[k] = *t;
  std::deque<TraceLine> recent;  // the last steps, for a failure's trace
  auto show = [&](const TraceLine& l) {
    std::string at;
    for (const auto& a : l.attended)
      if (a) at = fmt::format("; the attention picks position {}", *a);
    return fmt::format(
        "step {}: state {} reads {} at cell {}: machine {}, model {} (position {}{})", l.step,
        state_name(l.state), l.read, l.cell, transition_name(m, *l.expected), sigma.symbol(l.got),
        h.prompt.size() + l.step - 1, at);
  };

  std::uint64_t t = 0, agreed = 0;  // steps; tokens that agreed (a final "---" is a token)
  ProgressTask task(options.progress ? *options.progress : no_progress(),
                    "running the hybrid against the machine", options.max_steps, "steps");
  for (;;) {
    if (sim.halted()) break;
    if (t == options.max_steps) break;
    ++t;
    task.set(t);
    const std::size_t state = sim.state(), read = sim.read(sim.head());
    const TmTransition& expected = sim.pending();
    const std::size_t want = h.step_token[state * m.symbols + read];
    const std::size_t got = model.next_token();
    recent.push_back({t, state, read, sim.head(), &expected, got, model.attended()});
    if (recent.size() > 8) recent.pop_front();
    const bool halts = !expected.defined || !expected.next;
    if (got != want || h.rule.stops_on(got) != halts) {
      Counterexample ce;
      ce.input = input;
      ce.input_text = input.empty() ? "(blank tape)" : tape_string(input);
      ce.expected = fmt::format("step {}: {} (state {} reads {} at cell {})", t,
                                transition_name(m, expected), state_name(state), read, sim.head());
      ce.got = fmt::format("step {}: {}", t, sigma.symbol(got));
      ce.disagreeing = "model";
      ce.found_by = "generation";
      for (const TraceLine& l : recent) ce.trace += show(l) + "\n";
      r.counterexample = std::move(ce);
      out.first_differing_step = t;
      --t;
      break;
    }
    ++agreed;
    if (keep && generated.size() <= options.reference_max_steps) generated.push_back(got);
    if (!expected.defined) {  // "---": the machine halts without a step; so does generation
      sim.step();
      --t;  // not a step of the machine
      break;
    }
    decoded.apply(meaning[got]);
    sim.step();
    if (halts) break;
    model.feed(got);
  }
  out.steps = sim.steps();
  out.halted = sim.halted();
  out.reason = sim.halt_reason().value_or(HaltReason::step_cap);
  out.ones = sim.ones();
  out.head = sim.head();
  out.largest = model.largest();
  out.on_integers = model.on_integers();
  out.indexed = model.indexed();
  r.checked["tokens (model vs simulator)"] = static_cast<std::size_t>(agreed);

  if (!r.counterexample) {
    // The tape decoded from the generated tokens against the simulator's.
    TmRun run;
    const auto& tape = sim.tape();
    std::size_t lo = 0, hi = tape.size();
    while (lo < hi && tape[lo] == 0) ++lo;
    while (hi > lo && tape[hi - 1] == 0) --hi;
    for (std::size_t i = lo; i < hi; ++i) run.tape.push_back(tape[i]);
    run.leftmost = lo == hi ? 0 : sim.leftmost() + static_cast<std::int64_t>(lo);
    auto [dlo, dtape] = decoded.trimmed();
    r.checked["tape cells (decoded)"] = run.tape.size();
    if (dtape != run.tape || dlo != run.leftmost || decoded.head() != sim.head()) {
      Counterexample ce;
      ce.input = input;
      ce.input_text = input.empty() ? "(blank tape)" : tape_string(input);
      ce.expected = fmt::format("tape {} from cell {}, head {}", tape_string(run.tape),
                                run.leftmost, sim.head());
      ce.got =
          fmt::format("tape {} from cell {}, head {}", tape_string(dtape), dlo, decoded.head());
      ce.disagreeing = "model";
      ce.found_by = "final tape";
      r.counterexample = std::move(ce);
    }
    out.tape = run.tape.size() <= 200 ? tape_string(run.tape) : "";
  }

  // The reference evaluator on the whole sequence: argmax y_t = u_{t+1} at every position.
  const bool reference =
      t <= options.reference_max_steps && h.prompt.size() + t <= options.reference_max_positions;
  if (!r.counterexample && keep && !generated.empty() && reference) {
    std::vector<std::size_t> seq = h.prompt;
    seq.insert(seq.end(), generated.begin(), generated.end());
    const Trace<RationalField> trace = evaluate(h.model, RationalField{}, seq);
    out.work = saturating_mul(trace.work(), kExactOperationWork);
    std::size_t checked = 0;
    for (std::size_t i = 0; i < generated.size(); ++i) {
      const std::size_t pos = h.prompt.size() - 1 + i;  // y at this position picks generated[i]
      const std::size_t pick = next_token(RationalField{}, trace.outputs()[pos], sigma.size());
      ++checked;
      if (pick != generated[i]) {
        Counterexample ce;
        ce.input = input;
        ce.input_text = input.empty() ? "(blank tape)" : tape_string(input);
        ce.expected =
            fmt::format("step {}: {} (incremental evaluator)", i + 1, sigma.symbol(generated[i]));
        ce.got = fmt::format("step {}: {} (reference evaluator)", i + 1, sigma.symbol(pick));
        ce.disagreeing = "model";
        ce.found_by = "reference evaluator";
        r.counterexample = std::move(ce);
        break;
      }
    }
    r.checked["tokens (reference)"] = checked;
  } else if (!r.counterexample && keep && !generated.empty() && t <= options.reference_max_steps) {
    r.notes.push_back(fmt::format(
        "not re-evaluated by the reference evaluator: {} positions, more than its {} (its "
        "exact attention costs positions²)",
        h.prompt.size() + t, options.reference_max_positions));
  }
  out.work = saturating_add(out.work, model.work());

  // Precision: the largest |value| against 4·(T + n + 1)².
  const Integer bound = tm_value_bound(out.steps, input.size());
  const Integer measured = numerator(abs(out.largest)) / denominator(abs(out.largest));
  Claim c = claim_at_most("largest |value| ≤ 4·(T + n + 1)²", bound, measured);
  r.claims.push_back(c);
  const std::size_t bits = bit_length(measured) + 1;  // with the sign
  const std::size_t bound_bits = bit_length(bound) + 1;
  r.claims.push_back({"value bits ≤ 2·log₂(T + n + 1) + 4", "≤ " + std::to_string(bound_bits),
                      std::to_string(bits), bits <= bound_bits});
  if (denominator(out.largest) != 1)
    r.notes.push_back("a non-integer value occurred (the construction claims integers)");
  if (!out.halted && !r.counterexample)
    r.notes.push_back(
        fmt::format("step cap {} reached without halting: the simulation holds for the steps run",
                    options.max_steps));
  if (out.indexed)
    r.notes.push_back("attention evaluated through the parabola index (rnn/generate.hpp)");
  r.holds = !r.counterexample &&
            std::all_of(r.claims.begin(), r.claims.end(), [](const Claim& cl) { return cl.ok; });
  return out;
}

std::uint64_t TmWorkEstimate::total() const {
  return saturating_add(generation, reference);
}

TmWorkEstimate estimate_verify_tm_work(const TuringMachine& m,
                                       const std::vector<std::size_t>& input,
                                       const TmVerifyOptions& options) {
  const TmHybrid h = turing_machine_hybrid(m, input, options.hybrid);
  // The direct simulator is cheap (no attention): it says how many steps the run takes when the
  // machine halts within a million steps, and so whether the reference evaluator runs.
  TmSimulator sim(m, input);
  const std::uint64_t cap = std::min<std::uint64_t>(options.max_steps, std::uint64_t{1} << 20);
  while (sim.steps() < cap && sim.step()) {
  }
  const bool known = sim.halted() || cap == options.max_steps;  // the run's length is known
  const std::uint64_t steps = known ? sim.steps() : options.max_steps;
  TmWorkEstimate e;
  e.prompt = h.prompt.size();
  e.positions = saturating_add(e.prompt, steps);
  IncrementalOptions io;
  io.attention_index = options.attention_index;
  e.generation = estimate_incremental_work(h.model, e.positions, io);
  if (known && options.reference_max_steps > 0 && steps <= options.reference_max_steps &&
      e.prompt + steps <= options.reference_max_positions)  // the prompt, the tokens, "---"
    e.reference =
        saturating_mul(estimate_evaluation_work(h.model, e.positions + 1), kExactOperationWork);
  std::uint64_t per_position = 8, entries = 0;  // the token; the reference's trace entries
  for (const StackLayer& sl : h.model.layers) {
    entries += output_rows(sl.layer) * output_cols(sl.layer);
    if (const auto* a = std::get_if<AttentionLayer>(&sl.layer))
      per_position += (a->key_size() + a->value_size()) * kRationalEntryBytes;
    else if (const auto* l = std::get_if<LrnnLayer>(&sl.layer))
      entries += l->d * l->m;
    else if (const auto* el = std::get_if<ElmanLayer>(&sl.layer))
      entries += el->d;
  }
  e.memory_bytes = saturating_mul(e.positions, per_position);
  if (e.reference > 0)
    e.memory_bytes = saturating_add(e.memory_bytes,
                                    saturating_mul(e.positions + 1, entries * kRationalEntryBytes));
  return e;
}

nlohmann::ordered_json to_json(const TmVerifyReport& r) {
  nlohmann::ordered_json j = to_json(r.report);
  j["steps"] = r.steps;
  j["halted"] = r.halted;
  j["halt_reason"] = to_string(r.reason);
  j["ones"] = r.ones;
  j["head"] = r.head;
  j["tape"] = r.tape.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.tape);
  j["first_differing_step"] = r.first_differing_step
                                  ? nlohmann::ordered_json(*r.first_differing_step)
                                  : nlohmann::ordered_json(nullptr);
  j["largest_value"] = to_string(r.largest);
  return j;
}

std::string format_text(const TmVerifyReport& r) {
  std::string out = format_text(r.report);
  if (r.first_differing_step)
    return out + fmt::format("  agreed on {} step{}; step {} differs\n", r.steps,
                             r.steps == 1 ? "" : "s", *r.first_differing_step);
  out += fmt::format("  steps {}, {}, ones {}, head at cell {}", r.steps,
                     r.halted ? "halted (" + to_string(r.reason) + ")" : "not halted (step cap)",
                     r.ones, r.head);
  out += r.tape.empty() ? "\n" : fmt::format(", tape {}\n", r.tape);
  return out;
}

}  // namespace rnncc
