// What every family of the importer of trained weights shares (import_weights_internal.hpp):
// float64 linear algebra, the names, embedding, input norm and head, short convolutions, and
// the folding helpers.
#include <algorithm>
#include <cmath>

#include "algebra/error.hpp"
#include "rnn/families.hpp"
#include "rnn/import_weights_internal.hpp"
#include "rnn/model_json.hpp"

namespace rnncc::weights_internal {

// ---- float64 linear algebra -------------------------------------------------------------------

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
double dot(const Vec& a, const Vec& b, std::size_t from, std::size_t n) {
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

Common::Common(const SafeTensorsFile& file, WeightsFamily fam, const WeightsOptions& o)
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

// A depthwise causal convolution (torch Conv1d, groups = C, padding K − 1): out_t[c] =
// Σ_j w[c, 0, j]·seq_{t−K+1+j}[c] (+ bias[c]); the identity when absent.
std::vector<Vec> Conv::apply(const std::vector<Vec>& seq) const {
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

// The model file limit (rnn/model_json.hpp), checked before any d×d matrix is built.
void Folder::check_size(std::size_t d, const std::string& why) const {
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
void Folder::norm_as_rescaling(const std::string& tensor, std::size_t groups,
                               const std::string& what) {
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

std::vector<Features> Folder::per_symbol(
    const std::function<std::vector<Features>(const std::vector<Vec>&)>& feat) {
  std::vector<Features> fs;
  for (std::size_t id : vocab.token_ids) fs.push_back(feat(embed_all(cm, {id}))[0]);
  return fs;
}

}  // namespace rnncc::weights_internal
