// Fuzz target: equivalence certificates (docs/formats.md, "Equivalence certificates") through
// check_certificate, the independent checker `rnncc check-certificate F G CERT` calls, with F
// and G fixed: examples/binary_value_wfa.json and examples/wfa_binary_value.att, read once
// through parse_subject_file (the seeds are certificates for this pair). A broken certificate
// is a list of problems; anything escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "verify/check_certificate.hpp"
#include "verify/subject_file.hpp"

namespace {

constexpr std::string_view model_text = R"json({
  "format": "rnncc-model/1",
  "name": "binary-value-wfa",
  "description": "A WFA over Z whose value is the binary number a string spells (most significant bit first): state (v, 1), symbol b maps v to 2v + b.",
  "alphabet": ["0", "1"],
  "layers": [
    {
      "kind": "lrnn",
      "family": "general",
      "d": 2,
      "initial_state": ["0", "1"],
      "symbols": {
        "0": { "A": [["2", "0"], ["0", "1"]] },
        "1": { "A": [["2", "1"], ["0", "1"]] }
      },
      "readout": [["1", "0"]]
    }
  ],
  "accept": { "mode": "positive" }
}
)json";
constexpr std::string_view wfa_text =
    R"att(# Binary value: f(w) = the number w spells in binary, MSB first (f(1011) = 11); u carries 1, a 1-bit moves it to v, later bits double v.
u	u	0
u	u	1
u	v	1
v	v	0	2
v	v	1	2
v	1
)att";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const rnncc::SubjectFile f =
      rnncc::parse_subject_file(model_text, "examples/binary_value_wfa.json");
  static const rnncc::SubjectFile g =
      rnncc::parse_subject_file(wfa_text, "examples/wfa_binary_value.att");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)rnncc::check_certificate(f, g, text);
  (void)rnncc::check_certificate(g, g, text);
  return 0;
}
