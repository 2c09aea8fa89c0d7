// Family builders: the matrices they derive, and the parameters they reject.
#include <catch2/catch.hpp>

#include "algebra/exact.hpp"
#include "rnn/families.hpp"

using namespace rnncc;

namespace {

Vector V(std::initializer_list<Rational> v) {
  return v;
}
Matrix<Rational> M(std::size_t r, std::size_t c, std::initializer_list<Rational> v) {
  Matrix<Rational> m(r, c);
  std::size_t i = 0;
  for (const Rational& x : v) m(i / c, i % c) = x, ++i;
  return m;
}
Matrix<Rational> Z(std::size_t r, std::size_t c) {
  return Matrix<Rational>(r, c, Rational(0));
}

LayerFrame frame(std::size_t d, std::size_t m, std::size_t features) {
  LayerFrame f;
  f.d = d;
  f.m = m;
  f.features = features;
  f.initial_state = Z(d, m);
  f.readout = Matrix<Rational>(1, d, Rational(1));
  return f;
}

template <class F>
void check_param_error(F&& build, std::size_t feature, const std::string& field,
                       const std::string& text) {
  try {
    build();
    FAIL("expected a ParamError");
  } catch (const ParamError& e) {
    CHECK(e.feature() == feature);
    CHECK(e.field() == field);
    CHECK_THAT(e.what(), Catch::Contains(text));
  }
}

}  // namespace

TEST_CASE("deltanet: A = I − βkkᵀ, B = βkvᵀ", "[rnn][families]") {
  LrnnLayer l = make_delta(Family::deltanet, frame(2, 1, 1),
                           {{{}, Rational(1, 2), V({1, 2}), V({3})}}, BetaRange::open_0_1);
  CHECK(l.A[0] == M(2, 2, {Rational(1, 2), -1, -1, -1}));
  CHECK(l.B[0] == M(2, 1, {Rational(3, 2), 3}));
  CHECK(std::get<DeltaParams>(l.record[0]).beta == Rational(1, 2));
  // β = 2 with a unit key is a reflection: A² = I
  LrnnLayer r = make_delta(Family::deltanet, frame(2, 1, 1), {{{}, 2, V({1, 0}), V({0})}},
                           BetaRange::half_open_0_2);
  RationalField Q;
  CHECK(mul(Q, r.A[0], r.A[0]) == identity(Q, 2));
  CHECK(r.A[0] == M(2, 2, {-1, 0, 0, 1}));
}

TEST_CASE("gated deltanet and KDA gates", "[rnn][families]") {
  LrnnLayer g = make_delta(Family::gated_deltanet, frame(2, 1, 1),
                           {{V({Rational(1, 2)}), 1, V({1, 0}), V({1})}}, BetaRange::any);
  CHECK(g.A[0] == M(2, 2, {0, 0, 0, Rational(1, 2)}));  // ½·(I − e₁e₁ᵀ)
  CHECK(g.B[0] == M(2, 1, {1, 0}));                     // B is not gated
  LrnnLayer kda =
      make_delta(Family::kda, frame(2, 1, 1),
                 {{V({Rational(1, 2), Rational(1, 3)}), 1, V({1, 1}), V({1})}}, BetaRange::any);
  // (I − kkᵀ)·diag(½, ⅓) with k = (1,1): [[0, −1],[−1, 0]]·diag = [[0, −⅓],[−½, 0]]
  CHECK(kda.A[0] == M(2, 2, {0, Rational(-1, 3), Rational(-1, 2), 0}));
}

TEST_CASE("pd, dplr, rwkv7 and diagonal formulas", "[rnn][families]") {
  LrnnLayer pd = make_pd(frame(3, 1, 1), {{{2, 0, 1}, V({2, 3, 5}), Z(3, 1)}}, true);
  CHECK(pd.A[0] == M(3, 3, {0, 3, 0, 0, 0, 5, 2, 0, 0}));  // P e_j = e_{image[j]}, times diag
  CHECK(std::get<PdParams>(pd.record[0]).permutation);
  LrnnLayer fn = make_pd(frame(2, 1, 1), {{{0, 0}, V({1, 1}), Z(2, 1)}}, false);
  CHECK_FALSE(std::get<PdParams>(fn.record[0]).permutation);
  LrnnLayer dplr = make_dplr(frame(2, 1, 1), {{V({1, 2}), V({1, 1}), V({0, 1}), Z(2, 1)}});
  CHECK(dplr.A[0] == M(2, 2, {1, -1, 0, 1}));  // diag(1,2) − (1,1)(0,1)ᵀ
  LrnnLayer rw = make_rwkv7(frame(2, 1, 1), {{V({1, 2}), V({1, 1}), V({0, 1}), Z(2, 1)}});
  CHECK(rw.A[0] == M(2, 2, {1, 1, 0, 3}));  // diag(1,2) + (1,1)(0,1)ᵀ
  LrnnLayer mamba = make_diagonal(Family::mamba2, frame(3, 1, 1), {{V({Rational(1, 2)}), Z(3, 1)}});
  RationalField Q;
  CHECK(mamba.A[0] == scale(Q, Rational(1, 2), identity(Q, 3)));
  LrnnLayer gla = make_diagonal(Family::gla, frame(2, 1, 1), {{V({1, Rational(1, 3)}), Z(2, 1)}});
  CHECK(gla.A[0] == M(2, 2, {1, 0, 0, Rational(1, 3)}));
}

TEST_CASE("builders reject parameters outside their family", "[rnn][families]") {
  check_param_error(
      [] {
        make_delta(Family::deltanet, frame(1, 1, 2),
                   {{{}, 1, V({1}), V({0})}, {{}, 2, V({1}), V({0})}}, BetaRange::open_0_2);
      },
      1, "beta", "outside the layer's beta_range (0,2)");
  check_param_error(
      [] {
        make_delta(Family::deltanet, frame(1, 1, 1), {{{}, 0, V({1}), V({0})}},
                   BetaRange::half_open_0_1);
      },
      0, "beta", "(0,1]");
  check_param_error(
      [] {
        make_delta(Family::gated_deltanet, frame(1, 1, 1),
                   {{V({Rational(3, 2)}), 1, V({1}), V({0})}}, BetaRange::any);
      },
      0, "alpha", "outside (0,1]");
  check_param_error(
      [] {
        make_delta(Family::deltanet, frame(1, 1, 1), {{V({1}), 1, V({1}), V({0})}}, BetaRange::any);
      },
      0, "alpha", "no gate");
  check_param_error(
      [] {
        make_delta(Family::kda, frame(2, 1, 1), {{V({1}), 1, V({1, 0}), V({0})}}, BetaRange::any);
      },
      0, "alpha", "2 entries");
  check_param_error(
      [] {
        make_pd(frame(3, 1, 1), {{{0, 0, 1}, V({1, 1, 1}), Z(3, 1)}}, true);
      },
      0, "P", "permutation");
  check_param_error(
      [] {
        make_pd(frame(2, 1, 1), {{{0, 2}, V({1, 1}), Z(2, 1)}}, false);
      },
      0, "P", "outside");
  check_param_error(
      [] {
        make_diagonal(Family::s4, frame(1, 1, 2), {{V({1}), Z(1, 1)}, {V({2}), Z(1, 1)}});
      },
      1, "decay", "time-invariant");
  check_param_error(
      [] {
        make_diagonal(Family::mamba2, frame(2, 1, 1), {{V({1, 1}), Z(2, 1)}});
      },
      0, "decay", "a vector of 1 entry, got 2");
  check_param_error(
      [] {
        make_general(frame(2, 1, 1), {{Z(2, 3), Z(2, 1)}});
      },
      0, "A", "expected 2×2 matrix, got 2×3");
  check_param_error(
      [] {
        make_general(frame(2, 2, 1), {{Z(2, 2), Z(2, 1)}});
      },
      0, "B", "expected 2×2 matrix, got 2×1");
  check_param_error(
      [] {
        make_dplr(frame(2, 1, 1), {{V({1, 1}), V({1}), V({1, 1}), Z(2, 1)}});
      },
      0, "a", "2 entries");
  check_param_error(
      [] {
        make_general(frame(2, 1, 2), {{Z(2, 2), Z(2, 1)}});
      },
      ParamError::layer_level, "symbols", "2 features");
  LayerFrame bad = frame(2, 1, 1);
  bad.initial_state = Z(3, 1);
  check_param_error(
      [&] {
        make_general(bad, {{Z(2, 2), Z(2, 1)}});
      },
      ParamError::layer_level, "initial_state", "2×1");
}
