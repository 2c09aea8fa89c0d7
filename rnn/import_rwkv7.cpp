// RWKV-7 weights (fla): the float64 layer (per-token features, forward pass) and its fold into
// an exact layer (import_weights.hpp, docs/import.md).
#include <algorithm>
#include <cmath>

#include "algebra/error.hpp"
#include "rnn/families.hpp"
#include "rnn/import_weights_internal.hpp"

namespace rnncc::weights_internal {

Vec Lora::operator()(const Vec& x, double (*act)(double)) const {
  Vec h = matvec(A, x);
  if (act)
    for (double& e : h) e = act(e);
  Vec y = matvec(B, h);
  if (!bias.empty())
    for (std::size_t i = 0; i < y.size(); ++i) y[i] += bias[i];
  return y;
}

namespace {

double tanh_(double x) {
  return std::tanh(x);
}

}  // namespace

Lora RwkvLayer::lora(const Common& cm, const std::string& name, std::size_t out, bool required) {
  Lora l;
  const SafeTensor* a = required ? &cm.req(name + ".lora.0.weight", {any, cm.D})
                                 : cm.opt(name + ".lora.0.weight", {any, cm.D});
  if (!a) return l;
  l.present = true;
  l.A = fmat(*a);
  l.B = fmat(cm.req(name + ".lora.2.weight", {out, a->shape[0]}));
  if (auto* b = cm.opt(name + ".lora.2.bias", {out})) l.bias = b->values;
  return l;
}

RwkvLayer::RwkvLayer(const Common& cm) {
  const std::size_t D = cm.D;
  // fla's layers after the first mix v with the first layer's: v ← lerp(v, v_first,
  // sigmoid(v_lora x_v)); v_first is not in a one-layer file.
  if (cm.f.find(cm.p("v_lora.lora.0.weight")))
    cm.f.fail(cm.p("v_lora.lora.0.weight"),
              "the value residual (v ← lerp(v, v_first, sigmoid(v_lora x_v))) mixes in the first "
              "layer's v, which a one-layer import does not have: only a first layer (no v_lora) "
              "is imported");
  const SafeTensor& rk = cm.req("r_k", {any, any});
  H = rk.shape[0];
  dk = rk.shape[1];
  if (H == 0 || dk == 0) cm.f.fail(cm.p("r_k"), "expected shape [H, dk] with H, dk ≥ 1");
  r_k = rk.values;
  Wr = fmat(cm.req("r_proj.weight", {H * dk, D}));
  Wk = fmat(cm.req("k_proj.weight", {H * dk, D}));
  const SafeTensor& v = cm.req("v_proj.weight", {any, D});
  dv = per_head(cm, "v_proj.weight", v, H);
  Wv = fmat(v);
  Wo = fmat(cm.req("o_proj.weight", {D, H * dv}));
  k_k = cm.req("k_k", {H * dk}).values;
  k_a = cm.req("k_a", {H * dk}).values;
  wl = lora(cm, "w_lora", H * dk, true);
  al = lora(cm, "a_lora", H * dk, true);
  gl = lora(cm, "g_lora", H * dv, false);
  if (cm.opt("g_norm.weight", {H * dv})) g_norm = cm.opt("g_norm.weight", {H * dv})->values;
  // fla stores the token-shift mixes as [1, 1, D] (broadcast over batch and time); [D] is
  // the same vector.
  for (const char* n : {"x_r", "x_w", "x_k", "x_v", "x_a", "x_g"}) {
    const SafeTensor* t = cm.f.find(cm.p(n));
    if (t && t->shape.size() == 3)
      t = cm.opt(n, {1, 1, D});
    else
      t = cm.opt(n, {D});
    shift.push_back(t ? t->values : Vec(D, 0.0));
  }
  c = mat_t_vec(Wo, cm.u);
}

std::vector<Features> RwkvLayer::features(const std::vector<Vec>& xs) const {
  std::vector<Features> out(xs.size());
  for (std::size_t t = 0; t < xs.size(); ++t) {
    // x_c = x + (x_{t−1} − x) ⊙ mix_c, x_{−1} = 0.
    std::vector<Vec> mix;
    for (const Vec& m : shift) {
      Vec x = xs[t];
      for (std::size_t i = 0; i < x.size(); ++i)
        x[i] += ((t ? xs[t - 1][i] : 0.0) - xs[t][i]) * m[i];
      mix.push_back(std::move(x));
    }
    Features& f = out[t];
    f.r = matvec(Wr, mix[0]);
    f.k = matvec(Wk, mix[2]);
    f.v = matvec(Wv, mix[3]);
    f.w = wl(mix[1], tanh_);
    for (double& e : f.w) e = std::exp(-std::exp(-0.5) * sigmoid(e));
    f.aa = al(mix[4], nullptr);
    for (double& e : f.aa) e = sigmoid(e);
    f.kk = f.k;
    for (std::size_t i = 0; i < f.kk.size(); ++i) f.kk[i] *= k_k[i];
    for (std::size_t h = 0; h < H; ++h) l2norm(f.kk, h * dk, dk);
    for (std::size_t i = 0; i < f.k.size(); ++i) f.k[i] *= 1.0 + (f.aa[i] - 1.0) * k_a[i];
    f.bonus.assign(H, 0.0);
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t i = 0; i < dk; ++i)
        f.bonus[h] += f.r[h * dk + i] * f.k[h * dk + i] * r_k[h * dk + i];
    if (gl.present) f.gate = gl(mix[5], sigmoid);
  }
  return out;
}

std::vector<double> RwkvLayer::forward(const Common& cm, const std::vector<Vec>& xs) const {
  const auto fs = features(xs);
  std::vector<Vec> S(H, Vec(dv * dk, 0.0));  // dv × dk per head
  std::vector<double> ys;
  for (const Features& f : fs) {
    Vec o(H * dv, 0.0);
    for (std::size_t h = 0; h < H; ++h) {
      Vec& s = S[h];
      const std::size_t o0 = h * dk;
      Vec skk(dv, 0.0);  // S·kk
      for (std::size_t j = 0; j < dv; ++j)
        for (std::size_t i = 0; i < dk; ++i) skk[j] += s[j * dk + i] * f.kk[o0 + i];
      for (std::size_t j = 0; j < dv; ++j)
        for (std::size_t i = 0; i < dk; ++i)
          s[j * dk + i] = s[j * dk + i] * f.w[o0 + i] - skk[j] * f.kk[o0 + i] * f.aa[o0 + i] +
                          f.v[h * dv + j] * f.k[o0 + i];
      for (std::size_t j = 0; j < dv; ++j)
        for (std::size_t i = 0; i < dk; ++i) o[h * dv + j] += s[j * dk + i] * f.r[o0 + i];
    }
    if (!g_norm.empty()) {
      const double eps = cm.eps * double(dk);
      const Vec& beta = cm.opt("g_norm.bias", {H * dv}) ? cm.opt("g_norm.bias", {H * dv})->values
                                                        : Vec(H * dv, 0.0);
      for (std::size_t h = 0; h < H; ++h) {
        double mean = 0, var = 0;
        for (std::size_t j = 0; j < dv; ++j) mean += o[h * dv + j];
        mean /= double(dv);
        for (std::size_t j = 0; j < dv; ++j) var += (o[h * dv + j] - mean) * (o[h * dv + j] - mean);
        var /= double(dv);
        for (std::size_t j = 0; j < dv; ++j)
          o[h * dv + j] =
              (o[h * dv + j] - mean) / std::sqrt(var + eps) * g_norm[h * dv + j] + beta[h * dv + j];
      }
    }
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t j = 0; j < dv; ++j) o[h * dv + j] += f.bonus[h] * f.v[h * dv + j];
    if (!f.gate.empty())
      for (std::size_t i = 0; i < o.size(); ++i) o[i] *= f.gate[i];
    ys.push_back(cm.head_of(matvec(Wo, o)));
  }
  return ys;
}

LrnnLayer Folder::rwkv(const RwkvLayer& L) {
  static const char* shift_names[] = {"x_r", "x_w", "x_k", "x_v", "x_a", "x_g"};
  for (std::size_t c = 0; c < 6; ++c)
    for (double e : L.shift[c])
      if (e != 0)
        cm.f.fail(cm.p(shift_names[c]),
                  "a nonzero token shift mixes the previous token into the step "
                  "(x + (x_{t−1} − x)·mix): the step depends on two tokens, not on the current "
                  "one: it does not fold into a per-token map");
  if (!L.g_norm.empty())
    cm.f.fail(cm.p("g_norm.weight"),
              "GroupNorm of the output subtracts a state-dependent mean and divides by a "
              "state-dependent deviation: not a positive rescaling of y, it does not fold");
  const auto fs = per_symbol([&](const std::vector<Vec>& xs) { return L.features(xs); });
  if (!cm.input_norm.empty())
    out.notes.push_back(cm.input_norm_name + ": the input RMSNorm is per token: folded");
  if (!cm.final_norm.empty()) norm_as_rescaling(cm.final_norm_name, 1, "the final RMSNorm");
  const Rational c0 = q(cm.b, "readout_bias");
  const std::size_t S = fs.size(), H = L.H, dk = L.dk, dv = L.dv;
  const bool gate = L.gl.present;
  check_size(H * dk * (gate ? dv : 1) + 1,
             gate ? "heads × dk × dv + 1: the output gate keeps each head's whole state"
                  : "heads × dk + 1");
  // Tᵀ = S (dv×dk); T_t = (diag(w) − (kk⊙a) kkᵀ) T_{t−1} + k vᵀ, y = Σ_h rᵀ T (c⊙g) + bonus.
  std::vector<Vector> w(S * H), a(S * H), kk(S * H), k(S * H);
  std::vector<Rational> bias_term(S);
  for (std::size_t s = 0; s < S; ++s) {
    double bonus = 0;
    for (std::size_t h = 0; h < H; ++h) {
      for (std::size_t i = 0; i < dk; ++i) {
        const std::size_t o = h * dk + i;
        w[s * H + h].push_back(q(fs[s].w[o], "w"));
        a[s * H + h].push_back(q(fs[s].aa[o], "a"));
        kk[s * H + h].push_back(q(fs[s].kk[o], "kk"));
        k[s * H + h].push_back(q(fs[s].k[o], "k"));
      }
      for (std::size_t j = 0; j < dv; ++j)
        bonus += fs[s].bonus[h] * fs[s].v[h * dv + j] * L.c[h * dv + j] *
                 (gate ? fs[s].gate[h * dv + j] : 1.0);
    }
    bias_term[s] = q(bonus, "readout");
  }
  auto M = [&](std::size_t s, std::size_t h) {
    Matrix<Rational> A(dk, dk, Rational(0));
    for (std::size_t i = 0; i < dk; ++i)
      for (std::size_t j = 0; j < dk; ++j)
        A(i, j) = (i == j ? w[s * H + h][i] : Rational(0)) -
                  kk[s * H + h][i] * a[s * H + h][i] * kk[s * H + h][j];
    return A;
  };
  if (!gate && H == 1) {
    out.notes.push_back(
        "one head, no output gate: the readout is contracted into the state "
        "(Sᵀ·w, m = 1); the bonus term is per token: one more coordinate, "
        "constant 1, carries it; an exact rwkv7 layer, d = dk + 1 = " +
        std::to_string(dk + 1));
    LayerFrame frame;
    frame.d = dk + 1;
    frame.features = S;
    frame.initial_state = Matrix<Rational>(dk + 1, 1, Rational(0));
    frame.readout = Matrix<Rational>(1, dk + 1, Rational(0));
    frame.readout_bias = Matrix<Rational>(1, 1, c0);
    std::vector<Rwkv7Step> steps;
    for (std::size_t s = 0; s < S; ++s) {
      Rwkv7Step st{w[s], {}, kk[s], Matrix<Rational>(dk + 1, 1, Rational(0))};
      Matrix<Rational> C(1, dk + 1, Rational(0));
      const Rational vw = q(dot(fs[s].v, L.c), "v");
      for (std::size_t i = 0; i < dk; ++i) {
        st.a.push_back(-kk[s][i] * a[s][i]);
        st.B(i, 0) = k[s][i] * vw;
        C(0, i) = q(fs[s].r[i], "readout");
      }
      st.w.push_back(Rational(0));
      st.a.push_back(Rational(0));
      st.b.push_back(Rational(0));
      st.B(dk, 0) = Rational(1);
      C(0, dk) = bias_term[s];
      frame.readout_feature.push_back(std::move(C));
      steps.push_back(std::move(st));
    }
    return make_rwkv7(std::move(frame), std::move(steps));
  }
  out.notes.push_back(
      (gate ? cm.p("g_lora") + ": the output gate makes the readout weights per token: each "
                               "head's whole state is kept"
            : count_text(H, "head") + ": each head's readout is contracted into its state") +
      "; the bonus term is per token: one more coordinate, constant 1, carries it; an exact "
      "general layer with block-diagonal A, d = " +
      std::to_string(H * dk * (gate ? dv : 1) + 1));
  std::vector<std::vector<Block>> blocks(S);
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t h = 0; h < H; ++h) {
      const Matrix<Rational> A = M(s, h);
      if (!gate) {
        Block b{A, {}, {}};
        const Rational vw = q(dot(fs[s].v, L.c, h * dv, dv), "v");
        for (std::size_t i = 0; i < dk; ++i) {
          b.B.push_back(k[s * H + h][i] * vw);
          b.C.push_back(q(fs[s].r[h * dk + i], "readout"));
        }
        blocks[s].push_back(std::move(b));
        continue;
      }
      const std::size_t n = dk * dv;
      Block b{Matrix<Rational>(n, n, Rational(0)), {}, {}};
      Vector v;
      for (std::size_t j = 0; j < dv; ++j) v.push_back(q(fs[s].v[h * dv + j], "v"));
      for (std::size_t i = 0; i < dk; ++i)
        for (std::size_t j = 0; j < dv; ++j) {
          for (std::size_t i2 = 0; i2 < dk; ++i2) b.A(i * dv + j, i2 * dv + j) = A(i, i2);
          b.B.push_back(k[s * H + h][i] * v[j]);
          const std::size_t o = h * dv + j;
          b.C.push_back(q(fs[s].r[h * dk + i] * L.c[o] * fs[s].gate[o], "readout"));
        }
      blocks[s].push_back(std::move(b));
    }
  return general_from_blocks(blocks, &bias_term, c0);
}

}  // namespace rnncc::weights_internal
