#include "viz/plot_depth.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

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

}  // namespace

bool plot_depths_svg(const std::vector<DepthPoint>& points, const std::string& svg_path) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) return false;
  // The SVG's temporary file beside the target, opened first (an unwritable target is refused
  // before gnuplot runs); gnuplot's own files (.dat, .gp, its SVG, its messages) live in a
  // private working directory, never beside the target.
  OutputFile out(svg_path);
  const WorkDir dir;
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
    std::string data;
    for (const auto& p : points)
      if (p.arch == order[i]) data += std::to_string(p.n) + " " + std::to_string(p.depth) + "\n";
    const auto dat = dir / (std::to_string(i) + ".dat");
    write_file_atomically(dat.string(), data);
    script += (i ? ", " : "") + std::string("'") + dat.string() +
              "' using 1:2 with linespoints title '" + order[i] + "'";
  }
  script += "\n";
  write_file_atomically((dir / "plot.gp").string(), script);
  const std::string cmd =
      "gnuplot '" + (dir / "plot.gp").string() + "' 2>'" + (dir / "err.txt").string() + "'";
  if (std::system(cmd.c_str()) != 0)
    throw InputError("--plot", "gnuplot failed: " + read_file(dir / "err.txt"));
  out.write(read_file(dir / "plot.svg"));
  out.commit();
  return true;
}

}  // namespace rnncc
