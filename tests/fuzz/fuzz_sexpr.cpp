// Fuzz target: formula files (docs/formats.md, "Formula files") through parse_formula, the
// reader `rnncc verify/construct` call for a .sexp formula (formula_from_argument), then the
// formula's circuit through what circuit commands feed it to (circuit_fuzz.hpp), and its
// canonical text back through the reader: it must give the same depth and text. A diagnostic
// (InputError, DomainError) is the expected answer to bad input; anything else is a finding.
#include <cstdlib>

#include "circuits/io/sexpr.hpp"
#include "tests/fuzz/circuit_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rnncc::fuzz::diagnosed([&] {
    const rnncc::Formula f = rnncc::parse_formula(rnncc::fuzz::text_of(data, size), "fuzz.sexp");
    const rnncc::Formula g = rnncc::parse_formula(f.text, "canonical.sexp");
    if (g.text != f.text || g.depth != f.depth || g.circuit.size() != f.circuit.size())
      std::abort();  // the canonical text does not read back as the same formula
    rnncc::fuzz::exercise(f.circuit);
  });
  return 0;
}
