// Fuzz target: circuit files (docs/formats.md, "Circuit files") through circuit_from_json, the
// reader `rnncc stats/convert/eval/draw` call for a .json circuit (load_circuit), then through
// what the commands feed the circuit to (circuit_fuzz.hpp). A diagnostic (InputError,
// DomainError) is the expected answer to bad input; anything else escaping is a finding.
#include "circuits/io/circuit_json.hpp"
#include "tests/fuzz/circuit_fuzz.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "tests/fuzz/json_mutator.hpp"

// Mutations that keep the input JSON (json_mutator.hpp).
RNNCC_FUZZ_JSON_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rnncc::fuzz::stats().input();
  rnncc::fuzz::diagnosed([&] {
    const rnncc::CompiledCircuit c =
        rnncc::circuit_from_json(rnncc::fuzz::text_of(data, size), "fuzz.json");
    rnncc::fuzz::stats().accept(data, size);
    rnncc::fuzz::exercise(c);
  });
  return 0;
}
