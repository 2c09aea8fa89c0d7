// The independent DRAT checker (verify/drat_check.hpp): a valid proof is accepted, a tampered
// one rejected, RAT lemmas are checked (accepted where they hold, refused where neither RUP nor
// RAT), and no proof of a satisfiable formula is accepted — including CaDiCaL's own proof of an
// unsatisfiable formula once a clause is dropped.
#include <catch2/catch.hpp>

#include "verify/cnf.hpp"
#include "verify/drat_check.hpp"
#include "verify/sat_proof.hpp"

#if RNNCC_TEST_HAVE_CADICAL
#include <cadical.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#endif

using namespace rnncc::sat;

namespace {

// (a ∨ b)(¬a ∨ b)(a ∨ ¬b)(¬a ∨ ¬b): unsatisfiable.
Cnf xor_square() {
  return parse_dimacs("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n");
}

// Pigeons into holes: p·h variables x(i,j) "pigeon i in hole j"; unsatisfiable for p > h.
Cnf pigeonhole(int p, int h) {
  Cnf f;
  f.vars = p * h;
  auto x = [h](int i, int j) { return i * h + j + 1; };
  for (int i = 0; i < p; ++i) {
    std::vector<int> c;
    for (int j = 0; j < h; ++j) c.push_back(x(i, j));
    f.clauses.push_back(c);
  }
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < p; ++i)
      for (int k = i + 1; k < p; ++k) f.clauses.push_back({-x(i, j), -x(k, j)});
  return f;
}

}  // namespace

TEST_CASE("drat: a hand-checked proof is accepted, its tampered versions rejected", "[sat]") {
  const Cnf f = xor_square();
  const DratCheck ok = check_drat(f, "2 0\n0\n");
  CHECK(ok.valid);
  CHECK(ok.lemmas == 2);
  CHECK(ok.rat_lemmas == 0);
  // The empty clause alone does not follow by unit propagation.
  const DratCheck bare = check_drat(f, "0\n");
  CHECK_FALSE(bare.valid);
  CHECK(bare.reason.find("line 1") != std::string::npos);
  // A proof that never derives the empty clause (its one lemma is a clause already there).
  CHECK_FALSE(check_drat(f, "1 2 0\n").valid);
  // Deleting a clause that is not there; a clause without its closing 0; a bad token.
  CHECK(check_drat(f, "d 1 -1 0\n").reason.find("not present") != std::string::npos);
  CHECK(check_drat(f, "2\n").reason.find("closing 0") != std::string::npos);
  CHECK(check_drat(f, "x 0\n").reason.find("expected a literal") != std::string::npos);
  // After deleting the clauses the lemma needs, the same steps are refused.
  CHECK_FALSE(check_drat(f, "d -1 2 0\nd 1 2 0\n2 0\n0\n").valid);
}

TEST_CASE("drat: RAT lemmas are checked on their first literal", "[sat]") {
  // A fresh variable is RAT (no clause holds its negation): accepted and counted.
  const DratCheck fresh = check_drat(xor_square(), "3 0\n2 0\n0\n");
  CHECK(fresh.valid);
  CHECK(fresh.rat_lemmas == 1);
  // (a ∨ b) satisfiable: ¬a is neither RUP nor RAT (the resolvent ¬a ∨ b does not propagate).
  const Cnf sat = parse_dimacs("p cnf 2 1\n1 2 0\n");
  const DratCheck r = check_drat(sat, "-1 0\n-2 0\n0\n");
  CHECK_FALSE(r.valid);
  CHECK(r.reason.find("neither RUP nor RAT") != std::string::npos);
}

TEST_CASE("drat: no proof of a satisfiable formula is accepted", "[sat]") {
  // Every proof of at most three lemmas over two variables, against (a ∨ b)(¬a ∨ b):
  // satisfiable (b), so none may be accepted.
  const Cnf sat = parse_dimacs("p cnf 2 2\n1 2 0\n-1 2 0\n");
  const std::vector<std::string> lemmas = {
      "1 0\n", "-1 0\n", "2 0\n", "-2 0\n", "1 2 0\n", "-1 -2 0\n", "1 -2 0\n", "d 1 2 0\n", "0\n"};
  std::size_t tried = 0;
  for (const auto& a : lemmas)
    for (const auto& b : lemmas)
      for (const auto& c : lemmas) {
        ++tried;
        CHECK_FALSE(check_drat(sat, a + b + c).valid);
      }
  CHECK(tried == 729);
}

TEST_CASE("drat: DIMACS is read strictly", "[sat]") {
  CHECK_THROWS_WITH(parse_dimacs("1 2 0\n"), Catch::Contains("before the 'p cnf' header"));
  CHECK_THROWS_WITH(parse_dimacs("p cnf 1 1\n1 2 0\n"), Catch::Contains("beyond the variables"));
  CHECK_THROWS_WITH(parse_dimacs("p cnf 2 2\n1 2 0\n"), Catch::Contains("declares 2 clauses"));
  const Cnf f = pigeonhole(3, 2);
  const Cnf back = parse_dimacs(to_dimacs(f));
  CHECK(back.vars == f.vars);
  CHECK(back.clauses == f.clauses);
}

#if RNNCC_TEST_HAVE_CADICAL
namespace {

// CaDiCaL's text DRAT proof of `f` (empty when satisfiable).
std::string cadical_proof(const Cnf& f, int& result) {
  char path[] = "/tmp/rnncc-test-drat-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  {
    CaDiCaL::Solver s;
    s.set("quiet", 1);
    s.set("binary", 0);
    REQUIRE(s.trace_proof(path));
    for (const auto& c : f.clauses) {
      for (int l : c) s.add(l);
      s.add(0);
    }
    result = s.solve();
    s.close_proof_trace();
  }
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  return text;
}

}  // namespace

TEST_CASE("drat: CaDiCaL's proof of a pigeonhole formula checks, on a weakened formula not",
          "[sat]") {
  const Cnf f = pigeonhole(6, 5);
  int result = 0;
  const std::string proof = cadical_proof(f, result);
  REQUIRE(result == 20);
  const DratCheck ok = check_drat(parse_dimacs(to_dimacs(f)), proof);
  CHECK(ok.valid);
  CHECK(ok.lemmas > 10);
  // Dropping pigeon 0's clause makes the formula satisfiable: the same proof must fail.
  Cnf weak = f;
  weak.clauses.erase(weak.clauses.begin());
  int weak_result = 0;
  (void)cadical_proof(weak, weak_result);
  REQUIRE(weak_result == 10);
  CHECK_FALSE(check_drat(weak, proof).valid);
  // Truncated to its first half: no empty clause.
  CHECK_FALSE(check_drat(f, proof.substr(0, proof.rfind('\n', proof.size() / 2) + 1)).valid);
}
#endif
