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
// Montgomery form (arithmetic mode, algebra/mont31.hpp). In arithmetic mode an instruction may
// also carry the magnitude shadow: an upper bound on |value| in double precision, rounded up at
// every step, used to prove that the primes suffice (docs/performance.md, "Exactness").
#pragma once

#include <cmath>
#include <optional>
#include <cstdint>
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
};

struct Program {
  bool boolean = false;
  std::vector<Instr> code;
  // thr: k locations (as int32 bits), k weights, θ, and the counter's bit planes (≤ 64)
  std::vector<std::int32_t> aux;
  std::vector<Rational> constants;     // arithmetic: constant table (boolean: 0 = false, 1 = true)
  std::uint32_t inputs = 0, outputs = 0, pairs = 0;
  std::uint32_t slots = 0;             // on-chip slots used (≤ capacity)
  std::uint32_t spill_slots = 0;       // global slots used
  std::uint32_t peak_live = 0;         // largest number of simultaneously live values
  std::size_t spill_stores = 0, spill_reads = 0;
  std::size_t gate_operations = 0;     // operations of the circuit evaluated (stats' count)
  // Instructions that evaluate gates (not input, spill, output, compare): two-input gate
  // evaluations per pattern — for an AIG its AND count. Throughput figures count these.
  std::size_t gate_instructions = 0;
  std::uint32_t max_threshold_planes = 0;  // bit planes a threshold counter needs (boolean)
};

// Throws std::invalid_argument for gates the mode cannot evaluate (positive; arithmetic
// constants in a boolean program) and for slot_capacity < 3.
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
    case ProgOp::add: return mont31::add(a, b, f);
    case ProgOp::sub: return mont31::sub(a, b, f);
    case ProgOp::mul: return mont31::mul(a, b, f);
    case ProgOp::neg: return mont31::neg(a, f);
    case ProgOp::and2: return (a != 0 && b != 0) ? one : 0;
    case ProgOp::or2: return (a != 0 || b != 0) ? one : 0;
    case ProgOp::xor2: return ((a != 0) != (b != 0)) ? one : 0;
    case ProgOp::not1:
    case ProgOp::is_zero: return a == 0 ? one : 0;
    default: return 0;
  }
}

// Magnitude shadow: m ≥ |value|, rounded up (one ulp above round-to-nearest is an upper bound).
RNNCC_HD double up(double x) {
  return nextafter(x, INFINITY);
}
RNNCC_HD double exec_magnitude(const Instr& in, double a, double b) {
  switch (in.op()) {
    case ProgOp::add:
    case ProgOp::sub: return up(a + b);
    case ProgOp::mul: return up(a * b);
    case ProgOp::neg: return a;
    default: return 1.0;  // truth values
  }
}

// ---- the CPU twin ------------------------------------------------------------------------------

// Output digest: boolean — per output, the number of patterns where it is 1; arithmetic — per
// prime and output, Σ value mod p (plain residues). Per pair, the patterns that differ (any
// prime), the first few of them, and (arithmetic) the largest magnitude bound of a − b seen.
struct ProgramResult {
  std::uint64_t patterns = 0;
  std::vector<std::uint64_t> ones;                 // boolean: [output]
  std::vector<std::vector<std::uint64_t>> sums;    // arithmetic: [prime][output]
  std::vector<std::uint64_t> mismatches;           // [pair]
  std::optional<std::uint64_t> first_mismatch;     // the smallest pattern number that differs
  // Some patterns that differ, sorted (the CPU twin keeps the smallest; the GPU the first
  // max_first_mismatches to arrive, so tests check them against the twin's full evaluation).
  std::vector<std::uint64_t> first_mismatches;
  std::vector<double> max_difference_bound;        // arithmetic: [pair]
  std::vector<std::uint64_t> stored;               // if asked: [pattern][prime][output] / words
};

struct RunOptions {
  patterns::Spec patterns;
  std::vector<std::uint32_t> primes;  // arithmetic
  bool store = false;                 // keep every output value (small runs, tests)
  bool magnitude = false;             // arithmetic: run the magnitude shadow
  std::size_t max_first_mismatches = 8;
};

// Runs the program pattern by pattern (word by word) on one thread: the plain twin of the GPU
// kernels. Boolean: patterns.count is rounded up to whole words; lanes past count are masked.
ProgramResult run_program(const Program& p, const RunOptions& options);

// Magnitude of a constant as a double rounded up (the shadow's value for a constant gate).
double magnitude_of(const Rational& r);

}  // namespace rnncc
