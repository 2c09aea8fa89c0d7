// The position router of 2×2 rational reflections [MJLLS26 Thm 5, DeltaNet version] and the
// errata as results (verify KIND --as-printed): exact orders of hand-checked matrices, the
// theorem's order against brute-force powers on seeded random matrices, the period claim, the
// corrected router, every diagnostic, and each erratum's shortest counterexample.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "constructions/position_router.hpp"
#include "tests/support.hpp"
#include "verify/subjects.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

// A small rational (rng() % num − offset) / (rng() % den + 1), its two draws in a fixed order
// (the order of a call's arguments is unspecified: gcc and clang differ, and so would the
// random matrices and every count a test makes over them).
Rational small_rational(std::mt19937_64& rng, unsigned num, long offset, unsigned den) {
  const long n = static_cast<long>(rng() % num) - offset;
  const long d = static_cast<long>(rng() % den) + 1;
  return Rational(n, d);
}

Matrix2 m2(Rational a, Rational b, Rational c, Rational d) {
  Matrix2 m(2, 2, Rational(0));
  m(0, 0) = a;
  m(0, 1) = b;
  m(1, 0) = c;
  m(1, 1) = d;
  return m;
}

Matrix2 mul(const Matrix2& a, const Matrix2& b) {
  Matrix2 c(2, 2, Rational(0));
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j)
      for (std::size_t l = 0; l < 2; ++l) c(i, j) += a(i, l) * b(l, j);
  return c;
}

const Claim& period_claim(const Construction& c) {
  for (const Claim& cl : c.claims)
    if (cl.name.rfind("period", 0) == 0) return cl;
  FAIL("no period claim");
  return c.claims.front();
}

std::string input_error(const std::function<void()>& f) {
  return test::input_error_of(f).what;
}

}  // namespace

TEST_CASE("router: exact orders of hand-checked 2x2 matrices", "[constructions][router]") {
  CHECK(order_2x2(m2(1, 0, 0, 1)) == 1u);    // I
  CHECK(order_2x2(m2(-1, 0, 0, -1)) == 2u);  // −I
  CHECK(order_2x2(m2(0, -1, 1, 0)) == 4u);   // rotation by 90°
  CHECK(order_2x2(m2(1, 0, 0, -1)) == 2u);   // a reflection
  CHECK(order_2x2(m2(Rational(3, 5), Rational(4, 5), Rational(4, 5), Rational(-3, 5))) == 2u);
  CHECK(order_2x2(m2(0, -1, 1, -1)) == 3u);                                  // Φ₃: x² + x + 1
  CHECK(order_2x2(m2(1, -1, 1, 0)) == 6u);                                   // Φ₆: x² − x + 1
  CHECK_FALSE(order_2x2(m2(1, 1, 0, 1)).has_value());                        // a shear
  CHECK_FALSE(order_2x2(m2(Rational(3, 5), Rational(-4, 5), Rational(4, 5),  // Pythagorean
                           Rational(3, 5)))
                  .has_value());
  CHECK_FALSE(order_2x2(m2(2, 0, 0, 1)).has_value());
  CHECK_FALSE(order_2x2(m2(0, 0, 0, 0)).has_value());  // singular: no power is I
  CHECK(classify_2x2(m2(1, 0, 0, -1)) == "reflection");
  CHECK(classify_2x2(m2(0, -1, 1, 0)) == "rotation");
  CHECK(classify_2x2(m2(1, 1, 0, 1)) == "general");
}

TEST_CASE("router: the theorem's order equals brute-force powers up to 12",
          "[constructions][router]") {
  // Random rational matrices (rarely of finite order) and random conjugates P·A·P⁻¹ of the
  // matrices of order 1, 2, 3, 4, 6 (same order), so both outcomes are exercised.
  std::mt19937_64 rng(1404);
  auto small = [&]() { return small_rational(rng, 7, 3, 3); };
  const std::vector<Matrix2> finite = {m2(1, 0, 0, 1),  m2(-1, 0, 0, -1), m2(1, 0, 0, -1),
                                       m2(0, -1, 1, 0), m2(0, -1, 1, -1), m2(1, -1, 1, 0)};
  std::size_t finite_seen = 0, infinite_seen = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Matrix2 a;
    if (trial % 2 == 0) {
      a = m2(small(), small(), small(), small());
    } else {
      Matrix2 p = m2(small(), small(), small(), small());
      const Rational det = p(0, 0) * p(1, 1) - p(0, 1) * p(1, 0);
      if (det == 0) continue;
      const Matrix2 inv = m2(p(1, 1) / det, -p(0, 1) / det, -p(1, 0) / det, p(0, 0) / det);
      a = mul(mul(p, finite[rng() % finite.size()]), inv);
    }
    const auto theorem = order_2x2(a);
    const auto brute = order_by_powers(a, 12);
    INFO(a(0, 0) << " " << a(0, 1) << " " << a(1, 0) << " " << a(1, 1));
    CHECK(theorem == brute);
    (theorem ? finite_seen : infinite_seen)++;
  }
  CHECK(finite_seen > 100);
  CHECK(infinite_seen > 100);
}

TEST_CASE("router: period 1404 fails for the default reflections and any 2x2 blocks",
          "[constructions][router]") {
  RouterOptions o;
  Construction c = position_router(o);
  const Claim& cl = period_claim(c);
  CHECK_FALSE(cl.ok);
  CHECK(cl.claimed == "= 1404");
  CHECK(cl.measured ==
        "none (orbit periods 4, none, none); first break: position 1404 differs from position 0");
  // Orders 4 and 3: period 12 < 1404, so position 12 repeats position 0.
  o.spec.blocks = {{m2(1, 0, 0, -1), m2(0, 1, 1, 0)}, {m2(0, -1, 1, -1)}};
  c = position_router(o);
  CHECK(period_claim(c).measured ==
        "12 (orbit periods 4, 3); first break: position 12 repeats position 0 (positions 0 and "
        "12 are not told apart)");
  CHECK_FALSE(period_claim(c).ok);
  // The same router claimed with its true period holds; a smaller claim breaks at P.
  o.period = 12;
  CHECK(period_claim(position_router(o)).ok);
  o.period = 5;
  CHECK(period_claim(position_router(o)).measured ==
        "12 (orbit periods 4, 3); first break: position 5 differs from position 0");
  // The model implements the products: verify proves it for every length, the claim fails.
  VerifyOptions vo;
  vo.seed = 1;
  vo.timing = false;
  o.period = 1404;
  const VerifyReport r = verify(position_router(o), vo);
  CHECK_FALSE(r.holds);
  CHECK_FALSE(r.counterexample.has_value());
  REQUIRE(r.proof);
  CHECK(r.proof->proved);
}

TEST_CASE("router: the corrected router has period exactly P", "[constructions][router]") {
  for (std::uint64_t P : {1u, 2u, 12u, 30u, 1404u}) {
    RouterOptions o;
    o.permutation = true;
    o.period = P;
    const Construction c = position_router(o);
    INFO(P);
    CHECK(period_claim(c).ok);
    CHECK(period_claim(c).measured == std::to_string(P) + [&] {
      std::string s;
      for (std::uint64_t q : P == 1404 ? std::vector<std::uint64_t>{4, 27, 13}
                             : P == 30 ? std::vector<std::uint64_t>{2, 3, 5}
                             : P == 12 ? std::vector<std::uint64_t>{4, 3}
                             : P == 2  ? std::vector<std::uint64_t>{2}
                                       : std::vector<std::uint64_t>{1})
        s += (s.empty() ? "" : ", ") + std::to_string(q);
      return " (orbit periods " + s + ")";
    }());
  }
  // permutation_order against powers: a 3-cycle times a transposition on disjoint points.
  Matrix<Rational> g(5, 5, Rational(0));
  const std::size_t image[5] = {1, 2, 0, 4, 3};
  for (std::size_t j = 0; j < 5; ++j) g(image[j], j) = 1;
  CHECK(permutation_order(g) == 6u);
}

namespace {

Matrix<Rational> column(std::initializer_list<Rational> v) {
  Matrix<Rational> s(v.size(), 1, Rational(0));
  std::size_t i = 0;
  for (const Rational& x : v) s(i++, 0) = x;
  return s;
}

const Claim& order_claim(const Construction& c) {
  for (const Claim& cl : c.claims)
    if (cl.name.rfind("order", 0) == 0) return cl;
  FAIL("no order claim");
  return c.claims.front();
}

// A random invertible n×n matrix with small rational entries and its inverse (Gauss–Jordan).
std::pair<Matrix<Rational>, Matrix<Rational>> random_invertible(std::mt19937_64& rng,
                                                                std::size_t n) {
  for (;;) {
    Matrix<Rational> p(n, n, Rational(0)), a(n, 2 * n, Rational(0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        p(i, j) = small_rational(rng, 5, 2, 2);
        a(i, j) = p(i, j);
      }
    for (std::size_t i = 0; i < n; ++i) a(i, n + i) = 1;
    bool singular = false;
    for (std::size_t c = 0; c < n && !singular; ++c) {
      std::size_t r = c;
      while (r < n && a(r, c) == 0) ++r;
      if (r == n) {
        singular = true;
        break;
      }
      for (std::size_t j = 0; j < 2 * n; ++j) std::swap(a(r, j), a(c, j));
      const Rational piv = a(c, c);
      for (std::size_t j = 0; j < 2 * n; ++j) a(c, j) /= piv;
      for (std::size_t i = 0; i < n; ++i)
        if (i != c && a(i, c) != 0) {
          const Rational f = a(i, c);
          for (std::size_t j = 0; j < 2 * n; ++j) a(i, j) -= f * a(c, j);
        }
    }
    if (singular) continue;
    Matrix<Rational> inv(n, n, Rational(0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) inv(i, j) = a(i, n + j);
    return {p, inv};
  }
}

Matrix<Rational> matmul(const Matrix<Rational>& a, const Matrix<Rational>& b) {
  Matrix<Rational> c(a.rows(), b.cols(), Rational(0));
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t l = 0; l < a.cols(); ++l)
      for (std::size_t j = 0; j < b.cols(); ++j) c(i, j) += a(i, l) * b(l, j);
  return c;
}

// The companion matrix of a monic polynomial (coefficients from x⁰ up).
Matrix<Rational> companion(const Polynomial& p) {
  const std::size_t k = p.size() - 1;
  Matrix<Rational> c(k, k, Rational(0));
  for (std::size_t i = 1; i < k; ++i) c(i, i - 1) = 1;
  for (std::size_t i = 0; i < k; ++i) c(i, k - 1) = -p[i];
  return c;
}

}  // namespace

TEST_CASE("router: hand-checked local minimal polynomials and cyclotomic polynomials",
          "[constructions][router][orbit]") {
  CHECK(polynomial_text(cyclotomic_polynomial(1)) == "x - 1");
  CHECK(polynomial_text(cyclotomic_polynomial(2)) == "x + 1");
  CHECK(polynomial_text(cyclotomic_polynomial(6)) == "x^2 - x + 1");
  CHECK(polynomial_text(cyclotomic_polynomial(12)) == "x^4 - x^2 + 1");
  CHECK(polynomial_text(cyclotomic_polynomial(105)).find("- 2*x^41") != std::string::npos);
  const Matrix2 flip = m2(1, 0, 0, -1);
  CHECK(polynomial_text(local_minimal_polynomial(flip, column({1, 0}))) == "x - 1");
  CHECK(polynomial_text(local_minimal_polynomial(flip, column({0, 1}))) == "x + 1");
  CHECK(polynomial_text(local_minimal_polynomial(flip, column({1, 1}))) == "x^2 - 1");
  CHECK(polynomial_text(local_minimal_polynomial(flip, column({0, 0}))) == "1");
  CHECK(polynomial_text(local_minimal_polynomial(m2(1, 1, 0, 1), column({0, 1}))) ==
        "x^2 - 2*x + 1");
  // diag(1, −1) fixes e₁: period 1 although G has order 2; e₂ and e₁ + e₂ have period 2.
  CHECK(orbit_period(flip, column({1, 0})).period == 1u);
  CHECK(orbit_period(flip, column({0, 1})).period == 2u);
  CHECK(orbit_period(flip, column({1, 1})).period == 2u);
  CHECK(orbit_period(flip, column({1, 1})).reason == "x^2 - 1 = Φ1·Φ2");
  CHECK(orbit_period(flip, column({0, 0})).period == 1u);
  // A shear fixes e₁ (period 1) and moves e₂ for ever: (x − 1)² is no product of distinct Φ_d.
  CHECK(orbit_period(m2(1, 1, 0, 1), column({1, 0})).period == 1u);
  const OrbitPeriod shear = orbit_period(m2(1, 1, 0, 1), column({0, 1}));
  CHECK_FALSE(shear.period);
  CHECK(shear.reason == "x^2 - 2*x + 1 has the repeated factor Φ1² (x^P - 1 is squarefree)");
  const OrbitPeriod pyth = orbit_period(
      m2(Rational(3, 5), Rational(-4, 5), Rational(4, 5), Rational(3, 5)), column({1, 0}));
  CHECK_FALSE(pyth.period);
  CHECK(pyth.reason.find("x^2 - 6/5*x + 1 has the factor x^2 - 6/5*x + 1, no product") == 0);
  // diag(2, 1): e₂ is fixed, e₁ grows.
  CHECK(orbit_period(m2(2, 0, 0, 1), column({0, 1})).period == 1u);
  CHECK_FALSE(orbit_period(m2(2, 0, 0, 1), column({1, 1})).period);
  // Rotation by 90° conjugated: every nonzero start has period 4.
  CHECK(orbit_period(m2(0, -1, 1, 0), column({Rational(1, 3), -2})).period == 4u);
  // With the order of G given (the permutation route): a 6-cycle on a start fixed by its cube.
  Matrix<Rational> cyc(6, 6, Rational(0));
  for (std::size_t j = 0; j < 6; ++j) cyc((j + 1) % 6, j) = 1;
  CHECK(orbit_period(cyc, column({1, 0, 0, 1, 0, 0}), 6).period == 3u);
  CHECK(orbit_period(cyc, column({1, 0, 1, 0, 1, 0}), 6).period == 2u);
  CHECK(orbit_period(cyc, column({1, 0, 1, 0, 1, 0})).period == 2u);  // by factoring
  CHECK(orbit_period(cyc, column({1, 1, 1, 1, 1, 1}), 6).period == 1u);
}

TEST_CASE("router: the period is the orbit of S₀, not the order of G",
          "[constructions][router][orbit]") {
  RouterOptions o;
  o.spec = parse_router_spec("[[[1, 0], [0, -1]]]", "r.json");  // diag(1, −1), S₀ = e₁
  o.period = 1;
  Construction c = position_router(o);
  CHECK(period_claim(c).ok);
  CHECK(period_claim(c).measured == "1 (orbit periods 1)");
  CHECK(order_claim(c).ok);
  CHECK(order_claim(c).measured == "2 (block orders 2)");
  o.period = 2;
  c = position_router(o);
  CHECK_FALSE(period_claim(c).ok);
  CHECK(period_claim(c).measured ==
        "1 (orbit periods 1); first break: position 1 repeats position 0 (positions 0 and 1 are "
        "not told apart)");
  // S₀ = e₁ + e₂: the states alternate, period 2.
  o.spec = parse_router_spec("{\"reflections\": [[[1, 0], [0, -1]]], \"start\": [1, 1]}", "r");
  c = position_router(o);
  CHECK(period_claim(c).ok);
  CHECK(period_claim(c).measured == "2 (orbit periods 2)");
  o.period = 1;
  CHECK(period_claim(position_router(o)).measured ==
        "2 (orbit periods 2); first break: position 1 differs from position 0");
  // verify proves the model (with its start state) for every length; the claims decide.
  VerifyOptions vo;
  vo.seed = 1;
  vo.timing = false;
  o.period = 2;
  const VerifyReport r = verify(position_router(o), vo);
  CHECK(r.holds);
  REQUIRE(r.proof);
  CHECK(r.proof->proved);
  // Orders 4 and 3, the second block started at 0: period 4 while G has order 12.
  o.spec = parse_router_spec(
      "{\"blocks\": [[[[0, -1], [1, 0]]], [[[0, -1], [1, -1]]]], \"start\": [1, 0, 0, 0]}", "r");
  o.period = 4;
  c = position_router(o);
  CHECK(period_claim(c).ok);
  CHECK(period_claim(c).measured == "4 (orbit periods 4, 1)");
  CHECK(order_claim(c).measured == "12 (block orders 4, 3)");
}

TEST_CASE("router: orbit periods against iterating G on S₀ (seeded random)",
          "[constructions][router][orbit]") {
  std::mt19937_64 rng(24);
  // Finite-order matrices: P·(block-diagonal companions of cyclotomic polynomials)·P⁻¹, some
  // start coordinates zeroed (S₀ inside an invariant subspace: a proper divisor of the order);
  // and plain random matrices (mostly no period).
  const std::vector<std::uint64_t> ds = {1, 2, 3, 4, 5, 6, 8, 10, 12};
  std::size_t finite = 0, none = 0, proper = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Matrix<Rational> g;
    std::size_t n = 0;
    if (trial % 3 != 2) {
      std::vector<Polynomial> parts;
      while (n < 2 || (n < 5 && rng() % 2)) {
        const Polynomial phi = cyclotomic_polynomial(ds[rng() % ds.size()]);
        if (n + phi.size() - 1 > 6) break;
        parts.push_back(phi);
        n += phi.size() - 1;
      }
      Matrix<Rational> c(n, n, Rational(0));
      std::size_t at = 0;
      for (const Polynomial& phi : parts) {
        const Matrix<Rational> k = companion(phi);
        for (std::size_t i = 0; i < k.rows(); ++i)
          for (std::size_t j = 0; j < k.rows(); ++j) c(at + i, at + j) = k(i, j);
        at += k.rows();
      }
      const auto [p, inv] = random_invertible(rng, n);
      g = matmul(matmul(p, c), inv);
      Matrix<Rational> z(n, 1, Rational(0));
      for (std::size_t i = 0; i < n; ++i)
        if (rng() % 3 != 0) z(i, 0) = Rational(static_cast<long>(rng() % 5) - 2);
      const Matrix<Rational> s = matmul(p, z);
      const OrbitPeriod fast = orbit_period(g, s);
      const auto twin = orbit_period_by_iteration(g, s, 61);
      INFO("trial " << trial << ": " << polynomial_text(fast.polynomial));
      CHECK(fast.period == twin);
      REQUIRE(twin);
      ++finite;
      // The order of G (the lcm of the parts' d) is a multiple; count proper divisors.
      std::uint64_t lcm = 1;
      for (const Polynomial& phi : parts)
        for (std::uint64_t d : ds)
          if (cyclotomic_polynomial(d) == phi) lcm = std::lcm(lcm, d);
      CHECK(lcm % *twin == 0);
      if (*twin < lcm) ++proper;
    } else {
      n = 1 + rng() % 4;
      g = Matrix<Rational>(n, n, Rational(0));
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) g(i, j) = small_rational(rng, 5, 2, 2);
      Matrix<Rational> s(n, 1, Rational(0));
      for (std::size_t i = 0; i < n; ++i) s(i, 0) = Rational(static_cast<long>(rng() % 3) - 1);
      const OrbitPeriod fast = orbit_period(g, s);
      INFO("trial " << trial << ": " << polynomial_text(fast.polynomial));
      CHECK(fast.period == orbit_period_by_iteration(g, s, 61));
      (fast.period ? finite : none)++;
    }
  }
  // Deterministic on every compiler (the draws are sequenced): of the 200 built of finite order,
  // 30 have a period that properly divides the order; the bounds ask only that each kind of case
  // is well exercised.
  CHECK(finite > 150);
  CHECK(none > 30);
  CHECK(proper >= 20);
}

TEST_CASE("router: random block routers, the period a proper divisor of the order",
          "[constructions][router][orbit]") {
  // Blocks of finite order conjugated by random matrices, started on an eigenvector, at 0 or
  // anywhere; the claim's period against iterating the whole one-position map on S₀.
  std::mt19937_64 rng(1404);
  const std::vector<Matrix2> finite = {m2(1, 0, 0, 1),  m2(-1, 0, 0, -1), m2(1, 0, 0, -1),
                                       m2(0, -1, 1, 0), m2(0, -1, 1, -1), m2(1, -1, 1, 0)};
  std::size_t proper = 0;
  for (int trial = 0; trial < 60; ++trial) {
    RouterOptions o;
    o.spec.blocks.clear();
    const std::size_t B = 1 + rng() % 3;
    Matrix<Rational> G(2 * B, 2 * B, Rational(0)), S(2 * B, 1, Rational(0));
    std::string blocks, start;
    for (std::size_t b = 0; b < B; ++b) {
      const auto [p, inv] = random_invertible(rng, 2);
      const Matrix2 a = matmul(matmul(p, finite[rng() % finite.size()]), inv);
      o.spec.blocks.push_back({a});
      // P·e₁ is an eigenvector of P·diag(1, −1)·P⁻¹ (period 1); 0; or a random start.
      const int kind = static_cast<int>(rng() % 3);
      const Matrix<Rational> s = kind == 0   ? matmul(p, column({1, 0}))
                                 : kind == 1 ? column({0, 0})
                                             : column({Rational(static_cast<long>(rng() % 5) - 2),
                                                       Rational(static_cast<long>(rng() % 3) + 1)});
      for (std::size_t i = 0; i < 2; ++i) {
        o.spec.start.push_back(s(i, 0));
        S(2 * b + i, 0) = s(i, 0);
        for (std::size_t j = 0; j < 2; ++j) G(2 * b + i, 2 * b + j) = a(i, j);
      }
    }
    const auto twin = orbit_period_by_iteration(G, S, 24);
    REQUIRE(twin);
    o.period = *twin;
    const Construction c = position_router(o);
    INFO("trial " << trial << ": " << period_claim(c).measured << " / " << order_claim(c).measured);
    CHECK(period_claim(c).ok);
    CHECK(order_claim(c).ok);
    const std::string order = order_claim(c).measured;
    if (std::stoull(order) != *twin) ++proper;
  }
  CHECK(proper > 10);
}

TEST_CASE("router: every diagnostic", "[constructions][router]") {
  CHECK(input_error([] { parse_router_spec("[[[1, 2, 3], [0, 1]]]", "r.json"); }) ==
        "r.json: /0/0: expected a row of 2 entries (the matrix must be 2×2), got an array of 3");
  CHECK(input_error([] { parse_router_spec("[[[1, 0]]]", "r.json"); }) ==
        "r.json: /0: expected a 2×2 matrix [[a, b], [c, d]], got an array of 1");
  CHECK(input_error([] {
          parse_router_spec("{\"blocks\": [[[[\"x\", 0], [0, 1]]]]}", "r.json");
        }).rfind("r.json: /blocks/0/0/0/0: expected a rational", 0) == 0);
  CHECK(input_error([] {
          parse_router_spec("[[[0.5, 0], [0, 1]]]", "r.json");
        }).rfind("r.json: /0/0/0: expected an exact rational", 0) == 0);
  CHECK(input_error([] { parse_router_spec("[]", "r.json"); }) ==
        "r.json: /: expected a non-empty array of 2×2 matrices, got an empty array");
  CHECK(input_error([] {
          parse_router_spec("{\"blocks\": [], \"reflections\": []}", "r.json");
        }).rfind("r.json: /: expected exactly one of", 0) == 0);
  CHECK(input_error([] {
          parse_router_spec("{\"matrices\": []}", "r.json");
        }).rfind("r.json: /matrices: unknown member", 0) == 0);
  CHECK(input_error([] {
          parse_router_spec("{\"reflections\": [[[1, 0], [0, 1]]], \"start\": [1]}", "r.json");
        }) ==
        "r.json: /start: expected the start state S₀: an array of 2 rationals (2 per block), got "
        "an array of 1");
  CHECK(input_error([] {
          parse_router_spec("{\"reflections\": [[[1, 0], [0, 1]]], \"start\": [1, \"y\"]}",
                            "r.json");
        }).rfind("r.json: /start/1: expected a rational", 0) == 0);
  CHECK(input_error([] {
          parse_router_spec("[[[1, 0],\n [0, 1]]", "r.json");
        }).rfind("r.json:2:", 0) == 0);
  CHECK(input_error([] {
          RouterOptions o;
          o.period = 0;
          position_router(o);
        }) == "--period: expected a period P ≥ 1, got 0");
  CHECK(input_error([] {
          RouterOptions o;
          o.permutation = true;
          o.period = 1000003;  // a prime: 1000003 coordinates
          position_router(o);
        }).rfind("--period: the corrected router of period 1000003 needs 1000003", 0) == 0);
  CHECK(input_error([] {
          verify_as_printed("parity", {}, verify_registry(), {}, [](const Construction&) {});
        }) ==
        "--as-printed: parity has no erratum (kinds with one: matmul3, graph-walk, dgc and "
        "router)");
}

TEST_CASE("errata: --as-printed finds each printed version's shortest counterexample",
          "[constructions][router][errata]") {
  VerifyOptions o;
  o.seed = 1;
  o.timing = false;
  o.three_way = false;  // the decision and the exhaustive search find the counterexamples
  o.random_after_proof = 0;
  const auto none = [](const Construction&) {};
  {
    const AsPrintedReport r = verify_as_printed("matmul3", {}, verify_registry(), o, none);
    CHECK(r.printed_command == "verify matmul3 --no-bos");
    CHECK(r.corrected_command == "verify matmul3");
    REQUIRE(r.printed.counterexample);
    CHECK(r.printed.counterexample->input_text == "M0 M2 M0");
    CHECK(r.printed.counterexample->minimal);
    CHECK(as_printed_summary(r.printed) ==
          "matmul3-no-bos: refuted — shortest counterexample M0 M2 M0: expected 2, got 1");
    CHECK(r.corrected.holds);
    CHECK(r.reproduced);
  }
  {
    // Already given --no-bos: the corrected run drops it.
    ConstructionArgs args;
    args.set("--no-bos");
    const AsPrintedReport r = verify_as_printed("matmul3", args, verify_registry(), o, none);
    CHECK(r.corrected_command == "verify matmul3");
    CHECK(r.reproduced);
  }
  for (const char* kind : {"graph-walk", "dgc"}) {
    const AsPrintedReport r = verify_as_printed(kind, {}, verify_registry(), o, none);
    REQUIRE(r.printed.counterexample);
    // s = 1, t = 2, edges 1 → 2 → 3: 2 is reachable, the final counter is 3.
    CHECK(r.printed.counterexample->input_text == "1223");
    CHECK(r.printed.counterexample->expected == "1");
    CHECK(r.printed.counterexample->got == "0");
    CHECK(r.corrected_command == std::string("verify ") + kind + " --variant ever");
    CHECK(r.reproduced);
  }
  {
    ConstructionArgs args;
    args.set("--variant", "final");
    const AsPrintedReport r = verify_as_printed("graph-walk", args, verify_registry(), o, none);
    CHECK(r.corrected_command == "verify graph-walk --variant final");
    CHECK(r.printed_command == "verify graph-walk --variant final-no-promise");
    CHECK(r.reproduced);
  }
  {
    const AsPrintedReport r = verify_as_printed("router", {}, verify_registry(), o, none);
    CHECK_FALSE(r.printed.holds);
    CHECK(as_printed_summary(r.printed).find("measured none (orbit periods 4, none, none)") !=
          std::string::npos);
    CHECK(r.corrected_command == "verify router --permutation");
    CHECK(r.corrected.holds);
    CHECK(r.reproduced);
  }
  {
    // A router whose claim is right: the erratum is not reproduced, and the report says so.
    ConstructionArgs args;
    args.set("--reflections", "[[[0, -1], [1, 0]]]").set("--period", "4");
    const AsPrintedReport r = verify_as_printed("router", args, verify_registry(), o, none);
    CHECK(r.printed.holds);
    CHECK_FALSE(r.reproduced);
    CHECK(format_text(r).find("erratum NOT reproduced: the printed version is proved") !=
          std::string::npos);
  }
}
