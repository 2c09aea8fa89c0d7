// The headline run (docs/performance.md, "Headline"): exhaustive exact verification of the DPLR
// WFA construction against its WFA on all |Σ|^L strings of each length L, on one GPU, by prefix
// sharing over the linear representations (verify/prefix_check.hpp: each prefix's state once,
// depth first; residues mod lucky 31-bit primes sized by a static bound, so every string is
// exact), with side by side in the same run:
//   - the same prefix sharing on every core of the host, on a slice of the strings, scaled;
//   - the previous GPU path (the whole check circuit per string, verify/device_check.hpp with
//     prefix_sharing = false, float shadow), on a slice, scaled.
//
//   gpu_headline --wfa examples/wfa_count_ab.att [--lengths 32,40] [--family dplr]
//                [--threads 128,256] [--depths 8,12,16] [--tune-log2-slice 30]
//                [--cpu-log2-slice 28] [--circuit-log2-slice 26] [--max-seconds 400]
//                [--json OUT.json]
//
// Block size and suffix depth (strings per thread = |Σ|^s) are tuned on the slice
// [0, 2^tune) of the first length; a length whose predicted time exceeds --max-seconds runs on
// a slice instead (said so).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "verify/device_check.hpp"
#include "verify/prefix_check.hpp"

using namespace rnncc;

int main(int argc, char** argv) {
  std::string wfa_path = "examples/wfa_count_ab.att", family = "dplr", json;
  std::vector<std::uint32_t> lengths = {32, 40}, threads_list = {128, 256}, depths = {8, 12, 16};
  unsigned cpu_log2 = 28, tune_log2 = 30, circuit_log2 = 26;
  double max_seconds = 400;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--wfa")
      wfa_path = v;
    else if (k == "--lengths")
      lengths = bench::comma_list(v);
    else if (k == "--family")
      family = v;
    else if (k == "--threads")
      threads_list = bench::comma_list(v);
    else if (k == "--depths")
      depths = bench::comma_list(v);
    else if (k == "--cpu-log2-slice")
      cpu_log2 = static_cast<unsigned>(std::stoul(v));
    else if (k == "--tune-log2-slice")
      tune_log2 = static_cast<unsigned>(std::stoul(v));
    else if (k == "--circuit-log2-slice")
      circuit_log2 = static_cast<unsigned>(std::stoul(v));
    else if (k == "--max-seconds")
      max_seconds = std::stod(v);
    else if (k == "--json")
      json = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const Wfa a = load_wfa(wfa_path);
  const Construction c = wfa_to_lrnn(a, parse_wfa_family(family).value());
  std::string why;
  const auto subject = prefix_subject(c, &why);
  if (!subject) {
    std::fprintf(stderr, "no prefix subject: %s\n", why.c_str());
    return 1;
  }
  const gpu::DeviceInfo d = gpu::probe();
  const unsigned host_threads = std::max(1u, std::thread::hardware_concurrency());
  nlohmann::ordered_json J;
  J["wfa"] = wfa_path;
  J["family"] = family;
  J["states"] = a.states();
  J["dimension"] = {{"X", subject->dim_x}, {"f", subject->dim_f}};
  J["method"] = kPrefixMethod;
  std::printf("%s construction of %s: X of dimension %zu (through the input map), f of %zu\n",
              family.c_str(), wfa_path.c_str(), subject->dim_x, subject->dim_f);
  if (!d.available) std::printf("no GPU: %s (CPU slices only)\n", d.why_not.c_str());

  // Tune block size × suffix depth on a slice of the first length.
  std::uint32_t best_threads = threads_list.front(), best_depth = depths.front();
  if (d.available && (threads_list.size() > 1 || depths.size() > 1)) {
    double best = INFINITY;
    nlohmann::ordered_json tuning = nlohmann::ordered_json::array();
    for (std::uint32_t T : threads_list)
      for (std::uint32_t s : depths) {
        PrefixCheckOptions o;
        o.length = lengths.front();
        o.device = CheckDevice::gpu;
        o.gpu_threads = T;
        o.suffix_depth = s;
        o.count = std::uint64_t{1} << tune_log2;
        const DeviceCheckReport r = prefix_check(*subject, o);
        std::printf("tuning L = %u: %u threads/block, s = %u: %.3f s on 2^%u strings\n",
                    lengths.front(), T, s, r.kernel_seconds, tune_log2);
        tuning.push_back({{"threads", T}, {"depth", s}, {"kernel_seconds", r.kernel_seconds}});
        if (r.kernel_seconds < best) {
          best = r.kernel_seconds;
          best_threads = T;
          best_depth = s;
        }
      }
    J["tuning"] = tuning;
  }

  struct Row {
    std::uint32_t L;
    double all, gpu_strings, gpu_s, cpu_s_scaled, circuit_s_scaled;
    bool slice, exact;
    std::uint64_t mismatches;
    std::size_t primes;
    double log2_bound;
  };
  std::vector<Row> rows;
  int status = 0;
  double gpu_rate = 0;  // strings/s of the last GPU run, for the prediction
  for (std::uint32_t L : lengths) {
    Row row{};
    row.L = L;
    row.all = std::pow(static_cast<double>(subject->g.symbols.size()), L);
    nlohmann::ordered_json jl;
    if (d.available) {
      PrefixCheckOptions o;
      o.length = L;
      o.device = CheckDevice::gpu;
      o.gpu_threads = best_threads;
      o.suffix_depth = best_depth;
      if (gpu_rate > 0 && row.all / gpu_rate > max_seconds) {
        o.count = static_cast<std::uint64_t>(
            std::ldexp(1.0, static_cast<int>(std::floor(std::log2(max_seconds * gpu_rate / 2)))));
        row.slice = true;
      }
      const auto t0 = std::chrono::steady_clock::now();
      const DeviceCheckReport g = prefix_check(*subject, o);
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      gpu_rate = static_cast<double>(g.strings) / g.kernel_seconds;
      row.gpu_strings = static_cast<double>(g.strings);
      row.gpu_s = g.kernel_seconds * row.all / row.gpu_strings;  // = kernel time when whole
      row.exact = g.exact;
      row.mismatches = g.mismatches;
      row.primes = g.primes.size();
      row.log2_bound = g.log2_bound;
      if (g.mismatches != 0 || !g.exact) status = 1;
      jl["gpu"] = {{"device", g.device},
                   {"threads", best_threads},
                   {"depth", best_depth},
                   {"strings", g.strings},
                   {"whole_range", !row.slice},
                   {"mismatches", g.mismatches},
                   {"exact", g.exact},
                   {"primes", g.primes},
                   {"log2_bound", g.log2_bound},
                   {"kernel_seconds", g.kernel_seconds},
                   {"wall_seconds_with_setup", wall},
                   {"strings_per_s", gpu_rate},
                   {"multiply_adds_per_s", g.gate_evaluations_per_second}};
      // The previous GPU path on a slice (the whole check circuit per string).
      if (circuit_log2 > 0) {
        DeviceCheckOptions co;
        co.length = L;
        co.device = CheckDevice::gpu;
        co.threads = 1024;
        co.prefix_sharing = false;
        co.count = std::uint64_t{1} << circuit_log2;
        const DeviceCheckReport cr = device_check(c, co);
        row.circuit_s_scaled = cr.kernel_seconds * row.all / static_cast<double>(cr.strings);
        jl["gpu_check_circuit_slice"] = {{"strings", cr.strings},
                                         {"kernel_seconds", cr.kernel_seconds},
                                         {"mismatches", cr.mismatches},
                                         {"scaled_seconds_for_all", row.circuit_s_scaled}};
      }
    }
    // The CPU: the same prefix sharing on every core, on a slice, scaled.
    PrefixCheckOptions co;
    co.length = L;
    co.device = CheckDevice::cpu;
    co.count = std::uint64_t{1} << cpu_log2;
    const DeviceCheckReport cr = prefix_check(*subject, co);
    row.cpu_s_scaled = cr.seconds * row.all / static_cast<double>(cr.strings);
    if (cr.mismatches) status = 1;
    jl["cpu"] = {{"device", cr.device},
                 {"strings", cr.strings},
                 {"seconds", cr.seconds},
                 {"mismatches", cr.mismatches},
                 {"scaled_seconds_for_all", row.cpu_s_scaled}};
    J["length_" + std::to_string(L)] = jl;
    rows.push_back(row);
  }
  if (!json.empty()) std::ofstream(json) << J.dump(2) << "\n";

  std::printf("\n==== headline: %s construction of %s, by prefix sharing ====\n", family.c_str(),
              wfa_path.c_str());
  std::printf("GPU: %s, %u threads/block, %u strings per thread (|Σ|^%u)\n",
              d.available ? d.name.c_str() : "none", best_threads,
              static_cast<unsigned>(std::pow(subject->g.symbols.size(), best_depth)), best_depth);
  std::printf(
      "| L | strings | GPU time | strings/s | exact | CPU %u threads (2^%u slice, scaled) | "
      "GPU/CPU | GPU check circuit (2^%u slice, scaled) |\n",
      host_threads, cpu_log2, circuit_log2);
  for (const Row& r : rows)
    std::printf(
        "| %u | %.0f%s | %.2f s%s | %.3g | %s, %zu prime(s), N ≤ 2^%.1f, %llu mismatching | "
        "%.1f s | %.0f× | %.1f s |\n",
        r.L, r.all,
        r.slice ? fmt::format(" (GPU on 2^{:.0f})", std::log2(r.gpu_strings)).c_str() : "", r.gpu_s,
        r.slice ? " (scaled)" : "", r.gpu_s > 0 ? r.all / r.gpu_s : 0.0,
        r.exact ? "EXACT" : "not proved", r.primes, r.log2_bound,
        static_cast<unsigned long long>(r.mismatches), r.cpu_s_scaled,
        r.gpu_s > 0 ? r.cpu_s_scaled / r.gpu_s : 0.0, r.circuit_s_scaled);
  return status;
}
