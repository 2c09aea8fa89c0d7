// Ben-Or–Cleve (constructions/ben_or_cleve.hpp states the math).
#include "constructions/ben_or_cleve.hpp"

#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/random_formula.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"

namespace rnncc {

namespace {

constexpr std::size_t kMaxSteps = std::size_t(1) << 22;
}  // namespace

Rational ElementaryStep::coefficient(const std::vector<Rational>& x) const {
  if (!variable) return sign * constant;
  if (*variable >= x.size())
    throw std::out_of_range("ben-or-cleve: step reads x" + std::to_string(*variable + 1) +
                            " of a point with " + std::to_string(x.size()) + " coordinates");
  return sign * x[*variable];
}

std::string to_string(const ElementaryStep& s) {
  std::string a;
  if (s.variable) {
    a = (s.sign < 0 ? "-x" : "+x") + std::to_string(*s.variable + 1);
  } else {
    a = to_string(Rational(s.sign * s.constant));
  }
  return "E" + std::to_string(s.i + 1) + std::to_string(s.j + 1) + "(" + a + ")";
}

Matrix<Rational> elementary_matrix(int i, int j, const Rational& a) {
  if (i == j || i < 0 || j < 0 || i > 2 || j > 2)
    throw std::invalid_argument("elementary_matrix: registers must be distinct, in 0..2");
  Matrix<Rational> e(3, 3, Rational(0));
  for (int r = 0; r < 3; ++r) e(r, r) = 1;
  e(i, j) = a;
  return e;
}

Matrix<Rational> program_matrix(const std::vector<ElementaryStep>& program,
                                const std::vector<Rational>& x) {
  // M ← M·E_ij(a) adds a·(column i) to column j.
  Matrix<Rational> m = elementary_matrix(0, 1, 0);
  for (const ElementaryStep& s : program) {
    const Rational a = s.coefficient(x);
    if (a == 0) continue;
    for (int r = 0; r < 3; ++r) m(r, s.j) += a * m(r, s.i);
  }
  return m;
}

std::vector<ElementaryStep> ben_or_cleve_program(const Formula& f) {
  if (f.boolean && f.depth > 0)
    throw InputError("", "the Ben-Or–Cleve construction takes an arithmetic formula (+, -, *); " +
                             excerpt(f.text) + " is boolean");
  const Circuit& c = f.circuit;
  if (c.outputs().size() != 1)
    throw std::invalid_argument("ben-or-cleve: a formula circuit has one output");
  // Program lengths bottom-up (leaf 1, ± sum, × twice the sum), to refuse a huge one up front.
  std::vector<Integer> length(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::input:
      case GateKind::constant:
        length[id] = 1;
        break;
      case GateKind::add:
      case GateKind::sub:
        length[id] = length[ops[0]] + length[ops[1]];
        break;
      case GateKind::mul:
        length[id] = 2 * (length[ops[0]] + length[ops[1]]);
        break;
      default:
        throw std::invalid_argument("ben-or-cleve: gate " + std::to_string(id) + " is a " +
                                    std::string(name(c.kind(id))) +
                                    " gate; an arithmetic formula has only +, -, *");
    }
  }
  const Integer total = length[c.outputs()[0]];
  if (total > kMaxSteps)
    throw InputError("", "the Ben-Or–Cleve program of " + excerpt(f.text) + " would have " +
                             total.str() + " steps, more than the limit of " +
                             std::to_string(kMaxSteps));

  // Prog(g, i, j, s) expanded with an explicit stack (no recursion); the pieces of each rule
  // are pushed in reverse so that they come out in program order.
  struct Work {
    GateId gate;
    int i, j, sign;
  };
  std::vector<ElementaryStep> program;
  program.reserve(static_cast<std::size_t>(total));
  std::vector<Work> todo{{c.outputs()[0], 0, 2, +1}};
  while (!todo.empty()) {
    const Work w = todo.back();
    todo.pop_back();
    const auto ops = c.operands(w.gate);
    switch (c.kind(w.gate)) {
      case GateKind::input:
        program.push_back({w.i, w.j, w.sign, c.input_index(w.gate), Rational(0)});
        break;
      case GateKind::constant:
        program.push_back({w.i, w.j, w.sign, std::nullopt, c.constant(w.gate)});
        break;
      case GateKind::add:  // Prog(g, i, j, s); Prog(h, i, j, s)
      case GateKind::sub:  // Prog(g, i, j, s); Prog(h, i, j, −s)
        todo.push_back({ops[1], w.i, w.j, c.kind(w.gate) == GateKind::add ? w.sign : -w.sign});
        todo.push_back({ops[0], w.i, w.j, w.sign});
        break;
      case GateKind::mul: {  // Prog(g,i,k,+); Prog(h,k,j,s); Prog(g,i,k,−); Prog(h,k,j,−s)
        const int k = 3 - w.i - w.j;
        todo.push_back({ops[1], k, w.j, -w.sign});
        todo.push_back({ops[0], w.i, k, -1});
        todo.push_back({ops[1], k, w.j, w.sign});
        todo.push_back({ops[0], w.i, k, +1});
        break;
      }
      default:
        throw std::logic_error("ben-or-cleve: unreachable gate kind");
    }
  }
  return program;
}

std::vector<Rational> default_ben_or_cleve_values() {
  return {Rational(-1), Rational(0), Rational(1), Rational(2)};
}

namespace {

Rational formula_value(const Formula& f, const std::vector<Rational>& values,
                       const std::vector<std::size_t>& w) {
  if (w.size() != f.variables)
    throw DomainError("the formula has " + std::to_string(f.variables) +
                      " variables; a string of " + std::to_string(w.size()) +
                      " values is outside its domain");
  std::vector<Rational> x;
  for (std::size_t v : w) x.push_back(values.at(v));
  return evaluate(f.circuit, RationalField{}, std::span<const Rational>(x))[0];
}

// f in the one-hot inputs x[t,v] of strings over V (input index (t−1)|V| + v): the variable
// x_t is the linear form Σ_v V[v]·x[t,v], which is V[w_t] at the one-hot point of w.
Circuit one_hot_formula(const Formula& f, const std::vector<Rational>& values,
                        const std::vector<std::string>& names, std::size_t n) {
  if (n != f.variables)
    throw DomainError("the formula is defined on strings of length " + std::to_string(f.variables) +
                      ", not " + std::to_string(n));
  CircuitBuilder b;
  std::vector<GateId> x;
  for (std::size_t t = 1; t <= n; ++t) {
    std::vector<GateId> terms;
    for (std::size_t v = 0; v < values.size(); ++v) {
      const GateId in = b.input("x[" + std::to_string(t) + "," + names[v] + "]");
      terms.push_back(b.mul(b.constant(values[v]), in));
    }
    x.push_back(b.sum(terms));
  }
  const Circuit& c = f.circuit;
  std::vector<GateId> g(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::input:
        g[id] = x[c.input_index(id)];
        break;
      case GateKind::constant:
        g[id] = b.constant(c.constant(id));
        break;
      case GateKind::add:
        g[id] = b.add(g[ops[0]], g[ops[1]]);
        break;
      case GateKind::sub:
        g[id] = b.sub(g[ops[0]], g[ops[1]]);
        break;
      case GateKind::mul:
        g[id] = b.mul(g[ops[0]], g[ops[1]]);
        break;
      default:
        throw std::invalid_argument("ben-or-cleve: not an arithmetic formula gate");
    }
  }
  return b.finish({g[c.outputs()[0]]}, {"f"});
}

// rank(A − I) ≤ 1 for a 3×3 A: every 2×2 minor of A − I vanishes.
bool identity_plus_rank_one(const Matrix<Rational>& a) {
  Matrix<Rational> d = a;
  for (int r = 0; r < 3; ++r) d(r, r) -= 1;
  for (int r1 = 0; r1 < 3; ++r1)
    for (int r2 = r1 + 1; r2 < 3; ++r2)
      for (int c1 = 0; c1 < 3; ++c1)
        for (int c2 = c1 + 1; c2 < 3; ++c2)
          if (d(r1, c1) * d(r2, c2) != d(r1, c2) * d(r2, c1)) return false;
  return true;
}

}  // namespace

Construction ben_or_cleve(const Formula& f, std::vector<Rational> values) {
  if (values.empty()) throw InputError("values", "the value set V is empty");
  std::vector<std::string> value_names;
  for (std::size_t a = 0; a < values.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b)
      if (values[a] == values[b])
        throw InputError("values", "the value set V lists " + to_string(values[a]) +
                                       " twice (entries " + std::to_string(b + 1) + " and " +
                                       std::to_string(a + 1) + ")");
    value_names.push_back(to_string(values[a]));
  }
  Alphabet target_alphabet(value_names, "values");

  auto program = std::make_shared<const std::vector<ElementaryStep>>(ben_or_cleve_program(f));
  const std::size_t L = program->size();

  // token[s][v]: the symbol step s reads when its variable has value V[v] (constant steps
  // read one symbol whatever the input).
  using Key = std::tuple<int, int, Rational>;
  std::map<Key, std::size_t> id_of;
  std::vector<std::string> symbols;
  std::vector<AffineStep> steps;
  auto symbol = [&](int i, int j, const Rational& a) {
    auto [it, fresh] = id_of.emplace(Key{i, j, a}, symbols.size());
    if (fresh) {
      symbols.push_back("E" + std::to_string(i + 1) + std::to_string(j + 1) + "(" + to_string(a) +
                        ")");
      // Column form: A = E_ij(a)ᵀ = E_ji(a).
      steps.push_back({elementary_matrix(j, i, a), Matrix<Rational>(3, 3, Rational(0))});
    }
    return it->second;
  };
  auto token = std::make_shared<std::vector<std::vector<std::size_t>>>();
  token->reserve(L);
  for (const ElementaryStep& s : *program) {
    std::vector<std::size_t> row;
    if (!s.variable) {
      row.push_back(symbol(s.i, s.j, s.sign * s.constant));
    } else {
      for (const Rational& v : values) row.push_back(symbol(s.i, s.j, s.sign * v));
    }
    token->push_back(std::move(row));
  }

  LayerFrame frame;
  frame.d = 3;
  frame.m = 3;
  frame.features = symbols.size();
  frame.initial_state = elementary_matrix(0, 1, 0);  // S₀ = I
  frame.readout = Matrix<Rational>(1, 3, Rational(0));
  frame.readout(0, 2) = 1;  // y = row 3 of S_L = Mᵀ: y[0][0] = M₁₃

  Construction c;
  c.name = "ben-or-cleve";
  c.model.name = "ben-or-cleve";
  c.model.description = "Ben-Or–Cleve: the formula " + excerpt(f.text) + " as a product of " +
                        std::to_string(L) +
                        " elementary 3×3 matrices E_ij(a) = I + a·e_i e_jᵀ (registers as a row "
                        "vector); the state is the transposed product, y[0][0] = M[1][3] = f";
  c.model.alphabet = Alphabet(symbols, "ben-or-cleve");
  c.model.layers.push_back({std::nullopt, make_general(std::move(frame), std::move(steps))});

  auto formula = std::make_shared<const Formula>(f);
  auto vals = std::make_shared<const std::vector<Rational>>(values);
  c.target.alphabet = target_alphabet;
  c.target.fixed_length = f.variables;
  c.target.value = [formula, vals](const std::vector<std::size_t>& w) {
    return formula_value(*formula, *vals, w);
  };
  c.target.circuit = [formula, vals, value_names](std::size_t n) {
    return one_hot_formula(*formula, *vals, value_names, n);
  };

  const std::size_t k = f.variables, nv = values.size();
  c.encode = [program, token, k, nv](const std::vector<std::size_t>& w) {
    if (w.size() != k)
      throw std::invalid_argument("ben-or-cleve encode: expected a string of " + std::to_string(k) +
                                  " values, got " + std::to_string(w.size()));
    for (std::size_t v : w)
      if (v >= nv) throw std::invalid_argument("ben-or-cleve encode: value id out of range");
    std::vector<std::size_t> out;
    out.reserve(program->size());
    for (std::size_t s = 0; s < program->size(); ++s) {
      const auto& row = (*token)[s];
      out.push_back((*program)[s].variable ? row[w[*(*program)[s].variable]] : row[0]);
    }
    return out;
  };
  // Input forms (construction.hpp): step s with variable x_j reads token row_s[w_j], so X's
  // indicator of token τ there is Σ_v [row_s[v] = τ]·x[j, v]; a constant step reads row_s[0]
  // (the constant form 1 on that token). Exact on one-hot inputs.
  const std::size_t token_count = symbols.size();
  c.input_forms = [program, token, k, nv, token_count](std::size_t n) {
    if (n != k)
      throw std::invalid_argument("ben-or-cleve input forms: the formula has " + std::to_string(k) +
                                  " variables, asked for length " + std::to_string(n));
    std::vector<InputSource> out(program->size() * token_count);
    for (std::size_t s = 0; s < program->size(); ++s) {
      const auto& row = (*token)[s];
      InputSource* forms = out.data() + s * token_count;
      if (!(*program)[s].variable) {
        forms[row[0]].constant = 1;
        continue;
      }
      const std::size_t j = *(*program)[s].variable;
      for (std::size_t v = 0; v < nv; ++v)
        forms[row[v]].variables.push_back(static_cast<std::uint32_t>(j * nv + v));
    }
    return out;
  };

  const auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  Integer bound = 1;
  for (std::size_t i = 0; i < f.depth; ++i) bound *= 4;
  std::size_t rank_one = 0;
  for (const auto& a : layer.A) rank_one += identity_plus_rank_one(a);
  c.claims.push_back(claim_at_most(
      "program length ≤ 4^depth (depth " + std::to_string(f.depth) + ")", bound, Integer(L)));
  c.claims.push_back(claim_equal("state rows d", Integer(3), Integer(layer.d)));
  c.claims.push_back(claim_equal("state columns m", Integer(3), Integer(layer.m)));
  // Measured: the symbols whose A − I has rank ≤ 1; claimed: all of them.
  c.claims.push_back(claim_equal("symbols whose A is identity + rank one", Integer(layer.features),
                                 Integer(rank_one)));
  c.claims.push_back(claim_at_most("alphabet size ≤ length·|V|", Integer(L) * Integer(nv),
                                   Integer(layer.features)));
  return c;
}

// ---- the `ben-or-cleve` kind (constructions/registry.hpp) ----

namespace {
std::vector<OptionSpec> ben_or_cleve_options() {
  std::vector<OptionSpec> o = {{.name = "--values",
                                .kind = OptionKind::rational_list,
                                .help = "the variables' value set, e.g. -1,0,1,2 (the default)"}};
  for (OptionSpec& r : random_formula_options()) o.push_back(std::move(r));
  return o;
}
}  // namespace

void register_ben_or_cleve(Registry& registry) {
  registry.add(
      {.name = "ben-or-cleve",
       .help = "arithmetic formula → 3×3 elementary matrices → LRNN, against the formula",
       .input_help =
           "arithmetic formula: a file, or an inline S-expression (or --depth D: a random one)",
       .input_optional = true,
       .options = ben_or_cleve_options(),
       .build_from = [](const OptionValues& v) {
         std::vector<std::string> notes;
         const Formula formula = formula_from_options(v, false, notes);
         std::vector<Rational> values = v.rationals("--values");
         Construction c =
             values.empty() ? ben_or_cleve(formula) : ben_or_cleve(formula, std::move(values));
         c.notes.insert(c.notes.end(), notes.begin(), notes.end());
         return c;
       }});
}

}  // namespace rnncc
