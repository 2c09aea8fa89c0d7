// An independent DRAT proof checker (docs/constructions.md, "Proofs per length by SAT"): checks
// that a proof refutes a CNF formula, so that "proved by SAT" does not rest on the solver.
// It shares no code with the CNF encoder or the solver but the DIMACS reader (verify/cnf.hpp).
//
// Forward checking, in the proof's order: every added clause (lemma) must be RUP — assigning
// its literals false and propagating units over the current clauses (two watched literals)
// reaches a conflict — or, failing that, RAT on its first literal p: for every current clause D
// containing ¬p, the resolvent lemma ∪ (D \ {¬p}) is RUP (tautologies skipped). A line "d …"
// deletes one copy of that clause; a deletion of a clause that is the reason of a top-level
// assignment (a unit among them) is ignored and counted — the checker's own clause set then
// stays a superset of the proof's, and every step it accepts is still a valid DRAT step on that
// set, so acceptance still implies unsatisfiability. The proof is valid when the empty clause is
// derived (or unit propagation on the clauses reaches a conflict by the end). Text DRAT only
// (CaDiCaL's `binary=0`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "verify/cnf.hpp"

namespace rnncc::sat {

struct DratCheck {
  bool valid = false;
  std::string reason;  // why not, naming the proof line (empty when valid)
  std::size_t lemmas = 0, rat_lemmas = 0, deletions = 0, ignored_deletions = 0;
};

DratCheck check_drat(const Cnf& formula, std::string_view proof);

}  // namespace rnncc::sat
