#pragma once
// One run of verify() (verify.hpp), as a class whose member functions are the checking methods;
// internal to rnncc_verify. The engine (verify.cpp: verify(), recording and shrinking the
// failing string, the verdict), the proving methods (verify_proofs.cpp), exhaustive and random
// testing (exhaustive_and_random.cpp), three-way checks (three_way.cpp) and identity testing
// (identity_testing.cpp) each define their members.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "algebra/modp.hpp"
#include "verify/device_check.hpp"
#include "verify/three_way.hpp"
#include "verify/verify.hpp"

namespace rnncc::verify_internal {

// Strings of length n in lexicographic order of symbol ids: calls f until it returns true.
template <class F>
bool for_each_string(std::size_t sigma, std::size_t n, F&& f) {
  std::vector<std::size_t> w(n, 0);
  while (true) {
    if (f(w)) return true;
    std::size_t i = n;
    while (i > 0 && ++w[i - 1] == sigma) w[--i] = 0;
    if (i == 0) return false;
  }
}

inline double count_strings(std::size_t sigma, std::size_t n) {
  return std::pow(static_cast<double>(sigma), static_cast<double>(n));
}

inline std::string join(const Alphabet& a, const std::vector<std::size_t>& w) {
  return w.empty() ? "ε" : a.join(w);
}

// One run of verify(): the construction, the options, the report being written and the first
// failing string found. Each checking method is one member function, and verify() is the script
// that calls them in order; a method that finds a failing string hands it to record(), later
// methods skip once one is found, and shrink() minimizes it. A new method is one more member
// function (reading c_ and o_, writing report_.checked / notes, calling record()) and one more
// line in verify().
class Verification {
 public:
  Verification(const Construction& c, const VerifyOptions& o);

  // The methods, in the order verify() calls them.
  void prove();
  void sat();
  void prove_on_valid_encodings();
  void k_induction();
  void domain_proof();
  void minimal_state_size();
  void choose_device();
  void exhaustive();
  void exhaustive_sharded(std::size_t lo, std::size_t hi);
  void random();
  void count_skipped();
  void three_way();
  void identity();
  void shrink();
  VerifyReport verdict();

 private:
  struct DeviceSummary;
  struct IdentityProbe;

  static std::uint64_t drawn_seed();
  static std::uint64_t shared_seed(Ranks* ranks);

  void covered(const std::string& method, std::size_t lo, std::size_t hi);

  std::vector<std::uint64_t> random_point(std::mt19937_64& rng, const ModP& F, std::size_t n,
                                          const std::vector<std::size_t>& prefix) const;
  void witness(const IdentityProbe& probe, std::mt19937_64& rng, std::size_t n,
               std::size_t& points);
  std::optional<Counterexample::VerdictDifference> verdict_difference(
      const std::vector<std::size_t>& w);
  bool in_domain(const std::vector<std::size_t>& w) const;
  bool record(const std::vector<std::size_t>& w, const std::string& method, bool with_circuit);
  std::uint64_t on_device(const DeviceCheckOptions& d, const std::string& method, DeviceSummary& s);
  void summarize(const std::string& method, const DeviceSummary& s);
  std::string trace_of(const std::vector<std::size_t>& w) const;

  const Construction& c_;
  const VerifyOptions& o_;
  Progress& progress() const { return o_.progress ? *o_.progress : no_progress(); }
  Checker checker_;
  const Alphabet& sigma_;
  const std::size_t S_;
  VerifyReport report_;
  bool gpu_ = false;              // choose_device: the GPU runs exhaustive and random
  bool gpu_random_ = false;       // … and random strings too (a check circuit exists)
  bool force_domain_ = false;     // prove: exhaustive enumerates the finite domain by default
  bool domain_complete_ = false;  // exhaustive ran over its whole range (exactly)
  std::size_t outside_promise_ = 0;
  bool grammar_proved_ = false;  // prove_on_valid_encodings set the proof
  std::optional<std::pair<std::vector<std::size_t>, std::string>> failing_;  // (w, method)
  std::optional<Mismatch> failing_mismatch_;
  const std::uint64_t seed_;
  TestedScope tested_;
  bool refuted_ = false;  // identity testing proved X ≠ f without a witness string
};

}  // namespace rnncc::verify_internal
