#include "circuits/eval/bulk.hpp"

#include <bit>
#include <chrono>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"

namespace rnncc {

namespace {

constexpr std::uint64_t kP = 2305843009213693951ull;  // 2^61 − 1

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}

// Pattern k's value of input i: exhaustive = bit i of k; random = a seeded stream.
struct Patterns {
  const BulkOptions& o;
  std::size_t inputs;
  std::uint64_t count() const { return o.exhaustive ? std::uint64_t{1} << inputs : o.batch; }
  // Boolean word w of input i: patterns 64w .. 64w+63.
  bits::Word word(std::uint64_t w, std::size_t i) const {
    if (!o.exhaustive) {
      std::uint64_t z = mix(o.seed * 0x100000001B3ull + i, w);
      return mix(z, 0x2545F4914F6CDD1Dull);
    }
    if (i < 6) {  // bit i of k = 64w + lane, lane < 64: a fixed word pattern
      constexpr bits::Word lanes[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull,
                                       0xF0F0F0F0F0F0F0F0ull, 0xFF00FF00FF00FF00ull,
                                       0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};
      return lanes[i];
    }
    return (w >> (i - 6) & 1) ? ~bits::Word{0} : 0;
  }
  std::uint64_t value(std::uint64_t k, std::size_t i, bool boolean) const {
    if (boolean) return word(k / 64, i) >> (k % 64) & 1;
    if (o.exhaustive) return k >> i & 1;
    return mix(mix(o.seed, k), i) % kP;
  }
};

void check(const Circuit& c, const BulkOptions& o) {
  if (o.exhaustive && c.inputs().size() > o.max_exhaustive_inputs)
    throw InputError("--exhaustive",
                     "2^" + std::to_string(c.inputs().size()) + " assignments of " +
                         std::to_string(c.inputs().size()) + " inputs exceed the cap of 2^" +
                         std::to_string(o.max_exhaustive_inputs) + " (use --batch N)");
  if (!o.exhaustive && o.batch == 0) throw InputError("--batch", "expected at least one pattern");
}

void finish(BulkResult& r, const Circuit& c, double seconds) {
  r.seconds = seconds;
  const double ops = static_cast<double>(compute_stats(c).operations());
  r.gate_evaluations_per_second = seconds > 0 ? ops * static_cast<double>(r.patterns) / seconds : 0;
  std::uint64_t h = r.patterns;
  for (std::uint64_t v : r.per_output) h = mix(h, v);
  r.fingerprint = h;
}

}  // namespace

BulkResult evaluate_bulk(const Circuit& c, const BulkOptions& o) {
  check(c, o);
  const Patterns pat{o, c.inputs().size()};
  BulkResult r;
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
