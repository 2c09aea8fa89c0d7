#include "circuits/depth_growth.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <cmath>
#include <map>

#include "algebra/error.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/finite_state.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/nonlinear.hpp"
#include "circuits/io/circuit_json.hpp"
#include "rnn/families.hpp"
#include "rnn/nonlinear.hpp"

namespace rnncc {

const std::vector<std::string>& architecture_names() {
  static const std::vector<std::string> names = {"diagonal", "s4",     "pd",       "dplr", "deltanet",
                                                 "gdn",      "rwkv7", "relu-rnn", "uhat", "hybrid"};
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
    const Vector shared = p.vec(kD);
    std::vector<DecayStep> s;
    for (std::size_t k = 0; k < kSigma; ++k) s.push_back({fam == Family::s4 ? shared : p.vec(kD), p.mat(kD, 1)});
    return wrap(make_diagonal(fam, f, s));
  }
  if (arch == "pd") {
    LayerFrame f = frame(p);
    std::vector<PdStep> s = {{{1, 2, 0}, p.vec(kD), p.mat(kD, 1)}, {{1, 0, 2}, p.vec(kD), p.mat(kD, 1)}};
    return wrap(make_pd(f, s, true));
  }
  if (arch == "dplr") {
    LayerFrame f = frame(p);
    std::vector<DplrStep> s;
    for (std::size_t k = 0; k < kSigma; ++k) s.push_back({p.vec(kD), p.vec(kD), p.vec(kD), p.mat(kD, 1)});
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
    for (std::size_t k = 0; k < kSigma; ++k) s.push_back({p.vec(kD), p.vec(kD), p.vec(kD), p.mat(kD, 1)});
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
  if (arch == "uhat" || arch == "hybrid")
    throw InputError("--arch", arch + ": attention layers are not in rnncc yet (issue 7 adds "
                                      "them; issue 6 compiles them to threshold circuits)");
  throw InputError("--arch", "unknown architecture '" + arch + "'");
}

std::string to_string(GrowthModel m) {
  switch (m) {
    case GrowthModel::log: return "a*log2(n)+b";
    case GrowthModel::log_squared: return "a*log2(n)^2+b";
    case GrowthModel::linear: return "a*n+b";
  }
  return "?";
}

std::vector<std::size_t> parse_lengths(const std::string& text, const std::string& flag) {
  const std::size_t dots = text.find("..");
  auto number = [&](std::string_view s) {
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      throw InputError(flag, "'" + text + "': expected A..B with whole numbers A ≤ B (e.g. 2..4096)");
    return v;
  };
  if (dots == std::string::npos)
    throw InputError(flag, "'" + text + "': expected A..B with whole numbers A ≤ B (e.g. 2..4096)");
  const std::size_t a = number(std::string_view(text).substr(0, dots));
  const std::size_t b = number(std::string_view(text).substr(dots + 2));
  if (a < 1 || b < a)
    throw InputError(flag, "'" + text + "': the range is empty (need 1 ≤ A ≤ B)");
  std::vector<std::size_t> out;
  for (std::size_t n = a; n <= b; n *= 2) {
    out.push_back(n);
    if (n > b / 2) break;
  }
  if (out.back() != b) out.push_back(b);
  return out;
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
      throw InputError(flag, "unknown architecture '" + name + "' (known: " + list + ")");
    }
    out.push_back(name);
    at = comma + 1;
  }
  return out;
}

namespace {

// Boolean target: the finite-state architectures through compile_finite_state. The PD model
// with permutation matrices, D = 1 and a one-hot S_0 (the S₃ generators (0 1 2) and (0 1)
// over 3 states) is a 3-state automaton; its circuit is a prefix tree of one-hot transition
// compositions with fan-in 2 (circuits/compile/finite_state.hpp): boolean depth O(log n).
FiniteStateMachine boolean_machine(const std::string& arch) {
  if (arch != "pd")
    throw InputError("--target", "boolean: " + arch + " has no boolean compiler yet (only the "
                                     "finite-state pd compiles to boolean circuits; arithmetic to "
                                     "boolean — adders, multipliers — is the rest of issue 6)");
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
  return fsm_from_model(wrap(make_pd(f, s, true)));
}

}  // namespace

std::vector<DepthPoint> measure_depths(const std::vector<std::string>& archs,
                                       const std::vector<std::size_t>& lengths, DepthTarget target,
                                       std::size_t max_gates) {
  if (target == DepthTarget::threshold)
    throw InputError("--target", "threshold: the threshold compilers are not in rnncc yet "
                                 "(issue 6); use --target arith or boolean");
  if (target == DepthTarget::boolean) {
    std::vector<std::pair<std::string, FiniteStateMachine>> machines;
    for (const auto& a : archs) machines.emplace_back(a, boolean_machine(a));
    FiniteStateOptions fo;
    fo.max_gates = max_gates;
    std::vector<DepthPoint> out;
    for (const auto& [a, m] : machines)
      for (std::size_t n : lengths) {
        const CircuitStats s = compute_stats(compile_finite_state(m, n, fo).circuit);
        out.push_back({a, n, s.size, s.depth, s.bounded_fanin_depth});
      }
    return out;
  }
  CompileOptions o;
  o.scan = ScanKind::brent_kung;
  o.acceptance = false;
  o.outputs = OutputMode::last;
  o.max_gates = max_gates;
  std::map<std::string, Model> models;
  for (const auto& a : archs) models.emplace(a, representative_model(a));
  // Every estimate first, so a range too large fails before any work.
  for (const auto& a : archs)
    for (std::size_t n : lengths) {
      const Model& m = models.at(a);
      if (std::holds_alternative<LrnnLayer>(m.layers[0].layer)) {
        const std::size_t est = estimate_operations(m, n, o);
        if (est > max_gates)
          throw InputError("--max-gates", a + " at n = " + std::to_string(n) + " would have about " +
                                              std::to_string(est) + " gates, more than the limit of " +
                                              std::to_string(max_gates));
      }
    }
  std::vector<DepthPoint> out;
  for (const auto& a : archs)
    for (std::size_t n : lengths) {
      const Model& m = models.at(a);
      const Circuit c = std::holds_alternative<LrnnLayer>(m.layers[0].layer)
                            ? compile_lrnn(m, n, o).circuit
                            : compile_nonlinear_sequential(m, n, o).circuit;
      const CircuitStats s = compute_stats(c);
      out.push_back({a, n, s.size, s.depth, s.bounded_fanin_depth});
    }
  return out;
}

std::vector<DepthFit> fit_depths(const std::vector<DepthPoint>& points) {
  std::map<std::string, std::vector<const DepthPoint*>> by_arch;
  std::vector<std::string> order;
  for (const auto& p : points) {
    if (!by_arch.count(p.arch)) order.push_back(p.arch);
    by_arch[p.arch].push_back(&p);
  }
  std::vector<DepthFit> out;
  for (const auto& arch : order) {
    const auto& ps = by_arch[arch];
    const std::size_t first = out.size();
    for (GrowthModel g : {GrowthModel::log, GrowthModel::log_squared, GrowthModel::linear}) {
      auto f = [&](double n) {
        const double l = std::log2(n);
        return g == GrowthModel::log ? l : g == GrowthModel::log_squared ? l * l : n;
      };
      // Ordinary least squares for y = a·x + b.
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      const double k = static_cast<double>(ps.size());
      for (const DepthPoint* p : ps) {
        const double x = f(static_cast<double>(p->n)), y = static_cast<double>(p->depth);
        sx += x, sy += y, sxx += x * x, sxy += x * y;
      }
      const double den = k * sxx - sx * sx;
      if (ps.size() < 2 || den == 0) continue;
      DepthFit fit{arch, g, (k * sxy - sx * sy) / den, 0, 0, false};
      fit.b = (sy - fit.a * sx) / k;
      double ss = 0;
      for (const DepthPoint* p : ps) {
        const double e = static_cast<double>(p->depth) - (fit.a * f(static_cast<double>(p->n)) + fit.b);
        ss += e * e;
      }
      fit.residual = std::sqrt(ss / k);
      out.push_back(fit);
    }
    if (out.size() > first) {
      auto best = std::min_element(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                   [](const DepthFit& x, const DepthFit& y) {
                                     return x.residual < y.residual - 1e-9 * (1 + y.residual);
                                   });
      best->best = true;
    }
  }
  return out;
}

std::string depth_csv(const std::vector<DepthPoint>& points) {
  std::string out = "arch,n,size,depth,bounded_fanin_depth\n";
  for (const auto& p : points)
    out += p.arch + "," + std::to_string(p.n) + "," + std::to_string(p.size) + "," +
           std::to_string(p.depth) + "," + std::to_string(p.bounded_fanin_depth) + "\n";
  return out;
}

bool plot_depths_svg(const std::vector<DepthPoint>& points, const std::string& svg_path) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return false;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rnncc-depth-" + std::to_string(std::hash<std::string>{}(svg_path)));
  std::filesystem::create_directories(dir);
  std::vector<std::string> order;
  for (const auto& p : points)
    if (std::find(order.begin(), order.end(), p.arch) == order.end()) order.push_back(p.arch);
  std::string script =
      "set terminal svg size 900,600 dynamic enhanced font 'sans,12'\n"
      "set output '" + (dir / "plot.svg").string() + "'\n"
      "set logscale x 2\nset xlabel 'n (sequence length)'\nset ylabel 'circuit depth'\n"
      "set key outside right\nset grid\nset title 'Circuit depth against length'\nplot ";
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::ofstream data(dir / (std::to_string(i) + ".dat"));
    for (const auto& p : points)
      if (p.arch == order[i]) data << p.n << " " << p.depth << "\n";
    script += (i ? ", " : "") + std::string("'") + (dir / (std::to_string(i) + ".dat")).string() +
              "' using 1:2 with linespoints title '" + order[i] + "'";
  }
  script += "\n";
  std::ofstream(dir / "plot.gp") << script;
  const std::string cmd = "gnuplot '" + (dir / "plot.gp").string() + "' 2>'" + (dir / "err.txt").string() + "'";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream err(dir / "err.txt");
    std::string e((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
    std::filesystem::remove_all(dir);
    throw InputError("--plot", "gnuplot failed: " + e);
  }
  std::ifstream svg(dir / "plot.svg");
  std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  write_file_atomically(svg_path, text);
  return true;
}

}  // namespace rnncc
