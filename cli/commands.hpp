// The `rnncc` subcommands. Each registers its flags on the app and returns the action to run
// after parsing; actions call the library and print. Exit codes: 0 success, 1 a check found a
// counterexample, 2 bad input (docs/architecture.md, "The command boundary").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "circuits/compile/target.hpp"

namespace rnncc {
struct CompiledCircuit;
}

namespace rnncc::cli {

using Action = std::function<int()>;

Action add_run_command(CLI::App& app);
Action add_compile_command(CLI::App& app);
Action add_stats_command(CLI::App& app);
Action add_draw_command(CLI::App& app);
Action add_construct_command(CLI::App& app);
Action add_verify_command(CLI::App& app);
Action add_eval_command(CLI::App& app);
// `verify tm`, `construct tm` and `draw tm` (Graphviz builds): added to the existing commands.
Action add_tm_commands(CLI::App& app);
Action add_depth_command(CLI::App& app);
Action add_convert_command(CLI::App& app);
Action add_equiv_command(CLI::App& app);              // cli/equiv_command.cpp (issue 13)
Action add_check_certificate_command(CLI::App& app);  // cli/check_certificate_command.cpp
Action add_minimize_command(CLI::App& app);           // cli/minimize_command.cpp
Action add_import_command(CLI::App& app);             // cli/import_command.cpp
Action add_import_weights_command(CLI::App& app);     // cli/import_weights_command.cpp

// "a,b,c" → {"a", "b", "c"} (cli/import_command.cpp).
std::vector<std::string> split_commas(const std::string& text);

// Flags shared by `compile` and `draw MODEL.json`.
struct CompileFlags : TargetText {  // the options as text (circuits/compile/target.hpp)
  std::size_t length = 0;
};
void add_compile_flags(CLI::App* cmd, CompileFlags& flags);
// The circuit as `rnncc compile` writes it (compile_as_written: the dead gates swept), which
// `rnncc draw MODEL` draws too.
CompiledCircuit compile_from_flags(const std::string& model_path, const CompileFlags& flags);

}  // namespace rnncc::cli
