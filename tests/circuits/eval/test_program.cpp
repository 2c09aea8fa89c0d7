// The device program (circuits/eval/program.hpp) run by its CPU twin against the plain
// evaluators: every gate kind, slot files small enough to force spills, comparisons, the
// magnitude shadow, Montgomery arithmetic. The CUDA kernels run the same program; tests/gpu/
// compares them with this twin.
#include <catch2/catch.hpp>
#include <random>

#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "algebra/modp_ops.hpp"
#include "algebra/mont31.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/eval/program.hpp"
#include "tests/circuits/eval/trial_patterns.hpp"
#include "tests/circuits/random_circuits.hpp"

using namespace rnncc;
using testing::random_arithmetic_circuit;
using testing::random_boolean_circuit;

TEST_CASE("Montgomery arithmetic mod 31-bit primes equals plain (a·b) mod p", "[program][mont31]") {
  std::mt19937_64 rng(5);
  for (std::uint32_t p : {3u, 2147483647u, 2147483629u, 1000003u}) {
    const auto f = mont31::make_field(p);
    REQUIRE(static_cast<std::uint32_t>(p * (0u - f.p_neg_inv)) == 1u);  // p·p⁻¹ ≡ 1 mod 2^32
    for (int i = 0; i < 2000; ++i) {
      const std::uint32_t a = rng() % p, b = rng() % p;
      const std::uint32_t ma = mont31::to_mont(a, f), mb = mont31::to_mont(b, f);
      REQUIRE(mont31::from_mont(ma, f) == a);
      REQUIRE(mont31::from_mont(mont31::mul(ma, mb, f), f) == modp::mul(a, b, p));
      REQUIRE(mont31::from_mont(mont31::add(ma, mb, f), f) == modp::add(a, b, p));
      REQUIRE(mont31::from_mont(mont31::sub(ma, mb, f), f) == modp::sub(a, b, p));
      REQUIRE(mont31::from_mont(mont31::neg(ma, f), f) == modp::neg(a, p));
    }
  }
}

TEST_CASE("boolean programs equal bit-parallel evaluation, with and without spills",
          "[program][boolean]") {
  std::mt19937_64 rng(41);
  for (int trial = 0; trial < 24; ++trial) {
    const Circuit c = random_boolean_circuit(rng, 4 + trial % 9, 150 + 20 * trial);
    for (std::uint32_t capacity : {3u, 5u, 16u, 4096u}) {
      ProgramOptions po;
      po.slot_capacity = capacity;
      const Program p = lower_program(c, po);
      REQUIRE(p.boolean);
      REQUIRE(p.slots <= capacity);
      if (capacity == 4096) REQUIRE(p.spill_slots == 0);
      if (capacity == 3 && p.peak_live > 3) REQUIRE(p.spill_stores + p.spill_slots > 0);
      RunOptions ro;
      // Exhaustive: every assignment up to 8 inputs (256 ≤ 64·5 − 7), else the first 313.
      ro.patterns =
          testing::boolean_trial_patterns(trial, c.inputs().size(), 64 * 5 - 7, 0, 64 * 5 - 7);
      ro.store = true;
      const ProgramResult r = run_program(p, ro);
      const std::uint64_t words = (ro.patterns.count + 63) / 64;
      REQUIRE(r.stored.size() == words * c.outputs().size());
      for (std::uint64_t w = 0; w < words; ++w) {
        std::vector<bits::Word> in(c.inputs().size());
        for (std::uint32_t i = 0; i < in.size(); ++i)
          in[i] = patterns::bool_word(ro.patterns, w, i);
        const auto expect = evaluate_bits(c, in);
        const std::uint64_t valid = ro.patterns.count - 64 * w;
        const bits::Word mask = valid >= 64 ? ~bits::Word{0} : (bits::Word{1} << valid) - 1;
        for (std::size_t o = 0; o < expect.size(); ++o)
          REQUIRE((r.stored[w * c.outputs().size() + o] & mask) == (expect[o] & mask));
      }
    }
  }
}

TEST_CASE("arithmetic programs equal evaluation mod p for every prime, with spills",
          "[program][arithmetic]") {
  std::mt19937_64 rng(42);
  const std::vector<std::uint32_t> primes = {2147483647u, 2147483629u, 2147483587u};
  for (int trial = 0; trial < 16; ++trial) {
    const Circuit c = random_arithmetic_circuit(rng, 2 * (2 + trial % 4), 120);
    for (std::uint32_t capacity : {3u, 7u, 1024u}) {
      ProgramOptions po;
      po.slot_capacity = capacity;
      const Program p = lower_program(c, po);
      REQUIRE_FALSE(p.boolean);
      RunOptions ro;
      ro.primes = primes;
      ro.store = true;
      const std::uint32_t L = static_cast<std::uint32_t>(c.inputs().size() / 2);
      ro.patterns = testing::arithmetic_trial_patterns(trial, L, 3, 20);
      const ProgramResult r = run_program(p, ro);
      REQUIRE(r.stored.size() == ro.patterns.count * primes.size() * c.outputs().size());
      std::size_t at = 0;
      for (std::uint64_t k = 0; k < ro.patterns.count; ++k)
        for (std::uint32_t q : primes) {
          const ModP F(q);
          std::vector<std::uint64_t> x;
          for (std::uint32_t i = 0; i < c.inputs().size(); ++i)
            x.push_back(patterns::int_value(ro.patterns, ro.patterns.first + k, i) % q);
          const auto y = evaluate(c, F, std::span<const std::uint64_t>(x));
          for (auto v : y) REQUIRE(r.stored[at++] == v);
        }
    }
  }
}

TEST_CASE("string patterns are one-hot and enumerate Σ^L in lexicographic order",
          "[program][patterns]") {
  patterns::Spec s{patterns::Mode::strings_exhaustive, 0, 3, 4, 0, 81};
  for (std::uint64_t k = 0; k < 81; ++k) {
    std::uint64_t rest = k;
    for (std::uint32_t t = 4; t-- > 0;) {  // w_L is the least significant digit
      REQUIRE(patterns::symbol(s, k, t) == rest % 3);
      std::uint32_t ones = 0;
      for (std::uint32_t sigma = 0; sigma < 3; ++sigma)
        ones += patterns::int_value(s, k, 3 * t + sigma);
      REQUIRE(ones == 1);
      rest /= 3;
    }
  }
}

TEST_CASE("comparisons count exactly the patterns where two outputs differ", "[program][compare]") {
  std::mt19937_64 rng(43);
  // Boolean: x₀ ∧ x₁ against x₀ ∨ x₁ differ on exactly the patterns with x₀ ≠ x₁.
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input(), x2 = b.input();
  const GateId g0 = b.and_(std::vector{x0, x1}), g1 = b.or_(std::vector{x0, x1});
  const GateId g2 = b.not_(b.not_(b.xor_(std::vector{x0, x2})));
  const Circuit c = b.finish({g0, g1, g2, b.xor_(std::vector{x2, x0})});
  ProgramOptions po;
  po.compare_pairs = {{0, 1}, {2, 3}};
  const Program p = lower_program(c, po);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_exhaustive, 0, 2, 0, 0, 8};
  const ProgramResult r = run_program(p, ro);
  REQUIRE(r.mismatches == std::vector<std::uint64_t>{4, 0});
  REQUIRE(r.first_mismatches == std::vector<std::uint64_t>{1, 2, 5, 6});
  REQUIRE(r.ones == std::vector<std::uint64_t>{2, 6, 4, 4});

  // Arithmetic: (x+1)² against x² + 2x + 1 agree; against x² + 1 they differ where x ≠ 0.
  for (int trial = 0; trial < 3; ++trial) {
    CircuitBuilder a;
    const GateId x = a.input(), y = a.input();
    const GateId one = a.constant(Rational(1));
    const GateId s = a.add(x, one), lhs = a.mul(s, s);
    const GateId xx = a.mul(x, x);
    const GateId rhs = a.add(a.add(xx, a.add(x, x)), one), bad = a.add(xx, one);
    const Circuit ac = a.finish({lhs, rhs, bad, y});
    ProgramOptions apo;
    apo.compare_pairs = {{0, 1}, {0, 2}};
    apo.slot_capacity = 3 + trial;
    const Program ap = lower_program(ac, apo);
    RunOptions aro;
    aro.primes = {2147483647u, 2147483629u};
    aro.magnitude = true;
    aro.patterns = {patterns::Mode::strings_exhaustive, 0, 2, 1, 0, 2};  // (x, y) = one-hot
    const ProgramResult ar = run_program(ap, aro);
    REQUIRE(ar.mismatches == std::vector<std::uint64_t>{0, 1});
    REQUIRE(ar.first_mismatches == std::vector<std::uint64_t>{0});  // x = 1
    // Float shadow: lhs = rhs exactly (small integers, no rounding), so the bound is ~0; the
    // second pair differs by exactly 2 at x = 1.
    REQUIRE(ar.max_difference_bound[0] >= 0.0);
    REQUIRE(ar.max_difference_bound[0] < 1e-12);
    REQUIRE(ar.max_difference_bound[1] >= 2.0);
    REQUIRE(ar.max_difference_bound[1] < 2.0 + 1e-9);
  }
  (void)rng;
}

TEST_CASE("the float shadow bounds every exact difference", "[program][shadow]") {
  std::mt19937_64 rng(44);
  RationalField Q;
  for (int trial = 0; trial < 10; ++trial) {
    const Circuit c = random_arithmetic_circuit(rng, 6, 60, 2, false);
    ProgramOptions po;
    po.compare_pairs = {{0, 1}};
    po.slot_capacity = 4;
    const Program p = lower_program(c, po);
    for (std::uint64_t k = 0; k < 8; ++k) {
      RunOptions ro;
      ro.primes = {2147483647u};
      ro.magnitude = true;
      ro.patterns = {patterns::Mode::strings_exhaustive, 0, 2, 3, k, 1};
      const ProgramResult r = run_program(p, ro);
      std::vector<Rational> x;
      for (std::uint32_t i = 0; i < 6; ++i)
        x.push_back(Rational(static_cast<int>(patterns::int_value(ro.patterns, k, i))));
      const auto y = evaluate(c, Q, std::span<const Rational>(x));
      const Rational diff = abs(y[0] - y[1]);
      REQUIRE(Rational(r.max_difference_bound[0]) >= diff);
    }
  }
}

TEST_CASE("lowering rejects what a program cannot evaluate", "[program][errors]") {
  CircuitBuilder b;
  const GateId x = b.input();
  const Circuit c = b.finish({b.positive(x)});
  REQUIRE_THROWS_WITH(lower_program(c, {}), Catch::Contains("positive"));
  ProgramOptions tiny;
  tiny.slot_capacity = 2;
  CircuitBuilder b2;
  const GateId y = b2.input();
  REQUIRE_THROWS_WITH(lower_program(b2.finish({b2.not_(y)}), tiny), Catch::Contains("capacity"));
  ProgramOptions bad;
  bad.compare_pairs = {{0, 5}};
  CircuitBuilder b3;
  const GateId z = b3.input();
  REQUIRE_THROWS_WITH(lower_program(b3.finish({b3.not_(z)}), bad), Catch::Contains("pair"));
  // An arithmetic program without primes.
  CircuitBuilder b4;
  const GateId u = b4.input();
  const Program ap = lower_program(b4.finish({b4.mul(u, u)}), {});
  RunOptions ro;
  ro.patterns.count = 1;
  REQUIRE_THROWS_WITH(run_program(ap, ro), Catch::Contains("prime"));
}

TEST_CASE("montgomery_constant: num · den⁻¹ in Montgomery form, an unlucky prime is refused",
          "[circuits][program]") {
  const mont31::Field f7 = mont31::make_field(7);
  CHECK(mont31::from_mont(montgomery_constant(Rational(3, 4), f7), f7) == 6);  // 3·2 ≡ 6 (mod 7)
  CHECK(mont31::from_mont(montgomery_constant(Rational(-1, 3), f7), f7) == 2);  // −5 ≡ 2 (mod 7)
  CHECK(montgomery_constant(Rational(0), f7) == 0);
  const mont31::Field fp = mont31::make_field(2147483647);
  CHECK(mont31::from_mont(montgomery_constant(Rational(5), fp), fp) == 5);
  CHECK_THROWS_AS(montgomery_constant(Rational(1, 14), f7), std::invalid_argument);
}
