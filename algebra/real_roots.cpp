// Real-root isolation by Sturm sequences over Q (see the header).
#include "algebra/real_roots.hpp"

#include <algorithm>
#include <stdexcept>

#if RNNCC_HAVE_FLINT
#include <flint/fmpq_poly.h>
#include <flint/fmpz_poly.h>
#endif

namespace rnncc {

namespace {

void trim(RationalPoly& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}

std::size_t degree(const RationalPoly& p) {
  return p.empty() ? 0 : p.size() - 1;
}

RationalPoly monic(RationalPoly p) {
  if (p.empty()) return p;
  const Rational lc = p.back();
  for (Rational& c : p) c /= lc;
  return p;
}

// Quotient and remainder of a by b ≠ 0.
std::pair<RationalPoly, RationalPoly> divide(const RationalPoly& a, const RationalPoly& b) {
  if (b.empty()) throw std::invalid_argument("polynomial division by zero");
  RationalPoly r = a;
  trim(r);
  if (r.size() < b.size()) return {RationalPoly{}, r};
  RationalPoly q(r.size() - b.size() + 1, Rational(0));
  while (!r.empty() && r.size() >= b.size()) {
    const std::size_t shift = r.size() - b.size();
    const Rational c = r.back() / b.back();
    q[shift] = c;
    for (std::size_t k = 0; k < b.size(); ++k) r[shift + k] -= c * b[k];
    r.pop_back();  // the leading term cancels exactly
    trim(r);
  }
  trim(q);
  return {q, r};
}

int sign(const Rational& x) {
  return x > 0 ? 1 : (x < 0 ? -1 : 0);
}

struct Sturm {
  std::vector<RationalPoly> seq;
  explicit Sturm(const RationalPoly& g) {
    seq.push_back(g);
    RationalPoly d = derivative(g);
    if (d.empty()) return;
    seq.push_back(d);
    while (true) {
      RationalPoly r = poly_rem(seq[seq.size() - 2], seq.back());
      if (r.empty()) break;
      for (Rational& c : r) c = -c;
      seq.push_back(std::move(r));
    }
  }
  std::size_t variations(const Rational& x) const {
    std::size_t v = 0;
    int last = 0;
    for (const RationalPoly& p : seq) {
      const int s = sign(evaluate(p, x));
      if (s == 0) continue;
      if (last != 0 && s != last) ++v;
      last = s;
    }
    return v;
  }
  // Distinct roots in (a, b].
  std::size_t count(const Rational& a, const Rational& b) const {
    return variations(a) - variations(b);
  }
};

RationalPoly squarefree_part(const RationalPoly& p) {
  return monic(poly_quo(p, poly_gcd(p, derivative(p))));
}

// The rational of smallest denominator (then smallest |numerator|) in the open interval (a, b),
// a < b, with b = +∞ when `inf`: continued fractions (the Stern–Brocot descent).
Rational simplest_between(const Rational& a, const Rational& b, bool inf = false) {
  if (!inf && b <= 0) return -simplest_between(-b, -a);
  if (a < 0) return Rational(0);
  const Integer n = floor(a);
  if (inf || Rational(n + 1) < b) return Rational(n + 1);
  // n ≤ a < b ≤ n + 1: recurse on the reciprocals of the fractional parts.
  const Rational lo = b - Rational(n), hi = a - Rational(n);  // 0 < lo ≤ 1, 0 ≤ hi < lo
  const Rational t =
      hi == 0 ? simplest_between(1 / lo, Rational(0), true) : simplest_between(1 / lo, 1 / hi);
  return Rational(n) + 1 / t;
}

#if RNNCC_HAVE_FLINT
std::size_t flint_real_root_count(const RationalPoly& g) {
  fmpq_poly_t q;
  fmpq_poly_init(q);
  for (std::size_t i = 0; i < g.size(); ++i)
    fmpq_poly_set_coeff_mpq(q, static_cast<slong>(i), g[i].backend().data());
  fmpz_poly_t z;
  fmpz_poly_init(z);
  fmpq_poly_get_numerator(z, q);
  const slong n = fmpz_poly_num_real_roots(z);
  fmpz_poly_clear(z);
  fmpq_poly_clear(q);
  return static_cast<std::size_t>(n);
}
#endif

}  // namespace

bool real_roots_has_flint() {
  return RNNCC_HAVE_FLINT != 0;
}

Rational evaluate(const RationalPoly& p, const Rational& x) {
  Rational v(0);
  for (std::size_t k = p.size(); k-- > 0;) v = v * x + p[k];
  return v;
}

RationalPoly derivative(const RationalPoly& p) {
  RationalPoly d;
  for (std::size_t k = 1; k < p.size(); ++k) d.push_back(p[k] * Rational(static_cast<long>(k)));
  trim(d);
  return d;
}

RationalPoly poly_rem(const RationalPoly& a, const RationalPoly& b) {
  return divide(a, b).second;
}
RationalPoly poly_quo(const RationalPoly& a, const RationalPoly& b) {
  return divide(a, b).first;
}

RationalPoly poly_gcd(const RationalPoly& a, const RationalPoly& b) {
  RationalPoly x = a, y = b;
  trim(x);
  trim(y);
  while (!y.empty()) {
    RationalPoly r = poly_rem(x, y);
    x = std::move(y);
    y = std::move(r);
  }
  return monic(x);
}

std::vector<std::pair<RationalPoly, std::size_t>> squarefree_decomposition(const RationalPoly& p0) {
  RationalPoly p = p0;
  trim(p);
  if (p.empty()) throw std::invalid_argument("squarefree_decomposition: the zero polynomial");
  std::vector<std::pair<RationalPoly, std::size_t>> out;
  // Yun: a_0 = gcd(p, p'), b_1 = p/a_0, c_1 = p'/a_0; d_i = c_i − b_i'; f_i = gcd(b_i,
  // d_i), b_{i+1} = b_i/f_i, c_{i+1} = d_i/f_i, until b_i = 1.
  const RationalPoly dp = derivative(p);
  const RationalPoly a0 = poly_gcd(p, dp);
  RationalPoly b = poly_quo(p, a0);
  RationalPoly c = poly_quo(dp, a0);
  for (std::size_t i = 1; degree(b) >= 1; ++i) {
    RationalPoly bd = derivative(b);
    RationalPoly d = c;
    d.resize(std::max(d.size(), bd.size()), Rational(0));
    for (std::size_t k = 0; k < bd.size(); ++k) d[k] -= bd[k];
    trim(d);
    const RationalPoly f = poly_gcd(b, d);
    if (degree(f) >= 1) out.emplace_back(f, i);
    b = poly_quo(b, f);
    c = poly_quo(d, f);
  }
  return out;
}

Rational cauchy_bound(const RationalPoly& p0) {
  RationalPoly p = p0;
  trim(p);
  if (p.size() < 2) throw std::invalid_argument("cauchy_bound: a polynomial of degree ≥ 1");
  Rational m(0);
  for (std::size_t k = 0; k + 1 < p.size(); ++k) m = std::max(m, abs(p[k] / p.back()));
  return 1 + m;
}

std::size_t count_distinct_roots(const RationalPoly& p, const Rational& a, const Rational& b) {
  RationalPoly q = p;
  trim(q);
  if (q.size() < 2) return 0;
  return Sturm(squarefree_part(q)).count(a, b);
}

std::vector<RealRoot> real_roots(const RationalPoly& p0, const Rational& max_width) {
  RationalPoly p = p0;
  trim(p);
  if (p.size() < 2) throw std::invalid_argument("real_roots: a polynomial of degree ≥ 1");
  if (max_width <= 0) throw std::invalid_argument("real_roots: max_width must be positive");
  const auto factors = squarefree_decomposition(p);
  RationalPoly g{Rational(1)};
  for (const auto& [f, i] : factors) {
    RationalPoly h(g.size() + f.size() - 1, Rational(0));
    for (std::size_t x = 0; x < g.size(); ++x)
      for (std::size_t y = 0; y < f.size(); ++y) h[x + y] += g[x] * f[y];
    g = std::move(h);
  }
  const Sturm sturm(g);
  const Rational B = cauchy_bound(g);
  // A rational root p/q of g has q | L, the leading coefficient of g with its denominators
  // cleared; two rationals of denominator ≤ L differ by ≥ 1/L², so once an isolating interval
  // is narrower than that, its root is rational iff it is the simplest rational inside.
  Integer den(1);
  for (const Rational& c : g) den = lcm(den, denominator(c));
  const Integer L = abs(numerator(g.back() * Rational(den)));
  const Rational rational_gap = Rational(Integer(1), L * L);
  std::vector<RealRoot> out;
  // Work list of half-open intervals (a, b] with their root counts.
  std::vector<std::pair<Rational, Rational>> work;
  std::vector<Rational> cuts{-B};
  for (int c : {-1, 0, 1})
    if (Rational(c) > -B && Rational(c) < B) cuts.push_back(Rational(c));
  cuts.push_back(B);
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) work.emplace_back(cuts[i], cuts[i + 1]);
  while (!work.empty()) {
    auto [a, b] = work.back();
    work.pop_back();
    const std::size_t n = sturm.count(a, b);
    if (n == 0) continue;
    const bool b_root = evaluate(g, b) == 0;
    if (n == 1 && b_root) {
      out.push_back({b, b, 0});
      continue;
    }
    if (n == 1 && evaluate(g, a) != 0) {
      // Refine (a, b) to the width asked, keeping the sign change of g.
      while (true) {
        // A rational root is found exactly once the interval is narrow enough that it is the
        // simplest rational inside.
        const Rational q = simplest_between(a, b);
        if (evaluate(g, q) == 0) {
          a = b = q;
          break;
        }
        if (b - a <= max_width && b - a < rational_gap) break;
        const Rational m = (a + b) / 2;
        const Rational gm = evaluate(g, m);
        if (gm == 0) {
          a = b = m;
          break;
        }
        if (sign(gm) == sign(evaluate(g, a)))
          a = m;
        else
          b = m;
      }
      out.push_back({a, b, 0});
      continue;
    }
    const Rational m = (a + b) / 2;
    work.emplace_back(a, m);
    work.emplace_back(m, b);
  }
  std::sort(out.begin(), out.end(),
            [](const RealRoot& x, const RealRoot& y) { return x.lo < y.lo; });
  for (RealRoot& r : out) {
    for (const auto& [f, i] : factors) {
      const bool has = r.exact() ? evaluate(f, r.lo) == 0
                                 : sign(evaluate(f, r.lo)) * sign(evaluate(f, r.hi)) < 0;
      if (!has) continue;
      r.multiplicity = i;
      if (!r.exact() && f.size() == 2) r.lo = r.hi = -f[0] / f[1];  // a linear factor: exact
      break;
    }
  }
#if RNNCC_HAVE_FLINT
  if (flint_real_root_count(g) != out.size())
    throw std::logic_error("real_roots: Sturm isolation disagrees with FLINT's root count");
#endif
  return out;
}

std::size_t real_root_count(const std::vector<RealRoot>& roots) {
  std::size_t n = 0;
  for (const RealRoot& r : roots) n += r.multiplicity;
  return n;
}

std::string to_string(const RealRoot& r) {
  std::string s =
      r.exact() ? to_string(r.lo) : "(" + to_string(r.lo) + ", " + to_string(r.hi) + ")";
  if (r.multiplicity != 1) s += " (×" + std::to_string(r.multiplicity) + ")";
  return s;
}

}  // namespace rnncc
