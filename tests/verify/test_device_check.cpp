// Bulk checks through check circuits (verify/device_check.hpp) on the CPU twin of the device
// program: exact agreement proved by the bound check, counterexamples found and equal to the CPU
// engine's minimal one, the prime count raised when the bound needs it, constructions that
// compute mod p compared mod p, and the refusals. The GPU runs the same program (tests/gpu/).
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "tests/support.hpp"
#include "verify/device_check.hpp"
#include "verify/verify.hpp"

using namespace rnncc;

namespace {

DeviceCheckOptions cpu_options(std::size_t n) {
  DeviceCheckOptions o;
  o.length = n;
  o.device = CheckDevice::cpu;
  o.prefix_sharing = false;  // the check-circuit path (prefix sharing: test_prefix_check.cpp)
  return o;
}

// The DPLR construction of count_ab with one factor entry perturbed (as in test_negative.cpp).
Construction broken_dplr() {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
  auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  layer.A[layer.features - 1](0, 0) += 1;
  return c;
}

}  // namespace

TEST_CASE("device check proves the DPLR construction exact on every string of a length",
          "[verify][device-check]") {
  for (const char* file : {"wfa_count_ab.att", "wfa_binary_value.att"}) {
    const Construction c = wfa_to_lrnn(load_wfa(test::example(file)), WfaFamily::dplr);
    for (std::size_t n : {1u, 5u, 9u}) {
      const DeviceCheckReport r = device_check(c, cpu_options(n));
      INFO(file << " n = " << n);
      REQUIRE(r.strings == (std::uint64_t{1} << n));
      REQUIRE(r.mismatches == 0);
      REQUIRE_FALSE(r.first_counterexample);
      REQUIRE(r.exact);
      REQUIRE(r.runs == 1);
      REQUIRE_FALSE(r.primes.empty());
    }
  }
}

TEST_CASE("device check finds the least failing string, as the CPU engine does",
          "[verify][device-check][negative]") {
  const Construction c = broken_dplr();
  std::optional<std::vector<std::size_t>> device_first;
  for (std::size_t n = 1; n <= 6 && !device_first; ++n) {
    const DeviceCheckReport r = device_check(c, cpu_options(n));
    if (r.mismatches) {
      REQUIRE(r.first_counterexample);
      device_first = r.first_counterexample;
    }
  }
  REQUIRE(device_first);
  VerifyOptions vo;
  vo.exhaustive = 6;
  vo.random = 0;
  const VerifyReport v = verify(c, vo);
  REQUIRE(v.counterexample);
  REQUIRE(v.counterexample->input == *device_first);
}

TEST_CASE("device check adds primes when the bound needs them", "[verify][device-check]") {
  // binary value: f(w) = Σ w_i 2^(n−i) reaches 2^100 at n = 100: doubles carry errors of about
  // 2^48, beyond what one 31-bit prime covers; without a sample the first run uses one prime,
  // so the bound check must rerun with more.
  const Construction c =
      wfa_to_lrnn(load_wfa(test::example("wfa_binary_value.att")), WfaFamily::general);
  DeviceCheckOptions o = cpu_options(100);
  o.exhaustive = false;
  o.random = 64;
  o.sample = 0;
  o.seed = 3;
  const DeviceCheckReport r = device_check(c, o);
  REQUIRE(r.mismatches == 0);
  REQUIRE(r.exact);
  REQUIRE(r.runs == 2);
  REQUIRE(r.primes.size() >= 2);
  REQUIRE(r.log2_bound > 31);
  REQUIRE_FALSE(r.float_proof);
}

TEST_CASE("the float shadow alone proves small exact values equal", "[verify][device-check]") {
  const Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
  const DeviceCheckReport r = device_check(c, cpu_options(12));
  REQUIRE(r.float_proof);
  REQUIRE(r.exact);
  REQUIRE(r.primes.size() == 1);
  REQUIRE(r.log2_bound < 0);
}

TEST_CASE("device check compares constructions that compute mod p modulo p",
          "[verify][device-check]") {
  Matmul3Options mo;
  mo.modulus = 29;
  const Construction c = matmul3(mo);
  DeviceCheckOptions o = cpu_options(2);
  const DeviceCheckReport r = device_check(c, o);
  REQUIRE(r.modulus == std::optional<std::uint64_t>(29));
  REQUIRE(r.mismatches == 0);
  REQUIRE(r.exact);
  mo.init_on_bos = false;  // the flawed schedule: caught
  const DeviceCheckReport bad = device_check(matmul3(mo), cpu_options(3));
  REQUIRE(bad.mismatches > 0);
  REQUIRE(bad.first_counterexample);
}

TEST_CASE("device check refuses what a check circuit cannot carry",
          "[verify][device-check][errors]") {
  const Construction g = graph_walk(3, GraphWalkVariant::final_with_promise);
  REQUIRE_THROWS_AS(device_check(g, cpu_options(3)), InputError);
  const Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
  DeviceCheckOptions o = cpu_options(4);
  o.first = 16;  // past Σ^4
  REQUIRE_THROWS_WITH(device_check(c, o), Catch::Contains("past the last string"));
  o = cpu_options(70);
  REQUIRE_THROWS_WITH(device_check(c, o), Catch::Contains("2^62"));
}

TEST_CASE("verify --device gpu without a GPU runs on the CPU and says why",
          "[verify][device-check]") {
  const Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
  VerifyOptions vo;
  vo.gpu = true;
  vo.exhaustive = 4;
  vo.random = 10;
  const VerifyReport r = verify(c, vo);
  REQUIRE(r.holds);
  if (!gpu::probe().available) {
    REQUIRE(r.checked.count("exhaustive") == 1);
    bool noted = false;
    for (const auto& n : r.notes) noted |= n.rfind("--device gpu:", 0) == 0;
    REQUIRE(noted);
  } else {
    REQUIRE(r.checked.count("exhaustive (gpu)") == 1);
  }
}
