// WFA → LRNN: the exact factorizations (transvections + diagonal, generalized Householders) on
// seeded random, singular, zero, permutation and pivot-needing matrices; the produced general,
// DPLR and DeltaNet models against the WFA evaluator on all strings up to length 5; the claims,
// including a deliberately wrong factor that the product check must catch.
#include <catch2/catch.hpp>

#include "tests/constructions/claims.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

using test::all_strings;

// A small rational that is 0 with probability about `zero_percent`/100.
Rational sparse_rational(std::mt19937_64& rng, unsigned zero_percent) {
  if (rng() % 100 < zero_percent) return 0;
  Rational q = test::small_rational(rng);
  return q == 0 ? Rational(1) : q;
}

Matrix<Rational> random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols,
                               unsigned zero_percent = 30) {
  Matrix<Rational> m(rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) m(i, j) = sparse_rational(rng, zero_percent);
  return m;
}

Matrix<Rational> permutation_matrix(std::mt19937_64& rng, std::size_t d,
                                    bool random_weights = false) {
  std::vector<std::size_t> p(d);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  Matrix<Rational> m(d, d, Rational(0));
  for (std::size_t j = 0; j < d; ++j) m(p[j], j) = random_weights ? sparse_rational(rng, 0) : 1;
  return m;
}

// Kind k of test matrix: random, zero, permutation, monomial, low rank, zero leading entries,
// identity, one nonzero entry, strictly upper triangular (nilpotent).
Matrix<Rational> test_matrix(std::mt19937_64& rng, std::size_t d, unsigned kind) {
  switch (kind % 9) {
    case 0:
      return random_matrix(rng, d, d);
    case 1:
      return Matrix<Rational>(d, d, Rational(0));
    case 2:
      return permutation_matrix(rng, d);
    case 3:
      return permutation_matrix(rng, d, true);
    case 4: {  // rank r < d (rank 0 when d = 1)
      const std::size_t r = d == 1 ? 0 : 1 + rng() % (d - 1);
      if (r == 0) return Matrix<Rational>(d, d, Rational(0));
      return mul(Q, random_matrix(rng, d, r, 10), random_matrix(rng, r, d, 10));
    }
    case 5: {  // needs pivoting: a zero leading column, or zero (k,k) entries
      Matrix<Rational> m = random_matrix(rng, d, d, 10);
      for (std::size_t i = 0; i < d; ++i) m(i, i) = 0;
      if (d > 1 && rng() % 2)
        for (std::size_t i = 0; i < d; ++i) m(i, 0) = 0;
      return m;
    }
    case 6:
      return identity(Q, d);
    case 7: {
      Matrix<Rational> m(d, d, Rational(0));
      m(rng() % d, rng() % d) = sparse_rational(rng, 0);
      return m;
    }
    default: {
      Matrix<Rational> m(d, d, Rational(0));
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t j = i + 1; j < d; ++j) m(i, j) = sparse_rational(rng, 20);
      return m;
    }
  }
}

Matrix<Rational> transvection_matrix(std::size_t d, std::size_t i, std::size_t j,
                                     const Rational& c) {
  Matrix<Rational> m = identity(Q, d);
  m(i, j) += c;
  return m;
}

Wfa random_wfa(std::mt19937_64& rng, std::size_t d, std::size_t symbols) {
  Wfa a;
  std::vector<std::string> names{"a", "b", "c", "d"};
  names.resize(symbols);
  a.alphabet = Alphabet(names, "test");
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back("q" + std::to_string(i));
    a.initial.push_back(sparse_rational(rng, 40));
    a.final.push_back(sparse_rational(rng, 40));
  }
  for (std::size_t s = 0; s < symbols; ++s)
    a.transition.push_back(test_matrix(rng, d, s == 0 ? 0 : static_cast<unsigned>(rng() % 9)));
  return a;
}

Rational model_value(const Construction& c, const std::vector<std::size_t>& w) {
  const std::vector<std::size_t> x = c.encode(w);
  return evaluate(c.model, Q, x).outputs().back()(c.out_row, c.out_col);
}

using test::check_all_claims;
using test::claim;

}  // namespace

TEST_CASE("factorization: transvections and one diagonal, exactly", "[constructions][wfa]") {
  std::mt19937_64 rng(20260301);
  std::size_t tested = 0;
  for (unsigned i = 0; i < 324; ++i) {
    const std::size_t d = 1 + i % 4;
    const Matrix<Rational> m = test_matrix(rng, d, i / 4);
    INFO("d = " << d << ", kind " << (i / 4) % 9 << ", case " << i);
    const std::vector<ElementaryFactor> fs = factor_elementary(m);
    std::vector<Matrix<Rational>> mats;
    std::size_t diagonals = 0, transvections = 0;
    for (const ElementaryFactor& f : fs) {
      if (f.kind == ElementaryFactor::Kind::diagonal) {
        ++diagonals;
        CHECK(f.diag.size() == d);
      } else {
        ++transvections;
        CHECK(f.i != f.j);
        CHECK(f.i < d);
        CHECK(f.j < d);
        CHECK(f.c != 0);
      }
      mats.push_back(f.matrix(d));
    }
    CHECK(product_in_application_order(mats, d) == m);
    CHECK(diagonals <= 1);
    CHECK(transvections <= (d - 1) * (d + 2));
    CHECK(fs.size() <= dplr_steps_bound(d));

    const std::vector<HouseholderFactor> hs = factor_householder(m);
    std::vector<Matrix<Rational>> hmats;
    for (const HouseholderFactor& h : hs) {
      CHECK(h.k.size() == d);
      hmats.push_back(h.matrix());
    }
    CHECK(product_in_application_order(hmats, d) == m);
    CHECK(hs.size() <= deltanet_steps_bound(d));
    std::size_t scalings = 0;  // diagonal entries ≠ 1, one Householder each
    for (const ElementaryFactor& f : fs)
      if (f.kind == ElementaryFactor::Kind::diagonal)
        for (const Rational& x : f.diag) scalings += x != 1;
    CHECK(hs.size() == 3 * transvections + scalings);
    ++tested;
  }
  CHECK(tested >= 200);
  CHECK(factor_elementary(identity(Q, 3)).empty());
  CHECK_THROWS_AS(factor_elementary(Matrix<Rational>(2, 3, Rational(0))), std::invalid_argument);
}

TEST_CASE("factorization: larger random and singular matrices", "[constructions][wfa]") {
  std::mt19937_64 rng(7);
  for (std::size_t d = 5; d <= 7; ++d)
    for (unsigned kind : {0u, 4u, 5u}) {
      const Matrix<Rational> m = test_matrix(rng, d, kind);
      std::vector<Matrix<Rational>> mats, hmats;
      const auto fs = factor_elementary(m);
      for (const auto& f : fs) mats.push_back(f.matrix(d));
      for (const auto& h : factor_householder(m)) hmats.push_back(h.matrix());
      CHECK(product_in_application_order(mats, d) == m);
      CHECK(product_in_application_order(hmats, d) == m);
      CHECK(fs.size() <= dplr_steps_bound(d));
      CHECK(hmats.size() <= deltanet_steps_bound(d));
    }
}

TEST_CASE("householder: a transvection is three generalized Householders", "[constructions][wfa]") {
  const std::size_t d = 3;
  for (const Rational& c : {Rational(1), Rational(-1), Rational(2), Rational(1, 2), Rational(-7, 3),
                            Rational(5), Rational(1, 1000)})
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        if (i == j) continue;
        std::vector<Matrix<Rational>> mats;
        for (const HouseholderFactor& h : householder_transvection(d, i, j, c))
          mats.push_back(h.matrix());
        CHECK(mats.size() == 3);
        CHECK(product_in_application_order(mats, d) == transvection_matrix(d, i, j, c));
      }
  CHECK_THROWS_AS(householder_transvection(2, 1, 1, Rational(1)), std::invalid_argument);
  CHECK_THROWS_AS(householder_transvection(2, 0, 1, Rational(0)), std::invalid_argument);

  // constructions.md §4's unit transvection x_d += x_s, s = 0, d = 1: applied in the order
  // H(2, e_s+e_d), H(1/2, e_s), H(1/3, e_s+2e_d) it is x_d += x_s in column form too; the
  // written (left-to-right) product is I + e_s e_dᵀ, which is x_d += x_s only for row vectors.
  const HouseholderFactor h1{2, {1, 1}}, h2{Rational(1, 2), {1, 0}}, h3{Rational(1, 3), {1, 2}};
  CHECK(product_in_application_order({h1.matrix(), h2.matrix(), h3.matrix()}, 2) ==
        transvection_matrix(2, 1, 0, 1));  // column form: x_1 += x_0
  CHECK(mul(Q, mul(Q, h1.matrix(), h2.matrix()), h3.matrix()) ==
        transvection_matrix(2, 0, 1, 1));  // as written: I + e_0 e_1ᵀ
  // H(1 − λ, e_i) scales coordinate i by λ; λ = 0 clears it.
  const HouseholderFactor clear{1, {0, 1}};
  Matrix<Rational> want = identity(Q, 2);
  want(1, 1) = 0;
  CHECK(clear.matrix() == want);
}

TEST_CASE("wfa to lrnn: every family computes f on all strings up to length 5",
          "[constructions][wfa]") {
  std::mt19937_64 rng(4242);
  for (std::size_t d = 2; d <= 4; ++d)
    for (std::size_t symbols = 2; symbols <= 3; ++symbols)
      for (int rep = 0; rep < (d == 4 && symbols == 3 ? 1 : 2); ++rep) {  // (4, 3) is slow
        const Wfa a = random_wfa(rng, d, symbols);
        for (WfaFamily family : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
          const Construction c = wfa_to_lrnn(a, family);
          INFO(c.name << ", d = " << d << ", |Σ| = " << symbols << ", rep " << rep);
          check_all_claims(c);
          // The evaluator is causal, so one run on each string of length 5 gives the last
          // output of every prefix's encoding (position t·K is the end of encode(w₁…w_t)):
          // all strings of length 1..5.
          const std::size_t K = c.model.alphabet.size() / symbols;
          for (const auto& w : all_strings(symbols, 5, 5)) {
            const auto outputs = evaluate(c.model, Q, c.encode(w)).outputs();
            REQUIRE(outputs.size() == 5 * K);
            for (std::size_t t = 1; t <= 5; ++t) {
              const std::vector<std::size_t> prefix(w.begin(), w.begin() + t);
              const Rational want = evaluate(a, prefix);
              CHECK(c.target.value(prefix) == want);
              REQUIRE(outputs[t * K - 1](0, 0) == want);
            }
          }
          CHECK(model_value(c, {1, 0}) == evaluate(a, {1, 0}));  // the plain way, once
        }
      }
}

TEST_CASE("wfa to lrnn: the general construction", "[constructions][wfa]") {
  const Wfa a = load_wfa(test::example("wfa_binary_value.att"));
  const Construction c = wfa_to_lrnn(a, WfaFamily::general);
  CHECK(c.name == "wfa-general");
  const auto& l = std::get<LrnnLayer>(c.model.layers.at(0).layer);
  CHECK(l.family == Family::general);
  CHECK(l.d == 2);
  CHECK(l.A[1] == transpose(a.transition[1]));  // A_σ = M_σᵀ
  CHECK(l.initial_state(0, 0) == 1);            // S_0 = α (u first)
  CHECK(l.readout(0, 1) == 1);                  // C = βᵀ
  CHECK(c.model.alphabet.symbols() == a.alphabet.symbols());
  CHECK(c.encode({1, 0, 1}) == std::vector<std::size_t>{1, 0, 1});
  CHECK(model_value(c, {1, 0, 1, 1}) == 11);
  CHECK(claim(c, "state size").measured == "2");
  CHECK(claim(c, "steps per symbol").claimed == "= 1");
  CHECK(claim(c, "steps per symbol").measured == "1");

  // Identity embedding: model input (t−1)|Σ| + σ is f's input of the same index.
  REQUIRE(c.embedding);
  const auto e = c.embedding(3);
  REQUIRE(e.size() == 6);
  for (std::size_t i = 0; i < e.size(); ++i) {
    CHECK(e[i].constant == 0);
    CHECK(e[i].variables == std::vector<std::uint32_t>{static_cast<std::uint32_t>(i)});
  }
}

TEST_CASE("wfa to lrnn: f's circuit is f", "[constructions][wfa]") {
  std::mt19937_64 rng(99);
  const Wfa a = random_wfa(rng, 3, 2);
  const Target t = wfa_to_lrnn(a, WfaFamily::dplr).target;
  REQUIRE(t.circuit);
  for (std::size_t n = 1; n <= 3; ++n) {
    const Circuit circuit = t.circuit(n);
    REQUIRE(circuit.inputs().size() == n * 2);
    REQUIRE(circuit.outputs().size() == 1);
    for (const auto& w : all_strings(2, n, n)) {
      std::vector<Rational> x(n * 2, Rational(0));
      for (std::size_t pos = 0; pos < n; ++pos) x[pos * 2 + w[pos]] = 1;  // x[t,σ]
      CHECK(evaluate(circuit, Q, std::span<const Rational>(x)).at(0) == evaluate(a, w));
    }
  }
}

TEST_CASE("wfa to lrnn: sub-step alphabet, encoding and factor order", "[constructions][wfa]") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  for (WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
    const Construction c = wfa_to_lrnn(a, family);
    const auto& l = std::get<LrnnLayer>(c.model.layers.at(0).layer);
    const std::size_t K = c.model.alphabet.size() / 2;
    INFO(c.name << ", K = " << K);
    CHECK(l.family == (family == WfaFamily::dplr ? Family::dplr : Family::deltanet));
    CHECK(c.model.alphabet.symbol(0) == "a.0");
    CHECK(c.model.alphabet.symbol(K - 1) == "a." + std::to_string(K - 1));
    CHECK(c.model.alphabet.symbol(K) == "b.0");
    std::vector<std::size_t> want;
    for (std::size_t k = 0; k < K; ++k) want.push_back(K + k);
    for (std::size_t k = 0; k < K; ++k) want.push_back(k);
    CHECK(c.encode({1, 0}) == want);
    CHECK_FALSE(c.embedding);  // K tokens per symbol: not block-linear
    CHECK(claim(c, "steps per symbol K").measured == std::to_string(K));
    CHECK(claim(c, "factor products").measured == "exact");
    CHECK(model_value(c, {0, 1, 0, 1}) == 2);
    CHECK(model_value(c, {0, 0, 1, 1}) == 1);
  }

  // Order matters: a swap (which needs pivoting) as factors applied in reverse order is not
  // the swap, and the product claim notices.
  Wfa swap = parse_wfa_att("0 1 a\n1 0 a 3\n0 1\n", "swap.att");
  for (WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
    const Construction c = wfa_to_lrnn(swap, family);
    const std::size_t K = c.model.alphabet.size();
    REQUIRE(K >= 2);
    LrnnLayer reversed = std::get<LrnnLayer>(c.model.layers.at(0).layer);
    CHECK(check_factor_products(swap, reversed, K).ok);
    std::reverse(reversed.A.begin(), reversed.A.end());
    const Claim bad = check_factor_products(swap, reversed, K);
    CHECK_FALSE(bad.ok);
    CHECK_THAT(bad.measured, Catch::StartsWith("differs for symbol 'a' at ["));
  }
}

TEST_CASE("wfa to lrnn: a wrong factor fails the product claim", "[constructions][wfa]") {
  const Wfa a = load_wfa(test::example("wfa_binary_value.att"));
  for (WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
    const Construction c = wfa_to_lrnn(a, family);
    const std::size_t K = c.model.alphabet.size() / a.alphabet.size();
    const LrnnLayer& good = std::get<LrnnLayer>(c.model.layers.at(0).layer);
    const Claim ok = check_factor_products(a, good, K);
    CHECK(ok.ok);
    CHECK(ok.claimed == "exact");
    CHECK(ok.measured == "exact");

    LrnnLayer bad = good;
    bad.A[K + K - 1](0, 0) += Rational(1, 7);  // the last factor of symbol '1'
    const Claim wrong = check_factor_products(a, bad, K);
    CHECK_FALSE(wrong.ok);
    CHECK_THAT(wrong.measured, Catch::StartsWith("differs for symbol '1' at ["));

    const Claim shape = check_factor_products(a, good, K + 1);
    CHECK_FALSE(shape.ok);
    CHECK_THAT(shape.measured, Catch::StartsWith("shape mismatch"));
  }
}

TEST_CASE("wfa to lrnn: K within its bound, and small cases", "[constructions][wfa]") {
  // d = 1: K = 1 (a diagonal, or the identity pad).
  for (const char* text : {"0 0 a 5\n0 0 b\n0\n", "0 0 a 0\n0\n"}) {
    const Wfa a = parse_wfa_att(text, "one.att");
    for (WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
      const Construction c = wfa_to_lrnn(a, family);
      CHECK(c.model.alphabet.size() == a.alphabet.size());  // K = 1
      check_all_claims(c);
      CHECK(model_value(c, {0, 0}) == evaluate(a, {0, 0}));
    }
  }
  // A swap: row_0 += row_1, row_1 −= row_0, col_1 −= col_0 leave Δ = diag(1, −1).
  Matrix<Rational> swap(2, 2, Rational(0));
  swap(0, 1) = swap(1, 0) = 1;
  const auto fs = factor_elementary(swap);
  REQUIRE(fs.size() == 4);
  CHECK(fs[1].kind == ElementaryFactor::Kind::diagonal);
  CHECK(fs[1].diag == std::vector<Rational>{1, -1});
  CHECK(dplr_steps_bound(1) == 1);
  CHECK(dplr_steps_bound(4) == 19);
  CHECK(deltanet_steps_bound(1) == 1);
  CHECK(deltanet_steps_bound(4) == 58);

  // The claims a DPLR construction reports.
  const Wfa a = load_wfa(test::example("dwfa_mod3.att"));
  const Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
  CHECK(claim(c, "steps per symbol K").claimed == "≤ 11");
  CHECK(claim(c, "state size").claimed == "= 3");
  check_all_claims(c);
  CHECK(parse_wfa_family("deltanet") == WfaFamily::deltanet);
  CHECK_FALSE(parse_wfa_family("pd"));
  CHECK(to_string(WfaFamily::dplr) == "dplr");
}

TEST_CASE("wfa to lrnn: an inconsistent Wfa is a bug, not input", "[constructions][wfa]") {
  Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  a.transition.pop_back();
  CHECK_THROWS_AS(wfa_to_lrnn(a, WfaFamily::general), std::invalid_argument);
}

namespace {

bool same_factors(const std::vector<ElementaryFactor>& a, const std::vector<ElementaryFactor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t x = 0; x < a.size(); ++x)
    if (a[x].kind != b[x].kind || a[x].i != b[x].i || a[x].j != b[x].j || a[x].c != b[x].c ||
        a[x].diag != b[x].diag)
      return false;
  return true;
}

// A chain: state i → i + 1 (the matrix of a chain WFA's symbol, transposed or not).
Matrix<Rational> chain_matrix(std::size_t d, bool transposed) {
  Matrix<Rational> m(d, d, Rational(0));
  for (std::size_t i = 0; i + 1 < d; ++i) (transposed ? m(i + 1, i) : m(i, i + 1)) = 1;
  return m;
}

}  // namespace

// The sparse elimination (factor_elementary) against its dense twin (factor_elementary_plain):
// the same factor list, factor for factor, on every kind of seeded matrix of sizes 1..9 (dense,
// singular, pivoting, permutations, triangular, sparse), and on chains up to 60 states.
TEST_CASE("factorization: the sparse elimination equals its dense twin", "[constructions][wfa]") {
  std::mt19937_64 rng(20260302);
  for (unsigned i = 0; i < 400; ++i) {
    const std::size_t d = 1 + i % 9;
    Matrix<Rational> m = test_matrix(rng, d, i / 9);
    if (i % 5 == 0)  // sparser still: zero most entries
      for (std::size_t r = 0; r < d; ++r)
        for (std::size_t c = 0; c < d; ++c)
          if (rng() % 3 != 0) m(r, c) = 0;
    INFO("d = " << d << ", kind " << (i / 9) % 9 << ", case " << i);
    CHECK(same_factors(factor_elementary(m), factor_elementary_plain(m)));
  }
  for (const std::size_t d : {2u, 3u, 17u, 60u})
    for (const bool transposed : {false, true}) {
      const Matrix<Rational> m = chain_matrix(d, transposed);
      const auto fs = factor_elementary(m);
      CHECK(same_factors(fs, factor_elementary_plain(m)));
      std::vector<Matrix<Rational>> mats;
      for (const auto& f : fs) mats.push_back(f.matrix(d));
      CHECK(product_in_application_order(mats, d) == m);
      CHECK(fs.size() <= 2 * d + 1);  // a chain: about two transvections a state
    }
  CHECK_THROWS_AS(factor_elementary_plain(Matrix<Rational>(2, 3, Rational(0))),
                  std::invalid_argument);
}

// The memory check of wfa_to_lrnn: a chain WFA's sub-step models hold |Σ|·K dense d×d matrices
// (K ≈ 2d for DPLR, 6d for DeltaNet), refused above the limit with the estimate and the option,
// before anything of that size is built; the count of factors it uses equals the built one.
TEST_CASE("wfa → lrnn: the model's memory is estimated and refused above --max-memory",
          "[constructions][wfa]") {
  Wfa a;
  a.alphabet = Alphabet({"a", "b"}, "test");
  const std::size_t d = 40;
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back(std::to_string(i));
    a.initial.push_back(Rational(i == 0 ? 1 : 0));
    a.final.push_back(Rational(i + 1 == d ? 1 : 0));
  }
  a.transition.assign(2, chain_matrix(d, false));
  for (const WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
    const std::string what =
        test::input_error_of([&] { wfa_to_lrnn(a, family, WfaKeys::any, 1); }).what;  // 1 MiB
    CHECK(what.find("--max-memory: the " + to_string(family) +
                    " model of this 40-state WFA would take about ") == 0);
    CHECK(what.find("(raise --max-memory to run it anyway)") != std::string::npos);
    const Construction c = wfa_to_lrnn(a, family, WfaKeys::any, 1024);
    const std::size_t K = c.model.alphabet.size() / 2;
    const auto fs = factor_elementary(transpose(a.transition[0]));
    CHECK(K == (family == WfaFamily::dplr ? fs.size() : householder_factor_count(fs)));
    CHECK(K == (family == WfaFamily::dplr ? fs.size()
                                          : factor_householder(transpose(a.transition[0])).size()));
  }
  CHECK_THROWS_AS(wfa_to_lrnn(a, WfaFamily::deltanet, WfaKeys::unit, 1), InputError);
  CHECK(unit_monomial_factor_count(transpose(a.transition[0]), 2) ==
        factor_unit_monomial(transpose(a.transition[0]), 2).size());
  CHECK_NOTHROW(wfa_to_lrnn(a, WfaFamily::general, WfaKeys::any, 1));  // 2·40² entries: small
}

// The arcs path (WfaArcs, what `construct/verify wfa` read): the same construction as the dense
// path on seeded WFAs of every family — the model byte for byte, the claims and f — and the
// planned shape reported before anything dense is built, so that a hook that refuses runs first.
TEST_CASE("wfa → lrnn from the arcs equals the dense path, and plans before it builds",
          "[constructions][wfa]") {
  std::mt19937_64 rng(20261203);
  for (int round = 0; round < 24; ++round) {
    const std::size_t d = 1 + rng() % 6, symbols = 1 + rng() % 3;
    const Wfa a = random_wfa(rng, d, symbols);
    const WfaArcs arcs = wfa_arcs(a);
    const Wfa back = dense_wfa(arcs);
    REQUIRE(back.initial == a.initial);
    REQUIRE(back.final == a.final);
    REQUIRE(back.transition == a.transition);
    REQUIRE(back.state_names == a.state_names);
    std::size_t nonzero = 0;
    for (const Matrix<Rational>& m : a.transition)
      for (const Rational& x : m.data()) nonzero += x != 0;
    CHECK(arcs.arcs.size() == nonzero);
    for (const WfaFamily family : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
      std::vector<PlannedShape> planned;
      const Construction dense = wfa_to_lrnn(a, family);
      const Construction sparse = wfa_to_lrnn(arcs, family, WfaKeys::any, default_max_memory_mib(),
                                              [&](const PlannedShape& s) { planned.push_back(s); });
      REQUIRE(planned.size() == 1);
      CHECK(planned[0].target_states == d);
      CHECK(planned[0].alphabet == symbols);
      const LrnnLayer& layer = std::get<LrnnLayer>(sparse.model.layers[0].layer);
      CHECK(planned[0].layer_d * planned[0].layer_m == layer.d * layer.m);
      CHECK(model_to_json(sparse.model).dump() == model_to_json(dense.model).dump());
      REQUIRE(sparse.claims.size() == dense.claims.size());
      for (std::size_t i = 0; i < dense.claims.size(); ++i) {
        CHECK(sparse.claims[i].name == dense.claims[i].name);
        CHECK(sparse.claims[i].measured == dense.claims[i].measured);
      }
      const std::vector<std::size_t> w{0, symbols - 1, 0};
      CHECK(sparse.target.value(w) == dense.target.value(w));
      CHECK(model_value(sparse, w) == dense.target.value(w));
    }
  }
  // A planned-shape hook that refuses runs before the dense build and the memory estimate.
  const WfaArcs arcs = wfa_arcs(random_wfa(rng, 3, 2));
  struct Refused {};
  CHECK_THROWS_AS(wfa_to_lrnn(arcs, WfaFamily::deltanet, WfaKeys::any, 1,
                              [](const PlannedShape&) { throw Refused{}; }),
                  Refused);
}

// A chain of 4 000 states read from its arcs: the DeltaNet model (K ≈ 6d sub-steps of dense
// d×d matrices) is refused from the sparse elimination alone. Building the WFA densely first
// would hold 2·4000² = 32 million rationals (about 2 GB) before the refusal.
TEST_CASE("wfa → lrnn: a large chain's model is refused from its arcs", "[constructions][wfa]") {
  const std::size_t d = 4000;
  WfaArcs arcs;
  arcs.alphabet = Alphabet({"a", "b"}, "test");
  for (std::size_t i = 0; i < d; ++i) arcs.state_names.push_back(std::to_string(i));
  arcs.initial = {{0, Rational(1)}};
  arcs.finals = {{d - 1, Rational(1)}};
  for (std::size_t s = 0; s < 2; ++s)
    for (std::size_t i = 0; i + 1 < d; ++i) arcs.arcs.push_back({i, i + 1, s, Rational(s + 1)});
  for (const WfaFamily family : {WfaFamily::dplr, WfaFamily::deltanet}) {
    CHECK_THAT(test::input_error_of([&] { wfa_to_lrnn(arcs, family, WfaKeys::any, 4096); }).what,
               Catch::Matchers::StartsWith("--max-memory: the " + to_string(family) +
                                           " model of this 4000-state WFA"));
  }
}
