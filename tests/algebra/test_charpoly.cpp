// Characteristic polynomials and real-root isolation, exactly: charpoly (FLINT when built with it)
// and the Hessenberg twin against an independent Faddeev–LeVerrier twin on seeded random
// rational matrices; root isolation on hand-checked polynomials and, on random ones, against sign
// changes at the interval endpoints, exact roots and multiplicities by construction.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <random>

#include "algebra/charpoly.hpp"
#include "algebra/exact.hpp"
#include "algebra/real_roots.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

// Faddeev–LeVerrier: M_0 = 0, c_n = 1, M_k = A M_{k−1} + c_{n−k+1} I, c_{n−k} = −tr(A M_k)/k.
RationalPoly faddeev_leverrier(const Matrix<Rational>& a) {
  const std::size_t n = a.rows();
  RationalPoly c(n + 1, Rational(0));
  c[n] = 1;
  Matrix<Rational> m(n, n, Rational(0));
  for (std::size_t k = 1; k <= n; ++k) {
    Matrix<Rational> next = mul(Q, a, m);
    for (std::size_t i = 0; i < n; ++i) next(i, i) += c[n - k + 1];
    m = next;
    const Matrix<Rational> am = mul(Q, a, m);
    Rational tr(0);
    for (std::size_t i = 0; i < n; ++i) tr += am(i, i);
    c[n - k] = -tr / Rational(static_cast<long>(k));
  }
  while (!c.empty() && c.back() == 0) c.pop_back();
  return c;
}

RationalPoly times(const RationalPoly& a, const RationalPoly& b) {
  RationalPoly out(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
  return out;
}

int sign_at(const RationalPoly& p, const Rational& x) {
  const Rational v = evaluate(p, x);
  return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

}  // namespace

TEST_CASE("charpoly: FLINT/Hessenberg and the plain twin agree with Faddeev–LeVerrier") {
  std::mt19937_64 rng(20261202);
  for (std::size_t n = 1; n <= 7; ++n)
    for (int trial = 0; trial < 12; ++trial) {
      Matrix<Rational> a(n, n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          a(i, j) = rng() % 3 == 0 ? Rational(0) : test::small_rational(rng);
      const RationalPoly want = faddeev_leverrier(a);
      CHECK(charpoly(a) == want);
      CHECK(charpoly_plain(a) == want);
    }
}

TEST_CASE("charpoly: hand-checked cases and a non-square matrix") {
  Matrix<Rational> a(2, 2);
  a(0, 0) = 1;
  a(0, 1) = 2;
  a(1, 0) = 3;
  a(1, 1) = 4;  // x² − 5x − 2
  CHECK(charpoly(a) == RationalPoly{Rational(-2), Rational(-5), Rational(1)});
  CHECK(poly_to_string(charpoly(a)) == "x^2 - 5x - 2");
  // A zero subdiagonal needs the Hessenberg pivot search: [[0,0,1],[0,0,0],[1,0,0]].
  Matrix<Rational> b(3, 3, Rational(0));
  b(0, 2) = 1;
  b(2, 0) = 1;  // x³ − x
  CHECK(charpoly_plain(b) == RationalPoly{Rational(0), Rational(-1), Rational(0), Rational(1)});
  CHECK_THROWS_AS(charpoly(Matrix<Rational>(2, 3)), std::invalid_argument);
}

TEST_CASE("real_roots: x² − 2 brackets ±√2 in two intervals") {
  const RationalPoly p{Rational(-2), Rational(0), Rational(1)};
  const auto roots = real_roots(p);
  REQUIRE(roots.size() == 2);
  for (const RealRoot& r : roots) {
    CHECK(!r.exact());
    CHECK(r.multiplicity == 1);
    CHECK(r.hi - r.lo <= Rational(1, 64));
    CHECK((r.lo * r.lo < 2) == (r.lo > 0));  // lo² < 2 on the positive side, > 2 on the negative
    CHECK((r.hi * r.hi > 2) == (r.hi > 0));
  }
  CHECK(roots[0].hi < 0);
  CHECK(roots[1].lo > 0);
  CHECK(real_root_count(roots) == 2);
}

TEST_CASE("real_roots: (x − 1/2)²(x + 3) has −3 once and 1/2 twice, exactly") {
  const RationalPoly h{Rational(-1, 2), Rational(1)};
  const RationalPoly p = times(times(h, h), RationalPoly{Rational(3), Rational(1)});
  const auto roots = real_roots(p);
  REQUIRE(roots.size() == 2);
  CHECK(roots[0].exact());
  CHECK(roots[0].lo == -3);
  CHECK(roots[0].multiplicity == 1);
  CHECK(roots[1].exact());
  CHECK(roots[1].lo == Rational(1, 2));
  CHECK(roots[1].multiplicity == 2);
  CHECK(to_string(roots[1]) == "1/2 (×2)");
  // x² + 1: no real roots, one complex pair.
  CHECK(real_roots(RationalPoly{Rational(1), Rational(0), Rational(1)}).empty());
  // A rational root with a large denominator is still exact: (7x − 3)(x² − 5).
  const auto r2 = real_roots(times(RationalPoly{Rational(-3), Rational(7)},
                                   RationalPoly{Rational(-5), Rational(0), Rational(1)}));
  REQUIRE(r2.size() == 3);
  CHECK(r2[1].exact());
  CHECK(r2[1].lo == Rational(3, 7));
  CHECK_THROWS_AS(real_roots(RationalPoly{Rational(5)}), std::invalid_argument);
}

TEST_CASE("real_roots: random products of known factors — exact roots, multiplicities, signs") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    // p = Π (x − r_i)^{m_i} · q(x), q with no real roots (x² + c, c > 0) or an irrational pair
    // (x² − s, s not a square).
    RationalPoly p{Rational(1)};
    std::vector<std::pair<Rational, std::size_t>> want;
    const std::size_t k = 1 + rng() % 3;
    for (std::size_t i = 0; i < k; ++i) {
      const Rational r = test::small_rational(rng);
      if (std::any_of(want.begin(), want.end(), [&](const auto& w) { return w.first == r; }))
        continue;
      const std::size_t m = 1 + rng() % 3;
      for (std::size_t t = 0; t < m; ++t) p = times(p, RationalPoly{-r, Rational(1)});
      want.emplace_back(r, m);
    }
    const int kind = static_cast<int>(rng() % 3);
    std::size_t irrational = 0;
    if (kind == 1) p = times(p, RationalPoly{Rational(1 + rng() % 5), Rational(0), Rational(1)});
    if (kind == 2) {
      const long s = std::array<long, 4>{2, 3, 5, 7}[rng() % 4];
      p = times(p, RationalPoly{Rational(-s, 9), Rational(0), Rational(1)});
      irrational = 2;
    }
    const auto roots = real_roots(p);
    std::size_t exact = 0, inexact = 0;
    for (const RealRoot& r : roots) {
      if (r.exact()) {
        ++exact;
        CHECK(evaluate(p, r.lo) == 0);
        auto it =
            std::find_if(want.begin(), want.end(), [&](const auto& w) { return w.first == r.lo; });
        REQUIRE(it != want.end());
        CHECK(r.multiplicity == it->second);
      } else {
        ++inexact;
        CHECK(r.multiplicity == 1);
        // A simple root inside: p changes sign between the endpoints, which are not roots.
        CHECK(sign_at(p, r.lo) * sign_at(p, r.hi) == -1);
        CHECK(count_distinct_roots(p, r.lo, r.hi) == 1);
      }
    }
    CHECK(exact == want.size());
    CHECK(inexact == irrational);
    for (std::size_t i = 1; i < roots.size(); ++i) CHECK(roots[i - 1].hi < roots[i].lo);
  }
}

TEST_CASE("real_roots: random integer polynomials — isolation agrees with Sturm counts") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 80; ++trial) {
    const std::size_t deg = 1 + rng() % 6;
    RationalPoly p(deg + 1);
    for (auto& c : p) c = Rational(static_cast<long>(rng() % 21) - 10);
    if (p.back() == 0) p.back() = 1;
    const auto roots = real_roots(p);
    const Rational B = cauchy_bound(p);
    CHECK(roots.size() == count_distinct_roots(p, -B, B));
    for (const RealRoot& r : roots) {
      CHECK(r.lo > -B);
      CHECK(r.hi < B);
      if (r.exact()) {
        CHECK(evaluate(p, r.lo) == 0);
      } else {
        CHECK(evaluate(p, r.lo) != 0);
        CHECK(evaluate(p, r.hi) != 0);
        CHECK(count_distinct_roots(p, r.lo, r.hi) == 1);
      }
    }
    // Multiplicities add up with the complex pairs to the degree's parity.
    CHECK((deg - real_root_count(roots)) % 2 == 0);
  }
}

TEST_CASE("squarefree_decomposition: Yun on (x−1)(x+2)²(x²+1)³") {
  RationalPoly p{Rational(-1), Rational(1)};
  const RationalPoly b{Rational(2), Rational(1)}, c{Rational(1), Rational(0), Rational(1)};
  p = times(times(p, times(b, b)), times(c, times(c, c)));
  const auto f = squarefree_decomposition(p);
  REQUIRE(f.size() == 3);
  CHECK(f[0] == std::make_pair(RationalPoly{Rational(-1), Rational(1)}, std::size_t{1}));
  CHECK(f[1] == std::make_pair(b, std::size_t{2}));
  CHECK(f[2] == std::make_pair(c, std::size_t{3}));
}
