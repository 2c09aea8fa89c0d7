#include "algebra/precision.hpp"

#include <charconv>

#include "algebra/error.hpp"
#include "algebra/modp.hpp"
#include "algebra/suggest.hpp"

namespace rnncc {

namespace {

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

PrecisionSpec parse_precision(std::string_view text, const std::string& flag) {
  PrecisionSpec spec;
  const std::string expected =
      "expected exact, log:C (C an integer 1..64) or mod:P (P a prime < 2^62)";
  if (text == "exact") return spec;
  if (text.starts_with("log:")) {
    auto c = parse_u64(text.substr(4));
    if (!c || *c < 1 || *c > 64) throw InputError(flag, "'" + std::string(text) + "': " + expected);
    spec.kind = PrecisionSpec::Kind::log;
    spec.log_c = static_cast<unsigned>(*c);
    return spec;
  }
  if (text.starts_with("mod:")) {
    auto p = parse_u64(text.substr(4));
    if (!p) throw InputError(flag, "'" + std::string(text) + "': " + expected);
    if (*p >> modp::max_modulus_bits)
      throw InputError(flag, "'" + std::string(text) + "': the modulus must be below 2^62");
    if (!modp::is_prime(*p))
      throw InputError(flag, "'" + std::string(text) + "': " + std::to_string(*p) +
                                 " is not prime (mod-p semantics needs a field)");
    spec.kind = PrecisionSpec::Kind::mod;
    spec.modulus = *p;
    return spec;
  }
  throw InputError(flag, with_suggestion_before_colon("'" + std::string(text) + "': " + expected,
                                                      text, {"exact", "log", "mod"}));
}

Rounding parse_rounding(std::string_view text, const std::string& flag) {
  if (text == "nearest-even") return Rounding::nearest_even;
  if (text == "toward-zero") return Rounding::toward_zero;
  throw InputError(
      flag, with_suggestion("'" + std::string(text) + "': expected nearest-even or toward-zero",
                            text, {"nearest-even", "toward-zero"}));
}

Overflow parse_overflow(std::string_view text, const std::string& flag) {
  if (text == "saturate") return Overflow::saturate;
  if (text == "error") return Overflow::error;
  throw InputError(flag, with_suggestion("'" + std::string(text) + "': expected saturate or error",
                                         text, {"saturate", "error"}));
}

void check_int_bits(const PrecisionSpec& spec, const std::string& flag) {
  if (spec.int_bits && (*spec.int_bits < 1 || *spec.int_bits > max_int_bits))
    throw InputError(flag, std::to_string(*spec.int_bits) + ": expected integer bits in 1.." +
                               std::to_string(max_int_bits));
}

std::string to_string(const PrecisionSpec& spec) {
  switch (spec.kind) {
    case PrecisionSpec::Kind::exact:
      return "exact";
    case PrecisionSpec::Kind::log:
      return "log:" + std::to_string(spec.log_c);
    case PrecisionSpec::Kind::mod:
      return "mod:" + std::to_string(spec.modulus);
  }
  return "?";
}

}  // namespace rnncc
