// Fuzz target: generator files (docs/formats.md, "Generator files") through parse_generators,
// the reader `rnncc verify matmul3 --generators FILE` calls. A diagnostic (InputError) is the
// expected answer to bad input; anything else escaping is a finding. An accepted file goes
// where the CLI sends it:
//   - written back (generators_to_json) and read again: the same matrices, else abort;
//   - for up to 3 generators and one input in four (the construction takes about 0.2 s under the
//     sanitizers, the reader well under 1 ms), the matmul3 construction built from them
//     (constructions/matmul3.hpp) and checked exactly, X against f on every string of length ≤ 2
//     over its first 2 symbols (construction_check.hpp): matmul3 claims X computes the product for
//     any rational matrices.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "algebra/error.hpp"
#include "constructions/generators_file.hpp"
#include "constructions/matmul3.hpp"
#include "tests/fuzz/construction_check.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "tests/fuzz/json_mutator.hpp"

// Mutations that keep the input JSON (json_mutator.hpp).
RNNCC_FUZZ_JSON_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rnncc;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::stats().input();
  std::vector<Matrix3> g;
  try {
    g = parse_generators(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  }
  fuzz::stats().accept(data, size);
  const std::string written = generators_to_json(g);
  std::vector<Matrix3> again;
  try {
    again = parse_generators(written, "written.json");
  } catch (const InputError& e) {
    std::fprintf(stderr, "round trip: the written generators do not read back: %s\n%s\n", e.what(),
                 written.c_str());
    std::abort();
  }
  if (again != g) {
    std::fprintf(stderr, "round trip: read back differently:\n%s\n", written.c_str());
    std::abort();
  }
  if (g.size() > 3 || fuzz::choice(data, size) % 4 != 0) return 0;
  Matmul3Options o;
  o.generators = g;
  Construction c;
  try {
    c = matmul3(o);
  } catch (const InputError&) {
    return 0;
  } catch (const DomainError&) {
    return 0;
  }
  fuzz::check_construction(c, 2, 2);
  return 0;
}
