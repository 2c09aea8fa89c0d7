// Exhaustive checks of the hybrid (LRNN + attention) constructions by the model walk
// (verify/model_walk_check.hpp) on every core, beside its plain twin (every string from scratch,
// one core) and the projected time of every string of length 32 at the measured rate.
// Usage: bench_model_walk [--lengths 8,10] [--log2-slice 22]
// Prints one markdown table last.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "constructions/retrieval.hpp"
#include "verify/model_walk_check.hpp"

using namespace rnncc;

int main(int argc, char** argv) {
  std::vector<std::size_t> lengths = {8, 10};
  unsigned log2_slice = 22;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--lengths") {
      lengths.clear();
      for (const char* p = argv[i + 1]; p;
           p = std::strchr(p, ',') ? std::strchr(p, ',') + 1 : nullptr)
        lengths.push_back(std::strtoull(p, nullptr, 10));
    } else if (a == "--log2-slice") {
      log2_slice = static_cast<unsigned>(std::atoi(argv[i + 1]));
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  AssocRecallOptions one;
  one.keys = 1;
  one.values = 1;
  SelectiveCopyOptions sc;
  sc.data_symbols = 1;
  sc.max_distance = 2;
  const std::vector<std::pair<std::string, Construction>> tasks = {
      {"assoc-recall k=1 v=1 (|Σ|=3)", associative_recall(one)},
      {"assoc-recall k=2 v=2 (|Σ|=6)", associative_recall({})},
      {"selective-copy K=1 N=2 (|Σ|=3)", selective_copy(sc)},
      {"selective-copy K=2 N=3 (|Σ|=5)", selective_copy({})}};
  std::vector<std::string> rows;
  for (const auto& [name, c] : tasks) {
    const auto s = model_walk_subject(c);
    if (!s) return 1;
    const double S = s->tables.symbols;
    for (std::size_t L : lengths) {
      const double all = std::pow(S, static_cast<double>(L));
      const auto total = static_cast<std::uint64_t>(all);
      ModelWalkOptions o;
      o.length = L;
      o.count = std::min<std::uint64_t>(total, std::uint64_t{1} << log2_slice);
      o.first = (total - o.count) / 2;
      const DeviceCheckReport r = model_walk_check(*s, o);
      ModelWalkOptions p = o;
      p.plain = true;
      p.count = std::max<std::uint64_t>(1, o.count / 16);
      const DeviceCheckReport q = model_walk_check(*s, p);
      const double rate = static_cast<double>(r.strings) / r.seconds;
      const double plain = static_cast<double>(q.strings) / q.seconds;
      std::printf("%s L=%zu: %.3g strings/s on %u threads, plain twin %.3g strings/s\n",
                  name.c_str(), L, rate, cores, plain);
      rows.push_back(fmt::format(
          "| {} | {} | {:.4g} | {:.3g} | {:.3g} | {:.2f} | {:.3g} s | {:.3g} | {:.3g} s |", name, L,
          all, rate, static_cast<double>(r.steps) / r.seconds,
          static_cast<double>(r.steps) / static_cast<double>(r.strings), all / rate, plain,
          std::pow(S, 32.0) / rate));
    }
  }
  std::printf("\n==== the model walk on %u threads (slices of 2^%u strings, scaled) ====\n", cores,
              log2_slice);
  std::printf(
      "| task | L | strings | strings/s | model steps/s | steps a string | all of Σ^L | "
      "plain twin, 1 thread, strings/s | all of Σ^32 at this rate |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
  return 0;
}
