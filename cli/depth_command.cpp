// rnncc depth [--arch LIST] [--model A.json,B.json,…] --lengths A..B
// [--target arith|boolean|threshold] [--plot OUT.(svg|png|pdf)] [--csv] [--json] [--max-gates N]:
// circuit depth growth across architectures and model files, growth laws chosen by AICc
// (circuits/measure/depth_growth.hpp).
#include <algorithm>
#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "algebra/memory.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_text.hpp"
#include "circuits/measure/depth_growth.hpp"
#include "cli/commands.hpp"
#include "cli/error_boundary.hpp"
#include "cli/progress.hpp"
#include "viz/plot_depth.hpp"

namespace rnncc::cli {

Action add_depth_command(CLI::App& app) {
  struct Flags {
    std::string arch = "diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,uhat,hybrid,counter",
                lengths, target = "arith", plot, model;
    bool csv = false, json = false;
    std::vector<std::size_t> fit_from;  // --json: also the fits of the points with n ≥ each
    std::size_t max_gates = std::size_t{1} << 26;
    std::size_t max_memory_mib = default_max_memory_mib();
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "depth", "Compare circuit depth growth across architectures, with fitted growth laws");
  cmd->add_option("--arch", f->arch,
                  "architectures (comma-separated; with --model, only those named here)")
      ->capture_default_str();
  cmd->add_option("--model", f->model,
                  "model files (comma-separated), measured next to the architectures");
  cmd->add_option("--lengths", f->lengths,
                  "A..B: n = A, 2A, 4A, … up to B (default 2..1024; boolean 4..256)");
  cmd->add_option("--target", f->target, "arith, boolean or threshold")->capture_default_str();
  cmd->add_option("--plot", f->plot,
                  "write a plot (gnuplot; .svg, .png or .pdf), its script and data beside it");
  cmd->add_flag("--csv", f->csv, "print CSV instead of the table");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_option("--fit-from", f->fit_from,
                  "with --json: also fit the points with n ≥ each of these (comma-separated), "
                  "as `fits_from` (one run, several fitting windows: docs/depth.md)")
      ->delimiter(',');
  cmd->add_option("--max-gates", f->max_gates, "refuse circuits estimated larger than this")
      ->capture_default_str();
  cmd->add_option("--max-memory", f->max_memory_mib,
                  "MiB: refuse circuits whose estimated peak memory is larger (default: half "
                  "this machine's memory)")
      ->capture_default_str();
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const CircuitTarget target = parse_target(f->target);
    if (!f->plot.empty()) plot_format_for(f->plot);  // a bad extension before the work
    const bool with_models = !f->model.empty();
    // With --model, the built-in architectures only where --arch names them.
    const auto archs = with_models && cmd->count("--arch") == 0 ? std::vector<std::string>{}
                                                                : parse_architectures(f->arch);
    const auto lengths =
        parse_lengths(!f->lengths.empty() ? f->lengths : default_depth_lengths(target));
    const bool fitting = !f->csv;  // the CSV has no fits
    if (fitting) check_fit_lengths(lengths);
    if (!f->fit_from.empty() && !f->json)
      throw InputError("--fit-from", "is printed with --json only");
    const auto models = with_models
                            ? model_depth_subjects(parse_model_paths(f->model), archs, target)
                            : std::vector<std::pair<std::string, DepthSubject>>{};
    // The table streams: each row is printed (and flushed) as soon as its circuit is measured;
    // the residuals of the chosen fits follow the fits, once every row is in.
    const bool table = !f->csv && !f->json;
    std::size_t w = 10;  // the label column: model stems may be longer than the built-in names
    for (const auto& a : archs) try {
        depth_subject(a, target);  // the architectures measure_depths will not skip
        w = std::max(w, a.size());
      } catch (const InputError&) {
      }
    for (const auto& m : models) w = std::max(w, m.first.size());
    Progress& bar = progress();
    const DepthPointSink print_row = [&](const DepthPoint& x) {
      if (!table) return;
      bar.clear();
      std::cout << fmt::format("{:<{}} {:>7} {:>12} {:>7} {:>14}\n", x.arch, w, x.n, x.size,
                               x.depth, x.bounded_fanin_depth)
                << std::flush;
    };
    if (table)
      std::cout << fmt::format("{:<{}} {:>7} {:>12} {:>7} {:>14}\n", "arch", w, "n", "size",
                               "depth", "fan-in-2 depth")
                << std::flush;
    std::vector<std::string> skipped;
    std::vector<DepthPoint> points;
    set_activity("measuring depths for --lengths " +
                     (f->lengths.empty() ? std::string("(default)") : f->lengths),
                 "the largest length of --lengths (or --max-memory, now " +
                     std::to_string(f->max_memory_mib) +
                     " MiB, to what this machine can give, so that the estimate refuses first)");
    if (!archs.empty())
      points = measure_depths(archs, lengths, target, f->max_gates, &skipped, print_row, bar,
                              f->max_memory_mib);
    const auto more =
        measure_subjects(models, lengths, target, f->max_gates, print_row, bar, f->max_memory_mib);
    points.insert(points.end(), more.begin(), more.end());
    for (const auto& why : skipped)
      std::cerr << "rnncc: note: no " << to_string(target) << " circuit for " << why << "\n";
    // The threshold routes' depth bounds for every n (the measured depths are at most them).
    if (table && !lengths.empty()) {
      const std::size_t last = lengths.back();
      std::vector<std::pair<std::string, DepthSubject>> bounded;
      for (const auto& a : archs) try {
          bounded.emplace_back(a, depth_subject(a, target));
        } catch (const InputError&) {
        }
      bounded.insert(bounded.end(), models.begin(), models.end());
      std::string lines;
      for (const auto& [label, subject] : bounded)
        if (const auto t = threshold_depth_text(subject.model, last, subject.options, last))
          lines += fmt::format("{:<{}} {}\n", label, w, *t);
      if (!lines.empty())
        std::cout << "\ndepth bounds (threshold routes, unbounded fan-in, NOT free; "
                     "docs/depth.md):\n"
                  << lines;
    }
    const auto fits = fitting ? fit_depths(points) : std::vector<DepthFit>{};
    if (!f->plot.empty()) {
      // The fitted laws drawn beside the points (fitted here for --csv too, where they can be).
      const auto plot_fits = fitting                           ? fits
                             : lengths.size() >= kMinFitPoints ? fit_depths(points)
                                                               : std::vector<DepthFit>{};
      const DepthPlotFiles files = plot_depths(points, plot_fits, target, f->plot);
      if (!files.rendered)
        std::cerr << "rnncc: gnuplot is not installed; wrote " << files.script << " and "
                  << files.data << " instead of " << f->plot << " (render them with `"
                  << files.render_hint << "`)\n";
    }
    if (f->csv) {
      std::cout << depth_csv(points);
      return 0;
    }
    if (f->json) {
      auto j = depth_json(points, fits, skipped, target);
      if (!f->fit_from.empty()) {
        // The fits a run of --lengths from each N would print: the same points, n ≥ N.
        nlohmann::ordered_json windows = nlohmann::ordered_json::array();
        for (std::size_t from : f->fit_from) {
          std::vector<std::size_t> kept_lengths;
          for (std::size_t n : lengths)
            if (n >= from) kept_lengths.push_back(n);
          if (kept_lengths.size() < kMinFitPoints)
            throw InputError("--fit-from",
                             fmt::format("{}: {} of the lengths are ≥ it, a fit needs {}", from,
                                         kept_lengths.size(), kMinFitPoints));
          std::vector<DepthPoint> kept;
          for (const DepthPoint& p : points)
            if (p.n >= from) kept.push_back(p);
          windows.push_back(
              {{"from", from},
               {"fits", depth_json(kept, fit_depths(kept), skipped, target)["fits"]}});
        }
        j["fits_from"] = windows;
      }
      std::cout << json_text(j) << "\n";
      return 0;
    }
    std::cout << "\nfits of depth (least squares; chosen by AICc = m*ln(RSS/m) + 2k + "
                 "2k(k+1)/(m-k-1),\nHurvich & Tsai 1989; residual = depth - chosen fit; -inf: "
                 "RSS = 0):\n";
    std::cout << fmt::format("{:<{}} {:<7} {:>9} {:>9} {:>8}  {}\n", "arch", w, "chosen", "a", "b",
                             "RMS", "AICc of 1 / log / loglog / log^2 / n");
    for (const auto& x : fits) {
      std::string crit;
      for (std::size_t i = 0; i < x.models.size(); ++i)
        crit += (i ? " / " : "") + (std::isinf(x.models[i].aicc)
                                        ? std::string("-inf")
                                        : fmt::format("{:.1f}", x.models[i].aicc));
      const GrowthFit& c = x.best();
      std::cout << fmt::format("{:<{}} {:<7} {:>9.4f} {:>9.3f} {:>8.3f}  {}\n", x.arch, w,
                               short_name(c.model), c.a, c.b, c.rms, crit);
    }
    std::cout << "\nresiduals (depth - chosen fit):\n" << fmt::format("{:<{}}", "arch", w);
    for (std::size_t n : lengths) std::cout << fmt::format(" {:>8}", "n=" + std::to_string(n));
    std::cout << "\n";
    for (const auto& x : fits) {
      std::cout << fmt::format("{:<{}}", x.arch, w);
      for (double r : x.residuals) std::cout << fmt::format(" {:>8.3f}", r + 0.0);
      std::cout << "\n";
    }
    return 0;
  };
}

}  // namespace rnncc::cli
