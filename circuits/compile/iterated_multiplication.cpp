// Input-dependent diagonal LRNNs to constant-depth threshold circuits by iterated
// multiplication (iterated_multiplication.hpp states the function and the construction).
#include "circuits/compile/iterated_multiplication.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>

#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/arith/iterated_addition.hpp"
#include "circuits/compile/common.hpp"

namespace rnncc {

bool diagonal_transitions(const LrnnLayer& l) {
  for (const auto& A : l.A)
    for (std::size_t i = 0; i < A.rows(); ++i)
      for (std::size_t j = 0; j < A.cols(); ++j)
        if (i != j && A(i, j) != 0) return false;
  return true;
}

const char* diagonal_threshold_function() {
  return "product rounded once: Y = c*2^2F + sum_i C_i*(sum_t round(prod_{s>t} a_s,i)*B_t,i + "
         "round(prod_s a_s,i)*S0_i), y = Y/2^3F (each suffix product of the rounded decays "
         "rounded once, the sum exact; not the sequential rule, which rounds h_t every step)";
}

namespace {

// The rounded parameters of the accepted entry (raw integers, value raw/2^F).
struct DiagonalConstants {
  std::size_t n = 0, S = 0, d = 0;
  unsigned F = 0, I = 0;
  Rounding rounding = Rounding::nearest_even;
  std::vector<std::vector<Integer>> alpha, beta;  // [σ][i]
  std::vector<Integer> gamma, s0;                 // [i]
  Integer c = 0, max_raw = 0;
  Acceptance accept;
};

DiagonalConstants diagonal_params(const Model& model, std::size_t n, const ThresholdOptions& o) {
  check_length(n);
  if (o.precision.exact())
    throw InputError("--precision",
                     "the input-dependent diagonal threshold circuit computes at log "
                     "precision (exact products of n rationals have Θ(n)-bit words); use "
                     "--precision log:C");
  const LrnnLayer* l = &threshold_lrnn_layer(model, "the diagonal threshold compiler");
  const std::size_t S = model.alphabet.size();
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t i = 0; i < l->d; ++i)
      for (std::size_t j = 0; j < l->d; ++j)
        if (i != j && l->A[s](i, j) != 0)
          throw InputError("layer 0", "A of symbol '" + model.alphabet.symbol(s) + "' has entry [" +
                                          std::to_string(i) + "][" + std::to_string(j) +
                                          "] = " + to_string(l->A[s](i, j)) +
                                          ": the diagonal threshold compiler needs diagonal "
                                          "transitions");
  if (model.accept.row >= l->readout.rows() || model.accept.col >= l->m)
    throw InputError("accept", "entry [" + std::to_string(model.accept.row) + "][" +
                                   std::to_string(model.accept.col) + "] is outside the " +
                                   std::to_string(l->readout.rows()) + "×" + std::to_string(l->m) +
                                   " output");
  const FixedFormat fmt = o.precision.format(n);
  DiagonalConstants p;
  p.n = n;
  p.S = S;
  p.d = l->d;
  p.F = fmt.frac_bits;
  p.I = fmt.int_bits;
  p.rounding = o.precision.rounding;
  p.accept = model.accept;
  p.max_raw = (Integer(1) << (p.I + p.F)) - 1;
  const Rational scale(Integer(1) << p.F);
  auto raw = [&](const Rational& v) {
    Integer r = round_rational(v * scale, p.rounding);
    return std::clamp(r, Integer(-p.max_raw), p.max_raw);
  };
  const std::size_t row = model.accept.row, col = model.accept.col;
  p.alpha.assign(S, std::vector<Integer>(p.d));
  p.beta.assign(S, std::vector<Integer>(p.d));
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t i = 0; i < p.d; ++i) {
      p.alpha[s][i] = raw(l->A[s](i, i));
      p.beta[s][i] = raw(l->B[s](i, col));
    }
  for (std::size_t i = 0; i < p.d; ++i) {
    p.gamma.push_back(raw(l->readout(row, i)));
    p.s0.push_back(raw(l->initial_state(i, col)));
  }
  p.c = l->readout_bias.empty() ? Integer(0) : raw(l->readout_bias(row, col));
  return p;
}

void check_word(const DiagonalConstants& p, std::span<const std::size_t> w) {
  for (std::size_t s : w)
    if (s >= p.S)
      throw std::out_of_range("symbol id " + std::to_string(s) +
                              " is not below |Σ| = " + std::to_string(p.S));
}

bool is_prime(unsigned m) {
  if (m < 2) return false;
  for (unsigned q = 2; q * q <= m; ++q)
    if (m % q == 0) return false;
  return true;
}

// A generator of Z_m^* (m prime), by brute force: the first g of order m − 1.
unsigned generator(unsigned m) {
  if (m == 2) return 1;
  for (unsigned g = 2; g < m; ++g) {
    unsigned x = 1, order = 0;
    do {
      x = static_cast<unsigned>(std::uint64_t{x} * g % m);
      ++order;
    } while (x != 1);
    if (order == m - 1) return g;
  }
  throw std::logic_error("no generator");
}

unsigned mod_small(const Integer& v, unsigned m) {
  return static_cast<unsigned>(static_cast<Integer>(v % m).convert_to<unsigned long>());
}

// Σ_b 2^b·bit_b over an unsigned word, compared with a constant: [X ≥ K] as an OR of ANDs of
// literals (depth 3 with the NOTs): X ≥ K iff X = K or, at the highest bit i where they differ,
// X_i = 1 and K_i = 0.
GateId at_least_constant(CircuitBuilder& b, const std::vector<GateId>& x, const Integer& K) {
  const std::size_t W = x.size();
  if (K <= 0) return b.constant(Rational(1));
  if (bit_length(K) > W) return b.constant(Rational(0));
  std::vector<GateId> lit(W);  // the literal "X_j = K_j"
  for (std::size_t j = 0; j < W; ++j)
    lit[j] = boost::multiprecision::bit_test(K, static_cast<unsigned>(j)) ? x[j] : b.not_(x[j]);
  std::vector<GateId> alts;
  for (std::size_t i = 0; i < W; ++i) {
    if (boost::multiprecision::bit_test(K, static_cast<unsigned>(i))) continue;
    std::vector<GateId> conj = {x[i]};
    for (std::size_t j = i + 1; j < W; ++j) conj.push_back(lit[j]);
    alts.push_back(b.and_(conj));
  }
  alts.push_back(b.and_(lit));
  return b.or_(alts);
}

GateId thr_of(CircuitBuilder& b, const std::vector<GateId>& ops, const std::vector<Integer>& w,
              const Integer& theta) {
  std::vector<std::int32_t> w32;
  Integer total = boost::multiprecision::abs(theta);
  for (const Integer& v : w) {
    total += boost::multiprecision::abs(v);
    w32.push_back(v.convert_to<std::int32_t>());
  }
  if (total > kThrLimit) throw std::logic_error("diagonal threshold: thr gate beyond int32");
  return b.thr(ops, w32, theta.convert_to<std::int32_t>());
}

// The unsigned bits of a count word (its sign bit is 0 and is dropped).
std::vector<GateId> unsigned_bits(const SumWord& w) {
  std::vector<GateId> bits = w.bits;
  if (w.min >= 0 && bits.size() > 1) bits.pop_back();
  return bits;
}

constexpr unsigned kCrtBlockBits = 8;

struct Suffix {
  std::vector<GateId> mag;  // bits of |p_{t,i}| (raw, scale 2^F), least significant first
  GateId neg = kNoGate;     // the sign of the product (kNoGate: never negative)
};

// Steps 1–6 of the header for one suffix of k ≥ 1 factors with count words c[σ].
Suffix suffix_product(CircuitBuilder& b, const DiagonalConstants& p, std::size_t i, std::size_t k,
                      const std::vector<std::vector<GateId>>& c, const IteratedSumOptions& so) {
  Suffix out;
  Integer amax = 0;
  std::vector<Integer> a(p.S);
  for (std::size_t s = 0; s < p.S; ++s) {
    a[s] = boost::multiprecision::abs(p.alpha[s][i]);
    amax = std::max(amax, a[s]);
  }
  // The sign: parity of the count of negative factors.
  std::vector<GateId> sign_bits;
  for (std::size_t s = 0; s < p.S; ++s)
    if (p.alpha[s][i] < 0) sign_bits.push_back(c[s][0]);
  if (!sign_bits.empty()) out.neg = b.xor_(sign_bits);
  if (amax == 0) return out;  // every product is 0
  const std::vector<unsigned> primes = crt_primes(amax, k);
  Integer M = 1;
  for (unsigned m : primes) M *= m;
  std::vector<WeightedBit> crt_terms;
  for (unsigned m : primes) {
    const Integer Mm = M / m;
    const unsigned u = [&] {  // (M/m)^{-1} mod m
      const unsigned r = mod_small(Mm, m);
      for (unsigned x = 1; x < m; ++x)
        if (std::uint64_t{r} * x % m == 1) return x;
      return 1u;  // m = 2… r = 1 always has inverse 1
    }();
    const unsigned g = generator(m), order = m - 1;
    std::vector<unsigned> dlog(m, 0), power(order, 1);
    {
      unsigned x = 1;
      for (unsigned e = 0; e < order; ++e) {
        power[e] = x;
        dlog[x] = e;
        x = static_cast<unsigned>(std::uint64_t{x} * g % m);
      }
    }
    // Zero flag and the log sum's terms.
    std::vector<GateId> zero_bits, ops;
    std::vector<Integer> wts;
    Integer Rmax = 0;
    for (std::size_t s = 0; s < p.S; ++s) {
      const unsigned r = mod_small(a[s], m);
      if (r == 0) {
        zero_bits.insert(zero_bits.end(), c[s].begin(), c[s].end());
        continue;
      }
      const unsigned L = dlog[r];
      for (std::size_t bit = 0; bit < c[s].size(); ++bit) {
        const unsigned wgt =
            order == 1
                ? 0u
                : static_cast<unsigned>((std::uint64_t{L} << bit) % order);  // L·2^b mod (m−1)
        if (wgt == 0) continue;
        ops.push_back(c[s][bit]);
        wts.push_back(wgt);
        Rmax += wgt;
      }
    }
    const GateId z = zero_bits.empty() ? kNoGate : b.or_(zero_bits);
    // g_j = [R ≥ j(m−1)], then [r ≥ v] = [R − (m−1)Σ g_j ≥ v].
    std::vector<GateId> rops = ops;
    std::vector<Integer> rw = wts;
    for (Integer j = 1; order > 1 && j * order <= Rmax; ++j) {
      rops.push_back(thr_of(b, ops, wts, j * order));
      rw.push_back(-Integer(order));
    }
    std::vector<GateId> ge(order + 1);
    ge[0] = b.constant(Rational(1));
    ge[order] = b.constant(Rational(0));
    for (unsigned v = 1; v < order; ++v) ge[v] = thr_of(b, rops, rw, v);
    // One-hot e_v (zero flag folded in), then the bits of V_m = g^v·u mod m.
    const std::size_t vbits = bit_length(Integer(m - 1));
    std::vector<std::vector<GateId>> bit_or(vbits);
    for (unsigned v = 0; v < order; ++v) {
      const unsigned V = static_cast<unsigned>(std::uint64_t{power[v]} * u % m);
      if (V == 0) continue;
      std::vector<GateId> eo = {ge[v], ge[v + 1]};
      std::vector<Integer> ew = {1, -1};
      if (z != kNoGate) {
        eo.push_back(z);
        ew.push_back(-1);
      }
      const GateId e = thr_of(b, eo, ew, 1);
      for (std::size_t bit = 0; bit < vbits; ++bit)
        if ((V >> bit) & 1u) bit_or[bit].push_back(e);
    }
    for (std::size_t bit = 0; bit < vbits; ++bit)
      if (!bit_or[bit].empty()) crt_terms.push_back({b.or_(bit_or[bit]), Integer(Mm << bit)});
  }
  // S = Σ V_m·(M/m) < #primes·M; G_j = [S ≥ jM]; P + h = S − M·Σ G_j + h. The CRT words have
  // Θ(k·log|α|) bits; blocks of at most kCrtBlockBits bits make them multi-block (so the final
  // carry-lookahead adder is there) from small k on, and the measured depth the same for every n
  // past that (docs/depth.md).
  IteratedSumOptions crt = so;
  if (crt.block_bits == 0) crt.block_bits = kCrtBlockBits;
  const SumWord Sw = iterated_sum(b, crt_terms, 0, 0, crt);
  const std::vector<GateId> Sbits = unsigned_bits(Sw);
  const unsigned shift = static_cast<unsigned>(p.F * (k - 1));
  const Integer h =
      (p.rounding == Rounding::nearest_even && shift > 0) ? Integer(1) << (shift - 1) : Integer(0);
  std::vector<WeightedBit> pterms;
  for (std::size_t bit = 0; bit < Sbits.size(); ++bit)
    pterms.push_back({Sbits[bit], Integer(1) << bit});
  for (std::size_t j = 1; j < primes.size(); ++j)
    pterms.push_back({at_least_constant(b, Sbits, M * j), -M});
  Integer bound = 1;
  for (std::size_t f = 0; f < k; ++f) bound *= amax;
  const std::size_t W = bit_length(bound + h) + 1;
  const SumWord Pw = iterated_sum(b, pterms, h, W, crt);
  // Rounding: bits shift.. of P + h; nearest-even clears bit 0 on a tie.
  for (std::size_t bit = shift; bit + 1 < W; ++bit) out.mag.push_back(Pw.bits[bit]);
  if (out.mag.empty()) out.mag.push_back(b.constant(Rational(0)));
  if (h != 0) {
    std::vector<GateId> low;
    for (std::size_t bit = 0; bit < shift; ++bit) low.push_back(b.not_(Pw.bits[bit]));
    const GateId tie = b.and_(low);
    const GateId keep[] = {out.mag[0], b.not_(tie)};
    out.mag[0] = b.and_(keep);
  }
  return out;
}

// Upper bound on |Y| from the parameters (for the output width): Σ_i |γ_i|·(Σ_t |p|·|β| + …).
Integer y_bound(const DiagonalConstants& p) {
  Integer total = boost::multiprecision::abs(p.c) << (2 * p.F);
  for (std::size_t i = 0; i < p.d; ++i) {
    Integer amax = 0, bmax = 0;
    for (std::size_t s = 0; s < p.S; ++s) {
      amax = std::max(amax, Integer(boost::multiprecision::abs(p.alpha[s][i])));
      bmax = std::max(bmax, Integer(boost::multiprecision::abs(p.beta[s][i])));
    }
    Integer inner = 0, prod = 1;
    for (std::size_t k = 0; k <= p.n; ++k) {
      // |p| ≤ round(amax^k / 2^{F(k−1)}) + 1 ≤ amax^k/2^{F(k−1)} + 1
      const Integer pk =
          k == 0 ? Integer(1) << p.F : (prod >> static_cast<unsigned>(p.F * (k - 1))) + 1;
      inner += pk * (k == p.n ? boost::multiprecision::abs(p.s0[i]) : bmax);
      prod *= amax;
    }
    total += boost::multiprecision::abs(p.gamma[i]) * inner;
  }
  return total;
}

}  // namespace

std::vector<unsigned> crt_primes(const Integer& max_factor, std::size_t k) {
  Integer bound = 1;
  for (std::size_t f = 0; f < k; ++f) bound *= max_factor;
  std::vector<unsigned> out;
  Integer M = 1;
  for (unsigned m = 2; out.empty() || M <= bound; ++m)
    if (is_prime(m)) {
      out.push_back(m);
      M *= m;
    }
  return out;
}

CompiledCircuit compile_diagonal_threshold(const Model& model, std::size_t n,
                                           const ThresholdOptions& options) {
  const DiagonalConstants p = diagonal_params(model, n, options);
  // The inputs alone, and a rough floor of the per-suffix work, against the budget first.
  const std::size_t estimate = estimate_diagonal_threshold_gates(model, n, options);
  options.budget.check(estimate);
  options.budget.check_memory(estimate, kDiagonalThresholdBytesPerGate,
                              "compile_diagonal_threshold");
  CompiledCircuit cc;
  CircuitBuilder b;
  cc.regions.push_back(Region{RegionKind::input, 0});
  const std::vector<std::vector<GateId>> x = one_hot_inputs(b, n, model.alphabet);
  cc.regions.push_back(Region{RegionKind::combine, static_cast<std::uint32_t>(b.size())});
  const IteratedSumOptions& so = options.sum;
  std::vector<WeightedBit> terms;
  auto budget = [&] {
    if (b.size() > options.budget.max_gates) options.budget.check(b.size(), "built so far");
  };
  for (std::size_t t = 0; t < n; ++t) {  // suffix t+1..n: k = n − t ≥ 1 factors
    const std::size_t k = n - t;
    // Which coordinates need this suffix's product.
    std::vector<std::size_t> coords;
    for (std::size_t i = 0; i < p.d; ++i) {
      if (p.gamma[i] == 0) continue;
      bool used = false;
      if (t == 0) used = p.s0[i] != 0;
      for (std::size_t s = 0; s < p.S && t >= 1 && !used; ++s) used = p.beta[s][i] != 0;
      if (used) coords.push_back(i);
    }
    if (coords.empty()) continue;
    std::vector<std::vector<GateId>> c(p.S);  // counts over positions t+1..n
    for (std::size_t s = 0; s < p.S; ++s) {
      std::vector<WeightedBit> ones;
      for (std::size_t q = t; q < n; ++q) ones.push_back({x[q][s], 1});
      c[s] = unsigned_bits(iterated_sum(b, ones, 0, 0, so));
    }
    for (std::size_t i : coords) {
      const Suffix suf = suffix_product(b, p, i, k, c, so);
      const GateId notneg = suf.neg == kNoGate ? kNoGate : b.not_(suf.neg);
      auto add = [&](GateId sel, const Integer& coef) {  // coef·p·[sel] (sel may be none)
        if (coef == 0) return;
        for (std::size_t bit = 0; bit < suf.mag.size(); ++bit) {
          const GateId mb = suf.mag[bit];
          const bool one = b.is_constant(mb) && b.view().constant(mb) != 0;
          if (b.is_constant(mb) && !one) continue;  // a constant 0 bit
          for (int sgn = 0; sgn < (suf.neg == kNoGate ? 1 : 2); ++sgn) {
            std::vector<GateId> conj;
            if (!one) conj.push_back(mb);
            if (sel != kNoGate) conj.push_back(sel);
            if (suf.neg != kNoGate) conj.push_back(sgn ? suf.neg : notneg);
            const GateId sel_all = conj.empty() ? b.constant(Rational(1)) : b.and_(conj);
            terms.push_back({sel_all, Integer(Integer(sgn ? Integer(-coef) : coef) << bit)});
          }
        }
      };
      if (t == 0)
        add(kNoGate, p.gamma[i] * p.s0[i]);
      else
        for (std::size_t s = 0; s < p.S; ++s) add(x[t - 1][s], p.gamma[i] * p.beta[s][i]);
      budget();
    }
  }
  // Position n: the empty product p = 2^F.
  for (std::size_t i = 0; i < p.d; ++i)
    for (std::size_t s = 0; s < p.S; ++s)
      if (p.gamma[i] * p.beta[s][i] != 0)
        terms.push_back({x[n - 1][s], Integer(Integer(p.gamma[i] * p.beta[s][i]) << p.F)});
  const Integer bound = y_bound(p);
  const std::size_t W = bit_length(bound) + 2;
  const SumWord word = iterated_sum(b, terms, p.c << (2 * p.F), W, so);
  std::vector<GateId> outs = word.bits;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < word.bits.size(); ++k)
    names.push_back("y.b[" + std::to_string(k) + "]");
  if (options.acceptance) {
    cc.regions.push_back(Region{RegionKind::accept, static_cast<std::uint32_t>(b.size())});
    const bool zero = p.accept.mode == Acceptance::Mode::zero;
    std::vector<std::int32_t> w;
    for (std::size_t k = 0; k < W; ++k)
      w.push_back(zero ? -1 : (k + 1 < W ? 1 : -static_cast<std::int32_t>(W - 1)));
    outs.push_back(b.thr(word.bits, w, zero ? 0 : 1));
    names.push_back("accept");
  }
  options.budget.check(b.size());
  cc.combine_levels = so.levels;
  detail::finish_compiled(cc, b, std::move(outs), std::move(names));
  return cc;
}

std::size_t estimate_diagonal_threshold_gates(const Model& model, std::size_t n,
                                              const ThresholdOptions& options) {
  const DiagonalConstants p = diagonal_params(model, n, options);
  const std::size_t limit = options.budget.max_gates;
  std::size_t total = n * p.S + 8;
  std::vector<Integer> final_w;
  // Phase 1 (cheap, exits early past the limit): counts, and per prime the log-sum, one-hot and
  // lookup gates. Phase 2: the CRT sums and the final sum by estimate_iterated_sum.
  struct Pair {
    std::size_t k;
    Integer amax;
  };
  std::vector<Pair> pairs;
  for (std::size_t t = 0; t < n && total <= limit; ++t) {
    const std::size_t k = n - t;
    const std::size_t cbits = bit_length(Integer(k));
    total += p.S * estimate_iterated_sum(std::vector<Integer>(k, Integer(1))).gates;
    for (std::size_t i = 0; i < p.d && total <= limit; ++i) {
      Integer amax = 0;
      for (std::size_t s = 0; s < p.S; ++s)
        amax = std::max(amax, Integer(boost::multiprecision::abs(p.alpha[s][i])));
      if (p.gamma[i] == 0 || amax == 0) continue;
      for (unsigned m : crt_primes(amax, k)) {
        total += 2 * m + p.S * cbits + bit_length(Integer(m)) + 2;
        if (total > limit) break;
      }
      pairs.push_back({k, amax});
    }
  }
  if (total > limit) return total;
  for (const Pair& pr : pairs) {
    const std::vector<unsigned> primes = crt_primes(pr.amax, pr.k);
    Integer M = 1;
    for (unsigned m : primes) M *= m;
    std::vector<Integer> crt_w;
    for (unsigned m : primes)
      for (std::size_t bit = 0; bit < bit_length(Integer(m - 1)); ++bit)
        crt_w.push_back(Integer(Integer(M / m) << bit));
    IteratedSumOptions crt = options.sum;
    if (crt.block_bits == 0) crt.block_bits = kCrtBlockBits;
    const SumSize ss = estimate_iterated_sum(crt_w, 0, 0, crt);
    std::vector<Integer> pw;
    for (std::size_t bit = 0; bit < ss.width; ++bit) pw.push_back(Integer(1) << bit);
    for (std::size_t j = 1; j < primes.size(); ++j) pw.push_back(-M);
    Integer bound = 1;
    for (std::size_t f = 0; f < pr.k; ++f) bound *= pr.amax;
    const unsigned shift = static_cast<unsigned>(p.F * (pr.k - 1));
    const std::size_t W = bit_length(Integer(bound + (Integer(1) << shift))) + 1;
    const SumSize ps = estimate_iterated_sum(pw, 0, W, crt);
    total += ss.gates + ps.gates + primes.size() * (2 * ss.width + 2) + shift + 3;
    for (std::size_t b = 0; b + shift + 1 < W; ++b)
      for (std::size_t s = 0; s < 2 * p.S; ++s) final_w.push_back(Integer(1) << (b % 64));
    total += 2 * p.S * (W - std::min(W, std::size_t{shift}));
    if (total > limit) return total;
  }
  total += estimate_iterated_sum(final_w, 0, bit_length(y_bound(p)) + 2, options.sum).gates;
  return total;
}

ThresholdDepthBound diagonal_threshold_depth_bound(const Model& model, std::size_t n,
                                                   const ThresholdOptions& options) {
  const DiagonalConstants p = diagonal_params(model, n, options);
  const IteratedSumOptions& so = options.sum;
  IteratedSumOptions crt = so;
  if (crt.block_bits == 0) crt.block_bits = kCrtBlockBits;
  const std::size_t L2 = 2 * so.levels;  // an iterated sum without its adder
  const bool nearest = p.rounding == Rounding::nearest_even;
  const std::size_t accept = options.acceptance ? 1 : 0;

  // The limit, from the model's rational parameters (a raw parameter is nonzero for large n iff
  // the rational one is).
  const LrnnLayer& l = threshold_lrnn_layer(model, "the diagonal threshold compiler");
  const std::size_t row = model.accept.row, col = model.accept.col;
  bool products = false;
  for (std::size_t i = 0; i < l.d && !products; ++i) {
    bool decay = false, input = l.initial_state(i, col) != 0;
    for (std::size_t s = 0; s < p.S; ++s) {
      decay = decay || l.A[s](i, i) != 0;
      input = input || l.B[s](i, col) != 0;
    }
    products = l.readout(row, i) != 0 && decay && input;
  }
  ThresholdDepthBound out;
  const std::string sum_full = std::to_string(L2 + 4);
  if (products) {
    out.limit = L2 + 4 + (L2 + 4) + 2 + (L2 + 4) + (nearest ? 2 : 0) + 1;
    out.stages = "count " + std::to_string(L2) + " + logs 4 + CRT sum " + sum_full +
                 " + comparisons 2 + product sum " + sum_full +
                 (nearest ? " + nearest-even tie 2" : "") + " + selection 1 + ";
  }
  out.limit += L2 + 4 + accept;
  out.stages += "final sum " + sum_full + (accept ? " + accept 1" : "");

  // The bound at n: the deepest selected product bit (the plan of compile_diagonal_threshold),
  // then the final sum over every term, then accept.
  std::size_t deepest = 0;
  std::vector<Integer> final_w;
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t k = n - t;
    for (std::size_t i = 0; i < p.d; ++i) {
      if (p.gamma[i] == 0) continue;
      std::vector<Integer> coefs;  // γ·β (or γ·s₀) per selecting symbol
      if (t == 0) {
        if (p.s0[i] != 0) coefs.push_back(p.gamma[i] * p.s0[i]);
      } else {
        for (std::size_t s = 0; s < p.S; ++s)
          if (p.beta[s][i] != 0) coefs.push_back(p.gamma[i] * p.beta[s][i]);
      }
      if (coefs.empty()) continue;
      Integer amax = 0;
      bool negative = false;
      for (std::size_t s = 0; s < p.S; ++s) {
        amax = std::max(amax, Integer(boost::multiprecision::abs(p.alpha[s][i])));
        negative = negative || p.alpha[s][i] < 0;
      }
      if (amax == 0) continue;  // every product 0: no term
      Integer bound = 1;
      for (std::size_t f = 0; f < k; ++f) bound *= amax;
      const unsigned shift = static_cast<unsigned>(p.F * (k - 1));
      const Integer h = (nearest && shift > 0) ? Integer(1) << (shift - 1) : Integer(0);
      const std::size_t W = bit_length(bound + h) + 1;
      for (std::size_t bit = shift; bit + 1 < W; ++bit)
        for (const Integer& c : coefs) {
          final_w.push_back(Integer(c << (bit - shift)));
          if (negative) final_w.push_back(Integer(-(c << (bit - shift))));
        }
      // Every stage's word widens with k, so the deepest path of this coordinate is at its
      // largest k: n (the start term, t = 0) or n − 1 (the first input term).
      if (k + 1 < n) continue;
      const std::size_t count =
          iterated_sum_depth_bound(so, estimate_iterated_sum(std::vector<Integer>(k, 1), 0, 0, so));
      const std::vector<unsigned> primes = crt_primes(amax, k);
      Integer M = 1;
      for (unsigned m : primes) M *= m;
      std::vector<Integer> crt_w;
      for (unsigned m : primes)
        for (std::size_t bit = 0; bit < bit_length(Integer(m - 1)); ++bit)
          crt_w.push_back(Integer(Integer(M / m) << bit));
      const SumSize ss = estimate_iterated_sum(crt_w, 0, 0, crt);
      std::vector<Integer> pw;
      for (std::size_t bit = 0; bit + 1 < ss.width; ++bit) pw.push_back(Integer(1) << bit);
      for (std::size_t j = 1; j < primes.size(); ++j) pw.push_back(-M);
      const SumSize ps = estimate_iterated_sum(pw, h, W, crt);
      const std::size_t depth = count + 4 + iterated_sum_depth_bound(crt, ss) +
                                (primes.size() > 1 ? 2 : 0) + iterated_sum_depth_bound(crt, ps) +
                                (h != 0 ? 2 : 0) + 1;
      deepest = std::max(deepest, depth);
    }
  }
  for (std::size_t i = 0; i < p.d; ++i)
    for (std::size_t s = 0; s < p.S; ++s)
      if (p.gamma[i] * p.beta[s][i] != 0)
        final_w.push_back(Integer(Integer(p.gamma[i] * p.beta[s][i]) << p.F));
  const SumSize fs =
      estimate_iterated_sum(final_w, p.c << (2 * p.F), bit_length(y_bound(p)) + 2, so);
  out.at_n = deepest + iterated_sum_depth_bound(so, fs) + accept;
  return out;
}

DiagonalValue evaluate_diagonal_rounded_once(const Model& model, std::span<const std::size_t> w,
                                             const ThresholdOptions& options) {
  const DiagonalConstants p = diagonal_params(model, w.size(), options);
  check_word(p, w);
  const std::size_t n = p.n;
  Integer Y = p.c << (2 * p.F);
  for (std::size_t i = 0; i < p.d; ++i) {
    Integer inner = 0;
    for (std::size_t t = 0; t <= n; ++t) {
      const std::size_t k = n - t;
      Integer pk;
      if (k == 0) {
        pk = Integer(1) << p.F;
      } else {
        Integer prod = 1;
        for (std::size_t s = t; s < n; ++s) prod *= p.alpha[w[s]][i];
        pk = round_shift(prod, static_cast<unsigned>(p.F * (k - 1)), p.rounding);
      }
      inner += pk * (t == 0 ? p.s0[i] : p.beta[w[t - 1]][i]);
    }
    Y += p.gamma[i] * inner;
  }
  DiagonalValue v;
  v.scaled = Y;
  v.scale = Integer(1) << (3 * p.F);
  v.value = Rational(Y, v.scale);
  v.accepted = p.accept.mode == Acceptance::Mode::positive ? Y > 0 : Y == 0;
  return v;
}

DiagonalValue evaluate_diagonal_sequential(const Model& model, std::span<const std::size_t> w,
                                           const ThresholdOptions& options) {
  const DiagonalConstants p = diagonal_params(model, w.size(), options);
  check_word(p, w);
  auto sat = [&](const Integer& r) { return std::clamp(r, Integer(-p.max_raw), p.max_raw); };
  std::vector<Integer> h = p.s0;
  for (std::size_t s : w)
    for (std::size_t i = 0; i < p.d; ++i)
      h[i] = sat(round_shift(p.alpha[s][i] * h[i] + (p.beta[s][i] << p.F), p.F, p.rounding));
  Integer acc = p.c << p.F;
  for (std::size_t i = 0; i < p.d; ++i) acc += p.gamma[i] * h[i];
  DiagonalValue v;
  v.scaled = sat(round_shift(acc, p.F, p.rounding));
  v.scale = Integer(1) << p.F;
  v.value = Rational(v.scaled, v.scale);
  v.accepted = p.accept.mode == Acceptance::Mode::positive ? v.scaled > 0 : v.scaled == 0;
  return v;
}

}  // namespace rnncc
