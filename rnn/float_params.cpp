#include "rnn/float_params.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"

namespace rnncc {

namespace {

std::optional<unsigned> small_number(std::string_view s, unsigned max) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + unsigned(c - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

std::string approx(const Rational& q) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", q.convert_to<double>());
  return buf;
}

}  // namespace

unsigned FloatPrecision::fraction_bits() const {
  switch (kind) {
    case Kind::exact:
      return 0;
    case Kind::bits:
      return bits;
    case Kind::log:
      return log_c * ceil_log2_plus1(length);
  }
  return 0;
}

FloatPrecision parse_float_precision(std::string_view text, std::size_t length,
                                     const std::string& flag, const std::string& length_flag) {
  FloatPrecision p;
  const std::string expected =
      "expected exact, bits:K (K an integer 0..1100) or log:C (C an integer 1..64)";
  if (text == "exact") return p;
  if (text.starts_with("bits:")) {
    auto k = small_number(text.substr(5), 1100);
    if (!k) throw InputError(flag, "'" + std::string(text) + "': " + expected);
    p.kind = FloatPrecision::Kind::bits;
    p.bits = *k;
    return p;
  }
  if (text.starts_with("log:")) {
    auto c = small_number(text.substr(4), 64);
    if (!c || *c < 1) throw InputError(flag, "'" + std::string(text) + "': " + expected);
    if (length == 0)
      throw InputError(length_flag,
                       "log:" + std::to_string(*c) +
                           " rounds to the grid of the compiler's log precision for a length n: "
                           "give the length (n ≥ 1)");
    p.kind = FloatPrecision::Kind::log;
    p.log_c = *c;
    p.length = length;
    return p;
  }
  throw InputError(flag, "'" + std::string(text) + "': " + expected);
}

std::string to_string(const FloatPrecision& p) {
  switch (p.kind) {
    case FloatPrecision::Kind::exact:
      return "exact";
    case FloatPrecision::Kind::bits:
      return "bits:" + std::to_string(p.bits);
    case FloatPrecision::Kind::log:
      return "log:" + std::to_string(p.log_c) + " (n = " + std::to_string(p.length) + ": " +
             std::to_string(p.fraction_bits()) + " fraction bits)";
  }
  return "?";
}

Rational exact_rational(double x) {
  if (!std::isfinite(x)) throw std::domain_error("exact_rational: not a finite number");
  int e;
  const double f = std::frexp(x, &e);  // x = f·2^e, |f| ∈ [1/2, 1)
  // f·2^53 is an integer (53 significant bits); x = m·2^(e − 53).
  const auto m = static_cast<long long>(std::ldexp(f, 53));
  Integer num(m);
  const int shift = e - 53;
  if (shift >= 0) return Rational(Integer(num << shift));
  return Rational(num, Integer(1) << -shift);
}

ParamRounder::Group& ParamRounder::group(const std::string& name) {
  for (Group& g : groups_)
    if (g.name == name) return g;
  groups_.push_back({name, 0, Rational(0)});
  return groups_.back();
}

void ParamRounder::count_exact(const std::string& name, std::size_t n) {
  group(name).count += n;
}

Rational ParamRounder::operator()(double x, const std::string& name, const std::string& where) {
  if (!std::isfinite(x))
    throw InputError(where, std::string(std::isnan(x) ? "NaN" : "an infinity") +
                                " where a parameter is needed (a finite number)");
  const Rational exact = exact_rational(x);
  Group& g = group(name);
  ++g.count;
  if (precision_.kind == FloatPrecision::Kind::exact) return exact;
  const unsigned F = precision_.fraction_bits();
  const Integer scale = Integer(1) << F;
  const Rational q(round_rational(exact * Rational(scale), Rounding::nearest_even), scale);
  const Rational err = abs(exact - q);
  if (err > g.max_error) g.max_error = err;
  return q;
}

Rational ParamRounder::max_error() const {
  Rational m = 0;
  for (const Group& g : groups_)
    if (g.max_error > m) m = g.max_error;
  return m;
}

nlohmann::ordered_json rounding_report_json(const ParamRounder& r) {
  nlohmann::ordered_json j;
  j["precision"] = to_string(r.precision());
  j["fraction_bits"] = r.precision().fraction_bits();
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& g : r.groups())
    groups.push_back({{"group", g.name},
                      {"count", g.count},
                      {"max_error", to_string(g.max_error)},
                      {"max_error_approx", g.max_error.convert_to<double>()}});
  j["groups"] = std::move(groups);
  j["max_error"] = to_string(r.max_error());
  return j;
}

std::string rounding_report_text(const ParamRounder& r) {
  std::string s =
      "precision " + to_string(r.precision()) + "; rounding error per parameter group:\n";
  for (const auto& g : r.groups()) {
    std::string name = g.name;
    name.resize(std::max<std::size_t>(name.size(), 13), ' ');
    s += "  " + name + " " + std::to_string(g.count) +
         (g.count == 1 ? " parameter" : " parameters") +
         ", max |x − q| = " + to_string(g.max_error) +
         (g.max_error == 0 ? "" : " (" + approx(g.max_error) + ")") + "\n";
  }
  return s;
}

}  // namespace rnncc
