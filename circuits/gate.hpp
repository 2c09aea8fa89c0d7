// The closed list of gate kinds, written once (docs/architecture.md, "The circuit IR and its
// side tables"). Names, arities, evaluators, DOT styles and file formats all read this table, so
// they cannot drift apart.
//
// Semantics (docs/circuits.md, "Gates"): arithmetic gates compute in the evaluation domain;
// boolean and threshold gates read their operands as truth values (nonzero = true) and produce
// 0 or 1; `positive` is 1 iff its operand is > 0, `is_zero` iff it is = 0.
//   thr(x₁..x_k; w₁..w_k; θ) = [Σ wᵢ·xᵢ ≥ θ]  (integer weights and threshold)
//   maj(x₁..x_k) = [Σ xᵢ > k/2]
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rnncc {

//      name        text        family      min  max arity       commutative
#define RNNCC_GATE_KINDS(X)                              \
  X(constant, "const", arithmetic, 0, 0, false)          \
  X(input, "input", arithmetic, 0, 0, false)             \
  X(add, "add", arithmetic, 2, 2, true)                  \
  X(sub, "sub", arithmetic, 2, 2, false)                 \
  X(neg, "neg", arithmetic, 1, 1, false)                 \
  X(mul, "mul", arithmetic, 2, 2, true)                  \
  X(sum, "sum", arithmetic, 3, kUnbounded, true)         \
  X(product, "product", arithmetic, 3, kUnbounded, true) \
  X(and_, "and", boolean, 2, kUnbounded, true)           \
  X(or_, "or", boolean, 2, kUnbounded, true)             \
  X(xor_, "xor", boolean, 2, kUnbounded, true)           \
  X(not_, "not", boolean, 1, 1, false)                   \
  X(maj, "maj", threshold, 1, kUnbounded, true)          \
  X(thr, "thr", threshold, 1, kUnbounded, false)         \
  X(positive, "positive", test, 1, 1, false)             \
  X(is_zero, "is_zero", test, 1, 1, false)

inline constexpr std::uint32_t kUnbounded = (1u << 24) - 1;  // arity is stored in 24 bits

enum class GateKind : std::uint8_t {
#define RNNCC_X(id, text, family, lo, hi, comm) id,
  RNNCC_GATE_KINDS(RNNCC_X)
#undef RNNCC_X
};

enum class GateFamily : std::uint8_t { arithmetic, boolean, threshold, test };

struct GateKindInfo {
  std::string_view name;
  GateFamily family;
  std::uint32_t min_arity, max_arity;
  bool commutative;
};

inline constexpr GateKindInfo kGateKinds[] = {
#define RNNCC_X(id, text, fam, lo, hi, comm) {text, GateFamily::fam, lo, hi, comm},
    RNNCC_GATE_KINDS(RNNCC_X)
#undef RNNCC_X
};
inline constexpr std::size_t kGateKindCount = sizeof(kGateKinds) / sizeof(kGateKinds[0]);

constexpr const GateKindInfo& info(GateKind k) {
  return kGateKinds[static_cast<std::size_t>(k)];
}
constexpr std::string_view name(GateKind k) {
  return info(k).name;
}
std::optional<GateKind> parse_gate_kind(std::string_view text);

}  // namespace rnncc
