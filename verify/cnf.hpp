// Boolean circuits for SAT proofs (docs/constructions.md, "Proofs per length by SAT"): a small
// and/xor graph with structural hashing and constant folding (Aig), its Tseitin encoding as CNF,
// and DIMACS text written and read. verify/sat_proof.hpp builds the miter here; the DRAT checker
// (verify/drat_check.hpp) shares nothing with this file but parse_dimacs.
//
// A literal is 2·node + negated; node 0 is the constant false, so literal 0 is false and 1 true.
// Nodes are inputs or two-input and/xor gates over earlier nodes (topological by construction).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rnncc::sat {

using Lit = std::uint32_t;
inline constexpr Lit kFalse = 0, kTrue = 1;
inline Lit negate(Lit a) {
  return a ^ 1u;
}
inline Lit negate_if(Lit a, bool b) {
  return a ^ static_cast<Lit>(b);
}

class Aig {
 public:
  Aig();
  Lit input();
  Lit land(Lit a, Lit b);
  Lit lxor(Lit a, Lit b);
  Lit lor(Lit a, Lit b) { return negate(land(negate(a), negate(b))); }
  Lit mux(Lit s, Lit a, Lit b);  // s ? a : b
  Lit majority(Lit a, Lit b, Lit c);
  Lit and_all(const std::vector<Lit>& xs);
  Lit or_all(const std::vector<Lit>& xs);

  enum class Kind : std::uint8_t { constant, input, and_, xor_ };
  struct Node {
    Kind kind;
    Lit a = 0, b = 0;
  };
  const std::vector<Node>& nodes() const { return nodes_; }
  std::size_t gates() const { return gates_; }
  // Evaluates every node under an assignment of the inputs (in creation order).
  std::vector<bool> evaluate(const std::vector<bool>& inputs) const;
  static bool value(const std::vector<bool>& node_values, Lit a) {
    return node_values[a >> 1] != static_cast<bool>(a & 1u);
  }
  const std::vector<std::uint32_t>& input_nodes() const { return inputs_; }

 private:
  Lit gate(Kind k, Lit a, Lit b);
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> inputs_;
  std::unordered_map<std::uint64_t, std::uint32_t> hash_[2];
  std::size_t gates_ = 0;
};

// A formula in CNF: variables 1..vars, clauses of nonzero DIMACS literals.
struct Cnf {
  int vars = 0;
  std::vector<std::vector<int>> clauses;
};

// The Tseitin encoding of the cone of `root` with `root` asserted true: satisfiable iff some
// input assignment makes root true. `variable` (out) maps each node to its DIMACS variable
// (0: not in the cone); inputs of the cone are variables like the gates.
Cnf tseitin(const Aig& aig, Lit root, std::vector<int>* variable = nullptr);

std::string to_dimacs(const Cnf& cnf);
// Reads "p cnf V C" then clauses ending in 0; comments 'c …'. Throws std::invalid_argument naming
// the line for anything else (a literal beyond V, a missing header, a clause count that differs).
Cnf parse_dimacs(std::string_view text);

}  // namespace rnncc::sat
