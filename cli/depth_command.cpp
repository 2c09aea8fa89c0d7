// rnncc depth --arch LIST --lengths A..B [--target arith|boolean|threshold] [--plot OUT.svg]
// [--csv] [--json] [--max-gates N]: circuit depth growth across architectures
// (circuits/depth_growth.hpp).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/depth_growth.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/io/json_output.hpp"
#include "cli/commands.hpp"
#include "viz/plot_depth.hpp"

namespace rnncc::cli {

Action add_depth_command(CLI::App& app) {
  struct Flags {
    std::string arch = "diagonal,s4,pd,dplr,deltanet,gdn,rwkv7,relu-rnn,uhat,hybrid,counter",
                lengths = "2..1024", target = "arith", plot;
    bool csv = false, json = false;
    std::size_t max_gates = std::size_t{1} << 26;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "depth", "Compare circuit depth growth across architectures, with fitted growth laws");
  cmd->add_option("--arch", f->arch, "architectures (comma-separated)")->capture_default_str();
  cmd->add_option("--lengths", f->lengths, "A..B: n = A, 2A, 4A, … up to B")->capture_default_str();
  cmd->add_option("--target", f->target, "arith, boolean or threshold")->capture_default_str();
  cmd->add_option("--plot", f->plot, "write an SVG plot (gnuplot)");
  cmd->add_flag("--csv", f->csv, "print CSV instead of the table");
  cmd->add_flag("--json", f->json, "print JSON");
  cmd->add_option("--max-gates", f->max_gates, "refuse circuits estimated larger than this")
      ->capture_default_str();
  return [cmd, f]() -> int {
    if (!cmd->parsed()) return -1;
    const CircuitTarget target = parse_target(f->target);
    const auto archs = parse_architectures(f->arch);
    const auto lengths = parse_lengths(f->lengths);
    std::vector<std::string> skipped;
    const auto points = measure_depths(archs, lengths, target, f->max_gates, &skipped);
    for (const auto& why : skipped)
      std::cerr << "rnncc: note: no " << to_string(target) << " circuit for " << why << "\n";
    const auto fits = fit_depths(points);
    if (!f->plot.empty() && !plot_depths_svg(points, f->plot)) {
      const std::string csv_path = f->plot + ".csv";
      write_file_atomically(csv_path, depth_csv(points));
      std::cerr << "rnncc: gnuplot is not installed; wrote the data to " << csv_path
                << " instead of " << f->plot << "\n";
    }
    if (f->json) {
      nlohmann::ordered_json p = nlohmann::ordered_json::array(),
                             q = nlohmann::ordered_json::array();
      for (const auto& x : points)
        p.push_back({{"arch", x.arch},
                     {"n", x.n},
                     {"size", x.size},
                     {"depth", x.depth},
                     {"bounded_fanin_depth", x.bounded_fanin_depth}});
      for (const auto& x : fits)
        q.push_back({{"arch", x.arch},
                     {"model", to_string(x.model)},
                     {"a", x.a},
                     {"b", x.b},
                     {"residual", x.residual},
                     {"best", x.best}});
      std::cout << json_text(
                       nlohmann::ordered_json{{"points", p}, {"fits", q}, {"skipped", skipped}})
                << "\n";
      return 0;
    }
    if (f->csv) {
      std::cout << depth_csv(points);
      return 0;
    }
    std::cout << fmt::format("{:<10} {:>7} {:>12} {:>7} {:>14}\n", "arch", "n", "size", "depth",
                             "fan-in-2 depth");
    for (const auto& x : points)
      std::cout << fmt::format("{:<10} {:>7} {:>12} {:>7} {:>14}\n", x.arch, x.n, x.size, x.depth,
                               x.bounded_fanin_depth);
    std::cout << "\nfits of depth (least squares; residual = RMS):\n";
    if (fits.empty())
      std::cout << "  (none: a fit needs at least two lengths; three tell the laws apart)\n";
    for (const auto& x : fits)
      std::cout << fmt::format("{:<10} {:<15} a = {:>9.4f}  b = {:>9.3f}  residual {:>8.3f}{}\n",
                               x.arch, to_string(x.model), x.a, x.b, x.residual,
                               x.best ? "  best" : "");
    return 0;
  };
}

}  // namespace rnncc::cli
