#pragma once
// Internal to rnn/: what the importer of trained weights (import_weights.hpp) shares between its
// files. weights_common.cpp holds what every family shares (float64 linear algebra, the names,
// embedding, norms and head, the folding helpers); import_deltanet.cpp, import_mamba2.cpp and
// import_rwkv7.cpp one family each (its per-token features, its float64 forward pass from them,
// and its fold into an exact layer); import_weights.cpp the entry points and the reports.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algebra/rational.hpp"
#include "rnn/import_weights.hpp"
#include "rnn/lrnn.hpp"
#include "rnn/safetensors.hpp"

namespace rnncc::weights_internal {

using Vec = std::vector<double>;
constexpr std::size_t any = SafeTensorsFile::any_dim;

// ---- float64 linear algebra -------------------------------------------------------------------

struct FMat {
  std::size_t rows = 0, cols = 0;
  Vec v;
  double operator()(std::size_t i, std::size_t j) const { return v[i * cols + j]; }
};

FMat fmat(const SafeTensor& t);
Vec matvec(const FMat& W, const Vec& x);
Vec mat_t_vec(const FMat& W, const Vec& u);
double sigmoid(double x);
double silu(double x);
double softplus(double x);
double dot(const Vec& a, const Vec& b, std::size_t from = 0, std::size_t n = SIZE_MAX);
void rmsnorm(Vec& x, const Vec& w, double eps, std::size_t from, std::size_t n);
void l2norm(Vec& x, std::size_t from, std::size_t n);

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

  Common(const SafeTensorsFile& file, WeightsFamily fam, const WeightsOptions& o);
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
  std::vector<Vec> apply(const std::vector<Vec>& seq) const;
};

Conv read_conv(const Common& c, const std::string& name, std::size_t channels);
void refuse_window(const Common& c, const Conv& conv);
std::vector<Vec> project(const FMat& W, const std::vector<Vec>& xs);
std::size_t per_head(const Common& c, const std::string& name, const SafeTensor& t, std::size_t H);

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

  DeltaLayer(const Common& cm, bool gated_);
  std::vector<Features> features(const Common& cm, const std::vector<Vec>& xs) const;
  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const;
};

struct MambaLayer {
  std::size_t H, P, N, G, d_inner;
  FMat Win, Wout;
  Vec in_bias, dt_bias, A_log, norm;
  Vec Dskip;  // per channel (d_inner)
  Conv conv;
  Vec c;  // Wₒᵀu

  explicit MambaLayer(const Common& cm);
  std::vector<Features> features(const std::vector<Vec>& xs) const;
  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const;
};

struct Lora {
  FMat A, B;
  Vec bias;
  bool present = false;
  Vec operator()(const Vec& x, double (*act)(double)) const;
};

struct RwkvLayer {
  std::size_t H, dk, dv;
  FMat Wr, Wk, Wv, Wo;
  Lora wl, al, gl;
  Vec k_k, k_a, r_k, g_norm;
  std::vector<Vec> shift;  // x_r x_w x_k x_v x_a x_g
  Vec c;

  Lora lora(const Common& cm, const std::string& name, std::size_t out, bool required);
  explicit RwkvLayer(const Common& cm);
  std::vector<Features> features(const std::vector<Vec>& xs) const;
  std::vector<double> forward(const Common& cm, const std::vector<Vec>& xs) const;
};

std::vector<Vec> embed_all(const Common& cm, const std::vector<std::size_t>& tokens);

// ---- folding ------------------------------------------------------------------------------------

// One head's exact step on its block of the state, for one symbol, and its readout row.
struct Block {
  Matrix<Rational> A;  // n×n
  Vector B, C;         // n
};

LrnnLayer general_from_blocks(const std::vector<std::vector<Block>>& per_symbol,
                              const std::vector<Rational>* bias_term, const Rational& c0);
std::string count_text(std::size_t n, const std::string& what);

struct Folder {
  const Common& cm;
  const Vocab& vocab;
  WeightsImport& out;
  Rational q(double x, const std::string& group) {
    return out.rounder(x, group,
                       cm.f.source + ": a value derived from the weights (" + group + ")");
  }

  void check_size(std::size_t d, const std::string& why) const;
  void norm_as_rescaling(const std::string& tensor, std::size_t groups, const std::string& what);
  std::vector<Features> per_symbol(
      const std::function<std::vector<Features>(const std::vector<Vec>&)>& feat);

  // One family each (import_deltanet.cpp, import_mamba2.cpp, import_rwkv7.cpp).
  LrnnLayer delta(const DeltaLayer& L);
  LrnnLayer mamba(const MambaLayer& L);
  LrnnLayer rwkv(const RwkvLayer& L);
};

}  // namespace rnncc::weights_internal
