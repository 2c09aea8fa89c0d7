#include "verify/bitvec.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rnncc::sat {

bool Word::constant() const {
  return std::all_of(bits.begin(), bits.end(), [](Lit b) { return b <= kTrue; });
}

namespace {

// A word whose bits are all constant has the range of its one value (ranges are hulls).
Word settle(Word w) {
  if (!w.constant()) return w;
  w.lo = w.hi = WordBuilder::value(w, {false});
  return w;
}

}  // namespace

std::size_t signed_width(const Integer& lo, const Integer& hi) {
  std::size_t w = 1;
  // Holds [−2^{w−1}, 2^{w−1} − 1].
  while (true) {
    const Integer half = Integer(1) << (w - 1);
    if (lo >= -half && hi <= half - 1) return w;
    ++w;
  }
}

Word WordBuilder::constant(const Integer& v) {
  const std::size_t w = signed_width(v, v);
  Word out;
  out.lo = out.hi = v;
  Integer u = v;
  if (u < 0) u += Integer(1) << w;  // two's complement
  for (std::size_t i = 0; i < w; ++i)
    out.bits.push_back(bit_test(u, static_cast<unsigned>(i)) ? kTrue : kFalse);
  return out;
}

Word WordBuilder::from_bit(Lit b) {
  Word out;
  out.bits = {b, kFalse};
  out.lo = b == kTrue ? 1 : 0;
  out.hi = b == kFalse ? 0 : 1;
  return out;
}

std::vector<Lit> WordBuilder::extend(const Word& a, std::size_t width) const {
  std::vector<Lit> bits = a.bits;
  while (bits.size() < width) bits.push_back(a.bits.back());
  return bits;
}

void WordBuilder::raise(Lit f) {
  if (f != kFalse) flags_.push_back(f);
}

Lit WordBuilder::take_flag() {
  const Lit f = aig_.or_all(flags_);
  flags_.clear();
  return f;
}

Word WordBuilder::fit(std::vector<Lit> bits, const Integer& lo, const Integer& hi) {
  const std::size_t need = signed_width(lo, hi);
  Word out;
  if (need <= cap_) {
    if (need < bits.size()) bits.resize(need);
    out.lo = lo;
    out.hi = hi;
    if (lo >= 0) bits.back() = kFalse;  // the range proves the sign
    if (hi < 0) bits.back() = kTrue;
  } else {
    std::vector<Lit> over;
    for (std::size_t i = cap_; i < bits.size(); ++i)
      over.push_back(aig_.lxor(bits[i], bits[cap_ - 1]));
    raise(aig_.or_all(over));
    bits.resize(cap_);
    const Integer half = Integer(1) << (cap_ - 1);
    out.lo = std::max(lo, Integer(-half));
    out.hi = std::min(hi, Integer(half - 1));
  }
  out.bits = std::move(bits);
  return settle(std::move(out));
}

std::vector<Lit> WordBuilder::add_bits(const std::vector<Lit>& a, const std::vector<Lit>& b,
                                       Lit carry) {
  std::vector<Lit> s(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Lit x = aig_.lxor(a[i], b[i]);
    s[i] = aig_.lxor(x, carry);
    carry = aig_.lor(aig_.land(a[i], b[i]), aig_.land(carry, x));
  }
  return s;
}

Word WordBuilder::add(const Word& a, const Word& b) {
  const std::size_t w = std::max(a.width(), b.width()) + 1;
  return fit(add_bits(extend(a, w), extend(b, w), kFalse), a.lo + b.lo, a.hi + b.hi);
}

Word WordBuilder::sub(const Word& a, const Word& b) {
  const std::size_t w = std::max(a.width(), b.width()) + 1;
  std::vector<Lit> nb = extend(b, w);
  for (Lit& x : nb) x = negate(x);
  return fit(add_bits(extend(a, w), nb, kTrue), a.lo - b.hi, a.hi - b.lo);
}

Word WordBuilder::neg(const Word& a) {
  return sub(constant(0), a);
}

Word WordBuilder::mul(const Word& a, const Word& b) {
  if (b.constant()) return mul_const(a, b.lo);
  if (a.constant()) return mul_const(b, a.lo);
  // Signed a·b = Σ_{i < wb−1} b_i·(a << i) − b_{wb−1}·(a << (wb−1)), at width wa + wb.
  const std::size_t w = a.width() + b.width();
  const std::vector<Lit> ae = extend(a, w);
  std::vector<Lit> acc(w, kFalse);
  for (std::size_t i = 0; i < b.width(); ++i) {
    if (b.bits[i] == kFalse) continue;
    std::vector<Lit> row(w, kFalse);
    for (std::size_t j = i; j < w; ++j) row[j] = aig_.land(ae[j - i], b.bits[i]);
    if (i + 1 < b.width()) {
      acc = add_bits(acc, row, kFalse);
    } else {
      for (Lit& x : row) x = negate(x);
      acc = add_bits(acc, row, kTrue);
    }
  }
  const Integer c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return fit(std::move(acc), *std::min_element(c, c + 4), *std::max_element(c, c + 4));
}

Word WordBuilder::mul_const(const Word& a, const Integer& c) {
  if (c == 0) return constant(0);
  if (c == 1) return a;
  if (c < 0) return neg(mul_const(a, -c));
  // Shift and add over the bits of c.
  const std::size_t w = a.width() + bit_length(c) + 1;
  const std::vector<Lit> ae = extend(a, w);
  std::vector<Lit> acc(w, kFalse);
  bool first = true;
  for (std::size_t i = 0; i < bit_length(c); ++i) {
    if (!bit_test(c, static_cast<unsigned>(i))) continue;
    std::vector<Lit> row(w, kFalse);
    for (std::size_t j = i; j < w; ++j) row[j] = ae[j - i];
    acc = first ? row : add_bits(acc, row, kFalse);
    first = false;
  }
  return fit(std::move(acc), a.lo * c, a.hi * c);
}

Word WordBuilder::div_exact(const Word& a, const Integer& q) {
  if (q <= 0) throw std::invalid_argument("div_exact: a positive divisor");
  if (q == 1) return a;
  auto floor_div = [](const Integer& x, const Integer& y) {
    Integer d = x / y;  // truncates toward 0
    if (x < 0 && d * y != x) d -= 1;
    return d;
  };
  auto ceil_div = [&](const Integer& x, const Integer& y) { return -floor_div(-x, y); };
  Word cur = a;
  Integer rest = q;
  std::size_t shift = 0;
  while (bit_test(rest, 0) == false) {
    rest >>= 1;
    ++shift;
  }
  if (shift) {  // the low `shift` bits must be 0; then an arithmetic shift
    std::vector<Lit> low;
    for (std::size_t i = 0; i < shift && i < cur.width(); ++i) low.push_back(cur.bits[i]);
    raise(aig_.or_all(low));
    std::vector<Lit> bits;
    for (std::size_t i = shift; i < cur.width(); ++i) bits.push_back(cur.bits[i]);
    if (bits.empty()) bits.push_back(cur.bits.back());
    const Integer p2 = Integer(1) << shift;
    cur = fit(bits, ceil_div(a.lo, p2), floor_div(a.hi, p2));
  }
  if (rest == 1) return cur;
  // Odd part: R = cur·rest⁻¹ mod 2^w is cur/rest when rest | cur; checked by R·rest = cur.
  const std::size_t w = cur.width();
  const Integer mod = Integer(1) << w;
  Integer inv = 1;  // Newton's iteration for the inverse modulo 2^w
  for (int i = 0; i < 8; ++i) inv = (inv * (2 - rest * inv)) % mod;
  if (inv < 0) inv += mod;
  const std::size_t keep = cap_;
  cap_ = std::size_t{1} << 20;  // the products below are exact (no flags of their own)
  Word r = mul_const(cur, inv);
  r.bits.resize(w);  // modulo 2^w
  const Integer lo = ceil_div(cur.lo, rest), hi = floor_div(cur.hi, rest);
  r.lo = lo;
  r.hi = hi;
  Word check_r;
  check_r.bits = r.bits;  // as a signed w-bit value (any, for the check)
  const Integer half = Integer(1) << (w - 1);
  check_r.lo = -half;
  check_r.hi = half - 1;
  const Word back = mul_const(check_r, rest);
  cap_ = keep;
  raise(negate(equal(back, cur)));
  return fit(r.bits, lo, hi);
}

Word WordBuilder::relu(const Word& a) {
  if (a.lo >= 0) return a;
  if (a.hi <= 0) return constant(0);
  Word out;
  const Lit pos = negate(a.bits.back());
  for (std::size_t i = 0; i + 1 < a.width(); ++i) out.bits.push_back(aig_.land(a.bits[i], pos));
  out.bits.push_back(kFalse);
  out.lo = 0;
  out.hi = a.hi;
  return settle(std::move(out));
}

Word WordBuilder::mux(Lit s, const Word& a, const Word& b) {
  if (s == kTrue) return a;
  if (s == kFalse) return b;
  const std::size_t w = std::max(a.width(), b.width());
  const std::vector<Lit> x = extend(a, w), y = extend(b, w);
  Word out;
  for (std::size_t i = 0; i < w; ++i) out.bits.push_back(aig_.mux(s, x[i], y[i]));
  out.lo = std::min(a.lo, b.lo);
  out.hi = std::max(a.hi, b.hi);
  return settle(std::move(out));
}

Word WordBuilder::select(const std::vector<Lit>& selectors, const std::vector<Word>& words) {
  if (words.empty()) throw std::invalid_argument("select: no words");
  std::size_t w = 0;
  Integer lo = words[0].lo, hi = words[0].hi;
  for (const Word& x : words) {
    w = std::max(w, x.width());
    lo = std::min(lo, x.lo);
    hi = std::max(hi, x.hi);
  }
  // Words with the same bits share one selector (the OR of theirs).
  std::map<std::vector<Lit>, std::vector<Lit>> groups;
  for (std::size_t k = 0; k < words.size(); ++k) {
    if (selectors[k] == kFalse) continue;
    groups[extend(words[k], w)].push_back(selectors[k]);
  }
  Word out;
  out.lo = lo;
  out.hi = hi;
  if (groups.size() == 1) {
    out.bits = groups.begin()->first;
    return settle(std::move(out));
  }
  std::vector<std::pair<Lit, const std::vector<Lit>*>> sel;
  for (const auto& [bits, s] : groups) sel.push_back({aig_.or_all(s), &bits});
  for (std::size_t i = 0; i < w; ++i) {
    std::vector<Lit> terms;
    for (const auto& [s, bits] : sel) terms.push_back(aig_.land(s, (*bits)[i]));
    out.bits.push_back(aig_.or_all(terms));
  }
  return settle(std::move(out));
}

Lit WordBuilder::less(const Word& a, const Word& b) {
  if (a.hi < b.lo) return kTrue;
  if (a.lo >= b.hi) return kFalse;
  const std::size_t w = std::max(a.width(), b.width()) + 1;
  std::vector<Lit> nb = extend(b, w);
  for (Lit& x : nb) x = negate(x);
  return add_bits(extend(a, w), nb, kTrue).back();
}

Lit WordBuilder::equal(const Word& a, const Word& b) {
  if (a.hi < b.lo || b.hi < a.lo) return kFalse;
  const std::size_t w = std::max(a.width(), b.width());
  const std::vector<Lit> x = extend(a, w), y = extend(b, w);
  std::vector<Lit> same;
  for (std::size_t i = 0; i < w; ++i) same.push_back(negate(aig_.lxor(x[i], y[i])));
  return aig_.and_all(same);
}

Integer WordBuilder::value(const Word& w, const std::vector<bool>& node_values) {
  Integer v = 0;
  for (std::size_t i = 0; i < w.width(); ++i)
    if (Aig::value(node_values, w.bits[i])) v += Integer(1) << i;
  if (Aig::value(node_values, w.bits.back())) v -= Integer(1) << w.width();
  return v;
}

}  // namespace rnncc::sat
