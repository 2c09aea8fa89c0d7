#include "circuits/eval/bulk.hpp"

#include <bit>
#include <chrono>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/patterns.hpp"
#include "circuits/eval/program.hpp"

namespace rnncc {

namespace {

constexpr std::uint64_t kP = kBulkPrime;

// Pattern k's value of input i (circuits/eval/patterns.hpp, bit modes).
struct Patterns {
  const BulkOptions& o;
  std::size_t inputs;
  patterns::Spec spec() const {
    return {o.exhaustive ? patterns::Mode::bits_exhaustive : patterns::Mode::bits_random, o.seed,
            2, 0, 0, count()};
  }
  std::uint64_t count() const { return o.exhaustive ? std::uint64_t{1} << inputs : o.batch; }
  // Boolean word w of input i: patterns 64w .. 64w+63.
  bits::Word word(std::uint64_t w, std::size_t i) const {
    return patterns::bool_word(spec(), w, static_cast<std::uint32_t>(i));
  }
  std::uint64_t value(std::uint64_t k, std::size_t i, bool boolean) const {
    if (boolean) return word(k / 64, i) >> (k % 64) & 1;
    return patterns::int_value(spec(), k, static_cast<std::uint32_t>(i)) % kP;
  }
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  return patterns::mix(h, v);
}

void check(const Circuit& c, const BulkOptions& o) {
  if (o.exhaustive && c.inputs().size() > o.max_exhaustive_inputs)
    throw InputError("--exhaustive",
                     "2^" + std::to_string(c.inputs().size()) + " assignments of " +
                         std::to_string(c.inputs().size()) + " inputs exceed the cap of 2^" +
                         std::to_string(o.max_exhaustive_inputs) + " (use --batch N)");
  if (!o.exhaustive && o.batch == 0) throw InputError("--batch", "expected at least one pattern");
}

// Two-input operations per pattern: the device program's gate instructions.
std::size_t two_input_operations(const Circuit& c) {
  ProgramOptions po;
  po.slot_capacity = 1u << 20;
  po.emit_outputs = false;
  try {
    return lower_program(c, po).gate_instructions;
  } catch (const std::invalid_argument&) {  // positive gates: count the circuit's operations
    return compute_stats(c).operations();
  }
}

void finish(BulkResult& r, const Circuit& c, double seconds) {
  r.seconds = seconds;
  r.gate_evaluations_per_pattern = two_input_operations(c);
  const double ops = static_cast<double>(r.gate_evaluations_per_pattern);
  r.gate_evaluations_per_second = seconds > 0 ? ops * static_cast<double>(r.patterns) / seconds : 0;
  std::uint64_t h = r.patterns;
  for (std::uint64_t v : r.per_output) h = mix(h, v);
  r.fingerprint = h;
}

}  // namespace

namespace {

// The GPU path: the device program, patterns generated and reduced on the device.
BulkResult evaluate_bulk_gpu(const Circuit& c, const BulkOptions& o, const gpu::DeviceInfo& d) {
  const Patterns pat{o, c.inputs().size()};
  BulkResult r;
  r.device = d.name;
  r.boolean = is_boolean(c);
  r.patterns = pat.count();
  ProgramOptions po;
  const std::uint32_t threads = r.boolean ? 512 : 1024;  // measured best (docs/performance.md)
  po.slot_capacity = gpu::slot_capacity(d, r.boolean, false, threads, 1);
  const Program p = lower_program(c, po);
  RunOptions ro;
  ro.patterns = pat.spec();
  ro.primes = {static_cast<std::uint32_t>(kP)};
  gpu::LaunchConfig lc;
  lc.threads = threads;
  gpu::Timing tm;
  const ProgramResult res = gpu::run_program_gpu(p, ro, lc, &tm);
  r.per_output = r.boolean ? res.ones : res.sums.at(0);
  finish(r, c, tm.kernel_seconds);
  return r;
}

}  // namespace

BulkResult evaluate_bulk(const Circuit& c, const BulkOptions& o) {
  check(c, o);
  std::string notice;
  if (o.device == BulkDevice::gpu) {
    const gpu::DeviceInfo d = gpu::probe();
    if (d.available) return evaluate_bulk_gpu(c, o, d);
    notice = "no GPU (" + d.why_not + "); evaluated on the CPU";
  }
  const Patterns pat{o, c.inputs().size()};
  BulkResult r;
  r.notice = notice;
  r.device = fmt::format("cpu ({} threads)", o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency()));
  r.boolean = is_boolean(c);
  r.per_output.assign(c.outputs().size(), 0);
  const auto t0 = std::chrono::steady_clock::now();
  if (r.boolean) {
    r.patterns = pat.count();
    const std::uint64_t words = (r.patterns + 63) / 64;
    const std::size_t ni = c.inputs().size(), no = c.outputs().size();
    const std::uint64_t chunk = 4096;  // words per batch call
    for (std::uint64_t w0 = 0; w0 < words; w0 += chunk) {
      const std::uint64_t n = std::min(chunk, words - w0);
      std::vector<bits::Word> in(n * std::max<std::size_t>(ni, 1));
      for (std::uint64_t w = 0; w < n; ++w)
        for (std::size_t i = 0; i < ni; ++i) in[w * ni + i] = pat.word(w0 + w, i);
      const auto out = ni ? evaluate_bits_batch(c, in, o.threads) : std::vector<bits::Word>();
      for (std::uint64_t w = 0; w < n; ++w) {
        const std::uint64_t valid = r.patterns - 64 * (w0 + w);
        const bits::Word mask = valid >= 64 ? ~bits::Word{0} : (bits::Word{1} << valid) - 1;
        for (std::size_t k = 0; k < no; ++k)
          r.per_output[k] += std::popcount(out[w * no + k] & mask);
      }
    }
  } else {
    r.patterns = pat.count();
    const ModP F(kP);
    std::vector<std::vector<std::uint64_t>> rows(r.patterns,
                                                 std::vector<std::uint64_t>(c.inputs().size()));
    for (std::uint64_t k = 0; k < r.patterns; ++k)
      for (std::size_t i = 0; i < c.inputs().size(); ++i) rows[k][i] = pat.value(k, i, false);
    const auto outs = evaluate_batch(c, F, rows, o.threads);
    for (const auto& row : outs)
      for (std::size_t k = 0; k < row.size(); ++k) r.per_output[k] = F.add(r.per_output[k], row[k]);
  }
  finish(r, c, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return r;
}

BulkResult evaluate_bulk_plain(const Circuit& c, const BulkOptions& o) {
  check(c, o);
  const Patterns pat{o, c.inputs().size()};
  BulkResult r;
  r.device = "cpu (plain)";
  r.boolean = is_boolean(c);
  r.patterns = pat.count();
  r.per_output.assign(c.outputs().size(), 0);
  const ModP F(kP);
  for (std::uint64_t k = 0; k < r.patterns; ++k) {
    std::vector<std::uint64_t> x(c.inputs().size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = pat.value(k, i, r.boolean);
    const auto y = evaluate(c, F, std::span<const std::uint64_t>(x));
    for (std::size_t j = 0; j < y.size(); ++j)
      r.per_output[j] = r.boolean ? r.per_output[j] + y[j] : F.add(r.per_output[j], y[j]);
  }
  finish(r, c, 0);
  return r;
}

}  // namespace rnncc
