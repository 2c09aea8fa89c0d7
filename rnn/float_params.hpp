// Floats to exact parameters at a stated precision, with the rounding error stated
// (docs/import.md, "Precision and the rounding report").
//
// A trained parameter is a double x (every F32/F16/BF16 value is one). At precision
//   exact   it becomes its exact dyadic rational: x = m·2^e, no error;
//   bits:k  it is rounded to the grid 2^-k (nearest, ties to even): q = round(x·2^k)/2^k;
//   log:c   it is rounded to the grid of the compiler's log precision for inputs of length n,
//           F = c·⌈log₂(n+1)⌉ fraction bits (algebra/fixed_point.hpp, log_precision), nearest
//           even as `compile --precision log:c` rounds parameters — so compiling the imported
//           model at log:c for length n rounds none of them again. log:c needs n (--length).
// Every rounding records |x − q| (an exact rational) under its parameter group ("A", "B",
// "beta", "readout", …); the report gives per group the count and the largest error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/rational.hpp"

namespace rnncc {

struct FloatPrecision {
  enum class Kind { exact, bits, log };
  Kind kind = Kind::exact;
  unsigned bits = 0;       // bits:k
  unsigned log_c = 0;      // log:c
  std::size_t length = 0;  // n, for log:c
  // The grid's fraction bits: k, or c·⌈log₂(n+1)⌉. 0 for exact (no grid).
  unsigned fraction_bits() const;
};

// "exact" | "bits:K" (0 ≤ K ≤ 1100: below 2^-1074 every double is on the grid) | "log:C"
// (1 ≤ C ≤ 64, needs length ≥ 1). InputError naming `flag` (or `length_flag`) otherwise.
FloatPrecision parse_float_precision(std::string_view text, std::size_t length,
                                     const std::string& flag = "--precision",
                                     const std::string& length_flag = "--length");
// "exact", "bits:12", "log:2 (n = 16: 10 fraction bits)"
std::string to_string(const FloatPrecision& p);

// The exact dyadic rational of a finite double. std::domain_error for inf and NaN.
Rational exact_rational(double x);

class ParamRounder {
 public:
  explicit ParamRounder(FloatPrecision precision) : precision_(precision) {}
  const FloatPrecision& precision() const { return precision_; }

  // x at the precision, recording the error under `group`. A non-finite x is an InputError
  // at `where` (a tensor name, "file: tensor 'x' entry 3").
  Rational operator()(double x, const std::string& group, const std::string& where);
  // An exact value computed from rounded parameters (no error of its own) joins `group`'s count.
  void count_exact(const std::string& group, std::size_t n = 1);

  struct Group {
    std::string name;
    std::size_t count = 0;
    Rational max_error = 0;  // max |x − q| over the group
  };
  const std::vector<Group>& groups() const { return groups_; }
  Rational max_error() const;

 private:
  Group& group(const std::string& name);
  FloatPrecision precision_;
  std::vector<Group> groups_;  // in order of first use
};

// {"precision": "...", "fraction_bits": F, "groups": [{"group", "count", "max_error" (exact
// text), "max_error_approx" (a double)}], "max_error": ...}
nlohmann::ordered_json rounding_report_json(const ParamRounder& r);
// One line per group: "  B          12 parameters, max |x − q| = 3/65536 (4.6e-05)".
std::string rounding_report_text(const ParamRounder& r);

}  // namespace rnncc
