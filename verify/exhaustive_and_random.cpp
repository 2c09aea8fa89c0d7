// The string-testing methods of verify: exhaustive (on the CPU, by prefix sharing or the model
// walk, on the GPU, or sharded over ranks) and random, with the GPU runs' summaries.
#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "algebra/sharded_run.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "verify/check_circuit.hpp"
#include "verify/device_check.hpp"
#include "verify/model_walk_check.hpp"
#include "verify/prefix_check.hpp"
#include "verify/verification.hpp"

namespace rnncc::verify_internal {

// GPU runs, one per length, summarized in one note per method.
struct Verification::DeviceSummary {
  std::size_t lo = 0, hi = 0;
  std::uint64_t strings = 0, mismatches = 0;
  std::size_t max_primes = 0, float_proofs = 0, runs = 0;
  bool all_exact = true;
  double max_log2_bound = -INFINITY, work_seconds = 0, work = 0;
  std::string device;
  std::optional<std::uint64_t> modulus;
  std::size_t prefix_runs = 0;  // lengths checked by prefix sharing (verify/prefix_check.hpp)
  std::size_t walk_runs = 0;    // lengths checked by the model walk (model_walk_check.hpp)
  std::uint64_t skipped = 0, overflowed = 0;  // the model walk's: outside the promise, 64 bits
};

// gpu (--device gpu): whether the GPU takes the exhaustive and random methods — it needs a
// device and the construction's check circuit (verify/device_check.hpp); else a note says why
// and the CPU runs them.
void Verification::choose_device() {
  if (!o_.gpu) return;
  const gpu::DeviceInfo dev = gpu::probe();
  std::string why;
  const std::size_t n0 = c_.target.fixed_length ? *c_.target.fixed_length : 1;
  if (!dev.available) {
    why = dev.why_not;
  } else {
    std::string no_circuit, no_walk;
    gpu_random_ = build_check_circuit(c_, n0, &no_circuit).has_value();
    // Without a check circuit the exhaustive method can still walk the model (nonlinear and
    // hybrid models, verify/model_walk_check.hpp); random strings then run on the CPU.
    const bool walk = !gpu_random_ && model_walk_subject(c_, &no_walk).has_value();
    if (!gpu_random_ && !walk)
      why = "no check circuit (" + no_circuit + ") and no model walk (" + no_walk + ")";
    else if (walk)
      report_.notes.push_back(
          "--device gpu: the exhaustive method walks the model on the GPU; "
          "random strings run on the CPU (no check circuit: " +
          no_circuit + ")");
  }
  gpu_ = why.empty();
  if (!gpu_) report_.notes.push_back("--device gpu: " + why + "; the CPU ran the checks instead");
}

// exhaustive: every string of length 1..L (a fixed-length domain: every string of that
// length), in (length, lex) order, so the first failure is already minimal. The model has
// outputs at positions 1..n only, hence non-empty strings (ε only as the fixed-length domain
// of a constant formula). InputError when the strings exceed the (CPU or GPU) cap: on the CPU,
// the strings checked one by one count against exhaustive_cap, those of the lengths prefix
// sharing or the model walk take against shared_exhaustive_cap.
void Verification::exhaustive() {
  if ((!o_.exhaustive && !force_domain_) || failing_) return;
  const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
  const std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : *o_.exhaustive;
  // The CPU's shared paths, at the lengths where no circuit runs per string: prefix sharing
  // (linear subjects) or else the model walk (nonlinear and hybrid models).
  std::optional<PrefixSubject> subject;
  std::optional<ModelWalkSubject> walk;
  if (!gpu_ && !o_.ranks) {
    if (!c_.target.fixed_length) subject = prefix_subject(c_);
    if (!subject) walk = model_walk_subject(c_);
  }
  auto circuit = [&](std::size_t n) {
    return o_.three_way && checker_.compilable() &&
           c_.encode(std::vector<std::size_t>(n, 0)).size() <= o_.three_way_max_tokens;
  };
  auto shared = [&](std::size_t n) {
    return !circuit(n) && ((subject && !prefix_not_applicable(*subject, n)) ||
                           (walk && !model_walk_not_applicable(*walk, n)));
  };
  // Summed only until far past any cap: --exhaustive 10^18 must be refused, not looped over.
  double each = S_ == 1 ? static_cast<double>(hi - lo + 1) : 0, by_sharing = 0;
  for (std::size_t n = lo; S_ != 1 && n <= hi && each + by_sharing < 1e30; ++n)
    (shared(n) ? by_sharing : each) += count_strings(S_, n);
  const double cap =
      gpu_ ? static_cast<double>(o_.gpu_exhaustive_cap) : static_cast<double>(o_.exhaustive_cap);
  if (each > cap)
    throw InputError(
        "--exhaustive",
        fmt::format("{:.0f} strings {}(|Σ| = {}, lengths {}..{}) exceed the {}cap of {:.0f}{}",
                    each, by_sharing > 0 ? "checked one by one " : "", S_, lo, hi,
                    gpu_ ? "GPU " : "", cap,
                    by_sharing > 0 ? " (the lengths prefix sharing or the model walk take count "
                                     "apart)"
                                   : ""));
  if (by_sharing > static_cast<double>(o_.shared_exhaustive_cap))
    throw InputError("--exhaustive",
                     fmt::format("{:.0f} strings by prefix sharing or the model walk (|Σ| = {}, "
                                 "lengths {}..{}) exceed their cap of {}",
                                 by_sharing, S_, lo, hi, o_.shared_exhaustive_cap));
  if (o_.ranks) return exhaustive_sharded(lo, hi);
  if (gpu_) {
    std::uint64_t count = 0;
    DeviceSummary summary;
    for (std::size_t n = lo; n <= hi && !failing_; ++n) {
      DeviceCheckOptions d;
      d.length = n;
      d.threads = o_.gpu_threads;
      count += on_device(d, "exhaustive (gpu)", summary);
    }
    summarize("exhaustive (gpu)", summary);
    report_.checked["exhaustive (gpu)"] = count;
    domain_complete_ = summary.all_exact && !summary.modulus;
    covered("exhaustive (gpu)", lo, hi);
    return;
  }
  std::size_t count = 0;
  ProgressTask task(progress(), "exhaustive", static_cast<std::uint64_t>(each + by_sharing),
                    "strings");
  std::size_t shared_lo = 0, shared_hi = 0, walked_lo = 0, walked_hi = 0;
  for (std::size_t n = lo; n <= hi && !failing_; ++n) {
    if (subject && shared(n)) {
      PrefixCheckOptions po;
      po.length = n;
      const DeviceCheckReport r = prefix_check(*subject, po);
      if (!shared_lo) shared_lo = n;
      shared_hi = n;
      if (r.first_counterexample) {
        std::uint64_t index = 0;  // strings up to the failure, as the loop below counts
        for (std::size_t x : *r.first_counterexample) index = index * S_ + x;
        count += index + 1;
        if (!record(*r.first_counterexample, "exhaustive", o_.three_way))
          report_.notes.push_back("prefix sharing reported a mismatch on " +
                                  join(sigma_, *r.first_counterexample) +
                                  " that the CPU does not reproduce");
      } else {
        count += r.strings;
      }
      task.set(count);
      continue;
    }
    if (walk && shared(n)) {
      ModelWalkOptions mo;
      mo.length = n;
      const DeviceCheckReport r = model_walk_check(*walk, mo);
      // Strings that overflowed 64 bits were not compared: the length goes string by string.
      if (r.overflowed == 0) {
        if (!walked_lo) walked_lo = n;
        walked_hi = n;
        count += r.strings - r.skipped;
        outside_promise_ += r.skipped;
        task.set(count);
        if (r.first_counterexample && !record(*r.first_counterexample, "exhaustive", o_.three_way))
          report_.notes.push_back("the model walk reported a mismatch on " +
                                  join(sigma_, *r.first_counterexample) +
                                  " that the CPU does not reproduce");
        continue;
      }
      report_.notes.push_back(fmt::format(
          "exhaustive: length {}: {} strings overflowed 64 bits in the model walk; the length "
          "was checked string by string in exact arithmetic",
          n, r.overflowed));
    }
    for_each_string(S_, n, [&](const std::vector<std::size_t>& w) {
      count += in_domain(w);
      task.add();
      return record(w, "exhaustive", o_.three_way);
    });
  }
  if (shared_lo)
    report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", shared_lo,
                                        shared_hi, kPrefixMethod));
  if (walked_lo)
    report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", walked_lo,
                                        walked_hi, kModelWalkMethod));
  report_.checked["exhaustive"] = count;
  domain_complete_ = true;
  covered("exhaustive", lo, hi);
}

// The exhaustive method sharded (VerifyOptions::ranks; algebra/sharded_run.hpp). Blocks are
// slices [first, first + count) of Σ^n in lex order, n = lo..hi, of a size fixed by the path
// that checks length n (the GPU: 2^26 strings; prefix sharing: 2^20; string by string: 2^12),
// so the plan is the same on every rank and for any R. A block is checked without touching
// the run's state and returns its figures and its first failure (the CPU checker confirms a
// failure the GPU or prefix sharing reports); the fold, on every rank, adds the figures in
// block order and records the first failure — the (length, lex)-least failing string, as the
// unsharded method finds it. Which path runs is rank 0's choice (a rank without the GPU runs
// the GPU's blocks with the device program's CPU twin).
void Verification::exhaustive_sharded(std::size_t lo, std::size_t hi) {
  enum class Path { plain, prefix, device };
  struct Block {
    std::size_t n;
    std::uint64_t first, count;
    Path path;
  };
  gpu_ = o_.ranks->broadcast(gpu_ ? "1" : "0") == "1";
  const bool local_gpu = gpu_ && gpu::probe().available;
  std::optional<PrefixSubject> subject;
  if (!c_.target.fixed_length && !gpu_) subject = prefix_subject(c_);
  std::vector<Block> blocks;
  for (std::size_t n = lo; n <= hi; ++n) {
    std::uint64_t strings = 1;
    for (std::size_t i = 0; i < n; ++i) strings *= S_;  // ≤ the cap (checked above)
    Path path = Path::plain;
    if (gpu_) {
      path = Path::device;
    } else {
      const bool circuit =
          o_.three_way && checker_.compilable() &&
          c_.encode(std::vector<std::size_t>(n, 0)).size() <= o_.three_way_max_tokens;
      if (subject && !circuit && !prefix_not_applicable(*subject, n)) path = Path::prefix;
    }
    const std::uint64_t size = path == Path::device   ? std::uint64_t{1} << 26
                               : path == Path::prefix ? std::uint64_t{1} << 20
                                                      : std::uint64_t{1} << 12;
    for (std::uint64_t f = 0; f < strings; f += size)
      blocks.push_back({n, f, std::min(size, strings - f), path});
  }
  auto string_at = [&](std::size_t n, std::uint64_t index) {
    std::vector<std::size_t> w(n);
    for (std::size_t i = n; i-- > 0; index /= S_) w[i] = static_cast<std::size_t>(index % S_);
    return w;
  };
  auto index_of = [&](const std::vector<std::size_t>& w) {
    std::uint64_t index = 0;
    for (std::size_t x : w) index = index * S_ + x;
    return index;
  };
  // Confirmed by the CPU checker without recording (the fold records it on every rank).
  auto confirmed = [&](const std::vector<std::size_t>& w) {
    return in_domain(w) && checker_.check(w, o_.three_way).has_value();
  };
  ShardedRunOptions so;
  so.blocks = blocks.size();
  so.checkpoint = o_.checkpoint;
  so.progress = o_.progress;
  so.progress_label = "exhaustive";
  so.job =
      fmt::format("verify {} ({}): exhaustive lengths {}..{}, {} blocks, {}{}", c_.name, o_.job, lo,
                  hi, blocks.size(), gpu_ ? "gpu" : "cpu", o_.three_way ? ", three-way" : "");
  const ShardedRunResult run = run_sharded(*o_.ranks, so, [&](std::uint64_t b) {
    const Block& k = blocks[b];
    nlohmann::json j;
    std::optional<std::uint64_t> fail, unconfirmed;
    std::uint64_t strings = 0, outside = 0;
    if (k.path == Path::plain) {
      std::vector<std::size_t> w = string_at(k.n, k.first);
      for (std::uint64_t i = 0; i < k.count; ++i) {
        if (!in_domain(w)) {
          ++outside;
        } else {
          ++strings;
          if (checker_.check(w, o_.three_way)) {
            fail = k.first + i;
            break;
          }
        }
        std::size_t at = k.n;  // the next string in lex order
        while (at > 0 && ++w[at - 1] == S_) w[--at] = 0;
      }
    } else {
      DeviceCheckReport r;
      if (k.path == Path::prefix) {
        PrefixCheckOptions po;
        po.length = k.n;
        po.first = k.first;
        po.count = k.count;
        r = prefix_check(*subject, po);
      } else {
        DeviceCheckOptions d;
        d.length = k.n;
        d.first = k.first;
        d.count = k.count;
        d.threads = o_.gpu_threads;
        d.device = local_gpu ? CheckDevice::gpu : CheckDevice::cpu;
        r = device_check(c_, d);
        j["device"] = r.device;
        j["prefix"] = r.method == kPrefixMethod;
        j["mismatches"] = r.mismatches;
        j["primes"] = r.primes.size();
        j["float_proof"] = r.float_proof;
        j["exact"] = r.exact;
        if (std::isfinite(r.log2_bound)) j["log2_bound"] = r.log2_bound;  // else −∞: absent
        j["kernel_seconds"] = r.kernel_seconds;
        j["work"] = r.gate_evaluations_per_second * r.kernel_seconds;
        if (r.modulus) j["modulus"] = *r.modulus;
      }
      strings = r.strings - r.skipped;  // the model walk skips strings outside the promise
      outside = r.skipped;
      if (r.overflowed) j["overflowed"] = r.overflowed;
      j["walk"] = r.method == kModelWalkMethod;
      if (r.first_counterexample) {
        const std::uint64_t index = index_of(*r.first_counterexample);
        if (confirmed(*r.first_counterexample)) {
          fail = index;
          if (k.path == Path::prefix) strings = index - k.first + 1;
        } else {
          unconfirmed = index;
        }
      }
    }
    j["strings"] = strings;
    j["outside"] = outside;
    nlohmann::json compiled = nlohmann::json::array();
    for (const auto& [n, mod] : checker_.compiled()) compiled.push_back({n, mod});
    j["compiled"] = compiled;
    if (checker_.first_over_budget()) j["over_budget"] = *checker_.first_over_budget();
    if (fail) j["fail"] = *fail;
    if (unconfirmed) j["unconfirmed"] = *unconfirmed;
    return BlockResult{j.dump(), fail.has_value()};
  });
  const std::string method = gpu_ ? "exhaustive (gpu)" : "exhaustive";
  std::uint64_t count = 0;
  DeviceSummary summary;
  std::size_t shared_lo = 0, shared_hi = 0;
  for (std::size_t b = 0; b < run.payloads.size(); ++b) {
    const Block& k = blocks[b];
    const nlohmann::json j = nlohmann::json::parse(run.payloads[b]);
    count += j.at("strings").get<std::uint64_t>();
    outside_promise_ += j.at("outside").get<std::size_t>();
    std::set<std::pair<std::size_t, bool>> compiled;
    for (const auto& x : j.at("compiled"))
      compiled.emplace(x.at(0).get<std::size_t>(), x.at(1).get<bool>());
    checker_.merge(compiled, j.contains("over_budget")
                                 ? std::optional(j.at("over_budget").get<std::size_t>())
                                 : std::nullopt);
    if (k.path == Path::prefix) {
      if (!shared_lo) shared_lo = k.n;
      shared_hi = k.n;
    }
    if (k.path == Path::device) {
      if (summary.runs == 0) summary.lo = k.n;
      if (k.first == 0) ++summary.runs;
      summary.hi = k.n;
      summary.device = j.at("device").get<std::string>();
      if (j.contains("modulus")) summary.modulus = j.at("modulus").get<std::uint64_t>();
      summary.prefix_runs += k.first == 0 && j.at("prefix").get<bool>();
      summary.walk_runs += k.first == 0 && j.value("walk", false);
      summary.skipped += j.at("outside").get<std::uint64_t>();
      summary.overflowed += j.value("overflowed", std::uint64_t{0});
      summary.strings += j.at("strings").get<std::uint64_t>();
      summary.mismatches += j.at("mismatches").get<std::uint64_t>();
      summary.max_primes = std::max(summary.max_primes, j.at("primes").get<std::size_t>());
      summary.float_proofs += k.first == 0 && j.at("float_proof").get<bool>();
      summary.all_exact = summary.all_exact && j.at("exact").get<bool>();
      if (j.contains("log2_bound"))
        summary.max_log2_bound = std::max(summary.max_log2_bound, j.at("log2_bound").get<double>());
      summary.work_seconds += j.at("kernel_seconds").get<double>();
      summary.work += j.at("work").get<double>();
    }
    if (j.contains("unconfirmed"))
      report_.notes.push_back(
          fmt::format("{} reported a mismatch on {} that the CPU does not reproduce",
                      k.path == Path::device ? "the GPU" : "prefix sharing",
                      join(sigma_, string_at(k.n, j.at("unconfirmed").get<std::uint64_t>()))));
    if (j.contains("fail"))
      record(string_at(k.n, j.at("fail").get<std::uint64_t>()), method, o_.three_way);
  }
  report_.sharding = fmt::format("exhaustive: {} blocks over {}, {} resumed from the checkpoint",
                                 blocks.size(), describe(*o_.ranks), run.resumed);
  if (gpu_) {
    summarize(method, summary);
    domain_complete_ = summary.all_exact && !summary.modulus;
  } else {
    if (shared_lo)
      report_.notes.push_back(fmt::format("exhaustive: lengths {}..{} {} on the CPU", shared_lo,
                                          shared_hi, kPrefixMethod));
    domain_complete_ = true;
  }
  report_.checked[method] = count;
  covered(method, lo, hi);
}

// random: `random` seeded strings, lengths uniform in 1..max with a third of them at the
// maximum (on the GPU: `random` strings at every length 1..max).
void Verification::random() {
  const std::size_t wanted = report_.proof && report_.proof->proved && o_.random_after_proof
                                 ? std::min(o_.random, *o_.random_after_proof)
                                 : o_.random;
  if (wanted == 0 || failing_) return;
  if (gpu_ && gpu_random_) {
    std::uint64_t count = 0;
    DeviceSummary summary;
    const std::size_t lo = c_.target.fixed_length ? *c_.target.fixed_length : 1;
    const std::size_t hi = c_.target.fixed_length ? *c_.target.fixed_length : o_.max_random_length;
    for (std::size_t n = lo; n <= hi && !failing_; ++n) {
      DeviceCheckOptions d;
      d.length = n;
      d.exhaustive = false;
      d.random = wanted;
      d.seed = seed_ * 0x9E3779B97F4A7C15ull + n;
      d.threads = o_.gpu_threads;
      count += on_device(d, "random (gpu)", summary);
    }
    summarize("random (gpu)", summary);
    report_.checked["random (gpu)"] = count;
    covered("random (gpu)", lo, hi);
    return;
  }
  std::mt19937_64 rng(seed_);
  std::size_t count = 0, shortest = SIZE_MAX, longest = 0;
  ProgressTask task(progress(), "random", wanted, "strings");
  for (std::size_t i = 0; i < wanted && !failing_; ++i) {
    task.set(i);
    std::size_t n = c_.target.fixed_length ? *c_.target.fixed_length
                    : (i % 3 == 2)         ? o_.max_random_length
                                   : 1 + rng() % std::max<std::size_t>(1, o_.max_random_length);
    std::vector<std::size_t> w(n);
    for (auto& s : w) s = rng() % S_;
    count += in_domain(w);
    shortest = std::min(shortest, n);
    longest = std::max(longest, n);
    record(w, "random", o_.three_way);
  }
  report_.checked["random"] = count;
  if (longest > 0) covered("random", shortest, longest);
}

// The strings exhaustive and random skipped because they lie outside the target's promise.
void Verification::count_skipped() {
  if (outside_promise_ > 0) report_.checked["skipped (outside the promise)"] = outside_promise_;
}

// One device run; a string the GPU finds failing goes to the CPU checker, which confirms it.
std::uint64_t Verification::on_device(const DeviceCheckOptions& d, const std::string& method,
                                      DeviceSummary& s) {
  const DeviceCheckReport dr = device_check(c_, d);
  if (s.runs++ == 0) s.lo = d.length;
  s.hi = d.length;
  s.device = dr.device;
  s.modulus = dr.modulus;
  s.prefix_runs += dr.method == kPrefixMethod;
  s.walk_runs += dr.method == kModelWalkMethod;
  s.skipped += dr.skipped;
  s.overflowed += dr.overflowed;
  outside_promise_ += dr.skipped;
  s.strings += dr.strings - dr.skipped;
  s.mismatches += dr.mismatches;
  s.max_primes = std::max(s.max_primes, dr.primes.size());
  s.float_proofs += dr.float_proof;
  s.all_exact = s.all_exact && dr.exact;
  s.max_log2_bound = std::max(s.max_log2_bound, dr.log2_bound);
  s.work_seconds += dr.kernel_seconds;
  s.work += dr.gate_evaluations_per_second * dr.kernel_seconds;
  if (dr.first_counterexample && !record(*dr.first_counterexample, method, o_.three_way))
    report_.notes.push_back("the GPU reported a mismatch on " +
                            join(sigma_, *dr.first_counterexample) +
                            " that the CPU does not reproduce");
  if (dr.first_overflow)
    report_.notes.push_back(fmt::format(
        "{}: {} strings left 64-bit integers in the model walk and were not compared (the "
        "first: {})",
        method, dr.overflowed, join(sigma_, *dr.first_overflow)));
  return dr.strings - dr.skipped;
}

void Verification::summarize(const std::string& method, const DeviceSummary& s) {
  if (s.walk_runs == s.runs && s.runs > 0) {  // every length by the model walk: integers
    report_.notes.push_back(fmt::format(
        "{}: lengths {}..{}, {} strings on {} ({} outside the promise), {} mismatching; {} "
        "(exact integers: {}); {:.3g} model steps/s",
        method, s.lo, s.hi, s.strings, s.device, s.skipped, s.mismatches, kModelWalkMethod,
        s.overflowed ? fmt::format("NOT every string — {} overflowed 64 bits", s.overflowed)
                     : std::string("every compared value"),
        s.work_seconds > 0 ? s.work / s.work_seconds : 0.0));
    return;
  }
  const std::string exactness =
      s.modulus ? fmt::format("compared mod {}", *s.modulus)
      : s.all_exact
          ? fmt::format(
                "every agreement proved exact ({} of {} lengths by the float bound alone, "
                "the others with ≤ {} prime(s))",
                s.float_proofs, s.runs, s.max_primes)
          : "NOT every agreement proved exact (the bound exceeds the primes)";
  report_.notes.push_back(fmt::format(
      "{}: lengths {}..{}, {} strings on {}, {} mismatching; max |X − f|·D ≤ 2^{:.1f}; {}; "
      "{:.3g} gate evaluations/s",
      method, s.lo, s.hi, s.strings, s.device, s.mismatches, s.max_log2_bound, exactness,
      s.work_seconds > 0 ? s.work / s.work_seconds : 0.0));
  if (s.prefix_runs)
    report_.notes.push_back(fmt::format("{}: {} of {} lengths {} (operations: multiply-adds)",
                                        method, s.prefix_runs, s.runs, kPrefixMethod));
}

}  // namespace rnncc::verify_internal
