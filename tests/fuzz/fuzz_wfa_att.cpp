// Fuzz target: AT&T text WFAs (docs/formats.md, "WFA files") through parse_wfa_att, the reader
// behind load_wfa and load_subject_file (`rnncc verify wfa`, `construct wfa`, `equiv`,
// `minimize` on a non-.json file). A diagnostic is the expected answer to bad input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algebra/error.hpp"
#include "constructions/wfa.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const rnncc::Wfa a = rnncc::parse_wfa_att(text, "fuzz.att");
    (void)a.deterministic();
    (void)rnncc::evaluate(a, {0, 0});  // every parsed WFA has a symbol 0
  } catch (const rnncc::InputError&) {
  } catch (const rnncc::DomainError&) {
  }
  return 0;
}
