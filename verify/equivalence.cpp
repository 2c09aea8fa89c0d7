#include "verify/equivalence.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

#include "algebra/linear_basis.hpp"
#include "algebra/multimodular.hpp"

namespace rnncc {
namespace {

__extension__ typedef __int128 i128;  // exact products of two int64

std::optional<std::uint64_t> pick_modulus(const LinearRepresentation& f,
                                          const LinearRepresentation& g,
                                          const EquivalenceParams& p) {
  if (p.modulus) return p.modulus;
  if (f.modulus != g.modulus) {
    if (f.modulus && g.modulus)
      throw InputError("", "the models are read modulo different primes: " +
                               std::to_string(*f.modulus) + " vs " + std::to_string(*g.modulus));
    return f.modulus ? f.modulus : g.modulus;
  }
  return f.modulus;
}

template <class F>
typename F::Element convert(const F& field, const Rational& q) {
  try {
    return field.from_rational(q);
  } catch (const std::domain_error& e) {
    throw DomainError(e.what());
  }
}

template <class F>
EquivalenceResult decide(const F& field, const LinearRepresentation& f,
                         const LinearRepresentation& g, bool track) {
  using E = typename F::Element;
  using Vec = std::vector<E>;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t df = f.dim, dg = g.dim, n = df + dg, r = f.outputs, S = f.symbols.size();
  EquivalenceResult res;
  res.field = field.name();
  res.dim_f = df;
  res.dim_g = dg;
  // Difference automaton, stored sparsely per row of M_σ (models are sparse).
  std::vector<std::vector<std::vector<std::pair<std::size_t, E>>>> M(
      S, std::vector<std::vector<std::pair<std::size_t, E>>>(n));
  std::vector<std::vector<Vec>> Of(S), Og(S);  // [σ][row] → r values
  for (std::size_t s = 0; s < S; ++s) {
    for (std::size_t i = 0; i < df; ++i)
      for (std::size_t j = 0; j < df; ++j)
        if (f.transition[s](i, j) != 0)
          M[s][i].emplace_back(j, convert(field, f.transition[s](i, j)));
    for (std::size_t i = 0; i < dg; ++i)
      for (std::size_t j = 0; j < dg; ++j)
        if (g.transition[s](i, j) != 0)
          M[s][df + i].emplace_back(df + j, convert(field, g.transition[s](i, j)));
    Of[s].assign(df, Vec(r, field.zero()));
    Og[s].assign(dg, Vec(r, field.zero()));
    for (std::size_t i = 0; i < df; ++i)
      for (std::size_t j = 0; j < r; ++j) Of[s][i][j] = convert(field, f.output[s](i, j));
    for (std::size_t i = 0; i < dg; ++i)
      for (std::size_t j = 0; j < r; ++j) Og[s][i][j] = convert(field, g.output[s](i, j));
  }
  auto outputs = [&](const Vec& v, std::size_t s, Vec& yf, Vec& yg) {
    yf.assign(r, field.zero());
    yg.assign(r, field.zero());
    for (std::size_t i = 0; i < df; ++i)
      if (!field.is_zero(v[i]))
        for (std::size_t j = 0; j < r; ++j) yf[j] = field.add(yf[j], field.mul(v[i], Of[s][i][j]));
    for (std::size_t i = 0; i < dg; ++i)
      if (!field.is_zero(v[df + i]))
        for (std::size_t j = 0; j < r; ++j)
          yg[j] = field.add(yg[j], field.mul(v[df + i], Og[s][i][j]));
  };
  auto strings = [&](const Vec& y) {
    std::vector<std::string> out;
    for (const E& x : y) out.push_back(field.to_string(x));
    return out;
  };
  auto differ = [&](const Vec& a, const Vec& b) {
    for (std::size_t j = 0; j < a.size(); ++j)
      if (!field.is_zero(field.sub(a[j], b[j]))) return true;
    return false;
  };
  auto finish = [&](EchelonBasis<F>& basis) {
    res.basis_size = basis.size();
    res.max_bits = basis.max_bits_working();
    res.max_bits_vectors = basis.max_bits_inserted();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };

  EchelonBasis<F> basis(field, n, track);
  if (f.empty && g.empty) {
    Vec ef, eg;
    for (const Rational& x : *f.empty) ef.push_back(convert(field, x));
    for (const Rational& x : *g.empty) eg.push_back(convert(field, x));
    res.candidates = 1;
    if (differ(ef, eg)) {
      res.counterexample = EquivalenceCounterexample{{}, 0, strings(ef), strings(eg)};
      finish(basis);
      return res;
    }
    res.empty_value = strings(ef);
  }
  Vec alpha(n, field.zero());
  for (std::size_t i = 0; i < df; ++i) alpha[i] = convert(field, f.initial[i]);
  for (std::size_t i = 0; i < dg; ++i) alpha[df + i] = convert(field, g.initial[i]);
  bool zero = true;
  for (const E& x : alpha) zero = zero && field.is_zero(x);
  if (!zero) {  // v(ε) = 0 spans nothing: every output is 0 on both sides
    basis.insert(alpha);
    res.basis_words.push_back({});
  }
  std::vector<std::vector<std::vector<E>>> coeffs;  // [i][σ], padded at the end
  Vec yf, yg;
  for (std::size_t i = 0; i < res.basis_words.size(); ++i) {
    const Vec v = basis.vector(i);
    coeffs.emplace_back();
    res.values.emplace_back();
    for (std::size_t s = 0; s < S; ++s) {
      outputs(v, s, yf, yg);
      if (differ(yf, yg)) {
        std::vector<std::size_t> w = res.basis_words[i];
        w.push_back(s);
        res.counterexample = EquivalenceCounterexample{w, w.size(), strings(yf), strings(yg)};
        res.candidates += 1;
        res.values.clear();
        finish(basis);
        return res;
      }
      res.values[i].push_back(strings(yf));
      Vec next(n, field.zero());
      for (std::size_t a = 0; a < n; ++a) {
        if (field.is_zero(v[a])) continue;
        for (const auto& [b, x] : M[s][a]) next[b] = field.add(next[b], field.mul(v[a], x));
      }
      ++res.candidates;
      if (auto c = basis.insert(next)) {
        coeffs[i].push_back(std::move(*c));
      } else {
        std::vector<std::size_t> w = res.basis_words[i];
        w.push_back(s);
        res.basis_words.push_back(std::move(w));
        Vec unit(track ? basis.size() : 0, field.zero());
        if (track) unit.back() = field.one();
        coeffs[i].push_back(std::move(unit));
      }
    }
  }
  res.equivalent = true;
  const std::size_t k = res.basis_words.size();
  for (auto& per_symbol : coeffs) {
    if (!track) break;
    res.coefficients.emplace_back();
    for (auto& c : per_symbol) {
      c.resize(k, field.zero());
      res.coefficients.back().push_back(strings(c));
    }
  }
  finish(basis);
  return res;
}

// ---- the multimodular fast path (over Q) ------------------------------------------------------

// A rational matrix scaled to integers: entries num[i] with x = num[i] / den, den > 0 the lcm of
// the denominators (num fits in int64 and den < 2^62, else `fits` is false).
struct Scaled {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> num;
  Integer den = 1;
  bool fits = true;
};

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

constexpr std::int64_t kBig = std::int64_t{1} << 62;

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

// A representation scaled: α = α̂/δ_α, M_σ = M̂_σ/δ_M, O_σ = Ô_σ/δ_O.
struct ScaledRep {
  std::size_t d = 0, r = 0, S = 0;
  Scaled alpha;
  std::vector<Scaled> M, O;
  bool fits = true;
};

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

// The residues of s (times inv mod p), as a dense double matrix.
std::vector<double> residues(const Scaled& s, std::uint32_t p, std::uint64_t inv = 1) {
  std::vector<double> out(s.num.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = s.num[i]
                 ? static_cast<double>(static_cast<std::uint64_t>(res64(s.num[i], p)) * inv % p)
                 : 0.0;
  return out;
}

// Whether p divides a denominator of the representation (then it has no value mod p).
bool unlucky(const ScaledRep& s, std::uint32_t p) {
  return residue(s.alpha.den, p) == 0 ||
         (s.S && (residue(s.M[0].den, p) == 0 || residue(s.O[0].den, p) == 0));
}

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

// What one forward-basis run modulo p found.
struct ModRun {
  enum Kind { counterexample, closed, morphism, truncated } kind = closed;
  std::vector<std::size_t> word;  // counterexample
  std::vector<std::vector<std::size_t>> basis_words;
  std::vector<double> P;  // morphism: d_a × d_b, h_b = h_a·P mod p
  std::size_t candidates = 0;
};

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

// The fast path over Q, or std::nullopt when it cannot conclude (numbers beyond int64, no
// morphism in either direction, too many primes): then the exact decider runs.
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

}  // namespace

void check_same_interface(const std::vector<std::string>& symbols_f, std::size_t outputs_f,
                          const std::vector<std::string>& symbols_g, std::size_t outputs_g) {
  if (symbols_f != symbols_g) {
    auto list = [](const std::vector<std::string>& s) {
      std::string out;
      for (const std::string& x : s) out += (out.empty() ? "" : " ") + x;
      return "{" + out + "}";
    };
    throw InputError("", "the alphabets differ: " + list(symbols_f) + " vs " + list(symbols_g) +
                             " (same symbols in the same order needed)");
  }
  if (outputs_f != outputs_g)
    throw InputError("", "the output dimensions differ: " + std::to_string(outputs_f) + " vs " +
                             std::to_string(outputs_g));
}

EquivalenceResult decide_equivalence(const LinearRepresentation& f, const LinearRepresentation& g,
                                     const EquivalenceParams& params) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  const std::optional<std::uint64_t> p = pick_modulus(f, g, params);
  if (p) {
    if (!modp::is_prime(*p) || *p >= (std::uint64_t{1} << modp::max_modulus_bits))
      throw InputError("", "the modulus " + std::to_string(*p) + " is not a prime below 2^62");
    EquivalenceResult r = decide(FpField{*p}, f, g, params.certificate);
    r.modulus = p;
    return r;
  }
  const bool fast = uses_multimodular(f.dim, g.dim, false, params);
  if (fast)
    if (std::optional<EquivalenceResult> r = decide_multimodular(f, g)) return std::move(*r);
  if (params.max_exact_work) {
    // (d_f + d_g)³·|Σ|, saturating: the forward basis over Q (the header's cost).
    const long double n = static_cast<long double>(f.dim + g.dim);
    const long double work = n * n * n * static_cast<long double>(f.symbols.size());
    if (work > static_cast<long double>(*params.max_exact_work))
      throw InputError(
          "--max-work",
          std::string(fast ? "the multimodular path could not conclude (no morphism either "
                             "way, or entries past its primes) and "
                           : "") +
              "the exact forward basis over Q would take about " +
              std::to_string(static_cast<unsigned long long>(std::min(work, 1.8e19L))) +
              " field operations (dimension " + std::to_string(f.dim + g.dim) +
              ", |Σ| = " + std::to_string(f.symbols.size()) + "), more than the limit of " +
              std::to_string(*params.max_exact_work) + " (raise --max-work to run it anyway)");
  }
  return decide(QField{}, f, g, params.certificate);
}

bool uses_multimodular(std::size_t dim_f, std::size_t dim_g, bool modulus,
                       const EquivalenceParams& params) {
  using M = EquivalenceParams::Method;
  if (modulus || params.modulus) return false;
  return params.method == M::multimodular ||
         (params.method == M::automatic && dim_f + dim_g >= kMultimodularFromDimension);
}

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

std::optional<EquivalenceCounterexample> exhaustive_counterexample(
    const LinearRepresentation& f, const LinearRepresentation& g, std::size_t max_length,
    std::optional<std::uint64_t> modulus) {
  check_same_interface(f.symbols, f.outputs, g.symbols, g.outputs);
  auto reduce = [&](const std::vector<Rational>& y) {
    std::vector<std::string> out;
    for (const Rational& x : y)
      out.push_back(modulus ? std::to_string(FpField{*modulus}.from_rational(x)) : to_string(x));
    return out;
  };
  if (f.empty && g.empty && reduce(*f.empty) != reduce(*g.empty))
    return EquivalenceCounterexample{{}, 0, reduce(*f.empty), reduce(*g.empty)};
  std::vector<std::vector<std::size_t>> layer{{}};
  for (std::size_t len = 1; len <= max_length; ++len) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& u : layer)
      for (std::size_t s = 0; s < f.symbols.size(); ++s) {
        std::vector<std::size_t> w = u;
        w.push_back(s);
        const auto yf = reduce(evaluate_prefixes(f, w).back());
        const auto yg = reduce(evaluate_prefixes(g, w).back());
        if (yf != yg) return EquivalenceCounterexample{w, w.size(), yf, yg};
        next.push_back(std::move(w));
      }
    layer = std::move(next);
  }
  return std::nullopt;
}

}  // namespace rnncc
