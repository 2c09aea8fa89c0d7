// Two's-complement integer and fixed-point arithmetic as fan-in-2 boolean circuits
// (docs/circuits.md, "Integer arithmetic"; the carry-lookahead and multiplier-tree textbook
// constructions, e.g. [Knu98 §4.3.1], [Dad65], [Wal64], [LF80], [BK82]).
//
// A Word is a vector of gate ids, bit 0 least significant; a word of width w is read as the
// two's-complement integer −b_{w−1}·2^{w−1} + Σ_{i<w−1} b_i·2^i (functions that say
// "unsigned" read it as Σ b_i·2^i). Every gate built here is a binary and/or/xor or a not, so
// the depth a CircuitBuilder reports is the bounded-fan-in depth. Constants fold (an AND with a
// constant 0 disappears), so circuits over constant operands are smaller than the sizes stated.
//
// Depths are stated relative to the operands: "depth ≤ D + f" means every output bit has depth
// at most D + f where D is the largest depth of an operand bit; c(m) below is
// prefix_chain_depth(kind, m) of the carry tree (m positions), N(m) its prefix_node_count.
//
//   add_ripple       (a + b + cin) mod 2^w      depth ≤ D + 2w + 1            size ≤ 5w
//   add_prefix       (a + b + cin) mod 2^w      depth ≤ D + 2·c(w + [cin]) + 2  size ≤ 3w + 3N + 3
//   subtract         (a − b) mod 2^w            as add_prefix with cin = 1, plus w nots: D + 1 + …
//   multiply_array   (a·b) mod 2^W  (sign-extended operands)  depth ≤ D + 1 + (W−1)(2W+1)
//   multiply_tree    (a·b) mod 2^W  (Dadda or Wallace tree)   depth ≤ D + 2 + 3·s(h) + 2c(W) + 2
//   dot_product      (Σ aᵢ·bᵢ + c·2^k) mod 2^W, one tree and one final adder, same depth form
//   equal / is_zero  depth ≤ D + ⌈log₂ w⌉ + 2 / D + ⌈log₂ w⌉ + 1
//   less_unsigned    depth ≤ D + 2·c(w + 1) + 3                 (no carry out of a + ¬b + 1)
//   less_signed      depth ≤ D + 2·c(w + 1) + 4                 (sign bits flipped, unsigned)
//   mux              depth ≤ D + 3
//   round_shift      algebra's round_shift(v, s, mode), width w − s + 1
//                    depth ≤ D + ⌈log₂ s⌉ + 2 + 2·c(w − s + 2) + 2
//   saturate         to ±(2^m − 1), width m + 1, overflow flag;
//                    depth ≤ D + ⌈log₂ max(w − m, m)⌉ + 6
// s(h) is the number of compressor stages for a bit heap of largest column height h
// (compressor_stages). Sizes for trees: a heap of N bits uses at most N full adders (5 gates
// each: a full adder removes one bit) and at most s(h)·W half adders (2 gates).
//
// Sources: [Dad65] L. Dadda, "Some schemes for parallel multipliers", Alta Frequenza 34 (1965);
// [Wal64] C. S. Wallace, IEEE Trans. Electronic Computers EC-13 (1964); [BW73] C. R. Baugh,
// B. A. Wooley, IEEE Trans. Computers C-22 (1973) (signed partial products); [LF80] Ladner,
// Fischer, JACM 27 (1980); [BK82] Brent, Kung, IEEE Trans. Computers C-31 (1982).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "algebra/fixed_point.hpp"
#include "algebra/rational.hpp"
#include "circuits/arith/prefix.hpp"
#include "circuits/circuit.hpp"

namespace rnncc {

struct Word {
  std::vector<GateId> bits;  // bit 0 least significant
  std::size_t width() const { return bits.size(); }
  GateId operator[](std::size_t i) const { return bits[i]; }
  GateId sign() const { return bits.back(); }  // two's complement: the top bit
};

// The carry tree of a prefix adder: any prefix network of circuits/arith/prefix.hpp over
// the (generate, propagate) operator (g₂,p₂)∘(g₁,p₁) = (g₂ ∨ p₂∧g₁, p₂∧p₁).
struct AdderSpec {
  ScanKind carry_tree = ScanKind::sklansky;
  unsigned ladner_fischer_k = 1;
};

enum class Reduction { dadda, wallace };

// How a compressor tree builds a full adder (x, y, z) → (sum, carry):
//   fan_in_2: t = x⊕y, sum = t⊕z, carry = (x∧y) ∨ (z∧t)      depth 2 / 3, 5 binary gates
//   flat:     sum = xor(x, y, z), carry = or(x∧y, x∧z, y∧z)  depth 1 / 2 unbounded fan-in,
//             2 / 3 bounded; 5 gates (the xor and the or have 3 operands)
// Half adders are x⊕y, x∧y in both. Everything else in this header uses fan_in_2.
enum class FullAdderForm { fan_in_2, flat };

// ---- words -----------------------------------------------------------------------------

// value mod 2^width as constant bits (value may be negative: two's complement).
Word constant_word(CircuitBuilder& b, const Integer& value, std::size_t width);
// `width` fresh inputs named name.b[0] … name.b[width−1].
Word input_word(CircuitBuilder& b, const std::string& name, std::size_t width);
// Sign extension (width > w) or truncation to the low `width` bits; no gates.
Word resize(const Word& a, std::size_t width);
// Zero extension or truncation; uses a constant 0 gate.
Word resize_unsigned(CircuitBuilder& b, const Word& a, std::size_t width);
Word bitwise_not(CircuitBuilder& b, const Word& a);  // w nots, depth D + 1
// (−a) mod 2^w = ¬a + 1.
Word negate(CircuitBuilder& b, const Word& a, const AdderSpec& spec = {});
// Balanced trees of binary gates over `bits` (empty: the neutral constant); depth ⌈log₂ k⌉.
GateId and_tree(CircuitBuilder& b, std::span<const GateId> bits);
GateId or_tree(CircuitBuilder& b, std::span<const GateId> bits);

// ---- adders ----------------------------------------------------------------------------

struct SumResult {
  Word sum;          // (a + b + cin) mod 2^w
  GateId carry_out;  // the carry out of bit w−1 (unsigned overflow)
};

// The plain twin: a chain of full adders, s_i = a_i ⊕ b_i ⊕ c_i,
// c_{i+1} = a_i∧b_i ∨ c_i∧(a_i ⊕ b_i). carry_in = kNoGate means 0. Widths must agree.
SumResult add_ripple(CircuitBuilder& b, const Word& a, const Word& c, GateId carry_in = kNoGate);
// Carry lookahead: g_i = a_i∧b_i, p_i = a_i⊕b_i, carries from the prefix network over the
// (g,p) operator (a carry-in is an extra position −1 with g = cin, p = 0); s_i = p_i ⊕ G_{i−1}.
SumResult add_prefix(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec = {},
                     GateId carry_in = kNoGate);
// (a − c) mod 2^w = a + ¬c + 1 (prefix adder); carry_out = 1 iff a ≥ c unsigned.
SumResult subtract(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec = {});

// ---- multipliers and dot products --------------------------------------------------------

// The plain twin: a and c sign-extended to W = out_width bits, rows (a ∧ c_j)·2^j mod 2^W
// summed by ripple adders. Computes (a·c) mod 2^W, which is the exact signed product when
// W ≥ wa + wc.
Word multiply_array(CircuitBuilder& b, const Word& a, const Word& c, std::size_t out_width);
// The same function with Baugh–Wooley signed partial products (wa·wc ANDs, the wa + wc − 2
// negatively weighted ones complemented, a constant correction), reduced by a Dadda or
// Wallace tree of full/half adders to two rows and summed by a prefix adder.
Word multiply_tree(CircuitBuilder& b, const Word& a, const Word& c, std::size_t out_width,
                   Reduction reduction = Reduction::dadda, const AdderSpec& spec = {});

// (Σ_i a_i·x_i + addend·2^addend_shift) mod 2^out_width, all signed, in one bit heap: one
// compressor tree and one final prefix adder. addend may be null. a and x must have equal
// lengths (the words may have any widths).
Word dot_product(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                 const Word* addend, unsigned addend_shift, std::size_t out_width,
                 Reduction reduction = Reduction::dadda, const AdderSpec& spec = {});
// The plain twin of dot_product: multiply_array per term, ripple additions.
Word dot_product_plain(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                       const Word* addend, unsigned addend_shift, std::size_t out_width);

// A bit heap reduced to two rows: x + y ≡ Σ_j Σ_{g ∈ columns[j]} g·2^j + constant (mod 2^w),
// w = columns.size(), by the compressor tree of dot_product (Dadda: stages reduce every column
// to the next smaller height of 2, 3, 4, 6, 9, 13, …, then Wallace stages if any column is
// still above 2). compressor_stages(reduction, h) stages for h = the largest column height
// (+1 when the constant is nonzero mod 2^w); each adds at most 3 levels (fan_in_2) or 2
// (flat, unbounded fan-in). The bits of the constant become constant gates of the heap.
struct TwoRows {
  Word x, y;
};
TwoRows reduce_bit_heap(CircuitBuilder& b, std::vector<std::vector<GateId>> columns,
                        const Integer& constant, Reduction reduction = Reduction::dadda,
                        FullAdderForm form = FullAdderForm::fan_in_2);

// ---- comparators -------------------------------------------------------------------------

GateId equal(CircuitBuilder& b, const Word& a, const Word& c);
GateId is_zero(CircuitBuilder& b, const Word& a);
inline GateId is_negative(const Word& a) {
  return a.sign();
}
GateId less_unsigned(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec = {});
GateId less_signed(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec = {});
// sel ? if_true : if_false, bitwise (sel∧t) ∨ (¬sel∧f).
Word mux(CircuitBuilder& b, GateId sel, const Word& if_true, const Word& if_false);

// ---- fixed point (algebra/fixed_point.hpp) -------------------------------------------------

// Exactly algebra's round_shift(v, shift, mode) for the signed value v: nearest-even (ties to
// the even result) or toward zero. Output width w − shift + 1 (never overflows).
// q = ⌊v / 2^s⌋ (the high bits), then q + 1 when
//   nearest-even: v_{s−1} ∧ (v_{s−2} ∨ … ∨ v_0 ∨ q_0)       (remainder > half, or = half, q odd)
//   toward-zero:  sign ∧ (v_{s−1} ∨ … ∨ v_0)                (negative with a nonzero remainder)
Word round_shift(CircuitBuilder& b, const Word& v, unsigned shift, Rounding mode,
                 const AdderSpec& spec = {});

struct Saturated {
  Word value;       // width magnitude_bits + 1
  GateId overflow;  // 1 iff |v| > 2^magnitude_bits − 1 (the value was clamped)
};
// Clamps the signed v to ±(2^m − 1), m = magnitude_bits (algebra's FixedPoint::clamp with
// m = I + F), narrowing to m + 1 bits; m ≥ 1. When w ≤ m nothing can overflow.
Saturated saturate(CircuitBuilder& b, const Word& v, unsigned magnitude_bits);

// A fused fixed-point dot product, the evaluator's "one rounding per entry": the exact
// Σ aᵢxᵢ + c·2^F (raw values: aᵢ, xᵢ, c integers r with value r/2^F), rounded once by
// round_shift(·, F, rounding) and saturated to ±(2^(I+F) − 1). Inputs are words of width
// 1 + I + F (format's range); the exact sum is formed at dot_exact_width bits.
Saturated fixed_dot(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                    const Word* addend, const FixedFormat& format,
                    Reduction reduction = Reduction::dadda, const AdderSpec& spec = {});
// Width at which Σ_{k terms} (wa-bit)·(wx-bit) + (wc-bit)·2^shift is exact as a signed word.
std::size_t dot_exact_width(std::size_t terms, std::size_t wa, std::size_t wx, std::size_t wc,
                            unsigned shift);

// ---- stated bounds (the formulas above; tests check measured ≤ stated) ---------------------

// Compressor stages to bring a heap whose columns are at most h high down to 2 rows.
// Dadda: the number of d_j < h in 2, 3, 4, 6, 9, 13, … (d_{j+1} = ⌊3d_j/2⌋). Wallace: iterate
// h ← h − ⌊h/3⌋ while h > 2.
std::size_t compressor_stages(Reduction reduction, std::size_t h);
std::size_t prefix_adder_depth(std::size_t w, bool carry_in, const AdderSpec& spec);
std::size_t ripple_adder_depth(std::size_t w);
// Depth of dot_product / multiply_tree over operand bits of depth D (returns the increment):
// 2 (partial products: an AND, maybe a NOT) + 3 per compressor stage + the final adder.
// h is the largest column height: at most Σ_i min(wa_i, wx_i) + 2 (the addend and the
// constant correction row); we state it as terms·min(wa, wx) + 2.
std::size_t dot_product_depth(std::size_t terms, std::size_t wa, std::size_t wx,
                              std::size_t out_width, Reduction reduction, const AdderSpec& spec);
std::size_t round_shift_depth(std::size_t w, unsigned shift, const AdderSpec& spec);
std::size_t saturate_depth(std::size_t w, unsigned magnitude_bits);
std::size_t fixed_dot_depth(std::size_t terms, const FixedFormat& format, bool addend,
                            Reduction reduction, const AdderSpec& spec);
// Upper bound on the gates fixed_dot creates (before folding and sharing).
std::size_t fixed_dot_gates(std::size_t terms, const FixedFormat& format, bool addend,
                            const AdderSpec& spec);

}  // namespace rnncc
