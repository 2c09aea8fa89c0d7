// The forward basis modulo a prime p < 2^24 of the multimodular path (equivalence.hpp, "Over Q
// at scale"), layer by layer, over representations scaled to integers.
#include "verify/forward_basis_mod.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>

#include "algebra/modp_ops.hpp"
#include "algebra/multimodular.hpp"
#include "verify/equivalence.hpp"

namespace rnncc::equivalence_internal {

namespace {

bool is_zero_q(const Rational& x) {  // without a temporary Rational(0)
  return mpq_sgn(x.backend().data()) == 0;
}

bool small_parts(const Rational& x, std::int64_t& n, std::int64_t& d) {
  const auto* q = x.backend().data();
  if (!mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_slong_p(mpq_denref(q))) return false;
  n = mpz_get_si(mpq_numref(q));
  d = mpz_get_si(mpq_denref(q));
  return true;
}

// Scales several matrices by one common denominator (their lcm).
std::vector<Scaled> scale(const std::vector<const Matrix<Rational>*>& ms) {
  std::int64_t den = 1;
  bool fits = true;
  for (const auto* m : ms)
    for (const Rational& x : m->data()) {
      std::int64_t n, d;
      if (is_zero_q(x)) continue;
      if (!small_parts(x, n, d)) {
        fits = false;
        break;
      }
      if (den % d) {
        const i128 l = static_cast<i128>(den) / std::gcd(den, d) * d;
        if (l >= kBig) {
          fits = false;
          break;
        }
        den = static_cast<std::int64_t>(l);
      }
    }
  std::vector<Scaled> out;
  for (const auto* m : ms) {
    Scaled s;
    s.rows = m->rows();
    s.cols = m->cols();
    s.den = den;
    s.fits = fits;
    if (fits) {
      s.num.assign(s.rows * s.cols, 0);
      const auto& data = m->data();
      for (std::size_t i = 0; i < data.size() && s.fits; ++i) {
        std::int64_t n, d;
        if (is_zero_q(data[i])) continue;
        small_parts(data[i], n, d);
        const i128 v = static_cast<i128>(n) * (den / d);
        if (v >= kBig || v <= -kBig) s.fits = false;
        s.num[i] = static_cast<std::int64_t>(v);
      }
    }
    out.push_back(std::move(s));
  }
  bool all = true;
  for (const Scaled& s : out) all = all && s.fits;
  for (Scaled& s : out) s.fits = all;
  return out;
}

}  // namespace

ScaledRep scale_rep(const LinearRepresentation& x) {
  ScaledRep s;
  s.d = x.dim, s.r = x.outputs, s.S = x.symbols.size();
  Matrix<Rational> a(1, x.dim);
  for (std::size_t i = 0; i < x.dim; ++i) a(0, i) = x.initial[i];
  s.alpha = scale({&a})[0];
  std::vector<const Matrix<Rational>*> ms, os;
  for (std::size_t t = 0; t < s.S; ++t) ms.push_back(&x.transition[t]), os.push_back(&x.output[t]);
  s.M = scale(ms);
  s.O = scale(os);
  s.fits = s.alpha.fits && (s.S == 0 || (s.M[0].fits && s.O[0].fits));
  return s;
}

std::uint64_t residue(const Integer& x, std::uint32_t p) {
  Integer r = x % p;
  if (r < 0) r += p;
  return static_cast<std::uint64_t>(r);
}

double res64(std::int64_t x, std::uint32_t p) {
  std::int64_t r = x % static_cast<std::int64_t>(p);
  return static_cast<double>(r < 0 ? r + p : r);
}

namespace {

// The residues of s (times inv mod p), as a dense double matrix.
std::vector<double> residues(const Scaled& s, std::uint32_t p, std::uint64_t inv = 1) {
  std::vector<double> out(s.num.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = s.num[i]
                 ? static_cast<double>(static_cast<std::uint64_t>(res64(s.num[i], p)) * inv % p)
                 : 0.0;
  return out;
}

}  // namespace

// Whether p divides a denominator of the representation (then it has no value mod p).
bool unlucky(const ScaledRep& s, std::uint32_t p) {
  return residue(s.alpha.den, p) == 0 ||
         (s.S && (residue(s.M[0].den, p) == 0 || residue(s.O[0].den, p) == 0));
}

namespace {

struct ModRep {
  std::vector<double> alpha;              // d
  std::vector<std::vector<double>> M, O;  // [σ]: d×d, d×r
};

ModRep mod_rep(const ScaledRep& s, std::uint32_t p) {
  ModRep m;
  m.alpha = residues(s.alpha, p, modp::inv(residue(s.alpha.den, p), p));
  for (std::size_t t = 0; t < s.S; ++t) {
    m.M.push_back(residues(s.M[t], p, modp::inv(residue(s.M[t].den, p), p)));
    m.O.push_back(residues(s.O[t], p, modp::inv(residue(s.O[t].den, p), p)));
  }
  return m;
}

}  // namespace

// The forward basis of the difference automaton of (a, b) modulo p, layer by layer (breadth
// first, each layer in llex order): the same basis words and the same first failing check as
// the one-word-at-a-time decider, so the same shortest, llex-least counterexample modulo p.
// max_length: stop (truncated) once every word of length ≤ max_length is checked. early: stop
// (morphism) as soon as the basis has d_a vectors whose a-parts are independent: then the span
// of the basis is the graph of P (h_b = h_a·P on the span).
ModRun forward_basis_mod(const ScaledRep& A, const ScaledRep& B, std::uint32_t p,
                         std::size_t max_length, bool early) {
  const ModRep a = mod_rep(A, p), b = mod_rep(B, p);
  const std::size_t da = A.d, db = B.d, n = da + db, r = A.r, S = A.S;
  const double pd = p, pinv = 1.0 / pd;
  ModRun run;
  // The basis: E (reduced row echelon form, rows in insertion order, pivot[i]) and V (the
  // vectors v(u) of the basis words).
  std::vector<double> E, V;
  std::vector<std::size_t> pivot;
  std::size_t pivots_in_a = 0;  // pivots among the first d_a columns
  auto kdim = [&] { return pivot.size(); };
  auto morphism_ready = [&] { return early && kdim() == da && pivots_in_a == da; };
  // Inserts the rows of C (m×n, llex order) greedily: returns the indices of the rows that
  // became basis vectors. C is consumed.
  auto insert_rows = [&](std::vector<double>& C, std::size_t m,
                         const std::vector<double>& original) {
    std::vector<std::size_t> added;
    constexpr std::size_t block = 256;
    for (std::size_t r0 = 0; r0 < m; r0 += block) {
      if (morphism_ready()) break;
      const std::size_t mb = std::min(block, m - r0);
      double* Cb = C.data() + r0 * n;
      const std::size_t k = kdim();
      if (k) {  // Cb ← Cb − Cb[:, pivots]·E
        std::vector<double> G(mb * k);
        for (std::size_t i = 0; i < mb; ++i)
          for (std::size_t j = 0; j < k; ++j) {
            const double x = Cb[i * n + pivot[j]];
            G[i * k + j] = x == 0 ? 0 : pd - x;
          }
        modmat_muladd(p, mb, n, k, G.data(), k, E.data(), n, Cb, n);
      }
      // Within the block: each row reduced by the rows the block added before it.
      std::vector<std::size_t> new_rows, new_piv;
      for (std::size_t i = 0; i < mb; ++i) {
        double* row = Cb + i * n;
        for (std::size_t t = 0; t < new_rows.size(); ++t) {
          const double c = row[new_piv[t]];
          if (c == 0) continue;
          const double* e = Cb + new_rows[t] * n;
          const double mc = pd - c;
          for (std::size_t j = 0; j < n; ++j) row[j] = modmat_reduce(row[j] + mc * e[j], pd, pinv);
        }
        std::size_t piv = n;
        for (std::size_t j = 0; j < n && piv == n; ++j)
          if (row[j] != 0) piv = j;
        if (piv == n) continue;
        const double inv = static_cast<double>(modp::inv(static_cast<std::uint64_t>(row[piv]), p));
        for (std::size_t j = 0; j < n; ++j)
          if (row[j] != 0) row[j] = modmat_reduce(row[j] * inv, pd, pinv);
        for (std::size_t t = 0; t < new_rows.size(); ++t) {  // keep the new rows reduced
          double* e = Cb + new_rows[t] * n;
          const double c = e[piv];
          if (c == 0) continue;
          const double mc = pd - c;
          for (std::size_t j = 0; j < n; ++j) e[j] = modmat_reduce(e[j] + mc * row[j], pd, pinv);
        }
        new_rows.push_back(i);
        new_piv.push_back(piv);
        added.push_back(r0 + i);
        if (early && k + new_rows.size() == da &&
            pivots_in_a +
                    static_cast<std::size_t>(std::count_if(
                        new_piv.begin(), new_piv.end(), [&](std::size_t x) { return x < da; })) ==
                da)
          break;
      }
      if (new_rows.empty()) continue;
      const std::size_t t = new_rows.size();
      std::vector<double> N(t * n);
      for (std::size_t i = 0; i < t; ++i)
        std::copy(Cb + new_rows[i] * n, Cb + new_rows[i] * n + n, N.begin() + i * n);
      if (k) {  // E ← E − E[:, new pivots]·N
        std::vector<double> G(k * t);
        for (std::size_t i = 0; i < k; ++i)
          for (std::size_t j = 0; j < t; ++j) {
            const double x = E[i * n + new_piv[j]];
            G[i * t + j] = x == 0 ? 0 : pd - x;
          }
        modmat_muladd(p, k, n, t, G.data(), t, N.data(), n, E.data(), n);
      }
      E.insert(E.end(), N.begin(), N.end());
      for (std::size_t i = 0; i < t; ++i) {
        pivot.push_back(new_piv[i]);
        pivots_in_a += new_piv[i] < da;
        V.insert(V.end(), original.begin() + (r0 + new_rows[i]) * n,
                 original.begin() + (r0 + new_rows[i]) * n + n);
      }
    }
    return added;
  };

  std::vector<double> v0(n);
  std::copy(a.alpha.begin(), a.alpha.end(), v0.begin());
  std::copy(b.alpha.begin(), b.alpha.end(), v0.begin() + da);
  std::vector<std::size_t> layer;  // indices of the basis words of the current layer
  {
    std::vector<double> C = v0;
    if (!insert_rows(C, 1, v0).empty()) {
      run.basis_words.push_back({});
      layer.push_back(0);
    }
  }
  run.candidates = 1;
  for (std::size_t len = 0; !layer.empty() && !morphism_ready(); ++len) {
    const std::size_t L = layer.size();
    // Output checks of the words u·σ, u in the layer, in llex order.
    std::vector<double> Va(L * da), Vb(L * db);
    for (std::size_t i = 0; i < L; ++i) {
      const double* v = V.data() + layer[i] * n;
      std::copy(v, v + da, Va.begin() + i * da);
      std::copy(v + da, v + n, Vb.begin() + i * db);
    }
    if (len + 1 > max_length) {
      run.kind = ModRun::truncated;
      return run;
    }
    std::vector<std::vector<double>> Ya(S), Yb(S);
    for (std::size_t s = 0; s < S; ++s) {
      Ya[s].assign(L * r, 0.0);
      Yb[s].assign(L * r, 0.0);
      modmat_muladd(p, L, r, da, Va.data(), da, a.O[s].data(), r, Ya[s].data(), r);
      modmat_muladd(p, L, r, db, Vb.data(), db, b.O[s].data(), r, Yb[s].data(), r);
    }
    for (std::size_t i = 0; i < L; ++i)
      for (std::size_t s = 0; s < S; ++s)
        for (std::size_t j = 0; j < r; ++j)
          if (Ya[s][i * r + j] != Yb[s][i * r + j]) {
            run.kind = ModRun::counterexample;
            run.word = run.basis_words[layer[i]];
            run.word.push_back(s);
            return run;
          }
    // Candidates u·σ (row i·S + σ): v(u)·M_σ, for a chunk of the layer's words at a time (in
    // llex order), so that the early stop skips the rest of the layer.
    std::vector<std::size_t> next;
    constexpr std::size_t chunk = 64;
    for (std::size_t c0 = 0; c0 < L && !morphism_ready(); c0 += chunk) {
      const std::size_t Lc = std::min(chunk, L - c0);
      std::vector<double> C(Lc * S * n, 0.0);
      std::vector<double> T(std::max(Lc * da, Lc * db));
      for (std::size_t s = 0; s < S; ++s) {
        std::fill(T.begin(), T.begin() + Lc * da, 0.0);
        modmat_muladd(p, Lc, da, da, Va.data() + c0 * da, da, a.M[s].data(), da, T.data(), da);
        for (std::size_t i = 0; i < Lc; ++i)
          std::copy(T.begin() + i * da, T.begin() + (i + 1) * da, C.begin() + (i * S + s) * n);
        std::fill(T.begin(), T.begin() + Lc * db, 0.0);
        modmat_muladd(p, Lc, db, db, Vb.data() + c0 * db, db, b.M[s].data(), db, T.data(), db);
        for (std::size_t i = 0; i < Lc; ++i)
          std::copy(T.begin() + i * db, T.begin() + (i + 1) * db, C.begin() + (i * S + s) * n + da);
      }
      const std::vector<double> original = C;
      const std::vector<std::size_t> added = insert_rows(C, Lc * S, original);
      run.candidates += Lc * S;
      for (std::size_t idx : added) {
        std::vector<std::size_t> w = run.basis_words[layer[c0 + idx / S]];
        w.push_back(idx % S);
        run.basis_words.push_back(std::move(w));
        next.push_back(run.basis_words.size() - 1);
      }
    }
    layer = std::move(next);
  }
  if (morphism_ready()) {
    run.kind = ModRun::morphism;
    run.P.assign(da * db, 0.0);
    for (std::size_t i = 0; i < da; ++i) {
      const double* e = E.data() + i * n;
      std::copy(e + da, e + n, run.P.begin() + pivot[i] * db);
    }
    return run;
  }
  run.kind = ModRun::closed;
  return run;
}

}  // namespace rnncc::equivalence_internal

namespace rnncc {

using equivalence_internal::forward_basis_mod;
using equivalence_internal::ModRun;
using equivalence_internal::scale_rep;
using equivalence_internal::ScaledRep;
using equivalence_internal::unlucky;

EquivalenceResult forward_basis_layered_mod_p(const LinearRepresentation& f,
                                              const LinearRepresentation& g, std::uint32_t p) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  const ScaledRep sf = scale_rep(f), sg = scale_rep(g);
  if (!sf.fits || !sg.fits || unlucky(sf, p) || unlucky(sg, p))
    throw std::invalid_argument("forward_basis_layered_mod_p: unusable prime or numbers");
  const ModRun run = forward_basis_mod(sf, sg, p, SIZE_MAX, false);
  EquivalenceResult r;
  r.field = "F_p";
  r.modulus = p;
  r.dim_f = f.dim, r.dim_g = g.dim;
  r.basis_words = run.basis_words;
  r.basis_size = run.basis_words.size();
  r.candidates = run.candidates;
  r.equivalent = run.kind == ModRun::closed;
  if (run.kind == ModRun::counterexample)
    r.counterexample = EquivalenceCounterexample{run.word, run.word.size(), {}, {}};
  return r;
}

}  // namespace rnncc
