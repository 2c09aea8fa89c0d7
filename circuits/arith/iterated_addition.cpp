// Iterated addition in constant-depth threshold circuits (iterated_addition.hpp states the
// construction, the depth and size bounds, the int32 limits and the sources).
#include "circuits/arith/iterated_addition.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

// Largest block width tried: 4·max P_k ≤ kThrLimit needs max P_k < 2^29.
constexpr unsigned kMaxBlockBits = 29;

// Constant truth values that never become gates (a bit that is constantly 0 or 1 is folded into
// the next gate's threshold instead).
constexpr GateId kFalse = kNoGate;
constexpr GateId kTrue = kNoGate - 1;
// Count-only mode: the id a would-be gate gets (any non-sentinel value).
constexpr GateId kCounted = 0;

using Limbs = std::vector<std::uint64_t>;  // a nonnegative integer, least significant limb first

Limbs to_limbs(const Integer& a) {
  Limbs v;
  if (a.sign() <= 0) return v;
  const mpz_srcptr z = a.backend().data();
  v.resize((mpz_sizeinbase(z, 2) + 63) / 64);
  std::size_t count = 0;
  mpz_export(v.data(), &count, -1, sizeof(std::uint64_t), 0, 0, z);
  v.resize(count);
  return v;
}

// Bits [pos, pos + len) of v, len ≤ 32.
std::uint64_t digit(const Limbs& v, std::size_t pos, unsigned len) {
  const std::size_t w = pos / 64;
  const unsigned o = pos % 64;
  if (w >= v.size()) return 0;
  std::uint64_t x = v[w] >> o;
  if (o != 0 && w + 1 < v.size()) x |= v[w + 1] << (64 - o);
  return x & ((std::uint64_t{1} << len) - 1);
}

// Lowest and highest set bit (v ≠ 0).
std::size_t low_bit(const Limbs& v) {
  for (std::size_t w = 0; w < v.size(); ++w)
    if (v[w]) return 64 * w + static_cast<std::size_t>(std::countr_zero(v[w]));
  return 0;
}
std::size_t high_bit(const Limbs& v) {
  for (std::size_t w = v.size(); w-- > 0;)
    if (v[w]) return 64 * w + 63 - static_cast<std::size_t>(std::countl_zero(v[w]));
  return 0;
}
bool is_zero(const Limbs& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint64_t x) { return x == 0; });
}

unsigned bit_length64(std::uint64_t x) {
  return static_cast<unsigned>(std::bit_width(x));
}

// Smallest two's-complement width holding [lo, hi] (at least 1).
std::size_t width_for(const Integer& lo, const Integer& hi) {
  std::size_t w = 1;
  if (hi > 0) w = std::max(w, bit_length(hi) + 1);
  if (lo < 0) w = std::max(w, bit_length(Integer(-lo - 1)) + 1);
  return w;
}

Integer mod_pow2(const Integer& v, std::size_t width) {
  const Integer m = Integer(1) << width;
  Integer r = v % m;
  if (r < 0) r += m;
  return r;
}

// A term of a flat sum: the literal ŷ = x (neg = false) or 1 − x (neg = true), magnitude ≥ 0.
struct Lit {
  GateId x = kNoGate;
  bool neg = false;
};
struct Flat {
  std::vector<Lit> lits;
  std::vector<Limbs> mags;
  Limbs constant;  // ≥ 0
};

// The bits of one block sum P_k: bits[j] is bit offset + j of the total (kFalse/kTrue allowed).
struct BlockBits {
  std::size_t offset = 0;
  std::vector<GateId> bits;
};

// Builds (bld ≠ nullptr) or only counts (bld = nullptr) the gates of the construction.
struct Ctx {
  CircuitBuilder* bld;
  SumSize& count;

  // [Σ wᵢ·opsᵢ ≥ θ]; trivial comparisons fold to kTrue/kFalse, thr(x; w; θ) with 0 < θ ≤ w is x.
  GateId thr(const std::vector<GateId>& ops, const std::vector<std::int64_t>& ws,
             std::int64_t theta) {
    std::int64_t lo = 0, hi = 0, total = theta < 0 ? -theta : theta;
    for (std::int64_t w : ws) {
      (w < 0 ? lo : hi) += w;
      total += w < 0 ? -w : w;
    }
    if (theta <= lo) return kTrue;
    if (theta > hi) return kFalse;
    if (ops.size() == 1 && ws[0] > 0) return ops[0];
    if (total > kThrLimit)
      throw std::logic_error("threshold construction: a thr gate with Σ|w| + |θ| = " +
                             std::to_string(total) + " exceeds 2^31 − 1");
    ++count.gates;
    count.wires += ops.size();
    if (!bld) return kCounted;
    std::vector<std::int32_t> w32(ws.begin(), ws.end());
    return bld->thr(ops, w32, static_cast<std::int32_t>(theta));
  }

  GateId and_(std::vector<GateId> ops) {
    if (std::find(ops.begin(), ops.end(), kFalse) != ops.end()) return kFalse;
    ops.erase(std::remove(ops.begin(), ops.end(), kTrue), ops.end());
    if (ops.empty()) return kTrue;
    if (ops.size() == 1) return ops[0];
    ++count.gates;
    count.wires += ops.size();
    return bld ? bld->and_(ops) : kCounted;
  }
  GateId or_(std::vector<GateId> ops) {
    if (std::find(ops.begin(), ops.end(), kTrue) != ops.end()) return kTrue;
    ops.erase(std::remove(ops.begin(), ops.end(), kFalse), ops.end());
    if (ops.empty()) return kFalse;
    if (ops.size() == 1) return ops[0];
    ++count.gates;
    count.wires += ops.size();
    return bld ? bld->or_(ops) : kCounted;
  }
  // A constant 1 among the operands negates the first non-constant one (not the result), so
  // the adder's sum bits keep depth 4 when an operand bit is constant.
  GateId xor_(std::vector<GateId> ops) {
    bool flip = false;
    std::vector<GateId> rest;
    for (GateId g : ops) {
      if (g == kTrue)
        flip = !flip;
      else if (g != kFalse)
        rest.push_back(g);
    }
    if (rest.empty()) return flip ? kTrue : kFalse;
    if (flip) {
      ++count.gates;
      ++count.wires;
      rest[0] = bld ? bld->not_(rest[0]) : kCounted;
    }
    if (rest.size() == 1) return rest[0];
    ++count.gates;
    count.wires += rest.size();
    return bld ? bld->xor_(rest) : kCounted;
  }

  GateId materialize(GateId g) {
    if (g == kFalse || g == kTrue) {
      if (!bld) return kCounted;
      return bld->constant(Rational(g == kTrue ? 1 : 0));
    }
    return g;
  }
};

// Per block k (width min(b, W − bk)): the constant's digit plus every magnitude's digit, i.e.
// max P_k; and the terms with a nonzero digit in block k.
struct Blocking {
  unsigned b = 0;
  std::vector<std::uint64_t> tmax;
  std::vector<std::vector<std::uint32_t>> members;
};

Blocking block_sums(const Flat& f, std::size_t W, unsigned b) {
  Blocking r;
  r.b = b;
  const std::size_t blocks = (W + b - 1) / b;
  r.tmax.assign(blocks, 0);
  r.members.assign(blocks, {});
  auto len = [&](std::size_t k) {
    return static_cast<unsigned>(std::min<std::size_t>(b, W - b * k));
  };
  for (std::size_t k = 0; k < blocks; ++k) r.tmax[k] = digit(f.constant, b * k, len(k));
  for (std::size_t i = 0; i < f.mags.size(); ++i) {
    const Limbs& m = f.mags[i];
    if (is_zero(m)) continue;
    const std::size_t k_lo = low_bit(m) / b, k_hi = std::min(blocks - 1, high_bit(m) / b);
    for (std::size_t k = k_lo; k <= k_hi; ++k) {
      const std::uint64_t d = digit(m, b * k, len(k));
      if (d == 0) continue;
      r.tmax[k] += d;
      r.members[k].push_back(static_cast<std::uint32_t>(i));
    }
  }
  return r;
}

// The widest block (≤ cap) whose gates respect the int32 limit; on the last level also
// max P_k < 4^b, so that even (odd) blocks do not overlap. Throws InputError when none fits.
Blocking choose_blocks(const Flat& f, std::size_t W, bool last, unsigned cap) {
  unsigned top = kMaxBlockBits;
  if (cap != 0) top = std::min(top, cap);
  top = static_cast<unsigned>(std::min<std::size_t>(top, W));
  for (unsigned b = top; b >= 1; --b) {
    Blocking r = block_sums(f, W, b);
    bool ok = true;
    for (std::uint64_t t : r.tmax) {
      if (4 * t > static_cast<std::uint64_t>(kThrLimit)) ok = false;
      if (last && r.tmax.size() > 1 && bit_length64(t) > 2 * b) ok = false;
    }
    if (ok) return r;
  }
  throw InputError("iterated sum",
                   "a block sum of " + std::to_string(f.mags.size()) +
                       " terms cannot keep its threshold gates within int32 weights; use two "
                       "levels (IteratedSumOptions::levels = 2) or a smaller group");
}

// One level: the bits of every block sum P_k, depth 2 above the literals.
std::vector<BlockBits> flat_sum(Ctx& ctx, const Flat& f, std::size_t W, const Blocking& blk) {
  const unsigned b = blk.b;
  std::vector<BlockBits> out;
  std::vector<GateId> ops;
  std::vector<std::int64_t> ws;
  for (std::size_t k = 0; k < blk.tmax.size(); ++k) {
    const std::size_t offset = b * k;
    const unsigned len = static_cast<unsigned>(std::min<std::size_t>(b, W - offset));
    const std::uint64_t K = digit(f.constant, offset, len);
    std::vector<std::uint64_t> d;
    for (std::uint32_t i : blk.members[k]) d.push_back(digit(f.mags[i], offset, len));
    const unsigned L =
        static_cast<unsigned>(std::min<std::size_t>(bit_length64(blk.tmax[k]), W - offset));
    BlockBits bb;
    bb.offset = offset;
    for (unsigned j = 0; j < L; ++j) {
      const std::uint64_t mod = std::uint64_t{1} << (j + 1);
      // T_j = Kj + Σ cᵢ·ŷᵢ = base + Σ ±cᵢ·xᵢ.
      const std::uint64_t Kj = K % mod;
      std::int64_t base = static_cast<std::int64_t>(Kj);
      std::uint64_t tmax = Kj;
      ops.clear();
      ws.clear();
      for (std::size_t q = 0; q < d.size(); ++q) {
        const std::uint64_t c = d[q] % mod;
        if (c == 0) continue;
        const Lit& lit = f.lits[blk.members[k][q]];
        tmax += c;
        ops.push_back(lit.x);
        ws.push_back(lit.neg ? -static_cast<std::int64_t>(c) : static_cast<std::int64_t>(c));
        if (lit.neg) base += static_cast<std::int64_t>(c);
      }
      const std::vector<GateId> lit_ops(ops.begin(), ops.end());
      const std::vector<std::int64_t> lit_ws(ws.begin(), ws.end());
      // ⌊T_j / 2^{j+1}⌋ = Σ_m g_m; multiples ≤ Kj (= min T_j) are always reached.
      std::int64_t theta = static_cast<std::int64_t>(mod / 2) - base;
      for (std::uint64_t m = 1; m * mod <= tmax; ++m) {
        if (m * mod <= Kj) {
          theta += static_cast<std::int64_t>(mod);
          continue;
        }
        const GateId g = ctx.thr(lit_ops, lit_ws, static_cast<std::int64_t>(m * mod) - base);
        if (g == kTrue) {
          theta += static_cast<std::int64_t>(mod);
        } else if (g != kFalse) {
          ops.push_back(g);
          ws.push_back(-static_cast<std::int64_t>(mod));
        }
      }
      bb.bits.push_back(ctx.thr(ops, ws, theta));
    }
    out.push_back(std::move(bb));
  }
  return out;
}

// x + y mod 2^W by the unbounded fan-in carry-lookahead adder (depth 4; threshold.hpp).
std::vector<GateId> add_words(Ctx& ctx, const std::vector<GateId>& x,
                              const std::vector<GateId>& y) {
  const std::size_t W = x.size();
  std::vector<GateId> g(W), p(W), s(W);
  for (std::size_t i = 0; i < W; ++i) {
    g[i] = ctx.and_({x[i], y[i]});
    p[i] = ctx.or_({x[i], y[i]});
  }
  for (std::size_t i = 0; i < W; ++i) {
    std::vector<GateId> terms;
    for (std::size_t j = 0; j < i; ++j) {
      std::vector<GateId> t{g[j]};
      for (std::size_t k = j + 1; k < i; ++k) t.push_back(p[k]);
      terms.push_back(ctx.and_(std::move(t)));
    }
    const GateId c = ctx.or_(std::move(terms));
    s[i] = ctx.xor_({x[i], y[i], c});
  }
  return s;
}

struct SumRun {
  std::vector<GateId> bits;  // width W, sentinels allowed
  unsigned last_blocks = 0;
};

// The whole construction on merged terms (weights nonzero, gates distinct and not constant).
SumRun run_sum(Ctx& ctx, const std::vector<GateId>& gates, std::span<const Integer> weights,
               const Integer& constant, std::size_t W, const IteratedSumOptions& o) {
  if (o.levels != 1 && o.levels != 2)
    throw InputError("iterated sum", "levels must be 1 or 2, got " + std::to_string(o.levels));
  // Offset to nonnegative magnitudes mod 2^W.
  Flat all;
  Integer K = constant;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const Integer a = mod_pow2(boost::multiprecision::abs(weights[i]), W);
    if (a == 0) continue;
    const bool neg = weights[i] < 0;
    if (neg) K -= a;
    all.lits.push_back({gates[i], neg});
    all.mags.push_back(to_limbs(a));
  }
  const Limbs Kl = to_limbs(mod_pow2(K, W));

  Flat top;
  if (o.levels == 1) {
    top = std::move(all);
    top.constant = Kl;
  } else {
    const std::size_t N = all.lits.size();
    std::size_t s = o.group;
    if (s == 0)
      s = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(std::sqrt(double(N)))));
    Integer topK = mod_pow2(K, W);
    for (std::size_t first = 0; first < N; first += s) {
      Flat grp;
      const std::size_t last = std::min(N, first + s);
      grp.lits.assign(all.lits.begin() + first, all.lits.begin() + last);
      grp.mags.assign(all.mags.begin() + first, all.mags.begin() + last);
      const Blocking blk = choose_blocks(grp, W, false, o.block_bits);
      for (const BlockBits& bb : flat_sum(ctx, grp, W, blk))
        for (std::size_t j = 0; j < bb.bits.size(); ++j) {
          const GateId g = bb.bits[j];
          if (g == kFalse) continue;
          Limbs one((bb.offset + j) / 64 + 1, 0);
          one.back() = std::uint64_t{1} << ((bb.offset + j) % 64);
          if (g == kTrue) {  // a constant 1 at this position joins the constant (mod 2^W)
            topK += Integer(1) << (bb.offset + j);
            continue;
          }
          top.lits.push_back({g, false});
          top.mags.push_back(std::move(one));
        }
    }
    top.constant = to_limbs(mod_pow2(topK, W));
  }
  const Blocking blk = choose_blocks(top, W, true, o.block_bits);
  const std::vector<BlockBits> blocks = flat_sum(ctx, top, W, blk);
  SumRun r;
  r.last_blocks = static_cast<unsigned>(blocks.size());
  std::vector<GateId> X(W, kFalse), Y(W, kFalse);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    std::vector<GateId>& dst = k % 2 == 0 ? X : Y;
    for (std::size_t j = 0; j < blocks[k].bits.size(); ++j) {
      const std::size_t pos = blocks[k].offset + j;
      if (dst[pos] != kFalse) throw std::logic_error("iterated sum: overlapping block sums");
      dst[pos] = blocks[k].bits[j];
    }
  }
  const bool y_zero = std::all_of(Y.begin(), Y.end(), [](GateId g) { return g == kFalse; });
  r.bits = y_zero ? X : add_words(ctx, X, Y);
  return r;
}

// Merges terms by gate and folds constant gates; returns the width to use.
struct Merged {
  std::vector<GateId> gates;
  std::vector<Integer> weights;
  Integer constant;
  Integer lo, hi;
};
Merged merge_terms(const CircuitBuilder& b, std::span<const WeightedBit> terms,
                   const Integer& constant) {
  std::map<GateId, Integer> by_gate;
  Merged m;
  m.constant = constant;
  for (const WeightedBit& t : terms) {
    if (t.bit >= b.size()) throw std::invalid_argument("iterated_sum: term names no gate");
    if (b.is_constant(t.bit)) {
      if (b.view().constant(t.bit) != 0) m.constant += t.weight;
      continue;
    }
    by_gate[t.bit] += t.weight;
  }
  m.lo = m.hi = m.constant;
  for (auto& [g, w] : by_gate) {
    if (w == 0) continue;
    m.gates.push_back(g);
    m.weights.push_back(w);
    (w < 0 ? m.lo : m.hi) += w;
  }
  return m;
}

}  // namespace

SumWord iterated_sum(CircuitBuilder& b, std::span<const WeightedBit> terms, const Integer& constant,
                     std::size_t width, const IteratedSumOptions& options) {
  const Merged m = merge_terms(b, terms, constant);
  const std::size_t W = width ? width : width_for(m.lo, m.hi);
  SumSize count;
  Ctx ctx{&b, count};
  SumRun r = run_sum(ctx, m.gates, m.weights, m.constant, W, options);
  SumWord out;
  out.min = m.lo;
  out.max = m.hi;
  for (GateId g : r.bits) out.bits.push_back(ctx.materialize(g));
  return out;
}

SumWord iterated_sum_words(CircuitBuilder& b, const std::vector<std::vector<GateId>>& words,
                           bool twos_complement, std::size_t width,
                           const IteratedSumOptions& options) {
  std::vector<WeightedBit> terms;
  for (const auto& w : words)
    for (std::size_t i = 0; i < w.size(); ++i) {
      Integer weight = Integer(1) << i;
      if (twos_complement && i + 1 == w.size()) weight = -weight;
      terms.push_back({w[i], weight});
    }
  return iterated_sum(b, terms, 0, width, options);
}

Integer iterated_sum_reference(std::span<const Integer> weights, const std::vector<bool>& x,
                               const Integer& constant) {
  if (x.size() != weights.size())
    throw std::invalid_argument("iterated_sum_reference: one input per weight");
  Integer s = constant;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (x[i]) s += weights[i];
  return s;
}

Integer wrap_twos_complement(const Integer& value, std::size_t width) {
  Integer r = mod_pow2(value, width);
  if (width > 0 && r >= (Integer(1) << (width - 1))) r -= Integer(1) << width;
  return r;
}

Integer decode_twos_complement(const std::vector<bool>& bits) {
  Integer v = 0;
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) v += Integer(1) << i;
  return bits.empty() ? v : wrap_twos_complement(v, bits.size());
}

SumSize estimate_iterated_sum(std::span<const Integer> weights, const Integer& constant,
                              std::size_t width, const IteratedSumOptions& options) {
  Integer lo = constant, hi = constant;
  std::vector<Integer> ws;
  for (const Integer& w : weights) {
    if (w == 0) continue;
    ws.push_back(w);
    (w < 0 ? lo : hi) += w;
  }
  SumSize count;
  count.width = width ? width : width_for(lo, hi);
  Ctx ctx{nullptr, count};
  // Count mode: distinct placeholder gates (only their number matters).
  std::vector<GateId> gates(ws.size(), kCounted);
  const SumRun r = run_sum(ctx, gates, ws, constant, count.width, options);
  count.last_level_blocks = r.last_blocks;
  count.gates += 2;  // the constants 0 and 1 an output may need
  return count;
}

std::size_t iterated_sum_depth_bound(const IteratedSumOptions& options, const SumSize& size) {
  return 2 * options.levels + (size.last_level_blocks > 1 ? 4 : 0);
}

}  // namespace rnncc
