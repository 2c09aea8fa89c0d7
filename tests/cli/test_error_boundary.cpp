// The CLI's one error boundary (cli/error_boundary.hpp) called directly with bodies that throw
// each class of exception: the exit code and the diagnostic of each; and the atomic output files
// (circuits/io/output_file.hpp): nothing left behind, an existing target untouched on failure.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "circuits/io/json_text.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/error_boundary.hpp"
#include "cli/limits.hpp"
#include "tests/support.hpp"

namespace rnncc {
namespace {

const char* const kArgv[] = {"/usr/bin/rnncc", "compile", "my model.json", "--length", "8", "it's"};
constexpr int kArgc = 6;

std::size_t entries(const std::filesystem::path& dir);

struct Outcome {
  int rc;
  std::string err;
};

Outcome guarded(const std::function<int()>& body) {
  std::ostringstream err;
  const int rc = cli::run_guarded(body, kArgc, kArgv, err);
  return {rc, err.str()};
}

const std::string kCommand = "rnncc compile 'my model.json' --length 8 'it'\\''s'";

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

TEST_CASE("the boundary passes a command's own exit code through and prints nothing") {
  for (int code : {0, 1, 2}) {
    const Outcome o = guarded([code] { return code; });
    CHECK(o.rc == code);
    CHECK(o.err.empty());
  }
}

TEST_CASE("bad input and undefined semantics: 'rnncc: error:', exit 2") {
  Outcome o = guarded([]() -> int { throw InputError("m.json: /layers/0", "expected an array"); });
  CHECK(o.rc == 2);
  CHECK(o.err == "rnncc: error: m.json: /layers/0: expected an array\n");
  o = guarded([]() -> int { throw DomainError("3 has no inverse modulo 3"); });
  CHECK(o.rc == 2);
  CHECK(o.err == "rnncc: error: 3 has no inverse modulo 3\n");
}

TEST_CASE("a JSON parse error that escapes a reader is bad input, exit 2") {
  const Outcome o =
      guarded([]() -> int { return static_cast<int>(nlohmann::json::parse("{").size()); });
  CHECK(o.rc == 2);
  CHECK(starts_with(o.err, "rnncc: error: the input is not valid JSON: "));
}

TEST_CASE("out of memory says what was being done and what to lower, exit 3") {
  cli::clear_activity();
  for (int kind = 0; kind < 2; ++kind) {
    const Outcome o = guarded([kind]() -> int {
      if (kind == 0) throw std::bad_alloc();
      throw std::length_error("vector::reserve");
    });
    CHECK(o.rc == 3);
    CHECK(starts_with(o.err, "rnncc: error: out of memory: "));  // no activity set: generic
    CHECK(o.err.find("lower --length") != std::string::npos);
    CHECK(o.err.find("--max-memory") != std::string::npos);
  }
  cli::set_activity("building the circuit", "--length/-n");
  cli::set_activity("writing big.json", "--length/-n (or --max-memory)");  // the last one counts
  Outcome o = guarded([]() -> int { throw std::bad_alloc(); });
  CHECK(o.rc == 3);
  CHECK(o.err ==
        "rnncc: error: out of memory while writing big.json; lower --length/-n (or "
        "--max-memory)\n");
  // Long text is truncated to the record's fixed buffers, never allocated in the handler.
  cli::set_activity(std::string(1000, 'x'), "");
  o = guarded([]() -> int { throw std::bad_alloc(); });
  CHECK(o.rc == 3);
  CHECK(o.err == "rnncc: error: out of memory while " + std::string(255, 'x') + "\n");
  cli::clear_activity();
}

TEST_CASE("out of memory where it cannot unwind: the terminate handler, exit 3, outputs gone") {
  // In a child process: the handler exits it. A bad_alloc that reaches std::terminate (as one
  // thrown inside a noexcept destructor does), with an output file pending.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rnncc-boundary-terminate-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string log = (dir / "stderr.txt").string();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::FILE* f = std::freopen(log.c_str(), "w", stderr);
    if (f == nullptr) std::_Exit(99);
    cli::install_terminate_handler(kArgc, kArgv);
    cli::set_activity("writing big.json", "--length/-n");
    OutputFile out((dir / "big.json").string());
    out.write("{\"format\":");
    try {
      throw std::bad_alloc();
    } catch (...) {
      std::terminate();  // what a noexcept frame does with the exception in flight
    }
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "rnncc: error: out of memory while writing big.json; lower --length/-n\n");
  CHECK(entries(dir) == 1);  // stderr.txt only: the temporary output was removed
  std::filesystem::remove_all(dir);
}

TEST_CASE("a file system error names the path, exit 2, another system error exit 2") {
  Outcome o = guarded([]() -> int {
    throw std::filesystem::filesystem_error("rename", "out/c.json",
                                            std::make_error_code(std::errc::permission_denied));
  });
  CHECK(o.rc == 2);
  CHECK(o.err == "rnncc: error: out/c.json: Permission denied\n");
  o = guarded([]() -> int {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "thread");
  });
  CHECK(o.rc == 2);
  CHECK(starts_with(o.err, "rnncc: error: the system refused: thread"));
}

TEST_CASE("anything else is an internal error: exit 3, please report, the command line") {
  const std::vector<std::function<int()>> bodies = {
      []() -> int { throw std::invalid_argument("stoul"); },
      []() -> int { throw std::out_of_range("vector::at"); },
      []() -> int { throw std::logic_error("gate 44 (positive) has no meaning modulo a prime"); },
      []() -> int { throw std::runtime_error("broken invariant"); },
      []() -> int { return static_cast<int>(nlohmann::json(1).at("x").size()); },  // type_error
      []() -> int { throw 42; },
  };
  const std::vector<std::string> whats = {"stoul",
                                          "vector::at",
                                          "gate 44 (positive) has no meaning modulo a prime",
                                          "broken invariant",
                                          "[json.exception.type_error.304]",
                                          "an exception of unknown type"};
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Outcome o = guarded(bodies[i]);
    INFO(o.err);
    CHECK(o.rc == 3);
    CHECK(starts_with(o.err, "rnncc: internal error: " + whats[i]));
    CHECK(o.err.find(std::string(" — please report this at ") + cli::kReportTo +
                     " with the command line: " + kCommand + "\n") != std::string::npos);
  }
}

TEST_CASE("printed JSON replaces bytes that are not UTF-8 instead of throwing") {
  nlohmann::ordered_json j{{"name", std::string("a\xff") + "b"}};
  CHECK_THROWS_AS(j.dump(), nlohmann::json::type_error);
  CHECK(json_text(j, -1) ==
        "{\"name\":\"a\xEF\xBF\xBD"
        "b\"}");
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rnncc-boundary-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::size_t entries(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// The methods of output files, signals, modes and links: tests/circuits/io/test_output_file.cpp.

TEST_CASE("an abandoned output (an exception) leaves an existing target untouched") {
  const auto dir = fresh_dir("abandon");
  const std::string target = (dir / "out.txt").string();
  write_file_atomically(target, "old\n");
  try {
    OutputFile f(target);
    f.write("half of the new");
    throw std::runtime_error("the work failed");
  } catch (const std::runtime_error&) {
  }
  CHECK(read_all(target) == "old\n");
  CHECK(entries(dir) == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("an output that cannot be created is bad input naming the target") {
  const auto dir = fresh_dir("refuse");
  test::expect_input_error(
      [&] { OutputFile f((dir / "no/such/out.txt").string()); }, (dir / "no/such/out.txt").string(),
      "cannot write the output file: no directory " + (dir / "no/such").string());
  test::expect_input_error([&] { OutputFile f(dir.string()); }, dir.string(),
                           "cannot write the output file: it is a directory");
  CHECK(entries(dir) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("work estimates saturate instead of wrapping, and a refusal names its option") {
  const std::uint64_t max = UINT64_MAX;
  CHECK(cli::saturating_mul(std::uint64_t{1} << 40, std::uint64_t{1} << 30) == max);
  CHECK(cli::saturating_mul(0, max) == 0);
  CHECK(cli::saturating_add(max - 1, 5) == max);
  CHECK(cli::saturating_pow(2, 63) == std::uint64_t{1} << 63);
  CHECK(cli::saturating_pow(2, 64) == max);
  CHECK(cli::saturating_pow(1, 1000000) == 1);
  CHECK(cli::saturating_pow(7, 0) == 1);
  CHECK_NOTHROW(cli::check_work("--max-work", 100, 100, "x would take", "steps", ""));
  test::expect_input_error(
      [] {
        cli::check_work("--max-work", 101, 100, "eval would take", "word operations", "a × b");
      },
      "--max-work",
      "eval would take about 101 word operations (a × b), more than the limit of 100 (raise "
      "--max-work to run it anyway)");
  test::expect_input_error(
      [] { cli::check_work("--max-work", UINT64_MAX, 100, "verify would take", "steps", ""); },
      "--max-work", "verify would take more than 2^64 steps, more than the limit of 100");
  // The forward basis: D³·|Σ|.
  test::expect_input_error([] { cli::check_forward_basis_work(10, 3, 2999, "equiv"); },
                           "--max-work", "equiv would take about 3000 field operations");
  CHECK_NOTHROW(cli::check_forward_basis_work(10, 3, 3000, "equiv"));
}

TEST_CASE("a device target is written in place, never replaced by a file") {
  write_file_atomically("/dev/null", "discarded\n");
  CHECK(std::filesystem::is_character_file("/dev/null"));
  OutputFile f("/dev/null");
  CHECK(f.temporary_path().empty());
}

}  // namespace
}  // namespace rnncc
