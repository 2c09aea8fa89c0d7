#include "verify/cnf.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace rnncc::sat {

Aig::Aig() {
  nodes_.push_back({Kind::constant, 0, 0});
}

Lit Aig::input() {
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({Kind::input, 0, 0});
  inputs_.push_back(id);
  return 2 * id;
}

Lit Aig::gate(Kind k, Lit a, Lit b) {
  if (a > b) std::swap(a, b);
  const std::uint64_t key = (static_cast<std::uint64_t>(a) << 32) | b;
  auto& table = hash_[k == Kind::xor_];
  if (const auto it = table.find(key); it != table.end()) return 2 * it->second;
  const auto id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({k, a, b});
  table.emplace(key, id);
  ++gates_;
  return 2 * id;
}

Lit Aig::land(Lit a, Lit b) {
  if (a == kFalse || b == kFalse || a == negate(b)) return kFalse;
  if (a == kTrue || a == b) return b;
  if (b == kTrue) return a;
  return gate(Kind::and_, a, b);
}

Lit Aig::lxor(Lit a, Lit b) {
  const bool flip = ((a ^ b) & 1u) != 0;  // pull the negations out: xor(¬a, b) = ¬xor(a, b)
  a &= ~1u;
  b &= ~1u;
  if (a == b) return negate_if(kFalse, flip);
  if (a == kFalse) return negate_if(b, flip);
  if (b == kFalse) return negate_if(a, flip);
  return negate_if(gate(Kind::xor_, a, b), flip);
}

Lit Aig::mux(Lit s, Lit a, Lit b) {
  if (s == kTrue || a == b) return a;
  if (s == kFalse) return b;
  return lor(land(s, a), land(negate(s), b));
}

Lit Aig::majority(Lit a, Lit b, Lit c) {
  return lor(land(a, b), land(c, lor(a, b)));
}

Lit Aig::and_all(const std::vector<Lit>& xs) {
  if (xs.empty()) return kTrue;
  std::vector<Lit> level = xs;  // a balanced tree: shallow cones for the solver
  while (level.size() > 1) {
    std::vector<Lit> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(land(level[i], level[i + 1]));
    if (level.size() % 2) next.push_back(level.back());
    level = std::move(next);
  }
  return level[0];
}

Lit Aig::or_all(const std::vector<Lit>& xs) {
  std::vector<Lit> neg;
  for (Lit x : xs) neg.push_back(negate(x));
  return negate(and_all(neg));
}

std::vector<bool> Aig::evaluate(const std::vector<bool>& inputs) const {
  std::vector<bool> v(nodes_.size(), false);
  std::size_t next_input = 0;
  for (std::size_t i = 1; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    switch (n.kind) {
      case Kind::constant:
        break;
      case Kind::input:
        v[i] = inputs.at(next_input++);
        break;
      case Kind::and_:
        v[i] = value(v, n.a) && value(v, n.b);
        break;
      case Kind::xor_:
        v[i] = value(v, n.a) != value(v, n.b);
        break;
    }
  }
  return v;
}

Cnf tseitin(const Aig& aig, Lit root, std::vector<int>* variable) {
  const auto& nodes = aig.nodes();
  std::vector<int> var(nodes.size(), 0);
  Cnf cnf;
  if (root == kTrue) return cnf;  // trivially satisfiable: no clauses
  if (root == kFalse) {
    cnf.clauses.push_back({});
    return cnf;
  }
  // The cone of root, marked from the top (nodes are topological: one backward sweep).
  std::vector<char> in_cone(nodes.size(), 0);
  in_cone[root >> 1] = 1;
  for (std::size_t i = nodes.size(); i-- > 1;) {
    if (!in_cone[i]) continue;
    const auto& n = nodes[i];
    if (n.kind == Aig::Kind::and_ || n.kind == Aig::Kind::xor_) {
      in_cone[n.a >> 1] = 1;
      in_cone[n.b >> 1] = 1;
    }
  }
  for (std::size_t i = 1; i < nodes.size(); ++i)
    if (in_cone[i]) var[i] = ++cnf.vars;
  int constant = 0;  // a variable fixed false, when the cone reads the constant
  auto lit = [&](Lit a) {
    int v = var[a >> 1];
    if ((a >> 1) == 0) {
      if (!constant) {
        constant = ++cnf.vars;
        cnf.clauses.push_back({-constant});
      }
      v = constant;
    }
    return (a & 1u) ? -v : v;
  };
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    if (!in_cone[i]) continue;
    const auto& n = nodes[i];
    const int g = var[i];
    if (n.kind == Aig::Kind::and_) {
      const int a = lit(n.a), b = lit(n.b);
      cnf.clauses.push_back({-g, a});
      cnf.clauses.push_back({-g, b});
      cnf.clauses.push_back({g, -a, -b});
    } else if (n.kind == Aig::Kind::xor_) {
      const int a = lit(n.a), b = lit(n.b);
      cnf.clauses.push_back({-g, a, b});
      cnf.clauses.push_back({-g, -a, -b});
      cnf.clauses.push_back({g, -a, b});
      cnf.clauses.push_back({g, a, -b});
    }
  }
  cnf.clauses.push_back({lit(root)});
  if (variable) *variable = std::move(var);
  return cnf;
}

std::string to_dimacs(const Cnf& cnf) {
  std::string out =
      "p cnf " + std::to_string(cnf.vars) + " " + std::to_string(cnf.clauses.size()) + "\n";
  for (const auto& c : cnf.clauses) {
    for (int l : c) {
      out += std::to_string(l);
      out += ' ';
    }
    out += "0\n";
  }
  return out;
}

Cnf parse_dimacs(std::string_view text) {
  Cnf cnf;
  bool header = false;
  long declared = 0;
  std::size_t line_no = 0, pos = 0;
  std::vector<int> clause;
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("DIMACS line " + std::to_string(line_no) + ": " + what);
  };
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    std::size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string::npos || line[i] == 'c') continue;
    if (line[i] == 'p') {
      if (header) fail("a second header");
      char fmt[8] = {};
      long v = -1, c = -1;
      if (std::sscanf(line.c_str() + i, "p %7s %ld %ld", fmt, &v, &c) != 3 ||
          std::string(fmt) != "cnf" || v < 0 || c < 0 || v > (1L << 30))
        fail("expected 'p cnf VARIABLES CLAUSES'");
      cnf.vars = static_cast<int>(v);
      declared = c;
      header = true;
      continue;
    }
    if (!header) fail("a clause before the 'p cnf' header");
    const char* p = line.c_str() + i;
    while (*p) {
      while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
      if (!*p) break;
      char* after = nullptr;
      const long l = std::strtol(p, &after, 10);
      if (after == p) fail("expected an integer literal");
      p = after;
      if (l == 0) {
        cnf.clauses.push_back(std::move(clause));
        clause.clear();
      } else {
        if (std::labs(l) > cnf.vars) fail("literal " + std::to_string(l) + " beyond the variables");
        clause.push_back(static_cast<int>(l));
      }
    }
  }
  if (!header) throw std::invalid_argument("DIMACS: no 'p cnf' header");
  if (!clause.empty()) throw std::invalid_argument("DIMACS: the last clause has no closing 0");
  if (static_cast<long>(cnf.clauses.size()) != declared)
    throw std::invalid_argument("DIMACS: the header declares " + std::to_string(declared) +
                                " clauses, the file has " + std::to_string(cnf.clauses.size()));
  return cnf;
}

}  // namespace rnncc::sat
