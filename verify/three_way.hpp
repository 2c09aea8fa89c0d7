#pragma once
// The check of one string behind every testing method of verify (verify.hpp): f(w) against
// X(encode(w)) and, three-way, against X's compiled arithmetic circuit. Internal to
// rnncc_verify.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/circuit.hpp"
#include "rnn/evaluate.hpp"
#include "verify/verify.hpp"

namespace rnncc::verify_internal {

// One verdict on one string: empty when f, X and (if compiled) X's circuit agree.
struct Mismatch {
  std::string expected, got, disagreeing;
};

class Checker {
 public:
  Checker(const Construction& c, const VerifyOptions& o);

  bool compilable() const { return compilable_; }

  std::optional<Mismatch> check(const std::vector<std::size_t>& w, bool three_way);
  std::optional<std::pair<Rational, Rational>> exact_values(const std::vector<std::size_t>& w);

  std::size_t circuits_compiled() const { return compiled_.size(); }
  // The shortest encoding length whose circuit was not compiled (over the work budget).
  std::optional<std::size_t> first_over_budget() const { return first_over_budget_; }
  // What checks on other ranks compiled or found over budget (a sharded run folds them in, so
  // every rank's figures are those of the whole run): (length, mod) pairs and a length.
  const std::set<std::pair<std::size_t, bool>>& compiled() const { return compiled_; }
  void merge(const std::set<std::pair<std::size_t, bool>>& compiled,
             std::optional<std::size_t> over_budget) {
    compiled_.insert(compiled.begin(), compiled.end());
    if (over_budget && (!first_over_budget_ || *over_budget < *first_over_budget_))
      first_over_budget_ = over_budget;
  }

  double compile_work(std::size_t n) const;

 private:
  bool within_compile_budget(std::size_t n);
  template <Domain K>
  std::optional<Mismatch> check_in(const K& k, const Rational& expected_q,
                                   const std::vector<std::size_t>& x, bool three_way);
  template <Domain K>
  const PreparedModel<K>& prepared(const K& k);
  const Circuit& circuit_for(std::size_t n, bool mod);

  const Construction& c_;
  const VerifyOptions& o_;
  std::optional<ModP> mod_;
  bool compilable_ = false;
  std::optional<std::size_t> first_over_budget_;
  std::map<std::size_t, Circuit> circuits_rational_, circuits_mod_;
  std::set<std::pair<std::size_t, bool>> compiled_;  // (length, mod) of every circuit compiled
  std::optional<PreparedModel<RationalField>> prepared_q_;
  std::optional<PreparedModel<ModP>> prepared_mod_;
};

}  // namespace rnncc::verify_internal
