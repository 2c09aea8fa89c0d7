#include "rnn/import_weights.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/suggest.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/import_arrays.hpp"
#include "rnn/model_json.hpp"

namespace rnncc {

namespace {

using Vec = std::vector<double>;
constexpr std::size_t any = SafeTensorsFile::any_dim;

// ---- float64 linear algebra -------------------------------------------------------------------

struct FMat {
  std::size_t rows = 0, cols = 0;
  Vec v;
  double operator()(std::size_t i, std::size_t j) const { return v[i * cols + j]; }
};

FMat fmat(const SafeTensor& t) {
  return {t.shape[0], t.numel() / std::max<std::size_t>(t.shape[0], 1), t.values};
}

Vec matvec(const FMat& W, const Vec& x) {
  Vec y(W.rows, 0.0);
  for (std::size_t i = 0; i < W.rows; ++i)
    for (std::size_t j = 0; j < W.cols; ++j) y[i] += W(i, j) * x[j];
  return y;
}

Vec mat_t_vec(const FMat& W, const Vec& u) {  // Wᵀu
  Vec y(W.cols, 0.0);
  for (std::size_t i = 0; i < W.rows; ++i)
    for (std::size_t j = 0; j < W.cols; ++j) y[j] += W(i, j) * u[i];
  return y;
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
double silu(double x) {
  return x * sigmoid(x);
}
double softplus(double x) {  // log(1 + e^x), as numpy's logaddexp(0, x)
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}
double dot(const Vec& a, const Vec& b, std::size_t from = 0, std::size_t n = SIZE_MAX) {
  double s = 0;
  for (std::size_t i = from; i < std::min(a.size(), from + n); ++i) s += a[i] * b[i];
  return s;
}
// x / sqrt(mean(x²) + eps) ⊙ w over [from, from + n).
void rmsnorm(Vec& x, const Vec& w, double eps, std::size_t from, std::size_t n) {
  double ms = 0;
  for (std::size_t i = from; i < from + n; ++i) ms += x[i] * x[i];
  const double scale = 1.0 / std::sqrt(ms / double(n) + eps);
  for (std::size_t i = from; i < from + n; ++i)
    x[i] *= scale * w[i - from + (w.size() > n ? from : 0)];
}
// x / ‖x‖ over [from, from + n) (fla's l2norm; eps 1e-6 there is below float64 noise here).
void l2norm(Vec& x, std::size_t from, std::size_t n) {
  double s = 0;
  for (std::size_t i = from; i < from + n; ++i) s += x[i] * x[i];
  const double inv = 1.0 / std::sqrt(s);
  for (std::size_t i = from; i < from + n; ++i) x[i] *= inv;
}

// ---- the parts every family shares: names, embedding, input norm, head ------------------------

struct Common {
  const SafeTensorsFile& f;
  WeightsFamily family;
  std::string prefix;  // "model.layers.0.attn." / "backbone.layers.0.mixer."
  FMat E;
  std::size_t D = 0;
  Vec input_norm, final_norm;  // empty when absent
  std::string input_norm_name, final_norm_name;
  double eps = 1e-5;
  Vec u;         // the head's row (w_1 − w_0 for two rows)
  double b = 0;  // the head's bias
  bool neg_eigval = false;
  // fla's DeltaNet and GatedDeltaNet apply silu to v (inside v_conv1d, or after v_proj without
  // the short convolution): v = silu(v_proj x) unless __metadata__ v_activation = "identity".
  bool v_silu = true;

  Common(const SafeTensorsFile& file, WeightsFamily fam, const WeightsOptions& o)
      : f(file), family(fam) {
    const bool mamba = fam == WeightsFamily::mamba2;
    const std::string layer = std::to_string(o.layer);
    prefix = mamba ? "backbone.layers." + layer + ".mixer." : "model.layers." + layer + ".attn.";
    const std::string emb = mamba ? "backbone.embedding.weight" : "model.embeddings.weight";
    E = fmat(f.require(emb, {any, any}));
    D = E.cols;
    input_norm_name = mamba ? "backbone.layers." + layer + ".norm.weight"
                            : "model.layers." + layer + ".attn_norm.weight";
    final_norm_name = mamba ? "backbone.norm_f.weight" : "model.norm.weight";
    if (auto* t = f.optional(input_norm_name, {D})) input_norm = t->values;
    if (auto* t = f.optional(final_norm_name, {D})) final_norm = t->values;
    if (auto it = f.metadata.find("norm_eps"); it != f.metadata.end()) {
      try {
        eps = std::stod(it->second);
      } catch (const std::exception&) {
        throw InputError(f.source, "header: __metadata__: norm_eps: expected a number, got \"" +
                                       it->second + "\"");
      }
    }
    const SafeTensor& head = f.require("lm_head.weight", {any, D});
    if (head.shape[0] != 1 && head.shape[0] != 2)
      f.fail("lm_head.weight", "expected shape [1, " + std::to_string(D) + "] or [2, " +
                                   std::to_string(D) + "], got " + shape_text(head.shape));
    const std::size_t rows = head.shape[0];
    u.assign(head.values.end() - static_cast<std::ptrdiff_t>(D), head.values.end());
    if (rows == 2)
      for (std::size_t i = 0; i < D; ++i) u[i] -= head.values[i];
    if (auto* hb = f.optional("lm_head.bias", {rows}))
      b = rows == 2 ? hb->values[1] - hb->values[0] : hb->values[0];
    if (o.allow_neg_eigval) {
      neg_eigval = *o.allow_neg_eigval;
    } else if (auto it = f.metadata.find("allow_neg_eigval"); it != f.metadata.end()) {
      neg_eigval = it->second == "true" || it->second == "1" || it->second == "True";
    }
    if (auto it = f.metadata.find("v_activation"); it != f.metadata.end()) {
      if (it->second == "silu")
        v_silu = true;
      else if (it->second == "identity")
        v_silu = false;
      else
        throw InputError(f.source,
                         "header: __metadata__: v_activation: expected \"silu\" (fla's default) "
                         "or \"identity\", got \"" +
                             it->second + "\"");
    }
  }
  std::string p(const std::string& name) const { return prefix + name; }
  const SafeTensor& req(const std::string& name, const std::vector<std::size_t>& shape) const {
    return f.require(p(name), shape);
  }
  const SafeTensor* opt(const std::string& name, const std::vector<std::size_t>& shape) const {
    return f.optional(p(name), shape);
  }
  // x_t = E[token] (after the input RMSNorm when there is one).
  Vec embed(std::size_t token) const {
    Vec x(E.v.begin() + static_cast<std::ptrdiff_t>(token * D),
          E.v.begin() + static_cast<std::ptrdiff_t>((token + 1) * D));
    if (!input_norm.empty()) rmsnorm(x, input_norm, eps, 0, D);
    return x;
  }
  double head_of(Vec out) const {
    if (!final_norm.empty()) rmsnorm(out, final_norm, eps, 0, D);
    return dot(u, out) + b;
  }
};

// A depthwise causal convolution (torch Conv1d, groups = C, padding K − 1): out_t[c] =
// Σ_j w[c, 0, j]·seq_{t−K+1+j}[c] (+ bias[c]); the identity when absent.
struct Conv {
  const SafeTensor* w = nullptr;
  const SafeTensor* bias = nullptr;
  std::string name;
  std::size_t width() const { return w ? w->shape[2] : 1; }
  std::vector<Vec> apply(const std::vector<Vec>& seq) const {
    if (!w) return seq;
    const std::size_t K = width(), C = w->shape[0];
    std::vector<Vec> out(seq.size(), Vec(C, 0.0));
    for (std::size_t t = 0; t < seq.size(); ++t)
      for (std::size_t c = 0; c < C; ++c) {
        double s = bias ? bias->values[c] : 0.0;
        for (std::size_t j = 0; j < K; ++j)
          if (t + j + 1 >= K) s += w->values[c * K + j] * seq[t + j + 1 - K][c];
        out[t][c] = s;
      }
    return out;
  }
};

Conv read_conv(const Common& c, const std::string& name, std::size_t channels) {
  Conv conv;
  conv.name = c.p(name + ".weight");
  conv.w = c.opt(name + ".weight", {channels, 1, any});
  if (conv.w) conv.bias = c.opt(name + ".bias", {channels});
  return conv;
}

void refuse_window(const Common& c, const Conv& conv) {
  if (conv.width() > 1)
    c.f.fail(conv.name, "a short convolution of width K = " + std::to_string(conv.width()) +
                            " makes each step depend on the last " + std::to_string(conv.width()) +
                            " tokens, not on the current one: it does not fold into a per-token "
                            "map over the vocabulary (width 1 does)");
}

// Rows of W·x for every position.
std::vector<Vec> project(const FMat& W, const std::vector<Vec>& xs) {
  std::vector<Vec> out;
  for (const Vec& x : xs) out.push_back(matvec(W, x));
  return out;
}

// Checks a [H·n, D] projection and returns n.
std::size_t per_head(const Common& c, const std::string& name, const SafeTensor& t, std::size_t H) {
  if (t.shape[0] % H != 0 || t.shape[0] == 0)
    c.f.fail(c.p(name), "expected shape [" + std::to_string(H) + "·n, " + std::to_string(c.D) +
                            "] (H = " + std::to_string(H) + " heads), got " + shape_text(t.shape));
  return t.shape[0] / H;
}

// ---- the families' per-token features and their recurrences -----------------------------------

// Per position: everything the step and the readout need, per head concatenated.
struct Features {
  Vec q, k, v, beta, alpha, gate;  // delta: q,k (H·dk), v (H·dv), β, α (H), gate (H·dv or empty)
  Vec z, xs, B, C, dt, a;          // mamba2
  Vec r, w, kk, aa, bonus;         // rwkv7: r, k (H·dk), w, kk, a (H·dk), bonus per head
};

struct DeltaLayer {
  std::size_t H, dk, dv;
  FMat Wq, Wk, Wv, Wb, Wo, Wg, Wa;
  Vec A_log, dt_bias, o_norm;
  Conv cq, ck, cv;
  bool gated;
  Vec c;  // Wₒᵀu: the head's weights on the concatenated head outputs

  DeltaLayer(const Common& cm, bool gated_) : gated(gated_) {
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

  std::vector<Features> features(const Common& cm, const std::vector<Vec>& xs) const {
    auto q = cq.apply(project(Wq, xs)), k = ck.apply(project(Wk, xs)),
         v = cv.apply(project(Wv, xs));
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

  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const {
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
};

struct MambaLayer {
  std::size_t H, P, N, G, d_inner;
  FMat Win, Wout;
  Vec in_bias, dt_bias, A_log, norm;
  Vec Dskip;  // per channel (d_inner)
  Conv conv;
  Vec c;  // Wₒᵀu

  explicit MambaLayer(const Common& cm) {
    const std::size_t D = cm.D;
    A_log = cm.req("A_log", {any}).values;
    H = A_log.size();
    if (H == 0) cm.f.fail(cm.p("A_log"), "expected shape [H] with H ≥ 1, got [0]");
    const SafeTensor& out = cm.req("out_proj.weight", {D, any});
    d_inner = out.shape[1];
    if (d_inner % H != 0 || d_inner == 0)
      cm.f.fail(cm.p("out_proj.weight"), "expected shape [" + std::to_string(D) +
                                             ", H·headdim] (H = " + std::to_string(H) +
                                             " from A_log), got " + shape_text(out.shape));
    P = d_inner / H;
    Wout = fmat(out);
    G = 1;
    if (auto it = cm.f.metadata.find("ngroups"); it != cm.f.metadata.end()) {
      try {
        G = std::stoul(it->second);
      } catch (const std::exception&) {
        G = 0;
      }
      if (G == 0 || H % G != 0)
        throw InputError(cm.f.source, "header: __metadata__: ngroups: expected a divisor of H = " +
                                          std::to_string(H) + ", got \"" + it->second + "\"");
    }
    const SafeTensor& in = cm.req("in_proj.weight", {any, D});
    const std::size_t rest = in.shape[0] >= 2 * d_inner + H ? in.shape[0] - 2 * d_inner - H : 0;
    if (in.shape[0] < 2 * d_inner + H + 2 * G || rest % (2 * G) != 0)
      cm.f.fail(cm.p("in_proj.weight"), "expected shape [2·" + std::to_string(d_inner) + " + 2·" +
                                            std::to_string(G) + "·N + " + std::to_string(H) + ", " +
                                            std::to_string(D) + "] (z, x, B, C, dt), got " +
                                            shape_text(in.shape));
    N = rest / (2 * G);
    Win = fmat(in);
    if (auto* b = cm.opt("in_proj.bias", {Win.rows})) in_bias = b->values;
    conv = read_conv(cm, "conv1d", d_inner + 2 * G * N);
    dt_bias = cm.req("dt_bias", {H}).values;
    // The skip D·x per channel: D is [H] (one per head), or [d_inner] with mamba_ssm's
    // D_has_hdim.
    Dskip.assign(d_inner, 0.0);
    const SafeTensor* d = cm.f.find(cm.p("D"));
    if (d && d->shape.size() == 1 && d->shape[0] == d_inner && d_inner != H)
      Dskip = d->values;
    else if ((d = cm.opt("D", {H})))
      for (std::size_t i = 0; i < d_inner; ++i) Dskip[i] = d->values[i / (d_inner / H)];
    if (auto* n = cm.opt("norm.weight", {d_inner})) norm = n->values;
    c = mat_t_vec(Wout, cm.u);
  }

  std::vector<Features> features(const std::vector<Vec>& xs) const {
    std::vector<Vec> zx = project(Win, xs);
    std::vector<Vec> xbc;
    for (Vec& r : zx) {
      if (!in_bias.empty())
        for (std::size_t i = 0; i < r.size(); ++i) r[i] += in_bias[i];
      xbc.emplace_back(r.begin() + static_cast<std::ptrdiff_t>(d_inner),
                       r.begin() + static_cast<std::ptrdiff_t>(2 * d_inner + 2 * G * N));
    }
    xbc = conv.apply(xbc);
    std::vector<Features> out(xs.size());
    for (std::size_t t = 0; t < xs.size(); ++t) {
      Features& f = out[t];
      for (double& e : xbc[t]) e = silu(e);
      f.z.assign(zx[t].begin(), zx[t].begin() + static_cast<std::ptrdiff_t>(d_inner));
      f.xs.assign(xbc[t].begin(), xbc[t].begin() + static_cast<std::ptrdiff_t>(d_inner));
      f.B.assign(xbc[t].begin() + static_cast<std::ptrdiff_t>(d_inner),
                 xbc[t].begin() + static_cast<std::ptrdiff_t>(d_inner + G * N));
      f.C.assign(xbc[t].begin() + static_cast<std::ptrdiff_t>(d_inner + G * N), xbc[t].end());
      f.dt.resize(H);
      f.a.resize(H);
      for (std::size_t h = 0; h < H; ++h) {
        f.dt[h] = softplus(zx[t][2 * d_inner + 2 * G * N + h] + dt_bias[h]);
        f.a[h] = std::exp(-f.dt[h] * std::exp(A_log[h]));
      }
    }
    return out;
  }

  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const {
    const auto fs = features(xs);
    std::vector<Vec> S(H, Vec(P * N, 0.0));
    std::vector<double> ys;
    for (const Features& f : fs) {
      Vec y(d_inner, 0.0);
      for (std::size_t h = 0; h < H; ++h) {
        const std::size_t g = h / (H / G);
        for (std::size_t p = 0; p < P; ++p) {
          double acc = 0;
          for (std::size_t n = 0; n < N; ++n) {
            double& s = S[h][p * N + n];
            s = f.a[h] * s + f.dt[h] * f.xs[h * P + p] * f.B[g * N + n];
            acc += s * f.C[g * N + n];
          }
          y[h * P + p] = acc + Dskip[h * P + p] * f.xs[h * P + p];
        }
      }
      for (std::size_t i = 0; i < d_inner; ++i) y[i] *= silu(f.z[i]);
      if (!norm.empty())
        for (std::size_t g = 0; g < G; ++g)
          rmsnorm(y, norm, cm.eps, g * (d_inner / G), d_inner / G);
      ys.push_back(cm.head_of(matvec(Wout, y)));
    }
    return ys;
  }
};

struct Lora {
  FMat A, B;
  Vec bias;
  bool present = false;
  Vec operator()(const Vec& x, double (*act)(double)) const {
    Vec h = matvec(A, x);
    if (act)
      for (double& e : h) e = act(e);
    Vec y = matvec(B, h);
    if (!bias.empty())
      for (std::size_t i = 0; i < y.size(); ++i) y[i] += bias[i];
    return y;
  }
};

double tanh_(double x) {
  return std::tanh(x);
}

struct RwkvLayer {
  std::size_t H, dk, dv;
  FMat Wr, Wk, Wv, Wo;
  Lora wl, al, gl;
  Vec k_k, k_a, r_k, g_norm;
  std::vector<Vec> shift;  // x_r x_w x_k x_v x_a x_g
  Vec c;

  Lora lora(const Common& cm, const std::string& name, std::size_t out, bool required) {
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

  explicit RwkvLayer(const Common& cm) {
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

  std::vector<Features> features(const std::vector<Vec>& xs) const {
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

  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const {
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
          for (std::size_t j = 0; j < dv; ++j)
            var += (o[h * dv + j] - mean) * (o[h * dv + j] - mean);
          var /= double(dv);
          for (std::size_t j = 0; j < dv; ++j)
            o[h * dv + j] = (o[h * dv + j] - mean) / std::sqrt(var + eps) * g_norm[h * dv + j] +
                            beta[h * dv + j];
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
};

std::vector<Vec> embed_all(const Common& cm, const std::vector<std::size_t>& tokens) {
  std::vector<Vec> xs;
  for (std::size_t t : tokens) {
    if (t >= cm.E.rows)
      throw InputError("--vocab", "token id " + std::to_string(t) + " is outside the embedding's " +
                                      std::to_string(cm.E.rows) + " rows");
    xs.push_back(cm.embed(t));
  }
  return xs;
}

// ---- folding ------------------------------------------------------------------------------------

// One head's exact step on its block of the state, for one symbol, and its readout row.
struct Block {
  Matrix<Rational> A;  // n×n
  Vector B, C;         // n
};

// Assembles blocks (block-diagonal A) and an optional bias coordinate (A row 0, B 1: its state
// is 1 after every step, so its readout entry is a per-token additive term) into a general layer.
LrnnLayer general_from_blocks(const std::vector<std::vector<Block>>& per_symbol,
                              const std::vector<Rational>* bias_term, const Rational& c0) {
  const std::size_t S = per_symbol.size();
  std::size_t d = 0;
  for (const Block& b : per_symbol[0]) d += b.B.size();
  const std::size_t total = d + (bias_term ? 1 : 0);
  LayerFrame frame;
  frame.d = total;
  frame.m = 1;
  frame.features = S;
  frame.initial_state = Matrix<Rational>(total, 1, Rational(0));
  frame.readout = Matrix<Rational>(1, total, Rational(0));
  frame.readout_bias = Matrix<Rational>(1, 1, c0);
  std::vector<AffineStep> steps;
  for (std::size_t s = 0; s < S; ++s) {
    AffineStep st{Matrix<Rational>(total, total, Rational(0)),
                  Matrix<Rational>(total, 1, Rational(0))};
    Matrix<Rational> C(1, total, Rational(0));
    std::size_t at = 0;
    for (const Block& b : per_symbol[s]) {
      const std::size_t n = b.B.size();
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) st.A(at + i, at + j) = b.A(i, j);
        st.B(at + i, 0) = b.B[i];
        C(0, at + i) = b.C[i];
      }
      at += n;
    }
    if (bias_term) {
      st.B(d, 0) = Rational(1);
      C(0, d) = (*bias_term)[s];
    }
    frame.readout_feature.push_back(std::move(C));
    steps.push_back(std::move(st));
  }
  return make_general(std::move(frame), std::move(steps));
}

std::string count_text(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

struct Folder {
  const Common& cm;
  const Vocab& vocab;
  WeightsImport& out;
  Rational q(double x, const std::string& group) {
    return out.rounder(x, group,
                       cm.f.source + ": a value derived from the weights (" + group + ")");
  }

  // The model file limit (rnn/model_json.hpp), checked before any d×d matrix is built.
  void check_size(std::size_t d, const std::string& why) const {
    const std::size_t S = vocab.symbols.size();
    const double entries = double(S) * (double(d) * double(d) + double(d)) + double(d);
    if (entries > double(model_layer_entry_limit))
      throw InputError(cm.f.source,
                       "the exact model would be a layer of dimension d = " + std::to_string(d) +
                           " (" + why + "), |Σ|·(d² + d) + d ≈ " +
                           std::to_string(static_cast<unsigned long long>(entries)) +
                           " entries, more than the " + std::to_string(model_layer_entry_limit) +
                           " a model file may hold");
  }

  // One norm of the output: folds only as a positive rescaling (one group, no head bias).
  void norm_as_rescaling(const std::string& tensor, std::size_t groups, const std::string& what) {
    if (groups > 1)
      cm.f.fail(tensor, what + " divides each of " + std::to_string(groups) +
                            " groups of the output by its own state-dependent norm: it does not "
                            "fold (with one group it would be a positive rescaling of y)");
    if (cm.b != 0)
      cm.f.fail(tensor, what +
                            " divides the output by a state-dependent norm; with a head bias "
                            "(lm_head.bias) it does not fold, not even the acceptance");
    out.values_exact = false;
    out.notes.push_back(tensor + ": " + what +
                        " divides the output by a positive state-dependent number; with one "
                        "group and no head bias the sign of y — the acceptance — is unchanged, "
                        "so it folds exactly into the acceptance (its weight into the readout) "
                        "while the values of y differ");
  }

  std::vector<Features> per_symbol(
      const std::function<std::vector<Features>(const std::vector<Vec>&)>& feat) {
    std::vector<Features> fs;
    for (std::size_t id : vocab.token_ids) fs.push_back(feat(embed_all(cm, {id}))[0]);
    return fs;
  }

  LrnnLayer delta(const DeltaLayer& L) {
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

  LrnnLayer mamba(const MambaLayer& L) {
    refuse_window(cm, L.conv);
    const auto fs = per_symbol([&](const std::vector<Vec>& xs) { return L.features(xs); });
    if (!cm.input_norm.empty())
      out.notes.push_back(cm.input_norm_name + ": the input RMSNorm is per token: folded");
    Vec weight = L.c;
    if (!L.norm.empty()) {
      norm_as_rescaling(cm.p("norm.weight"), L.G, "the gated RMSNorm (norm)");
      for (std::size_t i = 0; i < L.d_inner; ++i) weight[i] *= L.norm[i];
    }
    if (!cm.final_norm.empty()) norm_as_rescaling(cm.final_norm_name, 1, "the final RMSNorm");
    const Rational c0 = q(cm.b, "readout_bias");
    const bool skip = std::any_of(L.Dskip.begin(), L.Dskip.end(), [](double x) { return x != 0; });
    const std::size_t n = L.H * L.P * L.N + (skip ? 1 : 0);
    check_size(n, "heads × headdim × N: silu(z) keeps each head's whole state");
    const std::size_t S = fs.size();
    const bool scalar = L.H == 1 && !skip;
    out.notes.push_back(
        "the readout weights silu(z) are per token: each head's whole state (headdim × N) is "
        "kept" +
        std::string(skip ? "; the skip term D·x is per token: one more coordinate, constant 1, "
                           "carries it"
                         : "") +
        "; an exact " + (scalar ? "mamba2 layer (one head: one decay)" : "diagonal layer") +
        ", d = " + std::to_string(n));
    LayerFrame frame;
    frame.d = n;
    frame.features = S;
    frame.initial_state = Matrix<Rational>(n, 1, Rational(0));
    frame.readout = Matrix<Rational>(1, n, Rational(0));
    frame.readout_bias = Matrix<Rational>(1, 1, c0);
    std::vector<DecayStep> steps;
    for (std::size_t s = 0; s < S; ++s) {
      const Features& f = fs[s];
      DecayStep st{{}, Matrix<Rational>(n, 1, Rational(0))};
      Matrix<Rational> C(1, n, Rational(0));
      std::vector<Rational> decay;
      for (std::size_t h = 0; h < L.H; ++h) decay.push_back(q(f.a[h], "decay"));
      double skip_term = 0;
      for (std::size_t h = 0; h < L.H; ++h) {
        const std::size_t g = h / (L.H / L.G);
        for (std::size_t p = 0; p < L.P; ++p) {
          const std::size_t o = h * L.P + p;
          const double w = weight[o] * silu(f.z[o]);
          skip_term += w * L.Dskip[o] * f.xs[o];
          for (std::size_t k = 0; k < L.N; ++k) {
            const std::size_t at = o * L.N + k;
            if (!scalar) st.decay.push_back(decay[h]);
            st.B(at, 0) = q(f.dt[h] * f.xs[o] * f.B[g * L.N + k], "B");
            C(0, at) = q(w * f.C[g * L.N + k], "readout");
          }
        }
      }
      if (skip) {
        st.decay.push_back(Rational(0));
        st.B(n - 1, 0) = Rational(1);
        C(0, n - 1) = q(skip_term, "readout");
      }
      if (scalar) st.decay = {decay[0]};
      frame.readout_feature.push_back(std::move(C));
      steps.push_back(std::move(st));
    }
    return make_diagonal(scalar ? Family::mamba2 : Family::diagonal, std::move(frame),
                         std::move(steps));
  }

  LrnnLayer rwkv(const RwkvLayer& L) {
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
};

std::vector<double> forward_with(const Common& cm, WeightsFamily family,
                                 const std::vector<Vec>& xs) {
  switch (family) {
    case WeightsFamily::deltanet:
    case WeightsFamily::gated_deltanet:
      return DeltaLayer(cm, family == WeightsFamily::gated_deltanet).forward(cm, xs);
    case WeightsFamily::mamba2:
      return MambaLayer(cm).forward(cm, xs);
    case WeightsFamily::rwkv7:
      return RwkvLayer(cm).forward(cm, xs);
  }
  return {};
}

std::string g3(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

}  // namespace

std::optional<WeightsFamily> parse_weights_family(std::string_view name) {
  if (name == "deltanet") return WeightsFamily::deltanet;
  if (name == "gated_deltanet" || name == "gdn") return WeightsFamily::gated_deltanet;
  if (name == "mamba2") return WeightsFamily::mamba2;
  if (name == "rwkv7") return WeightsFamily::rwkv7;
  return std::nullopt;
}

WeightsFamily weights_family(std::string_view name, const std::string& where) {
  if (const auto f = parse_weights_family(name)) return *f;
  throw InputError(
      where, with_suggestion("'" + std::string(name) +
                                 "': expected deltanet, gated_deltanet (gdn), mamba2 or rwkv7",
                             name, {"deltanet", "gated_deltanet", "gdn", "mamba2", "rwkv7"}));
}

std::string to_string(WeightsFamily f) {
  switch (f) {
    case WeightsFamily::deltanet:
      return "deltanet";
    case WeightsFamily::gated_deltanet:
      return "gated_deltanet";
    case WeightsFamily::mamba2:
      return "mamba2";
    case WeightsFamily::rwkv7:
      return "rwkv7";
  }
  return "?";
}

Vocab parse_vocab(std::string_view text, const std::string& flag) {
  Vocab v;
  std::size_t next = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    std::string sym(item);
    std::size_t id = next;
    if (auto eq = item.find('='); eq != std::string_view::npos) {
      sym = std::string(item.substr(0, eq));
      const std::string digits(item.substr(eq + 1));
      if (digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(flag,
                         "'" + std::string(item) +
                             "': expected SYMBOL or SYMBOL=TOKEN_ID (a row of the embedding)");
      id = std::stoul(digits);
    }
    v.symbols.push_back(sym);
    v.token_ids.push_back(id);
    next = id + 1;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  static_cast<void>(Alphabet(v.symbols, flag));  // empty, repeated or malformed symbols
  return v;
}

LrnnLayer with_constant_readout(const LrnnLayer& l) {
  if (l.readout_feature.empty()) return l;
  if (l.m != 1 || l.readout.rows() != 1)
    throw std::logic_error("with_constant_readout: one output row and m = 1 only");
  const std::size_t d = l.d, n = d + 1;
  LayerFrame frame;
  frame.d = n;
  frame.features = l.features;
  frame.initial_state = Matrix<Rational>(n, 1, Rational(0));
  for (std::size_t i = 0; i < d; ++i) frame.initial_state(i, 0) = l.initial_state(i, 0);
  frame.readout = Matrix<Rational>(1, n, Rational(0));
  frame.readout(0, d) = Rational(1);
  frame.readout_bias = l.readout_bias;
  std::vector<AffineStep> steps;
  for (std::size_t k = 0; k < l.features; ++k) {
    AffineStep st{Matrix<Rational>(n, n, Rational(0)), Matrix<Rational>(n, 1, Rational(0))};
    std::vector<Rational> c(d);
    for (std::size_t j = 0; j < d; ++j) c[j] = l.readout(0, j) + l.readout_feature[k](0, j);
    for (std::size_t i = 0; i < d; ++i) {
      for (std::size_t j = 0; j < d; ++j) st.A(i, j) = l.A[k](i, j);
      st.B(i, 0) = l.B[k](i, 0);
    }
    for (std::size_t j = 0; j < d; ++j) {
      Rational ca = 0;
      for (std::size_t i = 0; i < d; ++i) ca += c[i] * l.A[k](i, j);
      st.A(d, j) = ca;  // (C_k A_k)_j
    }
    Rational cb = 0;
    for (std::size_t i = 0; i < d; ++i) cb += c[i] * l.B[k](i, 0);
    st.B(d, 0) = cb;  // C_k B_k
    steps.push_back(std::move(st));
  }
  return make_general(std::move(frame), std::move(steps));
}

std::vector<double> reference_forward(const SafeTensorsFile& file, WeightsFamily family,
                                      const std::vector<std::size_t>& tokens,
                                      const WeightsOptions& options) {
  const Common cm(file, family, options);
  return forward_with(cm, family, embed_all(cm, tokens));
}

WeightsImport import_weights(const SafeTensorsFile& file, WeightsFamily family, const Vocab& vocab,
                             const FloatPrecision& precision, const WeightsOptions& options) {
  const Common cm(file, family, options);
  for (std::size_t id : vocab.token_ids)
    if (id >= cm.E.rows)
      throw InputError("--vocab", "token id " + std::to_string(id) + " is outside the " +
                                      std::to_string(cm.E.rows) + " rows of the embedding");
  WeightsImport res{Model{}, ParamRounder(precision), {}, true, {}};
  Folder folder{cm, vocab, res};
  LrnnLayer layer;
  try {
    switch (family) {
      case WeightsFamily::deltanet:
      case WeightsFamily::gated_deltanet:
        layer = folder.delta(DeltaLayer(cm, family == WeightsFamily::gated_deltanet));
        break;
      case WeightsFamily::mamba2:
        layer = folder.mamba(MambaLayer(cm));
        break;
      case WeightsFamily::rwkv7:
        layer = folder.rwkv(RwkvLayer(cm));
        break;
    }
  } catch (const ParamError& e) {  // a folded parameter the family builder refuses
    throw InputError(file.source, "the folded " + to_string(family) + " layer: " +
                                      (e.feature() == ParamError::layer_level
                                           ? ""
                                           : "symbol '" + vocab.symbols[e.feature()] + "': ") +
                                      e.field() + ": " + e.what());
  }
  if (options.constant_readout && !layer.readout_feature.empty()) {
    layer = with_constant_readout(layer);
    res.notes.push_back(
        "--constant-readout: the per-token readout C_w·S_t is kept as one more "
        "state coordinate, (C_w A_w)·S_{t−1} + C_w B_w: a general layer, d = " +
        std::to_string(layer.d));
  }
  res.model.name = model_name_from_path(file.source);
  res.model.description = "imported from " + file.source + " (" + to_string(family) +
                          " weights, layer " + std::to_string(options.layer) + ", " +
                          to_string(precision) + ")";
  res.model.alphabet = Alphabet(vocab.symbols, "--vocab");
  res.model.layers.push_back({std::nullopt, std::move(layer)});

  // Agreement with the float forward pass on seeded random strings.
  Agreement& ag = res.agreement;
  ag.strings = options.agreement_strings;
  ag.max_length = options.agreement_length;
  ag.seed = options.seed;
  std::mt19937_64 rng(options.seed);
  const RationalField Q;
  const LrnnLayer& L = std::get<LrnnLayer>(res.model.layers[0].layer);
  if (ag.strings > 0 && ag.max_length == 0)  // lengths are drawn from 1..max_length
    throw InputError("--agreement-length", "0: expected a length ≥ 1");
  const double agreement_work =
      double(ag.strings) * double(ag.max_length) * double(L.d) * double(L.d);
  if (agreement_work > agreement_max_work) {
    char about[32];
    std::snprintf(about, sizeof about, "%.3g", agreement_work);
    throw InputError("--agreement-strings",
                     "measuring the agreement would take about " + std::string(about) + " steps (" +
                         std::to_string(ag.strings) + " strings × length " +
                         std::to_string(ag.max_length) + " × d² = " + std::to_string(L.d) +
                         "²), more than the limit of 2^36 (lower --agreement-strings or "
                         "--agreement-length)");
  }
  ag.model_exact = agreement_work <= agreement_exact_max_work;
  std::optional<PreparedModel<RationalField>> prepared;
  if (ag.model_exact) prepared.emplace(res.model, Q);
  // Above agreement_exact_max_work the model's exact parameters are run in float64: the same
  // recurrence, S_t = A_w S_{t−1} + B_w, y_t = (C + C_w) S_t + c₀, rounded once per parameter.
  std::vector<std::vector<double>> A, B, C;
  if (!ag.model_exact)
    for (std::size_t k = 0; k < L.features; ++k) {
      A.emplace_back();
      B.emplace_back();
      C.emplace_back();
      for (std::size_t i = 0; i < L.d; ++i) {
        for (std::size_t j = 0; j < L.d; ++j) A[k].push_back(L.A[k](i, j).convert_to<double>());
        B[k].push_back(L.B[k](i, 0).convert_to<double>());
        C[k].push_back((L.readout(0, i) +
                        (L.readout_feature.empty() ? Rational(0) : L.readout_feature[k](0, i)))
                           .convert_to<double>());
      }
    }
  const double c0 = L.readout_bias.empty() ? 0.0 : L.readout_bias(0, 0).convert_to<double>();
  for (std::size_t n = 0; n < ag.strings && ag.max_length > 0; ++n) {
    const std::size_t len = 1 + rng() % ag.max_length;
    std::vector<std::size_t> ids, tokens;
    for (std::size_t t = 0; t < len; ++t) {
      ids.push_back(rng() % vocab.symbols.size());
      tokens.push_back(vocab.token_ids[ids.back()]);
    }
    const std::vector<double> yf = forward_with(cm, family, embed_all(cm, tokens));
    std::vector<double> ymodel;
    std::vector<int> sign;  // the exact model's sign (a tiny y may round to 0 as a double)
    if (ag.model_exact) {
      for (const auto& y : evaluate(*prepared, ids).outputs()) {
        ymodel.push_back(y(0, 0).convert_to<double>());
        sign.push_back(y(0, 0).sign());
      }
    } else {
      std::vector<double> S(L.d), next(L.d);
      for (std::size_t i = 0; i < L.d; ++i) S[i] = L.initial_state(i, 0).convert_to<double>();
      for (std::size_t k : ids) {
        for (std::size_t i = 0; i < L.d; ++i) {
          double acc = B[k][i];
          for (std::size_t j = 0; j < L.d; ++j) acc += A[k][i * L.d + j] * S[j];
          next[i] = acc;
        }
        S.swap(next);
        ymodel.push_back(dot(C[k], S) + c0);
        sign.push_back(ymodel.back() > 0 ? 1 : ymodel.back() < 0 ? -1 : 0);
      }
    }
    for (std::size_t t = 0; t < len; ++t) {
      const double yd = ymodel[t];
      ++ag.positions;
      if ((yf[t] > 0) == (sign[t] > 0)) ++ag.verdicts_agree;
      ag.max_abs_error = std::max(ag.max_abs_error, std::fabs(yf[t] - yd));
      ag.max_abs_y = std::max(ag.max_abs_y, std::fabs(yf[t]));
    }
  }
  return res;
}

nlohmann::ordered_json weights_report_json(const WeightsImport& w, WeightsFamily family) {
  const auto& layer = std::get<LrnnLayer>(w.model.layers[0].layer);
  nlohmann::ordered_json j;
  j["family"] = to_string(family);
  j["model_family"] = to_string(layer.family);
  j["d"] = layer.d;
  j["symbols"] = w.model.alphabet.symbols();
  j["rounding"] = rounding_report_json(w.rounder);
  j["notes"] = w.notes;
  j["values_exact"] = w.values_exact;
  const Agreement& a = w.agreement;
  j["agreement"] = {{"strings", a.strings},
                    {"positions", a.positions},
                    {"max_length", a.max_length},
                    {"seed", a.seed},
                    {"verdict_agreement", a.rate()},
                    {"verdicts_agree", a.verdicts_agree},
                    {"max_abs_error", a.max_abs_error},
                    {"max_abs_y", a.max_abs_y},
                    {"model_evaluation", a.model_exact ? "exact" : "float64"}};
  return j;
}

std::string weights_report_text(const WeightsImport& w, WeightsFamily family) {
  const auto& layer = std::get<LrnnLayer>(w.model.layers[0].layer);
  std::string s = "import-weights: " + to_string(family) + " layer → exact " +
                  to_string(layer.family) + " layer, d = " + std::to_string(layer.d) +
                  ", |Σ| = " + std::to_string(w.model.alphabet.size()) + "\n";
  for (const std::string& n : w.notes) s += "  note: " + n + "\n";
  s += rounding_report_text(w.rounder);
  const Agreement& a = w.agreement;
  s += "agreement with the float64 layer on " + std::to_string(a.strings) +
       " random strings (lengths 1.." + std::to_string(a.max_length) + ", seed " +
       std::to_string(a.seed) + "): verdicts " + std::to_string(a.verdicts_agree) + "/" +
       std::to_string(a.positions) +
       " positions, max |y_float − y_model| = " + g3(a.max_abs_error) +
       " (max |y_float| = " + g3(a.max_abs_y) + ")" +
       (a.model_exact ? "" : "; the model run in float64 (strings × length × d² > 2^23)") + "\n";
  if (!w.values_exact)
    s += "  (a norm was folded as a positive rescaling: the acceptance is exact, the values "
         "differ)\n";
  return s;
}

}  // namespace rnncc
