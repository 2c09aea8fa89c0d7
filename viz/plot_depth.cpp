#include "viz/plot_depth.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "algebra/error.hpp"
#include "circuits/io/output_file.hpp"

namespace rnncc {

namespace {

// A private working directory (mkdtemp: unique, mode 0700) removed with everything in it when
// the plot is done or abandoned.
class WorkDir {
 public:
  WorkDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rnncc-depth-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw InputError("--plot", "cannot create a working directory under " +
                                     std::filesystem::temp_directory_path().string());
    path_ = tmpl;
  }
  ~WorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A gnuplot single-quoted string ('' stands for ').
std::string gp_string(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

// A POSIX shell single-quoted word.
std::string sh_word(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The series labels in first-appearance order.
std::vector<std::string> series_order(const std::vector<DepthPoint>& points) {
  std::vector<std::string> order;
  for (const auto& p : points)
    if (std::find(order.begin(), order.end(), p.arch) == order.end()) order.push_back(p.arch);
  return order;
}

// f(n) of a law in gnuplot's syntax, with lg(x) = log₂x and ll(x) = log₂x·log₂log₂x (0 for
// x ≤ 2), as growth_term computes it.
std::string gp_term(GrowthModel m) {
  switch (m) {
    case GrowthModel::constant:
      return "0";
    case GrowthModel::log:
      return "lg(x)";
    case GrowthModel::log_loglog:
      return "ll(x)";
    case GrowthModel::log_squared:
      return "lg(x)**2";
    case GrowthModel::linear:
      return "x";
  }
  return "0";
}

// A fitted law for the key: "2 log2(n) + 6", "0.5 n + 3", "11".
std::string key_law(const GrowthFit& c) {
  if (c.model == GrowthModel::constant) return fmt::format("{:.4g}", c.b);
  const char* term = c.model == GrowthModel::log           ? "log2(n)"
                     : c.model == GrowthModel::log_loglog  ? "log2(n) log2(log2(n))"
                     : c.model == GrowthModel::log_squared ? "log2(n)^2"
                                                           : "n";
  return fmt::format("{:.4g} {} {} {:.4g}", c.a, term, c.b < 0 ? "-" : "+", std::abs(c.b));
}

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
                                    "#7f7f7f", "#bcbd22", "#393b79", "#637939"};
constexpr std::size_t kColourCount = sizeof kColours / sizeof kColours[0];

}  // namespace

PlotFormat plot_format_for(const std::string& path) {
  if (ends_with(path, ".svg")) return PlotFormat::svg;
  if (ends_with(path, ".png")) return PlotFormat::png;
  if (ends_with(path, ".pdf")) return PlotFormat::pdf;
  throw InputError("--plot", "'" + path + "': expected a file ending in .svg, .png or .pdf");
}

std::string plot_target_label(CircuitTarget target) {
  return to_string(target) + " (" + depth_precision(target) + ")";
}

std::string depth_plot_data(const std::vector<DepthPoint>& points) {
  std::string data;
  const auto order = series_order(points);
  for (std::size_t i = 0; i < order.size(); ++i) {
    data += fmt::format("{}# {}\n# n depth size bounded_fanin_depth\n", i ? "\n\n" : "", order[i]);
    for (const auto& p : points)
      if (p.arch == order[i])
        data += fmt::format("{} {} {} {}\n", p.n, p.depth, p.size, p.bounded_fanin_depth);
  }
  return data;
}

std::string depth_plot_script(const std::vector<DepthPoint>& points,
                              const std::vector<DepthFit>& fits, CircuitTarget target,
                              PlotFormat format, const std::string& output_name,
                              const std::string& data_name) {
  const auto order = series_order(points);
  std::vector<const DepthFit*> fit(order.size(), nullptr);
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const auto& x : fits)
      if (x.arch == order[i]) fit[i] = &x;
  // The panels: every series on log–log axes, then one per chosen class (enum order).
  std::vector<std::pair<GrowthModel, std::vector<std::size_t>>> classes;
  for (GrowthModel m : growth_models()) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < order.size(); ++i)
      if (fit[i] && fit[i]->best().model == m) members.push_back(i);
    if (!members.empty()) classes.emplace_back(m, members);
  }
  const bool multiplot = !classes.empty();
  const std::size_t panels = 1 + classes.size();
  const std::size_t cols = panels <= 2 ? panels : panels <= 4 ? 2 : 3;
  const std::size_t rows = (panels + cols - 1) / cols;
  const std::size_t width = 520 * cols, height = 500 * rows + 40;
  std::size_t n_min = 0, n_max = 1;
  for (const auto& p : points) {
    n_min = n_min == 0 ? p.n : std::min(n_min, p.n);
    n_max = std::max(n_max, p.n);
  }
  if (n_min == 0) n_min = 1;
  const std::string title = "Circuit depth against n, target " + plot_target_label(target);

  std::string s = "# rnncc depth --plot: circuit depth against n, target " + to_string(target) +
                  ".\n# Edit and rerun in this directory: gnuplot " +
                  std::filesystem::path(output_name).filename().string() +
                  ".gp\n# (gnuplot -e \"output='OTHER.svg'\" ... writes elsewhere; keep the "
                  "terminal below in step with the extension)\n";
  s += "if (!exists(\"output\")) output = " + gp_string(output_name) + "\n";
  s += "data = " + gp_string(data_name) + "\n";
  switch (format) {
    case PlotFormat::svg:
      s += fmt::format("set terminal svg size {},{} dynamic font 'sans,11'\n", width, height);
      break;
    case PlotFormat::png:
      s += fmt::format(
          "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {{\n"
          "  set terminal pngcairo size {},{} font 'sans,10'\n"
          "}} else {{\n"
          "  set terminal png size {},{}\n"
          "}}\n",
          width, height, width, height);
      break;
    case PlotFormat::pdf:
      s += fmt::format("set terminal pdfcairo size {:.2f}in,{:.2f}in font 'sans,9'\n",
                       width / 100.0, height / 100.0);
      break;
  }
  s += "set output output\nset termoption noenhanced\n";
  s += "lg(x) = log(x)/log(2)\nll(x) = x <= 2 ? 0 : lg(x)*lg(lg(x))\n";
  if (multiplot) s += "# the fitted laws depth = a*f(n) + b (least squares, chosen by AICc)\n";
  for (std::size_t i = 0; i < order.size(); ++i)
    if (fit[i]) {
      const GrowthFit& c = fit[i]->best();
      s += fmt::format("f{}(x) = {:.17g}*{} + {:.17g}  # {}: {}\n", i, c.a, gp_term(c.model), c.b,
                       order[i], to_string(c.model));
    }
  s += fmt::format(
      "set samples 400\nset grid\nset xlabel 'n (sequence length)'\nset ylabel 'circuit "
      "depth'\nset logscale x 2\nset xrange [{:.6g}:{:.6g}]\n"
      "set key bmargin left vertical Left reverse maxcols 1 samplen 2 font ',8'\n",
      n_min / 1.15, n_max * 1.15);
  // Series with the same depths at the same lengths are one entry, titled with every name
  // (drawn apart they would hide one another).
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> curve(order.size());
  for (const auto& p : points) {
    const auto at = std::find(order.begin(), order.end(), p.arch) - order.begin();
    curve[static_cast<std::size_t>(at)].emplace_back(p.n, p.depth);
  }
  auto plot_series = [&](const std::vector<std::size_t>& members) {
    std::string line = "plot ";
    std::vector<bool> done(order.size(), false);
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::size_t i = members[k];
      if (done[i]) continue;
      std::string names = order[i];
      for (std::size_t l = k + 1; l < members.size(); ++l)
        if (!done[members[l]] && curve[members[l]] == curve[i]) {
          done[members[l]] = true;
          names += ", " + order[members[l]];
        }
      if (fit[i]) names += ": " + key_law(fit[i]->best());
      const char* colour = kColours[i % kColourCount];
      line += fmt::format("{}data index {} using 1:2 with points pt {} ps 1.2 lc rgb '{}' title {}",
                          k ? ", \\\n     " : "", i, 1 + i % 13, colour, gp_string(names));
      if (fit[i])
        line += fmt::format(", \\\n     f{}(x) with lines lw 1.5 lc rgb '{}' notitle", i, colour);
    }
    return line + "\n";
  };
  std::vector<std::size_t> all(order.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (multiplot)
    s += fmt::format("set multiplot layout {},{} title {} font ',13'\n", rows, cols,
                     gp_string(title));
  else
    s += "set title " + gp_string(title) + "\n";
  s += std::string(multiplot
                       ? "set title 'every series (log-log axes); lines: the laws AICc chose'\n"
                       : "") +
       "set logscale y 2\n" + plot_series(all);
  for (const auto& [m, members] : classes) {
    const bool linear = m == GrowthModel::linear;
    s += fmt::format("set title {}\n{}", gp_string("chosen law " + to_string(m)),
                     linear ? "set logscale y 2\n" : "unset logscale y\n");
    s += plot_series(members);
  }
  if (multiplot) s += "unset multiplot\n";
  return s;
}

DepthPlotFiles plot_depths(const std::vector<DepthPoint>& points, const std::vector<DepthFit>& fits,
                           CircuitTarget target, const std::string& path) {
  const PlotFormat format = plot_format_for(path);
  // The picture's temporary file beside the target, opened first (an unwritable target is
  // refused before anything is written).
  OutputFile out(path);
  const std::filesystem::path target_path(path);
  const std::string dir =
      target_path.has_parent_path() ? target_path.parent_path().string() : std::string(".");
  const std::string name = target_path.filename().string();
  DepthPlotFiles files;
  files.script = path + ".gp";
  files.data = path + ".dat";
  files.render_hint = (dir == "." ? std::string() : "cd " + sh_word(dir) + " && ") + "gnuplot " +
                      sh_word(name + ".gp");
  write_file_atomically(files.data, depth_plot_data(points));
  write_file_atomically(files.script,
                        depth_plot_script(points, fits, target, format, name, name + ".dat"));
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return files;
  // gnuplot runs in the target's directory (the script names its files relative to it) and
  // writes the picture and its messages into a private working directory.
  const WorkDir work;
  const std::string picture = (work / "plot").string();
  const std::string cmd = "cd " + sh_word(dir) + " && gnuplot -e " +
                          sh_word("output=" + gp_string(picture)) + " " + sh_word(name + ".gp") +
                          " 2>" + sh_word((work / "err.txt").string());
  if (std::system(cmd.c_str()) != 0 || !std::filesystem::exists(picture))
    throw InputError("--plot",
                     "gnuplot failed on " + files.script + ": " + read_file(work / "err.txt"));
  out.write(read_file(picture));
  out.commit();
  files.rendered = true;
  return files;
}

}  // namespace rnncc
