// The headline run (docs/performance.md, "Headline"): exhaustive exact verification of the DPLR
// WFA construction (d = 3) against its WFA on all |Σ|^L strings of length L, on one GPU, through
// the compiled check circuit (verify/device_check.hpp: X's compiled DPLR circuit on the K
// sub-steps of every symbol against the WFA's circuit, mod lucky 31-bit primes, with the
// magnitude shadow proving exactness), and the CPU time for the same work measured on a slice
// with the project's multi-threaded CPU evaluator and scaled.
//
//   gpu_headline --wfa examples/wfa_count_ab.att [--length 32] [--family dplr]
//                [--threads 256,512,1024] [--tune-log2-slice 30] [--cpu-log2-slice 20]
//                [--json OUT.json]
//
// With several block sizes, each is first timed on the slice [0, 2^tune) of the strings and the
// fastest runs the whole range.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/modp.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/patterns.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "verify/check_circuit.hpp"
#include "verify/device_check.hpp"

using namespace rnncc;

int main(int argc, char** argv) {
  std::string wfa_path = "examples/wfa_count_ab.att", family = "dplr", json;
  std::size_t length = 32;
  unsigned cpu_log2_slice = 20, tune_log2_slice = 30;
  std::vector<std::uint32_t> threads_list = {256};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--wfa")
      wfa_path = v;
    else if (k == "--length")
      length = std::stoul(v);
    else if (k == "--family")
      family = v;
    else if (k == "--cpu-log2-slice")
      cpu_log2_slice = static_cast<unsigned>(std::stoul(v));
    else if (k == "--tune-log2-slice")
      tune_log2_slice = static_cast<unsigned>(std::stoul(v));
    else if (k == "--threads") {
      threads_list.clear();
      for (std::size_t at = 0; at < v.size();) {
        const std::size_t comma = std::min(v.find(',', at), v.size());
        threads_list.push_back(static_cast<std::uint32_t>(std::stoul(v.substr(at, comma - at))));
        at = comma + 1;
      }
    } else if (k == "--json")
      json = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const Wfa a = load_wfa(wfa_path);
  const Construction c = wfa_to_lrnn(a, parse_wfa_family(family).value());
  const gpu::DeviceInfo d = gpu::probe();
  nlohmann::ordered_json J;
  J["wfa"] = wfa_path;
  J["family"] = family;
  J["states"] = a.states();
  J["length"] = length;

  // GPU: every string of Σ^L.
  DeviceCheckReport g;
  if (d.available) {
    DeviceCheckOptions o;
    o.length = length;
    o.device = CheckDevice::gpu;
    o.threads = threads_list.front();
    if (threads_list.size() > 1) {  // tune the block size on a slice
      double best = INFINITY;
      nlohmann::ordered_json tuning = nlohmann::ordered_json::array();
      for (std::uint32_t T : threads_list) {
        DeviceCheckOptions t = o;
        t.threads = T;
        t.count = std::uint64_t{1} << tune_log2_slice;
        const DeviceCheckReport r = device_check(c, t);
        std::printf("tuning: %u threads/block: %.2f s on 2^%u strings (%.3g gate evaluations/s)\n",
                    T, r.kernel_seconds, tune_log2_slice, r.gate_evaluations_per_second);
        tuning.push_back({{"threads", T},
                          {"kernel_seconds", r.kernel_seconds},
                          {"gate_evaluations_per_s", r.gate_evaluations_per_second}});
        if (r.kernel_seconds < best) {
          best = r.kernel_seconds;
          o.threads = T;
        }
      }
      J["tuning"] = tuning;
    }
    const auto t0 = std::chrono::steady_clock::now();
    g = device_check(c, o);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    J["gpu"] = {{"device", g.device},
                {"threads", o.threads},
                {"strings", g.strings},
                {"mismatches", g.mismatches},
                {"exact", g.exact},
                {"primes", g.primes},
                {"log2_bound", g.log2_bound},
                {"runs", g.runs},
                {"gates_per_string", g.gates},
                {"kernel_seconds", g.kernel_seconds},
                {"wall_seconds_with_setup", wall},
                {"gate_evaluations_per_s", g.gate_evaluations_per_second}};
  } else {
    std::printf("no GPU: %s (CPU slice only)\n", d.why_not.c_str());
  }

  // CPU: the same check circuit, mod the same primes, on a slice of the strings (all cores,
  // evaluate_batch), scaled to all of them. No magnitude shadow: a lower bound on its time.
  const auto cc = build_check_circuit(c, length);
  if (!cc) return 1;
  const std::vector<std::uint32_t> primes =
      g.primes.empty() ? std::vector<std::uint32_t>{2147483647u} : g.primes;
  const std::uint64_t slice = std::uint64_t{1} << cpu_log2_slice;
  patterns::Spec spec{
      patterns::Mode::strings_exhaustive, 1, static_cast<std::uint32_t>(cc->symbols),
      static_cast<std::uint32_t>(length), 0, slice};
  std::vector<std::vector<std::uint64_t>> rows(
      slice, std::vector<std::uint64_t>(cc->circuit.inputs().size()));
  for (std::uint64_t k = 0; k < slice; ++k)
    for (std::uint32_t i = 0; i < rows[k].size(); ++i) rows[k][i] = patterns::int_value(spec, k, i);
  double cpu_seconds = 0;
  std::uint64_t cpu_mismatches = 0;
  for (std::uint32_t q : primes) {
    const ModP F(q);
    const auto t0 = std::chrono::steady_clock::now();
    const auto out = evaluate_batch(cc->circuit, F, rows);
    cpu_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& y : out) cpu_mismatches += y[0] != y[1];
  }
  double all = 1;
  for (std::size_t t = 0; t < length; ++t) all *= static_cast<double>(cc->symbols);
  const double cpu_scaled = cpu_seconds * all / static_cast<double>(slice);
  const unsigned threads = std::thread::hardware_concurrency();
  J["cpu"] = {{"threads", threads},
              {"slice", slice},
              {"primes", primes.size()},
              {"seconds_on_slice", cpu_seconds},
              {"mismatches_on_slice", cpu_mismatches},
              {"scaled_seconds_for_all", cpu_scaled}};
  if (!json.empty()) std::ofstream(json) << J.dump(2) << "\n";

  std::printf(
      "\n==== headline: %s construction of %s (d = %zu), all %.0f strings of length %zu ====\n",
      family.c_str(), wfa_path.c_str(), a.states(), all, length);
  std::printf("check circuit: %zu gates (%zu two-input operations), scan %s\n", cc->circuit.size(),
              g.gates, to_string(cc->scan).c_str());
  if (d.available)
    std::printf(
        "GPU %s: %llu strings, %llu mismatching, %s with %zu primes (|X − f|·D ≤ 2^%.1f), "
        "%zu run(s)\n  kernel %.2f s, %.3g gate evaluations/s\n",
        g.device.c_str(), static_cast<unsigned long long>(g.strings),
        static_cast<unsigned long long>(g.mismatches), g.exact ? "EXACT" : "not proved exact",
        g.primes.size(), g.log2_bound, g.runs, g.kernel_seconds, g.gate_evaluations_per_second);
  std::printf(
      "CPU (%u threads, evaluate_batch mod %zu primes): %.3f s on 2^%u strings -> %.0f s "
      "for all (GPU/CPU %.0fx)\n",
      threads, primes.size(), cpu_seconds, cpu_log2_slice, cpu_scaled,
      d.available && g.kernel_seconds > 0 ? cpu_scaled / g.kernel_seconds : 0.0);
  return d.available && (g.mismatches != 0 || !g.exact) ? 1 : 0;
}
