// inline_circuit: seeded random circuits of every gate kind inlined on fresh inputs evaluate
// identically (exact Rational evaluation; bit-parallel for boolean/threshold circuits);
// substituting constants folds (fewer gates, same values); dead gates are not re-emitted and
// remove_dead_gates sweeps those a fold leaves behind;
// inlining twice shares everything (the stats count what was created); malformed bindings are
// refused; compose_circuits (outer ∘ inner) evaluates as the two circuits one after the other.
#include <catch2/catch.hpp>

#include <array>
#include <random>

#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/passes/dead_gates.hpp"
#include "circuits/passes/inline.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

// A random circuit with every gate kind, built with raw() (no folding, no sharing, so the
// inliner sees each kind as written). An arithmetic part over `inputs` rational inputs (formal
// degree kept ≤ 6 so exact values stay small), then positive/is_zero tests turning arithmetic
// values into 0/1, then a boolean/threshold part over those 0/1 values only (the builder's
// boolean folding rules are exact on 0/1 operands). Outputs: the last few gates of each part.
Circuit random_mixed_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t arith,
                             std::size_t boolean) {
  CircuitBuilder b;
  std::vector<GateId> num;
  std::vector<unsigned> deg;
  for (std::size_t i = 0; i < inputs; ++i) {
    num.push_back(b.input("x" + std::to_string(i)));
    deg.push_back(1);
  }
  for (const Rational& q : {Rational(0), Rational(1), Rational(-3, 2), Rational(2)}) {
    num.push_back(b.constant(q));
    deg.push_back(0);
  }
  auto pick = [&](std::size_t k, unsigned max_deg, bool product) {
    std::vector<GateId> ops;
    unsigned total = 0;
    for (int tries = 0; ops.size() < k && tries < 100; ++tries) {
      const std::size_t i = rng() % num.size();
      const unsigned d = product ? total + deg[i] : std::max(total, deg[i]);
      if (d > max_deg) continue;
      ops.push_back(num[i]);
      total = d;
    }
    while (ops.size() < k) ops.push_back(num[inputs]);  // the constant 0 (degree 0)
    return std::pair{ops, total};
  };
  for (std::size_t g = 0; g < arith; ++g) {
    const unsigned kind = static_cast<unsigned>(rng() % 6);
    const bool product = kind == 3 || kind == 5;
    const std::size_t k = kind == 2 ? 1 : kind < 4 ? 2 : 3 + rng() % 3;
    auto [ops, d] = pick(k, 6, product);
    static constexpr GateKind kinds[] = {GateKind::add, GateKind::sub, GateKind::neg,
                                         GateKind::mul, GateKind::sum, GateKind::product};
    num.push_back(b.raw(kinds[kind], ops));
    deg.push_back(d);
  }
  std::vector<GateId> bits = {b.constant(Rational(0)), b.constant(Rational(1))};
  for (std::size_t i = 0; i < 2 * inputs; ++i) {
    const GateId a = num[rng() % num.size()];
    bits.push_back(b.raw(i % 2 ? GateKind::positive : GateKind::is_zero, std::span(&a, 1)));
  }
  for (std::size_t g = 0; g < boolean; ++g) {
    std::vector<GateId> ops;
    const std::size_t k = 2 + rng() % 4;
    for (std::size_t i = 0; i < k; ++i) ops.push_back(bits[rng() % bits.size()]);
    switch (rng() % 6) {
      case 0:
        bits.push_back(b.raw(GateKind::not_, std::span(ops).first(1)));
        break;
      case 1:
        bits.push_back(b.raw(GateKind::and_, ops));
        break;
      case 2:
        bits.push_back(b.raw(GateKind::or_, ops));
        break;
      case 3:
        bits.push_back(b.raw(GateKind::xor_, ops));
        break;
      case 4:
        bits.push_back(b.raw(GateKind::maj, ops));
        break;
      default: {
        std::vector<std::int32_t> w;
        for (std::size_t i = 0; i < ops.size(); ++i)
          w.push_back(static_cast<std::int32_t>(rng() % 9) - 4);
        bits.push_back(b.raw(GateKind::thr, ops, w, static_cast<std::int32_t>(rng() % 7) - 3));
      }
    }
  }
  std::vector<GateId> outs(num.end() - 6, num.end());
  outs.insert(outs.end(), bits.end() - 6, bits.end());
  return b.finish(outs);
}

std::vector<Rational> random_inputs(std::mt19937_64& rng, std::size_t k) {
  std::vector<Rational> x;
  for (std::size_t i = 0; i < k; ++i)  // zeros and signs often, so is_zero/positive vary
    x.push_back(rng() % 4 == 0 ? Rational(0) : test::small_rational(rng));
  return x;
}

// c inlined with input i bound to a fresh input i of a new circuit.
Circuit inline_on_fresh_inputs(const Circuit& c) {
  CircuitBuilder b;
  std::vector<GateId> in;
  for (std::size_t i = 0; i < c.inputs().size(); ++i) in.push_back(b.input());
  return b.finish(inline_circuit(b, c, in));
}

}  // namespace

TEST_CASE("inlining on fresh inputs evaluates identically (every gate kind, exact)",
          "[circuits][passes][inline]") {
  std::mt19937_64 rng(2024);
  std::array<std::size_t, kGateKindCount> seen{};
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t k = 2 + trial % 5;
    const Circuit c = random_mixed_circuit(rng, k, 30, 40);
    const CircuitStats st = compute_stats(c);
    for (std::size_t i = 0; i < kGateKindCount; ++i) seen[i] += st.by_kind[i];
    const Circuit d = inline_on_fresh_inputs(c);
    REQUIRE(d.inputs().size() == c.inputs().size());
    REQUIRE(d.outputs().size() == c.outputs().size());
    CHECK(d.size() <= c.size());  // sharing and folding only remove gates
    for (int round = 0; round < 20; ++round) {
      const auto x = random_inputs(rng, k);
      CHECK(evaluate(d, Q, std::span<const Rational>(x)) ==
            evaluate(c, Q, std::span<const Rational>(x)));
    }
  }
  for (std::size_t i = 0; i < kGateKindCount; ++i) {
    INFO("gate kind " << kGateKinds[i].name);
    CHECK(seen[i] > 0);
  }
}

TEST_CASE("inlining a boolean/threshold circuit agrees bit-parallel on every 0/1 input",
          "[circuits][passes][inline][bitparallel]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t k = 3 + trial % 4;
    // A random boolean circuit: inputs negated through not_ in the outer circuit, so inlining
    // binds inputs to gates, not only to inputs.
    CircuitBuilder cb;
    std::vector<GateId> pool;
    for (std::size_t i = 0; i < k; ++i) pool.push_back(cb.input());
    pool.push_back(cb.constant(Rational(1)));
    pool.push_back(cb.constant(Rational(0)));
    for (int g = 0; g < 60; ++g) {
      std::vector<GateId> ops;
      const std::size_t a = 2 + rng() % 3;
      for (std::size_t i = 0; i < a; ++i) ops.push_back(pool[rng() % pool.size()]);
      static constexpr GateKind kinds[] = {GateKind::and_, GateKind::or_, GateKind::xor_,
                                           GateKind::maj,  GateKind::thr, GateKind::not_};
      const GateKind kind = kinds[rng() % 6];
      if (kind == GateKind::thr) {
        std::vector<std::int32_t> w;
        for (std::size_t i = 0; i < a; ++i) w.push_back(static_cast<std::int32_t>(rng() % 7) - 3);
        pool.push_back(cb.raw(kind, ops, w, static_cast<std::int32_t>(rng() % 5) - 2));
      } else {
        pool.push_back(cb.raw(kind, kind == GateKind::not_ ? std::span(ops).first(1) : ops));
      }
    }
    const Circuit c = cb.finish({pool.end() - 5, pool.end()});
    REQUIRE(is_boolean(c));

    CircuitBuilder b;
    std::vector<GateId> in, negated;
    for (std::size_t i = 0; i < k; ++i) in.push_back(b.input());
    for (GateId g : in) negated.push_back(b.not_(g));
    const Circuit d = b.finish(inline_circuit(b, c, negated));
    REQUIRE(is_boolean(d));

    // Lane j of word i is bit i of j: all 2^k patterns in one word (k ≤ 6).
    std::vector<bits::Word> x(k), xn(k);
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t j = 0; j < (std::size_t{1} << k); ++j)
        if (j >> i & 1) x[i] |= bits::Word{1} << j;
      xn[i] = ~x[i];
    }
    const bits::Word lanes = k == 6 ? ~bits::Word{0} : (bits::Word{1} << (1u << k)) - 1;
    const auto want = evaluate_bits(c, xn);
    const auto got = evaluate_bits(d, x);
    REQUIRE(want.size() == got.size());
    for (std::size_t o = 0; o < want.size(); ++o) CHECK((want[o] & lanes) == (got[o] & lanes));
  }
}

TEST_CASE("substituting constants for inputs folds", "[circuits][passes][inline]") {
  SECTION("a hand example: (x + y)·z with z = 0 and with z = 1") {
    CircuitBuilder cb;
    const GateId x = cb.input("x"), y = cb.input("y"), z = cb.input("z");
    const Circuit c = cb.finish({cb.mul(cb.add(x, y), z), cb.positive(cb.sub(x, z))});

    CircuitBuilder b;
    const GateId nx = b.input(), ny = b.input(), zero = b.constant(Rational(0));
    const GateId in0[] = {nx, ny, zero};
    const auto out0 = inline_circuit(b, c, in0);
    CHECK(b.is_constant(out0[0]));
    CHECK(b.view().constant(out0[0]) == 0);
    CHECK(b.view().kind(out0[1]) == GateKind::positive);
    CHECK(b.view().operands(out0[1])[0] == nx);  // x − 0 = x
    CHECK(b.size() == 5);  // x, y, 0, positive(x) and x + y, which the fold left dead
    {
      CircuitBuilder copy = b;
      const Circuit swept = remove_dead_gates(copy.finish(out0));
      CHECK(swept.size() == 4);  // x, y, 0 and positive(x)
      CHECK(swept.inputs().size() == 2);
      const Rational xy[] = {Rational(3), Rational(-5)};
      CHECK(evaluate(swept, Q, std::span<const Rational>(xy)) ==
            std::vector<Rational>{Rational(0), Rational(1)});
    }

    const GateId one = b.constant(Rational(1));
    const GateId in1[] = {nx, ny, one};
    const auto out1 = inline_circuit(b, c, in1);
    CHECK(b.view().kind(out1[0]) == GateKind::add);  // (x + y)·1 = x + y
  }
  SECTION("random circuits: half the inputs constant") {
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 30; ++trial) {
      const std::size_t k = 4 + trial % 3;
      const Circuit c = random_mixed_circuit(rng, k, 30, 30);
      const auto fixed = random_inputs(rng, k);
      CircuitBuilder b;
      std::vector<GateId> in;
      std::vector<std::size_t> free;
      for (std::size_t i = 0; i < k; ++i)
        if (i % 2 == 0) {
          in.push_back(b.constant(fixed[i]));
        } else {
          in.push_back(b.input());
          free.push_back(i);
        }
      const Circuit d = remove_dead_gates(b.finish(inline_circuit(b, c, in)));
      REQUIRE(d.inputs().size() == free.size());
      std::size_t live = 0;
      for (bool l : live_table(c)) live += l;
      CHECK(d.size() < live);
      for (int round = 0; round < 10; ++round) {
        auto x = fixed;
        std::vector<Rational> y;
        for (std::size_t i : free) {
          x[i] = rng() % 4 == 0 ? Rational(0) : test::small_rational(rng);
          y.push_back(x[i]);
        }
        CHECK(evaluate(d, Q, std::span<const Rational>(y)) ==
              evaluate(c, Q, std::span<const Rational>(x)));
      }
    }
  }
  SECTION("every input constant: the outputs are constants of the right value") {
    std::mt19937_64 rng(6);
    const Circuit c = random_mixed_circuit(rng, 4, 25, 25);
    const auto x = random_inputs(rng, 4);
    CircuitBuilder b;
    std::vector<GateId> in;
    for (const Rational& q : x) in.push_back(b.constant(q));
    const auto out = inline_circuit(b, c, in);
    const auto want = evaluate(c, Q, std::span<const Rational>(x));
    for (std::size_t o = 0; o < 6; ++o) {  // the arithmetic outputs fold to constants outright
      REQUIRE(b.is_constant(out[o]));
      CHECK(b.view().constant(out[o]) == want[o]);
    }
    // Boolean gates fold as far as their constant operands allow (maj is kept as written), so
    // the rest is compared by value: the folded circuit has no inputs left.
    const Circuit d = b.finish(out);
    CHECK(d.inputs().empty());
    CHECK(evaluate(d, Q, std::span<const Rational>{}) == want);
  }
}

TEST_CASE("inlining re-emits only live gates and shares repeated inlinings",
          "[circuits][passes][inline]") {
  CircuitBuilder cb;
  const GateId x = cb.input(), y = cb.input();
  GateId dead = cb.mul(x, y);
  for (int i = 0; i < 50; ++i) dead = cb.add(dead, cb.mul(dead, x));  // a long unused chain
  const GateId used = cb.sub(x, y);
  const Circuit c = cb.finish({used});

  REQUIRE(c.size() == 2 + 101 + 1);  // x, y; x·y and 50 (mul, add) pairs; x − y

  CircuitBuilder b;
  const GateId in[] = {b.input(), b.input()};
  InlineStats st;
  const auto first = inline_circuit(b, c, in, &st);
  CHECK(b.size() == 3);  // two inputs and x − y
  CHECK(st.gates_in == 104);
  CHECK(st.dead == 101);
  CHECK(st.created == 1);
  const auto second = inline_circuit(b, c, in, &st);
  CHECK(first == second);
  CHECK(b.size() == 3);
  CHECK(st.created == 0);  // everything shared

  // A gate the builder already had is found, not duplicated.
  CircuitBuilder b2;
  const GateId u = b2.input(), v = b2.input();
  const GateId pre = b2.sub(u, v);
  const GateId uv[] = {u, v};
  CHECK(inline_circuit(b2, c, uv)[0] == pre);
}

TEST_CASE("inline_circuit refuses malformed bindings", "[circuits][passes][inline]") {
  CircuitBuilder cb;
  const GateId x = cb.input(), y = cb.input();
  const Circuit c = cb.finish({cb.add(x, y)});
  CircuitBuilder b;
  const GateId one[] = {b.input()};
  CHECK_THROWS_AS(inline_circuit(b, c, one), std::invalid_argument);
  const GateId bad[] = {one[0], 99};
  CHECK_THROWS_AS(inline_circuit(b, c, bad), std::invalid_argument);
}

TEST_CASE("compose_circuits: outer after inner, exact on random inputs",
          "[circuits][passes][inline]") {
  // inner(a, b) = (a + b, a·b); outer(u, v) = (u − v, [u > 0], u·u·v).
  CircuitBuilder ib;
  const GateId a = ib.input("a"), b = ib.input("b");
  const Circuit inner = ib.finish({ib.add(a, b), ib.mul(a, b)}, {"s", "p"});
  CircuitBuilder ob;
  const GateId u = ob.input("u"), v = ob.input("v");
  ob.mul(u, v);  // dead in outer: not re-emitted
  const GateId uuv[] = {u, u, v};
  const Circuit outer =
      ob.finish({ob.sub(u, v), ob.positive(u), ob.product(uuv)}, {"diff", "pos", "cube"});

  InlineStats st;
  const Circuit c = compose_circuits(outer, inner, &st);
  CHECK(c.input_names() == std::vector<std::string>{"a", "b"});
  CHECK(c.output_names() == std::vector<std::string>{"diff", "pos", "cube"});
  CHECK(st.gates_in == outer.size());
  CHECK(st.dead == 1);
  CHECK(st.created == 3);  // −, positive, product over the inner gates

  std::mt19937_64 rng(31);
  for (int round = 0; round < 50; ++round) {
    const auto x = random_inputs(rng, 2);
    const auto mid = evaluate(inner, Q, std::span<const Rational>(x));
    CHECK(evaluate(c, Q, std::span<const Rational>(x)) ==
          evaluate(outer, Q, std::span<const Rational>(mid)));
  }
  // Random circuits of every kind: composing with the identity changes no value.
  for (int trial = 0; trial < 10; ++trial) {
    const Circuit r = random_mixed_circuit(rng, 3, 20, 20);
    CircuitBuilder idb;
    std::vector<GateId> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(idb.input());
    const Circuit identity = idb.finish(ids);
    const Circuit d = compose_circuits(r, identity);
    for (int round = 0; round < 10; ++round) {
      const auto x = random_inputs(rng, 3);
      CHECK(evaluate(d, Q, std::span<const Rational>(x)) ==
            evaluate(r, Q, std::span<const Rational>(x)));
    }
  }
  CHECK_THROWS_AS(compose_circuits(inner, outer), std::invalid_argument);  // 2 inputs, 3 outputs
}
