#include "circuits/compile/common.hpp"

#include <cstdint>

#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/suggest.hpp"

namespace rnncc {

std::string input_name(std::size_t t, std::string_view symbol) {
  std::string s = "x[" + std::to_string(t) + ",";
  s += symbol;
  return s + "]";
}

std::vector<std::vector<GateId>> one_hot_inputs(CircuitBuilder& b, std::size_t n,
                                                std::size_t symbols,
                                                const std::vector<std::string>& names) {
  std::vector<std::vector<GateId>> x(n);
  for (std::size_t t = 0; t < n; ++t) {
    x[t].reserve(symbols);
    for (std::size_t s = 0; s < symbols; ++s)
      x[t].push_back(b.input(input_name(t + 1, s < names.size() ? names[s] : std::to_string(s))));
  }
  return x;
}

std::string to_string(const Scan& s) {
  if (s.chunk > 0) return "chunked:" + std::to_string(s.chunk);
  if (s.kind == ScanKind::ladner_fischer && s.ladner_fischer_k != 1)
    return to_string(s.kind) + ":" + std::to_string(s.ladner_fischer_k);
  return to_string(s.kind);
}

Scan parse_scan(std::string_view text, const std::string& flag) {
  const std::string expected =
      "expected sequential, sklansky, kogge-stone, brent-kung, ladner-fischer[:K] or chunked:C";
  auto number = [&](std::string_view digits, std::size_t max) -> std::size_t {
    std::size_t v = 0;
    if (digits.empty() || digits.size() > 9)
      throw InputError(flag, "'" + std::string(text) + "': " + expected);
    for (char ch : digits) {
      if (ch < '0' || ch > '9') throw InputError(flag, "'" + std::string(text) + "': " + expected);
      v = v * 10 + static_cast<std::size_t>(ch - '0');
    }
    if (v == 0 || v > max)
      throw InputError(
          flag, "'" + std::string(text) + "': the number must be in 1.." + std::to_string(max));
    return v;
  };
  Scan s;
  for (ScanKind k :
       {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone, ScanKind::brent_kung}) {
    if (text == to_string(k)) {
      s.kind = k;
      return s;
    }
  }
  if (text == "ladner-fischer" || text.starts_with("ladner-fischer:")) {
    s.kind = ScanKind::ladner_fischer;
    s.ladner_fischer_k = text.size() > 15 ? static_cast<unsigned>(number(text.substr(15), 64)) : 1;
    return s;
  }
  if (text.starts_with("chunked:")) {
    s.chunk = number(text.substr(8), 4096);
    return s;
  }
  throw InputError(
      flag, with_suggestion_before_colon("'" + std::string(text) + "': " + expected, text,
                                         {"sequential", "sklansky", "kogge-stone", "brent-kung",
                                          "ladner-fischer", "chunked"}));
}

FixedFormat Precision::format(std::size_t n) const {
  if (fixed) return *fixed;
  if (!log_c)
    throw std::logic_error("Precision::format: exact precision has no fixed-point format");
  return log_precision(*log_c, n, int_bits, rounding, overflow);
}

std::string to_string(const Precision& p) {
  if (p.fixed)
    return "fixed:" + std::to_string(p.fixed->int_bits) + "." + std::to_string(p.fixed->frac_bits);
  return p.log_c ? "log:" + std::to_string(*p.log_c) : "exact";
}

void Budget::check(std::size_t estimate, const std::string& detail) const {
  if (estimate > max_gates)
    throw InputError("--max-gates", "the circuit would have about " + std::to_string(estimate) +
                                        " gates" + (detail.empty() ? "" : " (" + detail + ")") +
                                        ", more than the limit of " + std::to_string(max_gates) +
                                        " (raise --max-gates to build it anyway)");
}

void Budget::check_memory(std::size_t gates, std::size_t bytes_a_gate,
                          const std::string& measured_for) const {
  // Saturating: gates × bytes could overflow only far past any limit (check_memory then says
  // "more than 2^64 bytes").
  const std::uint64_t g = gates, b = bytes_a_gate;
  const std::uint64_t bytes = b != 0 && g > UINT64_MAX / b ? UINT64_MAX : g * b;
  rnncc::check_memory("--max-memory", bytes, max_memory_mib, "compiling would take",
                      std::to_string(gates) + " gates × " + std::to_string(bytes_a_gate) +
                          " bytes a gate, measured for " + measured_for);
}

void check_length(std::size_t n) {
  if (n == 0) throw InputError("--length", "expected a length n ≥ 1, got 0");
}

}  // namespace rnncc
