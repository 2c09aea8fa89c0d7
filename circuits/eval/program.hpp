// The device program: a circuit lowered to a straight-line list of two-operand instructions over
// a small file of on-chip slots, for bulk evaluation (one program, millions of patterns). The
// CUDA kernels (circuits/eval/cuda/) and the CPU twin below execute the same program with the
// same per-instruction functions (exec_word, exec_mod), so a GPU result can be checked against
// the CPU bit for bit.
//
// Lowering (lower_program):
//   - schedule: the live gates in depth-first post-order from the outputs (operands first,
//     left to right), which keeps values short-lived; or the circuit's own order, whichever
//     needs fewer slots at its peak;
//   - boolean mode: `not` gates disappear into inversion flags on their readers (and into the
//     weights of threshold gates: w·(1 − x) = w − w·x); n-ary and/or/xor/sum/product become
//     chains of two-operand instructions accumulating in the result's slot; maj becomes thr;
//   - slots: each value gets an on-chip slot (shared memory on the GPU) while one is free; when
//     none is, Belady's rule (evict the value whose next use is furthest; Belady 1966) moves
//     that value to a global "spill" slot — or places the new value there if it is the one
//     used furthest in the future. Reads of spilled values go straight to global memory.
//     Slots and spill slots are reused as soon as their value is dead;
//   - outputs and comparisons are instructions placed right after their value is computed.
//
// Values are 64-bit words of 64 patterns (boolean mode) or residues mod 31-bit primes in
// Montgomery form (arithmetic mode, algebra/mont31.hpp). In arithmetic mode a run may also carry
// the float shadow: every value in double precision with a rigorous error bound, from which
// |a − b| is bounded for compared pairs, to prove that the primes suffice (Approx below).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algebra/host_device.hpp"
#include "algebra/mont31.hpp"
#include "algebra/rational.hpp"
#include "circuits/circuit.hpp"
#include "circuits/eval/patterns.hpp"

namespace rnncc {

// An operand location: kind in the top two bits, index below.
enum class LocKind : std::uint32_t { slot = 0, spill = 1, constant = 2 };
inline constexpr std::uint32_t kLocIndexBits = 30;
inline constexpr std::uint32_t kLocIndexMask = (1u << kLocIndexBits) - 1;
RNNCC_HD constexpr std::uint32_t make_loc(LocKind k, std::uint32_t index) {
  return static_cast<std::uint32_t>(k) << kLocIndexBits | index;
}
RNNCC_HD constexpr LocKind loc_kind(std::uint32_t loc) {
  return static_cast<LocKind>(loc >> kLocIndexBits);
}
RNNCC_HD constexpr std::uint32_t loc_index(std::uint32_t loc) {
  return loc & kLocIndexMask;
}

//      name         meaning (a, b operands; d destination)
// clang-format off
#define RNNCC_PROGRAM_OPS(X)                                                             \
  X(input)   /* d = input b of the pattern                                         */    \
  X(spill)   /* d (a spill slot) = a                                               */    \
  X(output)  /* output b = a (digest and/or store)                                 */    \
  X(compare) /* pair b: a against the location in d                                */    \
  X(and2)    /* boolean: d = (a ^ ia) & (b ^ ib) ^ io; arithmetic: [a≠0 ∧ b≠0]      */    \
  X(or2)                                                                                 \
  X(xor2)                                                                                \
  X(not1)    /* arithmetic only: d = [a = 0]                                        */    \
  X(thr)     /* d = [Σ w_i x_i ≥ θ]; a = offset of (locs, weights, θ, planes), b = k */    \
  X(add) X(sub) X(mul) X(neg) /* arithmetic, mod p                                  */   \
  X(is_zero) /* d = [a = 0]                                                         */
// clang-format on

enum class ProgOp : std::uint8_t {
#define RNNCC_X(n) n,
  RNNCC_PROGRAM_OPS(RNNCC_X)
#undef RNNCC_X
};
std::string to_string(ProgOp op);

inline constexpr std::uint32_t kInvA = 1u << 8, kInvB = 1u << 9, kInvOut = 1u << 10;

struct Instr {
  std::uint32_t op_flags = 0;  // ProgOp in the low 8 bits, inversion flags above
  std::uint32_t d = 0, a = 0, b = 0;
  RNNCC_HD ProgOp op() const { return static_cast<ProgOp>(op_flags & 0xFF); }
};
static_assert(sizeof(Instr) == 16);

struct ProgramOptions {
  std::uint32_t slot_capacity = 96;  // on-chip slots per pattern (shared memory / lane width)
  // Output pairs compared by `compare` instructions (e.g. the model's output and the claimed
  // semantics' output of a check circuit).
  std::vector<std::pair<std::size_t, std::size_t>> compare_pairs;
  bool emit_outputs = true;  // `output` instructions for every circuit output
  // Lower in arithmetic mode even when every gate is boolean (a check circuit that folded to
  // constants and truth values still reads string patterns and compares residues).
  bool arithmetic = false;
};

struct Program {
  bool boolean = false;
  std::vector<Instr> code;
  // thr: k locations (as int32 bits), k weights, θ, and the counter's bit planes (≤ 64)
  std::vector<std::int32_t> aux;
  std::vector<Rational> constants;  // arithmetic: constant table (boolean: 0 = false, 1 = true)
  std::uint32_t inputs = 0, outputs = 0, pairs = 0;
  std::uint32_t slots = 0;        // on-chip slots used (≤ capacity)
  std::uint32_t spill_slots = 0;  // global slots used
  std::uint32_t peak_live = 0;    // largest number of simultaneously live values
  std::size_t spill_stores = 0, spill_reads = 0;
  std::size_t gate_operations = 0;  // operations of the circuit evaluated (stats' count)
  // Instructions that evaluate gates (not input, spill, output, compare): two-input gate
  // evaluations per pattern — for an AIG its AND count. Throughput figures count these.
  std::size_t gate_instructions = 0;
  std::uint32_t max_threshold_planes = 0;  // bit planes a threshold counter needs (boolean)
};

// Throws DomainError for gates the program cannot evaluate (positive: no order mod p; a
// threshold gate whose weights leave 32 bits once inversions are folded in),
// std::invalid_argument for arithmetic constants in a boolean program and slot_capacity < 3.
Program lower_program(const Circuit& c, const ProgramOptions& options);

// Bit planes of the two's-complement counter for Σ wᵢxᵢ − θ (sign bit included).
std::uint32_t threshold_planes(std::span<const std::int32_t> weights, std::int32_t theta);

// ---- per-instruction semantics, shared by the CPU twin and the kernels ------------------------

// Boolean: one word of 64 patterns.
RNNCC_HD std::uint64_t exec_word(const Instr& in, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t ia = in.op_flags & kInvA ? ~std::uint64_t{0} : 0;
  const std::uint64_t ib = in.op_flags & kInvB ? ~std::uint64_t{0} : 0;
  const std::uint64_t io = in.op_flags & kInvOut ? ~std::uint64_t{0} : 0;
  a ^= ia;
  b ^= ib;
  std::uint64_t r = in.op() == ProgOp::and2 ? (a & b) : in.op() == ProgOp::or2 ? (a | b) : (a ^ b);
  return r ^ io;
}

// Arithmetic: residues in Montgomery form (one = R mod p, the Montgomery form of 1).
RNNCC_HD std::uint32_t exec_mod(const Instr& in, std::uint32_t a, std::uint32_t b,
                                const mont31::Field& f, std::uint32_t one) {
  switch (in.op()) {
    case ProgOp::add:
      return mont31::add(a, b, f);
    case ProgOp::sub:
      return mont31::sub(a, b, f);
    case ProgOp::mul:
      return mont31::mul(a, b, f);
    case ProgOp::neg:
      return mont31::neg(a, f);
    case ProgOp::and2:
      return (a != 0 && b != 0) ? one : 0;
    case ProgOp::or2:
      return (a != 0 || b != 0) ? one : 0;
    case ProgOp::xor2:
      return ((a != 0) != (b != 0)) ? one : 0;
    case ProgOp::not1:
    case ProgOp::is_zero:
      return a == 0 ? one : 0;
    default:
      return 0;
  }
}

// The float shadow: every value also in double precision with a running error bound (Wilkinson's
// running error analysis; Higham, "Accuracy and Stability of Numerical Algorithms", §3.3):
// Approx{v, e} means |exact − v| ≤ e. With u = 2^−53 the unit roundoff, round-to-nearest gives
// |fl(x ∘ y) − x ∘ y| ≤ u·|fl(x ∘ y)|·(1 + u) ≤ 2u·|fl(x ∘ y)|, so
//   add/sub  e = e_a + e_b + 2u·|v|
//   mul      e = |v_a|·e_b + |v_b|·e_a + e_a·e_b + 2u·|v|
//   neg      e = e_a
// and every error term is itself rounded up (`up`: the next double above), so e stays an upper
// bound. Truth-valued gates (and, or, thr, is_zero, …) test exact zeros, which a float cannot
// decide: they get {0.5, 0.5}, covering both 0 and 1. v is computed with single roundings only
// (no fused multiply-add: dadd/dmul), so the CPU twin and the GPU agree bit for bit.
struct Approx {
  double v = 0, e = 0;
};
inline constexpr double kTwoU = 0x1p-52;

// The next double above x ≥ 0 (x itself if infinite or NaN): one integer add on the bits.
RNNCC_HD double up(double x) {
  if (!(x < INFINITY)) return x;
#ifdef __CUDA_ARCH__
  return __longlong_as_double(__double_as_longlong(x) + 1);
#else
  std::uint64_t bits;
  __builtin_memcpy(&bits, &x, sizeof bits);
  ++bits;
  __builtin_memcpy(&x, &bits, sizeof bits);
  return x;
#endif
}
RNNCC_HD double dadd(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
RNNCC_HD double dmul(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
RNNCC_HD Approx exec_shadow(const Instr& in, Approx a, Approx b) {
  switch (in.op()) {
    case ProgOp::add:
    case ProgOp::sub: {
      const double v = in.op() == ProgOp::add ? dadd(a.v, b.v) : dadd(a.v, -b.v);
      return {v, up(dadd(up(dadd(a.e, b.e)), up(dmul(kTwoU, fabs(v)))))};
    }
    case ProgOp::mul: {
      const double v = dmul(a.v, b.v);
      const double cross = up(dadd(up(dmul(fabs(a.v), b.e)), up(dmul(fabs(b.v), a.e))));
      return {v, up(dadd(cross, up(dadd(up(dmul(a.e, b.e)), up(dmul(kTwoU, fabs(v)))))))};
    }
    case ProgOp::neg:
      return {-a.v, a.e};
    default:
      return {0.5, 0.5};  // a truth value: 0 or 1
  }
}
// |exact a − exact b| ≤ |v_a − v_b| + e_a + e_b, rounded up.
RNNCC_HD double difference_bound(Approx a, Approx b) {
  return up(dadd(up(fabs(dadd(a.v, -b.v))), up(dadd(a.e, b.e))));
}
// An integer input x: exact below 2^53.
RNNCC_HD Approx approx_of_integer(std::uint64_t x) {
  const double v = static_cast<double>(x);
  return {v, x < (std::uint64_t{1} << 53) ? 0.0 : up(dmul(kTwoU, v))};
}

// ---- the CPU twin ------------------------------------------------------------------------------

// Output digest: boolean — per output, the number of patterns where it is 1; arithmetic — per
// prime and output, Σ value mod p (plain residues). Per pair, the patterns that differ (any
// prime), the first few of them, and (arithmetic) the largest magnitude bound of a − b seen.
struct ProgramResult {
  std::uint64_t patterns = 0;
  std::vector<std::uint64_t> ones;               // boolean: [output]
  std::vector<std::vector<std::uint64_t>> sums;  // arithmetic: [prime][output]
  std::vector<std::uint64_t> mismatches;         // [pair]
  std::optional<std::uint64_t> first_mismatch;   // the smallest pattern number that differs
  // Some patterns that differ, sorted (the CPU twin keeps the smallest; the GPU the first
  // max_first_mismatches to arrive, so tests check them against the twin's full evaluation).
  std::vector<std::uint64_t> first_mismatches;
  // Arithmetic with the float shadow: per pair, the largest bound on |a − b| over all patterns.
  std::vector<double> max_difference_bound;
  std::vector<std::uint64_t> stored;  // if asked: [pattern][prime][output] / words
};

struct RunOptions {
  patterns::Spec patterns;
  std::vector<std::uint32_t> primes;  // arithmetic
  bool store = false;                 // keep every output value (small runs, tests)
  bool magnitude = false;             // arithmetic: run the float shadow (Approx) with prime 0
  std::size_t max_first_mismatches = 8;
};

// A constant c = num/den of the program in Montgomery form mod f.p: num · den⁻¹ · R mod p.
// Throws std::invalid_argument when p divides den (an unlucky prime; callers choose primes that
// divide no denominator).
std::uint32_t montgomery_constant(const Rational& c, const mont31::Field& f);

// Runs the program pattern by pattern (word by word) on one thread: the plain twin of the GPU
// kernels. Boolean: patterns.count is rounded up to whole words; lanes past count are masked.
ProgramResult run_program(const Program& p, const RunOptions& options);

// A constant's float shadow (the conversion truncates: error ≤ one ulp ≤ 2u·|v|, plus the
// smallest subnormal for values that underflow).
Approx approx_of(const Rational& r);

}  // namespace rnncc
