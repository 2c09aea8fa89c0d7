// Schützenberger reduction (verify/minimize.hpp): the minimized general LRNN is proved equal to
// the original by the decider, and its dimension is the Hankel rank.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/linear_basis.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/certificate.hpp"
#include "verify/equivalence.hpp"
#include "verify/minimize.hpp"
#include "verify/subject_file.hpp"

using namespace rnncc;

namespace {

// rank of H[x, (u, τ)] = α M_x M_u Γ_τ over x of length 1..L (nonempty: the state at ε is never
// read) and u of length ≤ L: R, the dimension of minimize's step 2 (verify/minimize.hpp).
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
    if (x.empty()) continue;
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

// The LRNN's dimension from minimize: R or R + 1 linear coordinates (a start of its own), one
// fewer when affine; never more than the model's d·m; proved equal on nonempty strings.
void check_minimized(const LinearRepresentation& rep, const MinimizeResult& m, std::size_t own) {
  const std::size_t R = hankel_rank(rep, 4);
  INFO("R = " << R << ", D = " << m.reduced.dim << ", dimension = " << m.dimension
              << ", own = " << own);
  REQUIRE(m.reduced.dim >= R);
  REQUIRE(m.reduced.dim <= R + 1);
  REQUIRE(m.dimension == m.reduced.dim - (m.affine ? 1 : 0));
  REQUIRE(m.dimension <= own);
  LinearRepresentation f = rep;
  f.empty.reset();
  REQUIRE(decide_equivalence(from_model(m.model), f).equivalent);
  REQUIRE(decide_equivalence(m.reduced, f).equivalent);
}

}  // namespace

TEST_CASE(
    "minimize: every family, proved equivalent, dimension = Hankel rank, model file round trip") {
  std::mt19937_64 rng(61);
  for (Family fam : test::all_families) {
    const Model model = test::single_layer_model(test::random_layer(rng, fam, 3, 1, 2), 2);
    const LinearRepresentation rep = from_model(model);
    const MinimizeResult m = minimize(rep);
    check_minimized(rep, m, rep.dim - 1);
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
  REQUIRE(big.dimension == small.dimension);
  REQUIRE(big.reduced.dim == small.reduced.dim);
  check_minimized(from_wfa(a), small, d);
  check_minimized(from_wfa(twice), big, d);
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
  REQUIRE(p.minimized.dimension == 1);  // v' = 2v + b, y = v: affine, one coordinate
  REQUIRE(p.minimized.affine);
  REQUIRE(p.proof.equivalent);
  REQUIRE(p.minimized.model.name == "m");
  const auto j = minimize_json(p, std::nullopt);
  REQUIRE(j["dimension"] == 2);
  REQUIRE(j["minimal_dimension"] == 1);
  REQUIRE(j["affine"] == true);
  REQUIRE(j["verdict"] == "proved");
  REQUIRE(j["proved"] == true);
  REQUIRE(j["method"] == p.proof.method);
  REQUIRE(j["output"].is_null());
  REQUIRE(minimize_json(p, std::string("out.json"))["output"] == "out.json");
}

TEST_CASE("minimize: an LRNN never minimizes to more than its dimension (generated models)") {
  std::mt19937_64 rng(24);
  std::size_t affine = 0, with_start = 0, models = 0;
  for (Family fam : test::all_families)
    for (std::size_t d : {1, 2, 3, 4})
      for (std::size_t trial = 0; trial < 3; ++trial) {
        Model model = test::single_layer_model(test::random_layer(rng, fam, d, 1, 2), 2);
        // Half of them with a rank-deficient readout and a zero start, so that the reduction
        // has something to remove.
        LrnnLayer& l = std::get<LrnnLayer>(model.layers[0].layer);
        if (trial == 1)
          for (std::size_t i = 0; i < l.d; ++i) l.initial_state(i, 0) = 0;
        if (trial == 2 && l.d > 1) l.readout(0, l.d - 1) = 0;
        const LinearRepresentation rep = from_model(model);
        const MinimizeResult m = minimize(rep);
        check_minimized(rep, m, l.d * l.m);
        affine += m.affine;
        with_start += m.reduced.dim == hankel_rank(rep, 4) + 1;
        ++models;
      }
  INFO(models << " models, " << affine << " affine, " << with_start << " with a start of its own");
  REQUIRE(models >= 40);
  REQUIRE(affine > 0);
}

TEST_CASE("minimize: a 4-dimensional LRNN and the WFA equal to it with its own y(ε)") {
  // cycle4.json: y(aⁿ) = [4 | n] by a 4-cycle (d = 4); cycle4_eps.att: the same on nonempty
  // strings with y(ε) = 5, which counting ε would need a fifth dimension for. Both minimize to
  // 3 affine coordinates (the states e_i lie on the hyperplane Σ S_i = 1).
  const SubjectFile lrnn =
      load_subject_file(std::string(RNNCC_SOURCE_DIR) + "/tests/cli/models/cycle4.json");
  const SubjectFile wfa =
      load_subject_file(std::string(RNNCC_SOURCE_DIR) + "/tests/cli/models/cycle4_eps.att");
  LinearRepresentation a = subject_representation(wfa);
  a.empty.reset();
  REQUIRE(decide_equivalence(subject_representation(lrnn), a).equivalent);
  for (const SubjectFile* s : {&lrnn, &wfa}) {
    const ProvedMinimization p = minimize_and_prove(minimize_input(*s));
    REQUIRE(p.dimension == (s == &lrnn ? 4 : 5));
    REQUIRE(p.minimized.reduced.dim == 4);
    REQUIRE(p.minimized.dimension == 3);
    REQUIRE(p.minimized.affine);
    REQUIRE(p.proof.equivalent);
  }
}
