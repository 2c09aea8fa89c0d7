// The S-expression formula reader: parsed circuits agree with a hand-written evaluator of the
// same formula tree on every assignment (boolean) or on a grid of rational points
// (arithmetic); one test per diagnostic, with its exact "source:line:column".
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/sexpr.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

// A formula tree as the test writes it (n-ary operators kept), with its own evaluator.
struct Tree {
  std::string op;  // "" for a leaf
  std::size_t var = 0;
  Rational constant;
  std::string constant_text;
  std::vector<Tree> kids;

  Rational eval(const std::vector<Rational>& x) const {
    if (op.empty()) return var ? x[var - 1] : constant;
    std::vector<Rational> v;
    for (const Tree& k : kids) v.push_back(k.eval(x));
    if (op == "not") return v[0] == 0 ? 1 : 0;
    Rational acc = v[0];
    for (std::size_t i = 1; i < v.size(); ++i) {
      if (op == "and") acc = (acc != 0 && v[i] != 0) ? 1 : 0;
      if (op == "or") acc = (acc != 0 || v[i] != 0) ? 1 : 0;
      if (op == "+") acc += v[i];
      if (op == "-") acc -= v[i];
      if (op == "*") acc *= v[i];
    }
    return acc;
  }
  // Depth of the left-nested binary tree the reader builds.
  std::size_t depth() const {
    if (op.empty()) return 0;
    if (op == "not") return 1 + kids[0].depth();
    std::size_t d = 1 + std::max(kids[0].depth(), kids[1].depth());
    for (std::size_t i = 2; i < kids.size(); ++i) d = 1 + std::max(d, kids[i].depth());
    return d;
  }
  std::size_t max_var() const {
    std::size_t m = var;
    for (const Tree& k : kids) m = std::max(m, k.max_var());
    return m;
  }
};

struct Generator {
  std::mt19937_64 rng;
  bool boolean;
  std::size_t vars;

  std::string space() {
    switch (rng() % 6) {
      case 0:
        return "\n  ";
      case 1:
        return " ; a comment (and x1\n ";
      case 2:
        return "\t";
      default:
        return " ";
    }
  }

  Tree leaf() {
    Tree t;
    if (rng() % 4 != 0) {
      t.var = 1 + rng() % vars;
      return t;
    }
    static const char* bools[] = {"0", "1"};
    static const char* ariths[] = {"3/4", "-2", "0.5", "1", "0", "-1/3", "2", "+5"};
    t.constant_text = boolean ? bools[rng() % 2] : ariths[rng() % 8];
    t.constant = *try_parse_rational(t.constant_text);
    return t;
  }

  Tree tree(std::size_t depth_left) {
    if (depth_left == 0 || rng() % 5 == 0) return leaf();
    static const char* bool_ops[] = {"and", "or", "not"};
    static const char* arith_ops[] = {"+", "-", "*"};
    Tree t;
    t.op = boolean ? bool_ops[rng() % 3] : arith_ops[rng() % 3];
    std::size_t arity = t.op == "not" ? 1 : t.op == "-" ? 2 : 2 + (rng() % 4 == 0 ? rng() % 3 : 0);
    for (std::size_t i = 0; i < arity; ++i) t.kids.push_back(tree(depth_left - 1));
    return t;
  }

  std::string text(const Tree& t) {
    if (t.op.empty()) return t.var ? "x" + std::to_string(t.var) : t.constant_text;
    std::string s = "(" + t.op;
    for (const Tree& k : t.kids) s += space() + text(k);
    return s + ")";
  }
};

std::vector<Rational> bits(std::size_t mask, std::size_t k) {
  std::vector<Rational> x;
  for (std::size_t i = 0; i < k; ++i) x.push_back(Rational(static_cast<long>((mask >> i) & 1)));
  return x;
}

Rational value(const Formula& f, const std::vector<Rational>& x) {
  return evaluate(f.circuit, RationalField{}, std::span<const Rational>(x))[0];
}

// Every operator gate is used at most once (fan-out one), inputs are x1..xk, one output.
void check_shape(const Formula& f) {
  const Circuit& c = f.circuit;
  REQUIRE(c.inputs().size() == f.variables);
  for (std::size_t i = 0; i < f.variables; ++i)
    CHECK(c.input_names()[i] == "x" + std::to_string(i + 1));
  REQUIRE(c.outputs().size() == 1);
  std::vector<std::size_t> uses(c.size(), 0);
  for (GateId id = 0; id < c.size(); ++id)
    for (GateId o : c.operands(id)) ++uses[o];
  for (GateId id = 0; id < c.size(); ++id) {
    const GateKind k = c.kind(id);
    if (k != GateKind::input && k != GateKind::constant) CHECK(uses[id] <= 1);
    if (f.boolean)
      CHECK((k == GateKind::input || k == GateKind::constant || k == GateKind::and_ ||
             k == GateKind::or_ || k == GateKind::not_));
    else
      CHECK((k == GateKind::input || k == GateKind::constant || k == GateKind::add ||
             k == GateKind::sub || k == GateKind::mul));
    if (k == GateKind::and_ || k == GateKind::or_) CHECK(c.operands(id).size() == 2);
  }
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  test::expect_input_error([&] { parse_formula(text, "f.sexp"); }, where, what);
}

}  // namespace

TEST_CASE("sexpr: small formulas read as written", "[circuits][sexpr]") {
  Formula f = parse_formula("(and x1 (or x2 (not x3)))", "f.sexp");
  CHECK(f.variables == 3);
  CHECK(f.boolean);
  CHECK(f.depth == 3);
  CHECK(f.text == "(and x1 (or x2 (not x3)))");
  check_shape(f);
  for (std::size_t m = 0; m < 8; ++m) {
    const bool x1 = m & 1, x2 = m & 2, x3 = m & 4;
    CHECK(value(f, bits(m, 3)) == ((x1 && (x2 || !x3)) ? 1 : 0));
  }

  Formula p = parse_formula("(+ (* x1 x2) (- x3 1/2))", "p.sexp");
  CHECK(!p.boolean);
  CHECK(p.depth == 2);
  CHECK(p.text == "(+ (* x1 x2) (- x3 1/2))");
  const std::vector<Rational> x{Rational(2), Rational(-3, 4), Rational(5)};
  CHECK(value(p, x) == Rational(3));  // −3/2 + 9/2
}

TEST_CASE("sexpr: n-ary operators are left-nested binary", "[circuits][sexpr]") {
  Formula f = parse_formula("(and x1 x2 x3 x4)", "f");
  CHECK(f.text == "(and (and (and x1 x2) x3) x4)");
  CHECK(f.depth == 3);
  Formula g = parse_formula("(* 2 x1 (+ x1 x2 1))", "f");
  CHECK(g.text == "(* (* 2 x1) (+ (+ x1 x2) 1))");
  CHECK(g.depth == 3);
  CHECK(value(g, {Rational(3), Rational(-1)}) == 18);
  check_shape(g);
}

TEST_CASE("sexpr: leaves, comments, constants and variables", "[circuits][sexpr]") {
  Formula v = parse_formula("; the third input alone\n  x3  ; done\n", "f");
  CHECK(v.variables == 3);  // x1, x2 unused but present
  CHECK(v.boolean);
  CHECK(v.depth == 0);
  CHECK(v.text == "x3");
  CHECK(value(v, bits(4, 3)) == 1);

  Formula one = parse_formula("1", "f");
  CHECK(one.boolean);
  CHECK(one.variables == 0);
  CHECK(value(one, {}) == 1);

  Formula q = parse_formula("0.5", "f");
  CHECK(!q.boolean);
  CHECK(q.text == "1/2");
  CHECK(value(q, {}) == Rational(1, 2));

  // Boolean formulas take 0 and 1 in any spelling; arithmetic ones any rational.
  CHECK(parse_formula("(or x1 1.0)", "f").text == "(or x1 1)");
  CHECK(parse_formula("(- 0 x12)", "f").variables == 12);
  CHECK(parse_formula("(+ -3/6 +2 0.25)", "f").text == "(+ (+ -1/2 2) 1/4)");
  // A byte-order mark is skipped and does not shift columns.
  CHECK(parse_formula("\xEF\xBB\xBF(not x1)", "f").text == "(not x1)");
  expect_error("\xEF\xBB\xBF(nand x1)", "f.sexp:1:2", "unknown operator 'nand'");
}

TEST_CASE("sexpr: random boolean formulas agree with a hand evaluator on all assignments",
          "[circuits][sexpr]") {
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Generator g{std::mt19937_64(seed), true, 1 + seed % 4};
    const Tree t = g.tree(5);
    const std::string text = g.text(t);
    INFO("seed " << seed << ": " << text);
    const Formula f = parse_formula(text, "r.sexp");
    CHECK(f.boolean);
    CHECK(f.variables == t.max_var());
    CHECK(f.depth == t.depth());
    check_shape(f);
    const Formula again = parse_formula(f.text, "again");
    CHECK(again.text == f.text);
    CHECK(again.depth == f.depth);
    for (std::size_t m = 0; m < (std::size_t(1) << f.variables); ++m) {
      const auto x = bits(m, f.variables);
      CHECK(value(f, x) == t.eval(x));
      CHECK(value(again, x) == t.eval(x));
    }
  }
}

TEST_CASE("sexpr: random arithmetic formulas agree with a hand evaluator", "[circuits][sexpr]") {
  const Rational grid[] = {Rational(-2), Rational(0), Rational(1), Rational(3, 7)};
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Generator g{std::mt19937_64(1000 + seed), false, 1 + seed % 3};
    const Tree t = g.tree(4);
    const std::string text = g.text(t);
    INFO("seed " << seed << ": " << text);
    const Formula f = parse_formula(text, "r.sexp");
    CHECK(f.depth == t.depth());
    CHECK(f.variables == t.max_var());
    // A formula without operators or non-0/1 constants is boolean; otherwise arithmetic.
    if (!t.op.empty()) CHECK(!f.boolean);
    check_shape(f);
    const Formula again = parse_formula(f.text, "again");
    CHECK(again.text == f.text);
    std::size_t points = 1;
    for (std::size_t i = 0; i < f.variables; ++i) points *= 4;
    for (std::size_t p = 0; p < points; ++p) {
      std::vector<Rational> x;
      for (std::size_t i = 0, q = p; i < f.variables; ++i, q /= 4) x.push_back(grid[q % 4]);
      CHECK(value(f, x) == t.eval(x));
      CHECK(value(again, x) == t.eval(x));
    }
  }
}

TEST_CASE("sexpr: files and command-line arguments", "[circuits][sexpr]") {
  Formula maj = load_formula(test::example("formula_majority3.sexp"));
  CHECK(maj.boolean);
  CHECK(maj.variables == 3);
  for (std::size_t m = 0; m < 8; ++m) {
    const int ones = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);
    CHECK(value(maj, bits(m, 3)) == (ones >= 2 ? 1 : 0));
  }
  Formula poly = load_formula(test::example("formula_poly.sexp"));
  CHECK(!poly.boolean);
  CHECK(poly.variables == 3);

  CHECK(formula_from_argument("(and x1 x2)").text == "(and x1 x2)");
  CHECK(formula_from_argument("  x2 ").variables == 2);
  CHECK(formula_from_argument("-3/4").text == "-3/4");
  CHECK(formula_from_argument(test::example("formula_poly.sexp")).text == poly.text);
  test::expect_input_error([&] { formula_from_argument("x0"); }, "<formula>:1:1", "");
  test::expect_input_error([&] { formula_from_argument("(and x1"); }, "<formula>:1:1", "");
  // Not a bare token and not '(': a file, which does not exist.
  const std::string missing = "no_such_formula_file.sexp";
  test::expect_input_error([&] { formula_from_argument(missing); }, missing, "cannot open");
  // A file whose comment mentions '(' still parses; diagnostics name the path.
  const auto path = std::filesystem::temp_directory_path() / "rnncc_test_sexpr_bad.sexp";
  {
    std::ofstream out(path);
    out << "; (and x1 x2\n(or x1\n    (xor x2 x3))\n";
  }
  test::expect_input_error([&] { load_formula(path.string()); }, path.string() + ":3:6", "");
  std::filesystem::remove(path);
}

TEST_CASE("diagnostic: unbalanced parentheses", "[circuits][sexpr][diagnostics]") {
  expect_error("(and x1\n  (not x2)", "f.sexp:1:1",
               "unbalanced parentheses: this '(' is never closed");
  expect_error("(or x1 (and x2 x3)", "f.sexp:1:1", "never closed");
  expect_error("(", "f.sexp:1:1", "never closed");
  expect_error("(and x1 x2))", "f.sexp:1:12", "')' without a matching '('");
  expect_error(")", "f.sexp:1:1", "')' without a matching '('");
}

TEST_CASE("diagnostic: unknown operator", "[circuits][sexpr][diagnostics]") {
  expect_error("(xor x1 x2)", "f.sexp:1:2",
               "unknown operator 'xor' (expected one of and, or, not, +, -, *)");
  expect_error("(and x1\n   (AND x2 x3))", "f.sexp:2:5", "unknown operator 'AND'");
  expect_error("(x1 x2)", "f.sexp:1:2", "unknown operator 'x1'");
  expect_error("()", "f.sexp:1:2",
               "expected an operator after '(' (one of and, or, not, +, -, *), got ')'");
  expect_error("((and x1 x2) x3)", "f.sexp:1:2", "expected an operator after '(' (one of");
}

TEST_CASE("diagnostic: wrong number of operands", "[circuits][sexpr][diagnostics]") {
  expect_error("(not x1 x2)", "f.sexp:1:2", "'not' takes 1 operand, got 2");
  expect_error("(+ 1 (- x1))", "f.sexp:1:7", "'-' takes 2 operands, got 1 (negation is (- 0 F))");
  expect_error("(- x1 x2 x3)", "f.sexp:1:2", "'-' takes 2 operands, got 3");
  expect_error("(and x1)", "f.sexp:1:2", "'and' takes 2 or more operands, got 1");
  expect_error("(or)", "f.sexp:1:2", "'or' takes 2 or more operands, got 0");
  expect_error("(not)", "f.sexp:1:2", "'not' takes 1 operand, got 0");
}

TEST_CASE("diagnostic: bad tokens", "[circuits][sexpr][diagnostics]") {
  expect_error("(and x1 y2)", "f.sexp:1:9", "bad token 'y2' (expected a variable x1, x2, …");
  expect_error("(+ x1 3/0)", "f.sexp:1:7", "bad token '3/0'");
  expect_error("(+ x1 1e3)", "f.sexp:1:7", "bad token '1e3'");
  expect_error("(and x1 and)", "f.sexp:1:9", "bad token 'and'");
  expect_error("(and x1a x2)", "f.sexp:1:6", "bad token 'x1a' (a variable is x followed by");
  expect_error("(and x01 x2)", "f.sexp:1:6", "bad token 'x01' (write the variable index without");
  // A tab is one column.
  expect_error("(and x1\n\t é)", "f.sexp:2:3", "bad token 'é'");
}

TEST_CASE("diagnostic: x0 and x without an index", "[circuits][sexpr][diagnostics]") {
  expect_error("(and x0 x1)", "f.sexp:1:6",
               "variables are numbered from 1: 'x0' is not a variable");
  expect_error("(or x1\n    x000)", "f.sexp:2:5", "variables are numbered from 1");
  expect_error("(and x x1)", "f.sexp:1:6", "the variable 'x' needs an index: x1, x2, …");
  expect_error("x", "f.sexp:1:1", "needs an index");
  expect_error("(and x1 x65537)", "f.sexp:1:9", "the variable index of 'x65537' is too large");
  expect_error("x99999999999999999999", "f.sexp:1:1", "too large (at most 65536)");
  CHECK(parse_formula("x65536", "f").variables == 65536);
}

TEST_CASE("diagnostic: boolean and arithmetic mixed", "[circuits][sexpr][diagnostics]") {
  expect_error("(and x1 (+ x2 1))", "f.sexp:1:10",
               "the operator '+' is arithmetic, but this formula is boolean (the operator 'and' "
               "at 1:2); a formula is boolean or arithmetic, never both");
  expect_error("(* x1\n  (not x2))", "f.sexp:2:4",
               "the operator 'not' is boolean, but this formula is arithmetic (the operator '*' "
               "at 1:2)");
  expect_error("(or x1 3/4)", "f.sexp:1:8",
               "the constant 3/4 is arithmetic, but this formula is boolean");
  expect_error("(and x1 -1)", "f.sexp:1:9", "the constant -1 is arithmetic");
}

TEST_CASE("diagnostic: trailing input", "[circuits][sexpr][diagnostics]") {
  expect_error("x1 x2", "f.sexp:1:4", "trailing input after the formula: 'x2'");
  expect_error("(and x1 x2)\n(or x1 x2)", "f.sexp:2:1", "trailing input after the formula: '('");
  expect_error("(not x1) ; fine\n 7", "f.sexp:2:2", "trailing input");
}

TEST_CASE("diagnostic: empty input", "[circuits][sexpr][diagnostics]") {
  expect_error("", "f.sexp:1:1", "empty input: expected a formula");
  expect_error("  ; only a comment\n\n", "f.sexp:3:1", "empty input");
  test::expect_input_error([&] { formula_from_argument("   "); }, "<formula>:1:4", "");
}
