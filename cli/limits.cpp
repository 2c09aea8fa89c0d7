#include "cli/limits.hpp"

#include <limits>

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
                              std::uint64_t max_work, const std::string& command) {
  check_work("--max-work", saturating_mul(saturating_pow(dimension, 3), symbols), max_work,
             command + " would take", "field operations",
             "dimension " + std::to_string(dimension) + ", |Σ| = " + std::to_string(symbols) +
                 ": dimension^3 · |Σ|");
}

}  // namespace rnncc::cli
