// Montgomery arithmetic modulo an odd prime p < 2^31, on 32-bit words: the residue a is held as
// ā = a·R mod p with R = 2^32, and
//     redc(t) = t·R⁻¹ mod p   for t < p·R,
// computed as m = (t mod R)·p′ mod R with p′ = −p⁻¹ mod R, u = (t + m·p)/R (exact), u < 2p,
// then one conditional subtraction (Montgomery 1985, "Modular multiplication without trial
// division"). A product is mul(ā, b̄) = redc(ā·b̄) = (ab)‾. With p < 2^31, t + m·p < 2^64 and
// u < 2^32, so every step fits in 64-bit words: on the GPU a product is two 32×32→64 multiplies
// and a few adds, against the ~100-instruction 64-bit `%` of the plain form.
//
// These functions are the one definition of the GPU's mod-p gate semantics; the host runs the
// same ones in the CPU twin of the device program (circuits/eval/program.hpp), and tests compare
// them with algebra/modp_ops.hpp's plain (a·b) mod p.
#pragma once

#include <cstdint>

#include "algebra/host_device.hpp"

namespace rnncc::mont31 {

struct Field {
  std::uint32_t p = 0;      // odd prime < 2^31
  std::uint32_t p_neg_inv;  // −p⁻¹ mod 2^32
  std::uint32_t r2;         // R² mod p (R = 2^32), for converting into Montgomery form
};

// Newton's iteration for p⁻¹ mod 2^32: x ← x(2 − px) doubles the correct low bits (x = p is
// right mod 2^3 for odd p), five steps reach 32 bits.
RNNCC_HD constexpr Field make_field(std::uint32_t p) {
  std::uint32_t x = p;
  for (int i = 0; i < 5; ++i) x *= 2u - p * x;
  const std::uint64_t r = (std::uint64_t{1} << 32) % p;
  return Field{p, static_cast<std::uint32_t>(0u - x), static_cast<std::uint32_t>((r * r) % p)};
}

RNNCC_HD std::uint32_t redc(std::uint64_t t, const Field& f) {
  const std::uint32_t m = static_cast<std::uint32_t>(t) * f.p_neg_inv;
  const std::uint64_t u = (t + static_cast<std::uint64_t>(m) * f.p) >> 32;
  return static_cast<std::uint32_t>(u >= f.p ? u - f.p : u);
}
RNNCC_HD std::uint32_t mul(std::uint32_t a, std::uint32_t b, const Field& f) {
  return redc(static_cast<std::uint64_t>(a) * b, f);
}
RNNCC_HD std::uint32_t add(std::uint32_t a, std::uint32_t b, const Field& f) {
  const std::uint32_t s = a + b;  // < 2^32 for a, b < p < 2^31
  return s >= f.p ? s - f.p : s;
}
RNNCC_HD std::uint32_t sub(std::uint32_t a, std::uint32_t b, const Field& f) {
  return a >= b ? a - b : a + f.p - b;
}
RNNCC_HD std::uint32_t neg(std::uint32_t a, const Field& f) {
  return a == 0 ? 0 : f.p - a;
}
// a ∈ [0, p) into and out of Montgomery form (0 stays 0, so a zero test needs no conversion).
RNNCC_HD std::uint32_t to_mont(std::uint32_t a, const Field& f) {
  return mul(a, f.r2, f);
}
RNNCC_HD std::uint32_t from_mont(std::uint32_t a, const Field& f) {
  return redc(a, f);
}

}  // namespace rnncc::mont31
