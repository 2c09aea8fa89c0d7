#include "cli/error_boundary.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
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

// The current activity (set_activity): two fixed buffers, the one not shown is written and then
// published, so that the handlers read a whole record and never allocate (they run when memory
// has run out).
struct ActivityRecord {
  char doing[256] = {};
  char lower[256] = {};
};
ActivityRecord g_activity[2];
std::atomic<int> g_shown{-1};  // −1: nothing set

void copy_truncated(char (&to)[256], std::string_view from) {
  const std::size_t n = std::min(from.size(), sizeof to - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

// What to lower when memory runs out and no command said what it was doing.
const char* kOutOfMemoryGeneric =
    "rnncc: error: out of memory: the work asked for does not fit in this machine's memory; "
    "lower --length (or --lengths, --batch, --exhaustive, --max-steps, --generate) or the limit "
    "that admitted it (--max-gates, --max-states, --max-patterns, --max-memory)\n";

// Writes the out-of-memory diagnostic with write(2) calls only: no allocation.
void write_out_of_memory(int fd) {
  auto put = [fd](const char* s) {
    std::size_t n = std::strlen(s);
    while (n > 0) {
      const ssize_t k = ::write(fd, s, n);
      if (k <= 0) return;
      s += k;
      n -= static_cast<std::size_t>(k);
    }
  };
  const int shown = g_shown.load();
  if (shown < 0) {
    put(kOutOfMemoryGeneric);
    return;
  }
  const ActivityRecord& a = g_activity[shown];
  put("rnncc: error: out of memory while ");
  put(a.doing);
  if (a.lower[0] != '\0') {
    put("; lower ");
    put(a.lower);
  }
  put("\n");
}

std::string g_command;  // for the terminate handler

bool is_out_of_memory(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return true;
  } catch (const std::length_error&) {
    return true;
  } catch (...) {
    return false;
  }
}

[[noreturn]] void terminate_handler() {
  remove_pending_outputs();  // no half-written output survives this exit either
  const std::exception_ptr e = std::current_exception();
  if (e && is_out_of_memory(e)) {  // thrown where it could not unwind (a noexcept destructor)
    std::cerr.flush();
    write_out_of_memory(2);
    std::_Exit(3);
  }
  std::string what = "std::terminate was called";
  if (e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      what = std::string("an exception escaped a thread or a noexcept function: ") + x.what();
    } catch (...) {
      what = "an exception of unknown type escaped a thread or a noexcept function";
    }
  }
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

void set_activity(std::string_view doing, std::string_view lower) {
  const int next = g_shown.load() == 0 ? 1 : 0;
  copy_truncated(g_activity[next].doing, doing);
  copy_truncated(g_activity[next].lower, lower);
  g_shown.store(next);
}

void clear_activity() {
  g_shown.store(-1);
}

std::string out_of_memory_message() {
  const int shown = g_shown.load();
  if (shown < 0) return kOutOfMemoryGeneric;
  const ActivityRecord& a = g_activity[shown];
  std::string out = std::string("rnncc: error: out of memory while ") + a.doing;
  if (a.lower[0] != '\0') out += std::string("; lower ") + a.lower;
  return out + "\n";
}

namespace {
// The memory is back once the stack unwound to here; the temporary outputs went with it (their
// destructors), and remove_pending_outputs() catches any that a failed destructor left.
int report_out_of_memory(std::ostream& err) {
  remove_pending_outputs();
  err.flush();
  if (&err == &std::cerr) {
    write_out_of_memory(2);  // without allocating, in case memory is still short
  } else {
    err << out_of_memory_message();
  }
  return 3;
}
}  // namespace

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
    return report_out_of_memory(err);
  } catch (const std::length_error&) {  // a size beyond what a container can hold
    return report_out_of_memory(err);
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
