#include "circuits/eval/bulk.hpp"

#include <bit>
#include <chrono>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/modp_ops.hpp"
#include "algebra/multimodular.hpp"
#include "algebra/sharded_run.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/patterns.hpp"
#include "circuits/eval/program.hpp"
#include "circuits/eval/wide.hpp"

namespace rnncc {

namespace {

// log₂ of an upper bound of a positive integer (0 for 1).
double log2_upper_bound(const Integer& z) {
  return static_cast<double>(bit_length(z));
}

// The digest prime of c: 2^31 − 1 unless unlucky for c's constants.
std::uint64_t digest_prime(const Circuit& c) {
  return lucky_primes(1, constant_denominators(c)).at(0);
}

// Pattern k's value of input i (circuits/eval/patterns.hpp, bit modes).
struct Patterns {
  const BulkOptions& o;
  std::size_t inputs;
  patterns::Spec spec() const {
    return {o.exhaustive ? patterns::Mode::bits_exhaustive : patterns::Mode::bits_random,
            o.seed,
            2,
            0,
            o.first,
            count()};
  }
  // Every pattern of the run; count(): those of the slice [first, first + count).
  std::uint64_t total() const { return o.exhaustive ? std::uint64_t{1} << inputs : o.batch; }
  std::uint64_t count() const {
    const std::uint64_t rest = o.first < total() ? total() - o.first : 0;
    return o.count ? std::min(o.count, rest) : rest;
  }
  // Boolean word w of the slice, input i: patterns first + 64w .. first + 64w + 63.
  bits::Word word(std::uint64_t w, std::size_t i) const {
    return patterns::bool_word(spec(), o.first / 64 + w, static_cast<std::uint32_t>(i));
  }
  // Pattern k of the slice (first + k), input i.
  std::uint64_t value(std::uint64_t k, std::size_t i, bool boolean, std::uint64_t p) const {
    if (boolean) return word(k / 64, i) >> (k % 64) & 1;
    return patterns::int_value(spec(), o.first + k, static_cast<std::uint32_t>(i)) % p;
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
  if (o.first % 64)
    throw std::invalid_argument("evaluate_bulk: a slice starts at a multiple of 64 patterns");
}

// Two-input operations per pattern: the device program's gate instructions.
std::size_t two_input_operations(const Circuit& c) {
  ProgramOptions po;
  po.slot_capacity = 1u << 20;
  po.emit_outputs = false;
  try {
    return lower_program(c, po).gate_instructions;
  } catch (const DomainError&) {  // positive gates: count the circuit's operations
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
  // The measured best (docs/performance.md): boolean 256 threads × 2 words, arithmetic 1024.
  const std::uint32_t threads = r.boolean ? 256 : 1024, words = r.boolean ? 2 : 1;
  po.slot_capacity = gpu::slot_capacity(d, r.boolean, false, threads, 1, words);
  const Program p = lower_program(c, po);
  RunOptions ro;
  ro.patterns = pat.spec();
  if (!r.boolean) r.modulus = digest_prime(c);
  ro.primes = {static_cast<std::uint32_t>(r.boolean ? kBulkPrime : r.modulus)};
  gpu::LaunchConfig lc;
  lc.threads = threads;
  lc.words_per_thread = words;
  lc.job_patterns = o.job_patterns;
  gpu::Timing tm;
  const ProgramResult res = gpu::run_program_gpu(p, ro, lc, &tm);
  r.per_output = r.boolean ? res.ones : res.sums.at(0);
  finish(r, c, tm.kernel_seconds);
  return r;
}

}  // namespace

BulkResult evaluate_bulk(const Circuit& c, const BulkOptions& o) {
  check(c, o);
  ProgressTask task(o.progress ? *o.progress : no_progress(), o.progress_label,
                    Patterns{o, c.inputs().size()}.count(), "patterns");
  std::string notice;
  if (o.device == BulkDevice::gpu) {
    const gpu::DeviceInfo d = gpu::probe();
    if (d.available) return evaluate_bulk_gpu(c, o, d);
    notice = "no GPU (" + d.why_not + "); evaluated on the CPU";
  }
  const Patterns pat{o, c.inputs().size()};
  BulkResult r;
  r.notice = notice;
  r.device = fmt::format("cpu ({} threads)",
                         o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency()));
  r.boolean = is_boolean(c);
  r.per_output.assign(c.outputs().size(), 0);
  std::optional<Program> wide;  // boolean: the device program for the wide evaluator
  if (r.boolean) {
    try {
      wide = lower_program(c, wide_program_options(32));
    } catch (const DomainError&) {  // threshold weights past 32 bits: the word evaluator
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (r.boolean && wide) {
    // The wide evaluator (circuits/eval/wide.hpp): same patterns (patterns::bool_word), the
    // number of ones per output.
    r.patterns = pat.count();
    RunOptions ro;
    ro.patterns = pat.spec();
    WideOptions wo;
    wo.threads = o.threads;
    wo.progress = o.progress;
    const ProgramResult res = run_program_wide(*wide, ro, wo);
    r.per_output = res.ones;
  } else if (r.boolean) {
    r.patterns = pat.count();
    const std::uint64_t words = (r.patterns + 63) / 64;
    const std::size_t ni = c.inputs().size(), no = c.outputs().size();
    const std::uint64_t chunk = 4096;  // words per batch call
    for (std::uint64_t w0 = 0; w0 < words; w0 += chunk) {
      const std::uint64_t n = std::min(chunk, words - w0);
      std::vector<bits::Word> in(n * std::max<std::size_t>(ni, 1));
      for (std::uint64_t w = 0; w < n; ++w)
        for (std::size_t i = 0; i < ni; ++i) in[w * ni + i] = pat.word(w0 + w, i);
      std::vector<bits::Word> out;
      if (ni) {
        out = evaluate_bits_batch(c, in, o.threads);
      } else {  // no inputs: every pattern gives the same (constant) outputs
        const std::vector<bits::Word> once = evaluate_bits(c, {});
        for (std::uint64_t w = 0; w < n; ++w) out.insert(out.end(), once.begin(), once.end());
      }
      for (std::uint64_t w = 0; w < n; ++w) {
        const std::uint64_t valid = r.patterns - 64 * (w0 + w);
        const bits::Word mask = valid >= 64 ? ~bits::Word{0} : (bits::Word{1} << valid) - 1;
        for (std::size_t k = 0; k < no; ++k)
          r.per_output[k] += std::popcount(out[w * no + k] & mask);
      }
      task.set(std::min(r.patterns, 64 * (w0 + n)));
    }
  } else {
    r.patterns = pat.count();
    r.modulus = digest_prime(c);
    const ModP F(r.modulus);
    std::vector<std::vector<std::uint64_t>> rows(r.patterns,
                                                 std::vector<std::uint64_t>(c.inputs().size()));
    for (std::uint64_t k = 0; k < r.patterns; ++k)
      for (std::size_t i = 0; i < c.inputs().size(); ++i)
        rows[k][i] = pat.value(k, i, false, r.modulus);
    // In chunks of 2^16 patterns, so the progress moves.
    const std::uint64_t chunk = 1 << 16;
    for (std::uint64_t k0 = 0; k0 < r.patterns; k0 += chunk) {
      const std::uint64_t n = std::min(chunk, r.patterns - k0);
      const std::vector<std::vector<std::uint64_t>> part(rows.begin() + k0, rows.begin() + k0 + n);
      for (const auto& row : evaluate_batch(c, F, part, o.threads))
        for (std::size_t k = 0; k < row.size(); ++k)
          r.per_output[k] = F.add(r.per_output[k], row[k]);
      task.set(k0 + n);
    }
  }
  finish(r, c, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return r;
}

std::uint64_t circuit_hash(const Circuit& c) {
  std::uint64_t h = mix(c.size(), c.inputs().size());
  for (GateId g = 0; g < c.size(); ++g) {
    h = mix(h, static_cast<std::uint64_t>(c.kind(g)));
    for (GateId x : c.operands(g)) h = mix(h, x);
    if (c.kind(g) == GateKind::constant)
      h = mix(h, std::hash<std::string>{}(to_string(c.constant(g))));
    if (c.kind(g) == GateKind::thr) {
      for (std::int32_t w : c.weights(g)) h = mix(h, static_cast<std::uint32_t>(w));
      h = mix(h, static_cast<std::uint32_t>(c.threshold(g)));
    }
  }
  for (GateId x : c.outputs()) h = mix(h, x);
  return h;
}

std::uint64_t bulk_block_patterns(const Circuit& c, const BulkOptions& o) {
  const double ops = static_cast<double>(std::max<std::size_t>(1, two_input_operations(c)));
  // Large enough that lowering the circuit again for each block costs a few per cent. (On the
  // H200, blocks of 2^40 tripled a run of the EPFL multiplier because each block chose the
  // interpreter alone: the choice now weighs the job, BulkOptions::job_patterns.)
  const double target = o.device == BulkDevice::gpu ? 0x1p44 : 0x1p34;
  std::uint64_t p = std::uint64_t{1} << 12;
  while (p < (std::uint64_t{1} << 30) && static_cast<double>(2 * p) * ops <= target) p *= 2;
  return p;
}

BulkResult evaluate_bulk_sharded(const Circuit& c, const BulkOptions& o, Ranks& ranks,
                                 const std::optional<std::string>& checkpoint,
                                 const std::string& job) {
  check(c, o);
  BulkOptions whole = o;
  whole.first = whole.count = 0;
  const std::uint64_t total = Patterns{whole, c.inputs().size()}.count();
  if (o.block_patterns % 64)
    throw std::invalid_argument("evaluate_bulk_sharded: blocks of a multiple of 64 patterns");
  const std::uint64_t per_block = o.block_patterns ? o.block_patterns : bulk_block_patterns(c, o);
  const bool boolean = is_boolean(c);
  const std::uint64_t modulus = boolean ? 0 : digest_prime(c);
  ShardedRunOptions so;
  so.blocks = (total + per_block - 1) / per_block;
  so.checkpoint = checkpoint;
  so.progress = o.progress;
  so.progress_label = o.progress_label;
  so.job = fmt::format("eval {} circuit {:016x}: {} {} patterns (seed {}), {} per block, {}", job,
                       circuit_hash(c), total, o.exhaustive ? "exhaustive" : "random",
                       o.exhaustive ? 0 : o.seed, per_block,
                       o.device == BulkDevice::gpu ? "gpu" : "cpu");
  const auto t0 = std::chrono::steady_clock::now();
  const ShardedRunResult run = run_sharded(ranks, so, [&](std::uint64_t b) {
    BulkOptions slice = o;
    slice.first = b * per_block;
    slice.count = per_block;
    slice.job_patterns = total / static_cast<std::uint64_t>(ranks.size());  // this rank's share
    slice.progress = nullptr;
    const BulkResult part = evaluate_bulk(c, slice);
    // "<device>\t<notice>\t<patterns> <sum 0> <sum 1> …" (no newline: the checkpoint's line)
    std::string payload = part.device + "\t" + part.notice + "\t" + std::to_string(part.patterns);
    for (std::uint64_t v : part.per_output) payload += " " + std::to_string(v);
    return BlockResult{payload, false};
  });
  BulkResult r;
  r.boolean = boolean;
  r.modulus = modulus;
  r.per_output.assign(c.outputs().size(), 0);
  for (std::size_t b = 0; b < run.payloads.size(); ++b) {
    const std::string& s = run.payloads[b];
    const std::size_t t1 = s.find('\t'), t2 = s.find('\t', t1 + 1);
    if (b == 0) {
      r.device = describe(ranks) + ", " + s.substr(0, t1);
      r.notice = s.substr(t1 + 1, t2 - t1 - 1);
    }
    std::istringstream in(s.substr(t2 + 1));
    std::uint64_t patterns = 0, v = 0;
    in >> patterns;
    r.patterns += patterns;
    for (std::size_t k = 0; k < r.per_output.size() && in >> v; ++k)
      r.per_output[k] = boolean ? r.per_output[k] + v : (r.per_output[k] + v) % modulus;
  }
  if (r.patterns != total)
    throw std::logic_error("evaluate_bulk_sharded: the blocks hold " + std::to_string(r.patterns) +
                           " of " + std::to_string(total) + " patterns");
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
  if (!r.boolean) r.modulus = digest_prime(c);
  const ModP F(r.boolean ? kBulkPrime : r.modulus);
  for (std::uint64_t k = 0; k < r.patterns; ++k) {
    std::vector<std::uint64_t> x(c.inputs().size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = pat.value(k, i, r.boolean, F.modulus());
    const auto y = evaluate(c, F, std::span<const std::uint64_t>(x));
    for (std::size_t j = 0; j < y.size(); ++j)
      r.per_output[j] = r.boolean ? r.per_output[j] + y[j] : F.add(r.per_output[j], y[j]);
  }
  finish(r, c, 0);
  return r;
}

ExactOutputs evaluate_exact(const Circuit& c, const BulkOptions& o, std::uint64_t max_patterns) {
  check(c, o);
  const Patterns pat{o, c.inputs().size()};
  const std::uint64_t count = pat.count();
  if (count > max_patterns)
    throw InputError("--outputs", fmt::format("{} patterns: printing every output is limited to {} "
                                              "(use --batch N)",
                                              count, max_patterns));
  ExactOutputs x;
  gpu::DeviceInfo d;
  if (o.device == BulkDevice::gpu) {
    d = gpu::probe();
    if (!d.available) x.notice = "no GPU (" + d.why_not + "); evaluated on the CPU";
  }
  x.device = d.available ? d.name : "cpu (device program twin)";
  const bool boolean = is_boolean(c);
  const std::uint32_t threads = boolean ? 512 : 1024;
  RunOptions ro;
  ro.patterns = pat.spec();
  ro.store = true;
  if (boolean) {
    ProgramOptions po;
    if (d.available) po.slot_capacity = gpu::slot_capacity(d, true, false, threads, 1);
    const Program p = lower_program(c, po);
    gpu::LaunchConfig lc;
    lc.threads = threads;
    WideOptions wo;
    wo.threads = o.threads;
    const ProgramResult res =
        d.available ? gpu::run_program_gpu(p, ro, lc) : run_program_wide(p, ro, wo);
    x.values.assign(count, std::vector<Rational>(c.outputs().size()));
    for (std::uint64_t k = 0; k < count; ++k)
      for (std::size_t j = 0; j < c.outputs().size(); ++j)
        x.values[k][j] =
            static_cast<int>(res.stored[(k / 64) * c.outputs().size() + j] >> (k % 64) & 1);
    return x;
  }
  // Arithmetic: heights → primes → residues → CRT.
  const double input_bits = o.exhaustive ? 0.0 : 61.0;
  const std::vector<HeightBound> heights = output_heights(c, input_bits);
  double bits = 0;
  for (const HeightBound& h : heights) bits = std::max(bits, h.log2_numerator);
  constexpr double kMaxPrimes = 4096;                        // about 127 000 bits
  const double estimate = std::ceil((bits + 2) / 30.0) + 1;  // each prime > 2^30
  if (!(estimate <= kMaxPrimes))
    throw InputError("--outputs", fmt::format("the outputs' height bound 2^{:.0f} needs more than "
                                              "{:.0f} primes of 31 bits",
                                              bits, kMaxPrimes));
  // A `positive` gate tests the sign of a value over Q, which no residue mod p knows: such a
  // circuit is evaluated exactly over Q by the plain evaluator (same patterns), within the same
  // height limit on every gate — slower than the multi-modular program, but the exact answer.
  bool ordered = false;
  for (GateId g = 0; g < c.size() && !ordered; ++g) ordered = c.kind(g) == GateKind::positive;
  if (ordered) {
    double all_bits = 0;
    for (const HeightBound& h : height_table(c, input_bits))
      all_bits = std::max(all_bits, h.log2_numerator + log2_upper_bound(h.denominator));
    if (!(all_bits <= kMaxPrimes * 30))
      throw InputError("--outputs",
                       fmt::format("a gate's height bound 2^{:.0f} exceeds the limit 2^{:.0f} of "
                                   "exact evaluation",
                                   all_bits, kMaxPrimes * 30));
    x.device = "cpu (exact over Q: positive gates need the order of Q)";
    std::vector<std::vector<Rational>> rows(count, std::vector<Rational>(c.inputs().size()));
    for (std::uint64_t q = 0; q < count; ++q)
      for (std::size_t i = 0; i < c.inputs().size(); ++i)
        rows[q][i] =
            Rational(Integer(patterns::int_value(ro.patterns, q, static_cast<std::uint32_t>(i))));
    x.values = evaluate_batch(c, RationalField{}, rows, o.threads);
    return x;
  }
  const std::vector<std::uint32_t> candidates =
      lucky_primes(static_cast<std::size_t>(std::max(estimate, 2.0)), constant_denominators(c));
  const std::size_t k = std::max<std::size_t>(1, primes_for_bits(bits, candidates));
  x.primes.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k));
  ro.primes = x.primes;
  ProgramOptions po;
  if (d.available) po.slot_capacity = gpu::slot_capacity(d, false, false, threads, k);
  const Program p = lower_program(c, po);
  gpu::LaunchConfig lc;
  lc.threads = threads;
  WideOptions wo;
  wo.threads = o.threads;
  const ProgramResult res =
      d.available ? gpu::run_program_gpu(p, ro, lc) : run_program_wide(p, ro, wo);
  const std::size_t no = c.outputs().size();
  x.values.assign(count, std::vector<Rational>(no));
  std::vector<std::uint32_t> residues(k);
  for (std::uint64_t q = 0; q < count; ++q)
    for (std::size_t j = 0; j < no; ++j) {
      const Integer& D = heights[j].denominator;
      for (std::size_t i = 0; i < k; ++i) {  // (value mod p)·D mod p
        const std::uint64_t pi = x.primes[i];
        const std::uint64_t dm = static_cast<std::uint64_t>(Integer(D % pi));
        residues[i] =
            static_cast<std::uint32_t>(modp::mul(res.stored[(q * k + i) * no + j], dm, pi));
      }
      x.values[q][j] = Rational(crt_symmetric(residues, x.primes), D);
    }
  return x;
}

}  // namespace rnncc
