#include "circuits/measure/depth_growth.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "algebra/error.hpp"
#include "algebra/suggest.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc {

const std::vector<std::string>& architecture_names() {
  static const std::vector<std::string> names = {"diagonal", "s4",     "pd",     "dplr",
                                                 "deltanet", "gdn",    "rwkv7",  "relu-rnn",
                                                 "uhat",     "hybrid", "counter"};
  return names;
}

namespace {

constexpr std::size_t kD = 3, kSigma = 2;

// Generic parameters: a fixed sequence of small rationals p/q (no 0, ±1 where avoidable), so
// constant folding does not shrink the circuit below its generic size.
struct Params {
  long i = 0;
  Rational next() {
    ++i;
    const long p = (i * 7) % 11 + 2, q = (i * 5) % 7 + 3;
    return Rational(i % 3 == 0 ? -p : p, q);
  }
  Vector vec(std::size_t n) {
    Vector v;
    for (std::size_t k = 0; k < n; ++k) v.push_back(next());
    return v;
  }
  Matrix<Rational> mat(std::size_t r, std::size_t c) {
    Matrix<Rational> m(r, c);
    for (std::size_t a = 0; a < r; ++a)
      for (std::size_t b = 0; b < c; ++b) m(a, b) = next();
    return m;
  }
  Rational gate() { return Rational(++i % 3 + 1, 4); }  // in (0, 1)
};

LayerFrame frame(Params& p) {
  LayerFrame f;
  f.d = kD;
  f.m = 1;
  f.features = kSigma;
  f.initial_state = p.mat(kD, 1);
  f.readout = p.mat(1, kD);
  return f;
}

// A unique-hard attention layer over k features: query and key of size 2, one value, a small
// recency bias λ > 0 and ties to the most recent position (rnn/attention.hpp).
AttentionLayer attention_layer(Params& p, std::size_t k) {
  AttentionLayer a;
  a.kind = AttentionKind::unique_hard;
  a.tie = TieRule::rightmost;
  a.features = k;
  a.query = {p.mat(2, k), p.mat(2, 1)};
  a.key = {p.mat(2, k), p.mat(2, 1)};
  a.value = {p.mat(1, k), p.mat(1, 1)};
  a.position_bias = Rational(1, 8);
  return a;
}

Model wrap(Layer layer) {
  Model m;
  m.alphabet = Alphabet({"a", "b"}, "representative model");
  m.layers.push_back({std::nullopt, std::move(layer)});
  return m;
}

}  // namespace

Model representative_model(const std::string& arch) {
  Params p;
  if (arch == "diagonal" || arch == "s4") {
    const Family fam = arch == "s4" ? Family::s4 : Family::diagonal;
    LayerFrame f = frame(p);
    // Decays in (0, 1), as in trained (stable) SSMs: at log precision the kernel C·A^j·B then
    // vanishes after O(log n) steps instead of overflowing.
    auto decays = [&] {
      Vector v;
      for (std::size_t k = 0; k < kD; ++k) v.push_back(p.gate());
      return v;
    };
    const Vector shared = decays();
    std::vector<DecayStep> s;
    for (std::size_t k = 0; k < kSigma; ++k)
      s.push_back({fam == Family::s4 ? shared : decays(), p.mat(kD, 1)});
    return wrap(make_diagonal(fam, f, s));
  }
  if (arch == "counter") {
    // y_t = #a − #b (d = 1, A = 1 for both symbols, B_a = 1, B_b = −1), accepting iff positive:
    // majority, the counting model every input position matters to.
    LayerFrame f;
    f.d = 1;
    f.m = 1;
    f.features = kSigma;
    f.initial_state = Matrix<Rational>(1, 1);
    f.readout = Matrix<Rational>(1, 1);
    f.readout(0, 0) = 1;
    Matrix<Rational> up(1, 1), down(1, 1);
    up(0, 0) = 1;
    down(0, 0) = -1;
    return wrap(
        make_diagonal(Family::s4, f, {{Vector{Rational(1)}, up}, {Vector{Rational(1)}, down}}));
  }
  if (arch == "pd") {
    LayerFrame f = frame(p);
    std::vector<PdStep> s = {{{1, 2, 0}, p.vec(kD), p.mat(kD, 1)},
                             {{1, 0, 2}, p.vec(kD), p.mat(kD, 1)}};
    return wrap(make_pd(f, s, true));
  }
  if (arch == "dplr") {
    LayerFrame f = frame(p);
    std::vector<DplrStep> s;
    for (std::size_t k = 0; k < kSigma; ++k)
      s.push_back({p.vec(kD), p.vec(kD), p.vec(kD), p.mat(kD, 1)});
    return wrap(make_dplr(f, s));
  }
  if (arch == "deltanet" || arch == "gdn") {
    const Family fam = arch == "gdn" ? Family::gated_deltanet : Family::deltanet;
    LayerFrame f = frame(p);
    std::vector<DeltaStep> s;
    for (std::size_t k = 0; k < kSigma; ++k) {
      DeltaStep st{{}, Rational(3 + static_cast<long>(k), 4), p.vec(kD), p.vec(1)};
      if (fam == Family::gated_deltanet) st.alpha = {p.gate()};
      s.push_back(st);
    }
    return wrap(make_delta(fam, f, s, BetaRange::half_open_0_2));
  }
  if (arch == "rwkv7") {
    LayerFrame f = frame(p);
    std::vector<Rwkv7Step> s;
    for (std::size_t k = 0; k < kSigma; ++k)
      s.push_back({p.vec(kD), p.vec(kD), p.vec(kD), p.mat(kD, 1)});
    return wrap(make_rwkv7(f, s));
  }
  if (arch == "relu-rnn") {
    ElmanLayer l;
    l.activation = Activation::relu;
    l.d = kD;
    l.features = kSigma;
    l.pre = {p.mat(kD, kD), p.mat(kD, kSigma), p.mat(kD, 1)};
    l.initial_state = p.mat(kD, 1);
    l.readout = p.mat(1, kD);
    return wrap(l);
  }
  if (arch == "uhat") return wrap(attention_layer(p, kSigma));
  if (arch == "hybrid") {
    // A gated DeltaNet layer (d = 3, r = 1) under one unique-hard attention layer reading two
    // features of its output, z_t = W·y_t (the 3 GDN : 1 attention pattern in miniature).
    Model gdn = representative_model("gdn");
    Model m = wrap(std::move(gdn.layers[0].layer));
    InputMap map;
    map.weights = p.mat(2, 1);
    m.layers.push_back({map, attention_layer(p, 2)});
    return m;
  }
  throw InputError("--arch", "unknown architecture '" + arch + "'");
}

const std::vector<GrowthModel>& growth_models() {
  static const std::vector<GrowthModel> all = {GrowthModel::constant, GrowthModel::log,
                                               GrowthModel::log_loglog, GrowthModel::log_squared,
                                               GrowthModel::linear};
  return all;
}

std::string to_string(GrowthModel m) {
  switch (m) {
    case GrowthModel::constant:
      return "b";
    case GrowthModel::log:
      return "a*log2(n)+b";
    case GrowthModel::log_loglog:
      return "a*log2(n)*log2(log2(n))+b";
    case GrowthModel::log_squared:
      return "a*log2(n)^2+b";
    case GrowthModel::linear:
      return "a*n+b";
  }
  return "?";
}

std::string short_name(GrowthModel m) {
  switch (m) {
    case GrowthModel::constant:
      return "1";
    case GrowthModel::log:
      return "log";
    case GrowthModel::log_loglog:
      return "loglog";
    case GrowthModel::log_squared:
      return "log^2";
    case GrowthModel::linear:
      return "n";
  }
  return "?";
}

std::size_t parameter_count(GrowthModel m) {
  return m == GrowthModel::constant ? 1 : 2;
}

double growth_term(GrowthModel m, double n) {
  const double l = std::log2(n);
  switch (m) {
    case GrowthModel::constant:
      return 0;
    case GrowthModel::log:
      return l;
    case GrowthModel::log_loglog:
      return n <= 2 ? 0.0 : l * std::log2(l);
    case GrowthModel::log_squared:
      return l * l;
    case GrowthModel::linear:
      return n;
  }
  return 0;
}

double aicc(double rss, std::size_t m, std::size_t k) {
  if (m < k + 2)
    throw InputError("--lengths", "AICc of a " + std::to_string(k) +
                                      "-parameter model needs at least " + std::to_string(k + 2) +
                                      " points, not " + std::to_string(m));
  if (rss <= 0) return -std::numeric_limits<double>::infinity();
  const double md = static_cast<double>(m), kd = static_cast<double>(k);
  return md * std::log(rss / md) + 2 * kd + 2 * kd * (kd + 1) / (md - kd - 1);
}

void check_fit_lengths(const std::vector<std::size_t>& lengths) {
  if (lengths.size() >= kMinFitPoints) return;
  const std::size_t a = lengths.empty() ? 2 : lengths.front();
  throw InputError("--lengths",
                   std::to_string(lengths.size()) + " length" + (lengths.size() == 1 ? "" : "s") +
                       ", but the fits need at least " + std::to_string(kMinFitPoints) +
                       " (AICc of a two-parameter law needs m ≥ k + 2 = 4 points); e.g. " +
                       std::to_string(a) + ".." + std::to_string(8 * a));
}

DepthFit fit_series(const std::string& arch, const std::vector<double>& ns,
                    const std::vector<double>& ys) {
  const std::size_t m = ys.size();
  if (m < kMinFitPoints)
    throw InputError("--lengths", arch + ": " + std::to_string(m) + " point" + (m == 1 ? "" : "s") +
                                      ", but the fits need at least " +
                                      std::to_string(kMinFitPoints) +
                                      " (AICc of a two-parameter law needs m ≥ k + 2 = 4 points)");
  DepthFit out;
  out.arch = arch;
  double syy = 0;
  for (double y : ys) syy += y * y;
  const double zero = 1e-18 * std::max(1.0, syy);  // rounding of an exact fit
  const double md = static_cast<double>(m);
  for (GrowthModel g : growth_models()) {
    GrowthFit fit;
    fit.model = g;
    std::vector<double> xs(m);
    for (std::size_t i = 0; i < m; ++i) xs[i] = growth_term(g, ns[i]);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < m; ++i)
      sx += xs[i], sy += ys[i], sxx += xs[i] * xs[i], sxy += xs[i] * ys[i];
    const double den = md * sxx - sx * sx;
    if (g != GrowthModel::constant && den > 0) {
      // Ordinary least squares for y = a·x + b (closed form).
      fit.a = (md * sxy - sx * sy) / den;
      fit.b = (sy - fit.a * sx) / md;
    } else {
      fit.b = sy / md;  // the constant, or a term that does not vary over these lengths
    }
    for (std::size_t i = 0; i < m; ++i) {
      const double e = ys[i] - (fit.a * xs[i] + fit.b);
      fit.rss += e * e;
    }
    if (fit.rss <= zero) fit.rss = 0;
    fit.rms = std::sqrt(fit.rss / md);
    fit.aicc = aicc(fit.rss, m, parameter_count(g));
    out.models.push_back(fit);
  }
  // Smallest AICc; equal values (−∞ for perfect fits) go to fewer parameters, then to the
  // slower-growing class — the earlier one in growth_models() order, so strict < keeps it.
  auto better = [](const GrowthFit& x, const GrowthFit& y) {
    const bool xi = std::isinf(x.aicc), yi = std::isinf(y.aicc);
    if (xi || yi) {
      if (xi != yi) return xi;
    } else if (std::abs(x.aicc - y.aicc) > 1e-9 * (1 + std::abs(y.aicc))) {
      return x.aicc < y.aicc;
    }
    return parameter_count(x.model) < parameter_count(y.model);
  };
  for (std::size_t i = 1; i < out.models.size(); ++i)
    if (better(out.models[i], out.models[out.chosen])) out.chosen = i;
  const GrowthFit& c = out.best();
  for (std::size_t i = 0; i < m; ++i) {
    out.n.push_back(static_cast<std::size_t>(ns[i]));
    out.residuals.push_back(c.rss == 0 ? 0.0 : ys[i] - (c.a * growth_term(c.model, ns[i]) + c.b));
  }
  return out;
}

std::vector<std::size_t> parse_lengths(const std::string& text, const std::string& flag) {
  const std::size_t dots = text.find("..");
  auto number = [&](std::string_view s) {
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      throw InputError(flag,
                       "'" + text + "': expected A..B with whole numbers A ≤ B (e.g. 2..4096)");
    return v;
  };
  if (dots == std::string::npos)
    throw InputError(flag, "'" + text + "': expected A..B with whole numbers A ≤ B (e.g. 2..4096)");
  const std::size_t a = number(std::string_view(text).substr(0, dots));
  const std::size_t b = number(std::string_view(text).substr(dots + 2));
  if (a < 1 || b < a) throw InputError(flag, "'" + text + "': the range is empty (need 1 ≤ A ≤ B)");
  std::vector<std::size_t> out;
  for (std::size_t n = a; n <= b; n *= 2) {
    out.push_back(n);
    if (n > b / 2) break;
  }
  if (out.back() != b) out.push_back(b);
  return out;
}

std::string default_depth_lengths(CircuitTarget target) {
  return target == CircuitTarget::boolean ? "4..256" : "2..1024";
}

std::vector<std::string> parse_architectures(const std::string& text, const std::string& flag) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string name = text.substr(at, comma - at);
    const auto& known = architecture_names();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(
          flag, with_suggestion("unknown architecture '" + name + "' (known: " + list + ")", name,
                                known));
    }
    out.push_back(name);
    at = comma + 1;
  }
  return out;
}

namespace {

// The S₃ permutation automaton: a PD layer with permutation matrices (0 1 2) and (0 1), D = 1,
// B = 0 and a one-hot S_0 — finite-state, so its boolean circuit is exact (no rounding).
Model permutation_pd() {
  LayerFrame f;
  f.d = kD;
  f.m = 1;
  f.features = kSigma;
  f.initial_state = Matrix<Rational>(kD, 1);
  f.initial_state(0, 0) = 1;
  f.readout = Matrix<Rational>(1, kD);
  f.readout(0, 0) = 1;
  const Vector ones(kD, Rational(1));
  std::vector<PdStep> s = {{{1, 2, 0}, ones, Matrix<Rational>(kD, 1)},
                           {{1, 0, 2}, ones, Matrix<Rational>(kD, 1)}};
  return wrap(make_pd(f, s, true));
}

// The ReLU balance counter (examples/relu_counter.json): h = (relu(c), relu(−c)), c = #a − #b,
// accepting iff balanced. Its 2n + 1 reachable states make the finite-state route concrete.
Model relu_counter() {
  ElmanLayer l;
  l.activation = Activation::relu;
  l.d = 2;
  l.features = kSigma;
  l.pre.W = Matrix<Rational>(2, 2);
  l.pre.U = Matrix<Rational>(2, 2);
  l.pre.bias = Matrix<Rational>(2, 1);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 2; ++j) l.pre.W(i, j) = l.pre.U(i, j) = i == j ? 1 : -1;
  l.initial_state = Matrix<Rational>(2, 1);
  l.readout = Matrix<Rational>(1, 2);
  l.readout(0, 0) = 1;
  l.readout(0, 1) = -1;
  Model m = wrap(l);
  m.accept.mode = Acceptance::Mode::zero;
  return m;
}

bool lrnn_arch(const std::string& a) {
  return a == "diagonal" || a == "s4" || a == "pd" || a == "dplr" || a == "deltanet" ||
         a == "gdn" || a == "rwkv7" || a == "counter";
}

}  // namespace

namespace {

// The same diagnostic, naming the architecture and length it arose at.
InputError with_arch(const InputError& e, const std::string& arch, std::size_t n) {
  std::string msg = e.what();
  if (!e.where().empty()) msg = msg.substr(e.where().size() + 2);
  return InputError(e.where(), arch + " at n = " + std::to_string(n) + ": " + msg);
}

}  // namespace

DepthSubject depth_subject(const std::string& arch, CircuitTarget target) {
  DepthSubject s;
  s.options.target = target;
  s.options.compile.scan = ScanKind::brent_kung;
  s.options.compile.acceptance = false;
  s.options.compile.outputs = OutputMode::last;
  if (target == CircuitTarget::arithmetic) {
    s.model = representative_model(arch);
    s.options.compile.acceptance = arch == "uhat" || arch == "hybrid";  // y_n and the verdict
    return s;
  }
  if (target == CircuitTarget::boolean) {
    if (arch == "pd") {
      s.model = permutation_pd();  // exact: the finite-state route
      s.options.compile.acceptance = true;
      return s;
    }
    if (arch == "relu-rnn") {
      s.model = relu_counter();
      s.options.precision.log_c = 1;
      return s;
    }
    if (arch == "hybrid")
      throw InputError("--target",
                       "boolean: hybrid: no boolean compiler for attention over LRNN "
                       "features (compile the GDN layer with --target boolean and the "
                       "attention layer with --target threshold separately)");
    s.model = representative_model(arch);
    s.options.precision.log_c =
        1;  // LRNNs: the scan-rounded fixed-point circuit; uhat: lowered thresholds
    s.options.compile.acceptance = arch == "uhat";
    return s;
  }
  // threshold
  if (arch == "s4" || arch == "uhat" || arch == "counter") {
    s.model = representative_model(arch);
    s.options.precision.log_c = 1;
    s.options.compile.acceptance = true;
    return s;
  }
  if (arch == "diagonal") {  // input-dependent decays: iterated multiplication [HAB02]
    // The representative's decay vectors come out equal for both symbols (the parameter
    // sequence repeats with period 3), which the threshold router would take as time-invariant;
    // here symbol b's decays are those of a rotated by one coordinate (1/4,3/4,2/4 against
    // 2/4,1/4,3/4...), so the row measures input-dependent decays.
    s.model = representative_model(arch);
    auto& l = std::get<LrnnLayer>(s.model.layers[0].layer);
    const std::size_t d = l.d;
    for (std::size_t i = 0; i < d; ++i) l.A[1](i, i) = l.A[0]((i + 1) % d, (i + 1) % d);
    if (auto* rec = std::get_if<DiagonalParams>(&l.record[1]))
      for (std::size_t i = 0; i < d; ++i) rec->decay[i] = l.A[1](i, i);
    s.options.precision.log_c = 1;
    s.options.compile.acceptance = true;
    return s;
  }
  if (lrnn_arch(arch))
    throw InputError("--target",
                     "threshold: " + arch +
                         ": input-dependent non-diagonal transitions compose "
                         "matrix products, NC¹-hard already for 5×5 permutations [Bar89]; a "
                         "constant-depth threshold circuit would show TC⁰ = NC¹");
  if (arch == "relu-rnn")
    throw InputError("--target",
                     "threshold: relu-rnn: log-precision ReLU RNNs are L-complete "
                     "[MJLLS26, Thm 1]; a threshold circuit would show TC⁰ = L");
  throw InputError("--target", "threshold: hybrid: its GDN layer is NC¹-hard (see deltanet/gdn)");
}

std::string model_label(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  return stem.empty() ? path : stem;
}

std::string depth_precision(CircuitTarget target) {
  switch (target) {
    case CircuitTarget::arithmetic:
      return "exact rationals";
    case CircuitTarget::boolean:
      return "log:1 fixed point; finite-state models exact";
    case CircuitTarget::threshold:
      return "log:1 fixed point";
  }
  return "?";
}

nlohmann::ordered_json depth_json(const std::vector<DepthPoint>& points,
                                  const std::vector<DepthFit>& fits,
                                  const std::vector<std::string>& skipped,
                                  std::optional<CircuitTarget> target) {
  using json = nlohmann::ordered_json;
  auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json p = json::array(), q = json::array();
  for (const auto& x : points)
    p.push_back({{"arch", x.arch},
                 {"n", x.n},
                 {"size", x.size},
                 {"depth", x.depth},
                 {"bounded_fanin_depth", x.bounded_fanin_depth}});
  for (const auto& x : fits) {
    json ms = json::array();
    for (const auto& g : x.models)
      ms.push_back({{"model", to_string(g.model)},
                    {"k", parameter_count(g.model)},
                    {"a", g.a},
                    {"b", g.b},
                    {"rss", g.rss},
                    {"rms", g.rms},
                    {"aicc", finite(g.aicc)}});
    const GrowthFit& c = x.best();
    q.push_back({{"arch", x.arch},
                 {"chosen", to_string(c.model)},
                 {"a", c.a},
                 {"b", c.b},
                 {"rms", c.rms},
                 {"n", x.n},
                 {"residuals", x.residuals},
                 {"models", ms}});
  }
  json out = {{"criterion", "AICc"}};
  if (target) {
    out["target"] = to_string(*target);
    out["precision"] = depth_precision(*target);
  }
  out["points"] = p;
  out["fits"] = q;
  out["skipped"] = skipped;
  return out;
}

std::vector<std::pair<std::string, DepthSubject>> model_depth_subjects(
    const std::vector<std::string>& paths, const std::vector<std::string>& archs,
    CircuitTarget target) {
  std::vector<std::pair<std::string, DepthSubject>> out;
  for (const std::string& path : paths) {
    std::string label = model_label(path);
    bool taken = std::find(archs.begin(), archs.end(), label) != archs.end();
    for (const auto& m : out) taken = taken || m.first == label;
    out.emplace_back(taken ? path : label, model_depth_subject(path, target));
  }
  return out;
}

std::vector<std::string> parse_model_paths(const std::string& text, const std::string& flag) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    std::string path = text.substr(at, comma - at);
    if (path.empty())
      throw InputError(flag, "'" + text + "': an empty entry (expected FILE.json,FILE.json,…)");
    out.push_back(std::move(path));
    at = comma + 1;
  }
  return out;
}

DepthSubject model_depth_subject(const std::string& path, CircuitTarget target) {
  Model model;
  try {
    model = load_model(path);
  } catch (const InputError& e) {
    std::string why = e.what();  // "PATH: reason" already names the file
    if (e.where() != path) why = path + ": " + why;
    throw InputError("--model", why);
  }
  return model_depth_subject(std::move(model), path, target);
}

DepthSubject model_depth_subject(Model model, const std::string& label, CircuitTarget target,
                                 const std::string& flag) {
  DepthSubject s;
  s.model = std::move(model);
  const std::string& path = label;
  s.options.target = target;
  s.options.compile.scan = ScanKind::brent_kung;
  s.options.compile.acceptance = false;
  s.options.compile.outputs = OutputMode::last;
  if (target == CircuitTarget::threshold) s.options.precision.log_c = 1;
  std::string route;
  try {
    try {
      route = compiler_name(s.model, s.options);
    } catch (const InputError& e) {
      // The boolean target: exact only for finite-state layers; otherwise log:1.
      if (target != CircuitTarget::boolean || e.where() != "--precision") throw;
      s.options.precision.log_c = 1;
      route = compiler_name(s.model, s.options);
    }
  } catch (const InputError& e) {
    std::string why = e.what();
    if (!e.where().empty() && why.rfind(e.where() + ": ", 0) == 0)
      why = why.substr(e.where().size() + 2);
    throw InputError(flag, path + ": no " + to_string(target) + " circuit: " + why);
  }
  // The verdict too where the built-ins measure it (attention, finite-state, threshold).
  s.options.compile.acceptance =
      target == CircuitTarget::threshold || route.find("attention") != std::string::npos ||
      route.find("unique_hard") != std::string::npos || route == "compile_finite_state";
  return s;
}

std::vector<DepthPoint> measure_depths(const std::vector<std::string>& archs,
                                       const std::vector<std::size_t>& lengths,
                                       CircuitTarget target, std::size_t max_gates,
                                       std::vector<std::string>* skipped,
                                       const DepthPointSink& on_point, Progress& progress,
                                       std::size_t max_memory_mib) {
  std::vector<std::pair<std::string, DepthSubject>> subjects;
  std::vector<std::string> reasons;
  for (const auto& a : archs) {
    try {
      subjects.emplace_back(a, depth_subject(a, target));
      subjects.back().second.options.compile.budget.max_gates = max_gates;
    } catch (const InputError& e) {
      if (!skipped) throw;
      // "--target: threshold: pd: reason" → "pd: reason"
      std::string why = e.what();
      const std::string prefix = e.where() + ": " + to_string(target) + ": ";
      if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
      reasons.push_back(why);
    }
  }
  if (skipped) skipped->insert(skipped->end(), reasons.begin(), reasons.end());
  if (subjects.empty() && !archs.empty()) {
    std::string all;
    for (const auto& r : reasons) all += "; " + r;
    throw InputError("--target", to_string(target) +
                                     ": none of the architectures compiles to "
                                     "this target" +
                                     all);
  }
  return measure_subjects(subjects, lengths, target, max_gates, on_point, progress, max_memory_mib);
}

std::vector<DepthPoint> measure_subjects(
    const std::vector<std::pair<std::string, DepthSubject>>& subjects,
    const std::vector<std::size_t>& lengths, CircuitTarget target, std::size_t max_gates,
    const DepthPointSink& on_point, Progress& progress, std::size_t max_memory_mib) {
  std::vector<TargetOptions> options;
  for (const auto& s : subjects) {
    options.push_back(s.second.options);
    options.back().compile.budget.max_gates = max_gates;
    options.back().compile.budget.max_memory_mib = max_memory_mib;
  }
  // Every estimate first, so a range too large fails before any work; the message names the
  // largest length of the range that fits.
  for (std::size_t i = 0; i < subjects.size(); ++i) {
    const auto& [a, sub] = subjects[i];
    std::optional<std::size_t> largest_ok;
    for (std::size_t n : lengths) {
      std::optional<std::size_t> est;
      try {
        est = estimate_model_gates(sub.model, n, options[i]);
      } catch (const InputError& e) {  // e.g. the inputs alone exceed the limit
        throw with_arch(e, a, n);
      }
      if (!est || *est <= max_gates) {
        largest_ok = n;
        continue;
      }
      throw InputError("--max-gates",
                       a + " at n = " + std::to_string(n) + " would have about " +
                           std::to_string(*est) + " gates (" + to_string(target) +
                           "), more than the limit of " + std::to_string(max_gates) +
                           (largest_ok ? "; the largest length of the range that fits is " +
                                             std::to_string(*largest_ok)
                                       : std::string()));
    }
  }
  std::vector<DepthPoint> out;
  if (subjects.empty()) return out;
  ProgressTask task(progress, "measuring depth", subjects.size() * lengths.size(), "circuits");
  for (std::size_t i = 0; i < subjects.size(); ++i)
    for (std::size_t n : lengths) {
      const auto& [a, sub] = subjects[i];
      task.detail(a + " at n = " + std::to_string(n));
      CompiledCircuit c;
      try {
        c = compile_model(sub.model, n, options[i]);
      } catch (const InputError& e) {  // limits only the compiler can check (states, wires)
        throw with_arch(e, a, n);
      }
      const CircuitStats s = compute_stats(c.circuit);
      out.push_back({a, n, s.size, s.depth, s.bounded_fanin_depth});
      task.add();
      if (on_point) on_point(out.back());
    }
  return out;
}

std::vector<DepthFit> fit_depths(const std::vector<DepthPoint>& points) {
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_arch;
  std::vector<std::string> order;
  for (const auto& p : points) {
    if (!by_arch.count(p.arch)) order.push_back(p.arch);
    by_arch[p.arch].first.push_back(static_cast<double>(p.n));
    by_arch[p.arch].second.push_back(static_cast<double>(p.depth));
  }
  std::vector<DepthFit> out;
  for (const auto& arch : order)
    out.push_back(fit_series(arch, by_arch[arch].first, by_arch[arch].second));
  return out;
}

std::string depth_csv(const std::vector<DepthPoint>& points) {
  std::string out = "arch,n,size,depth,bounded_fanin_depth\n";
  for (const auto& p : points)
    out += p.arch + "," + std::to_string(p.n) + "," + std::to_string(p.size) + "," +
           std::to_string(p.depth) + "," + std::to_string(p.bounded_fanin_depth) + "\n";
  return out;
}

}  // namespace rnncc
