// Mamba-2 weights (mamba_ssm): the float64 layer (per-token features, forward pass) and its fold
// into an exact layer (import_weights.hpp, docs/import.md).
#include <algorithm>
#include <cmath>

#include "algebra/error.hpp"
#include "rnn/families.hpp"
#include "rnn/import_weights_internal.hpp"

namespace rnncc::weights_internal {

MambaLayer::MambaLayer(const Common& cm) {
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

std::vector<Features> MambaLayer::features(const std::vector<Vec>& xs) const {
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

std::vector<double> MambaLayer::forward(const Common& cm, const std::vector<Vec>& xs) const {
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
      for (std::size_t g = 0; g < G; ++g) rmsnorm(y, norm, cm.eps, g * (d_inner / G), d_inner / G);
    ys.push_back(cm.head_of(matvec(Wout, y)));
  }
  return ys;
}

LrnnLayer Folder::mamba(const MambaLayer& L) {
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

}  // namespace rnncc::weights_internal
