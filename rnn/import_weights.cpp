#include "rnn/import_weights.hpp"

#include <cmath>
#include <cstdio>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "algebra/suggest.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/import_arrays.hpp"
#include "rnn/import_weights_internal.hpp"

namespace rnncc {

namespace {

using weights_internal::Common;
using weights_internal::DeltaLayer;
using weights_internal::dot;
using weights_internal::embed_all;
using weights_internal::Folder;
using weights_internal::MambaLayer;
using weights_internal::RwkvLayer;
using weights_internal::Vec;

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
