// Driving ABC (Debian's `berkeley-abc`) from tests: whether it is installed, a scratch
// directory for the files it reads, and running a command script. Tests that need ABC skip
// with a WARN ("SKIPPED: …") when it is absent.
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "tests/support.hpp"

namespace rnncc::testing {

inline bool abc_available() {
  static const bool found = std::system("command -v berkeley-abc >/dev/null 2>&1") == 0;
  return found;
}

// A scratch directory under the system's temporary directory, removed at the end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("rnncc-abc-" + std::to_string(rd()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // Writes `contents` to a file of the directory; returns its path.
  std::string file(const std::string& name, const std::string& contents) const {
    const auto p = path / name;
    std::ofstream(p, std::ios::binary) << contents;
    return p.string();
  }
};

// Runs `berkeley-abc -c "commands"` (killed after 5 minutes) and returns stdout and stderr.
inline std::string abc(const std::string& commands) {
  const std::string cmd = "timeout 300 berkeley-abc -c \"" + commands + "\" 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace rnncc::testing

// Returns from the test case, with the skip notice ctest recognizes, when ABC is not installed.
#define REQUIRE_ABC() \
  if (!rnncc::testing::abc_available()) RNNCC_SKIP("berkeley-abc not found")

// ---------------------------------------------------------------------------------------------
// Names across netlist formats (tests/circuits/io/test_netlist_names.cpp).
namespace rnncc::testing {

// ABC's plain `cec A B` (inputs and outputs matched by name, not by position).
inline std::string abc_cec(const std::string& a, const std::string& b) {
  return abc("cec " + a + " " + b);
}

}  // namespace rnncc::testing
