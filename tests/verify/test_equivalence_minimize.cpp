// Schützenberger reduction (verify/minimize.hpp): the minimized general LRNN is proved equal to
// the original by the decider, and its dimension is the Hankel rank.
#include <catch2/catch.hpp>
#include <random>

#include "../random_models.hpp"
#include "../support.hpp"
#include "algebra/linear_basis.hpp"
#include "rnn/model_json.hpp"
#include "verify/equivalence.hpp"
#include "verify/minimize.hpp"

using namespace rnncc;

namespace {

// rank of H[x, (u, τ)] = α M_x M_u Γ_τ over x, u of length ≤ L.
std::size_t hankel_rank(const LinearRepresentation& rep, std::size_t L) {
  const auto words = test::all_strings(rep.symbols.size(), 0, L);
  auto vec = [&](const std::vector<std::size_t>& w) {
    std::vector<Rational> v = rep.initial;
    for (std::size_t s : w) {
      std::vector<Rational> n(rep.dim, Rational(0));
      for (std::size_t i = 0; i < rep.dim; ++i)
        for (std::size_t j = 0; j < rep.dim; ++j) n[j] += v[i] * rep.transition[s](i, j);
      v = n;
    }
    return v;
  };
  EchelonBasis<QField> rows(QField{}, words.size() * rep.symbols.size() * rep.outputs);
  for (const auto& x : words) {
    std::vector<Rational> row;
    for (const auto& u : words) {
      std::vector<std::size_t> xu = x;
      xu.insert(xu.end(), u.begin(), u.end());
      const auto v = vec(xu);
      for (std::size_t t = 0; t < rep.symbols.size(); ++t)
        for (std::size_t j = 0; j < rep.outputs; ++j) {
          Rational acc = 0;
          for (std::size_t i = 0; i < rep.dim; ++i) acc += v[i] * rep.readout[t](i, j);
          row.push_back(acc);
        }
    }
    rows.insert(row);
  }
  return rows.size();
}

}  // namespace

TEST_CASE(
    "minimize: every family, proved equivalent, dimension = Hankel rank, model file round trip") {
  std::mt19937_64 rng(61);
  for (Family fam : test::all_families) {
    const Model model = test::single_layer_model(test::random_layer(rng, fam, 3, 1, 2), 2);
    const LinearRepresentation rep = from_model(model);
    const MinimizeResult m = minimize(rep);
    REQUIRE(m.reduced.dim <= rep.dim);
    REQUIRE(m.reduced.dim == hankel_rank(rep, 4));
    const Model back = parse_model(model_to_json(m.model).dump(), "min.json");
    const EquivalenceResult r = decide_equivalence(from_model(back), rep);
    REQUIRE(r.equivalent);
  }
}

TEST_CASE("minimize: a redundant WFA (two copies of one) shrinks to the copy's dimension") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  Wfa twice = a;
  const std::size_t d = a.states();
  twice.initial.assign(2 * d, Rational(0));
  twice.final.assign(2 * d, Rational(0));
  twice.state_names.clear();
  for (std::size_t i = 0; i < 2 * d; ++i) twice.state_names.push_back(std::to_string(i));
  for (std::size_t i = 0; i < d; ++i) {
    twice.initial[i] = a.initial[i] / 2;
    twice.initial[d + i] = a.initial[i] / 2;
    twice.final[i] = twice.final[d + i] = a.final[i];
  }
  for (std::size_t s = 0; s < a.transition.size(); ++s) {
    Matrix<Rational> m(2 * d, 2 * d, Rational(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < d; ++j) m(i, j) = m(d + i, d + j) = a.transition[s](i, j);
    twice.transition[s] = m;
  }
  const MinimizeResult big = minimize(from_wfa(twice)), small = minimize(from_wfa(a));
  REQUIRE(big.forward_dim <= d);
  REQUIRE(big.reduced.dim == small.reduced.dim);
  REQUIRE(big.reduced.dim == hankel_rank(from_wfa(a), 4));
  LinearRepresentation f = from_wfa(a);
  f.empty.reset();
  REQUIRE(decide_equivalence(from_model(big.model), f).equivalent);
  // Products carry no post-step readout: refused.
  LinearRepresentation product = f;
  product.readout.clear();
  REQUIRE_THROWS_AS(minimize(product), InputError);
}

TEST_CASE("minimize_and_prove: the reduction with its proof, and the --json document") {
  const Wfa a = load_wfa(test::example("wfa_binary_value.att"));
  const ProvedMinimization p = minimize_and_prove(from_wfa(a), "m");
  REQUIRE(p.dimension == 2);
  REQUIRE(p.minimized.reduced.dim == 2);
  REQUIRE(p.proof.equivalent);
  REQUIRE(p.minimized.model.name == "m");
  const auto j = minimize_json(p, std::nullopt);
  REQUIRE(j["dimension"] == 2);
  REQUIRE(j["minimal_dimension"] == 2);
  REQUIRE(j["proved"] == true);
  REQUIRE(j["method"] == p.proof.method);
  REQUIRE(j["output"].is_null());
  REQUIRE(minimize_json(p, std::string("out.json"))["output"] == "out.json");
}
