// What the benches measure rnncc against, in one place (issue 27: every ratio a bench prints uses
// the fastest path the project has and the best peer, never a retired one):
//   - the fastest CPU path: the wide evaluator (circuits/eval/wide.hpp, run_program_wide) on the
//     given threads, the chosen block, the best ISA — what `rnncc eval --device cpu` runs;
//   - the best peer: ABC's simulator (`sim -m -F 1 -W w -n`), as N processes side by side, one
//     pinned to each CPU (`taskset -c i`) where taskset exists, their rates summed.
// Used by bench/cpu_eval.cpp and bench/gpu_eval.cpp.
#pragma once

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "circuits/eval/program.hpp"
#include "circuits/eval/wide.hpp"

namespace rnncc::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The process's CPU seconds (what ABC's clock() measures).
inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

inline bool have_taskset() {
  static const bool found = std::system("command -v taskset >/dev/null 2>&1") == 0;
  return found;
}

// Median wall seconds of 3 runs of the wide evaluator after a warm-up (the seed varies so no run
// reuses inputs); the median CPU seconds in *cpu if given.
inline double time_wide(const Program& p, RunOptions ro, const WideOptions& wo,
                        double* cpu = nullptr) {
  run_program_wide(p, ro, wo);
  std::vector<double> t, c;
  for (int i = 0; i < 3; ++i) {
    ro.patterns.seed += 1;
    const double c0 = cpu_seconds();
    const auto t0 = Clock::now();
    run_program_wide(p, ro, wo);
    t.push_back(seconds_since(t0));
    c.push_back(cpu_seconds() - c0);
  }
  if (cpu) *cpu = median(c);
  return median(t);
}

// The same on `patterns` patterns of the default pattern mode (random bits).
inline double time_wide(const Program& p, std::uint64_t patterns, const WideOptions& wo,
                        double* cpu = nullptr) {
  RunOptions ro;
  ro.patterns.count = patterns;
  return time_wide(p, ro, wo, cpu);
}

// ABC `sim` commands on `aig`, started together (one per CPU in `cpus`, pinned there; −1:
// unpinned), each one's printed "Time = t sec" (the last one: "Simulation of 1 frames with W
// words … Time = t sec"). -m: any circuit, not a miter (else it stops at the first asserted
// output); -F 1: one frame; -n: the front-based simulator, whose words are 32-bit: 32·W patterns.
inline std::vector<double> abc_sim_seconds(const std::string& abc, const std::string& aig,
                                           std::uint64_t words, const std::vector<int>& cpus) {
  std::vector<FILE*> procs;
  for (int cpu : cpus) {
    const std::string pin =
        have_taskset() && cpu >= 0 ? fmt::format("taskset -c {} ", cpu) : std::string();
    const std::string cmd = fmt::format(
        "{}{} -c 'read_aiger {}; strash; sim -m -F 1 -W {} -n' 2>&1", pin, abc, aig, words);
    procs.push_back(popen(cmd.c_str(), "r"));
  }
  static const std::regex sim_time(R"(Time\s*=\s*([0-9.]+)\s*sec)");
  std::vector<double> out;
  for (FILE* f : procs) {
    if (!f) continue;
    std::string text;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, f)) text += buf;
    const int rc = pclose(f);
    double t = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), sim_time);
         it != std::sregex_iterator(); ++it)
      t = std::stod((*it)[1]);
    if (rc != 0 || t <= 0) {
      std::fprintf(stderr, "abc failed (rc %d): %s\n", rc, text.c_str());
      continue;
    }
    out.push_back(t);
  }
  return out;
}

// ABC as N = `processes` simultaneous pinned processes on the AIG (ands AND gates), each
// simulating 32·words patterns: the sum of their gate-evaluation rates, 0 if none ran.
inline double abc_processes_rate(const std::string& abc, const std::string& aig, std::size_t ands,
                                 std::uint64_t words, unsigned processes) {
  std::vector<int> cpus(processes);
  for (unsigned i = 0; i < processes; ++i) cpus[i] = static_cast<int>(i);
  double sum = 0;
  for (double t : abc_sim_seconds(abc, aig, words, cpus))
    sum += static_cast<double>(ands) * 32.0 * static_cast<double>(words) / t;
  return sum;
}

}  // namespace rnncc::bench
