#include "viz/plot_depth.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "algebra/error.hpp"
#include "circuits/io/circuit_json.hpp"

namespace rnncc {

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
      "set output '" +
      (dir / "plot.svg").string() +
      "'\n"
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
  const std::string cmd =
      "gnuplot '" + (dir / "plot.gp").string() + "' 2>'" + (dir / "err.txt").string() + "'";
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
