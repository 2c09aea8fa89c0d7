#include "rnn/attention.hpp"

#include <stdexcept>

#include "rnn/families.hpp"

namespace rnncc {

std::string to_string(AttentionKind k) {
  switch (k) {
    case AttentionKind::unique_hard:
      return "unique_hard";
    case AttentionKind::averaging_hard:
      return "averaging_hard";
    case AttentionKind::softmax:
      return "softmax";
  }
  throw std::logic_error("unhandled attention kind");
}

std::optional<AttentionKind> parse_attention_kind(std::string_view name) {
  if (name == "unique_hard") return AttentionKind::unique_hard;
  if (name == "averaging_hard") return AttentionKind::averaging_hard;
  if (name == "softmax") return AttentionKind::softmax;
  return std::nullopt;
}

std::string to_string(TieRule r) {
  return r == TieRule::leftmost ? "leftmost" : "rightmost";
}

std::optional<TieRule> parse_tie_rule(std::string_view name) {
  if (name == "leftmost") return TieRule::leftmost;
  if (name == "rightmost") return TieRule::rightmost;
  return std::nullopt;
}

namespace {

const std::size_t L = ParamError::layer_level;

void check_map(const LinearMap& f, std::size_t k, const std::string& name) {
  if (f.weights.rows() == 0 || f.weights.cols() != k)
    throw ParamError(
        L, name + "/weights",
        "expected out×" + std::to_string(k) + " matrix (out ≥ 1), got " + shape_string(f.weights));
  if (f.bias.rows() != f.weights.rows() || f.bias.cols() != 1)
    throw ParamError(
        L, name + "/bias",
        "expected " + std::to_string(f.weights.rows()) + "×1 column, got " + shape_string(f.bias));
}

}  // namespace

void check_layer(const AttentionLayer& l) {
  check_map(l.query, l.features, "query");
  check_map(l.key, l.features, "key");
  check_map(l.value, l.features, "value");
  if (l.key.weights.rows() != l.query.weights.rows())
    throw ParamError(
        L, "key/weights",
        "expected " + std::to_string(l.query.weights.rows()) + "×" + std::to_string(l.features) +
            " matrix (keys have as many rows as queries), got " + shape_string(l.key.weights));
  if (l.window && *l.window == 0) throw ParamError(L, "window", "expected a window ≥ 1");
}

std::size_t first_visible(const AttentionLayer& l, std::size_t t) {
  return l.window && t > *l.window ? t - *l.window + 1 : 1;
}

Integer round_exp_neg(const Rational& a, unsigned frac_bits, Rounding mode) {
  if (a < 0) throw std::invalid_argument("round_exp_neg: expected a ≥ 0");
  const Integer scale = Integer(1) << frac_bits;
  if (a == 0) return scale;
  // ln 2 < 0.6932, so a ≥ 0.6932·(F+1) implies exp(−a) < 2^−(F+1): rounds to 0 either way.
  if (a >= Rational(6932, 10000) * Rational(static_cast<long>(frac_bits) + 1)) return Integer(0);
  for (std::size_t K = 16;; K *= 2) {
    // P = Σ_{j ≤ K} a^j/j!;  e^a − P ≤ a^{K+1}/(K+1)! · (K+2)/(K+2−a)  when K + 2 > a.
    Rational P = 1, term = 1;
    for (std::size_t j = 1; j <= K; ++j) {
      term = term * a / Rational(static_cast<long>(j));
      P += term;
    }
    const Rational k2 = Rational(static_cast<long>(K) + 2);
    if (k2 <= a) continue;
    const Rational tail = term * a / Rational(static_cast<long>(K) + 1) * k2 / (k2 - a);
    const Integer hi = round_rational(Rational(scale) / P, mode);
    const Integer lo = round_rational(Rational(scale) / (P + tail), mode);
    if (hi == lo) return hi;
  }
}

}  // namespace rnncc
