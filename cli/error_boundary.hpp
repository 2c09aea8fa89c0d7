// The one error boundary of the `rnncc` executable (docs/architecture.md, "The command boundary"):
// main runs everything inside run_guarded, which turns whatever escapes into one diagnostic on
// stderr and an exit code, so that nothing reaches std::terminate:
//   rnncc::InputError, rnncc::DomainError       → "rnncc: error: <what>", exit 2 (bad input)
//   nlohmann::json::parse_error                 → "rnncc: error: <what>", exit 2 (not JSON)
//   std::bad_alloc, std::length_error           → "rnncc: error: out of memory while <activity>;
//                                                 lower <option>", exit 3 (the estimate passed
//                                                 --max-memory, yet the memory ran out), every
//                                                 pending temporary output removed
//   std::filesystem::filesystem_error           → "rnncc: error: <path>: <why>", exit 2
//   other std::system_error (threads, streams)  → "rnncc: error: the system refused: …", exit 2
//   anything else (std::logic_error and its kin, other nlohmann::json exceptions, unknown
//   types)                                      → "rnncc: internal error: <what> — please report
//                                                 this …" with the command line, exit 3 (a bug)
// Exit 1 is the commands' own: a check found a counterexample. An out-of-memory that cannot
// unwind (std::bad_alloc thrown inside a noexcept destructor) reaches the terminate handler, which
// prints the same "out of memory while …" line, removes the temporary outputs and exits 3.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace rnncc::cli {

// Where the "please report" message sends bug reports.
inline constexpr const char* kReportTo = "the rnncc issue tracker";

// The command line as a shell would take it back: words with characters outside
// [A-Za-z0-9_./:=,+%@-] single-quoted (so the report can be pasted).
std::string command_line(int argc, const char* const* argv);

// The current activity, for the out-of-memory diagnostics: a command sets it at each phase
// ("building the circuit of m.json for n = 40000", "writing big.json") with the options that
// lower that work ("--length/-n, or --max-memory …"). Kept in fixed buffers (256 bytes each,
// longer text truncated) that the handlers read without allocating; a phase replaces the last.
void set_activity(std::string_view doing, std::string_view lower);
void clear_activity();  // back to the generic out-of-memory message
// "rnncc: error: out of memory while <doing>; lower <lower>\n", or the generic message.
std::string out_of_memory_message();

// Runs `body` and returns its exit code, or prints the diagnostic of what escaped it on `err`
// and returns 2 or 3 (table above).
int run_guarded(const std::function<int()>& body, int argc, const char* const* argv,
                std::ostream& err);

// The last resort for what cannot reach run_guarded (an exception leaving a worker thread or a
// noexcept function): std::set_terminate to a handler that removes the pending temporary
// outputs, then prints the out-of-memory diagnostic (std::bad_alloc, std::length_error) or the
// internal-error message with this command line, and exits 3. Keeps a copy of the command line.
void install_terminate_handler(int argc, const char* const* argv);

}  // namespace rnncc::cli
