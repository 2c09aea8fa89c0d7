#include "rnn/families.hpp"

#include <algorithm>

#include "algebra/exact.hpp"

namespace rnncc {

namespace {

const RationalField Q;

// "1 entry", "2 entries": `what` is the plural; a trailing "ies" or "s" is singularized.
std::string count(std::size_t n, std::string what) {
  if (n == 1) {
    if (what.ends_with("ies"))
      what = what.substr(0, what.size() - 3) + "y";
    else if (what.ends_with("s"))
      what.pop_back();
  }
  return std::to_string(n) + " " + what;
}

void expect_vector(const Vector& v, std::size_t n, std::size_t feature, const std::string& field) {
  if (v.size() != n)
    throw ParamError(
        feature, field,
        "expected a vector of " + count(n, "entries") + ", got " + std::to_string(v.size()));
}

void expect_shape(const Matrix<Rational>& m, std::size_t rows, std::size_t cols,
                  std::size_t feature, const std::string& field) {
  if (m.rows() != rows || m.cols() != cols)
    throw ParamError(feature, field,
                     "expected " + std::to_string(rows) + "×" + std::to_string(cols) +
                         " matrix, got " + shape_string(m));
}

void expect_features(std::size_t got, std::size_t features) {
  if (got != features)
    throw ParamError(
        ParamError::layer_level, "symbols",
        "expected parameters for " + count(features, "features") + ", got " + std::to_string(got));
}

Matrix<Rational> diag(const Vector& v) {
  Matrix<Rational> m(v.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) m(i, i) = v[i];
  return m;
}

// u·vᵀ scaled by s.
Matrix<Rational> outer(const Rational& s, const Vector& u, const Vector& v) {
  Matrix<Rational> m(u.size(), v.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) m(i, j) = s * u[i] * v[j];
  return m;
}

// diag(D) + s·a bᵀ: the one shape behind DPLR (s = −1), RWKV-7 (s = +1) and the delta rule
// (D = 1, s = −β, a = b = k). Checks the three vectors first.
Matrix<Rational> diag_plus_rank_one(const Vector& D, const Rational& s, const Vector& a,
                                    const Vector& b, std::size_t d, std::size_t feature,
                                    const char* names[3]) {
  expect_vector(D, d, feature, names[0]);
  expect_vector(a, d, feature, names[1]);
  expect_vector(b, d, feature, names[2]);
  return add(Q, diag(D), outer(s, a, b));
}

LrnnLayer start(Family family, LayerFrame frame) {
  check_frame(frame);
  LrnnLayer layer;
  layer.family = family;
  layer.d = frame.d;
  layer.m = frame.m;
  layer.features = frame.features;
  layer.initial_state = std::move(frame.initial_state);
  layer.readout = std::move(frame.readout);
  layer.readout_feature = std::move(frame.readout_feature);
  layer.readout_bias = std::move(frame.readout_bias);
  return layer;
}

}  // namespace

std::string to_string(Family f) {
  switch (f) {
    case Family::general:
      return "general";
    case Family::diagonal:
      return "diagonal";
    case Family::s4:
      return "s4";
    case Family::mamba2:
      return "mamba2";
    case Family::gla:
      return "gla";
    case Family::pd:
      return "pd";
    case Family::dplr:
      return "dplr";
    case Family::deltanet:
      return "deltanet";
    case Family::gated_deltanet:
      return "gated_deltanet";
    case Family::kda:
      return "kda";
    case Family::rwkv7:
      return "rwkv7";
  }
  return "?";
}

std::optional<Family> parse_family(std::string_view name) {
  for (Family f :
       {Family::general, Family::diagonal, Family::s4, Family::mamba2, Family::gla, Family::pd,
        Family::dplr, Family::deltanet, Family::gated_deltanet, Family::kda, Family::rwkv7})
    if (to_string(f) == name) return f;
  return std::nullopt;
}

std::string to_string(BetaRange r) {
  switch (r) {
    case BetaRange::any:
      return "any";
    case BetaRange::open_0_1:
      return "(0,1)";
    case BetaRange::half_open_0_1:
      return "(0,1]";
    case BetaRange::open_0_2:
      return "(0,2)";
    case BetaRange::half_open_0_2:
      return "(0,2]";
  }
  return "?";
}

std::optional<BetaRange> parse_beta_range(std::string_view text) {
  for (BetaRange r : {BetaRange::any, BetaRange::open_0_1, BetaRange::half_open_0_1,
                      BetaRange::open_0_2, BetaRange::half_open_0_2})
    if (to_string(r) == text) return r;
  return std::nullopt;
}

bool contains(BetaRange r, const Rational& beta) {
  switch (r) {
    case BetaRange::any:
      return true;
    case BetaRange::open_0_1:
      return beta > 0 && beta < 1;
    case BetaRange::half_open_0_1:
      return beta > 0 && beta <= 1;
    case BetaRange::open_0_2:
      return beta > 0 && beta < 2;
    case BetaRange::half_open_0_2:
      return beta > 0 && beta <= 2;
  }
  return false;
}

void check_frame(const LayerFrame& f) {
  const auto L = ParamError::layer_level;
  if (f.d == 0) throw ParamError(L, "d", "expected a state dimension d ≥ 1");
  if (f.m == 0) throw ParamError(L, "m", "expected m ≥ 1 state columns");
  if (f.features == 0) throw ParamError(L, "symbols", "expected at least one input feature");
  expect_shape(f.initial_state, f.d, f.m, L, "initial_state");
  if (f.readout.rows() == 0 || f.readout.cols() != f.d)
    throw ParamError(
        L, "readout",
        "expected r×" + std::to_string(f.d) + " matrix (r ≥ 1), got " + shape_string(f.readout));
  if (!f.readout_feature.empty()) {
    if (f.readout_feature.size() != f.features)
      throw ParamError(L, "readout", "expected one readout per feature");
    for (std::size_t k = 0; k < f.features; ++k)
      expect_shape(f.readout_feature[k], f.readout.rows(), f.d, k, "C");
  }
  if (!f.readout_bias.empty())
    expect_shape(f.readout_bias, f.readout.rows(), f.m, L, "readout_bias");
}

LrnnLayer make_general(LayerFrame frame, std::vector<AffineStep> steps) {
  LrnnLayer layer = start(Family::general, std::move(frame));
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    expect_shape(steps[k].A, layer.d, layer.d, k, "A");
    expect_shape(steps[k].B, layer.d, layer.m, k, "B");
    layer.A.push_back(std::move(steps[k].A));
    layer.B.push_back(std::move(steps[k].B));
    layer.record.emplace_back(NoParams{});
  }
  return layer;
}

LrnnLayer make_diagonal(Family family, LayerFrame frame, std::vector<DecayStep> steps) {
  if (family != Family::diagonal && family != Family::gla && family != Family::s4 &&
      family != Family::mamba2)
    throw std::logic_error("make_diagonal: not a diagonal family");
  LrnnLayer layer = start(family, std::move(frame));
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    DecayStep& s = steps[k];
    if (family == Family::mamba2) {
      expect_vector(s.decay, 1, k, "decay");
      s.decay.assign(layer.d, Rational(s.decay[0]));  // a·I
    } else {
      expect_vector(s.decay, layer.d, k, "decay");
    }
    if (family == Family::s4 && k > 0 && s.decay != std::get<DiagonalParams>(layer.record[0]).decay)
      throw ParamError(k, "decay",
                       "an s4 layer is time-invariant: every symbol must have the same decay as "
                       "the first one");
    expect_shape(s.B, layer.d, layer.m, k, "B");
    layer.A.push_back(diag(s.decay));
    layer.B.push_back(std::move(s.B));
    layer.record.emplace_back(DiagonalParams{std::move(s.decay)});
  }
  return layer;
}

LrnnLayer make_pd(LayerFrame frame, std::vector<PdStep> steps, bool require_permutation) {
  LrnnLayer layer = start(Family::pd, std::move(frame));
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    PdStep& s = steps[k];
    if (s.image.size() != layer.d)
      throw ParamError(k, "P",
                       "expected a column-one-hot d×d matrix, d = " + std::to_string(layer.d));
    std::vector<bool> hit(layer.d, false);
    for (std::size_t j = 0; j < layer.d; ++j) {
      if (s.image[j] >= layer.d)
        throw ParamError(k, "P",
                         "column " + std::to_string(j) + " maps to row " +
                             std::to_string(s.image[j]) + ", outside 0.." +
                             std::to_string(layer.d - 1));
      hit[s.image[j]] = true;
    }
    bool permutation = std::all_of(hit.begin(), hit.end(), [](bool h) { return h; });
    if (require_permutation && !permutation)
      throw ParamError(k, "P",
                       "expected a permutation matrix (the layer sets \"P_kind\": "
                       "\"permutation\"), got a column-one-hot matrix that is not onto");
    expect_vector(s.diag, layer.d, k, "D");
    expect_shape(s.B, layer.d, layer.m, k, "B");
    Matrix<Rational> a(layer.d, layer.d, Rational(0));
    for (std::size_t j = 0; j < layer.d; ++j) a(s.image[j], j) = s.diag[j];  // P·diag(D)
    layer.A.push_back(std::move(a));
    layer.B.push_back(std::move(s.B));
    layer.record.emplace_back(PdParams{std::move(s.image), permutation, std::move(s.diag)});
  }
  return layer;
}

LrnnLayer make_dplr(LayerFrame frame, std::vector<DplrStep> steps) {
  LrnnLayer layer = start(Family::dplr, std::move(frame));
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    DplrStep& s = steps[k];
    const char* names[3] = {"D", "a", "b"};
    layer.A.push_back(
        diag_plus_rank_one(s.D, Rational(-1), s.a, s.b, layer.d, k, names));  // D − abᵀ
    expect_shape(s.B, layer.d, layer.m, k, "B");
    layer.B.push_back(std::move(s.B));
    layer.record.emplace_back(DplrParams{std::move(s.D), std::move(s.a), std::move(s.b)});
  }
  return layer;
}

LrnnLayer make_delta(Family family, LayerFrame frame, std::vector<DeltaStep> steps,
                     BetaRange range) {
  if (family != Family::deltanet && family != Family::gated_deltanet && family != Family::kda)
    throw std::logic_error("make_delta: not a delta-rule family");
  LrnnLayer layer = start(family, std::move(frame));
  layer.beta_range = range;
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    DeltaStep& s = steps[k];
    if (!contains(range, s.beta))
      throw ParamError(
          k, "beta",
          "β = " + to_string(s.beta) + " is outside the layer's beta_range " + to_string(range));
    expect_vector(s.v, layer.m, k, "v");
    std::size_t gate_size = family == Family::deltanet         ? 0
                            : family == Family::gated_deltanet ? 1
                                                               : layer.d;
    if (family == Family::deltanet && !s.alpha.empty())
      throw ParamError(k, "alpha", "a deltanet layer has no gate α (use gated_deltanet or kda)");
    if (family != Family::deltanet) expect_vector(s.alpha, gate_size, k, "alpha");
    for (const Rational& g : s.alpha)
      if (!(g > 0 && g <= 1))
        throw ParamError(k, "alpha", "gate α = " + to_string(g) + " is outside (0,1]");
    const char* names[3] = {"k", "k", "k"};
    Matrix<Rational> a =
        diag_plus_rank_one(Vector(layer.d, Rational(1)), -s.beta, s.k, s.k, layer.d, k, names);
    if (family == Family::gated_deltanet)
      a = scale(Q, s.alpha[0], a);  // α (I − βkkᵀ)
    else if (family == Family::kda)
      a = mul(Q, a, diag(s.alpha));  // (I − βkkᵀ) diag(α)
    layer.A.push_back(std::move(a));
    layer.B.push_back(outer(s.beta, s.k, s.v));  // β k vᵀ
    layer.record.emplace_back(
        DeltaParams{std::move(s.alpha), s.beta, std::move(s.k), std::move(s.v)});
  }
  return layer;
}

LrnnLayer make_rwkv7(LayerFrame frame, std::vector<Rwkv7Step> steps) {
  LrnnLayer layer = start(Family::rwkv7, std::move(frame));
  expect_features(steps.size(), layer.features);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    Rwkv7Step& s = steps[k];
    const char* names[3] = {"w", "a", "b"};
    layer.A.push_back(
        diag_plus_rank_one(s.w, Rational(1), s.a, s.b, layer.d, k, names));  // diag(w) + abᵀ
    expect_shape(s.B, layer.d, layer.m, k, "B");
    layer.B.push_back(std::move(s.B));
    layer.record.emplace_back(Rwkv7Params{std::move(s.w), std::move(s.a), std::move(s.b)});
  }
  return layer;
}

}  // namespace rnncc
