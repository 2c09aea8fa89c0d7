// Which evaluator runs a program (gpu.hpp, run_program_gpu): the interpreter (gpu.cu), the
// compiled kernels (compiled.hpp), or the interpreter while the kernels compile in the background,
// switching the remaining patterns over when they are ready.
//
// The rule for KernelChoice::automatic. With W the work (gate instructions × patterns × primes),
// R_i and R_c the interpreter's and the compiled kernels' rates and C the compile time:
//   - every kernel in the disk cache (C ≈ milliseconds): compiled;
//   - else, when the interpreter alone would take longer than compiling, W / R_i > C:
//     interpret at once and compile in the background. The run then takes about
//     C + (W − C·R_i) / R_c, which is less than both the interpreter's W / R_i and compiling first,
//     C + W / R_c: never slower than the interpreter, up to the estimate of C;
//   - else the interpreter (the kernels would not be ready before it is done).
// R and C, measured on one H200 and its 16-core host (docs/performance.md, "Compiled kernels";
// bench/results/h200-2026-12-04-ptx): boolean, the interpreter 1.14–1.33·10¹³ gate evals/s, the
// PTX kernels 1.05·10¹⁴ (hyp) – 1.6·10¹⁴ (multiplier), compiled in 0.63 s (multiplier, 7 kernels)
// and 4.7 s (hyp, 53 kernels); arithmetic per prime, the interpreter 2.3–3.1·10¹¹, compiled
// 7.8·10¹¹ – 1.2·10¹², NVRTC 7.2 s (DPLR d = 3, 14 kernels) – 9.7 s (56 kernels).
// C ≈ 0.5 s + k × instructions × primes / min(cores, kernels): k = 3.5·10⁻⁴ s per gate
// instruction for PTX (hyp: 4.7 s ≈ k·214 335 / 16), 1.5·10⁻³ for CUDA C++ (hyp 17–20 s),
// 1.5·10⁻² per arithmetic operation and prime.
//
// The background run interprets chunks of about 50 ms of work, polls the compile after each,
// and on a compile failure keeps interpreting (the notice says why). When the interpreter
// finishes first, the compile is cancelled: the partitions in flight finish (their cubins reach
// the disk cache), no new one starts — unless the run is one block of a larger job
// (LaunchConfig::job_patterns, algebra/sharded_run.hpp), whose next blocks will use the kernels:
// then it completes and fills the cache.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>
#include <thread>

#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/gpu.hpp"

namespace rnncc::gpu {

namespace {

using Clock = std::chrono::steady_clock;

struct Estimate {
  double interpreter_seconds = 0, compile_seconds = 0;
};

Estimate estimate(const Program& p, const RunOptions& o, const LaunchConfig& config) {
  const double primes =
      p.boolean ? 1.0 : static_cast<double>(std::max<std::size_t>(o.primes.size(), 1));
  const double patterns = static_cast<double>(std::max(o.patterns.count, config.job_patterns));
  const double work = static_cast<double>(p.gate_instructions) * patterns * primes;
  const double r_interp = p.boolean ? 1.14e13 : 2.3e11;
  const double per_kernel = config.max_gate_instructions
                                ? static_cast<double>(config.max_gate_instructions)
                                : static_cast<double>(p.gate_instructions);
  const double kernels =
      std::ceil(static_cast<double>(p.gate_instructions) / std::max(per_kernel, 1.0));
  const double cores = std::max(1.0, static_cast<double>(std::thread::hardware_concurrency()));
  const double k = !p.boolean                                      ? 1.5e-2
                   : config.boolean_kernels == BooleanKernels::ptx ? 3.5e-4
                                                                   : 1.5e-3;
  Estimate e;
  e.interpreter_seconds = work / r_interp;
  e.compile_seconds = 0.5 + k * static_cast<double>(p.gate_instructions) * primes /
                                std::min(cores, std::max(kernels, 1.0));
  return e;
}

// Adds the digests of `part` (the next patterns of the run) to `into`.
void merge(ProgramResult& into, const ProgramResult& part, const RunOptions& o) {
  into.patterns += part.patterns;
  if (into.ones.empty()) into.ones.assign(part.ones.size(), 0);
  for (std::size_t k = 0; k < part.ones.size(); ++k) into.ones[k] += part.ones[k];
  if (into.sums.empty()) into.sums.assign(part.sums.size(), std::vector<std::uint64_t>{});
  for (std::size_t j = 0; j < part.sums.size(); ++j) {
    // Sums are residues mod the j-th prime.
    if (into.sums[j].empty()) into.sums[j].assign(part.sums[j].size(), 0);
    for (std::size_t k = 0; k < part.sums[j].size(); ++k)
      into.sums[j][k] = (into.sums[j][k] + part.sums[j][k]) % o.primes.at(j);
  }
  if (into.mismatches.empty()) into.mismatches.assign(part.mismatches.size(), 0);
  for (std::size_t k = 0; k < part.mismatches.size(); ++k) into.mismatches[k] += part.mismatches[k];
  if (part.first_mismatch && (!into.first_mismatch || *part.first_mismatch < *into.first_mismatch))
    into.first_mismatch = part.first_mismatch;
  auto& f = into.first_mismatches;
  f.insert(f.end(), part.first_mismatches.begin(), part.first_mismatches.end());
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  if (f.size() > o.max_first_mismatches) f.resize(o.max_first_mismatches);
  if (into.max_difference_bound.empty())
    into.max_difference_bound.assign(part.max_difference_bound.size(), 0.0);
  for (std::size_t k = 0; k < part.max_difference_bound.size(); ++k)
    into.max_difference_bound[k] =
        std::max(into.max_difference_bound[k], part.max_difference_bound[k]);
  into.stored.insert(into.stored.end(), part.stored.begin(), part.stored.end());
}

ProgramResult run_background(const Program& p, const RunOptions& o, const LaunchConfig& config,
                             Timing* timing) {
  const auto t0 = Clock::now();
  const int arch = compiled::device_arch();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  // The compile runs on its own thread; the future is waited for (or cancelled) below.
  std::future<compiled::Compiled> pending =
      std::async(std::launch::async, [&p, &o, config, arch, cancel] {
        return compiled::compile_program(p, o, config, arch, cancel.get());
      });
  // Leaving early (a device error): no new partition starts; the future's destructor then waits
  // for those in flight.
  struct CancelOnExit {
    std::shared_ptr<std::atomic<bool>> flag;
    ~CancelOnExit() { flag->store(true); }
  } cancel_on_exit{cancel};
  // Interpreter chunks of about 50 ms of work (whole 64-pattern words), at most chunk_patterns.
  const double r_interp = p.boolean ? 1.14e13 : 2.3e11;
  const double per_pattern =
      static_cast<double>(std::max<std::size_t>(p.gate_instructions, 1)) *
      (p.boolean ? 1.0 : static_cast<double>(std::max<std::size_t>(o.primes.size(), 1)));
  std::uint64_t step = static_cast<std::uint64_t>(0.05 * r_interp / per_pattern);
  step = std::min<std::uint64_t>(std::max<std::uint64_t>(step, 1 << 16), config.chunk_patterns);
  step = std::max<std::uint64_t>(step / 64 * 64, 64);
  ProgramResult total;
  Timing sum;
  std::string notice;
  std::optional<compiled::Compiled> ready;
  std::uint64_t done = 0, chunks = 0;
  bool failed = false;
  while (done < o.patterns.count) {
    if (!failed && !ready) {
      const bool wait =
          config.background_wait_after_chunks && chunks >= config.background_wait_after_chunks;
      if (wait || pending.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        try {
          ready = pending.get();
        } catch (const compiled::CompileError& e) {
          failed = true;
          notice = std::string("rnncc: ") + e.what() + "; running the interpreter";
        }
      }
    }
    RunOptions part = o;
    part.patterns.first = o.patterns.first + done;
    if (ready) {
      part.patterns.count = o.patterns.count - done;
      Timing t;
      merge(total, compiled::run(p, part, config, &t, &*ready), o);
      sum.kernel_seconds += t.kernel_seconds;
      sum.launches += t.launches;
      sum.compiler = t.compiler;
      sum.kernels = t.kernels;
      sum.registers = t.registers;
      sum.local_bytes = t.local_bytes;
      sum.cross_values = t.cross_values;
      sum.luts = t.luts;
      sum.compile_seconds = ready->seconds;
      sum.switched_at = done;
      done = o.patterns.count;
      break;
    }
    part.patterns.count = std::min(step, o.patterns.count - done);
    Timing t;
    merge(total, run_program_interpreter(p, part, config, &t), o);
    sum.kernel_seconds += t.kernel_seconds;
    sum.launches += t.launches;
    sum.blocks = t.blocks;
    sum.threads = t.threads;
    sum.slots = t.slots;
    done += part.patterns.count;
    ++chunks;
  }
  if (!ready && !failed) {
    // A block of a larger job (job_patterns): the kernels pay for themselves over the job, so
    // the compile finishes and fills the cache for the next blocks; a run of its own cancels it.
    if (config.job_patterns <= o.patterns.count) cancel->store(true);
    try {
      pending.get();
    } catch (const std::exception&) {  // cancelled, or a compile error nobody needs now
    }
  }
  if (!notice.empty()) std::fprintf(stderr, "%s\n", notice.c_str());
  if (timing) {
    *timing = sum;
    timing->total_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    timing->path = ready ? "interpreter, then compiled" : "interpreter";
    timing->notice = notice;
    if (!ready) timing->switched_at = o.patterns.count;
  }
  total.patterns = o.patterns.count;
  return total;
}

}  // namespace

ProgramResult run_program_gpu(const Program& p, const RunOptions& o, const LaunchConfig& config,
                              Timing* timing) {
  std::string why;
  enum class Path { interpreter, compiled, background } path = Path::interpreter;
  switch (config.kernel) {
    case KernelChoice::interpreter:
      break;
    case KernelChoice::compiled:
      if (compiled::supported(p, o, &why)) path = Path::compiled;
      break;
    case KernelChoice::background:
      if (compiled::supported(p, o, &why)) path = Path::background;
      break;
    case KernelChoice::automatic:
      if (compiled::supported(p, o)) {
        const Estimate e = estimate(p, o, config);
        // The cache check generates the kernels' text: only for runs of some length.
        if (e.interpreter_seconds > 0.01 && compiled::cached(p, o, config))
          path = Path::compiled;
        else if (e.interpreter_seconds > e.compile_seconds)
          path = Path::background;
      }
      break;
  }
  std::string notice;
  if (config.kernel != KernelChoice::interpreter && config.kernel != KernelChoice::automatic &&
      path == Path::interpreter)
    notice = "rnncc: compiled kernel not available (" + why + "); running the interpreter";
  if (path == Path::background) return run_background(p, o, config, timing);
  if (path == Path::compiled) {
    try {
      return compiled::run(p, o, config, timing);
    } catch (const compiled::CompileError& e) {
      notice = std::string("rnncc: ") + e.what() + "; running the interpreter";
    }
  }
  if (!notice.empty()) std::fprintf(stderr, "%s\n", notice.c_str());
  ProgramResult r = run_program_interpreter(p, o, config, timing);
  if (timing) timing->notice = notice;
  return r;
}

}  // namespace rnncc::gpu
