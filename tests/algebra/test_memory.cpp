// algebra/memory.hpp: the machine's memory, the default --max-memory, and the one refusal wording
// of every memory estimate.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "algebra/memory.hpp"
#include "tests/support.hpp"

using namespace rnncc;

TEST_CASE("check_memory passes at and below the limit and refuses above it", "[memory]") {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  CHECK_NOTHROW(check_memory("--max-memory", 0, 0, "x would take", ""));
  CHECK_NOTHROW(check_memory("--max-memory", 100 * kMiB, 100, "x would take", ""));
  CHECK_NOTHROW(check_memory("--max-memory", 99 * kMiB + 1, 100, "x would take", ""));
  // Rounded up to whole MiB: one byte over the limit is a refusal.
  test::expect_input_error(
      [] { check_memory("--max-memory", 100 * kMiB + 1, 100, "compiling would take", "G × B"); },
      "--max-memory",
      "compiling would take about 101 MiB (G × B), more than the limit of 100 MiB (raise "
      "--max-memory to run it anyway)");
  test::expect_input_error([] { check_memory("--max-memory", 1, 0, "stats would take", ""); },
                           "--max-memory",
                           "stats would take about 1 MiB, more than the limit of 0 MiB");
  // The option named is the one given.
  test::expect_input_error([] { check_memory("--limit", 3 * kMiB, 2, "y would take", ""); },
                           "--limit", "(raise --limit to run it anyway)");
}

TEST_CASE("a saturated estimate says more than 2^64 bytes", "[memory]") {
  test::expect_input_error(
      [] {
        check_memory("--max-memory", std::numeric_limits<std::uint64_t>::max(), 1 << 20,
                     "compiling would take", "n^4");
      },
      "--max-memory",
      "compiling would take more than 2^64 bytes (n^4), more than the limit of 1048576 MiB");
}

TEST_CASE("the default limit is half the machine's memory, at least 256 MiB", "[memory]") {
  const std::size_t physical = physical_memory_mib();
  const std::size_t d = default_max_memory_mib();
  CHECK(d >= 256);
  if (physical == 0)
    CHECK(d == 8192);
  else
    CHECK(d == std::max<std::size_t>(256, physical / 2));
}
