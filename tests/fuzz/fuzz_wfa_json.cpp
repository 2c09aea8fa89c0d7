// Fuzz target: JSON WFAs (rnncc-wfa/1, docs/formats.md "WFA files") through
// parse_subject_file, the reader of `rnncc equiv`/`minimize`/`check-certificate` (it tells a
// WFA from a model by "format", then calls parse_wfa_json or parse_model, as load_wfa does for
// `verify wfa`/`construct wfa`).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algebra/error.hpp"
#include "constructions/wfa.hpp"
#include "verify/subject_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const rnncc::SubjectFile s = rnncc::parse_subject_file(text, "fuzz.json");
    (void)rnncc::subject_digest(s);
  } catch (const rnncc::InputError&) {
  } catch (const rnncc::DomainError&) {
  }
  try {
    const rnncc::Wfa a = rnncc::parse_wfa_json(text, "fuzz.wfa.json");
    (void)rnncc::evaluate(a, {0});
  } catch (const rnncc::InputError&) {
  } catch (const rnncc::DomainError&) {
  }
  return 0;
}
