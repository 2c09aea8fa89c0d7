// Ben-Or–Cleve: for seeded random arithmetic formulas of depth ≤ 4 with rational constants, on
// every assignment over the value set V, the exact product E_1⋯E_L is E_13(f) (so entry (1,3)
// is f), the LRNN with a 3×3 matrix state agrees with the formula, and L ≤ 4^depth.
#include <catch2/catch.hpp>

#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/ben_or_cleve.hpp"
#include "constructions/random_formula.hpp"
#include "constructions/registry.hpp"
#include "rnn/evaluate.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

// A random binary arithmetic formula and its value by a hand evaluator.
struct Node {
  char op = 0;          // 0 leaf, '+', '-', '*'
  std::size_t var = 0;  // 0 = a constant
  Rational constant;
  std::string constant_text;
  std::vector<Node> kids;

  Rational eval(const std::vector<Rational>& x) const {
    if (!op) return var ? x[var - 1] : constant;
    const Rational a = kids[0].eval(x), b = kids[1].eval(x);
    return op == '+' ? a + b : op == '-' ? a - b : a * b;
  }
  std::string text() const {
    if (!op) return var ? "x" + std::to_string(var) : constant_text;
    return std::string("(") + op + " " + kids[0].text() + " " + kids[1].text() + ")";
  }
};

Node random_node(std::mt19937_64& rng, std::size_t vars, std::size_t depth) {
  Node n;
  if (depth == 0 || rng() % 6 == 0) {
    if (rng() % 3 == 0) {
      static const char* constants[] = {"3/4", "-2", "0.5", "1", "0", "-1/3", "5/2", "7"};
      n.constant_text = constants[rng() % 8];
      n.constant = *try_parse_rational(n.constant_text);
    } else {
      n.var = 1 + rng() % vars;
    }
    return n;
  }
  n.op = "+-*"[rng() % 3];
  n.kids.push_back(random_node(rng, vars, depth - 1));
  n.kids.push_back(random_node(rng, vars, depth - 1));
  return n;
}

Integer pow4(std::size_t d) {
  Integer p = 1;
  for (std::size_t i = 0; i < d; ++i) p *= 4;
  return p;
}

// All strings of length k over |V| values, as id vectors.
std::vector<std::vector<std::size_t>> all_strings(std::size_t k, std::size_t nv) {
  std::vector<std::vector<std::size_t>> out{{}};
  for (std::size_t i = 0; i < k; ++i) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& w : out)
      for (std::size_t v = 0; v < nv; ++v) {
        next.push_back(w);
        next.back().push_back(v);
      }
    out.swap(next);
  }
  return out;
}

void check_formula(const Formula& f, const std::vector<Rational>& values,
                   const std::function<Rational(const std::vector<Rational>&)>& expected) {
  INFO("formula " << f.text);
  const auto program = ben_or_cleve_program(f);
  CHECK(Integer(program.size()) <= pow4(f.depth));
  const Construction c = ben_or_cleve(f, values);
  CHECK(c.name == "ben-or-cleve");
  for (const Claim& claim : c.claims) {
    INFO(claim.name << ": claimed " << claim.claimed << ", measured " << claim.measured);
    CHECK(claim.ok);
  }
  CHECK(c.target.fixed_length == f.variables);
  CHECK(c.model.alphabet.size() <= program.size() * values.size());
  for (const auto& w : all_strings(f.variables, values.size())) {
    std::vector<Rational> x;
    for (std::size_t v : w) x.push_back(values[v]);
    const Rational fx = expected(x);
    // The whole product is E_13(f): identity plus f at (1,3).
    Matrix<Rational> want = elementary_matrix(0, 2, fx);
    CHECK(program_matrix(program, x) == want);
    CHECK(c.target.value(w) == fx);
    const auto input = c.encode(w);
    CHECK(input.size() == program.size());
    const auto trace = evaluate(c.model, RationalField{}, input);
    const auto& y = trace.outputs().back();
    CHECK(y(c.out_row, c.out_col) == fx);
    // The state is the transposed product.
    CHECK(trace.layers[0].states.back() == transpose(want));
  }
}

}  // namespace

TEST_CASE("ben-or-cleve: Prog(f, i, j, ±) as in the reference", "[constructions][ben-or-cleve]") {
  auto names = [](const Formula& f) {
    std::vector<std::string> out;
    for (const auto& s : ben_or_cleve_program(f)) out.push_back(to_string(s));
    return out;
  };
  CHECK(names(parse_formula("x2", "f")) == std::vector<std::string>{"E13(+x2)"});
  CHECK(names(parse_formula("-3/4", "f")) == std::vector<std::string>{"E13(-3/4)"});
  CHECK(names(parse_formula("(+ x1 2)", "f")) == std::vector<std::string>{"E13(+x1)", "E13(2)"});
  CHECK(names(parse_formula("(- x1 2)", "f")) == std::vector<std::string>{"E13(+x1)", "E13(-2)"});
  // g·h with k = 2 (0-based 1): Prog(g,1,2,+) Prog(h,2,3,+) Prog(g,1,2,−) Prog(h,2,3,−).
  CHECK(names(parse_formula("(* x1 x2)", "f")) ==
        std::vector<std::string>{"E12(+x1)", "E23(+x2)", "E12(-x1)", "E23(-x2)"});
  // A product under a minus sign flips only the second factor's signs.
  CHECK(names(parse_formula("(- 0 (* x1 x2))", "f")) ==
        std::vector<std::string>{"E13(0)", "E12(+x1)", "E23(-x2)", "E12(-x1)", "E23(+x2)"});
  CHECK(elementary_matrix(0, 2, Rational(5))(0, 2) == 5);
  CHECK(program_matrix({}, {}) == elementary_matrix(1, 0, 0));
}

TEST_CASE("ben-or-cleve: random formulas of depth ≤ 4, all assignments over V",
          "[constructions][ben-or-cleve]") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const std::size_t vars = 1 + seed % 3;
    const Node tree = random_node(rng, vars, 1 + seed % 4);
    const Formula f = parse_formula(tree.text(), "random");
    REQUIRE(f.depth <= 4);
    check_formula(f, default_ben_or_cleve_values(),
                  [&](const std::vector<Rational>& x) { return tree.eval(x); });
  }
}

TEST_CASE("ben-or-cleve: other value sets, constants only, the example",
          "[constructions][ben-or-cleve]") {
  const std::vector<Rational> halves{Rational(1, 2), Rational(-3), Rational(7, 5)};
  check_formula(parse_formula("(* (- x1 1/2) (+ x2 (* x1 x1)))", "v"), halves,
                [](const std::vector<Rational>& x) {
                  return (x[0] - Rational(1, 2)) * (x[1] + x[0] * x[0]);
                });
  const Formula c = parse_formula("(* (+ 1/2 2) (- 3 -1))", "c");
  check_formula(c, default_ben_or_cleve_values(),
                [](const std::vector<Rational>&) { return Rational(10); });
  CHECK(ben_or_cleve(c).encode({}).size() == ben_or_cleve_program(c).size());
  const Formula p = load_formula(test::example("formula_poly.sexp"));
  check_formula(p, default_ben_or_cleve_values(), [](const std::vector<Rational>& x) {
    return x[0] * x[1] + (x[2] - Rational(1, 2));
  });
  // A lone variable reads as arithmetic too.
  check_formula(parse_formula("x1", "v"), halves,
                [](const std::vector<Rational>& x) { return x[0]; });
}

TEST_CASE("ben-or-cleve: the model's structure", "[constructions][ben-or-cleve]") {
  const Construction c = ben_or_cleve(parse_formula("(* x1 (+ x2 3/4))", "m"));
  const auto& l = std::get<LrnnLayer>(c.model.layers[0].layer);
  CHECK(l.family == Family::general);
  CHECK(l.d == 3);
  CHECK(l.m == 3);
  CHECK(c.target.alphabet.symbols() == std::vector<std::string>{"-1", "0", "1", "2"});
  for (std::size_t s = 0; s < c.model.alphabet.size(); ++s) {
    const std::string& name = c.model.alphabet.symbol(s);
    CHECK(name.find_first_of(" ,") == std::string::npos);
    // "Eij(a)": A = E_ij(a)ᵀ.
    const int i = name[1] - '1', j = name[2] - '1';
    const Rational a = *try_parse_rational(name.substr(4, name.size() - 5));
    CHECK(l.A[s] == transpose(elementary_matrix(i, j, a)));
    CHECK(l.B[s] == Matrix<Rational>(3, 3, Rational(0)));
  }
  CHECK(c.embedding == nullptr);
}

TEST_CASE("ben-or-cleve: balanced formulas and the 4^d bound", "[constructions][ben-or-cleve]") {
  std::string prod = "x1", sum = "x1";
  for (std::size_t d = 1; d <= 5; ++d) {
    prod = "(* " + prod + " " + prod + ")";
    sum = "(+ " + sum + " " + sum + ")";
    CHECK(Integer(ben_or_cleve_program(parse_formula(prod, "p")).size()) == pow4(d));
    CHECK(ben_or_cleve_program(parse_formula(sum, "s")).size() == (std::size_t(1) << d));
  }
}

TEST_CASE("diagnostic: Ben-Or–Cleve inputs", "[constructions][ben-or-cleve]") {
  CHECK_THROWS_WITH(ben_or_cleve_program(parse_formula("(and x1 x2)", "b")),
                    Catch::Contains("takes an arithmetic formula"));
  test::expect_input_error(
      [&] {
        ben_or_cleve(parse_formula("x1", "v"), {Rational(1), Rational(-1), Rational(2, 2)});
      },
      "values", "lists 1 twice (entries 1 and 3)");
  CHECK_THROWS_WITH(ben_or_cleve(parse_formula("x1", "v"), {}),
                    Catch::Contains("the value set V is empty"));
  std::string big = "x1";
  for (int d = 0; d < 12; ++d) big = "(* " + big + " " + big + ")";
  CHECK_THROWS_WITH(ben_or_cleve_program(parse_formula(big, "big")),
                    Catch::Contains("more than the limit"));
}

// ---- random formulas of any depth from the registry (issue 16, item 4) ----

TEST_CASE("ben-or-cleve: seeded random formulas of depth 1..6 = the formula",
          "[constructions][ben-or-cleve]") {
  Registry registry;
  register_all(registry);
  const ConstructionKind& kind = *registry.find("ben-or-cleve");
  const std::vector<Rational> V = default_ben_or_cleve_values();
  for (std::size_t depth = 1; depth <= 6; ++depth)
    for (std::uint64_t seed : {1, 2}) {
      RandomFormulaOptions o;
      o.depth = depth;
      o.variables = default_random_formula_variables(depth, false);
      o.seed = seed;
      o.boolean = false;
      const Formula f = random_formula(o);
      INFO("depth " << depth << " seed " << seed << ": " << f.text);
      REQUIRE(f.depth == depth);
      REQUIRE(!f.boolean);
      const Construction c = kind.build(ConstructionArgs{}
                                            .set("--depth", std::to_string(depth))
                                            .set("--formula-seed", std::to_string(seed)),
                                        registry);
      REQUIRE(c.notes.size() == 1);
      CHECK(c.target.fixed_length == f.variables);
      const auto program = ben_or_cleve_program(f);
      // Every string of the domain up to depth 4 (≤ 4^4), 40 seeded ones beyond.
      std::vector<std::vector<std::size_t>> words;
      if (depth <= 4) {
        words.emplace_back();
        for (std::size_t i = 0; i < f.variables; ++i) {
          std::vector<std::vector<std::size_t>> next;
          for (const auto& w : words)
            for (std::size_t v = 0; v < V.size(); ++v) {
              next.push_back(w);
              next.back().push_back(v);
            }
          words = std::move(next);
        }
      } else {
        std::mt19937_64 rng(seed);
        for (int i = 0; i < 40; ++i) {
          std::vector<std::size_t> w(f.variables);
          for (auto& v : w) v = rng() % V.size();
          words.push_back(std::move(w));
        }
      }
      for (const auto& w : words) {
        std::vector<Rational> x;
        for (std::size_t v : w) x.push_back(V[v]);
        const Rational want = evaluate(f.circuit, RationalField{}, std::span<const Rational>(x))[0];
        REQUIRE(c.target.value(w) == want);
        const Matrix<Rational> M = program_matrix(program, x);
        REQUIRE(M == elementary_matrix(0, 2, want));
        const auto y = evaluate(c.model, RationalField{}, c.encode(w)).outputs().back()(0, 0);
        REQUIRE(y == want);
      }
      for (const Claim& cl : c.claims) CHECK(cl.ok);
    }
}
