#include "rnn/import_arrays.hpp"

#include <filesystem>

#include "algebra/error.hpp"
#include "algebra/suggest.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"

namespace rnncc {

namespace {

class ArrayReader {
 public:
  ArrayReader(const SafeTensorsFile& f, const Alphabet& s, ParamRounder& r)
      : file_(f), sigma_(s), round_(r) {}

  // The values of per-symbol parameter `name` (inner shape per symbol), one vector per symbol,
  // or an empty vector when the parameter is absent and optional.
  std::vector<std::vector<double>> per_symbol(const std::string& name,
                                              const std::vector<std::size_t>& inner,
                                              bool required) const {
    std::vector<std::size_t> stacked{sigma_.size()};
    stacked.insert(stacked.end(), inner.begin(), inner.end());
    std::vector<std::vector<double>> out;
    const SafeTensor* whole = file_.optional(name, stacked);
    std::vector<const SafeTensor*> parts;
    for (const std::string& s : sigma_.symbols())
      parts.push_back(file_.optional(name + "." + s, inner));
    const bool any_part = std::any_of(parts.begin(), parts.end(), [](auto* p) { return p; });
    if (whole && any_part)
      file_.fail(name, "given both stacked and per symbol ('" + name + "." + sigma_.symbol(0) +
                           "', …): give one of the two");
    if (whole) {
      const std::size_t each = whole->numel() / sigma_.size();
      for (std::size_t k = 0; k < sigma_.size(); ++k)
        out.emplace_back(whole->values.begin() + k * each, whole->values.begin() + (k + 1) * each);
      return out;
    }
    if (any_part) {
      for (std::size_t k = 0; k < sigma_.size(); ++k) {
        if (!parts[k])
          file_.fail(name + "." + sigma_.symbol(k),
                     "expected shape " + shape_text(inner) +
                         " (the parameter is given per symbol), not in the file");
        out.push_back(parts[k]->values);
      }
      return out;
    }
    if (required)
      file_.fail(name, "expected shape " + shape_text(stacked) + " (stacked, symbols first) or '" +
                           name + ".<symbol>' of shape " + shape_text(inner) +
                           " for every symbol, not in the file");
    return out;
  }

  // The shape of a per-symbol parameter's entries, if given: the inner shape.
  std::optional<std::vector<std::size_t>> inner_shape(const std::string& name) const {
    if (const SafeTensor* t = file_.find(name)) {
      if (t->shape.empty()) return std::nullopt;
      return std::vector<std::size_t>(t->shape.begin() + 1, t->shape.end());
    }
    if (const SafeTensor* t = file_.find(name + "." + sigma_.symbol(0))) return t->shape;
    return std::nullopt;
  }

  Rational q(double x, const std::string& group, const std::string& tensor) const {
    return round_(x, group, file_.source + ": tensor '" + tensor + "'");
  }
  Vector vec(const std::vector<double>& xs, const std::string& group) const {
    Vector v;
    for (double x : xs) v.push_back(q(x, group, group));
    return v;
  }
  Matrix<Rational> mat(const std::vector<double>& xs, std::size_t r, std::size_t c,
                       const std::string& group) const {
    Matrix<Rational> m(r, c);
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) m(i, j) = q(xs[i * c + j], group, group);
    return m;
  }

  const SafeTensorsFile& file_;
  const Alphabet& sigma_;
  ParamRounder& round_;
};

}  // namespace

std::string model_name_from_path(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

ImportResult import_arrays(const SafeTensorsFile& file, Family family, const Alphabet& alphabet,
                           const FloatPrecision& precision, BetaRange beta_range) {
  ImportResult res{Model{}, ParamRounder(precision), {}};
  ArrayReader rd(file, alphabet, res.rounder);
  const std::size_t S = alphabet.size();
  const SafeTensor& C =
      file.require("readout", {SafeTensorsFile::any_dim, SafeTensorsFile::any_dim});
  const std::size_t r = C.shape[0], d = C.shape[1];
  if (r == 0 || d == 0)
    file.fail("readout", "expected shape [r, d] with r, d ≥ 1, got " + shape_text(C.shape));
  const bool delta =
      family == Family::deltanet || family == Family::gated_deltanet || family == Family::kda;
  std::size_t m = 1;
  if (auto inner = rd.inner_shape(delta ? "v" : "B"); inner && inner->size() == (delta ? 1u : 2u))
    m = inner->back();
  else if (const SafeTensor* s0 = file.find("initial_state"); s0 && s0->shape.size() == 2)
    m = s0->shape[1];
  if (m == 0) m = 1;
  // A diagonal family's d numbers a symbol still make a dense d×d matrix: the model file's
  // limits, from the shapes alone, before anything is built.
  check_layer_size(d, m, S, file.source);

  LayerFrame frame;
  frame.d = d;
  frame.m = m;
  frame.features = S;
  frame.readout = rd.mat(C.values, r, d, "readout");
  if (const SafeTensor* s0 = file.optional("initial_state", {d, m}))
    frame.initial_state = rd.mat(s0->values, d, m, "initial_state");
  else
    frame.initial_state = Matrix<Rational>(d, m, Rational(0));
  if (const SafeTensor* b = file.optional("readout_bias", {r, m}))
    frame.readout_bias = rd.mat(b->values, r, m, "readout_bias");
  for (const auto& c : rd.per_symbol("C", {r, d}, false))
    frame.readout_feature.push_back(rd.mat(c, r, d, "C"));

  auto Bs = rd.per_symbol("B", {d, m}, false);
  auto B_of = [&](std::size_t k) {
    return Bs.empty() ? Matrix<Rational>(d, m, Rational(0)) : rd.mat(Bs[k], d, m, "B");
  };
  // A builder's ParamError names a symbol and a field: the tensor of that name.
  auto wrap = [&](auto&& build) -> LrnnLayer {
    try {
      return build();
    } catch (const ParamError& e) {
      const std::string where = e.feature() == ParamError::layer_level
                                    ? e.field()
                                    : e.field() + "' (symbol '" + alphabet.symbol(e.feature());
      throw InputError(file.source, "tensor '" + where + "'): " + e.what());
    }
  };
  LrnnLayer layer;
  switch (family) {
    case Family::general: {
      auto As = rd.per_symbol("A", {d, d}, true);
      std::vector<AffineStep> steps;
      for (std::size_t k = 0; k < S; ++k) steps.push_back({rd.mat(As[k], d, d, "A"), B_of(k)});
      layer = wrap([&] { return make_general(frame, steps); });
      break;
    }
    case Family::diagonal:
    case Family::gla:
    case Family::s4:
    case Family::mamba2: {
      const bool scalar = family == Family::mamba2;
      auto decays =
          rd.per_symbol("decay", scalar ? std::vector<std::size_t>{} : std::vector{d}, true);
      std::vector<DecayStep> steps;
      for (std::size_t k = 0; k < S; ++k) steps.push_back({rd.vec(decays[k], "decay"), B_of(k)});
      layer = wrap([&] { return make_diagonal(family, frame, steps); });
      break;
    }
    case Family::pd: {
      auto Ps = rd.per_symbol("P", {d, d}, true);
      auto Ds = rd.per_symbol("D", {d}, true);
      std::vector<PdStep> steps;
      for (std::size_t k = 0; k < S; ++k) {
        PdStep s;
        for (std::size_t j = 0; j < d; ++j) {
          std::optional<std::size_t> one;
          for (std::size_t i = 0; i < d; ++i) {
            const double x = Ps[k][i * d + j];
            if (x == 1 && !one)
              one = i;
            else if (x != 0)
              file.fail("P", "symbol '" + alphabet.symbol(k) + "', column " + std::to_string(j) +
                                 ": expected a column of 0s with one 1");
          }
          if (!one)
            file.fail("P", "symbol '" + alphabet.symbol(k) + "', column " + std::to_string(j) +
                               ": expected a column of 0s with one 1, got no 1");
          s.image.push_back(*one);
        }
        res.rounder.count_exact("P", d * d);
        s.diag = rd.vec(Ds[k], "D");
        s.B = B_of(k);
        steps.push_back(std::move(s));
      }
      layer = wrap([&] { return make_pd(frame, steps, false); });
      break;
    }
    case Family::dplr:
    case Family::rwkv7: {
      const bool dplr = family == Family::dplr;
      const char* n0 = dplr ? "D" : "w";
      auto X = rd.per_symbol(n0, {d}, true), a = rd.per_symbol("a", {d}, true),
           b = rd.per_symbol("b", {d}, true);
      std::vector<DplrStep> ds;
      std::vector<Rwkv7Step> ws;
      for (std::size_t k = 0; k < S; ++k) {
        if (dplr)
          ds.push_back({rd.vec(X[k], n0), rd.vec(a[k], "a"), rd.vec(b[k], "b"), B_of(k)});
        else
          ws.push_back({rd.vec(X[k], n0), rd.vec(a[k], "a"), rd.vec(b[k], "b"), B_of(k)});
      }
      layer = wrap([&] { return dplr ? make_dplr(frame, ds) : make_rwkv7(frame, ws); });
      break;
    }
    case Family::deltanet:
    case Family::gated_deltanet:
    case Family::kda: {
      if (!Bs.empty()) file.fail("B", "a delta-rule layer's B is β·k·vᵀ: give beta, k and v");
      auto beta = rd.per_symbol("beta", {}, true), kk = rd.per_symbol("k", {d}, true),
           v = rd.per_symbol("v", {m}, true);
      std::vector<std::vector<double>> alpha;
      if (family != Family::deltanet)
        alpha = rd.per_symbol(
            "alpha", family == Family::kda ? std::vector{d} : std::vector<std::size_t>{}, true);
      std::vector<DeltaStep> steps;
      for (std::size_t k = 0; k < S; ++k) {
        DeltaStep s;
        if (!alpha.empty()) s.alpha = rd.vec(alpha[k], "alpha");
        s.beta = rd.q(beta[k][0], "beta", "beta");
        s.k = rd.vec(kk[k], "k");
        s.v = rd.vec(v[k], "v");
        steps.push_back(std::move(s));
      }
      layer = wrap([&] { return make_delta(family, frame, steps, beta_range); });
      break;
    }
  }
  res.model.name = model_name_from_path(file.source);
  res.model.description =
      "imported from " + file.source + " (" + to_string(family) + ", " + to_string(precision) + ")";
  res.model.alphabet = alphabet;
  res.model.layers.push_back({std::nullopt, std::move(layer)});
  return res;
}

Family import_family(std::string_view name, const std::string& where) {
  if (const auto f = parse_family(name)) return *f;
  const std::vector<std::string> names{"general", "diagonal", "s4",       "mamba2",         "gla",
                                       "pd",      "dplr",     "deltanet", "gated_deltanet", "kda",
                                       "rwkv7"};
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  throw InputError(
      where, with_suggestion("'" + std::string(name) + "' is not a layer family: expected " + list,
                             name, names));
}

}  // namespace rnncc
