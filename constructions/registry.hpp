// The construction registry: every kind `rnncc construct KIND` and `rnncc verify KIND` accept,
// with its one-line help, its input, its own options and its builder. The CLI is generated from
// it (cli/verify_command.cpp), so `verify KIND --help` lists that kind's options only and an
// option of another kind is refused; the library needs no CLI11: options are data.
//
// A new construction is a new file plus one registration line: the file ends with
// `void register_<file>(Registry&)` adding its kinds, and constructions/registry.cpp lists that
// function once (an explicit list, not static initializers, which static libraries drop and
// order arbitrarily). Kinds are listed in registration order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "algebra/rational.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

class Registry;

// What an option's value is, and how it is checked (errors are InputError naming the flag):
//   flag           no value; present or not;
//   text           any text (the builder reads it);
//   choice         one of `allowed`: "'x': expected a, b or c";
//   whole_number   a decimal from 0 to 2^64 − 1 (the CLI shows it as UINT);
//   rational       p/q or a decimal: "'x' is not a rational" ("" reads as unset);
//   rational_list  rationals separated by commas, each checked as `rational` ("": none).
enum class OptionKind { flag, text, choice, whole_number, rational, rational_list };

// (Members carry `{}` so that designated initializers may leave them out under -Wextra.)
struct OptionSpec {
  std::string name{};  // "--family"
  OptionKind kind = OptionKind::text;
  std::string help{};  // one line, without the kind's name
  // Used when the option is not given; none: the option is unset (optional_* return nullopt).
  std::optional<std::string> default_value{};
  std::vector<std::string> allowed{};  // choice: the values, in the order the diagnostic lists them
  bool required = false;
};

// The options as given, name → text in the order given (a flag's text is empty), and the
// INPUT positional. Nothing is checked until ConstructionKind::build.
struct ConstructionArgs {
  std::string input;
  std::vector<std::pair<std::string, std::string>> options;
  // The command's --max-memory (MiB): builders whose model grows with their input (a WFA's
  // dense matrices, its sub-step factors) estimate it before building and refuse above it
  // (algebra/memory.hpp). Unset: default_max_memory_mib().
  std::optional<std::size_t> max_memory_mib;
  // Called by a builder with the construction's PlannedShape before its dense build (the `wfa`
  // kind); may throw (InputError) to refuse. Not called when --model replaces the model.
  std::function<void(const PlannedShape&)> before_build{};
  ConstructionArgs& set(std::string name, std::string value = {}) {
    options.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

// One kind's options after checking, defaults filled in: what a builder reads. Reading a name
// the kind does not declare is a bug (std::logic_error).
class OptionValues {
 public:
  const std::string& input() const { return input_; }
  bool given(std::string_view name) const;
  bool flag(std::string_view name) const;
  // The value given, else the default; "" when neither.
  const std::string& text(std::string_view name) const;
  std::uint64_t whole_number(std::string_view name) const;
  std::optional<std::uint64_t> optional_whole_number(std::string_view name) const;
  std::optional<Rational> rational(std::string_view name) const;
  std::vector<Rational> rationals(std::string_view name) const;   // empty when unset
  std::size_t max_memory_mib() const { return max_memory_mib_; }  // ConstructionArgs's
  // ConstructionArgs::before_build, when set.
  void before_build(const PlannedShape& shape) const {
    if (before_build_) before_build_(shape);
  }

 private:
  friend struct ConstructionKind;
  struct Entry {
    const OptionSpec* spec;
    std::optional<std::string> value;  // given or default
    bool given = false;
  };
  const Entry& entry(std::string_view name) const;
  std::string input_;
  std::vector<Entry> entries_;
  std::size_t max_memory_mib_ = 0;
  std::function<void(const PlannedShape&)> before_build_;
};

struct ConstructionKind {
  std::string name{};  // "wfa", "mod-count", …
  std::string help{};  // one line
  // What INPUT is ("WFA file (docs/formats.md)"); empty: the kind takes no INPUT.
  std::string input_help{};
  // INPUT may be left out (the builder then reads an option instead, e.g. a formula kind's
  // --depth for a random formula, and refuses neither with an InputError).
  bool input_optional = false;
  std::vector<OptionSpec> options{};
  std::function<Construction(const OptionValues&)> build_from{};
  // Only `rnncc verify` offers it (e.g. `model`: a user's model file is no construction).
  bool verify_only = false;

  const OptionSpec* option(std::string_view name) const;
  // InputError naming the first option of `args` this kind does not declare ("--k: does not
  // apply to matmul3 (an option of mod-count)"); `registry` names the kinds that declare it.
  void check_applicable(const ConstructionArgs& args, const Registry& registry) const;
  // check_applicable, then every value checked (in declaration order) and the required ones
  // present; defaults filled in.
  OptionValues resolve(const ConstructionArgs& args, const Registry& registry) const;
  // resolve, then the builder; then the common options of verify_options() (--model).
  Construction build(const ConstructionArgs& args, const Registry& registry) const;
};

// The options every kind takes under `rnncc verify` (not `construct`), applied by
// ConstructionKind::build after the kind's builder:
//   --model FILE   the model in FILE replaces the construction's model X (with_model,
//                  constructions/construction.hpp): a user's model, or one `construct` wrote and
//                  someone edited, checked against the construction's f and encode — multi-token
//                  constructions (Σ×[K] sub-steps, BOS) included.
// No kind may declare them itself (Registry::add refuses).
const std::vector<OptionSpec>& verify_options();

class Registry {
 public:
  // Throws std::logic_error for a repeated kind name, an option without help, a repeated option,
  // a choice without allowed values or whose default is not allowed.
  void add(ConstructionKind kind);
  const ConstructionKind* find(std::string_view name) const;
  const std::vector<ConstructionKind>& kinds() const { return kinds_; }
  // Every option name some kind declares, each once with its first declaration, in order.
  std::vector<const OptionSpec*> all_options() const;
  // The kinds declaring `option`, "a, b and c".
  std::string kinds_with(std::string_view option) const;

 private:
  std::vector<ConstructionKind> kinds_;
};

// register_<file> of every construction file, one line each (constructions/registry.cpp).
void register_all(Registry& registry);

// "a, b or c" (the diagnostics' lists of choices).
std::string one_of(const std::vector<std::string>& values, std::string_view last = "or");

}  // namespace rnncc
