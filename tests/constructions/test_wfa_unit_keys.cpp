// WFA → DeltaNet with β ∈ (0, 2] and rational unit keys (wfa_to_lrnn(…, WfaKeys::unit)), and the
// spectral properties of delta-rule layers (constructions/spectral.hpp): the unit-key model
// against the WFA evaluator on every string up to length 5 (examples/ and seeded random
// monomial contractions), its keys and β measured independently, the obstructions (‖M‖₂ > 1:
// impossible; a non-monomial contraction: not covered), and every token's spectrum against
// the closed form (x − 1)^{d−1}(x − (1 − β‖k‖²)) of I − βkkᵀ.
#include <catch2/catch.hpp>

#include "tests/constructions/claims.hpp"

#include <random>

#include "algebra/charpoly.hpp"
#include "algebra/exact.hpp"
#include "constructions/spectral.hpp"
#include "constructions/state_tracking.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

std::string example(const std::string& name) {
  return std::string(RNNCC_SOURCE_DIR) + "/examples/" + name;
}

// Every string up to length 5: the model's output at every symbol boundary equals f(prefix).
void check_equals_wfa(const Construction& c, const Wfa& a) {
  const std::size_t K = c.encode({0}).size();
  for (const auto& w : test::all_strings(a.alphabet.size(), 1, 5)) {
    const auto outputs = evaluate(c.model, Q, c.encode(w)).outputs();
    for (std::size_t t = 1; t <= w.size(); ++t) {
      const std::vector<std::size_t> prefix(w.begin(), w.begin() + static_cast<long>(t));
      INFO("string length " << w.size() << ", prefix " << t);
      CHECK(outputs[t * K - 1](0, 0) == evaluate(a, prefix));
    }
  }
}

// β ∈ (0, 2] and ‖k‖² ∈ {0, 1} on every token, read from the layer's parameters directly.
void check_unit_parameters(const Construction& c) {
  const auto& layer = std::get<LrnnLayer>(c.model.layers.at(0).layer);
  CHECK(layer.beta_range == BetaRange::half_open_0_2);
  for (const FeatureParams& f : layer.record) {
    const auto& p = std::get<DeltaParams>(f);
    CHECK(p.beta > 0);
    CHECK(p.beta <= 2);
    Rational n2(0);
    for (const Rational& x : p.k) n2 += x * x;
    CHECK((n2 == 1 || n2 == 0));
  }
}

Wfa monomial_wfa(std::mt19937_64& rng, std::size_t d, std::size_t symbols) {
  Wfa a;
  std::vector<std::string> names{"a", "b", "c"};
  names.resize(symbols);
  a.alphabet = Alphabet(names, "test");
  for (std::size_t i = 0; i < d; ++i) {
    a.state_names.push_back("q" + std::to_string(i));
    a.initial.push_back(test::small_rational(rng));
    a.final.push_back(test::small_rational(rng));
  }
  static const Rational entries[] = {Rational(1),     Rational(-1),   Rational(1, 2),
                                     Rational(-1, 3), Rational(3, 4), Rational(0)};
  for (std::size_t s = 0; s < symbols; ++s) {
    std::vector<std::size_t> perm(d);
    for (std::size_t i = 0; i < d; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    Matrix<Rational> m(d, d, Rational(0));
    for (std::size_t i = 0; i < d; ++i) m(i, perm[i]) = entries[rng() % 6];
    a.transition.push_back(m);
  }
  return a;
}

}  // namespace

TEST_CASE("wfa unit keys: the mod-3 permutation automaton, two copies, equals the WFA") {
  const Wfa a = load_wfa(example("dwfa_mod3.att"));
  const Construction c = wfa_to_lrnn(a, WfaFamily::deltanet, WfaKeys::unit);
  CHECK(c.name == "wfa-deltanet-unit");
  test::check_all_claims(c);
  CHECK(std::get<LrnnLayer>(c.model.layers[0].layer).d == 2 * a.states());
  check_unit_parameters(c);
  check_equals_wfa(c, a);
}

TEST_CASE("wfa unit keys: seeded random monomial contractions equal the WFA") {
  std::mt19937_64 rng(1604);
  for (int trial = 0; trial < 24; ++trial) {
    const std::size_t d = 1 + static_cast<std::size_t>(trial % 4), symbols = 1 + rng() % 3;
    const Wfa a = monomial_wfa(rng, d, symbols);
    REQUIRE(!unit_key_obstruction(a));
    const Construction c = wfa_to_lrnn(a, WfaFamily::deltanet, WfaKeys::unit);
    INFO("trial " << trial);
    test::check_all_claims(c);
    check_unit_parameters(c);
    check_equals_wfa(c, a);
  }
}

TEST_CASE("wfa unit keys: a diagonal contraction needs no copies") {
  Wfa a;
  a.alphabet = Alphabet({"a", "b"}, "test");
  a.state_names = {"p", "q"};
  a.initial = {Rational(1), Rational(2)};
  a.final = {Rational(1), Rational(-1)};
  Matrix<Rational> ma(2, 2, Rational(0)), mb(2, 2, Rational(0));
  ma(0, 0) = Rational(1, 2);
  ma(1, 1) = -1;
  mb(0, 0) = 1;
  mb(1, 1) = Rational(2, 3);
  a.transition = {ma, mb};
  const Construction c = wfa_to_lrnn(a, WfaFamily::deltanet, WfaKeys::unit);
  test::check_all_claims(c);
  CHECK(std::get<LrnnLayer>(c.model.layers[0].layer).d == 2);
  check_equals_wfa(c, a);
  // One transposition with one copy is refused: its reflection key is irrational.
  Matrix<Rational> swap(2, 2, Rational(0));
  swap(0, 1) = swap(1, 0) = 1;
  CHECK(monomial_needs_permutation(swap));
  CHECK_THROWS_AS(factor_unit_monomial(swap, 1), std::invalid_argument);
  CHECK(factor_unit_monomial(swap, 2).size() == 1);
}

TEST_CASE("wfa unit keys: impossible (‖M‖₂ > 1) and not covered (non-monomial contraction)") {
  // binary value: M_'0' = diag(1, 2) has ‖·‖₂ = 2.
  const Wfa bv = load_wfa(example("wfa_binary_value.att"));
  const auto why = unit_key_obstruction(bv);
  REQUIRE(why);
  CHECK(why->starts_with("impossible: ‖M_'0'‖₂² = σ_max² = 4 > 1"));
  const Construction c = wfa_to_lrnn(bv, WfaFamily::deltanet, WfaKeys::unit);
  const Claim& k = test::claim(c, "unit-key factorization");
  CHECK(!k.ok);
  CHECK(k.measured == *why);
  CHECK(test::claim(c, "factor products equal M_σᵀ").ok);  // the β-any model, still exact
  // A contraction that is not monomial: [[1/2, 1/2], [1/2, 1/2]] (‖·‖₂ = 1).
  Wfa avg = bv;
  Matrix<Rational> half(2, 2, Rational(1, 2));
  avg.transition = {half, half};
  const auto why2 = unit_key_obstruction(avg);
  REQUIRE(why2);
  CHECK(why2->starts_with("not covered: M_'0' is a contraction"));
  // [[3/5, 4/5], [4/5, 3/5]] has σ_max = 7/5 > 1: impossible, exactly 49/25.
  Matrix<Rational> r(2, 2, Rational(3, 5));
  r(0, 1) = r(1, 0) = Rational(4, 5);
  avg.transition = {r, half};
  const auto why3 = unit_key_obstruction(avg);
  REQUIRE(why3);
  // An irrational σ_max²: [[1, 1/2], [0, 1/2]] has MᵀM with charpoly x² − 3/2x + 1/4, σ_max² = (3 +
  // √5)/4.
  Matrix<Rational> u(2, 2, Rational(0));
  u(0, 0) = 1;
  u(0, 1) = u(1, 1) = Rational(1, 2);
  Wfa irr = avg;
  irr.transition = {u, half};
  const auto why4 = unit_key_obstruction(irr);
  REQUIRE(why4);
  CHECK(why4->starts_with("impossible: ‖M_'0'‖₂² = σ_max² ∈ ("));
  CHECK(why3->starts_with("impossible: ‖M_'0'‖₂² = σ_max² = 49/25 > 1"));
  CHECK_THROWS_AS(wfa_to_lrnn(bv, WfaFamily::dplr, WfaKeys::unit), std::invalid_argument);
}

TEST_CASE("spectral: every token of the β-any WFA→DeltaNet model, against the closed form") {
  const Wfa a = load_wfa(example("wfa_count_ab.att"));
  const Construction c = wfa_to_lrnn(a, WfaFamily::deltanet);
  const auto report = spectral_report(c.model);
  REQUIRE(report.size() == 1);
  const auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  const std::size_t d = layer.d;
  std::size_t tokens = 0;
  for (const MatrixSpectrum& s : report[0].spectra) {
    tokens += s.tokens.size();
    CHECK(s.complex_pairs == 0);  // I − βkkᵀ is symmetric
    std::size_t mult = 0;
    for (const RealRoot& r : s.real_roots) mult += r.multiplicity;
    CHECK(mult == d);
  }
  CHECK(tokens == layer.A.size());
  for (std::size_t f = 0; f < layer.A.size(); ++f) {
    const auto& p = std::get<DeltaParams>(layer.record[f]);
    Rational n2(0);
    for (const Rational& x : p.k) n2 += x * x;
    RationalPoly want{Rational(1)};  // (x − 1)^{d−1} (x − (1 − β‖k‖²))
    for (std::size_t i = 0; i + 1 < d; ++i) {
      RationalPoly next(want.size() + 1, Rational(0));
      for (std::size_t j = 0; j < want.size(); ++j) {
        next[j + 1] += want[j];
        next[j] -= want[j];
      }
      want = next;
    }
    const Rational lambda = 1 - p.beta * n2;
    RationalPoly next(want.size() + 1, Rational(0));
    for (std::size_t j = 0; j < want.size(); ++j) {
      next[j + 1] += want[j];
      next[j] -= lambda * want[j];
    }
    CHECK(charpoly(layer.A[f]) == next);
  }
  // The properties: keys not unit (‖k‖² = 2 exists), eigenvalue −3 outside [−1, 1].
  const auto& props = report[0].properties;
  REQUIRE(props.size() == 4);
  CHECK(props[0].ok);   // β in the declared range "any"
  CHECK(props[1].ok);   // β ∈ [1/3, 2] here
  CHECK(!props[2].ok);  // keys
  CHECK(props[2].measured.find("‖k‖² = 2") != std::string::npos);
  CHECK(!props[3].ok);
  CHECK(props[3].measured == "λ = -3 at a.0");
}

TEST_CASE("spectral: the parity construction's reflection holds every property") {
  const Construction c = parity(StateTrackingOptions{});
  const auto report = spectral_report(c.model);
  REQUIRE(report.size() == 1);
  for (const Claim& p : report[0].properties) {
    INFO(p.name << ": " << p.measured);
    CHECK(p.ok);
  }
  // β = 1/2 with the same unit key: eigenvalue 1/2, still in [−1, 1].
  StateTrackingOptions o;
  o.beta = Rational(1, 2);
  const auto r2 = spectral_report(parity(o).model);
  bool has_half = false;
  for (const MatrixSpectrum& s : r2[0].spectra)
    for (const RealRoot& r : s.real_roots)
      has_half = has_half || (r.exact() && r.lo == Rational(1, 2));
  CHECK(has_half);
}
