// Fuzz target: bbchallenge machine files (`rnncc tm`, examples/tm_*.txt) through
// parse_machine_file, the reader machine_from_argument calls on a file, strict and lenient;
// a machine that parses is simulated for a few steps and built into its hybrid model.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algebra/error.hpp"
#include "constructions/turing_machine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool lenient : {false, true}) {
    try {
      const rnncc::TuringMachine m = rnncc::parse_machine_file(text, "fuzz.txt", lenient);
      (void)rnncc::to_string(m);
      (void)rnncc::simulate(m, {}, 64);
      (void)rnncc::turing_machine_hybrid(m, {});
    } catch (const rnncc::InputError&) {
    } catch (const rnncc::DomainError&) {
    }
  }
  return 0;
}
