// Bulk evaluation (rnncc eval): the multi-threaded bit-parallel / batched path against its
// plain twin, pattern by pattern through the generic evaluator.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/bulk.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/patterns.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"
#include "tests/thread_ranks.hpp"

using namespace rnncc;

namespace {
Circuit random_boolean(std::mt19937_64& rng, std::size_t inputs) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (std::size_t i = 0; i < inputs; ++i) pool.push_back(b.input());
  for (int g = 0; g < 80; ++g) {
    std::vector<GateId> ops;
    for (std::size_t k = 0, n = 1 + rng() % 4; k < n; ++k) ops.push_back(pool[rng() % pool.size()]);
    if (ops.size() == 1) {
      pool.push_back(b.not_(ops[0]));
      continue;
    }
    const std::int32_t w[] = {3, -2, 1, 2};
    switch (rng() % 4) {
      case 0:
        pool.push_back(b.raw(GateKind::and_, ops));
        break;
      case 1:
        pool.push_back(b.raw(GateKind::xor_, ops));
        break;
      case 2:
        pool.push_back(b.raw(GateKind::maj, ops));
        break;
      default:
        pool.push_back(b.raw(GateKind::thr, ops, std::span(w).first(ops.size()), 1));
    }
  }
  return b.finish(std::vector<GateId>(pool.end() - 6, pool.end()));
}
}  // namespace

TEST_CASE("bulk boolean evaluation equals the plain twin, exhaustive and random",
          "[circuits][bulk]") {
  std::mt19937_64 rng(12);
  for (std::size_t inputs : {1u, 3u, 6u, 7u, 10u}) {
    Circuit c = random_boolean(rng, inputs);
    for (bool exhaustive : {true, false}) {
      BulkOptions o;
      o.exhaustive = exhaustive;
      o.batch = 1000;  // not a multiple of 64: the last word is masked
      o.threads = 3;
      BulkResult fast = evaluate_bulk(c, o), plain = evaluate_bulk_plain(c, o);
      REQUIRE(fast.boolean);
      CHECK(fast.patterns == (exhaustive ? std::uint64_t{1} << inputs : 1000));
      CHECK(fast.per_output == plain.per_output);
      CHECK(fast.fingerprint == plain.fingerprint);
    }
  }
}

TEST_CASE("bulk arithmetic evaluation over F_p equals the plain twin", "[circuits][bulk]") {
  Model m = load_model(test::example("dplr_d3.json"));
  CompileOptions co;
  co.acceptance = false;
  co.outputs = OutputMode::all;
  Circuit c = compile_lrnn(m, 6, co).circuit;
  BulkOptions o;
  o.batch = 300;
  BulkResult fast = evaluate_bulk(c, o), plain = evaluate_bulk_plain(c, o);
  CHECK_FALSE(fast.boolean);
  CHECK(fast.per_output == plain.per_output);
  o.exhaustive = true;  // every 0/1 assignment of the 12 indicators
  CHECK(evaluate_bulk(c, o).per_output == evaluate_bulk_plain(c, o).per_output);
  o.max_exhaustive_inputs = 8;
  CHECK_THROWS_WITH(evaluate_bulk(c, o), Catch::Contains("2^12 assignments"));
}

TEST_CASE("bulk evaluation asked for the GPU without one runs on the CPU with a notice",
          "[circuits][bulk]") {
  if (gpu::probe().available) return;  // tests/gpu/ compares the two devices
  CircuitBuilder b;
  const GateId x = b.input(), y = b.input();
  const Circuit c = b.finish({b.and_(std::vector{x, y})});
  BulkOptions o;
  o.exhaustive = true;
  o.device = BulkDevice::gpu;
  const BulkResult g = evaluate_bulk(c, o);
  REQUIRE_THAT(g.notice, Catch::Contains("evaluated on the CPU"));
  REQUIRE(g.device.rfind("cpu", 0) == 0);
  o.device = BulkDevice::cpu;
  const BulkResult cpu = evaluate_bulk(c, o);
  REQUIRE(cpu.notice.empty());
  REQUIRE(g.per_output == std::vector<std::uint64_t>{1});
  REQUIRE(g.fingerprint == cpu.fingerprint);
}

TEST_CASE("exact outputs: multi-modular evaluation and CRT reconstruction equal evaluation over Q",
          "[circuits][bulk][exact]") {
  std::mt19937_64 rng(77);
  RationalField Q;
  for (int trial = 0; trial < 8; ++trial) {
    // Arithmetic gates only: a truth-valued gate mod p can disagree with Q when p divides the
    // value it tests (docs/formats.md, `rnncc eval --outputs`).
    const Circuit c = testing::random_arithmetic_circuit(rng, 6, 25, 3, false);
    BulkOptions o;
    o.exhaustive = trial % 2 == 0;
    o.batch = 50;
    o.seed = static_cast<std::uint64_t>(trial);
    const ExactOutputs x = evaluate_exact(c, o);
    REQUIRE_FALSE(x.primes.empty());
    const patterns::Spec spec{
        o.exhaustive ? patterns::Mode::bits_exhaustive : patterns::Mode::bits_random,
        o.seed,
        2,
        0,
        0,
        x.values.size()};
    for (std::uint64_t k = 0; k < x.values.size(); ++k) {
      std::vector<Rational> in;
      for (std::uint32_t i = 0; i < c.inputs().size(); ++i)
        in.push_back(Rational(Integer(patterns::int_value(spec, k, i))));
      const auto y = evaluate(c, Q, std::span<const Rational>(in));
      for (std::size_t j = 0; j < y.size(); ++j) REQUIRE(x.values[k][j] == y[j]);
    }
  }
}

TEST_CASE("an unlucky digest prime is replaced, not ignored", "[circuits][bulk][exact]") {
  CircuitBuilder b;
  const GateId x = b.input();
  // 1/(2^31 − 1) has no value mod 2^31 − 1.
  const Circuit c = b.finish({b.mul(x, b.constant(Rational(1, 2147483647)))});
  BulkOptions o;
  o.exhaustive = true;
  const BulkResult r = evaluate_bulk(c, o);
  REQUIRE(r.modulus != 0);
  REQUIRE(r.modulus != kBulkPrime);
  REQUIRE(r.fingerprint == evaluate_bulk_plain(c, o).fingerprint);
  const ExactOutputs e = evaluate_exact(c, o);
  REQUIRE(std::find(e.primes.begin(), e.primes.end(), 2147483647u) == e.primes.end());
  REQUIRE(e.values.at(1).at(0) == Rational(1, 2147483647));
}

TEST_CASE("printing every output is refused for too many patterns", "[circuits][bulk][errors]") {
  CircuitBuilder b;
  const GateId x = b.input();
  const Circuit c = b.finish({b.mul(x, x)});
  BulkOptions o;
  o.batch = 200;
  REQUIRE_THROWS_AS(evaluate_exact(c, o, 100), InputError);
}

TEST_CASE("bulk evaluation of slices and over ranks adds up to the whole run",
          "[circuits][bulk][sharded]") {
  std::mt19937_64 rng(31);
  Model m = load_model(test::example("dplr_d3.json"));
  CompileOptions co;
  co.acceptance = false;
  co.outputs = OutputMode::all;
  const Circuit arith = compile_lrnn(m, 4, co).circuit;
  std::vector<Circuit> circuits{random_boolean(rng, 5), random_boolean(rng, 11), arith};
  for (const Circuit& c : circuits) {
    for (bool exhaustive : {true, false}) {
      BulkOptions o;
      o.exhaustive = exhaustive;
      o.batch = 5000;  // not a multiple of 64
      o.seed = 9;
      o.threads = 2;
      const BulkResult whole = evaluate_bulk(c, o);
      // Slices of the plain twin and of the fast path, summed by hand.
      std::vector<std::uint64_t> sum(c.outputs().size(), 0);
      std::uint64_t patterns = 0;
      for (std::uint64_t first = 0; first < whole.patterns; first += 1024) {
        BulkOptions slice = o;
        slice.first = first;
        slice.count = 1024;
        const BulkResult part = evaluate_bulk(c, slice);
        CHECK(part.per_output == evaluate_bulk_plain(c, slice).per_output);
        patterns += part.patterns;
        for (std::size_t k = 0; k < sum.size(); ++k)
          sum[k] = whole.boolean ? sum[k] + part.per_output[k]
                                 : (sum[k] + part.per_output[k]) % whole.modulus;
      }
      CHECK(patterns == whole.patterns);
      CHECK(sum == whole.per_output);
      // Sharded over 1..3 ranks in blocks of 640 patterns: the same digests and fingerprint.
      o.block_patterns = 640;
      for (int R = 1; R <= 3; ++R) {
        const auto results = test::on_ranks<BulkResult>(R, [&](Ranks& ranks) {
          return evaluate_bulk_sharded(c, o, ranks, std::nullopt, "test");
        });
        for (const BulkResult& r : results) {
          INFO("R = " << R << ", exhaustive " << exhaustive);
          CHECK(r.patterns == whole.patterns);
          CHECK(r.per_output == whole.per_output);
          CHECK(r.fingerprint == whole.fingerprint);
          CHECK_THAT(r.device, Catch::StartsWith(R == 1 ? "1 MPI rank" : std::to_string(R)));
        }
      }
    }
  }
  BulkOptions bad;
  bad.first = 10;
  CHECK_THROWS_AS(evaluate_bulk(circuits[0], bad), std::invalid_argument);
}
