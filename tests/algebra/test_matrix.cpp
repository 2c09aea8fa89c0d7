#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "algebra/matrix.hpp"
#include "algebra/modp.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {
Matrix<Rational> random_matrix(std::mt19937_64& rng, std::size_t r, std::size_t c) {
  Matrix<Rational> m(r, c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) m(i, j) = test::small_rational(rng);
  return m;
}
}  // namespace

TEST_CASE("matrix product by hand", "[algebra][matrix]") {
  RationalField Q;
  Matrix<Rational> a(2, 3), b(3, 1), c(2, 1);
  const int av[] = {1, 2, 3, 4, 5, 6}, bv[] = {1, 0, -1};
  for (int i = 0; i < 6; ++i) a(i / 3, i % 3) = av[i];
  for (int i = 0; i < 3; ++i) b(i, 0) = bv[i];
  c(0, 0) = Rational(1, 2);
  c(1, 0) = 0;
  Matrix<Rational> y = affine(Q, a, b, c);
  CHECK(y(0, 0) == Rational(-3, 2));  // 1 − 3 + 1/2
  CHECK(y(1, 0) == -2);               // 4 − 6
  CHECK(shape_string(transpose(a)) == "3×2");
  CHECK(transpose(a)(2, 1) == 6);
}

TEST_CASE("matrix monoid: associativity and identity over Q and F_p", "[algebra][matrix]") {
  std::mt19937_64 rng(5);
  RationalField Q;
  ModP F(1000003);
  for (int i = 0; i < 50; ++i) {
    auto a = random_matrix(rng, 3, 4), b = random_matrix(rng, 4, 2), c = random_matrix(rng, 2, 5);
    REQUIRE(mul(Q, mul(Q, a, b), c) == mul(Q, a, mul(Q, b, c)));
    REQUIRE(mul(Q, identity(Q, 3), a) == a);
    // reduction mod p commutes with the product (homomorphism)
    REQUIRE(
        equal(F, from_rational(F, mul(Q, a, b)), mul(F, from_rational(F, a), from_rational(F, b))));
  }
}

TEST_CASE("affine map composition is the scan's monoid", "[algebra][matrix]") {
  // (A2,B2)∘(A1,B1) = (A2A1, A2B1 + B2): applying the composite equals applying both.
  std::mt19937_64 rng(6);
  RationalField Q;
  for (int i = 0; i < 50; ++i) {
    auto a1 = random_matrix(rng, 3, 3), a2 = random_matrix(rng, 3, 3);
    auto b1 = random_matrix(rng, 3, 2), b2 = random_matrix(rng, 3, 2), s = random_matrix(rng, 3, 2);
    auto step = affine(Q, a2, affine(Q, a1, s, b1), b2);
    auto composite = affine(Q, mul(Q, a2, a1), s, affine(Q, a2, b1, b2));
    REQUIRE(step == composite);
  }
}
