#include "circuits/arith/integer_arith.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "algebra/error.hpp"
#include "circuits/arith/log2.hpp"

namespace rnncc {

namespace {

GateId zero(CircuitBuilder& b) {
  return b.constant(Rational(0));
}
GateId one(CircuitBuilder& b) {
  return b.constant(Rational(1));
}
GateId and2(CircuitBuilder& b, GateId x, GateId y) {
  const GateId ops[2] = {x, y};
  return b.and_(ops);
}
GateId or2(CircuitBuilder& b, GateId x, GateId y) {
  const GateId ops[2] = {x, y};
  return b.or_(ops);
}
GateId xor2(CircuitBuilder& b, GateId x, GateId y) {
  const GateId ops[2] = {x, y};
  return b.xor_(ops);
}

void same_width(const Word& a, const Word& c, const char* what) {
  if (a.width() != c.width() || a.width() == 0)
    throw InputError(what, "expected two nonempty words of equal width, got widths " +
                               std::to_string(a.width()) + " and " + std::to_string(c.width()));
}

template <class Op>
GateId tree(std::span<const GateId> bits, GateId empty, Op op) {
  if (bits.empty()) return empty;
  std::vector<GateId> level(bits.begin(), bits.end());
  while (level.size() > 1) {
    std::size_t k = 0;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) level[k++] = op(level[i], level[i + 1]);
    if (level.size() % 2) level[k++] = level.back();
    level.resize(k);
  }
  return level[0];
}

// A bit heap: columns of bits of weight 2^c (c < width), plus a constant, all mod 2^width.
class BitHeap {
 public:
  BitHeap(CircuitBuilder& b, std::size_t width, FullAdderForm form = FullAdderForm::fan_in_2)
      : b_(b), cols_(width), form_(form) {}

  void add_bit(GateId g, std::size_t col) {
    if (col >= cols_.size()) return;
    if (b_.is_constant(g)) {
      if (b_.view().constant(g) != 0) constant_ += Integer(1) << col;
      return;
    }
    cols_[col].push_back(g);
  }
  void add_constant(const Integer& v) { constant_ += v; }

  // +bit·2^col for bits below the top, −top·2^col = ¬top·2^col − 2^col.
  void add_signed_word(const Word& w, unsigned shift) {
    for (std::size_t i = 0; i + 1 < w.width(); ++i) add_bit(w[i], i + shift);
    const std::size_t top = w.width() - 1 + shift;
    if (top >= cols_.size()) return;
    add_bit(b_.not_(w.sign()), top);
    constant_ -= Integer(1) << top;
  }

  // Baugh–Wooley: a·c = Σ_{i,j} (−1)^{[i=wa−1]+[j=wc−1]} a_i c_j 2^{i+j}; a negative term
  // −x·2^k is written ¬x·2^k − 2^k.
  void add_product(const Word& a, const Word& c) {
    const std::size_t wa = a.width(), wc = c.width();
    for (std::size_t i = 0; i < wa; ++i)
      for (std::size_t j = 0; j < wc && i + j < cols_.size(); ++j) {
        const GateId p = and2(b_, a[i], c[j]);
        const bool negative = (i + 1 == wa) != (j + 1 == wc);
        if (!negative) {
          add_bit(p, i + j);
        } else {
          add_bit(b_.not_(p), i + j);
          constant_ -= Integer(1) << (i + j);
        }
      }
  }

  std::size_t height() const {
    std::size_t h = 0;
    for (const auto& c : cols_) h = std::max(h, c.size());
    return h + 1;  // the constant row
  }

  // Reduces to two rows and adds them: the value of the heap mod 2^width.
  Word sum(Reduction reduction, const AdderSpec& spec) {
    const TwoRows r = reduce(reduction);
    return add_prefix(b_, r.x, r.y, spec).sum;
  }

  // Reduces to two rows x, y with x + y ≡ the heap (mod 2^width).
  TwoRows reduce(Reduction reduction) {
    const std::size_t width = cols_.size();
    const Integer modulus = Integer(1) << width;
    Integer k = constant_ % modulus;
    if (k < 0) k += modulus;
    for (std::size_t c = 0; c < width; ++c)
      if (boost::multiprecision::bit_test(k, static_cast<unsigned>(c))) cols_[c].push_back(one(b_));
    std::size_t h = 0;
    for (const auto& c : cols_) h = std::max(h, c.size());
    if (reduction == Reduction::dadda) {
      std::vector<std::size_t> targets{2};
      while (targets.back() * 3 / 2 < h) targets.push_back(targets.back() * 3 / 2);
      for (std::size_t i = targets.size(); i-- > 0;)
        if (targets[i] < h) stage(targets[i]);
    }
    while (max_height() > 2) stage(0);  // Wallace stages (target 0: compress all)
    TwoRows r;
    for (std::size_t c = 0; c < width; ++c) {
      r.x.bits.push_back(cols_[c].size() > 0 ? cols_[c][0] : zero(b_));
      r.y.bits.push_back(cols_[c].size() > 1 ? cols_[c][1] : zero(b_));
    }
    return r;
  }

  std::size_t stages() const { return stages_; }

 private:
  std::size_t max_height() const {
    std::size_t h = 0;
    for (const auto& c : cols_) h = std::max(h, c.size());
    return h;
  }

  // One compressor stage. Adders read only bits present before the stage, so the stage adds
  // at most 3 levels (a full adder's carry). target > 0: Dadda, reduce every column to at most
  // `target` bits (carries from the column below count); target 0: Wallace, every group of 3
  // old bits a full adder, a remaining pair a half adder.
  void stage(std::size_t target) {
    ++stages_;
    const std::size_t width = cols_.size();
    std::vector<std::vector<GateId>> next(width);
    for (std::size_t c = 0; c < width; ++c) {
      const std::vector<GateId>& old = cols_[c];
      std::size_t pos = 0;
      auto carry = [&](GateId g) {
        if (c + 1 < width) next[c + 1].push_back(g);
      };
      if (target > 0) {
        std::size_t height = old.size() + next[c].size();
        while (height > target) {
          const std::size_t avail = old.size() - pos;
          if (height >= target + 2 && avail >= 3) {
            full_adder(old[pos], old[pos + 1], old[pos + 2], next[c], carry);
            pos += 3;
            height -= 2;
          } else if (avail >= 2) {
            half_adder(old[pos], old[pos + 1], next[c], carry);
            pos += 2;
            height -= 1;
          } else {
            break;  // not expected for Dadda heights; a later stage finishes
          }
        }
      } else {
        while (old.size() - pos >= 3) {
          full_adder(old[pos], old[pos + 1], old[pos + 2], next[c], carry);
          pos += 3;
        }
        if (old.size() - pos == 2) {
          half_adder(old[pos], old[pos + 1], next[c], carry);
          pos += 2;
        }
      }
      next[c].insert(next[c].end(), old.begin() + static_cast<std::ptrdiff_t>(pos), old.end());
    }
    cols_ = std::move(next);
  }

  template <class Carry>
  void full_adder(GateId x, GateId y, GateId z, std::vector<GateId>& col, Carry& carry) {
    if (form_ == FullAdderForm::flat) {
      const GateId xyz[] = {x, y, z};
      col.push_back(b_.xor_(xyz));
      const GateId pairs[] = {and2(b_, x, y), and2(b_, x, z), and2(b_, y, z)};
      carry(b_.or_(pairs));
      return;
    }
    const GateId t = xor2(b_, x, y);
    col.push_back(xor2(b_, t, z));
    carry(or2(b_, and2(b_, x, y), and2(b_, t, z)));
  }
  template <class Carry>
  void half_adder(GateId x, GateId y, std::vector<GateId>& col, Carry& carry) {
    col.push_back(xor2(b_, x, y));
    carry(and2(b_, x, y));
  }

  CircuitBuilder& b_;
  std::vector<std::vector<GateId>> cols_;
  Integer constant_ = 0;
  std::size_t stages_ = 0;
  FullAdderForm form_;
};

}  // namespace

// ---- words -----------------------------------------------------------------------------

Word constant_word(CircuitBuilder& b, const Integer& value, std::size_t width) {
  const Integer modulus = Integer(1) << width;
  Integer v = value % modulus;
  if (v < 0) v += modulus;
  Word w;
  for (std::size_t i = 0; i < width; ++i)
    w.bits.push_back(boost::multiprecision::bit_test(v, static_cast<unsigned>(i)) ? one(b)
                                                                                  : zero(b));
  return w;
}

Word input_word(CircuitBuilder& b, const std::string& name, std::size_t width) {
  Word w;
  for (std::size_t i = 0; i < width; ++i)
    w.bits.push_back(b.input(name + ".b[" + std::to_string(i) + "]"));
  return w;
}

Word resize(const Word& a, std::size_t width) {
  if (a.width() == 0) throw InputError("resize", "expected a nonempty word");
  Word w;
  for (std::size_t i = 0; i < width; ++i) w.bits.push_back(i < a.width() ? a[i] : a.sign());
  return w;
}

Word resize_unsigned(CircuitBuilder& b, const Word& a, std::size_t width) {
  Word w;
  for (std::size_t i = 0; i < width; ++i) w.bits.push_back(i < a.width() ? a[i] : zero(b));
  return w;
}

Word bitwise_not(CircuitBuilder& b, const Word& a) {
  Word w;
  for (GateId g : a.bits) w.bits.push_back(b.not_(g));
  return w;
}

Word negate(CircuitBuilder& b, const Word& a, const AdderSpec& spec) {
  const Word n = bitwise_not(b, a);
  return add_prefix(b, n, constant_word(b, 0, a.width()), spec, one(b)).sum;
}

GateId and_tree(CircuitBuilder& b, std::span<const GateId> bits) {
  return tree(bits, one(b), [&](GateId x, GateId y) { return and2(b, x, y); });
}
GateId or_tree(CircuitBuilder& b, std::span<const GateId> bits) {
  return tree(bits, zero(b), [&](GateId x, GateId y) { return or2(b, x, y); });
}

// ---- adders ----------------------------------------------------------------------------

SumResult add_ripple(CircuitBuilder& b, const Word& a, const Word& c, GateId carry_in) {
  same_width(a, c, "add_ripple");
  GateId carry = carry_in == kNoGate ? zero(b) : carry_in;
  SumResult r;
  for (std::size_t i = 0; i < a.width(); ++i) {
    const GateId t = xor2(b, a[i], c[i]);
    r.sum.bits.push_back(xor2(b, t, carry));
    carry = or2(b, and2(b, a[i], c[i]), and2(b, t, carry));
  }
  r.carry_out = carry;
  return r;
}

SumResult add_prefix(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec,
                     GateId carry_in) {
  same_width(a, c, "add_prefix");
  struct GP {
    GateId g, p;
  };
  const std::size_t w = a.width(), off = carry_in == kNoGate ? 0 : 1;
  std::vector<GP> v(w + off);
  std::vector<GateId> p(w);
  if (off) v[0] = {carry_in, zero(b)};
  for (std::size_t i = 0; i < w; ++i) {
    p[i] = xor2(b, a[i], c[i]);
    v[i + off] = {and2(b, a[i], c[i]), p[i]};
  }
  run_prefix(prefix_network(spec.carry_tree, v.size(), spec.ladner_fischer_k), v,
             [&](const GP& later, const GP& earlier) {
               return GP{or2(b, later.g, and2(b, later.p, earlier.g)), and2(b, later.p, earlier.p)};
             });
  SumResult r;
  for (std::size_t i = 0; i < w; ++i)
    r.sum.bits.push_back(i + off == 0 ? p[i] : xor2(b, p[i], v[i + off - 1].g));
  r.carry_out = v.back().g;
  return r;
}

SumResult subtract(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec) {
  same_width(a, c, "subtract");
  return add_prefix(b, a, bitwise_not(b, c), spec, one(b));
}

// ---- multipliers -----------------------------------------------------------------------

Word multiply_array(CircuitBuilder& b, const Word& a, const Word& c, std::size_t out_width) {
  if (a.width() == 0 || c.width() == 0 || out_width == 0)
    throw InputError("multiply_array", "expected nonempty words and out_width ≥ 1");
  const Word x = resize(a, out_width), y = resize(c, out_width);
  Word acc;
  for (std::size_t j = 0; j < out_width; ++j) {
    Word row;
    for (std::size_t i = 0; i < out_width; ++i)
      row.bits.push_back(i < j ? zero(b) : and2(b, x[i - j], y[j]));
    acc = j == 0 ? row : add_ripple(b, acc, row).sum;
  }
  return acc;
}

Word multiply_tree(CircuitBuilder& b, const Word& a, const Word& c, std::size_t out_width,
                   Reduction reduction, const AdderSpec& spec) {
  const Word terms_a[1] = {a}, terms_c[1] = {c};
  return dot_product(b, terms_a, terms_c, nullptr, 0, out_width, reduction, spec);
}

Word dot_product(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                 const Word* addend, unsigned addend_shift, std::size_t out_width,
                 Reduction reduction, const AdderSpec& spec) {
  if (a.size() != x.size())
    throw InputError("dot_product", "expected as many left as right operands, got " +
                                        std::to_string(a.size()) + " and " +
                                        std::to_string(x.size()));
  if (out_width == 0) throw InputError("dot_product", "expected out_width ≥ 1");
  BitHeap heap(b, out_width);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].width() == 0 || x[i].width() == 0)
      throw InputError("dot_product", "expected nonempty words");
    heap.add_product(a[i], x[i]);
  }
  if (addend) heap.add_signed_word(*addend, addend_shift);
  return heap.sum(reduction, spec);
}

Word dot_product_plain(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                       const Word* addend, unsigned addend_shift, std::size_t out_width) {
  if (a.size() != x.size())
    throw InputError("dot_product_plain", "expected as many left as right operands");
  Word acc = constant_word(b, 0, out_width);
  for (std::size_t i = 0; i < a.size(); ++i)
    acc = add_ripple(b, acc, multiply_array(b, a[i], x[i], out_width)).sum;
  if (addend) {
    Word shifted;
    for (std::size_t i = 0; i < out_width; ++i)
      shifted.bits.push_back(i < addend_shift
                                 ? zero(b)
                                 : (i - addend_shift < addend->width() ? (*addend)[i - addend_shift]
                                                                       : addend->sign()));
    acc = add_ripple(b, acc, shifted).sum;
  }
  return acc;
}

TwoRows reduce_bit_heap(CircuitBuilder& b, std::vector<std::vector<GateId>> columns,
                        const Integer& constant, Reduction reduction, FullAdderForm form) {
  if (columns.empty()) throw InputError("reduce_bit_heap", "expected at least one column");
  BitHeap heap(b, columns.size(), form);
  for (std::size_t c = 0; c < columns.size(); ++c)
    for (GateId g : columns[c]) heap.add_bit(g, c);
  heap.add_constant(constant);
  return heap.reduce(reduction);
}

// ---- comparators -------------------------------------------------------------------------

GateId equal(CircuitBuilder& b, const Word& a, const Word& c) {
  same_width(a, c, "equal");
  std::vector<GateId> diff;
  for (std::size_t i = 0; i < a.width(); ++i) diff.push_back(xor2(b, a[i], c[i]));
  return b.not_(or_tree(b, diff));
}

GateId is_zero(CircuitBuilder& b, const Word& a) {
  return b.not_(or_tree(b, a.bits));
}

GateId less_unsigned(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec) {
  return b.not_(subtract(b, a, c, spec).carry_out);  // a + ¬c + 1 carries out iff a ≥ c
}

GateId less_signed(CircuitBuilder& b, const Word& a, const Word& c, const AdderSpec& spec) {
  same_width(a, c, "less_signed");
  Word x = a, y = c;  // adding 2^{w−1} to both maps signed order to unsigned order
  x.bits.back() = b.not_(x.sign());
  y.bits.back() = b.not_(y.sign());
  return less_unsigned(b, x, y, spec);
}

Word mux(CircuitBuilder& b, GateId sel, const Word& if_true, const Word& if_false) {
  same_width(if_true, if_false, "mux");
  const GateId nsel = b.not_(sel);
  Word w;
  for (std::size_t i = 0; i < if_true.width(); ++i)
    w.bits.push_back(or2(b, and2(b, sel, if_true[i]), and2(b, nsel, if_false[i])));
  return w;
}

// ---- fixed point -------------------------------------------------------------------------

Word round_shift(CircuitBuilder& b, const Word& v, unsigned shift, Rounding mode,
                 const AdderSpec& spec) {
  const std::size_t w = v.width();
  if (shift >= w)
    throw InputError("round_shift", "expected a shift below the word width " + std::to_string(w) +
                                        ", got " + std::to_string(shift));
  if (shift == 0) return resize(v, w + 1);
  Word q;  // ⌊v / 2^s⌋, one bit wider so that q + 1 cannot overflow
  for (std::size_t i = shift; i < w; ++i) q.bits.push_back(v[i]);
  q.bits.push_back(v.sign());
  const std::span<const GateId> low(v.bits.data(), shift);
  GateId inc;
  if (mode == Rounding::nearest_even) {
    const GateId sticky = or_tree(b, low.first(shift - 1));
    inc = and2(b, v[shift - 1], or2(b, sticky, q[0]));
  } else {
    inc = and2(b, v.sign(), or_tree(b, low));
  }
  return add_prefix(b, q, constant_word(b, 0, q.width()), spec, inc).sum;
}

Saturated saturate(CircuitBuilder& b, const Word& v, unsigned m) {
  const std::size_t w = v.width();
  if (m == 0 || w == 0) throw InputError("saturate", "expected magnitude_bits ≥ 1 and a word");
  if (w <= m) return {resize(v, m + 1), zero(b)};
  const GateId sign = v.sign();
  std::vector<GateId> differ;  // bits m..w−2 that differ from the sign
  for (std::size_t i = m; i + 1 < w; ++i) differ.push_back(xor2(b, v[i], sign));
  const GateId out_of_range = or_tree(b, differ);
  const GateId low_zero = b.not_(or_tree(b, std::span<const GateId>(v.bits.data(), m)));
  // |v| > 2^m − 1: v does not fit in m + 1 bits, or v = −2^m.
  const GateId overflow = or2(b, out_of_range, and2(b, sign, low_zero));
  const GateId nsign = b.not_(sign);
  const GateId novf = b.not_(overflow);
  Saturated s;
  s.overflow = overflow;
  s.value.bits.push_back(or2(b, v[0], overflow));  // ±(2^m − 1) both end in bit 0 = 1
  const GateId fill = and2(b, overflow, nsign);    // bits 1..m−1 of +max are 1, of −max 0
  for (std::size_t i = 1; i < m; ++i) s.value.bits.push_back(or2(b, fill, and2(b, novf, v[i])));
  s.value.bits.push_back(sign);
  return s;
}

std::size_t dot_exact_width(std::size_t terms, std::size_t wa, std::size_t wx, std::size_t wc,
                            unsigned shift) {
  // |a·x| ≤ 2^(wa−1)·2^(wx−1), |c·2^k| ≤ 2^(wc−1+k): the sum B needs bit_length(B) + 1 bits.
  Integer bound = Integer(terms) << (wa + wx - 2);
  if (wc > 0) bound += Integer(1) << (wc - 1 + shift);
  return bit_length(bound) + 1;
}

Saturated fixed_dot(CircuitBuilder& b, std::span<const Word> a, std::span<const Word> x,
                    const Word* addend, const FixedFormat& f, Reduction reduction,
                    const AdderSpec& spec) {
  const std::size_t W = 1 + f.int_bits + f.frac_bits;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].width() != W || x[i].width() != W)
      throw InputError("fixed_dot", "expected operands of width 1 + I + F = " + std::to_string(W));
  if (addend && addend->width() != W)
    throw InputError("fixed_dot", "expected an addend of width 1 + I + F = " + std::to_string(W));
  const std::size_t wide = dot_exact_width(a.size(), W, W, addend ? W : 0, f.frac_bits);
  const Word exact = dot_product(b, a, x, addend, f.frac_bits, wide, reduction, spec);
  const Word rounded = round_shift(b, exact, f.frac_bits, f.rounding, spec);
  return saturate(b, rounded, f.int_bits + f.frac_bits);
}

// ---- stated bounds -------------------------------------------------------------------------

std::size_t compressor_stages(Reduction reduction, std::size_t h) {
  std::size_t s = 0;
  if (reduction == Reduction::dadda) {
    for (std::size_t d = 2; d < h; d = d * 3 / 2) ++s;
    return s;
  }
  while (h > 2) {  // a column keeps ⌊h/3⌋ + (h mod 3) bits and receives ⌊h/3⌋ + [h mod 3 = 2]
    h -= h / 3;
    ++s;
  }
  return s;
}

std::size_t prefix_adder_depth(std::size_t w, bool carry_in, const AdderSpec& spec) {
  const std::size_t m = w + (carry_in ? 1 : 0);
  return 2 * prefix_chain_depth(spec.carry_tree, m, spec.ladner_fischer_k) + 2;
}

std::size_t ripple_adder_depth(std::size_t w) {
  return 2 * w + 1;
}

std::size_t dot_product_depth(std::size_t terms, std::size_t wa, std::size_t wx,
                              std::size_t out_width, Reduction reduction, const AdderSpec& spec) {
  const std::size_t h = terms * std::min(wa, wx) + 2;
  return 2 + 3 * compressor_stages(reduction, h) + prefix_adder_depth(out_width, false, spec);
}

std::size_t round_shift_depth(std::size_t w, unsigned shift, const AdderSpec& spec) {
  if (shift == 0) return 0;
  return ceil_log2(shift) + 2 + prefix_adder_depth(w - shift + 1, true, spec);
}

std::size_t saturate_depth(std::size_t w, unsigned m) {
  if (w <= m) return 0;
  return ceil_log2(std::max<std::size_t>(w - m, m)) + 6;
}

std::size_t fixed_dot_depth(std::size_t terms, const FixedFormat& f, bool addend,
                            Reduction reduction, const AdderSpec& spec) {
  const std::size_t W = 1 + f.int_bits + f.frac_bits;
  const std::size_t wide = dot_exact_width(terms, W, W, addend ? W : 0, f.frac_bits);
  return dot_product_depth(terms, W, W, wide, reduction, spec) +
         round_shift_depth(wide, f.frac_bits, spec) +
         saturate_depth(wide - f.frac_bits + 1, f.int_bits + f.frac_bits);
}

std::size_t fixed_dot_gates(std::size_t terms, const FixedFormat& f, bool addend,
                            const AdderSpec& spec) {
  const std::size_t W = 1 + f.int_bits + f.frac_bits;
  const std::size_t wide = dot_exact_width(terms, W, W, addend ? W : 0, f.frac_bits);
  const std::size_t bits = terms * W * W + (addend ? W : 0) + wide;  // heap bits
  const std::size_t h = terms * W + 2;
  const std::size_t stages = compressor_stages(Reduction::dadda, h) + 1;
  const auto adder = [&](std::size_t m) {
    return 3 * m + 3 * prefix_node_count(spec.carry_tree, m, spec.ladner_fischer_k) + 3;
  };
  const std::size_t narrow = wide - f.frac_bits + 1;
  return terms * (W * W + 2 * W) + (addend ? W : 0)  // partial products, complements
         + 5 * bits + 2 * stages * wide              // full and half adders
         + adder(wide)                               // final adder
         + f.frac_bits + 3 + adder(narrow + 1)       // rounding
         + 6 * narrow + 10;                          // saturation
}

}  // namespace rnncc
