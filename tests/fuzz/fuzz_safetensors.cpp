// Fuzz target: safetensors checkpoints (rnn/safetensors.hpp) through parse_safetensors, the
// reader `rnncc import-weights` calls. A diagnostic (InputError) is the expected answer to bad
// input; anything else escaping is a finding.
//
// Round trip: a file that parses and holds only float tensors is written again
// (safetensors_bytes, in the dtypes it had) and read back; the values must be equal bit for bit
// (NaN payloads aside) — the reader's conversions are exact.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "algebra/error.hpp"
#include "rnn/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  rnncc::SafeTensorsFile file;
  try {
    file = rnncc::parse_safetensors(bytes, "fuzz.safetensors");
  } catch (const rnncc::InputError&) {
    return 0;
  }
  std::vector<rnncc::TensorToWrite> out;
  for (const rnncc::SafeTensor& t : file.tensors) {
    if (!rnncc::is_float(t.dtype)) return 0;
    out.push_back({t.name, t.shape, t.values, t.dtype});
  }
  const rnncc::SafeTensorsFile again =
      rnncc::parse_safetensors(rnncc::safetensors_bytes(out, file.metadata), "written");
  for (const rnncc::SafeTensor& t : file.tensors) {
    const rnncc::SafeTensor* u = again.find(t.name);
    bool same = u && u->shape == t.shape && u->values.size() == t.values.size();
    for (std::size_t i = 0; same && i < t.values.size(); ++i)
      same = std::isnan(t.values[i]) ? std::isnan(u->values[i]) : u->values[i] == t.values[i];
    if (!same) {
      std::fprintf(stderr, "round trip: tensor '%s' reads back differently\n", t.name.c_str());
      std::abort();
    }
  }
  return 0;
}
