// Exhaustive checks by prefix sharing on the GPU (verify/cuda/prefix_check.cu) == on the CPU
// (verify/prefix_check.hpp, the same walk on every core), bit for bit: the mismatch count, the
// least counterexample, the primes and the bound, on the WFA families, several primes, a
// 3-symbol alphabet, a planted bug, slices that start and end off the task grid, and block
// sizes. Labelled `gpu`; without a device every test prints "SKIPPED: <reason>".
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "circuits/eval/cuda/gpu.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "tests/gpu/gpu_testing.hpp"
#include "tests/support.hpp"
#include "verify/device_check.hpp"
#include "verify/prefix_check.hpp"

using namespace rnncc;

namespace {

using test::device;

std::filesystem::path source_dir() {
  const char* env = std::getenv("RNNCC_SOURCE_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(RNNCC_SOURCE_DIR);
}

Wfa example(const char* name) {
  return load_wfa((source_dir() / "examples" / name).string());
}

void require_same(const DeviceCheckReport& g, const DeviceCheckReport& c) {
  REQUIRE(g.strings == c.strings);
  REQUIRE(g.mismatches == c.mismatches);
  REQUIRE(g.first_counterexample == c.first_counterexample);
  REQUIRE(g.primes == c.primes);
  REQUIRE(g.exact == c.exact);
  REQUIRE(g.log2_bound == c.log2_bound);
}

void compare(const PrefixSubject& s, std::size_t n, std::uint64_t first, std::uint64_t count,
             std::uint32_t threads = 256, std::uint32_t depth = 0) {
  PrefixCheckOptions o;
  o.length = n;
  o.first = first;
  o.count = count;
  o.device = CheckDevice::gpu;
  o.gpu_threads = threads;
  o.suffix_depth = depth;
  INFO("n = " << n << " first = " << first << " count = " << count << " threads = " << threads
              << " s = " << depth);
  const DeviceCheckReport g = prefix_check(s, o);
  o.device = CheckDevice::cpu;
  const DeviceCheckReport c = prefix_check(s, o);
  require_same(g, c);
  REQUIRE(g.device == device().name);
}

const char* kThreeSymbols =
    "0 0 a\n0 0 b\n0 0 c\n0 1 a\n1 2 b 2\n0 3 c\n3 2 a -1/2\n2 2 a\n2 2 b\n2 2 c\n2 1\n";

}  // namespace

TEST_CASE("GPU prefix sharing equals the CPU walk on the WFA families", "[gpu]") {
  REQUIRE_DEVICE();
  for (const char* file : {"wfa_count_ab.att", "wfa_binary_value.att"})
    for (WfaFamily fam : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
      const Construction c = wfa_to_lrnn(example(file), fam);
      const auto s = prefix_subject(c);
      REQUIRE(s);
      INFO(file << " " << to_string(fam));
      for (std::size_t n : {1u, 2u, 5u, 13u, 20u}) compare(*s, n, 0, 0);
      compare(*s, 20, 12345, 300000, 128, 7);
      compare(*s, 40, (std::uint64_t{1} << 39) + 3, 1u << 20);  // binary value: 2+ primes
    }
}

TEST_CASE("GPU prefix sharing on 3 symbols and a planted bug equals the CPU walk", "[gpu]") {
  REQUIRE_DEVICE();
  for (WfaFamily fam : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
    const auto s = prefix_subject(wfa_to_lrnn(parse_wfa_att(kThreeSymbols, "three"), fam));
    REQUIRE(s);
    for (std::size_t n : {1u, 4u, 11u}) compare(*s, n, 0, 0);
    compare(*s, 12, 1001, 200000, 64, 5);
    Construction bad = wfa_to_lrnn(example("wfa_count_ab.att"), fam);
    auto& layer = std::get<LrnnLayer>(bad.model.layers[0].layer);
    layer.A[layer.features - 1](0, 0) += 1;
    const auto b = prefix_subject(bad);
    for (std::size_t n : {3u, 9u, 18u}) compare(*b, n, 0, 0);
    compare(*b, 24, 777, 5000000, 256, 9);
  }
}

TEST_CASE("device_check takes prefix sharing on the GPU and on the CPU alike", "[gpu]") {
  REQUIRE_DEVICE();
  const Construction c = wfa_to_lrnn(example("wfa_count_ab.att"), WfaFamily::dplr);
  DeviceCheckOptions o;
  o.length = 22;
  o.device = CheckDevice::gpu;
  const DeviceCheckReport g = device_check(c, o);
  o.device = CheckDevice::cpu;
  const DeviceCheckReport cpu = device_check(c, o);
  REQUIRE(g.method == kPrefixMethod);
  require_same(g, cpu);
  REQUIRE(g.mismatches == 0);
}
