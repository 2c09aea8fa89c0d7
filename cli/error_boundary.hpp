// The one error boundary of the `rnncc` executable (DESIGN.md, "Errors, exit codes, output"):
// main runs everything inside run_guarded, which turns whatever escapes into one diagnostic on
// stderr and an exit code, so that nothing reaches std::terminate:
//   rnncc::InputError, rnncc::DomainError       → "rnncc: error: <what>", exit 2 (bad input)
//   nlohmann::json::parse_error                 → "rnncc: error: <what>", exit 2 (not JSON)
//   std::bad_alloc, std::length_error           → "rnncc: error: out of memory …" and what to
//                                                 lower, exit 2 (the work asked for is too big)
//   std::filesystem::filesystem_error           → "rnncc: error: <path>: <why>", exit 2
//   other std::system_error (threads, streams)  → "rnncc: error: the system refused: …", exit 2
//   anything else (std::logic_error and its kin, other nlohmann::json exceptions, unknown
//   types)                                      → "rnncc: internal error: <what> — please report
//                                                 this …" with the command line, exit 3 (a bug)
// Exit 1 is the commands' own: a check found a counterexample.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace rnncc::cli {

// Where the "please report" message sends bug reports.
inline constexpr const char* kReportTo = "the rnncc issue tracker";

// The command line as a shell would take it back: words with characters outside
// [A-Za-z0-9_./:=,+%@-] single-quoted (so the report can be pasted).
std::string command_line(int argc, const char* const* argv);

// Runs `body` and returns its exit code, or prints the diagnostic of what escaped it on `err`
// and returns 2 or 3 (table above).
int run_guarded(const std::function<int()>& body, int argc, const char* const* argv,
                std::ostream& err);

// The last resort for what cannot reach run_guarded (an exception leaving a worker thread or a
// noexcept function): std::set_terminate to a handler that prints the internal-error message
// with this command line and exits 3. Keeps a copy of the command line.
void install_terminate_handler(int argc, const char* const* argv);

}  // namespace rnncc::cli
