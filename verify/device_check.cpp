#include "verify/device_check.hpp"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/modp_ops.hpp"
#include "algebra/multimodular.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/program.hpp"
#include "verify/check_circuit.hpp"
#include "verify/model_walk_check.hpp"
#include "verify/prefix_check.hpp"

namespace rnncc {

namespace {

Integer ceil_integer(double x) {
  return Integer(std::ceil(x));
}

}  // namespace

std::uint64_t slice_of_strings(std::uint64_t S, std::size_t L, std::uint64_t first,
                               std::uint64_t count) {
  const double total = std::pow(static_cast<double>(S), static_cast<double>(L));
  if (total > std::ldexp(1.0, 62))
    throw InputError("--exhaustive", fmt::format("|Σ|^{} = {:.3g} strings exceed 2^62", L, total));
  std::uint64_t all = 1;
  for (std::size_t t = 0; t < L; ++t) all *= S;
  if (first >= all) throw InputError("--first", "the slice starts past the last string");
  return count ? std::min(count, all - first) : all - first;
}

DeviceCheckReport device_check(const Construction& c, const DeviceCheckOptions& o) {
  if (o.exhaustive && o.prefix_sharing && o.length > 0) {
    const auto subject = prefix_subject(c);
    if (subject && !prefix_not_applicable(*subject, o.length, o.device)) {
      PrefixCheckOptions po;
      po.length = o.length;
      po.first = o.first;
      po.count = o.count;
      po.device = o.device;
      po.cpu_threads = o.cpu_threads;
      DeviceCheckReport rep = prefix_check(*subject, po);
      rep.method = kPrefixMethod;
      return rep;
    }
  }
  std::string why;
  if (o.exhaustive && o.length > 0) {  // nonlinear and hybrid models: the model walk
    const auto subject = model_walk_subject(c);
    if (subject && !model_walk_not_applicable(*subject, o.length, o.device)) {
      ModelWalkOptions mo;
      mo.length = o.length;
      mo.first = o.first;
      mo.count = o.count;
      mo.device = o.device;
      mo.cpu_threads = o.cpu_threads;
      return model_walk_check(*subject, mo);
    }
  }
  const auto cc = build_check_circuit(c, o.length, &why);
  if (!cc)
    throw InputError(
        "--device", fmt::format("{} has no check circuit at length {}: {}", c.name, o.length, why));
  DeviceCheckReport rep;
  rep.method = "check circuit, mod p with the float shadow";
  const std::uint32_t r = static_cast<std::uint32_t>(cc->symbols);
  const std::uint32_t L = static_cast<std::uint32_t>(o.length);

  // The strings: a slice of Σ^L in lexicographic order, or seeded random ones.
  patterns::Spec spec;
  spec.radix = r;
  spec.length = L;
  spec.seed = o.seed;
  spec.first = o.first;
  if (o.exhaustive) {
    spec.mode = patterns::Mode::strings_exhaustive;
    spec.count = slice_of_strings(r, L, o.first, o.count);
  } else {
    spec.mode = patterns::Mode::strings_random;
    spec.count = o.random;
  }
  rep.strings = spec.count;
  if (spec.count == 0) return rep;

  ProgramOptions po;
  po.compare_pairs = cc->pairs;
  po.emit_outputs = false;
  po.arithmetic = true;
  const bool gpu = o.device == CheckDevice::gpu;
  gpu::DeviceInfo dev;
  if (gpu) {
    dev = gpu::probe();
    if (!dev.available) throw gpu::GpuError(dev.why_not);
    rep.device = dev.name;
  } else {
    rep.device = "cpu (device program twin)";
  }
  auto lower = [&](std::size_t primes, bool shadow) {
    if (gpu) po.slot_capacity = gpu::slot_capacity(dev, false, shadow, o.threads, primes);
    return lower_program(cc->circuit, po);
  };
  double work = 0;  // gate instructions × strings × primes, over all runs
  auto run = [&](const Program& p, const RunOptions& ro) {
    work += static_cast<double>(p.gate_instructions) * static_cast<double>(ro.patterns.count) *
            static_cast<double>(ro.primes.size());
    const auto t0 = std::chrono::steady_clock::now();
    ProgramResult res;
    if (gpu) {
      gpu::LaunchConfig lc;
      lc.threads = o.threads;
      gpu::Timing tm;
      res = gpu::run_program_gpu(p, ro, lc, &tm);
      rep.kernel_seconds += tm.kernel_seconds;
    } else {
      res = run_program(p, ro);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.seconds += s;
    ++rep.runs;
    return res;
  };

  RunOptions ro;
  ro.patterns = spec;
  const auto& pair = cc->pairs.at(0);
  if (cc->modulus) {
    const std::uint64_t q = *cc->modulus;
    if (q < 3 || q >= (std::uint64_t{1} << 31) || !modp::is_prime(q))
      throw InputError("--device", fmt::format("the construction computes mod {}, but the device "
                                               "evaluates mod odd primes below 2^31",
                                               q));
    rep.modulus = q;
    ro.primes = {static_cast<std::uint32_t>(q)};
    const Program p = lower(1, false);
    rep.gates = p.gate_instructions;
    const ProgramResult res = run(p, ro);
    rep.mismatches = res.mismatches.at(0);
    rep.primes = ro.primes;
    rep.exact = true;
    if (res.first_mismatch) {
      std::vector<std::size_t> w(L);
      for (std::uint32_t t = 0; t < L; ++t) w[t] = patterns::symbol(spec, *res.first_mismatch, t);
      rep.first_counterexample = w;
    }
  } else {
    // Static denominators of the two outputs; lucky primes (no constant denominator ≡ 0).
    const auto heights = height_table(cc->circuit);
    const Integer D = lcm(heights[cc->circuit.outputs()[pair.first]].denominator,
                          heights[cc->circuit.outputs()[pair.second]].denominator);
    const auto denominators = constant_denominators(cc->circuit);
    const std::vector<std::uint32_t> candidates = lucky_primes(64, denominators);
    const double log2_D = log2_of(D);
    // First prime count from the shadow on a CPU sample of the same strings (plus 1 bit).
    std::size_t k = 1;
    if (o.sample > 0) {
      RunOptions sample = ro;
      sample.patterns.count = std::min<std::uint64_t>(o.sample, spec.count);
      sample.primes = {candidates[0]};
      sample.magnitude = true;
      ProgramOptions cpu_po = po;
      cpu_po.slot_capacity = 1024;
      const ProgramResult s = run_program(lower_program(cc->circuit, cpu_po), sample);
      const double m = s.max_difference_bound.at(0);
      if (m > 0 && std::isfinite(m) && std::log2(m) + log2_D >= 0)
        k = std::max<std::size_t>(1, primes_for_bits(std::log2(m) + log2_D + 1, candidates));
    }
    for (;;) {
      ro.primes.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k));
      ro.magnitude = true;
      const Program p = lower(k, true);
      rep.gates = p.gate_instructions;
      const ProgramResult res = run(p, ro);
      rep.primes = ro.primes;
      rep.mismatches = res.mismatches.at(0);
      if (res.first_mismatch) {
        std::vector<std::size_t> w(L);
        for (std::uint32_t t = 0; t < L; ++t) w[t] = patterns::symbol(spec, *res.first_mismatch, t);
        rep.first_counterexample = w;
      }
      const double m = res.max_difference_bound.at(0);
      Integer P = 1;
      for (std::uint32_t q : ro.primes) P *= q;
      const Integer N = std::isfinite(m) ? ceil_integer(m) * D : Integer(0);  // ≥ |(X − f)·D|
      rep.log2_bound = m > 0 ? std::log2(m) + log2_D : -INFINITY;
      const double D_up = up(D.convert_to<double>());  // ≥ D (the conversion truncates)
      rep.float_proof = std::isfinite(m) && up(m * D_up) < 1.0;
      rep.exact = rep.float_proof || (std::isfinite(m) && 2 * N < P);
      if (!std::isfinite(m)) break;                // the shadow overflowed: no bound, no proof
      if (rep.exact || rep.mismatches > 0) break;  // proved, or a counterexample (decisive)
      const std::size_t need = primes_for_bits(log2_of(N), candidates);
      if (need <= k) break;  // cannot happen (primes_for_bits guarantees Π p > 2N)
      k = need;
    }
  }
  const double t = gpu ? rep.kernel_seconds : rep.seconds;
  rep.gate_evaluations_per_second = t > 0 ? work / t : 0;
  return rep;
}

}  // namespace rnncc
