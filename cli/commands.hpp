// The `rnncc` subcommands. Each registers its flags on the app and returns the action to run
// after parsing; actions call the library and print. Exit codes: 0 success, 1 a check found a
// counterexample, 2 bad input (DESIGN.md, "Errors").
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace rnncc::cli {

using Action = std::function<int()>;

Action add_run_command(CLI::App& app);

}  // namespace rnncc::cli
