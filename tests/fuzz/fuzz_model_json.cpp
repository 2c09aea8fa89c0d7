// Fuzz target: model files (docs/formats.md, "Model files") through parse_model, the reader
// `rnncc run/compile/verify --model` call. A diagnostic (InputError, DomainError) is the
// expected answer to bad input; anything else escaping is a finding.
//
// Round trip: a model that parses is written back (model_to_json), read again, and written
// again; the two writings must be equal and the second reading must succeed. A mismatch aborts
// (a finding: the writer and the reader disagree).
//
// Then the model is run and compiled under small work caps (model_fuzz.hpp): the plain and the
// prepared evaluator on a short string must agree, and compile_model for a short length, a
// target and a scan picked per input must stay within --max-gates 2^14 and its own estimate —
// a runaway is a finding (timeout, memory), like a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "algebra/error.hpp"
#include "rnn/model_json.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "tests/fuzz/json_mutator.hpp"
#include "tests/fuzz/model_fuzz.hpp"

// Mutations that keep the input JSON (json_mutator.hpp).
RNNCC_FUZZ_JSON_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rnncc::fuzz::stats().input();
  rnncc::Model model;
  try {
    model = rnncc::parse_model(text, "fuzz.json");
  } catch (const rnncc::InputError&) {
    return 0;
  } catch (const rnncc::DomainError&) {
    return 0;
  }
  rnncc::fuzz::stats().accept(data, size);
  const std::string first = rnncc::model_to_json(model).dump();
  std::string second;
  try {
    second = rnncc::model_to_json(rnncc::parse_model(first, "written.json")).dump();
  } catch (const rnncc::InputError& e) {
    std::fprintf(stderr, "round trip: the written model does not read back: %s\n%s\n", e.what(),
                 first.c_str());
    std::abort();
  }
  if (first != second) {
    std::fprintf(stderr, "round trip: written twice differently:\n%s\n%s\n", first.c_str(),
                 second.c_str());
    std::abort();
  }
  const std::size_t choice = rnncc::fuzz::choice(data, size);
  rnncc::fuzz::exercise_evaluation(model, choice);
  rnncc::fuzz::exercise_compilation(model, choice);
  return 0;
}
