// Fuzz target: BLIF (.blif) circuit files through parse_blif, the reader `rnncc stats/convert/eval`
// call for them (load_circuit, circuits/io/circuit_json.hpp, picks it by the extension), then
// through what the commands feed the circuit to (circuit_fuzz.hpp). A diagnostic (InputError,
// DomainError) is the expected answer to bad input; anything else escaping is a finding.
#include "circuits/io/blif.hpp"
#include "tests/fuzz/circuit_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rnncc::fuzz::diagnosed([&] {
    rnncc::fuzz::exercise(rnncc::parse_blif(rnncc::fuzz::text_of(data, size), "fuzz.blif"));
  });
  return 0;
}
