// Acceptance counters of the fuzz targets (issue 25, item 7): how many inputs a target ran and
// how many its reader accepted, printed at exit when RNNCC_FUZZ_STATS is set — the measure of
// how much of a target's work reaches the paths behind the reader (docs/reliability.md,
// "Acceptance"). A target calls fuzz::stats().input() per input and .accept() when the reader
// accepted it — .accept(data, size) also keeps the input in a pool of accepted inputs, from
// which json_mutator.hpp's mutator starts one mutation in three (up to 256 of them, each kept
// with equal chance: reservoir sampling).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace rnncc::fuzz {

struct Stats {
  std::size_t inputs = 0, accepted = 0;
  std::vector<std::string> pool;  // accepted inputs, a uniform sample of at most 256
  std::uint64_t lcg = 1;          // the reservoir's choices (deterministic)
  void input() { ++inputs; }
  void accept() { ++accepted; }
  void accept(const void* data, std::size_t size) {
    ++accepted;
    if (size > (std::size_t{1} << 16)) return;
    const std::string text(static_cast<const char*>(data), size);
    if (pool.size() < 256)
      pool.push_back(text);
    else if (const std::size_t k = static_cast<std::size_t>(
                 ((lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33) % accepted);
             k < 256)
      pool[k] = text;
  }
  ~Stats() {
    if (std::getenv("RNNCC_FUZZ_STATS") && inputs > 0)
      std::fprintf(stderr, "fuzz stats: %zu inputs, %zu accepted (%.1f %%)\n", inputs, accepted,
                   100.0 * static_cast<double>(accepted) / static_cast<double>(inputs));
  }
};

inline Stats& stats() {
  static Stats s;
  return s;
}

// FNV-1a of the input: a deterministic choice per input (which target, which length, …), so a
// reproducer replays the same path.
inline std::size_t choice(const void* data, std::size_t size) {
  std::size_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i)
    h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  return h;
}

}  // namespace rnncc::fuzz
