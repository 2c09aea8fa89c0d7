// Fuzz target: router reflection files and inline text (docs/errata.md, "The position router")
// through parse_router_spec, the reader `rnncc verify router --reflections` calls. A diagnostic
// is the expected answer to bad input; anything else escaping is a finding. An accepted spec
// goes where the CLI sends it, with two differential checks of the exact theory
// (constructions/position_router.hpp) against its plain twins:
//   - per block, the order of G (order_2x2: 1, 2, 3, 4, 6 or infinite) against repeated
//     multiplication up to 12, and the orbit period of S₀ (orbit_period, by cyclotomic factors)
//     against iteration up to 24 steps — any disagreement aborts;
//   - the router construction for a claimed period P in 1..12, checked exactly, X against f on
//     every string of length ≤ 4 (construction_check.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "algebra/error.hpp"
#include "constructions/position_router.hpp"
#include "tests/fuzz/construction_check.hpp"
#include "tests/fuzz/fuzz_stats.hpp"
#include "tests/fuzz/json_mutator.hpp"

namespace {

using rnncc::Matrix2;
using rnncc::Rational;

Matrix2 product(const std::vector<Matrix2>& block) {  // G = M_k ⋯ M_1
  Matrix2 g(2, 2, Rational(0));
  g(0, 0) = g(1, 1) = 1;
  for (const Matrix2& m : block) {
    Matrix2 r(2, 2, Rational(0));
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) r(i, j) = m(i, 0) * g(0, j) + m(i, 1) * g(1, j);
    g = r;
  }
  return g;
}

[[noreturn]] void finding(const char* what, std::size_t block) {
  std::fprintf(stderr, "router: block %zu: %s\n", block + 1, what);
  std::abort();
}

}  // namespace

// Mutations that keep the input JSON (json_mutator.hpp).
RNNCC_FUZZ_JSON_MUTATOR()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rnncc;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::stats().input();
  RouterSpec spec;
  try {
    spec = parse_router_spec(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  }
  fuzz::stats().accept(data, size);
  for (std::size_t b = 0; b < spec.blocks.size(); ++b) {
    const Matrix2 g = product(spec.blocks[b]);
    if (order_2x2(g) != order_by_powers(g, 12)) finding("order_2x2 ≠ order by powers", b);
    Matrix2 s(2, 1, Rational(0));
    if (spec.start.empty()) {
      s(0, 0) = 1;
    } else {
      s(0, 0) = spec.start[2 * b];
      s(1, 0) = spec.start[2 * b + 1];
    }
    const std::optional<std::uint64_t> exact = orbit_period(g, s).period;
    const std::optional<std::uint64_t> iterated = orbit_period_by_iteration(g, s, 24);
    if (iterated ? exact != iterated : exact && *exact <= 24)
      finding("orbit_period ≠ the period by iteration", b);
  }
  RouterOptions o;
  o.spec = spec;
  o.period = 1 + fuzz::choice(data, size) % 12;
  Construction c;
  try {
    c = position_router(o);
  } catch (const InputError&) {
    return 0;
  } catch (const DomainError&) {
    return 0;
  }
  fuzz::check_construction(c, 4, 1);
  return 0;
}
