// The model walk on the GPU (verify/cuda/model_walk.cu) == on the CPU (verify/model_walk.hpp, the
// same walk on every core), bit for bit: strings, mismatches, skipped, overflowed, the least
// counterexample and the step count, on the recall and copy hybrids, their negative variants, a
// model whose values overflow, slices that start and end off the task grid, and block sizes;
// and device_check on the GPU routes exhaustive checks of a hybrid to it. Labelled `gpu`;
// without a device every test prints "SKIPPED: <reason>".
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>

#include "constructions/retrieval.hpp"
#include "tests/gpu/gpu_testing.hpp"
#include "verify/device_check.hpp"
#include "verify/model_walk_check.hpp"

using namespace rnncc;

namespace {

using test::device;

void compare(const ModelWalkSubject& s, std::size_t n, std::uint64_t first = 0,
             std::uint64_t count = 0, std::uint32_t threads = 128, std::uint32_t depth = 0) {
  ModelWalkOptions o;
  o.length = n;
  o.first = first;
  o.count = count;
  o.device = CheckDevice::gpu;
  o.gpu_threads = threads;
  // The GPU's depth for both runs: the step count depends on it (model_walk_suffix_depth).
  o.suffix_depth = model_walk_suffix_depth(s.tables.symbols, n, CheckDevice::gpu, depth);
  INFO("n = " << n << " first = " << first << " count = " << count << " threads = " << threads
              << " s = " << o.suffix_depth);
  const DeviceCheckReport g = model_walk_check(s, o);
  o.device = CheckDevice::cpu;
  const DeviceCheckReport c = model_walk_check(s, o);
  REQUIRE(g.device == device().name);
  REQUIRE(g.strings == c.strings);
  REQUIRE(g.mismatches == c.mismatches);
  REQUIRE(g.skipped == c.skipped);
  REQUIRE(g.overflowed == c.overflowed);
  REQUIRE(g.first_counterexample == c.first_counterexample);
  REQUIRE(g.first_overflow == c.first_overflow);
  REQUIRE(g.steps == c.steps);
  REQUIRE(g.exact == c.exact);
}

}  // namespace

TEST_CASE("GPU model walk equals the CPU walk on the recall and copy hybrids", "[gpu]") {
  REQUIRE_DEVICE();
  AssocRecallOptions one;
  one.keys = 1;
  one.values = 1;
  SelectiveCopyOptions sc;
  sc.data_symbols = 1;
  sc.max_distance = 2;
  for (const Construction& c :
       {associative_recall({}), associative_recall(one), selective_copy({}), selective_copy(sc)}) {
    INFO(c.name);
    const auto s = model_walk_subject(c);
    REQUIRE(s);
    for (std::size_t n : {1u, 2u, 3u, 7u}) compare(*s, n);
    // A slice off the task grid inside Σ^12 (|Σ|^12 = 531 441 strings for |Σ| = 3).
    std::uint64_t all = 1;
    for (int i = 0; i < 12; ++i) all *= s->tables.symbols;
    compare(*s, 12, std::min<std::uint64_t>(1234567, all / 7 + 1),
            std::min<std::uint64_t>(3000001, all / 3 + 1), 64, 5);
  }
  const auto s = model_walk_subject(associative_recall(one));
  compare(*s, 16);  // 3^16 = 43 046 721 strings
}

TEST_CASE("GPU model walk finds the CPU's least counterexample on negative variants", "[gpu]") {
  REQUIRE_DEVICE();
  AssocRecallOptions leftmost;
  leftmost.tie = TieRule::leftmost;
  AssocRecallOptions narrow;
  narrow.window = 2;
  AssocRecallOptions lrnn_only;
  lrnn_only.attention = false;
  SelectiveCopyOptions copy_narrow;
  copy_narrow.window = 1;
  for (const Construction& c : {associative_recall(leftmost), associative_recall(narrow),
                                associative_recall(lrnn_only), selective_copy(copy_narrow)}) {
    INFO(c.name);
    const auto s = model_walk_subject(c);
    REQUIRE(s);
    for (std::size_t n : {4u, 8u}) compare(*s, n);
    compare(*s, 9, 777, 100003, 32, 3);
  }
}

TEST_CASE("GPU model walk counts overflowing strings as the CPU does", "[gpu]") {
  REQUIRE_DEVICE();
  Construction c = selective_copy({});
  auto& l = std::get<LrnnLayer>(c.model.layers[0].layer);
  for (auto& A : l.A) A(0, 0) = Rational(Integer(1) << 40);  // t² leaves 64 bits at t = 2
  const auto s = model_walk_subject(c);
  REQUIRE(s);
  compare(*s, 1);
  compare(*s, 6);
}

TEST_CASE("device_check on the GPU walks a hybrid model", "[gpu]") {
  REQUIRE_DEVICE();
  AssocRecallOptions narrow;
  narrow.window = 2;
  const Construction c = associative_recall(narrow);
  DeviceCheckOptions o;
  o.length = 7;
  o.device = CheckDevice::gpu;
  const DeviceCheckReport g = device_check(c, o);
  REQUIRE(g.method == kModelWalkMethod);
  REQUIRE(g.device == device().name);
  ModelWalkOptions mo;
  mo.length = 7;
  const DeviceCheckReport cpu = model_walk_check(*model_walk_subject(c), mo);
  REQUIRE(g.mismatches == cpu.mismatches);
  REQUIRE(g.mismatches > 0);
  REQUIRE(g.first_counterexample == cpu.first_counterexample);
}
