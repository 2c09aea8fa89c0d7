// What `rnncc` prints when CLI11 refuses the command line (docs/cli.md, "Typos"): an unknown
// command or kind is named with the nearest one (algebra/suggest.hpp) and the list of them, an
// unknown option with the nearest option of that command, a missing command or kind with the
// usage line and the list. The names come from the CLI11 app as built — every command and kind
// registered — never from a list of their own. Exit 2 in every case (main.cpp).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rnncc::cli {

// The diagnostic for `e`, thrown by app.parse (the app is read as that parse left it: the
// commands it selected and the words it could not place), ending in a newline:
//   rnncc: error: 'comple' is not an rnncc command      rnncc: error: compile: unknown option
//   --lenght did you mean compile?                               did you mean --length? commands:
//   (rnncc compile --help lists its options)
//     run      evaluate a model …
// Errors with no word to blame (a missing required option, a value CLI11 refuses) keep CLI11's
// text: "rnncc: error: <what>" and "(run with --help for the usage)".
std::string usage_error(const CLI::App& app, const CLI::ParseError& e);

// A CLI11 check that the value is one of `values` (CLI::IsMember's place, shown the same way in
// --help as {a,b,c}); a refusal says "'x': expected a, b or c" and, on its next line, the
// nearest value ("did you mean b?").
CLI::Validator choice_of(std::vector<std::string> values);

// "  NAME  HELP" for every subcommand of `app` a help page shows (named, not hidden), in the
// order they were added, names padded to one column; one line each.
std::string subcommand_list(const CLI::App& app);

}  // namespace rnncc::cli
