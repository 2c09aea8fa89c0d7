// Barrington's construction (constructions/barrington.hpp states the math and the convention:
// permutation products read left to right).
#include "constructions/barrington.hpp"

#include <map>
#include <memory>
#include <stdexcept>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/eval/evaluate.hpp"
#include "constructions/random_formula.hpp"
#include "constructions/registry.hpp"
#include "rnn/families.hpp"

namespace rnncc {

Perm Perm::inverse() const {
  Perm r;
  for (std::uint8_t x = 0; x < 5; ++x) r.image[image[x]] = x;
  return r;
}

Perm operator*(const Perm& p, const Perm& q) {
  Perm r;
  for (std::size_t x = 0; x < 5; ++x) r.image[x] = q.image[p.image[x]];
  return r;
}

std::string cycle_notation(const Perm& p) {
  std::string out;
  std::array<bool, 5> seen{};
  for (std::uint8_t start = 0; start < 5; ++start) {
    if (seen[start] || p.image[start] == start) continue;
    out += '(';
    for (std::uint8_t x = start; !seen[x]; x = p.image[x]) {
      seen[x] = true;
      out += static_cast<char>('1' + x);
    }
    out += ')';
  }
  return out.empty() ? "e" : out;
}

std::optional<Perm> parse_cycles(std::string_view text) {
  if (text == "e") return Perm::identity();
  Perm product;
  std::size_t i = 0;
  if (text.empty()) return std::nullopt;
  while (i < text.size()) {
    if (text[i] != '(') return std::nullopt;
    const std::size_t close = text.find(')', i);
    if (close == std::string_view::npos || close == i + 1) return std::nullopt;
    const std::string_view points = text.substr(i + 1, close - i - 1);
    std::array<bool, 5> used{};
    Perm cycle;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const char c = points[k];
      if (c < '1' || c > '5' || used[c - '1']) return std::nullopt;
      used[c - '1'] = true;
      cycle.image[c - '1'] = static_cast<std::uint8_t>(points[(k + 1) % points.size()] - '1');
    }
    product = product * cycle;  // left to right
    i = close + 1;
  }
  return product;
}

bool is_five_cycle(const Perm& p) {
  std::uint8_t x = 0;
  for (int step = 1; step <= 5; ++step) {
    x = p.image[x];
    if (x == 0) return step == 5;
  }
  return false;
}

Perm barrington_sigma() {
  return *parse_cycles("(12345)");
}
Perm barrington_tau() {
  return *parse_cycles("(13542)");
}

Perm program_product(const std::vector<Instruction>& program,
                     const std::vector<std::size_t>& assignment) {
  Perm p;
  for (const Instruction& ins : program) {
    if (ins.if0 == ins.if1) {
      p = p * ins.if0;
      continue;
    }
    if (ins.variable >= assignment.size())
      throw std::out_of_range("program_product: instruction reads x" +
                              std::to_string(ins.variable + 1) + " of an assignment of " +
                              std::to_string(assignment.size()));
    p = p * (assignment[ins.variable] != 0 ? ins.if1 : ins.if0);
  }
  return p;
}

namespace {

constexpr std::size_t kMaxInstructions = std::size_t(1) << 22;

using Program = std::vector<Instruction>;

// π with π⁻¹·from·π = to, for two 5-cycles. Writing from = (a₀ a₁ … a₄) and to = (b₀ … b₄)
// (both starting at point 0), π: aᵢ ↦ bᵢ. Check, left to right: bᵢ·π⁻¹ = aᵢ, aᵢ·from = aᵢ₊₁,
// aᵢ₊₁·π = bᵢ₊₁, so π⁻¹·from·π sends bᵢ to bᵢ₊₁: it is `to`.
Perm conjugator(const Perm& from, const Perm& to) {
  if (!is_five_cycle(from) || !is_five_cycle(to))
    throw std::logic_error("barrington: conjugator(" + cycle_notation(from) + ", " +
                           cycle_notation(to) + ") needs two 5-cycles");
  Perm pi;
  std::uint8_t a = 0, b = 0;
  for (int i = 0; i < 5; ++i, a = from.image[a], b = to.image[b]) pi.image[a] = b;
  return pi;
}

// Every instruction p ↦ π⁻¹pπ: the product Π becomes π⁻¹Ππ (the inner π π⁻¹ cancel).
void conjugate(Program& program, const Perm& pi) {
  const Perm inv = pi.inverse();
  for (Instruction& ins : program) {
    ins.if0 = inv * ins.if0 * pi;
    ins.if1 = inv * ins.if1 * pi;
  }
}

// P⁻¹: reversed, each instruction inverted; its product is Π⁻¹ on every assignment.
Program inverse(const Program& program) {
  Program out(program.rbegin(), program.rend());
  for (Instruction& ins : out) {
    ins.if0 = ins.if0.inverse();
    ins.if1 = ins.if1.inverse();
  }
  return out;
}

struct Builder {
  Perm sigma = barrington_sigma(), tau = barrington_tau();
  Perm rho = sigma * tau * sigma.inverse() * tau.inverse();
  BarringtonDefect defect;

  explicit Builder(BarringtonDefect d) : defect(d) {
    // The reference's commutator, left to right; also what makes ∧ work at all.
    if (rho != *parse_cycles("(13254)") || !is_five_cycle(rho))
      throw std::logic_error("barrington: [σ, τ] is " + cycle_notation(rho) +
                             ", expected the 5-cycle (13254)");
  }

  Program leaf(std::size_t variable) const { return {{variable, Perm{}, sigma}}; }
  Program constant(bool value) const {
    const Perm p = value ? sigma : Perm{};
    return {{0, p, p}};
  }

  // P σ-computes f → the result σ-computes ¬f.
  Program negate(Program p) const {
    const Perm inv = sigma.inverse();
    p.back().if0 = p.back().if0 * inv;  // product Π·σ⁻¹: e if f = 1, σ⁻¹ if f = 0
    p.back().if1 = p.back().if1 * inv;
    conjugate(p, conjugator(inv, sigma));
    return p;
  }

  // P, Q σ-compute f, g → the result σ-computes f ∧ g.
  Program conjoin(const Program& p, Program q) const {
    // swapped_cycle: Q stays on σ, so the commutator below is [σ, σ] = e.
    if (defect == BarringtonDefect::none) conjugate(q, conjugator(sigma, tau));
    Program out;
    out.reserve(2 * (p.size() + q.size()));
    const Program p_inv = inverse(p), q_inv = inverse(q);
    for (const Program* part : {&p, static_cast<const Program*>(&q), &p_inv, &q_inv})
      out.insert(out.end(), part->begin(), part->end());
    conjugate(out, conjugator(rho, sigma));  // ρ-computes f ∧ g → σ-computes it
    return out;
  }

  Program disjoin(Program p, Program q) const {
    return negate(conjoin(negate(std::move(p)), negate(std::move(q))));
  }
};

}  // namespace

std::vector<Instruction> barrington_program(const Formula& f, BarringtonDefect defect) {
  if (!f.boolean)
    throw InputError("", "Barrington's construction takes a boolean formula (and, or, not); " +
                             excerpt(f.text) + " is arithmetic");
  const Circuit& c = f.circuit;
  if (c.outputs().size() != 1)
    throw std::invalid_argument("barrington: a formula circuit has one output");
  // Lengths bottom-up (leaf 1, ¬ keeps it, ∧ and ∨ give 2(|P| + |Q|)), to refuse a huge
  // program up front.
  std::vector<Integer> length(c.size(), Integer(1));
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    if (c.kind(id) == GateKind::not_) length[id] = length[ops[0]];
    if (c.kind(id) == GateKind::and_ || c.kind(id) == GateKind::or_) {
      length[id] = length[ops[0]];
      for (std::size_t i = 1; i < ops.size(); ++i) length[id] = 2 * (length[id] + length[ops[i]]);
    }
  }
  if (length[c.outputs()[0]] > kMaxInstructions)
    throw InputError("", "the Barrington program of " + excerpt(f.text) + " would have " +
                             length[c.outputs()[0]].str() +
                             " instructions, more than the limit of " +
                             std::to_string(kMaxInstructions));
  const Builder b(defect);
  // Gates are topological, so one forward pass builds every gate's program from its operands'.
  std::vector<Program> program(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::input:
        program[id] = b.leaf(c.input_index(id));
        break;
      case GateKind::constant: {
        const Rational& v = c.constant(id);
        if (v != 0 && v != 1)
          throw std::invalid_argument("barrington: boolean formula with the constant " +
                                      to_string(v));
        program[id] = b.constant(v == 1);
        break;
      }
      case GateKind::not_:
        program[id] = b.negate(program[ops[0]]);
        break;
      case GateKind::and_:
      case GateKind::or_: {  // n-ary gates (not made by the parser) fold left
        Program acc = program[ops[0]];
        for (std::size_t i = 1; i < ops.size(); ++i)
          acc = c.kind(id) == GateKind::and_ ? b.conjoin(acc, program[ops[i]])
                                             : b.disjoin(std::move(acc), program[ops[i]]);
        program[id] = std::move(acc);
        break;
      }
      default:
        throw std::invalid_argument("barrington: gate " + std::to_string(id) + " is a " +
                                    std::string(name(c.kind(id))) +
                                    " gate; a boolean formula has only and, or, not");
    }
  }
  return std::move(program[c.outputs()[0]]);
}

namespace {

// f over {"0","1"}: the formula's circuit evaluated exactly on the assignment w.
Rational formula_value(const Formula& f, const std::vector<std::size_t>& w) {
  if (w.size() != f.variables)
    throw DomainError("the formula has " + std::to_string(f.variables) +
                      " variables; an assignment of " + std::to_string(w.size()) +
                      " is outside its domain");
  const RationalField q;
  std::vector<Rational> x;
  for (std::size_t v : w) x.push_back(Rational(static_cast<long>(v)));
  return evaluate(f.circuit, q, std::span<const Rational>(x))[0];
}

// The arithmetization of a boolean formula in the one-hot inputs x[t,σ] of strings over
// {"0","1"} (input index 2(t−1) + σ): x_t = x[t,1], ¬a = 1 − a, a ∧ b = ab,
// a ∨ b = a + b − ab. On one-hot points it equals f.
Circuit arithmetized(const Formula& f, std::size_t n) {
  if (n != f.variables)
    throw DomainError("the formula is defined on strings of length " + std::to_string(f.variables) +
                      ", not " + std::to_string(n));
  CircuitBuilder b;
  std::vector<GateId> x;
  for (std::size_t t = 1; t <= n; ++t)
    for (const char* s : {"0", "1"}) {
      GateId g = b.input("x[" + std::to_string(t) + "," + s + "]");
      if (*s == '1') x.push_back(g);
    }
  const Circuit& c = f.circuit;
  std::vector<GateId> g(c.size());
  const GateId one = b.constant(1);
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::input:
        g[id] = x[c.input_index(id)];
        break;
      case GateKind::constant:
        g[id] = b.constant(c.constant(id));
        break;
      case GateKind::not_:
        g[id] = b.sub(one, g[ops[0]]);
        break;
      case GateKind::and_:
      case GateKind::or_: {
        GateId acc = g[ops[0]];
        for (std::size_t i = 1; i < ops.size(); ++i) {
          const GateId prod = b.mul(acc, g[ops[i]]);
          acc = c.kind(id) == GateKind::and_ ? prod : b.sub(b.add(acc, g[ops[i]]), prod);
        }
        g[id] = acc;
        break;
      }
      default:
        throw std::invalid_argument("barrington: not a boolean formula gate");
    }
  }
  return b.finish({g[c.outputs()[0]]}, {"f"});
}

}  // namespace

Construction barrington(const Formula& f, BarringtonDefect defect) {
  auto program = std::make_shared<const std::vector<Instruction>>(barrington_program(f, defect));
  const std::size_t L = program->size();

  // The model's alphabet: the permutations the program can yield, in order of first use.
  std::map<Perm, std::size_t> id_of;
  std::vector<Perm> perms;
  for (const Instruction& ins : *program)
    for (const Perm* p : {&ins.if0, &ins.if1})
      if (id_of.emplace(*p, perms.size()).second) perms.push_back(*p);
  std::vector<std::string> symbols;
  std::vector<PdStep> steps;
  for (const Perm& p : perms) {
    symbols.push_back(cycle_notation(p));
    // P e_j = e_{p(j)}: the state e_x moves to e_{x·p}, so a product of P's runs the word
    // left to right.
    steps.push_back({std::vector<std::size_t>(p.image.begin(), p.image.end()),
                     Vector(5, Rational(1)), Matrix<Rational>(5, 1, Rational(0))});
  }

  LayerFrame frame;
  frame.d = 5;
  frame.m = 1;
  frame.features = perms.size();
  frame.initial_state = Matrix<Rational>(5, 1, Rational(0));
  frame.initial_state(0, 0) = 1;  // S₀ = e₀
  frame.readout = Matrix<Rational>(1, 5, Rational(0));
  frame.readout(0, 0) = -1;  // y = 1 − S[0]: 1 iff the product moves point 0
  frame.readout_bias = Matrix<Rational>(1, 1, Rational(1));

  Construction c;
  c.name = "barrington";
  c.model.name = "barrington";
  c.model.description = "Barrington: the width-5 permutation branching program (length " +
                        std::to_string(L) + ", σ = " + cycle_notation(barrington_sigma()) +
                        ") of the formula " + excerpt(f.text) +
                        " run by a PD LRNN on 5×5 permutation matrices; y = 1 − S[0]";
  c.model.alphabet = Alphabet(symbols, "barrington");
  c.model.layers.push_back({std::nullopt, make_pd(std::move(frame), std::move(steps), true)});

  auto formula = std::make_shared<const Formula>(f);
  c.target.alphabet = Alphabet({"0", "1"}, "barrington");
  c.target.fixed_length = f.variables;
  c.target.value = [formula](const std::vector<std::size_t>& w) {
    return formula_value(*formula, w);
  };
  c.target.circuit = [formula](std::size_t n) { return arithmetized(*formula, n); };

  auto ids = std::make_shared<const std::map<Perm, std::size_t>>(std::move(id_of));
  const std::size_t k = f.variables;
  c.encode = [program, ids, k](const std::vector<std::size_t>& w) {
    if (w.size() != k)
      throw std::invalid_argument("barrington encode: expected an assignment of " +
                                  std::to_string(k) + " symbols, got " + std::to_string(w.size()));
    std::vector<std::size_t> word;
    word.reserve(program->size());
    for (const Instruction& ins : *program)
      word.push_back(ids->at(ins.if0 == ins.if1 || w[ins.variable] == 0 ? ins.if0 : ins.if1));
    return word;
  };
  // Input forms (construction.hpp): instruction s reads one variable, so X's indicator of
  // permutation π at position s is [π = if0]·x[v,"0"] + [π = if1]·x[v,"1"] (v = its variable),
  // or the constant [π = if0] when if0 = if1 (encode reads no variable there). Exact on one-hot
  // inputs; not an embedding, since positions reading the same variable multiply.
  const std::size_t perm_count = perms.size();
  c.input_forms = [program, ids, k, perm_count](std::size_t n) {
    if (n != k)
      throw std::invalid_argument("barrington input forms: the formula has " + std::to_string(k) +
                                  " variables, asked for length " + std::to_string(n));
    std::vector<InputSource> out(program->size() * perm_count);
    for (std::size_t s = 0; s < program->size(); ++s) {
      const Instruction& ins = (*program)[s];
      InputSource* row = out.data() + s * perm_count;
      if (ins.if0 == ins.if1) {
        row[ids->at(ins.if0)].constant = 1;
        continue;
      }
      row[ids->at(ins.if0)].variables.push_back(static_cast<std::uint32_t>(2 * ins.variable));
      row[ids->at(ins.if1)].variables.push_back(static_cast<std::uint32_t>(2 * ins.variable + 1));
    }
    return out;
  };

  Integer bound = 1;
  for (std::size_t i = 0; i < f.depth; ++i) bound *= 4;
  c.claims.push_back(claim_at_most(
      "program length ≤ 4^depth (depth " + std::to_string(f.depth) + ")", bound, Integer(L)));
  c.claims.push_back(claim_equal("width: state dimension d", Integer(5),
                                 Integer(std::get<LrnnLayer>(c.model.layers[0].layer).d)));
  return c;
}

// ---- the `barrington` kind (constructions/registry.hpp) ----

namespace {
std::vector<OptionSpec> barrington_options() {
  std::vector<OptionSpec> o = {{.name = "--defect",
                                .kind = OptionKind::choice,
                                .help = "none or swapped-cycle (a deliberately broken program)",
                                .default_value = "none",
                                .allowed = {"none", "swapped-cycle"}}};
  for (OptionSpec& r : random_formula_options()) o.push_back(std::move(r));
  return o;
}
}  // namespace

void register_barrington(Registry& registry) {
  registry.add(
      {.name = "barrington",
       .help = "boolean formula → width-5 permutation program → PD LRNN, against the formula",
       .input_help =
           "boolean formula: a file, or an inline S-expression (or --depth D: a random one)",
       .input_optional = true,
       .options = barrington_options(),
       .build_from = [](const OptionValues& v) {
         std::vector<std::string> notes;
         const Formula f = formula_from_options(v, true, notes);
         Construction c =
             barrington(f, v.text("--defect") == "swapped-cycle" ? BarringtonDefect::swapped_cycle
                                                                 : BarringtonDefect::none);
         c.notes.insert(c.notes.end(), notes.begin(), notes.end());
         return c;
       }});
}

}  // namespace rnncc
