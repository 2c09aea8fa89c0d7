// Compile throughput of compile_lrnn (issue: ≥ 5 million gates/s, ≤ 32 bytes per gate with the
// hash table, for n = 2^20, a d = 3 DPLR model, Brent–Kung, on the 2-core development machine).
//
//   build/bench/compile_throughput [log2_n] [--json]
//
// Prints one row per scan at the same n (so the figures are side by side in one run):
// operations, wall time, gates/s, and bytes per gate = (gate arena + operand pool + constants +
// region side table + the builder's hash table at its largest) / gates. Also the process's
// peak resident set size.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"
#include "rnn/families.hpp"

using namespace rnncc;

namespace {

Model dplr_model(std::size_t d) {
  std::mt19937_64 rng(1);
  auto q = [&] {
    return Rational(static_cast<long>(rng() % 2001) - 1000, static_cast<long>(rng() % 97) + 3);
  };
  auto vec = [&] {
    Vector v;
    for (std::size_t i = 0; i < d; ++i) v.push_back(q());
    return v;
  };
  LayerFrame f;
  f.d = d;
  f.m = 1;
  f.features = 2;
  f.initial_state = Matrix<Rational>(d, 1, Rational(1, 3));
  f.readout = Matrix<Rational>(1, d, Rational(2, 5));
  std::vector<DplrStep> steps;
  for (int k = 0; k < 2; ++k) {
    Matrix<Rational> B(d, 1);
    for (std::size_t i = 0; i < d; ++i) B(i, 0) = q();
    steps.push_back({vec(), vec(), vec(), B});
  }
  Model m;
  m.name = "dplr-d3";
  m.alphabet = Alphabet({"0", "1"}, "bench");
  m.layers.push_back({std::nullopt, make_dplr(f, steps)});
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned log2n = 20;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0)
      json = true;
    else
      log2n = static_cast<unsigned>(std::atoi(argv[i]));
  }
  const std::size_t n = std::size_t{1} << log2n;
  const Model model = dplr_model(3);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  if (!json)
    fmt::print(
        "compile_lrnn, DPLR d = 3, n = 2^{} = {}\n{:<16} {:>12} {:>12} {:>9} {:>14} {:>11}\n",
        log2n, n, "scan", "gates", "operations", "seconds", "gates/s", "bytes/gate");
  // Sklansky's n/2·log₂ n combines would need ~14 GiB at n = 2^20: it runs up to 2^18 only.
  std::vector<ScanKind> scans{ScanKind::brent_kung, ScanKind::sequential};
  if (log2n <= 18) scans.push_back(ScanKind::sklansky);
  for (ScanKind scan : scans) {
    CompileOptions o;
    o.scan = scan;
    o.budget.max_gates = std::size_t{1} << 32;
    const auto t0 = std::chrono::steady_clock::now();
    CompiledCircuit cc = compile_lrnn(model, n, o);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::size_t gates = cc.circuit.size();
    const std::size_t bytes =
        cc.circuit.memory_bytes() + cc.regions.capacity() * sizeof(Region) + cc.hash_table_bytes;
    const std::size_t ops = compute_stats(cc.circuit).operations();
    const double rate = static_cast<double>(gates) / seconds,
                 per = static_cast<double>(bytes) / static_cast<double>(gates);
    if (json)
      rows.push_back({{"scan", to_string(scan)},
                      {"n", n},
                      {"gates", gates},
                      {"operations", ops},
                      {"seconds", seconds},
                      {"gates_per_second", rate},
                      {"bytes_per_gate", per}});
    else
      fmt::print("{:<16} {:>12} {:>12} {:>9.2f} {:>14.3e} {:>11.1f}\n", to_string(scan), gates, ops,
                 seconds, rate, per);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  if (json)
    fmt::print("{}\n", nlohmann::ordered_json{{"benchmark", "compile_throughput"},
                                              {"rows", rows},
                                              {"peak_rss_bytes", ru.ru_maxrss * 1024L}}
                           .dump(2));
  else
    fmt::print("peak RSS {:.1f} MiB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}
