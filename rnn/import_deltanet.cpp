// DeltaNet and Gated DeltaNet weights (fla): the float64 layer (per-token features, forward pass)
// and its fold into an exact layer (import_weights.hpp, docs/import.md).
#include <algorithm>
#include <cmath>

#include "algebra/error.hpp"
#include "rnn/families.hpp"
#include "rnn/import_weights_internal.hpp"

namespace rnncc::weights_internal {

DeltaLayer::DeltaLayer(const Common& cm, bool gated_) : gated(gated_) {
  const std::size_t D = cm.D;
  Wb = fmat(cm.req("b_proj.weight", {any, D}));
  H = Wb.rows;
  const SafeTensor& q = cm.req("q_proj.weight", {any, D});
  dk = per_head(cm, "q_proj.weight", q, H);
  Wq = fmat(q);
  Wk = fmat(cm.req("k_proj.weight", {H * dk, D}));
  const SafeTensor& v = cm.req("v_proj.weight", {any, D});
  dv = per_head(cm, "v_proj.weight", v, H);
  Wv = fmat(v);
  Wo = fmat(cm.req("o_proj.weight", {D, H * dv}));
  if (auto* g = cm.opt("g_proj.weight", {H * dv, D})) Wg = fmat(*g);
  if (auto* n = cm.opt("o_norm.weight", {dv})) o_norm = n->values;
  if (gated) {
    Wa = fmat(cm.req("a_proj.weight", {H, D}));
    A_log = cm.req("A_log", {H}).values;
    dt_bias = cm.req("dt_bias", {H}).values;
  }
  cq = read_conv(cm, "q_conv1d", H * dk);
  ck = read_conv(cm, "k_conv1d", H * dk);
  cv = read_conv(cm, "v_conv1d", H * dv);
  c = mat_t_vec(Wo, cm.u);
}

std::vector<Features> DeltaLayer::features(const Common& cm, const std::vector<Vec>& xs) const {
  auto q = cq.apply(project(Wq, xs)), k = ck.apply(project(Wk, xs)), v = cv.apply(project(Wv, xs));
  std::vector<Features> out(xs.size());
  for (std::size_t t = 0; t < xs.size(); ++t) {
    Features& f = out[t];
    f.q = q[t];
    f.k = k[t];
    f.v = v[t];
    for (double& e : f.q) e = silu(e);
    for (double& e : f.k) e = silu(e);
    if (cm.v_silu)
      for (double& e : f.v) e = silu(e);
    for (std::size_t h = 0; h < H; ++h) {
      l2norm(f.q, h * dk, dk);
      l2norm(f.k, h * dk, dk);
      for (std::size_t i = 0; i < dk; ++i) f.q[h * dk + i] /= std::sqrt(double(dk));
    }
    f.beta = matvec(Wb, xs[t]);
    for (double& e : f.beta) e = (cm.neg_eigval ? 2.0 : 1.0) * sigmoid(e);
    f.alpha.assign(H, 1.0);
    if (gated) {
      const Vec a = matvec(Wa, xs[t]);
      for (std::size_t h = 0; h < H; ++h)
        f.alpha[h] = std::exp(-std::exp(A_log[h]) * softplus(a[h] + dt_bias[h]));
    }
    if (Wg.rows) {
      f.gate = matvec(Wg, xs[t]);
      for (double& e : f.gate) e = silu(e);
    }
  }
  return out;
}

std::vector<double> DeltaLayer::forward(const Common& cm, const std::vector<Vec>& xs) const {
  const auto fs = features(cm, xs);
  std::vector<Vec> S(H, Vec(dk * dv, 0.0));
  std::vector<double> ys;
  for (const Features& f : fs) {
    Vec o(H * dv, 0.0);
    for (std::size_t h = 0; h < H; ++h) {
      Vec& s = S[h];
      const double* k = &f.k[h * dk];
      Vec kS(dv, 0.0);  // kᵀS
      for (std::size_t i = 0; i < dk; ++i)
        for (std::size_t j = 0; j < dv; ++j) kS[j] += k[i] * s[i * dv + j];
      for (std::size_t i = 0; i < dk; ++i)
        for (std::size_t j = 0; j < dv; ++j)
          s[i * dv + j] = f.alpha[h] * (s[i * dv + j] - f.beta[h] * k[i] * kS[j]) +
                          f.beta[h] * k[i] * f.v[h * dv + j];
      for (std::size_t j = 0; j < dv; ++j)
        for (std::size_t i = 0; i < dk; ++i) o[h * dv + j] += s[i * dv + j] * f.q[h * dk + i];
      if (!o_norm.empty()) rmsnorm(o, o_norm, cm.eps, h * dv, dv);
    }
    if (!f.gate.empty())
      for (std::size_t i = 0; i < o.size(); ++i) o[i] *= f.gate[i];
    ys.push_back(cm.head_of(matvec(Wo, o)));
  }
  return ys;
}

LrnnLayer Folder::delta(const DeltaLayer& L) {
  for (const Conv* cv : {&L.cq, &L.ck, &L.cv}) refuse_window(cm, *cv);
  const auto fs = per_symbol([&](const std::vector<Vec>& xs) { return L.features(cm, xs); });
  if (!cm.input_norm.empty())
    out.notes.push_back(cm.input_norm_name + ": the input RMSNorm is per token: folded");
  Vec weight = L.c;  // per head output weights (before a gate)
  if (!L.o_norm.empty()) {
    norm_as_rescaling(cm.p("o_norm.weight"), L.H, "the output RMSNorm (o_norm)");
    for (std::size_t h = 0; h < L.H; ++h)
      for (std::size_t j = 0; j < L.dv; ++j) weight[h * L.dv + j] *= L.o_norm[j];
  }
  if (!cm.final_norm.empty()) norm_as_rescaling(cm.final_norm_name, 1, "the final RMSNorm");
  const bool gate = L.Wg.rows != 0;
  check_size(
      gate ? L.H * L.dk * L.dv : L.H * L.dk,
      gate ? "heads × dk × dv: the output gate keeps each head's whole state" : "heads × dk");
  const Rational c0 = q(cm.b, "readout_bias");
  const std::size_t S = fs.size();
  std::vector<Rational> alpha(S * L.H), beta(S * L.H);
  std::vector<Vector> ks(S * L.H);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t h = 0; h < L.H; ++h) {
      if (L.gated) alpha[s * L.H + h] = q(fs[s].alpha[h], "alpha");
      beta[s * L.H + h] = q(fs[s].beta[h], "beta");
      for (std::size_t i = 0; i < L.dk; ++i)
        ks[s * L.H + h].push_back(q(fs[s].k[h * L.dk + i], "k"));
    }
  if (L.gated)
    for (std::size_t i = 0; i < alpha.size(); ++i)
      if (!(alpha[i] > 0))
        cm.f.fail(cm.p("a_proj.weight"),
                  "the gate α of symbol '" + vocab.symbols[i / L.H] + "' rounds to 0 at " +
                      to_string(out.rounder.precision()) +
                      ": the gate must lie in (0, 1] (use a finer precision)");
  auto step_matrix = [&](std::size_t s, std::size_t h) {  // α(I − β k kᵀ)
    const Vector& k = ks[s * L.H + h];
    Matrix<Rational> A(L.dk, L.dk, Rational(0));
    const Rational a = L.gated ? alpha[s * L.H + h] : Rational(1);
    for (std::size_t i = 0; i < L.dk; ++i)
      for (std::size_t j = 0; j < L.dk; ++j)
        A(i, j) = a * (Rational(i == j ? 1 : 0) - beta[s * L.H + h] * k[i] * k[j]);
    return A;
  };
  if (!gate) {
    // y = Σ_h q_hᵀ S_h w_h: the state S_h w_h (dk) follows the same rule with v ↦ v·w_h.
    if (L.H == 1) {
      out.notes.push_back(
          "one head, no output gate: the readout is contracted into the state "
          "(S·w, m = 1): an exact " +
          to_string(cm.family) + " layer, d = dk = " + std::to_string(L.dk));
      LayerFrame frame;
      frame.d = L.dk;
      frame.features = S;
      frame.initial_state = Matrix<Rational>(L.dk, 1, Rational(0));
      frame.readout = Matrix<Rational>(1, L.dk, Rational(0));
      frame.readout_bias = Matrix<Rational>(1, 1, c0);
      std::vector<DeltaStep> steps;
      for (std::size_t s = 0; s < S; ++s) {
        Matrix<Rational> C(1, L.dk);
        for (std::size_t i = 0; i < L.dk; ++i) C(0, i) = q(fs[s].q[i], "readout");
        frame.readout_feature.push_back(C);
        DeltaStep st;
        if (L.gated) st.alpha = {alpha[s]};
        st.beta = beta[s];
        st.k = ks[s];
        st.v = {q(dot(fs[s].v, weight, 0, L.dv), "v")};
        steps.push_back(std::move(st));
      }
      const bool all_01 = std::all_of(beta.begin(), beta.end(), [&](const Rational& b) {
        return b > 0 && b <= (cm.neg_eigval ? 2 : 1);
      });
      const BetaRange range = !all_01         ? BetaRange::any
                              : cm.neg_eigval ? BetaRange::half_open_0_2
                                              : BetaRange::half_open_0_1;
      return make_delta(L.gated ? Family::gated_deltanet : Family::deltanet, std::move(frame),
                        std::move(steps), range);
    }
    out.notes.push_back(count_text(L.H, "head") +
                        ", no output gate: each head's readout is "
                        "contracted into its state (S_h·w_h); an exact general layer with "
                        "block-diagonal A, d = H·dk = " +
                        std::to_string(L.H * L.dk));
    std::vector<std::vector<Block>> blocks(S);
    for (std::size_t s = 0; s < S; ++s)
      for (std::size_t h = 0; h < L.H; ++h) {
        Block b{step_matrix(s, h), {}, {}};
        const Rational vw = q(dot(fs[s].v, weight, h * L.dv, L.dv), "v");
        for (std::size_t i = 0; i < L.dk; ++i) {
          b.B.push_back(beta[s * L.H + h] * ks[s * L.H + h][i] * vw);
          b.C.push_back(q(fs[s].q[h * L.dk + i], "readout"));
        }
        blocks[s].push_back(std::move(b));
      }
    return general_from_blocks(blocks, nullptr, c0);
  }
  // An output gate makes the readout weights per token: keep each head's whole state
  // S_h (dk×dv, entry (i, j) at i·dv + j), readout q_i·(w ⊙ g)_j.
  out.notes.push_back(cm.p("g_proj.weight") +
                      ": the output gate makes the readout weights "
                      "per token: each head's whole state is kept; an exact general layer "
                      "with block-diagonal A, d = H·dk·dv = " +
                      std::to_string(L.H * L.dk * L.dv));
  std::vector<std::vector<Block>> blocks(S);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t h = 0; h < L.H; ++h) {
      const Matrix<Rational> A = step_matrix(s, h);
      const std::size_t n = L.dk * L.dv;
      Block b{Matrix<Rational>(n, n, Rational(0)), {}, {}};
      Vector v;
      for (std::size_t j = 0; j < L.dv; ++j) v.push_back(q(fs[s].v[h * L.dv + j], "v"));
      for (std::size_t i = 0; i < L.dk; ++i)
        for (std::size_t j = 0; j < L.dv; ++j) {
          for (std::size_t i2 = 0; i2 < L.dk; ++i2) b.A(i * L.dv + j, i2 * L.dv + j) = A(i, i2);
          b.B.push_back(beta[s * L.H + h] * ks[s * L.H + h][i] * v[j]);
          const std::size_t o = h * L.dv + j;
          b.C.push_back(q(fs[s].q[h * L.dk + i] * weight[o] * fs[s].gate[o], "readout"));
        }
      blocks[s].push_back(std::move(b));
    }
  return general_from_blocks(blocks, nullptr, c0);
}

}  // namespace rnncc::weights_internal
