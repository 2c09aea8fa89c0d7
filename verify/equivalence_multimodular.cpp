// The multimodular fast path of decide_equivalence over Q (equivalence.hpp, "Over Q at scale"):
// a morphism reconstructed from runs modulo primes and checked exactly, or a counterexample
// made exact by a bound on the differences.
#include "verify/equivalence_multimodular.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "algebra/modp_ops.hpp"
#include "algebra/multimodular.hpp"
#include "verify/forward_basis_mod.hpp"

namespace rnncc::equivalence_internal {

namespace {

// max_i Σ_j |x_ij| over several matrices (rows = true), or max_j Σ_i |x_ij| (rows = false).
Integer abs_sum(const std::vector<Scaled>& ms, bool rows) {
  Integer best = 0;
  for (const Scaled& m : ms) {
    std::vector<i128> acc(rows ? m.rows : m.cols, 0);
    for (std::size_t i = 0; i < m.rows; ++i)
      for (std::size_t j = 0; j < m.cols; ++j) {
        const std::int64_t x = m.num[i * m.cols + j];
        acc[rows ? i : j] += x < 0 ? -static_cast<i128>(x) : x;
      }
    for (i128 a : acc) {
      Integer v = Integer(static_cast<std::uint64_t>(a >> 64)) << 64;
      v += Integer(static_cast<std::uint64_t>(a));
      if (v > best) best = v;
    }
  }
  return best;
}

Integer max_abs(const std::vector<Scaled>& ms) {
  std::int64_t best = 0;
  for (const Scaled& m : ms)
    for (std::int64_t x : m.num) best = std::max(best, x < 0 ? -x : x);
  return Integer(best);
}

// Rational reconstruction of x mod m (m < 2^62) with |n|, d ≤ ⌊√((m−1)/2)⌋ (Wang).
bool reconstruct_small(std::int64_t x, std::int64_t m, std::int64_t& n, std::int64_t& d) {
  const std::int64_t bound = static_cast<std::int64_t>(std::sqrt(static_cast<double>(m - 1) / 2));
  std::int64_t B = bound;
  while (B > 0 && 2 * static_cast<i128>(B) * B >= m) --B;
  while (2 * static_cast<i128>(B + 1) * (B + 1) < m) ++B;
  i128 r0 = m, r1 = ((x % m) + m) % m, t0 = 0, t1 = 1;
  while (r1 > B) {
    const i128 q = r0 / r1;
    const i128 r2 = r0 - q * r1, t2 = t0 - q * t1;
    r0 = r1, r1 = r2, t0 = t1, t1 = t2;
  }
  const i128 at = t1 < 0 ? -t1 : t1;
  if (at == 0 || at > B) return false;
  if (std::gcd(static_cast<std::int64_t>(r1), static_cast<std::int64_t>(at)) != 1) return false;
  n = static_cast<std::int64_t>(t1 < 0 ? -r1 : r1);
  d = static_cast<std::int64_t>(at);
  return true;
}

// P over Q from its residues modulo primes (product < 2^62): every entry n/d with
// |n|, d ≤ √(m/2), scaled by the lcm of the d. std::nullopt when an entry has no such fraction
// or the scaled entries leave int64.
std::optional<Scaled> reconstruct(const std::vector<std::vector<double>>& res,
                                  const std::vector<std::uint32_t>& primes, std::size_t rows,
                                  std::size_t cols) {
  std::int64_t m = 1;
  for (std::uint32_t p : primes) {
    if (static_cast<i128>(m) * p >= kBig) return std::nullopt;
    m *= p;
  }
  std::vector<std::int64_t> num(rows * cols), den(rows * cols, 1);
  std::int64_t lcm = 1;
  for (std::size_t e = 0; e < rows * cols; ++e) {
    // CRT, incrementally: x ≡ res[i][e] (mod p_i).
    std::int64_t x = 0, mm = 1;
    for (std::size_t i = 0; i < primes.size(); ++i) {
      const std::uint64_t p = primes[i], ri = static_cast<std::uint64_t>(res[i][e]);
      const std::uint64_t cur = static_cast<std::uint64_t>(x) % p;
      const std::uint64_t t = modp::mul((ri + p - cur) % p, modp::inv(mm % p, p), p);
      x += static_cast<std::int64_t>(t) * mm;
      mm *= static_cast<std::int64_t>(p);
    }
    if (x == 0) {
      num[e] = 0;
      continue;
    }
    std::int64_t n, d;
    if (!reconstruct_small(x, m, n, d)) return std::nullopt;
    num[e] = n, den[e] = d;
    const i128 l = static_cast<i128>(lcm) / std::gcd(lcm, d) * d;
    if (l >= kBig) return std::nullopt;
    lcm = static_cast<std::int64_t>(l);
  }
  Scaled s;
  s.rows = rows, s.cols = cols, s.den = lcm;
  s.num.resize(rows * cols);
  for (std::size_t e = 0; e < rows * cols; ++e) {
    const i128 v = static_cast<i128>(num[e]) * (lcm / den[e]);
    if (v >= kBig || v <= -kBig) return std::nullopt;
    s.num[e] = static_cast<std::int64_t>(v);
  }
  return s;
}

std::vector<double> residues_plain(const Scaled& s, std::uint32_t p) {
  std::vector<double> out(s.num.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = s.num[i] ? res64(s.num[i], p) : 0.0;
  return out;
}

// Whether h_B(u) = h_A(u)·P for every word and the outputs agree, exactly over Q: with
// P = P̂/δ_P, α_A·P = α_B, M^A_σ·P = P·M^B_σ, O^A_σ = P·O^B_σ, each an identity of integer
// matrices after clearing denominators, checked modulo primes whose product exceeds a bound on
// the absolute values of both sides (so each difference, ≡ 0 modulo the product and smaller
// than it, is 0). The first prime is `first` (the run's prime: P ≡ its residues there, so a
// failure there means no morphism modulo it). primes_used: the primes the check took.
enum class Check { holds, fails_first, fails_later };
Check morphism_holds(const ScaledRep& A, const ScaledRep& B, const Scaled& P, std::uint32_t first,
                     std::vector<std::uint32_t>& primes_used) {
  const std::size_t da = A.d, db = B.d, r = A.r, S = A.S;
  const Integer dP = P.den;
  const Integer pmax = max_abs({P});
  const Integer dMA = S ? A.M[0].den : Integer(1), dMB = S ? B.M[0].den : Integer(1);
  const Integer dOA = S ? A.O[0].den : Integer(1), dOB = S ? B.O[0].den : Integer(1);
  // Sides: δ_αB·(α̂_A·P̂) = δ_αA·δ_P·α̂_B; δ_MB·(M̂_A·P̂) = δ_MA·(P̂·M̂_B);
  // δ_OB·δ_P·Ô_A = δ_OA·(P̂·Ô_B).
  Integer bound =
      B.alpha.den * abs_sum({A.alpha}, true) * pmax + A.alpha.den * dP * max_abs({B.alpha});
  bound = std::max(bound, dMB * abs_sum(A.M, true) * pmax + dMA * pmax * abs_sum(B.M, false));
  bound = std::max(bound, dOB * dP * max_abs(A.O) + dOA * pmax * abs_sum(B.O, false));
  Integer prod = 1;
  std::vector<std::uint32_t> order{first};
  for (std::uint32_t q : primes_below_2_24(1000))
    if (q != first) order.push_back(q);
  for (std::uint32_t q : order) {
    if (prod > bound) break;
    const Check fail = q == first ? Check::fails_first : Check::fails_later;
    prod *= q;
    primes_used.push_back(q);
    const double qd = q;
    auto res = [&](const Integer& x) { return static_cast<double>(residue(x, q)); };
    const std::vector<double> Pq = residues_plain(P, q);
    auto scaled_equal = [&](const std::vector<double>& L, double sl, const std::vector<double>& R,
                            double sr) {
      const double qinv = 1.0 / qd;
      for (std::size_t i = 0; i < L.size(); ++i)
        if (modmat_reduce(L[i] * sl, qd, qinv) != modmat_reduce(R[i] * sr, qd, qinv)) return false;
      return true;
    };
    {  // α
      const std::vector<double> aA = residues_plain(A.alpha, q), aB = residues_plain(B.alpha, q);
      std::vector<double> L(db, 0.0);
      modmat_muladd(q, 1, db, da, aA.data(), da, Pq.data(), db, L.data(), db);
      const double sr = static_cast<double>(residue(A.alpha.den * dP, q));
      if (!scaled_equal(L, res(B.alpha.den), aB, sr)) return fail;
    }
    for (std::size_t s = 0; s < S; ++s) {  // O
      const std::vector<double> OA = residues_plain(A.O[s], q), OB = residues_plain(B.O[s], q);
      std::vector<double> R(da * r, 0.0);
      modmat_muladd(q, da, r, db, Pq.data(), db, OB.data(), r, R.data(), r);
      if (!scaled_equal(OA, static_cast<double>(residue(dOB * dP, q)), R, res(dOA))) return fail;
    }
    for (std::size_t s = 0; s < S; ++s) {  // M
      const std::vector<double> MA = residues_plain(A.M[s], q), MB = residues_plain(B.M[s], q);
      std::vector<double> L(da * db, 0.0), R(da * db, 0.0);
      modmat_muladd(q, da, db, da, MA.data(), da, Pq.data(), db, L.data(), db);
      modmat_muladd(q, da, db, db, Pq.data(), db, MB.data(), db, R.data(), db);
      if (!scaled_equal(L, res(dMB), R, res(dMA))) return fail;
    }
  }
  return prod > bound ? Check::holds : Check::fails_later;
}

// A bound H on |numerator of y_f(w) − y_g(w)| over words of length ≤ len, with the common
// denominator D_f(len)·D_g(len): |α̂·M̂_{w₁}⋯M̂_{w_{ℓ−1}}·Ô_{w_ℓ}| ≤ ‖α̂‖₁·R^{ℓ−1}·max|Ô| with R
// the largest absolute row sum of the M̂_σ (at least 1, so the bound grows with ℓ).
Integer difference_bound(const ScaledRep& f, const ScaledRep& g, std::size_t len) {
  auto side = [&](const ScaledRep& x, Integer& num, Integer& den) {
    Integer R = std::max(Integer(1), x.S ? abs_sum(x.M, true) : Integer(1));
    Integer dM = std::max(Integer(1), x.S ? x.M[0].den : Integer(1));
    num = abs_sum({x.alpha}, true) * (x.S ? max_abs(x.O) : Integer(0));
    den = x.alpha.den * (x.S ? x.O[0].den : Integer(1));
    for (std::size_t i = 1; i < len; ++i) num *= R, den *= dM;
  };
  Integer nf, df, ng, dg;
  side(f, nf, df);
  side(g, ng, dg);
  return nf * dg + ng * df;
}

bool llex_less(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

std::size_t bits64(std::int64_t x) {
  std::uint64_t u =
      x < 0 ? static_cast<std::uint64_t>(-(x + 1)) + 1 : static_cast<std::uint64_t>(x);
  std::size_t b = 0;
  while (u) ++b, u >>= 1;
  return b;
}

}  // namespace

std::optional<EquivalenceResult> decide_multimodular(const LinearRepresentation& f,
                                                     const LinearRepresentation& g) {
  const auto t0 = std::chrono::steady_clock::now();
  // RNNCC_EQUIV_TRACE=1: the time of each phase on stderr (bench/equivalence.cpp).
  static const bool trace_on = std::getenv("RNNCC_EQUIV_TRACE") != nullptr;
  auto trace = [&](const char* what) {
    if (trace_on)
      std::fprintf(stderr, "  [equiv %.3f s] %s\n",
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                   what);
  };
  EquivalenceResult res;
  res.field = "Q";
  res.dim_f = f.dim;
  res.dim_g = g.dim;
  auto strings = [](const std::vector<Rational>& y) {
    std::vector<std::string> out;
    for (const Rational& x : y) out.push_back(to_string(x));
    return out;
  };
  auto finish = [&] {
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  if (f.empty && g.empty) {
    if (*f.empty != *g.empty) {
      res.candidates = 1;
      res.counterexample = EquivalenceCounterexample{{}, 0, strings(*f.empty), strings(*g.empty)};
      return finish();
    }
    res.empty_value = strings(*f.empty);
  }
  const ScaledRep sf = scale_rep(f), sg = scale_rep(g);
  trace("scaled to integers");
  if (!sf.fits || !sg.fits) return std::nullopt;
  std::vector<std::uint32_t> primes;
  for (std::uint32_t p : primes_below_2_24(200))
    if (!unlucky(sf, p) && !unlucky(sg, p)) primes.push_back(p);
  if (primes.size() < 48) return std::nullopt;
  std::size_t next_prime = 0;

  // A refutation: the llex-least word differing modulo the product of the primes is the least
  // of the words each prime's run finds; once that product exceeds the bound on the numerators
  // of the differences up to its length, every llex-smaller word agrees exactly.
  auto refute = [&](std::vector<std::size_t> best,
                    std::vector<std::uint32_t> used) -> std::optional<EquivalenceResult> {
    Integer prod = 1;
    for (std::uint32_t p : used) prod *= p;
    while (prod <= difference_bound(sf, sg, best.size())) {
      if (next_prime >= 40) return std::nullopt;
      const std::uint32_t q = primes[next_prime++];
      const ModRun run = forward_basis_mod(sf, sg, q, best.size(), false);
      trace("forward basis modulo one more prime");
      res.candidates += run.candidates;
      if (run.kind == ModRun::counterexample && llex_less(run.word, best)) best = run.word;
      used.push_back(q);
      prod *= q;
    }
    const auto yf = evaluate_prefixes(f, best).back(), yg = evaluate_prefixes(g, best).back();
    trace("counterexample evaluated over Q");
    if (yf == yg) return std::nullopt;  // cannot happen (it differs modulo a prime)
    res.counterexample = EquivalenceCounterexample{best, best.size(), strings(yf), strings(yg)};
    res.primes = used;
    res.method = "forward basis modulo primes (Schützenberger–Tzeng), counterexample exact";
    return finish();
  };

  // A proof: P from the run's basis (modulo one prime, then more until the reconstruction is
  // stable), then checked exactly.
  auto prove = [&](const ScaledRep& A, const ScaledRep& B, const ModRun& first, std::uint32_t p0,
                   bool f_to_g) -> bool {
    std::vector<std::vector<double>> res_P{first.P};
    std::vector<std::uint32_t> used{p0};
    std::optional<Scaled> previous;
    for (int round = 0; round < 3; ++round) {
      std::optional<Scaled> P = reconstruct(res_P, used, A.d, B.d);
      trace(P ? "morphism reconstructed" : "morphism not reconstructed");
      if (P) {
        std::vector<std::uint32_t> check;
        const Check c = morphism_holds(A, B, *P, p0, check);
        trace(c == Check::holds ? "morphism checked exactly" : "morphism check failed");
        if (c == Check::fails_first) return false;  // no morphism even modulo p0
        if (c == Check::holds) {
          EquivalenceMorphism m;
          m.f_to_g = f_to_g;
          m.rows = A.d;
          m.cols = B.d;
          m.numerators = P->num;
          m.denominator = static_cast<std::int64_t>(P->den);
          std::size_t bits = bits64(m.denominator);
          for (std::int64_t x : m.numerators) bits = std::max(bits, bits64(x));
          res.max_bits = res.max_bits_vectors = bits;
          res.morphism = std::move(m);
          res.primes = used;
          res.check_primes = check;
          return true;
        }
        if (previous && previous->num == P->num && previous->den == P->den) return false;
        previous = P;
      }
      if (next_prime >= primes.size()) return false;
      const std::uint32_t q = primes[next_prime++];
      const ModRun run = forward_basis_mod(A, B, q, SIZE_MAX, true);
      res.candidates += run.candidates;
      if (run.kind != ModRun::morphism || run.basis_words != first.basis_words) continue;
      res_P.push_back(run.P);
      used.push_back(q);
    }
    return false;
  };

  const std::uint32_t p0 = primes[next_prime++];
  ModRun run = forward_basis_mod(sf, sg, p0, SIZE_MAX, true);
  trace("forward basis modulo p0");
  res.candidates = run.candidates;
  res.basis_words = run.basis_words;
  res.basis_size = run.basis_words.size();
  if (run.kind == ModRun::morphism && prove(sf, sg, run, p0, true)) {
    res.equivalent = true;
    res.method = "forward basis modulo primes, morphism checked exactly (Schützenberger–Tzeng)";
    return finish();
  }
  if (run.kind == ModRun::morphism) {  // no morphism f → g: the whole basis
    run = forward_basis_mod(sf, sg, p0, SIZE_MAX, false);
    res.candidates += run.candidates;
    res.basis_words = run.basis_words;
    res.basis_size = run.basis_words.size();
  }
  if (run.kind == ModRun::counterexample) return refute(run.word, {p0});
  // Equal modulo p0: a morphism g → f?
  ModRun back = forward_basis_mod(sg, sf, p0, SIZE_MAX, true);
  res.candidates += back.candidates;
  if (back.kind == ModRun::morphism && prove(sg, sf, back, p0, false)) {
    res.equivalent = true;
    res.basis_words = back.basis_words;
    res.basis_size = back.basis_words.size();
    res.method = "forward basis modulo primes, morphism checked exactly (Schützenberger–Tzeng)";
    return finish();
  }
  return std::nullopt;
}

}  // namespace rnncc::equivalence_internal
