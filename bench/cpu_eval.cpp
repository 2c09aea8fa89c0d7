// The wide CPU evaluator (circuits/eval/wide.hpp) against ABC's simulator, side by side in one
// run (issue 15, item 2; docs/performance.md, "CPU"):
//
//   cpu_eval [--epfl DIR] [--abc PATH] [--circuits multiplier,hyp] [--log2-patterns 20]
//            [--sweep-log2-patterns 18] [--max-threads N] [--json OUT.json]
//
// Sections (each rnncc figure is the median of 3 timed runs after a warm-up):
//   one core   per circuit: rnncc (1 thread, the best ISA, the chosen block) and ABC
//              `sim -m -F 1 -W P/32 -n` on the same AIG and the same number of patterns P, both
//              pinned to CPU 0 (this process by sched_setaffinity, ABC by `taskset -c 0`); the
//              ratio rnncc / ABC. ABC's time is the "Time =" its sim prints: clock() (process
//              CPU time) around the whole `sim` command (its conversion to Aig/Gia managers, the
//              random patterns and the simulation; reading and strash excluded). rnncc's is
//              run_program_wide (lowering apart), as CPU time for the ratio and as wall time;
//   sweep      per circuit, 1 thread, P = 2^sweep patterns: every block size (8..64 words) with
//              the best ISA, and every ISA the CPU runs with the chosen block;
//   threads    1, 2, 4, …, all cores: rnncc with P patterns per thread (weak scaling: each thread
//              does what one ABC process does) and the speedup over 1 thread; ABC as N
//              processes side by side (N = cores, process i pinned to CPU i), the sum of their
//              rates, and the ratio rnncc(N threads) / ABC(N processes).
// Gate evaluations/s = Program::gate_instructions (an AIG's ANDs) × patterns / seconds, the same
// count for both tools.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "circuits/eval/program.hpp"
#include "circuits/eval/wide.hpp"
#include "circuits/io/aiger.hpp"
#include "peers.hpp"

using namespace rnncc;
using namespace rnncc::bench;

namespace {

struct Args {
  std::string epfl = "tests/data/epfl", abc = "berkeley-abc", json;
  std::vector<std::string> circuits{"multiplier", "hyp"};
  unsigned log2_patterns = 20, sweep_log2_patterns = 18, max_threads = 0;
};

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (cpu >= 0) {
    CPU_SET(cpu, &set);
  } else {
    for (unsigned i = 0; i < std::max(1u, std::thread::hardware_concurrency()); ++i)
      CPU_SET(i, &set);
  }
  sched_setaffinity(0, sizeof set, &set);
}

std::string sci(double x) {
  return fmt::format("{:.3g}", x);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--epfl") {
      a.epfl = v;
    } else if (k == "--abc") {
      a.abc = v;
    } else if (k == "--json") {
      a.json = v;
    } else if (k == "--circuits") {
      a.circuits.clear();
      std::stringstream ss(v);
      for (std::string s; std::getline(ss, s, ',');) a.circuits.push_back(s);
    } else if (k == "--log2-patterns") {
      a.log2_patterns = static_cast<unsigned>(std::stoul(v));
    } else if (k == "--sweep-log2-patterns") {
      a.sweep_log2_patterns = static_cast<unsigned>(std::stoul(v));
    } else if (k == "--max-threads") {
      a.max_threads = static_cast<unsigned>(std::stoul(v));
    } else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const unsigned cores =
      a.max_threads ? a.max_threads : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t P = std::uint64_t{1} << a.log2_patterns;
  const std::uint64_t abc_words = std::max<std::uint64_t>(1, P / 32);
  nlohmann::json js;
  js["cores"] = cores;
  js["l2_bytes"] = l2_cache_bytes();
  js["isa"] = to_string(best_wide_isa());
  js["patterns"] = P;
  js["taskset"] = have_taskset();
  fmt::print("cpu_eval: {} cores, L2 {} KiB per core, best ISA {}, P = 2^{} patterns{}\n", cores,
             l2_cache_bytes() >> 10, to_string(best_wide_isa()), a.log2_patterns,
             have_taskset() ? "" : " (no taskset: ABC unpinned)");
  for (const std::string& name : a.circuits) {
    const std::string path = a.epfl + "/" + name + ".aig";
    if (!std::filesystem::exists(path)) {  // hyp is not among the 13 shipped circuits
      fmt::print("{}: not in {} (--epfl names a folder of the whole EPFL suite)\n", name, a.epfl);
      continue;
    }
    const Circuit c = load_aiger(path);
    nlohmann::json cj;
    // Lowering: the slot file of one block in 3/4 of L2 at the default B = 32, then B chosen.
    auto t0 = Clock::now();
    const Program p = lower_program(c, wide_program_options(32));
    const double lower_s = seconds_since(t0);
    const double ops = static_cast<double>(p.gate_instructions);
    const std::uint32_t B = choose_block_words(p, P, 1);
    fmt::print(
        "\n{}: {} ANDs, {} gate instructions, {} slots, {} spill slots ({} stores), "
        "lowering {:.3f} s, block {} words\n",
        name, and_count(c), p.gate_instructions, p.slots, p.spill_slots, p.spill_stores, lower_s,
        B);
    cj["ands"] = and_count(c);
    cj["gate_instructions"] = p.gate_instructions;
    cj["slots"] = p.slots;
    cj["spill_slots"] = p.spill_slots;
    cj["lowering_s"] = lower_s;
    cj["block_words"] = B;

    // A check before timing (this may be another machine): every ISA, 1 and all threads, equals
    // the plain twin run_program bit for bit on 2^12 + 7 patterns.
    {
      RunOptions ro;
      ro.patterns.count = (1u << 12) + 7;
      ro.patterns.seed = 99;
      ro.store = true;
      const ProgramResult want = run_program(p, ro);
      for (WideIsa isa : {WideIsa::generic, WideIsa::avx2, WideIsa::avx512})
        for (unsigned n : {1u, cores}) {
          if (!wide_isa_supported(isa)) continue;
          WideOptions w;
          w.isa = isa;
          w.threads = n;
          w.block_words = 8;
          const ProgramResult got = run_program_wide(p, ro, w);
          if (got.ones != want.ones || got.stored != want.stored) {
            fmt::print("  CHECK FAILED: {} with {} threads differs from run_program\n",
                       to_string(isa), n);
            return 1;
          }
        }
      fmt::print("  check: wide == run_program on {} patterns (every ISA, 1 and {} threads)\n",
                 ro.patterns.count, cores);
    }

    // One core, side by side.
    pin_to(0);
    WideOptions wo;
    wo.threads = 1;
    wo.block_words = B;
    // ABC's "Time" is clock(): CPU time. rnncc's is shown both ways: wall (what a user waits)
    // and CPU (like for like with ABC on a loaded machine); the ratio uses the CPU time.
    double c1 = 0;
    const double t1 = time_wide(p, P, wo, &c1);
    const auto abc1 = abc_sim_seconds(a.abc, path, abc_words, {0});
    const double r1 = ops * static_cast<double>(P) / t1, rc1 = ops * static_cast<double>(P) / c1;
    const double abc_r1 = abc1.empty() ? 0 : ops * 32.0 * static_cast<double>(abc_words) / abc1[0];
    fmt::print(
        "  one core: rnncc {} gate evals/s (cpu {:.3f} s; wall {:.3f} s: {})   ABC sim {} "
        "(cpu {:.3f} s)   rnncc/ABC {:.2f}x\n",
        sci(rc1), c1, t1, sci(r1), sci(abc_r1), abc1.empty() ? 0.0 : abc1[0],
        abc_r1 > 0 ? rc1 / abc_r1 : 0.0);
    cj["one_core"] = {{"rnncc_wall_s", t1},
                      {"rnncc_cpu_s", c1},
                      {"rnncc_gate_evals_per_s", rc1},
                      {"rnncc_wall_gate_evals_per_s", r1},
                      {"abc_cpu_s", abc1.empty() ? 0.0 : abc1[0]},
                      {"abc_gate_evals_per_s", abc_r1},
                      {"ratio", abc_r1 > 0 ? rc1 / abc_r1 : 0.0}};

    // Sweep: block sizes and instruction sets, 1 thread.
    const std::uint64_t SP = std::uint64_t{1} << a.sweep_log2_patterns;
    std::string line = "  sweep (1 thread, 2^" + std::to_string(a.sweep_log2_patterns) + "):";
    for (std::uint32_t b : {8u, 16u, 32u, 64u, 128u, 256u}) {
      if (std::size_t{p.slots + p.spill_slots + 2} * b * 8 > (std::size_t{1} << 31)) continue;
      WideOptions w = wo;
      w.block_words = b;
      const double r = ops * static_cast<double>(SP) / time_wide(p, SP, w);
      line += fmt::format("  B={} {}", b, sci(r));
      cj["sweep_block"][std::to_string(b)] = r;
    }
    for (WideIsa isa : {WideIsa::generic, WideIsa::avx2, WideIsa::avx512}) {
      if (!wide_isa_supported(isa)) continue;
      WideOptions w = wo;
      w.isa = isa;
      const double r = ops * static_cast<double>(SP) / time_wide(p, SP, w);
      line += fmt::format("  {} {}", to_string(isa), sci(r));
      cj["sweep_isa"][to_string(isa)] = r;
    }
    fmt::print("{}\n", line);

    // Threads: weak scaling, P patterns per thread.
    pin_to(-1);
    double base = 0;
    for (unsigned n = 1;; n = std::min(cores, 2 * n)) {
      WideOptions w;
      w.threads = n;
      w.block_words = B;
      const double r = ops * static_cast<double>(P * n) / time_wide(p, P * n, w);
      if (n == 1) base = r;
      fmt::print("  {:2} threads: rnncc {} gate evals/s, speedup {:.2f}\n", n, sci(r), r / base);
      cj["threads"][std::to_string(n)] = {{"gate_evals_per_s", r}, {"speedup", r / base}};
      if (n == cores) {
        std::vector<int> cpus(cores);
        for (unsigned i = 0; i < cores; ++i) cpus[i] = static_cast<int>(i);
        const auto abcn = abc_sim_seconds(a.abc, path, abc_words, cpus);
        double sum = 0;
        for (double t : abcn) sum += ops * 32.0 * static_cast<double>(abc_words) / t;
        fmt::print(
            "  ABC sim, {} processes side by side: {} gate evals/s (sum of rates)   "
            "rnncc/ABC {:.2f}x\n",
            abcn.size(), sci(sum), sum > 0 ? r / sum : 0.0);
        cj["abc_processes"] = {{"processes", abcn.size()},
                               {"gate_evals_per_s", sum},
                               {"ratio", sum > 0 ? r / sum : 0.0}};
        break;
      }
    }
    js["circuits"][name] = cj;
  }
  if (!a.json.empty()) std::ofstream(a.json) << js.dump(2) << "\n";
  return 0;
}
