// The CLI's progress line (algebra/progress.hpp): drawn on stderr when stderr is a terminal and
// the global --quiet is not given; otherwise the reporter that reports nothing, so output to
// files and pipes is byte for byte what it was (docs/cli.md, "Progress").
#pragma once

#include <CLI/CLI.hpp>

#include "algebra/progress.hpp"

namespace rnncc::cli {

// Adds -q,--quiet to the app and to every subcommand already added (one flag for all).
void add_quiet_flag(CLI::App& app);
// The reporter for this run: a ProgressLine on stderr (ticked 10 times a second) or no_progress().
Progress& progress();

}  // namespace rnncc::cli
