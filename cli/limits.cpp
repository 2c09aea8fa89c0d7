#include "cli/limits.hpp"

#include <limits>
#include <string>
#include <vector>

#include "algebra/error.hpp"

namespace rnncc::cli {

namespace {
constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > kMax - b ? kMax : a + b;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}

std::uint64_t saturating_pow(std::uint64_t base, std::uint64_t exponent) {
  std::uint64_t r = 1;
  for (std::uint64_t i = 0; i < exponent && r != kMax; ++i) {
    if (base <= 1) return base == 0 ? 0 : 1;
    r = saturating_mul(r, base);
  }
  return r;
}

std::string estimate_text(std::uint64_t estimate) {
  return estimate == kMax ? "more than 2^64" : "about " + std::to_string(estimate);
}

void check_work(const std::string& option, std::uint64_t estimate, std::uint64_t limit,
                const std::string& what, const std::string& unit, const std::string& detail) {
  if (estimate <= limit) return;
  throw InputError(option, what + " " + estimate_text(estimate) + " " + unit +
                               (detail.empty() ? "" : " (" + detail + ")") +
                               ", more than the limit of " + std::to_string(limit) + " (raise " +
                               option + " to run it anyway)");
}

void check_forward_basis_work(std::uint64_t dimension, std::uint64_t symbols,
                              std::uint64_t max_work, const std::string& command, bool modular) {
  const std::string detail = "dimension " + std::to_string(dimension) +
                             ", |Σ| = " + std::to_string(symbols) + ": dimension^3 · |Σ|";
  const std::uint64_t work = saturating_mul(saturating_pow(dimension, 3), symbols);
  if (modular)
    check_work("--max-work", work, saturating_mul(max_work, kModularOpsPerFieldOp),
               command + " would take", "word operations modulo primes",
               detail + "; " + std::to_string(kModularOpsPerFieldOp) +
                   " of them count as one field operation of --max-work");
  else
    check_work("--max-work", work, max_work, command + " would take", "field operations", detail);
}

void check_verify_work(const Construction& c, const VerifyOptions& o, std::uint64_t max_work,
                       const std::string& option) {
  const std::uint64_t sigma = c.target.alphabet.size();
  std::uint64_t work = 0;
  std::vector<std::string> parts;
  const std::uint64_t random_length =
      c.target.fixed_length ? *c.target.fixed_length : o.max_random_length;
  if (o.random > 0) {
    work = saturating_add(work, saturating_mul(o.random, random_length));
    parts.push_back("--random " + std::to_string(o.random) + " × length " +
                    std::to_string(random_length));
  }
  if (o.exhaustive && !o.gpu) {
    const std::uint64_t lo = c.target.fixed_length ? *c.target.fixed_length : 1;
    const std::uint64_t hi = c.target.fixed_length ? *c.target.fixed_length : *o.exhaustive;
    std::uint64_t e = 0, strings = 0;
    // Stops once past the cap: at most cap + 1 rounds (|Σ| = 1), whatever L is.
    for (std::uint64_t n = lo; n <= hi && sigma > 0 && strings <= o.exhaustive_cap; ++n) {
      strings = saturating_add(strings, saturating_pow(sigma, n));
      e = saturating_add(e, saturating_mul(n, saturating_pow(sigma, n)));
    }
    // More strings than the engine's own cap: its refusal (which no option raises) says so.
    if (strings <= o.exhaustive_cap) {
      work = saturating_add(work, e);
      parts.push_back("--exhaustive: lengths " + std::to_string(lo) + ".." + std::to_string(hi) +
                      " over |Σ| = " + std::to_string(sigma));
    }
  }
  if (o.identity_rounds > 0) {
    const std::uint64_t l = o.identity_max_length;
    const std::uint64_t lengths = saturating_mul(l, l + 1) / 2;
    work = saturating_add(work, saturating_mul(saturating_mul(o.identity_rounds, sigma), lengths));
    parts.push_back("--identity " + std::to_string(o.identity_rounds) +
                    " × |Σ| = " + std::to_string(sigma) + " × lengths 1.." + std::to_string(l));
  }
  std::string detail;
  for (const std::string& p : parts) detail += (detail.empty() ? "" : "; ") + p;
  check_work(option, work, max_work, "verify would take", "symbol steps", detail);
}

}  // namespace rnncc::cli
