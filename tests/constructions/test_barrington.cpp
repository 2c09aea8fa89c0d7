// Barrington's construction: the reference's commutator checked under the stated convention;
// seeded random boolean formulas of depth ≤ 4 over ≤ 4 variables, on ALL assignments: the
// program's product is σ where f = 1 and e where f = 0, its length is ≤ 4^depth, and the PD
// LRNN agrees with the formula; the swapped_cycle defect is caught.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/barrington.hpp"
#include "constructions/random_formula.hpp"
#include "constructions/registry.hpp"
#include "rnn/evaluate.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

Perm cyc(const char* text) {
  auto p = parse_cycles(text);
  REQUIRE(p);
  return *p;
}

// A random binary boolean formula text of depth ≤ `depth` over x1..x_vars, and its value by a
// hand evaluator (independent of the circuit).
struct RandomFormula {
  std::mt19937_64 rng;
  std::size_t vars;

  struct Node {
    int kind;  // 0 var, 1 const, 2 and, 3 or, 4 not
    std::size_t var = 0;
    bool constant = false;
    std::vector<Node> kids;
    bool eval(const std::vector<std::size_t>& w) const {
      switch (kind) {
        case 0:
          return w[var - 1] != 0;
        case 1:
          return constant;
        case 2:
          return kids[0].eval(w) && kids[1].eval(w);
        case 3:
          return kids[0].eval(w) || kids[1].eval(w);
        default:
          return !kids[0].eval(w);
      }
    }
    std::string text() const {
      switch (kind) {
        case 0:
          return "x" + std::to_string(var);
        case 1:
          return constant ? "1" : "0";
        case 2:
          return "(and " + kids[0].text() + " " + kids[1].text() + ")";
        case 3:
          return "(or " + kids[0].text() + " " + kids[1].text() + ")";
        default:
          return "(not " + kids[0].text() + ")";
      }
    }
  };

  Node make(std::size_t depth) {
    Node n;
    if (depth == 0 || rng() % 6 == 0) {
      n.kind = rng() % 8 == 0 ? 1 : 0;
      n.var = 1 + rng() % vars;
      n.constant = rng() % 2;
      return n;
    }
    n.kind = 2 + static_cast<int>(rng() % 3);
    n.kids.push_back(make(depth - 1));
    if (n.kind != 4) n.kids.push_back(make(depth - 1));
    return n;
  }
};

std::vector<std::size_t> assignment(std::size_t mask, std::size_t k) {
  std::vector<std::size_t> w;
  for (std::size_t i = 0; i < k; ++i) w.push_back((mask >> i) & 1);
  return w;
}

Integer pow4(std::size_t d) {
  Integer p = 1;
  for (std::size_t i = 0; i < d; ++i) p *= 4;
  return p;
}

Rational model_output(const Construction& c, const std::vector<std::size_t>& w) {
  const auto outputs = evaluate(c.model, RationalField{}, c.encode(w)).outputs();
  REQUIRE(!outputs.empty());
  return outputs.back()(c.out_row, c.out_col);
}

// Everything the brief asks of one formula, on all assignments.
void check_formula(const Formula& f,
                   const std::function<bool(const std::vector<std::size_t>&)>& expected) {
  INFO("formula " << f.text);
  const Perm sigma = barrington_sigma();
  const auto program = barrington_program(f);
  CHECK(Integer(program.size()) <= pow4(f.depth));
  const Construction c = barrington(f);
  CHECK(c.name == "barrington");
  for (const Claim& claim : c.claims) {
    INFO(claim.name << ": claimed " << claim.claimed << ", measured " << claim.measured);
    CHECK(claim.ok);
  }
  CHECK(c.target.fixed_length == f.variables);
  CHECK(c.target.alphabet.symbols() == std::vector<std::string>{"0", "1"});
  CHECK(c.model.alphabet.size() <= 120);
  for (const std::string& s : c.model.alphabet.symbols()) CHECK(parse_cycles(s).has_value());
  for (std::size_t m = 0; m < (std::size_t(1) << f.variables); ++m) {
    const auto w = assignment(m, f.variables);
    INFO("assignment mask " << m);
    const bool fx = expected(w);
    CHECK(program_product(program, w) == (fx ? sigma : Perm::identity()));
    CHECK(c.target.value(w) == (fx ? 1 : 0));
    CHECK(c.encode(w).size() == program.size());
    CHECK(model_output(c, w) == c.target.value(w));
  }
}

}  // namespace

TEST_CASE("barrington: permutations, cycle notation and the reference's commutator",
          "[constructions][barrington]") {
  // Left to right: (12345) first sends 1 → 2, then (13542) sends 2 → 1.
  CHECK(cyc("(12345)(13542)") == cyc("(1)(2)(3)(4)(5)") * cyc("(12345)") * cyc("(13542)"));
  CHECK(cyc("(12345)(13542)").image[0] == 0);
  // The reference: (12345)(13542)(54321)(24531) = (13254), read left to right.
  const Perm product = cyc("(12345)(13542)(54321)(24531)");
  CHECK(cycle_notation(product) == "(13254)");
  CHECK(is_five_cycle(product));
  const Perm s = barrington_sigma(), t = barrington_tau();
  CHECK(cyc("(54321)") == s.inverse());
  CHECK(cyc("(24531)") == t.inverse());
  CHECK(s * t * s.inverse() * t.inverse() == cyc("(13254)"));
  // Read right to left, the same four cycles multiply to a different 5-cycle.
  CHECK(cycle_notation(t.inverse() * s.inverse() * t * s) == "(14352)");

  // Every permutation of 5 points round-trips through cycle notation; 24 are 5-cycles.
  std::array<std::uint8_t, 5> a{0, 1, 2, 3, 4};
  std::size_t count = 0, five = 0;
  std::set<std::string> names;
  do {
    Perm p{a};
    const std::string n = cycle_notation(p);
    CHECK(n.find(' ') == std::string::npos);
    CHECK(parse_cycles(n) == p);
    CHECK(p * p.inverse() == Perm::identity());
    names.insert(n);
    ++count;
    five += is_five_cycle(p);
  } while (std::next_permutation(a.begin(), a.end()));
  CHECK(count == 120);
  CHECK(names.size() == 120);
  CHECK(five == 24);
  CHECK(cycle_notation(Perm::identity()) == "e");
  CHECK(!parse_cycles("(112)"));
  CHECK(!parse_cycles("(16)"));
  CHECK(!parse_cycles("12"));
  CHECK(!parse_cycles(""));
}

TEST_CASE("barrington: hand-checked small programs", "[constructions][barrington]") {
  const Perm sigma = barrington_sigma();
  const auto leaf = barrington_program(parse_formula("x2", "f"));
  REQUIRE(leaf.size() == 1);
  CHECK(leaf[0].variable == 1);
  CHECK(leaf[0].if0 == Perm::identity());
  CHECK(leaf[0].if1 == sigma);
  const auto conj = barrington_program(parse_formula("(and x1 x2)", "f"));
  CHECK(conj.size() == 4);
  CHECK(conj[0].variable == 0);
  CHECK(conj[1].variable == 1);
  CHECK(conj[2].variable == 0);
  CHECK(conj[3].variable == 1);
  const auto neg = barrington_program(parse_formula("(not x1)", "f"));
  CHECK(neg.size() == 1);
  CHECK(program_product(neg, {0}) == sigma);
  CHECK(program_product(neg, {1}) == Perm::identity());
}

TEST_CASE("barrington: random formulas of depth ≤ 4, all assignments",
          "[constructions][barrington]") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    RandomFormula gen{std::mt19937_64(seed), 1 + seed % 4};
    const auto tree = gen.make(1 + seed % 4);
    const Formula f = parse_formula(tree.text(), "random");
    REQUIRE(f.depth <= 4);
    check_formula(f, [&](const std::vector<std::size_t>& w) { return tree.eval(w); });
  }
}

TEST_CASE("barrington: constants and constant formulas (k = 0)", "[constructions][barrington]") {
  const std::pair<const char*, bool> cases[] = {{"0", false},
                                                {"1", true},
                                                {"(not 1)", false},
                                                {"(and 1 (or 0 1))", true},
                                                {"(or 0 (not (and 1 0)))", true}};
  for (const auto& [text, value] : cases) {
    const Formula f = parse_formula(text, "c");
    REQUIRE(f.variables == 0);
    check_formula(f, [value = value](const std::vector<std::size_t>&) { return value; });
    CHECK(barrington(f).encode({}).size() == barrington_program(f).size());
  }
  // Constants mixed with variables.
  check_formula(parse_formula("(or (and x1 0) (not (or x2 1)))", "c"),
                [](const std::vector<std::size_t>&) { return false; });
}

TEST_CASE("barrington: balanced formulas meet 4^d exactly", "[constructions][barrington]") {
  // A balanced ∧/∨ tree of depth d over 2^d leaves: every gate doubles the sum, so 4^d.
  std::string text = "x1";
  for (std::size_t d = 1; d <= 5; ++d) {
    text = std::string(d % 2 ? "(and " : "(or ") + text + " " + text + ")";
    const Formula f = parse_formula(text, "balanced");
    REQUIRE(f.depth == d);
    CHECK(Integer(barrington_program(f).size()) == pow4(d));
  }
  // ¬ costs nothing.
  CHECK(barrington_program(parse_formula("(not (not (and x1 (not x2))))", "n")).size() == 4);
}

TEST_CASE("barrington: the majority example", "[constructions][barrington]") {
  const Formula f = load_formula(test::example("formula_majority3.sexp"));
  check_formula(f, [](const std::vector<std::size_t>& w) { return w[0] + w[1] + w[2] >= 2; });
  CHECK(barrington_program(f).size() == 40);  // (or (or A B) C): 2(2(4 + 4) + 4)
}

TEST_CASE("barrington: the swapped_cycle defect is caught", "[constructions][barrington]") {
  const Perm sigma = barrington_sigma();
  for (const char* text : {"(and x1 x2)", "(or x1 (not x2))", "(or (and x1 x2) (and x1 x3))"}) {
    const Formula f = parse_formula(text, "d");
    const auto good = barrington_program(f);
    const auto bad = barrington_program(f, BarringtonDefect::swapped_cycle);
    CHECK(bad.size() == good.size());
    const Construction c = barrington(f, BarringtonDefect::swapped_cycle);
    bool product_fails = false, model_fails = false;
    for (std::size_t m = 0; m < (std::size_t(1) << f.variables); ++m) {
      const auto w = assignment(m, f.variables);
      const bool fx = c.target.value(w) == 1;
      product_fails |= program_product(bad, w) != (fx ? sigma : Perm::identity());
      model_fails |= model_output(c, w) != c.target.value(w);
    }
    INFO(text);
    CHECK(product_fails);
    CHECK(model_fails);
  }
}

TEST_CASE("barrington: the model is a PD layer of 5×5 permutations",
          "[constructions][barrington]") {
  const Construction c = barrington(parse_formula("(or x1 (and x2 (not x3)))", "m"));
  REQUIRE(c.model.layers.size() == 1);
  const auto& l = std::get<LrnnLayer>(c.model.layers[0].layer);
  CHECK(l.family == Family::pd);
  CHECK(l.d == 5);
  CHECK(l.m == 1);
  for (const auto& rec : l.record) {
    const auto& pd = std::get<PdParams>(rec);
    CHECK(pd.permutation);
    CHECK(pd.diag == Vector(5, Rational(1)));
  }
  // A symbol's matrix is the permutation its name spells: P e_j = e_{p(j)}.
  for (std::size_t s = 0; s < c.model.alphabet.size(); ++s) {
    const Perm p = cyc(c.model.alphabet.symbol(s).c_str());
    for (std::size_t j = 0; j < 5; ++j) CHECK(l.A[s](p.image[j], j) == 1);
  }
  CHECK(c.embedding == nullptr);
}

TEST_CASE("diagnostic: Barrington takes a boolean formula", "[constructions][barrington]") {
  CHECK_THROWS_AS(barrington(parse_formula("(+ x1 x2)", "a")), InputError);
  CHECK_THROWS_WITH(barrington_program(parse_formula("3/4", "a")),
                    Catch::Contains("takes a boolean formula"));
  // 2^22 instructions at most: a balanced depth-12 formula needs 4^12 = 2^24.
  std::string text = "x1";
  for (int d = 0; d < 12; ++d) text = "(and " + text + " " + text + ")";
  CHECK_THROWS_WITH(barrington_program(parse_formula(text, "big")),
                    Catch::Contains("more than the limit"));
  // The formula is shown cut short in the message.
  CHECK_THROWS_WITH(barrington_program(parse_formula(text, "big")),
                    Catch::Contains("(and (and (and") && Catch::Contains(" … would have 16777216"));
}

// ---- random formulas of any depth from the registry (issue 16, item 4) ----

namespace {

// Every assignment of k variables, in lexicographic order.
std::vector<std::vector<std::size_t>> assignments(std::size_t k) {
  std::vector<std::vector<std::size_t>> out(1);
  for (std::size_t i = 0; i < k; ++i) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& a : out)
      for (std::size_t b : {0, 1}) {
        next.push_back(a);
        next.back().push_back(b);
      }
    out = std::move(next);
  }
  return out;
}

const Registry& registry() {
  static const Registry r = [] {
    Registry x;
    register_all(x);
    return x;
  }();
  return r;
}

Construction build_kind(const std::string& kind, const ConstructionArgs& args) {
  return registry().find(kind)->build(args, registry());
}

}  // namespace

TEST_CASE("barrington: seeded random formulas of depth 1..6 = the formula on every assignment",
          "[constructions][barrington]") {
  for (std::size_t depth = 1; depth <= 6; ++depth)
    for (std::uint64_t seed : {1, 2, 3}) {
      RandomFormulaOptions o;
      o.depth = depth;
      o.variables = default_random_formula_variables(depth, true);
      o.seed = seed;
      const Formula f = random_formula(o);
      INFO("depth " << depth << " seed " << seed << ": " << f.text);
      REQUIRE(f.depth == depth);
      REQUIRE(f.boolean);
      REQUIRE(f.variables <= o.variables);
      CHECK(random_formula(o).text == f.text);  // reproducible
      // The registry's --depth path builds the same formula.
      const Construction c =
          build_kind("barrington", ConstructionArgs{}
                                       .set("--depth", std::to_string(depth))
                                       .set("--formula-seed", std::to_string(seed)));
      REQUIRE(c.notes.size() == 1);
      CHECK_THAT(c.notes[0], Catch::Contains("depth " + std::to_string(depth)));
      CHECK(c.target.fixed_length == f.variables);
      const auto program = barrington_program(f);
      for (const auto& w : assignments(f.variables)) {
        std::vector<Rational> x;
        for (std::size_t b : w) x.push_back(Rational(static_cast<long>(b)));
        const Rational want = evaluate(f.circuit, RationalField{}, std::span<const Rational>(x))[0];
        INFO("assignment " << w.size());
        REQUIRE(c.target.value(w) == want);
        const Perm product = program_product(program, w);
        REQUIRE(product == (want == 1 ? barrington_sigma() : Perm::identity()));
        const auto y = evaluate(c.model, IntegerRing{}, c.encode(w)).outputs().back()(0, 0);
        REQUIRE(Rational(y) == want);
      }
      for (const Claim& cl : c.claims) CHECK(cl.ok);
    }
  // Different seeds draw different formulas.
  RandomFormulaOptions a, b;
  a.depth = b.depth = 5;
  b.seed = 2;
  CHECK(random_formula(a).text != random_formula(b).text);
}

TEST_CASE("diagnostic: random formula options", "[constructions][barrington]") {
  auto error_of = [](const std::string& kind, const ConstructionArgs& args) {
    return test::input_error_of([&] { build_kind(kind, args); }).what;
  };
  for (const char* kind : {"barrington", "ben-or-cleve"}) {
    INFO(kind);
    CHECK_THAT(error_of(kind, ConstructionArgs{}),
               Catch::Contains("INPUT") && Catch::Contains("or --depth D for a random one"));
    ConstructionArgs both;
    both.input = "(and x1 x2)";
    CHECK_THAT(error_of(kind, both.set("--depth", "2")),
               Catch::Contains("--depth") && Catch::Contains("give one or the other"));
    CHECK_THAT(error_of(kind, ConstructionArgs{}.set("--variables", "3")),
               Catch::Contains("--variables") && Catch::Contains("give --depth D"));
    ConstructionArgs seeded;
    seeded.input = "x1";
    CHECK_THAT(error_of(kind, seeded.set("--formula-seed", "3")),
               Catch::Contains("--formula-seed") && Catch::Contains("give --depth D"));
    CHECK_THAT(error_of(kind, ConstructionArgs{}.set("--depth", "25")),
               Catch::Contains("--depth") && Catch::Contains("from 0 to 24, got 25"));
    CHECK_THAT(error_of(kind, ConstructionArgs{}.set("--depth", "2").set("--variables", "0")),
               Catch::Contains("--variables") && Catch::Contains("got 0"));
    CHECK_THAT(error_of(kind, ConstructionArgs{}.set("--depth", "x")),
               Catch::Contains("--depth") && Catch::Contains("whole number"));
  }
  // Depth 0 is a leaf; a deep and/or tree past 2^22 instructions is refused by the builder.
  CHECK_NOTHROW(build_kind("barrington", ConstructionArgs{}.set("--depth", "0")));
  RandomFormulaOptions big;
  big.depth = 24;
  big.seed = 1;
  CHECK_THROWS_AS(barrington(random_formula(big)), InputError);
}
