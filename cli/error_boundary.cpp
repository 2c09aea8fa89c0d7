#include "cli/error_boundary.hpp"

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "algebra/error.hpp"
#include "circuits/io/output_file.hpp"

namespace rnncc::cli {

namespace {

std::string quote(const std::string& word) {
  static const std::string plain =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+%@-";
  if (!word.empty() && word.find_first_not_of(plain) == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string internal_error(const std::string& what, const std::string& command) {
  return "rnncc: internal error: " + what + " — please report this at " + kReportTo +
         " with the command line: " + command + "\n";
}

// What to lower when memory runs out: the options that size the work, by command.
const char* kOutOfMemory =
    "rnncc: error: out of memory: the work asked for does not fit in this machine's memory; "
    "lower --length (or --lengths, --batch, --exhaustive, --max-steps, --generate) or the limit "
    "that admitted it (--max-gates, --max-states, --max-patterns)\n";

std::string g_command;  // for the terminate handler

[[noreturn]] void terminate_handler() {
  std::string what = "std::terminate was called";
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      what = std::string("an exception escaped a thread or a noexcept function: ") + x.what();
    } catch (...) {
      what = "an exception of unknown type escaped a thread or a noexcept function";
    }
  }
  remove_pending_outputs();  // no half-written output survives this exit either
  std::cerr << internal_error(what, g_command) << std::flush;
  std::_Exit(3);
}

}  // namespace

std::string command_line(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string word = i == 0 ? std::string("rnncc") : std::string(argv[i] ? argv[i] : "");
    out += (i ? " " : "") + quote(word);
  }
  return out.empty() ? "rnncc" : out;
}

int run_guarded(const std::function<int()>& body, int argc, const char* const* argv,
                std::ostream& err) {
  try {
    return body();
  } catch (const InputError& e) {
    err << "rnncc: error: " << e.what() << "\n";
    return 2;
  } catch (const DomainError& e) {
    err << "rnncc: error: " << e.what() << "\n";
    return 2;
  } catch (const nlohmann::json::parse_error& e) {
    // A reader hands well-formed JSON to nlohmann only after it checked it; a parse error
    // that escapes still means the input is not JSON.
    err << "rnncc: error: the input is not valid JSON: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << kOutOfMemory;
    return 2;
  } catch (const std::length_error&) {  // a size beyond what a container can hold
    err << kOutOfMemory;
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::string where = e.path1().string();
    if (!e.path2().empty()) where += " → " + e.path2().string();
    err << "rnncc: error: " << (where.empty() ? "" : where + ": ") << e.code().message() << "\n";
    return 2;
  } catch (const std::system_error& e) {
    err << "rnncc: error: the system refused: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << internal_error(e.what(), command_line(argc, argv));
    return 3;
  } catch (...) {
    err << internal_error("an exception of unknown type", command_line(argc, argv));
    return 3;
  }
}

void install_terminate_handler(int argc, const char* const* argv) {
  g_command = command_line(argc, argv);
  std::set_terminate(terminate_handler);
}

}  // namespace rnncc::cli
