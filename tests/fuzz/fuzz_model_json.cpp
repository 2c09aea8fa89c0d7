// Fuzz target: model files (docs/formats.md, "Model files") through parse_model, the reader
// `rnncc run/compile/verify --model` call. A diagnostic (InputError, DomainError) is the
// expected answer to bad input; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algebra/error.hpp"
#include "rnn/model_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)rnncc::parse_model(text, "fuzz.json");
  } catch (const rnncc::InputError&) {
  } catch (const rnncc::DomainError&) {
  }
  return 0;
}
