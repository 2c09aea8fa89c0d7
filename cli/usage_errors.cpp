#include "cli/usage_errors.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "algebra/suggest.hpp"
#include "constructions/registry.hpp"  // one_of

namespace rnncc::cli {

namespace {

std::vector<const CLI::App*> shown_subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) {
    return !sub->get_name().empty() && !sub->get_group().empty() && !sub->get_disabled();
  });
}

// "verify parity": the words of the commands from the root to `app`.
std::string command_path(const CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::App* a = &app; a->get_parent(); a = a->get_parent())
    words.push_back(a->get_name());
  std::string out;
  for (auto w = words.rbegin(); w != words.rend(); ++w) out += (out.empty() ? "" : " ") + *w;
  return out;
}

// "verify: " for a subcommand, "" for the root.
std::string where(const CLI::App& app) {
  const std::string path = command_path(app);
  return path.empty() ? std::string() : path + ": ";
}

// What the subcommands of `app` are called in the messages: the root's are commands; those of
// `verify` and `construct` are kinds of construction (constructions/registry.hpp).
std::string noun(const CLI::App& app) {
  return app.get_parent() ? "kind" : "command";
}

// "did you mean PREFIX+NAME?\n" (algebra/suggest.hpp), or "".
std::string suggestion_line(const std::string& word, const std::vector<std::string>& names,
                            const std::string& prefix = "") {
  const std::optional<std::string> name = closest_name(word, names);
  return name ? "did you mean " + prefix + *name + "?\n" : std::string();
}

// `app` wants a subcommand (the root, verify, construct) and the first word it could not place
// is `word`: no such command or kind.
std::string unknown_subcommand(const CLI::App& app, const std::string& word) {
  std::vector<std::string> names;
  for (const CLI::App* sub : shown_subcommands(app)) names.push_back(sub->get_name());
  std::string out = "rnncc: error: " + where(app) + "'" + word + "' is not " +
                    (app.get_parent() ? "a kind of construction" : "an rnncc command") + "\n";
  return out + suggestion_line(word, names) + noun(app) + "s:\n" + subcommand_list(app);
}

// `app` wants a subcommand and none was given.
std::string missing_subcommand(const CLI::App& app) {
  const std::string path = command_path(app);
  const std::string n = noun(app), upper = app.get_parent() ? "KIND" : "COMMAND";
  const std::string usage = "rnncc" + (path.empty() ? std::string() : " " + path);
  return "rnncc: error: " + where(app) + "a " + n + " is required\nusage: " + usage + " " + upper +
         " [ARGS] (" + usage + " " + upper + " --help lists a " + n + "'s options)\n" + n + "s:\n" +
         subcommand_list(app);
}

// The long names of the options of `app` its help lists (the hidden options of other kinds
// are left out), without dashes; and `word` ("--lenght", "--lenght=8", "-lenght") as one of them.
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o :
       app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); }))
    for (const std::string& l : o->get_lnames()) names.push_back(l);
  return names;
}
std::string bare_option(const std::string& word) {
  const std::size_t start = word.find_first_not_of('-');
  if (start == std::string::npos) return {};  // "--"
  return word.substr(start, word.find('=', start) - start);
}

// `word` is no option of `app`: the nearest of its own options.
std::string unknown_option(const CLI::App& app, const std::string& word) {
  const std::string path = command_path(app);
  const std::string command = "rnncc" + (path.empty() ? std::string() : " " + path);
  return "rnncc: error: " + where(app) + "unknown option " + word + "\n" +
         suggestion_line(bare_option(word), option_names(app), "--") + "(" + command +
         " --help lists its options)\n";
}

bool is_option_word(const std::string& word) {
  return word.size() > 1 && word[0] == '-';
}

}  // namespace

CLI::Validator choice_of(std::vector<std::string> values) {
  std::string shown = "{";
  for (const std::string& v : values) shown += (shown.size() > 1 ? "," : "") + v;
  shown += "}";
  return CLI::Validator(
      [values](std::string& text) -> std::string {
        if (std::find(values.begin(), values.end(), text) != values.end()) return {};
        return with_suggestion("'" + text + "': expected " + one_of(values), text, values);
      },
      shown);
}

std::string subcommand_list(const CLI::App& app) {
  const std::vector<const CLI::App*> subs = shown_subcommands(app);
  std::size_t width = 0;
  for (const CLI::App* sub : subs) width = std::max(width, sub->get_name().size());
  std::string out;
  for (const CLI::App* sub : subs) {
    const std::string& name = sub->get_name();
    out += "  " + name + std::string(width - name.size() + 2, ' ') + sub->get_description() + "\n";
  }
  return out;
}

std::string usage_error(const CLI::App& app, const CLI::ParseError& e) {
  // The commands the parse selected, root first.
  std::vector<const CLI::App*> chain{&app};
  for (;;) {
    const std::vector<CLI::App*> selected = chain.back()->get_subcommands();
    if (selected.empty()) break;
    chain.push_back(selected.front());
  }
  // The first word a command could not place, shallowest command first: the word CLI11 stopped
  // at is the first thing to fix (a required option it then misses is most often the one
  // misspelled: `compile m.json --lenght 8`).
  for (const CLI::App* a : chain) {
    const bool wants_subcommand =
        a->get_require_subcommand_min() > 0 && a->get_subcommands().empty();
    const std::vector<std::string> left = a->remaining(false);
    if (left.empty()) continue;
    const std::string& word = left.front();
    // An option before any command or kind: the misspelling of one of this level's options
    // (`rnncc --verison`), else one of the command's, given too early (`construct -o m.json`).
    if (is_option_word(word))
      return !wants_subcommand || closest_name(bare_option(word), option_names(*a))
                 ? unknown_option(*a, word)
                 : missing_subcommand(*a);
    if (wants_subcommand) return unknown_subcommand(*a, word);
    break;  // an extra operand: CLI11's message names it
  }
  if (const CLI::App* last = chain.back();
      last->get_require_subcommand_min() > 0 && last->get_subcommands().empty())
    return missing_subcommand(*last);
  return std::string("rnncc: error: ") + e.what() + "\n(run with --help for the usage)\n";
}

}  // namespace rnncc::cli
