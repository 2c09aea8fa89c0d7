// The wide CPU evaluator (circuits/eval/wide.hpp) against its plain twin run_program, bit for
// bit: the digest (ones, mismatches, first mismatches) and every stored output word, on seeded
// random boolean circuits (and/or/xor/not, maj and thr gates, constants), edge cases (no inputs,
// one output, outputs that are inputs or constants), an EPFL AIG, pattern counts that are not a
// multiple of the block, several thread counts, block sizes, and every instruction set this CPU
// runs (forced through WideOptions::isa).
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "circuits/eval/bulk.hpp"
#include "circuits/eval/program.hpp"
#include "circuits/eval/wide.hpp"
#include "circuits/io/aiger.hpp"
#include "tests/circuits/netlist_testing.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using testing::epfl_dir;
using testing::random_arithmetic_circuit;
using testing::random_boolean_circuit;

namespace {

std::vector<WideIsa> isas() {
  std::vector<WideIsa> v;
  for (WideIsa i : {WideIsa::generic, WideIsa::avx2, WideIsa::avx512})
    if (wide_isa_supported(i)) v.push_back(i);
  return v;
}

void require_same(const ProgramResult& want, const ProgramResult& got) {
  REQUIRE(got.patterns == want.patterns);
  REQUIRE(got.ones == want.ones);
  REQUIRE(got.mismatches == want.mismatches);
  REQUIRE(got.first_mismatch == want.first_mismatch);
  REQUIRE(got.first_mismatches == want.first_mismatches);
  REQUIRE(got.stored == want.stored);
  REQUIRE(got.sums == want.sums);
  REQUIRE(got.max_difference_bound == want.max_difference_bound);
}

// Both evaluators on p with the given patterns; every ISA, block and thread count given.
void check_program(const Program& p, const RunOptions& ro, std::vector<std::uint32_t> blocks,
                   std::vector<unsigned> threads) {
  const ProgramResult want = run_program(p, ro);
  for (WideIsa isa : isas())
    for (std::uint32_t b : blocks)
      for (unsigned t : threads) {
        INFO("isa " << to_string(isa) << " block " << b << " threads " << t);
        WideOptions wo;
        wo.isa = isa;
        wo.block_words = b;
        wo.threads = t;
        require_same(want, run_program_wide(p, ro, wo));
      }
}

RunOptions patterns_of(patterns::Mode mode, std::uint64_t seed, std::uint64_t count,
                       std::uint64_t first = 0) {
  RunOptions ro;
  ro.patterns = {mode, seed, 2, 0, first, count};
  ro.store = true;
  return ro;
}

}  // namespace

TEST_CASE("the CPU reports what it runs, the generic kernel always", "[wide]") {
  REQUIRE(wide_isa_supported(WideIsa::generic));
  REQUIRE(wide_isa_supported(best_wide_isa()));
  REQUIRE(l2_cache_bytes() >= (64u << 10));
  const std::uint32_t cap = wide_program_options(64).slot_capacity;
  REQUIRE(std::size_t{cap + 2} * 64 * 8 <= l2_cache_bytes());
}

TEST_CASE("wide equals run_program on random boolean circuits with thr and maj gates", "[wide]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 12; ++trial) {
    const Circuit c = random_boolean_circuit(rng, 3 + trial % 10, 100 + 37 * trial);
    ProgramOptions po;
    po.slot_capacity = trial % 3 == 0 ? 5 : 4096;  // spills too
    const Program p = lower_program(c, po);
    REQUIRE(p.boolean);
    // 64·B·blocks − 13 patterns: the last block partial, its last word too.
    const RunOptions ro =
        patterns_of(trial % 2 ? patterns::Mode::bits_random : patterns::Mode::bits_exhaustive,
                    static_cast<std::uint64_t>(trial), 64 * 8 * 5 - 13);
    check_program(p, ro, {8, 16}, {1, 3});
  }
}

TEST_CASE("wide comparisons: mismatch counts and the smallest mismatching patterns", "[wide]") {
  std::mt19937_64 rng(78);
  for (int trial = 0; trial < 6; ++trial) {
    const Circuit c = random_boolean_circuit(rng, 8, 200, 6);
    ProgramOptions po;
    po.compare_pairs = {{0, 1}, {2, 3}, {4, 4}, {5, 0}};
    const Program p = lower_program(c, po);
    RunOptions ro = patterns_of(patterns::Mode::bits_random, 100 + trial, 64 * 64 * 3 + 17, 128);
    ro.max_first_mismatches = trial % 2 ? 3 : 40;
    const ProgramResult want = run_program(p, ro);
    REQUIRE(want.mismatches.size() == 4);
    REQUIRE(want.mismatches[2] == 0);
    check_program(p, ro, {8, 64}, {1, 4});
  }
}

TEST_CASE("wide edge cases: no inputs, one output, outputs that are inputs or constants",
          "[wide]") {
  SECTION("no inputs") {
    CircuitBuilder b;
    const GateId one = b.constant(Rational(1)), zero = b.constant(Rational(0));
    const GateId x = b.raw(GateKind::xor_, std::vector<GateId>{one, zero});
    const GateId n = b.not_(x);
    const Circuit c = b.finish({x, n, one, zero});
    const Program p = lower_program(c, {});
    const RunOptions ro = patterns_of(patterns::Mode::bits_random, 3, 1000);
    check_program(p, ro, {8, 256}, {1, 2});
    const ProgramResult r = run_program_wide(p, ro);
    REQUIRE(r.ones == std::vector<std::uint64_t>{1000, 0, 1000, 0});  // hand-checked
  }
  SECTION("one output; outputs that are inputs") {
    // maj(x, y, z) alone; and (x, x ∧ y, ¬z, x): an input twice among the outputs.
    auto make = [](bool one) {
      CircuitBuilder b;
      const GateId x = b.input(), y = b.input(), z = b.input();
      if (one) return b.finish({b.raw(GateKind::maj, std::vector<GateId>{x, y, z})});
      const GateId a = b.raw(GateKind::and_, std::vector<GateId>{x, y});
      return b.finish({x, a, b.not_(z), x});
    };
    for (bool one : {true, false}) {
      const Program p = lower_program(make(one), {});
      check_program(p, patterns_of(patterns::Mode::bits_exhaustive, 0, 8), {8, 32}, {1, 2});
      check_program(p, patterns_of(patterns::Mode::bits_random, 9, 64 * 700 + 1), {8, 32}, {1, 2});
    }
    // Exhaustive over 3 inputs (hand-checked): maj is 1 on 4 of the 8 assignments; x on 4,
    // x ∧ y on 2, ¬z on 4.
    REQUIRE(run_program_wide(lower_program(make(true), {}),
                             patterns_of(patterns::Mode::bits_exhaustive, 0, 8))
                .ones == std::vector<std::uint64_t>{4});
    REQUIRE(run_program_wide(lower_program(make(false), {}),
                             patterns_of(patterns::Mode::bits_exhaustive, 0, 8))
                .ones == std::vector<std::uint64_t>{4, 2, 4, 4});
  }
  SECTION("a single pattern, many threads") {
    std::mt19937_64 rng(5);
    const Program p = lower_program(random_boolean_circuit(rng, 5, 50), {});
    check_program(p, patterns_of(patterns::Mode::bits_random, 1, 1), {8}, {1, 8});
  }
}

TEST_CASE("wide equals run_program on an EPFL AIG, with its own lowering", "[wide][epfl]") {
  const std::filesystem::path aig = epfl_dir() / "ctrl.aig";
  const Circuit c = load_aiger(aig.string());
  const Program p = lower_program(c, wide_program_options(32));
  const RunOptions ro = patterns_of(patterns::Mode::bits_random, 11, 64 * 32 * 7 + 33);
  check_program(p, ro, {32, choose_block_words(p, ro.patterns.count, 2)}, {1, 2, 5});
}

TEST_CASE("the wide evaluator refuses what it cannot run", "[wide]") {
  std::mt19937_64 rng(6);
  const Program p = lower_program(random_boolean_circuit(rng, 4, 20), {});
  RunOptions ro = patterns_of(patterns::Mode::bits_random, 1, 100);
  WideOptions wo;
  wo.block_words = 12;
  REQUIRE_THROWS_AS(run_program_wide(p, ro, wo), std::invalid_argument);
  REQUIRE_THROWS_AS(wide_program_options(7), std::invalid_argument);
  ProgramOptions po;
  po.arithmetic = true;  // no primes given
  REQUIRE_THROWS_AS(run_program_wide(lower_program(random_boolean_circuit(rng, 4, 20), po), ro),
                    std::invalid_argument);
  for (WideIsa isa : {WideIsa::avx2, WideIsa::avx512})
    if (!wide_isa_supported(isa)) {
      WideOptions w;
      w.isa = isa;
      REQUIRE_THROWS_AS(run_program_wide(p, ro, w), std::invalid_argument);
    }
}

TEST_CASE("rnncc eval's CPU path (evaluate_bulk) equals the plain twin", "[wide][bulk]") {
  std::mt19937_64 rng(79);
  for (int trial = 0; trial < 6; ++trial) {
    const Circuit c = random_boolean_circuit(rng, 4 + trial, 150);
    BulkOptions o;
    o.exhaustive = trial % 2;
    o.batch = 1000 + 77 * trial;
    o.seed = static_cast<std::uint64_t>(trial);
    o.threads = 1 + trial % 3;
    const BulkResult fast = evaluate_bulk(c, o), plain = evaluate_bulk_plain(c, o);
    REQUIRE(fast.per_output == plain.per_output);
    REQUIRE(fast.fingerprint == plain.fingerprint);
  }
}

TEST_CASE("wide arithmetic mode equals run_program mod several primes", "[wide][arithmetic]") {
  std::mt19937_64 rng(80);
  const std::vector<std::uint32_t> primes = {2147483647u, 2147483629u, 1000003u};
  for (int trial = 0; trial < 8; ++trial) {
    const Circuit c = random_arithmetic_circuit(rng, 2 * (2 + trial % 4), 120);
    ProgramOptions po;
    po.slot_capacity = trial % 2 ? 5 : 1024;
    po.compare_pairs = {{0, c.outputs().size() - 1}, {0, 0}};
    const Program p = lower_program(c, po);
    REQUIRE_FALSE(p.boolean);
    const std::uint32_t L = static_cast<std::uint32_t>(c.inputs().size() / 2);
    RunOptions ro;
    ro.primes = std::vector<std::uint32_t>(primes.begin(), primes.begin() + 1 + trial % 3);
    ro.store = true;
    ro.max_first_mismatches = 5;
    ro.patterns = {trial % 3 == 0   ? patterns::Mode::bits_random
                   : trial % 3 == 1 ? patterns::Mode::strings_exhaustive
                                    : patterns::Mode::strings_random,
                   static_cast<std::uint64_t>(trial),
                   2,
                   L,
                   3,
                   std::min<std::uint64_t>(16 * 3 + 5, std::uint64_t{1} << L)};
    check_program(p, ro, {8, 16}, {1, 3});
  }
  SECTION("the float shadow runs on the twin") {
    const Circuit c = random_arithmetic_circuit(rng, 4, 50);
    ProgramOptions po;
    po.compare_pairs = {{0, 0}};
    const Program p = lower_program(c, po);
    RunOptions ro;
    ro.primes = primes;
    ro.magnitude = true;
    ro.patterns.count = 40;
    require_same(run_program(p, ro), run_program_wide(p, ro));
  }
}
