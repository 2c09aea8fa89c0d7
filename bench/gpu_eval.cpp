// GPU bulk evaluation against its ceilings and against the CPU, side by side in one run
// (docs/performance.md, "GPU"). On the device machine:
//
//   gpu_eval [--epfl DIR] [--log2-patterns 22] [--cpu-log2-patterns 24] [--abc PATH]
//            [--dplr MODEL.json] [--dplr-n 256] [--json OUT.json]
//
// Sections (each figure is the median of 3 timed runs after a warm-up; kernel time by events):
//   ceilings    device-to-device copy bandwidth; Montgomery multiplications/s (16 chains/thread);
//   boolean     EPFL multiplier and hyp, 2^22 random patterns, several block sizes: two-input
//               gate evaluations/s (ANDs × patterns / s), the spill traffic as a fraction of the
//               copy bandwidth, the naive per-level roofline (copy bandwidth / 24 bytes per AND
//               word × 64), the project's fastest CPU path (the wide evaluator on all cores,
//               bench/peers.hpp) and the best peer: ABC's simulator as one process per core
//               (`sim -m -F 1 -W w -n`, pinned, rates summed) on the same circuit;
//   arithmetic  a compiled d = 3 DPLR circuit mod 1 and 4 primes (± float shadow): gate
//               evaluations/s (each prime's evaluation of a gate counted once), the fraction of
//               the measured Montgomery peak, and the wide evaluator mod one prime on all cores
//               (the fastest CPU path) against the one-prime GPU run;
//   compiled    (issue 15) the same circuits through the NVRTC-compiled kernels
//               (circuits/eval/cuda/compiled.hpp) beside the interpreter and the anchor — the AIG
//               as a plain straight-line kernel built by nvcc -O3 (bench/straightline_anchor.cpp;
//               gpu_stage.sh builds anchor_<name> for sm_90 and --anchor-dir finds them):
//               gate evals/s, the ratio to the anchor, NVRTC compile time apart from run time
//               (a fresh kernel cache: $RNNCC_KERNEL_CACHE), registers and local (spill) bytes
//               per thread, partitions and the cross-partition traffic against the copy
//               bandwidth; the DPLR circuit mod 1 and 4 primes against the Montgomery peak.
//   Options: --sections all|compiled (compiled: ceilings and the compiled section only);
//   --nvrtc-only 1 (no device needed): NVRTC compile times of the EPFL kernels for sm_90;
//   --ptx-only 1 (no device needed): nvJitLink times of their PTX kernels, covered or not, at
//   each ptxas optimization level of --ptxas-levels (default 3).
//   --ptxas-levels 3,2,1: the compiled section also runs the covered PTX at each level below 3.
//   --partitions fixed,min-traffic: kernel cuts (circuits/eval/partition.hpp) of --ptx-only, and
//   with min-traffic the compiled section also runs the covered PTX cut where the fewest loads and
//   stores cross.
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/modp.hpp"
#include "args.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/kernel_source.hpp"
#include "circuits/eval/program.hpp"
#include "circuits/io/aiger.hpp"
#include "peers.hpp"
#include "rnn/model_json.hpp"

using namespace rnncc;
using namespace rnncc::bench;

namespace {

struct Args {
  std::string epfl = "tests/data/epfl", abc = "berkeley-abc", dplr = "examples/dplr_d3.json", json,
              sections = "all", anchor_dir;
  bool nvrtc_only = false, ptx_only = false;
  std::vector<std::size_t> parts = {
      4096};  // --parts 4096,16384: partition sizes of the compiled runs
  unsigned log2_patterns = 22, cpu_log2_patterns = 24, dplr_n = 256, arith_log2_patterns = 24;
  // --auto-log2-patterns: the automatic run (hyp: 2 less); 0: none
  unsigned auto_log2_patterns = 32;
  // --patterns-per-thread 1,2,4: the compiled arithmetic runs
  std::vector<std::uint32_t> patterns_per_thread = {1, 2, 4};
  // --ptxas-levels 3,1: ptxas -O levels of the covered PTX kernels (issue 26, item 3's lever)
  std::vector<std::uint32_t> ptxas_levels = {3};
  // --partitions fixed,min-traffic: kernel cuts (issue 26, item 1's min-cut lever)
  std::vector<kernels::PartitionRule> partitions = {kernels::PartitionRule::fixed};
};

const char* rule_name(kernels::PartitionRule r) {
  return r == kernels::PartitionRule::fixed ? "fixed cuts" : "min-traffic cuts";
}

// Median kernel seconds of 3 runs after a warm-up (seed varies, so no run reuses inputs).
double time_gpu(const Program& p, RunOptions ro, const gpu::LaunchConfig& lc, gpu::Timing* last) {
  gpu::run_program_gpu(p, ro, lc);
  std::vector<double> t;
  for (int i = 0; i < 3; ++i) {
    ro.patterns.seed += 1;
    gpu::Timing tm;
    gpu::run_program_gpu(p, ro, lc, &tm);
    t.push_back(tm.kernel_seconds);
    if (last) *last = tm;
  }
  return median(t);
}

// The anchor binary's line "anchor ands=N patterns=P seconds=S rate=R regs=G local=L".
struct Anchor {
  double rate = 0;
  int regs = 0;
  long local = 0;
};
std::optional<Anchor> run_anchor(const std::string& dir, const std::string& name, unsigned lg) {
  const std::string bin = dir + "/anchor_" + name;
  if (dir.empty() || !std::filesystem::exists(bin)) return std::nullopt;
  FILE* f = popen((bin + " " + std::to_string(lg) + " 2>&1").c_str(), "r");
  if (!f) return std::nullopt;
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  pclose(f);
  static const std::regex line(R"(rate=([0-9.eE+]+) regs=([0-9]+) local=([0-9]+))");
  std::smatch m;
  if (!std::regex_search(out, m, line)) {
    std::fprintf(stderr, "anchor %s: %s\n", name.c_str(), out.c_str());
    return std::nullopt;
  }
  return Anchor{std::stod(m[1]), std::stoi(m[2]), std::stol(m[3])};
}

// Cross-partition traffic of a compiled program: bytes per unit (word / pattern) per prime.
double cross_bytes_per_unit(const Program& p, std::size_t part) {
  kernels::SourceOptions so;
  so.max_gate_instructions = part;
  const auto ks = kernels::kernel_source(p, 1, so);
  double n = 0;
  for (const auto& q : ks.parts) n += q.loads + q.stores;
  return n * (p.boolean ? 8 : 4);
}

// The same for the PTX kernels: row loads and stores of the LUT kernels and the sink rows read,
// 4 bytes per unit of 32 patterns, as bytes per 64-pattern word.
double ptx_bytes_per_word(const Program& p, std::size_t part, bool cover) {
  kernels::PtxOptions po;
  po.max_gate_instructions = part;
  po.cover = cover;
  const auto prog = kernels::ptx_program(p, po);
  double n = static_cast<double>(prog.output_rows.size() + prog.pair_rows.size());
  for (const auto& q : prog.parts) n += q.loads + q.stores;
  return n * 8;
}

struct CompiledRun {
  double seconds = 0, compile_seconds = 0;
  gpu::Timing t;
};
// First call compiles (fresh cache: compile time), then the median of 3 timed runs.
CompiledRun time_compiled(const Program& p, RunOptions ro, gpu::LaunchConfig lc) {
  lc.kernel = gpu::KernelChoice::compiled;
  CompiledRun r;
  gpu::Timing first;
  gpu::run_program_gpu(p, ro, lc, &first);
  r.compile_seconds = first.compile_seconds;
  if (first.path != "compiled")
    std::fprintf(stderr, "compiled path not taken or cached: %s %s\n", first.path.c_str(),
                 first.notice.c_str());
  r.seconds = time_gpu(p, ro, lc, &r.t);
  return r;
}

void compiled_section(const Args& a, const gpu::DeviceInfo& d, double bw, double mont,
                      nlohmann::ordered_json& J, std::vector<std::string>& table) {
  const std::uint64_t patterns = std::uint64_t{1} << a.log2_patterns;
  for (const char* name : {"multiplier", "hyp"}) {
    const std::string path = a.epfl + "/" + name + ".aig";
    if (!std::filesystem::exists(path)) continue;
    const Circuit c = load_aiger(path);
    RunOptions ro;
    ro.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, patterns};
    // Interpreter: its best two configurations of the sweep above.
    double interp = 0;
    Program p;
    for (auto [T, W] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{128, 1}, {256, 2}}) {
      ProgramOptions po;
      po.slot_capacity = gpu::slot_capacity(d, true, false, T, 1, W);
      p = lower_program(c, po);
      gpu::LaunchConfig lc;
      lc.threads = T;
      lc.words_per_thread = W;
      lc.kernel = gpu::KernelChoice::interpreter;
      interp = std::max(interp, static_cast<double>(p.gate_instructions) *
                                    static_cast<double>(patterns) / time_gpu(p, ro, lc, nullptr));
    }
    const auto anchor = run_anchor(a.anchor_dir, name, a.log2_patterns);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    // The levers of issue 26, one at a time against the PTX default (cover, loads at first use,
    // one block per SM guaranteed): no cover; loads issued 32 LUTs ahead or all at the top; 3 or
    // 4 blocks per SM (≤ 170 / 128 registers); ptxas at the --ptxas-levels below 3; and the
    // CUDA C++ kernels through NVRTC.
    struct Variant {
      std::string name;
      gpu::BooleanKernels kernels;
      bool cover;
      std::uint32_t min_blocks = 1;
      std::size_t lookahead = 0;
      std::uint32_t ptxas = 3;
      kernels::PartitionRule partition = kernels::PartitionRule::fixed;
    };
    std::vector<Variant> variants = {
        {"PTX, LUT3 cover", gpu::BooleanKernels::ptx, true},
        {"PTX, one lop3 per AND", gpu::BooleanKernels::ptx, false},
        {"PTX, cover, loads 32 ahead", gpu::BooleanKernels::ptx, true, 1, 32},
        {"PTX, cover, loads at the top", gpu::BooleanKernels::ptx, true, 1, 1u << 30},
        {"PTX, cover, 3 blocks/SM", gpu::BooleanKernels::ptx, true, 3, 0},
        {"PTX, cover, 4 blocks/SM", gpu::BooleanKernels::ptx, true, 4, 0}};
    for (std::uint32_t level : a.ptxas_levels)
      if (level != 3)
        variants.push_back({fmt::format("PTX, cover, ptxas -O{}", level), gpu::BooleanKernels::ptx,
                            true, 1, 0, level});
    for (kernels::PartitionRule rule : a.partitions)
      if (rule != kernels::PartitionRule::fixed)
        variants.push_back({fmt::format("PTX, cover, {}", rule_name(rule)),
                            gpu::BooleanKernels::ptx, true, 1, 0, 3, rule});
    variants.push_back({"CUDA C++ (NVRTC)", gpu::BooleanKernels::cuda_cpp, true});
    for (const Variant& v : variants)
      for (std::size_t part : a.parts) {
        gpu::LaunchConfig lc;
        lc.max_gate_instructions = part;
        lc.boolean_kernels = v.kernels;
        lc.lut_cover = v.cover;
        lc.lut_min_blocks_per_sm = v.min_blocks;
        lc.lut_load_lookahead = v.lookahead;
        lc.ptxas_optimization = v.ptxas;
        lc.partition = v.partition;
        const CompiledRun r = time_compiled(p, ro, lc);
        const double rate =
            static_cast<double>(p.gate_instructions) * static_cast<double>(patterns) / r.seconds;
        const double cross =
            (v.kernels == gpu::BooleanKernels::ptx ? ptx_bytes_per_word(p, part, v.cover)
                                                   : cross_bytes_per_unit(p, part)) *
            static_cast<double>(patterns) / 64;
        rows.push_back({{"kernels_written_as", v.name},
                        {"max_gate_instructions", part},
                        {"kernels", r.t.kernels},
                        {"lop3", r.t.luts},
                        {"cross_values", r.t.cross_values},
                        {"registers", r.t.registers},
                        {"local_bytes", r.t.local_bytes},
                        {"compile_seconds", r.compile_seconds},
                        {"seconds", r.seconds},
                        {"gate_evaluations_per_s", rate},
                        {"cross_traffic_fraction_of_copy_bandwidth", cross / r.seconds / bw}});
        table.push_back(fmt::format(
            "compiled {:10} ANDs {:6} [{}] part {:5}: {:.3g} gate-evals/s  (interp {:.3g}, "
            "x{:.1f}; anchor {} → {})  compile {:.2f} s, run {:.2f} ms; {} kernels, {} lop3, {} "
            "regs, {} B local, {} cross values ({:.1f}% of copy bw)",
            name, p.gate_instructions, v.name, part, rate, interp, rate / interp,
            anchor ? fmt::format("{:.3g} [{} regs, {} B local]", anchor->rate, anchor->regs,
                                 anchor->local)
                   : "n/a",
            anchor ? fmt::format("{:.2f}x anchor", rate / anchor->rate) : "n/a", r.compile_seconds,
            1e3 * r.seconds, r.t.kernels, r.t.luts, r.t.registers, r.t.local_bytes,
            r.t.cross_values, 100 * cross / r.seconds / bw));
        std::printf("%s\n", table.back().c_str());
      }
    // The automatic choice on a long run with nothing cached (item 3 of issue 26): wall time of
    // run_program_gpu from the call to the result, the interpreter's chunks while the kernels
    // compile in the background; beside it the interpreter alone (measured where it takes
    // ≤ 15 s, else from its rate) and compile-then-run.
    nlohmann::ordered_json automatic;
    if (a.auto_log2_patterns) {
      const unsigned lg =
          std::string(name) == "hyp" ? a.auto_log2_patterns - 2 : a.auto_log2_patterns;
      RunOptions big;
      big.patterns = {patterns::Mode::bits_random, 9, 2, 0, 0, std::uint64_t{1} << lg};
      const double work =
          static_cast<double>(p.gate_instructions) * static_cast<double>(big.patterns.count);
      const char* old = std::getenv("RNNCC_KERNEL_CACHE");
      const std::string keep = old ? old : "";
      const auto fresh = std::filesystem::temp_directory_path() /
                         ("rnncc-auto-" + std::string(name) + std::to_string(::getpid()));
      setenv("RNNCC_KERNEL_CACHE", fresh.c_str(), 1);
      gpu::LaunchConfig lc;  // as rnncc eval --device gpu runs it (circuits/eval/bulk.cpp)
      lc.threads = 256;
      lc.words_per_thread = 2;
      gpu::Timing t;
      auto t0 = Clock::now();
      gpu::run_program_gpu(p, big, lc, &t);
      const double wall = seconds_since(t0);
      std::filesystem::remove_all(fresh);
      double interp_wall = work / interp;
      bool measured = false;
      if (interp_wall <= 15) {
        gpu::LaunchConfig li;
        li.kernel = gpu::KernelChoice::interpreter;
        li.threads = 256;
        li.words_per_thread = 2;
        t0 = Clock::now();
        gpu::run_program_gpu(p, big, li, nullptr);
        interp_wall = seconds_since(t0);
        measured = true;
      }
      const double compiled_rate =
          rows.empty() ? 0 : rows[0]["gate_evaluations_per_s"].get<double>();
      const double first_then_run = t.compile_seconds + work / compiled_rate;
      if (old)
        setenv("RNNCC_KERNEL_CACHE", keep.c_str(), 1);
      else
        unsetenv("RNNCC_KERNEL_CACHE");
      automatic = {{"patterns", big.patterns.count},
                   {"path", t.path},
                   {"switched_at_pattern", t.switched_at},
                   {"compile_seconds", t.compile_seconds},
                   {"wall_seconds", wall},
                   {"interpreter_alone_seconds", interp_wall},
                   {"interpreter_alone_measured", measured},
                   {"compile_then_run_seconds_estimated", first_then_run}};
      table.push_back(fmt::format(
          "automatic {:10} 2^{} patterns, nothing cached: {:.2f} s wall [{}; switched after {:.3g} "
          "patterns, compile {:.2f} s]; interpreter alone {:.2f} s ({}); compile then run ≈ {:.2f} "
          "s",
          name, lg, wall, t.path, static_cast<double>(t.switched_at), t.compile_seconds,
          interp_wall, measured ? "measured" : "from its rate", first_then_run));
      std::printf("%s\n", table.back().c_str());
    }
    J["compiled"][name] = {{"ands", p.gate_instructions},
                           {"automatic", automatic},
                           {"patterns", patterns},
                           {"interpreter_gate_evaluations_per_s", interp},
                           {"anchor_gate_evaluations_per_s", anchor ? anchor->rate : 0.0},
                           {"anchor_registers", anchor ? anchor->regs : 0},
                           {"anchor_local_bytes", anchor ? anchor->local : 0},
                           {"runs", rows}};
  }
  if (!std::filesystem::exists(a.dplr)) return;
  const Model m = load_model(a.dplr);
  CompileOptions co;
  co.acceptance = false;
  co.scan = ScanKind::sequential;
  const Circuit c = compile_lrnn(m, a.dplr_n, co).circuit;
  const std::uint64_t ap = std::uint64_t{1} << a.arith_log2_patterns;
  const std::vector<std::uint32_t> primes4 = {2147483647u, 2147483629u, 2147483587u, 2147483579u};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t np : {std::size_t{1}, std::size_t{4}}) {
    ProgramOptions po;
    po.slot_capacity = gpu::slot_capacity(d, false, false, 256, np);
    const Program p = lower_program(c, po);
    const double muls = static_cast<double>(std::count_if(
        p.code.begin(), p.code.end(), [](const Instr& in) { return in.op() == ProgOp::mul; }));
    RunOptions ro;
    ro.primes.assign(primes4.begin(), primes4.begin() + static_cast<std::ptrdiff_t>(np));
    ro.patterns = {patterns::Mode::strings_random,
                   1,
                   static_cast<std::uint32_t>(m.alphabet.size()),
                   a.dplr_n,
                   0,
                   ap};
    gpu::LaunchConfig li;
    li.threads = 256;
    li.kernel = gpu::KernelChoice::interpreter;
    const double si = time_gpu(p, ro, li, nullptr);
    // Patterns a thread evaluates side by side (item 2 of issue 26): independent chains.
    for (std::uint32_t kpt : a.patterns_per_thread) {
      gpu::LaunchConfig lk;
      lk.patterns_per_thread = kpt;
      const CompiledRun r = time_compiled(p, ro, lk);
      const double work = static_cast<double>(p.gate_instructions) * static_cast<double>(ap) *
                          static_cast<double>(np);
      const double rate = work / r.seconds, irate = work / si;
      const double mul_rate = muls * static_cast<double>(ap) * static_cast<double>(np) / r.seconds;
      rows.push_back({{"primes", np},
                      {"patterns_per_thread", kpt},
                      {"operations", p.gate_instructions},
                      {"multiplications", muls},
                      {"kernels", r.t.kernels},
                      {"registers", r.t.registers},
                      {"local_bytes", r.t.local_bytes},
                      {"compile_seconds", r.compile_seconds},
                      {"seconds", r.seconds},
                      {"gate_evaluations_per_s_per_prime", rate},
                      {"interpreter_gate_evaluations_per_s_per_prime", irate},
                      {"fraction_of_montgomery_peak", mul_rate / mont}});
      table.push_back(fmt::format(
          "compiled arith DPLR d=3 n={} ops {} (mul {}) primes={} patterns/thread={}: {:.3g} "
          "gate-evals/s (each prime "
          "counted; interp {:.3g}, x{:.1f}); muls at {:.0f}% of the Montgomery peak {:.3g}/s; "
          "compile {:.2f} s, run {:.2f} ms; {} kernels, {} regs, {} B local",
          a.dplr_n, p.gate_instructions, muls, np, kpt, rate, irate, rate / irate,
          100 * mul_rate / mont, mont, r.compile_seconds, 1e3 * r.seconds, r.t.kernels,
          r.t.registers, r.t.local_bytes));
      std::printf("%s\n", table.back().c_str());
    }
  }
  J["compiled"]["arithmetic"] = rows;
}

// No device: NVRTC compile times (and, with $RNNCC_KERNEL_CACHE, a kernel cache filled ahead of a
// device run) of the compiled section's kernels for sm_90: the EPFL circuits at --parts and the
// DPLR circuit mod 1 and 4 primes, 128 threads per block — the sources the device run generates.
int nvrtc_only(const Args& a) {
  // Every partition of a program compiled as the device run would (compile_program: in parallel
  // on this host's cores, through the kernel cache), and the times it reports.
  auto compile_all = [](const std::string& what, const Program& p, const RunOptions& ro,
                        const gpu::LaunchConfig& lc) {
    const gpu::compiled::Compiled c = gpu::compiled::compile_program(p, ro, lc, 90);
    double total = 0, longest = 0;
    for (const auto& cubin : c.cubins) {
      total += cubin.seconds;
      longest = std::max(longest, cubin.seconds);
    }
    std::uint64_t loads = 0, stores = 0;  // per thread and unit: the cross traffic
    if (c.ptx)
      for (const auto& q : c.lut.parts) loads += q.loads, stores += q.stores;
    else
      for (const auto& q : c.source.parts) loads += q.loads, stores += q.stores;
    std::printf(
        "%s: %zu kernels, %zu lop3, %u cross values (%llu loads + %llu stores), %s %.1f s of "
        "compile time (longest kernel %.2f s), %.1f s wall on %u threads\n",
        what.c_str(), c.cubins.size(), c.ptx ? c.lut.net.luts : 0,
        c.ptx ? c.lut.rows : c.source.cross_values, static_cast<unsigned long long>(loads),
        static_cast<unsigned long long>(stores), c.ptx ? "nvJitLink" : "NVRTC", total, longest,
        c.seconds, std::thread::hardware_concurrency());
  };
  const gpu::DeviceInfo h200{true, "", "H200", 132, 0, 232448, 0};  // slot capacity as on the H200
  for (const char* name : {"multiplier", "hyp"}) {
    const std::string path = a.epfl + "/" + name + ".aig";
    if (!std::filesystem::exists(path)) continue;
    ProgramOptions po;
    po.slot_capacity = gpu::slot_capacity(h200, true, false, 256, 1, 2);
    const Program p = lower_program(load_aiger(path), po);
    RunOptions ro;
    ro.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, 64};
    for (std::size_t part : a.parts) {
      gpu::LaunchConfig lc;
      lc.max_gate_instructions = part;
      if (a.ptx_only)
        for (kernels::PartitionRule rule : a.partitions)
          for (std::uint32_t level : a.ptxas_levels)
            for (bool cover : {true, false}) {
              lc.lut_cover = cover;
              lc.ptxas_optimization = level;
              lc.partition = rule;
              compile_all(
                  fmt::format("{} ({} ANDs), PTX {}, ptxas -O{}, partitions of {}, {}", name,
                              p.gate_instructions, cover ? "covered" : "one lop3 per AND", level,
                              part, rule_name(rule)),
                  p, ro, lc);
            }
      else {
        lc.boolean_kernels = gpu::BooleanKernels::cuda_cpp;
        compile_all(fmt::format("{} ({} gate instructions), CUDA C++, partitions of {}", name,
                                p.gate_instructions, part),
                    p, ro, lc);
      }
    }
  }
  if (a.ptx_only || !std::filesystem::exists(a.dplr)) return 0;
  const Model m = load_model(a.dplr);
  CompileOptions co;
  co.acceptance = false;
  co.scan = ScanKind::sequential;
  const Circuit c = compile_lrnn(m, a.dplr_n, co).circuit;
  for (std::uint32_t np : {1u, 4u}) {
    ProgramOptions po;
    po.slot_capacity = gpu::slot_capacity(h200, false, false, 256, np);
    const Program p = lower_program(c, po);
    RunOptions ro;
    ro.primes.assign(np, 2147483647u);  // the sources depend on the number of primes only
    compile_all(fmt::format("DPLR d=3 n={} ({} operations) mod {} primes", a.dplr_n,
                            p.gate_instructions, np),
                p, ro, {});
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--epfl")
      a.epfl = v;
    else if (k == "--abc")
      a.abc = v;
    else if (k == "--dplr")
      a.dplr = v;
    else if (k == "--dplr-n")
      a.dplr_n = static_cast<unsigned>(std::stoul(v));
    else if (k == "--log2-patterns")
      a.log2_patterns = static_cast<unsigned>(std::stoul(v));
    else if (k == "--cpu-log2-patterns")
      a.cpu_log2_patterns = static_cast<unsigned>(std::stoul(v));
    else if (k == "--arith-log2-patterns")
      a.arith_log2_patterns = static_cast<unsigned>(std::stoul(v));
    else if (k == "--json")
      a.json = v;
    else if (k == "--sections")
      a.sections = v;
    else if (k == "--anchor-dir")
      a.anchor_dir = v;
    else if (k == "--patterns-per-thread")
      a.patterns_per_thread = comma_list(v);
    else if (k == "--ptxas-levels")
      a.ptxas_levels = comma_list(v);
    else if (k == "--partitions") {
      a.partitions.clear();
      for (const char* rule : {"fixed", "min-traffic"})
        if (("," + v + ",").find("," + std::string(rule) + ",") != std::string::npos)
          a.partitions.push_back(rule[0] == 'f' ? kernels::PartitionRule::fixed
                                                : kernels::PartitionRule::min_traffic);
      if (a.partitions.empty()) {
        std::fprintf(stderr, "--partitions takes fixed and/or min-traffic, got %s\n", v.c_str());
        return 2;
      }
    } else if (k == "--auto-log2-patterns")
      a.auto_log2_patterns = static_cast<unsigned>(std::stoul(v));
    else if (k == "--ptx-only")
      a.ptx_only = v == "1";
    else if (k == "--nvrtc-only")
      a.nvrtc_only = v == "1";
    else if (k == "--parts")
      a.parts = comma_list<std::size_t>(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach a pipe as they are printed
  if (a.nvrtc_only || a.ptx_only) return nvrtc_only(a);
  const gpu::DeviceInfo d = gpu::probe();
  if (!d.available) {
    std::printf("no GPU: %s\n", d.why_not.c_str());
    return 0;
  }
  const unsigned cores = std::thread::hardware_concurrency();
  nlohmann::ordered_json J;
  J["device"] = d.name;
  J["multiprocessors"] = d.multiprocessors;
  J["cpu_threads"] = cores;
  std::vector<std::string> table;

  // ---- ceilings ----
  const double bw = gpu::copy_bandwidth();
  const double mont = gpu::montgomery_multiply_rate();
  J["copy_bandwidth_bytes_per_s"] = bw;
  J["montgomery_multiplies_per_s"] = mont;
  table.push_back(
      fmt::format("ceilings: copy {:.2f} TB/s, Montgomery multiply {:.3g}/s", bw / 1e12, mont));

  if (a.sections == "all" || a.sections == "compiled") compiled_section(a, d, bw, mont, J, table);
  if (a.sections != "all") {
    if (!a.json.empty()) std::ofstream(a.json) << J.dump(2) << "\n";
    std::printf("\n==== %s, %d SMs ====\n", d.name.c_str(), d.multiprocessors);
    for (const auto& line : table) std::printf("%s\n", line.c_str());
    return 0;
  }

  // ---- boolean ----
  for (const char* name : {"multiplier", "hyp"}) {
    const std::string path = a.epfl + "/" + name + ".aig";
    if (!std::filesystem::exists(path)) {
      table.push_back(fmt::format("boolean {}: {} not found", name, path));
      continue;
    }
    const Circuit c = load_aiger(path);
    const std::uint64_t patterns = std::uint64_t{1} << a.log2_patterns;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    double best = 0;
    std::string best_cfg;
    std::size_t ands = 0;
    for (auto [T, W] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
             {64, 1}, {128, 1}, {256, 1}, {512, 1}, {1024, 1}, {128, 2}, {256, 2}, {512, 2}}) {
      ProgramOptions po;
      po.slot_capacity = gpu::slot_capacity(d, true, false, T, 1, W);
      if (po.slot_capacity < 3) continue;
      const Program p = lower_program(c, po);
      ands = p.gate_instructions;
      RunOptions ro;
      ro.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, patterns};
      gpu::LaunchConfig lc;
      lc.threads = T;
      lc.words_per_thread = W;
      gpu::Timing tm;
      const double s = time_gpu(p, ro, lc, &tm);
      const double rate =
          static_cast<double>(p.gate_instructions) * static_cast<double>(patterns) / s;
      const double words = static_cast<double>(patterns) / 64;
      const double spill_bytes = static_cast<double>(p.spill_reads + p.spill_stores) * 8 * words;
      rows.push_back({{"threads", T},
                      {"words_per_thread", W},
                      {"slots", p.slots},
                      {"spill_slots", p.spill_slots},
                      {"spill_reads", p.spill_reads},
                      {"spill_stores", p.spill_stores},
                      {"blocks", tm.blocks},
                      {"seconds", s},
                      {"gate_evaluations_per_s", rate},
                      {"spill_fraction_of_copy_bandwidth", spill_bytes / s / bw}});
      if (rate > best) {
        best = rate;
        best_cfg = fmt::format("T={} W={} slots={} spills r/w {}/{} ({:.1f}% of copy bw)", T, W,
                               p.slots, p.spill_reads, p.spill_stores, 100 * spill_bytes / s / bw);
      }
    }
    // The fastest CPU path: the wide evaluator on all cores (the chosen block, the best ISA).
    const std::uint64_t cpu_patterns = std::uint64_t{1} << a.cpu_log2_patterns;
    WideOptions wo;
    const Program wide =
        lower_program(c, wide_program_options(choose_block_words(
                             lower_program(c, wide_program_options(32)), cpu_patterns, cores)));
    const double cpu_rate = static_cast<double>(ands) * static_cast<double>(cpu_patterns) /
                            time_wide(wide, cpu_patterns, wo);
    // The best peer: ABC's simulator, one pinned process per core, 2^20 patterns each.
    const unsigned abc_words = 32768;
    const double abc = abc_processes_rate(a.abc, path, ands, abc_words, cores);
    const double naive = bw / 24.0 * 64.0;
    J["boolean"][name] = {{"ands", ands},
                          {"patterns", patterns},
                          {"configs", rows},
                          {"best_gate_evaluations_per_s", best},
                          {"cpu_wide_gate_evaluations_per_s", cpu_rate},
                          {"cpu_threads", cores},
                          {"abc_processes", cores},
                          {"abc_sim_gate_evaluations_per_s", abc},
                          {"naive_per_level_roofline", naive}};
    table.push_back(
        fmt::format("boolean {:10} ANDs {:7}  GPU {:.3g} gate-evals/s [{}]  CPU wide ({} thr) "
                    "{:.3g}  GPU/CPU {:.1f}x  ABC sim ({} proc) {}  GPU/ABC {}  naive roofline "
                    "{:.3g} (GPU/naive {:.2f}x)",
                    name, ands, best, best_cfg, cores, cpu_rate, best / cpu_rate, cores,
                    abc > 0 ? fmt::format("{:.3g}", abc) : "n/a",
                    abc > 0 ? fmt::format("{:.0f}x", best / abc) : "n/a", naive, best / naive));
  }

  // ---- arithmetic ----
  if (std::filesystem::exists(a.dplr)) {
    const Model m = load_model(a.dplr);
    CompileOptions co;
    co.acceptance = false;
    co.scan = ScanKind::sequential;
    const Circuit c = compile_lrnn(m, a.dplr_n, co).circuit;
    const std::uint64_t patterns = std::uint64_t{1} << a.arith_log2_patterns;
    const std::vector<std::uint32_t> primes4 = {2147483647u, 2147483629u, 2147483587u, 2147483579u};
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    double best1 = 0;
    std::size_t ops = 0, muls = 0;
    for (std::uint32_t T : {256u, 1024u}) {
      for (std::size_t np : {std::size_t{1}, std::size_t{4}}) {
        for (bool shadow : {false, true}) {
          ProgramOptions po;
          po.slot_capacity = gpu::slot_capacity(d, false, shadow, T, np);
          const Program p = lower_program(c, po);
          ops = p.gate_instructions;
          muls = static_cast<std::size_t>(
              std::count_if(p.code.begin(), p.code.end(),
                            [](const Instr& in) { return in.op() == ProgOp::mul; }));
          RunOptions ro;
          ro.primes.assign(primes4.begin(), primes4.begin() + static_cast<std::ptrdiff_t>(np));
          ro.magnitude = shadow;
          ro.patterns = {patterns::Mode::strings_random,
                         1,
                         static_cast<std::uint32_t>(m.alphabet.size()),
                         a.dplr_n,
                         0,
                         patterns};
          gpu::LaunchConfig lc;
          lc.threads = T;
          const double s = time_gpu(p, ro, lc, nullptr);
          // Gate evaluations counting each prime's evaluation of a gate as one.
          const double per_prime =
              static_cast<double>(ops) * static_cast<double>(patterns) * np / s;
          const double mul_rate =
              static_cast<double>(muls) * static_cast<double>(patterns) * np / s;
          rows.push_back({{"threads", T},
                          {"primes", np},
                          {"shadow", shadow},
                          {"slots", p.slots},
                          {"spill_slots", p.spill_slots},
                          {"seconds", s},
                          {"gate_evaluations_per_s_per_prime", per_prime},
                          {"fraction_of_montgomery_peak", mul_rate / mont}});
          if (!shadow && np == 1) best1 = std::max(best1, per_prime);
          table.push_back(fmt::format(
              "arith DPLR d=3 n={} ops {} (mul {}) T={} primes={} shadow={}: {:.3g} gate-evals/s "
              "(each prime "
              "counted), muls at {:.0f}% of the Montgomery peak",
              a.dplr_n, ops, muls, T, np, shadow ? "on" : "off", per_prime, 100 * mul_rate / mont));
        }
      }
    }
    // The fastest CPU path: the wide evaluator mod the first prime on all cores.
    // The same strings as the GPU runs (random strings of length n), 2^20 of them.
    const std::uint64_t cpu_patterns = std::uint64_t{1} << std::min(a.cpu_log2_patterns, 20u);
    const Program wide = lower_program(c, wide_program_options(32));
    RunOptions cro;
    cro.primes = {primes4[0]};
    cro.patterns = {patterns::Mode::strings_random,
                    1,
                    static_cast<std::uint32_t>(m.alphabet.size()),
                    a.dplr_n,
                    0,
                    cpu_patterns};
    const double cpu_rate = static_cast<double>(ops) * static_cast<double>(cpu_patterns) /
                            time_wide(wide, cro, WideOptions{});
    J["arithmetic"] = {{"model", a.dplr},
                       {"n", a.dplr_n},
                       {"operations", ops},
                       {"multiplications", muls},
                       {"patterns", patterns},
                       {"configs", rows},
                       {"best_gate_evaluations_per_s_per_prime", best1},
                       {"cpu_wide_gate_evaluations_per_s", cpu_rate},
                       {"cpu_threads", cores}};
    table.push_back(fmt::format(
        "arith CPU wide ({} thr) {:.3g} gate-evals/s mod one prime; GPU/CPU (one prime) {:.1f}x",
        cores, cpu_rate, best1 / cpu_rate));
  }
  if (!a.json.empty()) std::ofstream(a.json) << J.dump(2) << "\n";
  std::printf("\n==== %s, %d SMs ====\n", d.name.c_str(), d.multiprocessors);
  for (const auto& line : table) std::printf("%s\n", line.c_str());
  return 0;
}
