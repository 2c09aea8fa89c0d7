#include "constructions/random_formula.hpp"

#include <algorithm>
#include <optional>
#include <random>
#include <string>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

class Drawer {
 public:
  explicit Drawer(const RandomFormulaOptions& o) : o_(o), rng_(o.seed) {}

  void node(std::size_t r, std::string& out) {
    if (r == 0) return leaf(out);
    if (o_.boolean && below(5) == 0) {
      out += "(not ";
      node(r - 1, out);
      out += ')';
      return;
    }
    static const char* const boolean_ops[] = {"and", "or"};
    static const char* const arithmetic_ops[] = {"+", "-", "*"};
    out += '(';
    out += o_.boolean ? boolean_ops[below(2)] : arithmetic_ops[below(3)];
    const bool deep_first = below(2) == 0;
    const std::size_t other = below(r);  // 0..r−1
    out += ' ';
    node(deep_first ? r - 1 : other, out);
    out += ' ';
    node(deep_first ? other : r - 1, out);
    out += ')';
  }

 private:
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }

  void leaf(std::string& out) {
    if (below(8) == 0) {
      static const char* const constants[] = {"-2", "-1", "1/2", "1", "2", "3"};
      out += o_.boolean ? (below(2) == 0 ? "0" : "1") : constants[below(6)];
      return;
    }
    out += 'x' + std::to_string(1 + below(o_.variables));
  }

  const RandomFormulaOptions& o_;
  std::mt19937_64 rng_;
};

}  // namespace

std::size_t default_random_formula_variables(std::size_t depth, bool boolean) {
  const std::size_t cap = boolean ? 6 : 4;
  return depth + 1 < cap ? depth + 1 : cap;
}

Formula random_formula(const RandomFormulaOptions& options) {
  if (options.depth > max_random_formula_depth)
    throw InputError("--depth", "expected a depth from 0 to " +
                                    std::to_string(max_random_formula_depth) + ", got " +
                                    std::to_string(options.depth));
  if (options.variables == 0 || options.variables > 65536)
    throw InputError("--variables",
                     "expected 1 to 65536 variables, got " + std::to_string(options.variables));
  std::string text;
  Drawer(options).node(options.depth, text);
  return parse_formula(text, "<random formula>");
}

std::vector<OptionSpec> random_formula_options() {
  return {{.name = "--depth",
           .kind = OptionKind::whole_number,
           .help = "check a seeded random formula of exactly this depth instead of INPUT"},
          {.name = "--variables",
           .kind = OptionKind::whole_number,
           .help = "random formula: its leaves draw from x1..xK (default min(depth + 1, 6) "
                   "boolean, 4 arithmetic)"},
          {.name = "--formula-seed",
           .kind = OptionKind::whole_number,
           .help = "random formula: the seed of its draw",
           .default_value = "1"}};
}

Formula formula_from_options(const OptionValues& v, bool boolean, std::vector<std::string>& notes) {
  const std::optional<std::uint64_t> depth = v.optional_whole_number("--depth");
  if (!depth) {
    for (const char* o : {"--variables", "--formula-seed"})
      if (v.given(o)) throw InputError(o, "applies to a random formula: give --depth D");
    if (v.input().empty())
      throw InputError("INPUT",
                       "expected a formula (a file or an inline S-expression), or --depth D for "
                       "a random one");
    return formula_from_argument(v.input());
  }
  if (!v.input().empty())
    throw InputError("--depth", "draws a random formula in place of INPUT ('" + v.input() +
                                    "'); give one or the other");
  if (*depth > max_random_formula_depth)
    throw InputError("--depth", "expected a depth from 0 to " +
                                    std::to_string(max_random_formula_depth) + ", got " +
                                    std::to_string(*depth));
  RandomFormulaOptions o;
  o.depth = static_cast<std::size_t>(*depth);
  o.variables = v.given("--variables") ? static_cast<std::size_t>(std::min<std::uint64_t>(
                                             v.whole_number("--variables"), std::uint64_t{1} << 20))
                                       : default_random_formula_variables(o.depth, boolean);
  o.seed = v.whole_number("--formula-seed");
  o.boolean = boolean;
  Formula f = random_formula(o);
  notes.push_back("random formula: depth " + std::to_string(o.depth) + ", x1..x" +
                  std::to_string(o.variables) + ", --formula-seed " + std::to_string(o.seed) +
                  ": " + excerpt(f.text));
  return f;
}

}  // namespace rnncc
