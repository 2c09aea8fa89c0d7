// The incremental echelon basis (algebra/linear_basis.hpp) against its plain twin, a fresh
// Gaussian elimination, over Q and F_p.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/linear_basis.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

template <class F, class Draw>
void check_against_plain(const F& f, Draw draw, std::mt19937_64& rng) {
  using E = typename F::Element;
  for (int round = 0; round < 20; ++round) {
    const std::size_t n = 1 + rng() % 7;
    EchelonBasis<F> basis(f, n), lean(f, n, false);  // lean: membership only
    std::vector<std::vector<E>> inserted;
    for (int step = 0; step < 12; ++step) {
      std::vector<E> v(n, f.zero());
      if (!inserted.empty() && rng() % 2) {  // a combination of what is in: must be found in span
        for (const auto& b : inserted) {
          const E c = draw();
          for (std::size_t j = 0; j < n; ++j) v[j] = f.add(v[j], f.mul(c, b[j]));
        }
      } else {
        for (auto& x : v) x = rng() % 3 ? draw() : f.zero();
      }
      const auto plain = solve_in_span_plain(f, inserted, v);
      const auto fast = basis.reduce(v);
      REQUIRE(plain.has_value() == fast.has_value());
      if (fast) {
        REQUIRE(*fast == *plain);  // independent vectors: the coefficients are unique
        std::vector<E> sum(n, f.zero());
        for (std::size_t j = 0; j < inserted.size(); ++j)
          for (std::size_t t = 0; t < n; ++t)
            sum[t] = f.add(sum[t], f.mul((*fast)[j], inserted[j][t]));
        REQUIRE(sum == v);
      }
      const auto ins = basis.insert(v);
      REQUIRE(lean.insert(v).has_value() == ins.has_value());
      REQUIRE(ins.has_value() == fast.has_value());
      if (!ins) inserted.push_back(v);
      REQUIRE(basis.size() == inserted.size());
      REQUIRE(basis.size() <= n);
    }
  }
}

}  // namespace

TEST_CASE("echelon basis over Q agrees with fresh Gaussian elimination") {
  std::mt19937_64 rng(13);
  check_against_plain(
      QField{}, [&] { return test::small_rational(rng); }, rng);
}

TEST_CASE("echelon basis over F_p agrees with fresh Gaussian elimination") {
  std::mt19937_64 rng(29);
  for (std::uint64_t p : {2ull, 5ull, 29ull, 2305843009213693951ull}) {
    FpField f{p};
    check_against_plain(
        f, [&] { return static_cast<std::uint64_t>(rng() % p); }, rng);
  }
}

TEST_CASE("echelon basis: hand-checked coefficients and bit growth") {
  EchelonBasis<QField> b(QField{}, 3);
  REQUIRE(!b.insert({Rational(1), Rational(2), Rational(0)}));
  REQUIRE(!b.insert({Rational(0), Rational(1), Rational(1, 3)}));
  // 2·b0 − 3·b1 = (2, 1, −1)
  const auto c = b.reduce({Rational(2), Rational(1), Rational(-1)});
  REQUIRE(c);
  REQUIRE((*c)[0] == 2);
  REQUIRE((*c)[1] == -3);
  REQUIRE(!b.reduce({Rational(0), Rational(0), Rational(1)}));
  REQUIRE(b.max_bits_inserted() == 2);  // 2 and 3 have 2 bits
  REQUIRE(b.max_bits_working() >= 2);
  FpField f{7};
  REQUIRE(f.from_rational(Rational(1, 3)) == 5);  // 3·5 = 15 ≡ 1
  REQUIRE_THROWS_AS(f.from_rational(Rational(1, 7)), std::domain_error);
}
