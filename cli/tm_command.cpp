// placeholder (being written): rnncc verify tm / construct tm / draw tm
#include "cli/commands.hpp"

namespace rnncc::cli {

Action add_tm_commands(CLI::App&) {
  return [] { return -1; };
}

}  // namespace rnncc::cli
