// Fuzz target: model files with a generation rule (docs/formats.md, "Generation") through
// parse_generative_model, the reader `rnncc run MODEL … --generate N` calls (the "generation"
// member of a model file). A diagnostic is the expected answer to bad input; anything else
// escaping is a finding. An accepted file goes where `run --generate` sends it, under small work
// caps (model_fuzz.hpp), with the incremental evaluator checked against its plain twins:
//   - written back (generative_model_to_json) and read again: the same text, else abort;
//   - generate (incremental: the 64-bit integer fast path or rationals, the attention index or
//     brute force, per input) against generate_plain (re-evaluates every prefix) from a one- or
//     two-token prompt, up to 6 new tokens: the same tokens and stop, else abort;
//   - IncrementalModel fed the whole sequence: its output at every position equal to the
//     reference evaluator's (rnn/evaluate.hpp), else abort. generate never feeds the token it
//     emits last, so the attention index may refuse that position alone (its precondition).
// Models that cannot generate (the last layer not |Σ|×1; LSTM, softmax) are answered with an
// InputError by generate, as by the CLI.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "algebra/error.hpp"
#include "rnn/generate.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "tests/fuzz/json_mutator.hpp"
#include "tests/fuzz/model_fuzz.hpp"

namespace {

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "generation: %s\n", what.c_str());
  std::abort();
}

}  // namespace

// Mutations that keep the input JSON (json_mutator.hpp).
RNNCC_FUZZ_JSON_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rnncc;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::stats().input();
  GenerativeModel gm;
  try {
    gm = parse_generative_model(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  } catch (const DomainError&) {
    return 0;
  }
  fuzz::stats().accept(data, size);
  const GenerationRule rule = gm.rule.value_or(GenerationRule{});
  const std::string first = generative_model_to_json(gm.model, rule).dump();
  try {
    const GenerativeModel again = parse_generative_model(first, "written.json");
    if (generative_model_to_json(again.model, again.rule.value_or(GenerationRule{})).dump() !=
        first)
      finding("round trip: written twice differently:\n" + first);
  } catch (const InputError& e) {
    finding(std::string("round trip: the written model does not read back: ") + e.what());
  }
  const Model& m = gm.model;
  if (m.alphabet.size() == 0 || fuzz::model_step_cost(m) > fuzz::kMaxStepCost / 64) return 0;
  const std::size_t choice = fuzz::choice(data, size);
  std::vector<std::size_t> prompt{choice % m.alphabet.size()};
  if ((choice >> 8) % 2) prompt.push_back((choice >> 16) % m.alphabet.size());
  IncrementalOptions o;
  o.integer_fast_path = (choice >> 24) % 2;
  o.attention_index = (choice >> 25) % 2;
  const RationalField k;
  Generation fast, plain;
  try {
    fast = generate(m, k, prompt, 6, rule, o);
  } catch (const InputError&) {  // cannot generate (shape, layer kind, index precondition)
    return 0;
  } catch (const DomainError&) {
    return 0;
  }
  try {
    plain = generate_plain(m, k, prompt, 6, rule);
  } catch (const InputError& e) {
    finding(std::string("generate succeeded, generate_plain refused: ") + e.what());
  }
  if (fast.tokens != plain.tokens || fast.stopped != plain.stopped)
    finding("generate and generate_plain differ");
  std::vector<std::size_t> seq = prompt;
  seq.insert(seq.end(), fast.tokens.begin(), fast.tokens.end());
  const auto reference = evaluate(m, k, seq).outputs();
  IncrementalModel inc(m, o);
  for (std::size_t t = 0; t < seq.size(); ++t) {
    try {
      inc.feed(seq[t]);
    } catch (const InputError& e) {
      // generate never feeds the token it emits last, so the attention index may refuse that
      // one position (a key not of the form (w, w²)); any earlier refusal was fed by generate
      // without complaint and is a finding.
      if (t + 1 == seq.size() && o.attention_index) return 0;
      finding("IncrementalModel refused position " + std::to_string(t + 1) +
              " that generate fed: " + e.what());
    }
    if (inc.output() != reference[t])
      finding("IncrementalModel differs from evaluate at position " + std::to_string(t + 1));
  }
  return 0;
}
