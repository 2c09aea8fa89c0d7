#include "verify/minimize.hpp"

#include "verify/certificate.hpp"

#include "algebra/linear_basis.hpp"
#include "rnn/families.hpp"

#include <stdexcept>

namespace rnncc {
namespace {

using QMat = Matrix<Rational>;
using Vec = std::vector<Rational>;

Vec row_times(const Vec& v, const QMat& m) {
  Vec out(m.cols(), Rational(0));
  for (std::size_t k = 0; k < m.rows(); ++k)
    if (v[k] != 0)
      for (std::size_t j = 0; j < m.cols(); ++j)
        if (m(k, j) != 0) out[j] += v[k] * m(k, j);
  return out;
}
Vec times_col(const QMat& m, const Vec& c) {
  Vec out(m.rows(), Rational(0));
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t k = 0; k < m.cols(); ++k)
      if (m(i, k) != 0 && c[k] != 0) out[i] += m(i, k) * c[k];
  return out;
}

}  // namespace

MinimizeResult minimize(const LinearRepresentation& rep, const std::string& name) {
  if (rep.readout.size() != rep.symbols.size())
    throw InputError("",
                     "minimize needs a one-layer LRNN model or a WFA (a representation with "
                     "a readout after each step)");
  const std::size_t S = rep.symbols.size(), r = rep.outputs;
  MinimizeResult res;
  // 1. Forward.
  EchelonBasis<QField> fwd(QField{}, rep.dim);
  bool zero = true;
  for (const Rational& x : rep.initial) zero = zero && x == 0;
  if (!zero) fwd.insert(rep.initial);
  for (std::size_t i = 0; i < fwd.size(); ++i)
    for (std::size_t s = 0; s < S; ++s) fwd.insert(row_times(fwd.vector(i), rep.transition[s]));
  const std::size_t k = fwd.size();
  res.forward_dim = k;
  std::vector<QMat> M1(S, QMat(k, k, Rational(0))), G1(S, QMat(k, r, Rational(0)));
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t i = 0; i < k; ++i) {
      const Vec c = *fwd.reduce(row_times(fwd.vector(i), rep.transition[s]));
      for (std::size_t j = 0; j < k; ++j) M1[s](i, j) = c[j];
      const Vec g = row_times(fwd.vector(i), rep.readout[s]);
      for (std::size_t j = 0; j < r; ++j) G1[s](i, j) = g[j];
    }
  // 2. Backward: columns, stored as rows of the basis.
  EchelonBasis<QField> bwd(QField{}, k);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t j = 0; j < r; ++j) {
      Vec col(k);
      for (std::size_t i = 0; i < k; ++i) col[i] = G1[s](i, j);
      bool nz = false;
      for (const Rational& x : col) nz = nz || x != 0;
      if (nz) bwd.insert(col);
    }
  for (std::size_t i = 0; i < bwd.size(); ++i)
    for (std::size_t s = 0; s < S; ++s) bwd.insert(times_col(M1[s], bwd.vector(i)));
  const std::size_t m = bwd.size();
  LinearRepresentation& out = res.reduced;
  out.symbols = rep.symbols;
  out.dim = m;
  out.outputs = r;
  out.modulus = rep.modulus;
  out.initial.assign(m, Rational(0));
  for (std::size_t i = 0; i < m; ++i) out.initial[i] = k ? bwd.vector(i)[0] : Rational(0);
  for (std::size_t s = 0; s < S; ++s) {
    QMat N(m, m, Rational(0)), G(m, r, Rational(0));
    for (std::size_t i = 0; i < m; ++i) {  // M'_σ c_i = Σ_j n_ij c_j → N[j][i]
      const Vec c = *bwd.reduce(times_col(M1[s], bwd.vector(i)));
      for (std::size_t j = 0; j < m; ++j) N(j, i) = c[j];
    }
    for (std::size_t j = 0; j < r; ++j) {  // column j of Γ'_σ = Σ_i q_i c_i
      Vec col(k);
      for (std::size_t i = 0; i < k; ++i) col[i] = G1[s](i, j);
      const Vec q = *bwd.reduce(col);
      for (std::size_t i = 0; i < m; ++i) G(i, j) = q[i];
    }
    out.transition.push_back(N);
    QMat O(m, r, Rational(0));
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < r; ++j)
        for (std::size_t t = 0; t < m; ++t) O(i, j) += N(i, t) * G(t, j);
    out.output.push_back(O);
    out.readout.push_back(G);
  }
  // The LRNN: d = max(m, 1) (a zero function keeps one zero coordinate).
  const std::size_t d = std::max<std::size_t>(m, 1);
  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = S;
  frame.initial_state = QMat(d, 1, Rational(0));
  for (std::size_t i = 0; i < m; ++i) frame.initial_state(i, 0) = out.initial[i];
  bool shared = true;
  for (std::size_t s = 1; s < S; ++s) shared = shared && out.readout[s] == out.readout[0];
  auto readout_of = [&](std::size_t s) {
    QMat c(r, d, Rational(0));
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < r; ++j) c(j, i) = out.readout[s](i, j);
    return c;
  };
  frame.readout = shared && S > 0 ? readout_of(0) : QMat(r, d, Rational(0));
  if (!shared)
    for (std::size_t s = 0; s < S; ++s) frame.readout_feature.push_back(readout_of(s));
  std::vector<AffineStep> steps;
  for (std::size_t s = 0; s < S; ++s) {
    QMat A(d, d, Rational(0));
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < m; ++j) A(j, i) = out.transition[s](i, j);
    steps.push_back({A, QMat(d, 1, Rational(0))});
  }
  res.model.name = name;
  res.model.description = "Schützenberger reduction (rnncc minimize): dimension " +
                          std::to_string(m) + " = the Hankel rank";
  res.model.alphabet = Alphabet(rep.symbols, "alphabet");
  StackLayer sl;
  sl.layer = make_general(frame, steps);
  res.model.layers.push_back(std::move(sl));
  return res;
}

}  // namespace rnncc

namespace rnncc {

ProvedMinimization minimize_and_prove(const LinearRepresentation& rep, const std::string& name) {
  ProvedMinimization p;
  p.dimension = rep.dim;
  p.minimized = minimize(rep, name);
  LinearRepresentation original = rep;
  original.empty.reset();  // the LRNN has no output at t = 0
  p.proof = decide_equivalence(from_model(p.minimized.model), original);
  if (!p.proof.equivalent)
    throw std::logic_error("minimize: the reduced model differs from the input (a bug)");
  return p;
}

nlohmann::ordered_json minimize_json(const ProvedMinimization& m,
                                     const std::optional<std::string>& output) {
  nlohmann::ordered_json j;
  j["dimension"] = m.dimension;
  j["forward_dimension"] = m.minimized.forward_dim;
  j["minimal_dimension"] = m.minimized.reduced.dim;
  j["proved"] = true;
  j["method"] = m.proof.method;
  j["basis_size"] = m.proof.basis_size;
  j["output"] = output ? nlohmann::ordered_json(*output) : nlohmann::ordered_json();
  return j;
}

LinearRepresentation minimize_input(const SubjectFile& s) {
  LinearRepresentation rep;
  try {
    rep = subject_representation(s);
  } catch (const NotLinearError& e) {
    throw InputError(s.path, e.what());
  }
  if (rep.readout.empty())
    throw InputError(s.path, "minimize reads one-layer LRNN models and WFAs");
  return rep;
}

}  // namespace rnncc
