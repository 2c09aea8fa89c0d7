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

QMat mul(const QMat& a, const QMat& b) {
  QMat out(a.rows(), b.cols(), Rational(0));
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t k = 0; k < a.cols(); ++k)
      if (a(i, k) != 0)
        for (std::size_t j = 0; j < b.cols(); ++j) out(i, j) += a(i, k) * b(k, j);
  return out;
}

// A solution x (n) of the system whose rows are [coefficients (n) | right-hand side], by
// Gauss–Jordan elimination over Q; nullopt when it has none.
std::optional<Vec> solve_linear(std::vector<Vec> rows, std::size_t n) {
  std::vector<std::size_t> pivot_col;
  std::size_t r = 0;
  for (std::size_t c = 0; c < n && r < rows.size(); ++c) {
    std::size_t p = r;
    while (p < rows.size() && rows[p][c] == 0) ++p;
    if (p == rows.size()) continue;
    std::swap(rows[p], rows[r]);
    const Rational inv = 1 / rows[r][c];
    for (Rational& x : rows[r]) x *= inv;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != r && rows[i][c] != 0) {
        const Rational f = rows[i][c];
        for (std::size_t j = c; j <= n; ++j) rows[i][j] -= f * rows[r][j];
      }
    pivot_col.push_back(c);
    ++r;
  }
  for (std::size_t i = r; i < rows.size(); ++i)
    if (rows[i][n] != 0) return std::nullopt;  // 0 = nonzero
  Vec x(n, Rational(0));
  for (std::size_t i = 0; i < r; ++i) x[pivot_col[i]] = rows[i][n];
  return x;
}

// The inverse of an invertible square matrix.
QMat inverse(const QMat& m) {
  const std::size_t n = m.rows();
  QMat out(n, n, Rational(0));
  for (std::size_t col = 0; col < n; ++col) {  // m·x = e_col
    std::vector<Vec> rows(n, Vec(n + 1, Rational(0)));
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) rows[i][j] = m(i, j);
      rows[i][n] = i == col ? 1 : 0;
    }
    const Vec x = *solve_linear(std::move(rows), n);
    for (std::size_t i = 0; i < n; ++i) out(i, col) = x[i];
  }
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
  // 1. Forward, from the states after one symbol: F = basis of span{α·M_w : w ≠ ε}.
  EchelonBasis<QField> fwd(QField{}, rep.dim);
  for (std::size_t s = 0; s < S; ++s) fwd.insert(row_times(rep.initial, rep.transition[s]));
  for (std::size_t i = 0; i < fwd.size(); ++i)
    for (std::size_t s = 0; s < S; ++s) fwd.insert(row_times(fwd.vector(i), rep.transition[s]));
  const std::size_t k = fwd.size();
  res.forward_dim = k;
  std::vector<QMat> M1(S, QMat(k, k, Rational(0))), G1(S, QMat(k, r, Rational(0)));
  std::vector<Vec> a1(S);  // α·M_σ in F's coordinates
  for (std::size_t s = 0; s < S; ++s) {
    a1[s] = *fwd.reduce(row_times(rep.initial, rep.transition[s]));
    for (std::size_t i = 0; i < k; ++i) {
      const Vec c = *fwd.reduce(row_times(fwd.vector(i), rep.transition[s]));
      for (std::size_t j = 0; j < k; ++j) M1[s](i, j) = c[j];
      const Vec g = row_times(fwd.vector(i), rep.readout[s]);
      for (std::size_t j = 0; j < r; ++j) G1[s](i, j) = g[j];
    }
  }
  // 2. Backward on the result: C = basis of span{M1_u·c : c a column of some Γ1_τ}; a state v
  // (row, F's coordinates) becomes v·C.
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
  const std::size_t R = bwd.size();
  std::vector<QMat> N(S, QMat(R, R, Rational(0))), G(S, QMat(R, r, Rational(0)));
  for (std::size_t s = 0; s < S; ++s) {
    for (std::size_t i = 0; i < R; ++i) {  // M1_σ c_i = Σ_j n_ij c_j → N[j][i]
      const Vec c = *bwd.reduce(times_col(M1[s], bwd.vector(i)));
      for (std::size_t j = 0; j < R; ++j) N[s](j, i) = c[j];
    }
    for (std::size_t j = 0; j < r; ++j) {  // column j of Γ1_σ = Σ_i q_i c_i
      Vec col(k);
      for (std::size_t i = 0; i < k; ++i) col[i] = G1[s](i, j);
      const Vec q = *bwd.reduce(col);
      for (std::size_t i = 0; i < R; ++i) G[s](i, j) = q[i];
    }
  }
  auto project = [&](const Vec& v) {  // v·C
    Vec out(R, Rational(0));
    for (std::size_t i = 0; i < R; ++i)
      for (std::size_t t = 0; t < k; ++t) out[i] += v[t] * bwd.vector(i)[t];
    return out;
  };
  std::vector<Vec> after(S);  // the reduced state after each symbol
  for (std::size_t s = 0; s < S; ++s) after[s] = project(a1[s]);
  // 3. A start state: any α' with α'·N_σ = after[σ] for every σ (y(ε) is never read, so α' need
  // not be α's image); when there is none, one more coordinate that every step clears.
  std::optional<Vec> start;
  {
    // Unknowns α' (R); equations Σ_i α'_i N_σ(i, j) = after[σ]_j: rows (σ, j) of [N_σᵀ | after].
    std::vector<Vec> rows;
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t j = 0; j < R; ++j) {
        Vec row(R + 1);
        for (std::size_t i = 0; i < R; ++i) row[i] = N[s](i, j);
        row[R] = after[s][j];
        rows.push_back(std::move(row));
      }
    start = solve_linear(rows, R);
  }
  const std::size_t D = start ? R : R + 1;
  LinearRepresentation& out = res.reduced;
  out.symbols = rep.symbols;
  out.dim = D;
  out.outputs = r;
  out.modulus = rep.modulus;
  out.initial.assign(D, Rational(0));
  if (start)
    out.initial = *start;
  else
    out.initial[R] = 1;
  for (std::size_t s = 0; s < S; ++s) {
    QMat T(D, D, Rational(0)), Gs(D, r, Rational(0));
    for (std::size_t i = 0; i < R; ++i) {
      for (std::size_t j = 0; j < R; ++j) T(i, j) = N[s](i, j);
      for (std::size_t j = 0; j < r; ++j) Gs(i, j) = G[s](i, j);
    }
    if (!start)
      for (std::size_t j = 0; j < R; ++j) T(R, j) = after[s][j];
    out.transition.push_back(T);
    out.readout.push_back(Gs);
    out.output.push_back(mul(T, Gs));
  }
  // 4. Affine form: a column φ with M_σ·φ = φ for every σ and α·φ = 1 makes h·φ = 1 on every
  // reachable state, so one coordinate is the constant 1 of an affine step S' = A S + B.
  std::optional<Vec> phi;
  if (D > 0) {
    std::vector<Vec> rows;
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t i = 0; i < D; ++i) {  // Σ_j (M_σ − I)(i, j) φ_j = 0
        Vec row(D + 1, Rational(0));
        for (std::size_t j = 0; j < D; ++j) row[j] = out.transition[s](i, j) - (i == j ? 1 : 0);
        rows.push_back(std::move(row));
      }
    Vec row(D + 1);
    for (std::size_t j = 0; j < D; ++j) row[j] = out.initial[j];
    row[D] = 1;
    rows.push_back(std::move(row));
    phi = solve_linear(rows, D);
  }
  // The LRNN (column-vector convention). Linear: S₀ = αᵀ, A_σ = M_σᵀ, B_σ = 0, readout Γᵀ.
  // Affine: coordinates h·T with T invertible and its last column φ (so the last coordinate is
  // 1); M' = T⁻¹·M·T has last column e_D, A_σ = M'[0..D−1, 0..D−1]ᵀ, B_σ = M'[D−1, 0..D−1]ᵀ;
  // Γ' = T⁻¹·Γ: readout Γ'[0..D−1]ᵀ, bias Γ'[D−1]ᵀ — one bias for every symbol, which T's
  // choice below ensures where any choice can (else, with per-symbol readouts, the linear form
  // is kept).
  QMat T(D, D, Rational(0));
  std::vector<QMat> Ms = out.transition, Gs = out.readout;
  Vec init = out.initial;
  // ψ, the last row of T⁻¹ (ψ·φ = 1): the bias is ψ·Γ_σ, one for every symbol when
  // ψ·(Γ_σ − Γ_0) = 0. Then T = [a basis of ker ψ | φ].
  std::optional<Vec> psi;
  if (phi) {
    std::vector<Vec> rows;
    Vec norm(D + 1);
    for (std::size_t i = 0; i < D; ++i) norm[i] = (*phi)[i];
    norm[D] = 1;
    rows.push_back(std::move(norm));
    for (std::size_t s = 1; s < S; ++s)
      for (std::size_t j = 0; j < r; ++j) {
        Vec row(D + 1, Rational(0));
        for (std::size_t i = 0; i < D; ++i) row[i] = out.readout[s](i, j) - out.readout[0](i, j);
        rows.push_back(std::move(row));
      }
    psi = solve_linear(rows, D);
    if (!psi) phi.reset();  // per-symbol biases: not a layer's form; the linear form is kept
  }
  if (phi) {
    std::size_t pivot = 0;
    while ((*psi)[pivot] == 0) ++pivot;  // ψ ≠ 0 (ψ·φ = 1)
    std::size_t col = 0;                 // e_i − (ψ_i/ψ_pivot)·e_pivot for i ≠ pivot: ker ψ
    for (std::size_t i = 0; i < D; ++i)
      if (i != pivot) {
        T(i, col) = 1;
        T(pivot, col) = -(*psi)[i] / (*psi)[pivot];
        ++col;
      }
    for (std::size_t i = 0; i < D; ++i) T(i, D - 1) = (*phi)[i];
    const QMat Tinv = inverse(T);
    for (std::size_t s = 0; s < S; ++s) {
      Ms[s] = mul(mul(Tinv, out.transition[s]), T);
      Gs[s] = mul(Tinv, out.readout[s]);
    }
    init = row_times(out.initial, T);
  }
  res.affine = phi.has_value();
  res.dimension = phi ? D - 1 : D;
  const std::size_t e = res.dimension;                // coordinates kept
  const std::size_t d = std::max<std::size_t>(e, 1);  // a zero function keeps one zero coordinate
  LayerFrame frame;
  frame.d = d;
  frame.m = 1;
  frame.features = S;
  frame.initial_state = QMat(d, 1, Rational(0));
  for (std::size_t i = 0; i < e; ++i) frame.initial_state(i, 0) = init[i];
  bool shared = true;
  for (std::size_t s = 1; s < S; ++s) shared = shared && Gs[s] == Gs[0];
  auto readout_of = [&](std::size_t s) {
    QMat c(r, d, Rational(0));
    for (std::size_t i = 0; i < e; ++i)
      for (std::size_t j = 0; j < r; ++j) c(j, i) = Gs[s](i, j);
    return c;
  };
  frame.readout = shared && S > 0 ? readout_of(0) : QMat(r, d, Rational(0));
  if (!shared)
    for (std::size_t s = 0; s < S; ++s) frame.readout_feature.push_back(readout_of(s));
  if (res.affine && S > 0) {
    frame.readout_bias = QMat(r, 1, Rational(0));
    for (std::size_t j = 0; j < r; ++j) frame.readout_bias(j, 0) = Gs[0](D - 1, j);
  }
  std::vector<AffineStep> steps;
  for (std::size_t s = 0; s < S; ++s) {
    QMat A(d, d, Rational(0)), B(d, 1, Rational(0));
    for (std::size_t i = 0; i < e; ++i)
      for (std::size_t j = 0; j < e; ++j) A(j, i) = Ms[s](i, j);
    if (res.affine)
      for (std::size_t j = 0; j < e; ++j) B(j, 0) = Ms[s](D - 1, j);
    steps.push_back({A, B});
  }
  res.model.name = name;
  res.model.description = "Schützenberger reduction (rnncc minimize): dimension " +
                          std::to_string(res.dimension) + (res.affine ? " (affine steps)" : "") +
                          ", the least of an LRNN computing the function on nonempty strings";
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
  // A WFA's representation defines y(ε) and is its own dimension; a model's is homogenized
  // (from_lrnn_layer: [vec(S), 1]), its dimension d·m is one less.
  p.dimension = rep.empty ? rep.dim : rep.dim - 1;
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
  j["minimal_dimension"] = m.minimized.dimension;
  j["affine"] = m.minimized.affine;
  j["verdict"] = "proved";
  j["proved"] = true;
  j["method"] = m.proof.method;
  j["field"] = m.proof.field;
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
