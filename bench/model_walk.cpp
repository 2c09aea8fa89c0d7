// Exhaustive checks of the hybrid (LRNN + attention) constructions by the model walk
// (verify/model_walk_check.hpp), the GPU beside the best CPU path in one run (issue 26, item 4):
//   - the GPU walk on every string of Σ^L where a pilot slice says it takes at most
//     --max-seconds, else on a slice of 2^k strings, scaled (the table says which);
//   - the same walk on every core of the host, on a slice, scaled (the best CPU path: the
//     per-string checker is the plain twin, L steps a string instead of ≈ |Σ|/(|Σ| − 1));
//   - the projected time of every string of length 32 at the measured GPU rate.
// Usage: bench_model_walk [--lengths 12,16,20] [--max-seconds 60] [--cpu-log2-slice 22]
//                         [--gpu-log2-slice 30] [--threads 128]
// Prints one markdown table last.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "args.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "constructions/retrieval.hpp"
#include "verify/model_walk_check.hpp"

using namespace rnncc;

namespace {

struct Task {
  std::string name;
  Construction c;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> lengths = {12, 16, 20};
  double max_seconds = 60;
  unsigned cpu_log2 = 22, gpu_log2 = 30;
  std::uint32_t threads = 128;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--lengths")
      lengths = bench::comma_list<std::size_t>(argv[i + 1]);
    else if (a == "--max-seconds")
      max_seconds = std::atof(argv[i + 1]);
    else if (a == "--cpu-log2-slice")
      cpu_log2 = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else if (a == "--gpu-log2-slice")
      gpu_log2 = static_cast<unsigned>(std::atoi(argv[i + 1]));
    else if (a == "--threads")
      threads = static_cast<std::uint32_t>(std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  const gpu::DeviceInfo dev = gpu::probe();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("GPU: %s; CPU: %u threads\n", dev.available ? dev.name.c_str() : dev.why_not.c_str(),
              cores);

  std::vector<Task> tasks;
  {
    AssocRecallOptions one;
    one.keys = 1;
    one.values = 1;
    tasks.push_back({"assoc-recall k=1 v=1 (|Σ|=3)", associative_recall(one)});
    tasks.push_back({"assoc-recall k=2 v=2 (|Σ|=6)", associative_recall({})});
    SelectiveCopyOptions sc;
    sc.data_symbols = 1;
    sc.max_distance = 2;
    tasks.push_back({"selective-copy K=1 N=2 (|Σ|=3)", selective_copy(sc)});
    tasks.push_back({"selective-copy K=2 N=3 (|Σ|=5)", selective_copy({})});
  }
  std::vector<std::string> rows;
  for (const Task& task : tasks) {
    const auto s = model_walk_subject(task.c);
    if (!s) {
      std::fprintf(stderr, "%s: no model walk\n", task.name.c_str());
      return 1;
    }
    const double S = s->tables.symbols;
    double gpu_rate = 0;  // strings/s, the last length's
    for (std::size_t L : lengths) {
      const double all = std::pow(S, static_cast<double>(L));
      if (all > std::ldexp(1.0, 62)) continue;
      const auto total = static_cast<std::uint64_t>(all);
      std::string gpu_cell = "—", gpu_rate_cell = "—", steps_cell = "—", verdict = "—";
      std::string ratio = "—";
      double gpu_s = 0;
      if (dev.available) {
        ModelWalkOptions o;
        o.length = L;
        o.device = CheckDevice::gpu;
        o.gpu_threads = threads;
        // Pilot: a slice of 2^gpu_log2 strings (or all) says how long the whole would take.
        o.count = std::min<std::uint64_t>(total, std::uint64_t{1} << gpu_log2);
        o.first = (total - o.count) / 2;
        DeviceCheckReport r = model_walk_check(*s, o);
        const double rate = static_cast<double>(r.strings) / r.kernel_seconds;
        bool whole = o.count == total;
        if (!whole && all / rate <= max_seconds) {
          o.first = 0;
          o.count = 0;
          r = model_walk_check(*s, o);
          whole = true;
        }
        gpu_rate = static_cast<double>(r.strings) / r.kernel_seconds;
        gpu_s = whole ? r.kernel_seconds : all / gpu_rate;
        gpu_cell = whole ? fmt::format("**{:.3g} s**", gpu_s)
                         : fmt::format("{:.3g} s (2^{} slice, scaled)", gpu_s, gpu_log2);
        gpu_rate_cell = fmt::format("{:.3g}", gpu_rate);
        steps_cell = fmt::format("{:.3g}", static_cast<double>(r.steps) / r.kernel_seconds);
        verdict =
            whole ? fmt::format("{} mismatching, {} outside the promise, {} overflowed",
                                r.mismatches, r.skipped, r.overflowed)
                  : fmt::format("slice: {} mismatching, {} overflowed", r.mismatches, r.overflowed);
        std::printf("%s L=%zu: GPU %s (%s strings/s)\n", task.name.c_str(), L, gpu_cell.c_str(),
                    gpu_rate_cell.c_str());
      }
      ModelWalkOptions co;
      co.length = L;
      co.count = std::min<std::uint64_t>(total, std::uint64_t{1} << cpu_log2);
      co.first = (total - co.count) / 2;
      const DeviceCheckReport cr = model_walk_check(*s, co);
      const double cpu_rate = static_cast<double>(cr.strings) / cr.seconds;
      const double cpu_s = all / cpu_rate;
      if (gpu_s > 0) ratio = fmt::format("{:.0f}×", cpu_s / gpu_s);
      std::printf("%s L=%zu: CPU %.3g strings/s (%u threads)\n", task.name.c_str(), L, cpu_rate,
                  cores);
      rows.push_back(fmt::format(
          "| {} | {} | {:.4g} | {} | {} | {} | {} | {:.3g} s ({:.3g}/s) | {} |", task.name, L, all,
          gpu_cell, gpu_rate_cell, steps_cell, verdict, cpu_s, cpu_rate, ratio));
    }
    if (gpu_rate > 0)
      rows.push_back(
          fmt::format("| {} | 32 | {:.4g} | {:.3g} s projected at the last rate | | | | "
                      "| |",
                      task.name, std::pow(S, 32.0), std::pow(S, 32.0) / gpu_rate));
  }
  std::printf("\n==== the model walk: every string of Σ^L, GPU beside every CPU core ====\n");
  std::printf(
      "| task | L | strings | GPU time | strings/s | model steps/s | result | CPU, same walk, "
      "%u threads (slice 2^%u, scaled) | GPU / CPU |\n|---|---|---|---|---|---|---|---|---|\n",
      cores, cpu_log2);
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
  return 0;
}
