// rnncc — circuit complexity of sequence models, executable. Thin: flags in, library calls out.
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "algebra/error.hpp"
#include "algebra/gmp_pool.hpp"
#include "algebra/ranks.hpp"
#include "circuits/io/output_file.hpp"
#include "cli/commands.hpp"
#include "cli/error_boundary.hpp"
#include "cli/limits.hpp"
#include "cli/progress.hpp"
#include "cli/usage_errors.hpp"

#ifndef RNNCC_VERSION
#define RNNCC_VERSION "unknown"
#endif

// AddressSanitizer builds keep GMP on malloc, so that every GMP buffer stays checked there
// (algebra/gmp_pool.hpp).
#if defined(__SANITIZE_ADDRESS__)
#define RNNCC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RNNCC_ASAN 1
#endif
#endif

namespace {

// CLI11 reads "-1" into an unsigned option as 2^64 − 1 (so `--max-steps -5` would mean no
// limit): every option of an unsigned type takes a plain decimal that fits 64 bits.
void refuse_signed_unsigned(CLI::App& app) {
  static const CLI::Validator whole_number(
      [](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size())
          return "'" + text + "': expected a whole number from 0 to 2^64 − 1";
        return {};
      },
      "");
  for (CLI::Option* o : app.get_options())
    if (o->get_type_name() == "UINT") o->check(whole_number);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    refuse_signed_unsigned(*sub);
}

// Parses the command line and runs the one command given; exceptions go to run_guarded.
int run_rnncc(int argc, char** argv) {
  CLI::App app{
      "rnncc: compile linear-RNN recurrences into circuits, measure them, and machine-check "
      "constructions from the circuit-complexity literature",
      "rnncc"};
  app.set_version_flag("--version", std::string("rnncc ") + RNNCC_VERSION);
  app.require_subcommand(1);
  std::vector<rnncc::cli::Action> actions{
      rnncc::cli::add_run_command(app),    rnncc::cli::add_compile_command(app),
      rnncc::cli::add_stats_command(app),  rnncc::cli::add_construct_command(app),
      rnncc::cli::add_verify_command(app), rnncc::cli::add_eval_command(app),
      rnncc::cli::add_depth_command(app),  rnncc::cli::add_convert_command(app)};
  // After verify, construct and draw: adds `tm` to each (cli/tm_command.cpp).
#ifdef RNNCC_HAVE_GRAPHVIZ
  actions.push_back(rnncc::cli::add_draw_command(app));
#endif
  actions.insert(actions.begin(), rnncc::cli::add_tm_commands(app));
  actions.push_back(rnncc::cli::add_equiv_command(app));  // issue 13: every-length proofs
  actions.push_back(rnncc::cli::add_check_certificate_command(app));
  actions.push_back(rnncc::cli::add_minimize_command(app));
  actions.push_back(rnncc::cli::add_import_command(app));
  actions.push_back(rnncc::cli::add_import_weights_command(app));
  rnncc::cli::add_max_input_option(app);  // every file reader's size limit (cli/limits.hpp)
  refuse_signed_unsigned(app);
  rnncc::cli::add_quiet_flag(app);  // after every subcommand: they all accept it
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // a typo: "did you mean …?" (cli/usage_errors.hpp)
    std::cerr << rnncc::cli::usage_error(app, e);
    return 2;
  }
  // Under mpirun only the commands that shard their work run (algebra/ranks.hpp); any other
  // would run R times over, its outputs racing.
  if (rnncc::world_ranks().size() > 1)
    for (const CLI::App* sub : app.get_subcommands())
      if (sub->get_name() != "verify" && sub->get_name() != "eval")
        throw rnncc::InputError("mpirun", "`rnncc " + sub->get_name() +
                                              "` does not shard its work: only verify and eval "
                                              "run over MPI ranks; run it without mpirun");
  for (auto& action : actions)
    if (int rc = action(); rc >= 0) return rc;
  return 2;
}

}  // namespace

namespace {

// What was printed must have arrived: a standard output that failed (a full disk, `ulimit -f`,
// a closed pipe when SIGPIPE was inherited ignored) is an error, exit 2, not a silent success
// with a truncated answer. (With SIGPIPE at its default the process dies of it at the write,
// silently, as any filter of a pipeline does: see install_output_cleanup_handlers.)
int check_standard_output(int rc) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = errno;
  if (flushed && std::cout && !std::ferror(stdout)) return rc;
  // The reason is known when this flush failed; an earlier failed write left only the flag.
  std::cerr << "rnncc: error: writing the standard output failed"
            << (!flushed && err != 0
                    ? std::string(": ") + std::strerror(err)
                    : std::string(
                          " (a full disk, the file size limit of `ulimit -f`, a closed pipe)"))
            << "\n";
  return rc == 3 ? 3 : 2;
}

}  // namespace

// The one error boundary (cli/error_boundary.hpp): every exception becomes a diagnostic and
// exit 2 (bad input, too much asked) or 3 (a bug); a signal removes the temporary files of
// unfinished outputs, and SIGXFSZ is ignored so that `ulimit -f` is a write error
// (circuits/io/output_file.hpp).
int main(int argc, char** argv) {
#ifndef RNNCC_ASAN
  rnncc::gmp_pool::install();  // small integers' and rationals' limbs from slabs, not malloc
#endif
  rnncc::cli::install_terminate_handler(argc, argv);
  rnncc::install_output_cleanup_handlers();
  const int rc = rnncc::cli::run_guarded(
      [&] {
        // Launched by mpirun: MPI starts, and ranks other than 0 print nothing (rank 0 prints
        // the one report; errors reach every rank alike, algebra/sharded_run.hpp).
        if (rnncc::start_ranks(&argc, &argv) && rnncc::world_ranks().rank() != 0) {
          (void)std::freopen("/dev/null", "w", stdout);
          (void)std::freopen("/dev/null", "w", stderr);
        }
        return run_rnncc(argc, argv);
      },
      argc, argv, std::cerr);
  const int checked = check_standard_output(rc);
  rnncc::stop_ranks();
  return checked;
}
