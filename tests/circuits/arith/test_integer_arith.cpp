// Integer / fixed-point arithmetic as fan-in-2 boolean circuits (circuits/arith/integer_arith):
// every adder, multiplier, comparator and fixed-point piece against Integer arithmetic and
// algebra's FixedPoint — exhaustively on all operand tuples of small widths, on seeded random
// operands at widths 16–64 — measured depth ≤ stated depth, and ABC's `cec` proving ripple ≡
// prefix adders and array ≡ Dadda multipliers (and catching a wrong circuit).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/analysis.hpp"
#include "circuits/arith/integer_arith.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "tests/circuits/abc_testing.hpp"

using namespace rnncc;
using rnncc::testing::abc;
using rnncc::testing::TempDir;

namespace {

using Case = std::vector<Integer>;  // one value per input word

Integer wrap_signed(const Integer& v, std::size_t w) {  // v mod 2^w read as two's complement
  const Integer m = Integer(1) << w;
  Integer r = v % m;
  if (r < 0) r += m;
  if (r >= (m >> 1)) r -= m;
  return r;
}
Integer wrap_unsigned(const Integer& v, std::size_t w) {
  const Integer m = Integer(1) << w;
  Integer r = v % m;
  if (r < 0) r += m;
  return r;
}

// A circuit over input words of the given widths with output words (and single bits).
struct Harness {
  CircuitBuilder b;
  std::vector<Word> in;
  std::vector<std::size_t> out_widths;
  std::vector<GateId> outs;
  explicit Harness(std::vector<std::size_t> widths) {
    for (std::size_t i = 0; i < widths.size(); ++i)
      in.push_back(input_word(b, "w" + std::to_string(i), widths[i]));
  }
  void output(const Word& w) {
    out_widths.push_back(w.width());
    outs.insert(outs.end(), w.bits.begin(), w.bits.end());
  }
  void output(GateId g) { output(Word{{g}}); }
  Circuit finish() { return b.finish(outs); }
};

// Evaluates on every case; result[k][o] = output word o of case k (unsigned value).
std::vector<std::vector<Integer>> run(const Harness& h, const Circuit& c,
                                      const std::vector<Case>& cases) {
  const std::size_t inputs = c.inputs().size(), words = (cases.size() + 63) / 64;
  std::vector<bits::Word> patterns(words * inputs, 0);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::size_t pos = 0;
    for (std::size_t i = 0; i < h.in.size(); ++i) {
      const Integer v = wrap_unsigned(cases[k][i], h.in[i].width());
      for (std::size_t bit = 0; bit < h.in[i].width(); ++bit, ++pos)
        if (boost::multiprecision::bit_test(v, static_cast<unsigned>(bit)))
          patterns[(k / 64) * inputs + pos] |= bits::Word{1} << (k % 64);
    }
  }
  const auto result = evaluate_bits_batch(c, patterns, 1);
  const std::size_t outputs = c.outputs().size();
  std::vector<std::vector<Integer>> values(cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::size_t pos = 0;
    for (std::size_t w : h.out_widths) {
      Integer v = 0;
      for (std::size_t bit = 0; bit < w; ++bit, ++pos)
        if ((result[(k / 64) * outputs + pos] >> (k % 64)) & 1) v += Integer(1) << bit;
      values[k].push_back(v);
    }
  }
  return values;
}

// All tuples of signed values for the widths (small widths only).
std::vector<Case> all_cases(const std::vector<std::size_t>& widths) {
  std::vector<Case> cases{{}};
  for (std::size_t w : widths) {
    std::vector<Case> next;
    for (const Case& c : cases)
      for (long v = -(1L << (w - 1)); v < (1L << (w - 1)); ++v) {
        Case e = c;
        e.push_back(Integer(v));
        next.push_back(e);
      }
    cases = next;
  }
  return cases;
}

Integer random_signed(std::mt19937_64& rng, std::size_t w) {
  Integer v = 0;
  for (std::size_t i = 0; i < w; i += 64) v = (v << 64) + Integer(rng());
  return wrap_signed(v, w);
}
std::vector<Case> random_cases(std::mt19937_64& rng, const std::vector<std::size_t>& widths,
                               std::size_t count) {
  std::vector<Case> cases;
  for (std::size_t k = 0; k < count; ++k) {
    Case c;
    for (std::size_t w : widths) c.push_back(random_signed(rng, w));
    cases.push_back(c);
  }
  return cases;
}

std::uint32_t depth_of(const Circuit& c) {
  const auto depth = depth_table(c, FaninModel::bounded);
  std::uint32_t d = 0;
  for (GateId o : c.outputs()) d = std::max(d, depth[o]);
  return d;
}

bool fan_in_two(const Circuit& c) {
  for (GateId g = 0; g < c.size(); ++g) {
    const GateKind k = c.kind(g);
    if (k == GateKind::input || k == GateKind::constant) continue;
    if (k != GateKind::and_ && k != GateKind::or_ && k != GateKind::xor_ && k != GateKind::not_)
      return false;
    if (c.operands(g).size() > 2) return false;
  }
  return true;
}

const AdderSpec kTrees[] = {{ScanKind::sequential, 1},
                            {ScanKind::sklansky, 1},
                            {ScanKind::kogge_stone, 1},
                            {ScanKind::brent_kung, 1},
                            {ScanKind::ladner_fischer, 1}};

}  // namespace

TEST_CASE("constant words and resizing", "[circuits][arith]") {
  Harness h({4});
  h.output(constant_word(h.b, Integer(-3), 5));  // 11101
  h.output(resize(h.in[0], 6));                  // sign extension
  h.output(resize(h.in[0], 2));                  // truncation
  h.output(resize_unsigned(h.b, h.in[0], 6));
  h.output(bitwise_not(h.b, h.in[0]));
  h.output(negate(h.b, h.in[0]));
  const Circuit c = h.finish();
  const auto cases = all_cases({4});
  const auto got = run(h, c, cases);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Integer a = cases[k][0];
    CHECK(got[k][0] == 29);
    CHECK(got[k][1] == wrap_unsigned(a, 6));
    CHECK(got[k][2] == wrap_unsigned(a, 2));
    CHECK(got[k][3] == wrap_unsigned(a, 4));
    CHECK(got[k][4] == wrap_unsigned(-a - 1, 4));
    CHECK(got[k][5] == wrap_unsigned(-a, 4));
  }
}

TEST_CASE("adders: ripple and every prefix carry tree, exhaustive and random",
          "[circuits][arith][adder]") {
  auto check = [](std::size_t w, const std::vector<Case>& cases) {
    for (int tree = -1; tree < 5; ++tree) {
      INFO("w = " << w << ", tree " << tree);
      Harness h({w, w, 1});
      const GateId cin = h.in[2][0];
      const SumResult s = tree < 0 ? add_ripple(h.b, h.in[0], h.in[1], cin)
                                   : add_prefix(h.b, h.in[0], h.in[1], kTrees[tree], cin);
      h.output(s.sum);
      h.output(s.carry_out);
      const SumResult d = subtract(h.b, h.in[0], h.in[1], tree < 0 ? AdderSpec{} : kTrees[tree]);
      h.output(d.sum);
      const Circuit c = h.finish();
      CHECK(fan_in_two(c));
      const std::size_t stated =
          tree < 0 ? ripple_adder_depth(w) : prefix_adder_depth(w, true, kTrees[tree]);
      CHECK(depth_of(c) <= std::max(stated, prefix_adder_depth(w, true, AdderSpec{})) + 1);
      const auto got = run(h, c, cases);
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const Integer ua = wrap_unsigned(cases[k][0], w), ub = wrap_unsigned(cases[k][1], w),
                      ci = wrap_unsigned(cases[k][2], 1);
        REQUIRE(got[k][0] == wrap_unsigned(ua + ub + ci, w));
        REQUIRE(got[k][1] == (ua + ub + ci >= (Integer(1) << w) ? 1 : 0));
        REQUIRE(got[k][2] == wrap_unsigned(ua - ub, w));
      }
    }
  };
  for (std::size_t w = 1; w <= 5; ++w) check(w, all_cases({w, w, 1}));
  std::mt19937_64 rng(61);
  for (std::size_t w : {16, 33, 64}) check(w, random_cases(rng, {w, w, 1}, 256));
}

TEST_CASE("adder depths: measured ≤ stated, prefix adders logarithmic",
          "[circuits][arith][adder]") {
  for (std::size_t w : {8, 16, 32, 64}) {
    for (const AdderSpec& spec : kTrees) {
      Harness h({w, w});
      h.output(add_prefix(h.b, h.in[0], h.in[1], spec).sum);
      const Circuit c = h.finish();
      INFO("w = " << w << " " << to_string(spec.carry_tree));
      CHECK(depth_of(c) <= prefix_adder_depth(w, false, spec));
      if (spec.carry_tree == ScanKind::sklansky) CHECK(depth_of(c) <= 2 * std::bit_width(w) + 2);
    }
    Harness h({w, w});
    h.output(add_ripple(h.b, h.in[0], h.in[1]).sum);
    const Circuit c = h.finish();
    CHECK(depth_of(c) <= ripple_adder_depth(w));
    CHECK(depth_of(c) >= w);  // the plain twin really is linear
  }
}

TEST_CASE("multipliers: array, Dadda and Wallace compute the product mod 2^W",
          "[circuits][arith][multiplier]") {
  auto check = [](std::size_t wa, std::size_t wb, std::size_t W, const std::vector<Case>& cases) {
    INFO("wa = " << wa << ", wb = " << wb << ", W = " << W);
    Harness h({wa, wb});
    h.output(multiply_array(h.b, h.in[0], h.in[1], W));
    h.output(multiply_tree(h.b, h.in[0], h.in[1], W, Reduction::dadda));
    h.output(
        multiply_tree(h.b, h.in[0], h.in[1], W, Reduction::wallace, {ScanKind::kogge_stone, 1}));
    const Circuit c = h.finish();
    CHECK(fan_in_two(c));
    const auto got = run(h, c, cases);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const Integer p = wrap_unsigned(cases[k][0] * cases[k][1], W);
      REQUIRE(got[k][0] == p);
      REQUIRE(got[k][1] == p);
      REQUIRE(got[k][2] == p);
    }
    // Depth of the tree multipliers alone vs stated.
    for (Reduction r : {Reduction::dadda, Reduction::wallace}) {
      Harness t({wa, wb});
      t.output(multiply_tree(t.b, t.in[0], t.in[1], W, r));
      CHECK(depth_of(t.finish()) <= dot_product_depth(1, wa, wb, W, r, AdderSpec{}));
    }
  };
  for (std::size_t wa = 1; wa <= 5; ++wa)
    for (std::size_t wb = 1; wb <= 5; ++wb)
      for (std::size_t W : {wa + wb, wa + wb - 1, wa + wb + 2})
        if (W >= 1) check(wa, wb, W, all_cases({wa, wb}));
  std::mt19937_64 rng(62);
  check(16, 16, 32, random_cases(rng, {16, 16}, 192));
  check(24, 20, 44, random_cases(rng, {24, 20}, 128));
  check(32, 32, 40, random_cases(rng, {32, 32}, 128));  // truncated product
}

TEST_CASE("dot products: one heap, one adder, equal to the plain twin and to Integer",
          "[circuits][arith][dot]") {
  auto check = [](std::size_t terms, std::size_t w, std::size_t wc, unsigned shift,
                  const std::vector<Case>& cases) {
    std::vector<std::size_t> widths(2 * terms, w);
    widths.push_back(wc);
    Harness h(widths);
    std::vector<Word> a(h.in.begin(), h.in.begin() + terms),
        x(h.in.begin() + terms, h.in.begin() + 2 * terms);
    const std::size_t W = dot_exact_width(terms, w, w, wc, shift);
    h.output(dot_product(h.b, a, x, &h.in.back(), shift, W));
    h.output(dot_product_plain(h.b, a, x, &h.in.back(), shift, W));
    h.output(dot_product(h.b, a, x, nullptr, 0, W, Reduction::wallace));
    const Circuit c = h.finish();
    const auto got = run(h, c, cases);
    INFO("terms " << terms << ", w = " << w << ", W = " << W);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      Integer s = 0;
      for (std::size_t i = 0; i < terms; ++i) s += cases[k][i] * cases[k][terms + i];
      REQUIRE(got[k][2] == wrap_unsigned(s, W));
      s += cases[k].back() << shift;
      REQUIRE(wrap_signed(got[k][0], W) == s);  // exact: W is wide enough
      REQUIRE(got[k][1] == got[k][0]);
    }
  };
  check(2, 3, 3, 2, all_cases({3, 3, 3, 3, 3}));  // 2^15 tuples
  std::mt19937_64 rng(63);
  check(3, 16, 16, 8, random_cases(rng, std::vector<std::size_t>(7, 16), 192));
  check(4, 9, 12, 5, random_cases(rng, {9, 9, 9, 9, 9, 9, 9, 9, 12}, 192));
}

TEST_CASE("comparators and mux, exhaustive", "[circuits][arith][compare]") {
  for (std::size_t w = 1; w <= 5; ++w) {
    for (const AdderSpec& spec : kTrees) {
      Harness h({w, w, 1});
      h.output(equal(h.b, h.in[0], h.in[1]));
      h.output(is_zero(h.b, h.in[0]));
      h.output(less_unsigned(h.b, h.in[0], h.in[1], spec));
      h.output(less_signed(h.b, h.in[0], h.in[1], spec));
      h.output(is_negative(h.in[0]));
      h.output(mux(h.b, h.in[2][0], h.in[0], h.in[1]));
      const Circuit c = h.finish();
      const auto cases = all_cases({w, w, 1});
      const auto got = run(h, c, cases);
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const Integer& a = cases[k][0];
        const Integer& b = cases[k][1];
        REQUIRE(got[k][0] == (a == b ? 1 : 0));
        REQUIRE(got[k][1] == (a == 0 ? 1 : 0));
        REQUIRE(got[k][2] == (wrap_unsigned(a, w) < wrap_unsigned(b, w) ? 1 : 0));
        REQUIRE(got[k][3] == (a < b ? 1 : 0));
        REQUIRE(got[k][4] == (a < 0 ? 1 : 0));
        REQUIRE(got[k][5] == wrap_unsigned(cases[k][2] != 0 ? a : b, w));
      }
    }
  }
  for (std::size_t w : {8, 32}) {  // depths vs stated
    const AdderSpec spec{ScanKind::sklansky, 1};
    const std::size_t c1 = prefix_chain_depth(spec.carry_tree, w + 1);
    Harness h({w, w});
    h.output(less_signed(h.b, h.in[0], h.in[1], spec));
    CHECK(depth_of(h.finish()) <= 2 * c1 + 4);
    Harness e({w, w});
    e.output(equal(e.b, e.in[0], e.in[1]));
    CHECK(depth_of(e.finish()) <= std::bit_width(w - 1) + 2);
  }
}

TEST_CASE("round_shift equals algebra's round_shift on every small word",
          "[circuits][arith][fixed]") {
  for (Rounding mode : {Rounding::nearest_even, Rounding::toward_zero})
    for (std::size_t w = 1; w <= 8; ++w)
      for (unsigned s = 0; s < w; ++s) {
        INFO("w = " << w << ", shift " << s << ", " << to_string(mode));
        Harness h({w});
        const Word r = round_shift(h.b, h.in[0], s, mode);
        REQUIRE(r.width() == w - s + 1);
        h.output(r);
        const Circuit c = h.finish();
        CHECK(depth_of(c) <= round_shift_depth(w, s, AdderSpec{}));
        const auto cases = all_cases({w});
        const auto got = run(h, c, cases);
        for (std::size_t k = 0; k < cases.size(); ++k)
          REQUIRE(wrap_signed(got[k][0], w - s + 1) == round_shift(cases[k][0], s, mode));
      }
  // Hand-checked ties: 6/4 = 1.5 → 2, 10/4 = 2.5 → 2, −6/4 → −2; toward zero −7/4 → −1.
  CHECK(round_shift(Integer(10), 2, Rounding::nearest_even) == 2);
}

TEST_CASE("saturate equals FixedPoint's clamp on every small word", "[circuits][arith][fixed]") {
  for (std::size_t w = 1; w <= 8; ++w)
    for (unsigned m = 1; m <= w + 1; ++m) {
      INFO("w = " << w << ", m = " << m);
      Harness h({w});
      const Saturated s = saturate(h.b, h.in[0], m);
      REQUIRE(s.value.width() == m + 1);
      h.output(s.value);
      h.output(s.overflow);
      const Circuit c = h.finish();
      CHECK(depth_of(c) <= saturate_depth(w, m));
      const FixedPoint fp(FixedFormat{0, m, Rounding::nearest_even, Overflow::saturate});
      const auto cases = all_cases({w});
      const auto got = run(h, c, cases);
      for (std::size_t k = 0; k < cases.size(); ++k) {
        const Integer v = cases[k][0];
        REQUIRE(wrap_signed(got[k][0], m + 1) == fp.add({v}, fp.zero()).raw);
        REQUIRE(got[k][1] == (boost::multiprecision::abs(v) > fp.max_raw() ? 1 : 0));
      }
    }
}

TEST_CASE("fixed_dot: one rounding per entry, as FixedPoint's wide_mul / wide_add / narrow",
          "[circuits][arith][fixed]") {
  auto check = [](std::size_t terms, const FixedFormat& f, const std::vector<Case>& cases,
                  Reduction red) {
    const std::size_t W = 1 + f.int_bits + f.frac_bits;
    Harness h(std::vector<std::size_t>(2 * terms + 1, W));
    std::vector<Word> a(h.in.begin(), h.in.begin() + terms),
        x(h.in.begin() + terms, h.in.begin() + 2 * terms);
    const Saturated s = fixed_dot(h.b, a, x, &h.in.back(), f, red);
    h.output(s.value);
    h.output(s.overflow);
    const Circuit c = h.finish();
    CHECK(fan_in_two(c));
    CHECK(depth_of(c) <= fixed_dot_depth(terms, f, true, red, AdderSpec{}));
    CHECK(c.size() <= fixed_dot_gates(terms, f, true, AdderSpec{}) + c.inputs().size() + 2);
    FixedFormat sat = f;
    sat.overflow = Overflow::saturate;
    const FixedPoint fp(sat);
    const auto got = run(h, c, cases);
    std::size_t clamped = 0;
    for (std::size_t k = 0; k < cases.size(); ++k) {
      // Operands in range only (the format is symmetric: −2^(W−1) is not a value).
      bool in_range = true;
      for (const Integer& v : cases[k]) in_range &= v != -(Integer(1) << (W - 1));
      if (!in_range) continue;
      FixedPoint::Wide acc = fp.widen({cases[k].back()});
      for (std::size_t i = 0; i < terms; ++i)
        acc = fp.wide_add(acc, fp.wide_mul({cases[k][i]}, {cases[k][terms + i]}));
      const Integer exact = acc.raw;
      const Integer r = round_shift(exact, f.frac_bits, f.rounding);
      const bool ovf = boost::multiprecision::abs(r) > fp.max_raw();
      clamped += ovf;
      REQUIRE(wrap_signed(got[k][0], W) == fp.narrow(acc).raw);
      REQUIRE(got[k][1] == (ovf ? 1 : 0));
    }
    CHECK(clamped > 0);  // the cases exercise saturation
  };
  for (Rounding r : {Rounding::nearest_even, Rounding::toward_zero}) {
    check(1, FixedFormat{2, 1, r, Overflow::saturate}, all_cases({4, 4, 4}), Reduction::dadda);
    std::mt19937_64 rng(64);
    check(3, FixedFormat{5, 4, r, Overflow::error},
          random_cases(rng, std::vector<std::size_t>(7, 10), 512), Reduction::dadda);
    check(2, FixedFormat{7, 3, r, Overflow::saturate},
          random_cases(rng, std::vector<std::size_t>(5, 11), 512), Reduction::wallace);
  }
}

TEST_CASE("compressor stage counts", "[circuits][arith]") {
  // Dadda's sequence 2, 3, 4, 6, 9, 13, 19, 28, 42, 63.
  CHECK(compressor_stages(Reduction::dadda, 2) == 0);
  CHECK(compressor_stages(Reduction::dadda, 3) == 1);
  CHECK(compressor_stages(Reduction::dadda, 9) == 4);
  CHECK(compressor_stages(Reduction::dadda, 10) == 5);
  CHECK(compressor_stages(Reduction::dadda, 63) == 9);
  CHECK(compressor_stages(Reduction::dadda, 64) == 10);
  CHECK(compressor_stages(Reduction::wallace, 3) == 1);
  CHECK(compressor_stages(Reduction::wallace, 2) == 0);
}

TEST_CASE("arithmetic diagnostics", "[circuits][arith][errors]") {
  CircuitBuilder b;
  const Word a = input_word(b, "a", 4), c = input_word(b, "c", 5);
  CHECK_THROWS_AS(add_ripple(b, a, c), InputError);
  CHECK_THROWS_AS(add_prefix(b, a, c), InputError);
  CHECK_THROWS_AS(equal(b, a, c), InputError);
  CHECK_THROWS_AS(mux(b, a[0], a, c), InputError);
  CHECK_THROWS_AS(round_shift(b, a, 4, Rounding::nearest_even), InputError);
  CHECK_THROWS_AS(saturate(b, a, 0), InputError);
  const Word one_term[1] = {a};
  CHECK_THROWS_AS(dot_product(b, one_term, {}, nullptr, 0, 8), InputError);
  CHECK_THROWS_AS(multiply_array(b, a, Word{}, 8), InputError);
  CHECK_THROWS_AS(fixed_dot(b, one_term, one_term, nullptr, FixedFormat{2, 2}), InputError);
  CHECK_THROWS_WITH(add_prefix(b, a, c), Catch::Contains("equal width"));
}

// ---- ABC -----------------------------------------------------------------------------------

namespace {

// Two circuits over the same input words: f(builder, inputs) -> output word.
Circuit build(std::size_t wa, std::size_t wb,
              const std::function<Word(CircuitBuilder&, const Word&, const Word&)>& f) {
  CircuitBuilder b;
  const Word x = input_word(b, "a", wa), y = input_word(b, "b", wb);
  return b.finish(f(b, x, y).bits);
}

// array ≡ Dadda ≡ Wallace at w×w → 2w bits, and the Dadda product with one bit flipped is not.
template <class Cec>
void check_multipliers(Cec&& cec, std::size_t w) {
  const Circuit array = build(w, w, [&](CircuitBuilder& b, const Word& x, const Word& y) {
    return multiply_array(b, x, y, 2 * w);
  });
  const Circuit dadda = build(w, w, [&](CircuitBuilder& b, const Word& x, const Word& y) {
    return multiply_tree(b, x, y, 2 * w, Reduction::dadda, {ScanKind::brent_kung, 1});
  });
  const Circuit wallace = build(w, w, [&](CircuitBuilder& b, const Word& x, const Word& y) {
    return multiply_tree(b, x, y, 2 * w, Reduction::wallace);
  });
  std::string out = cec(array, dadda);
  INFO(out);
  CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
  out = cec(array, wallace);
  CHECK_THAT(out, Catch::Contains("Networks are equivalent"));
  const Circuit wrong = build(w, w, [&](CircuitBuilder& b, const Word& x, const Word& y) {
    Word p = multiply_tree(b, x, y, 2 * w);
    p.bits[w + 1] = b.not_(p.bits[w + 1]);
    return p;
  });
  out = cec(array, wrong);
  CHECK_THAT(out, Catch::Contains("NOT EQUIVALENT"));
}

}  // namespace

TEST_CASE(
    "ABC cec: ripple ≡ prefix adders (16 bits), 6×6 array ≡ Dadda ≡ Wallace, a wrong one caught",
    "[circuits][arith][abc]") {
  REQUIRE_ABC();
  TempDir tmp;
  auto cec = [&](const Circuit& a, const Circuit& b) {
    const std::string out = abc("cec -n " + tmp.file("a.aig", write_aiger(a, AigerFormat::binary)) +
                                " " + tmp.file("b.aig", write_aiger(b, AigerFormat::binary)));
    INFO(out);
    return out;
  };
  const Circuit ripple = build(16, 16, [](CircuitBuilder& b, const Word& x, const Word& y) {
    return add_ripple(b, x, y).sum;
  });
  for (const AdderSpec& spec : kTrees) {
    const Circuit prefix = build(16, 16, [&](CircuitBuilder& b, const Word& x, const Word& y) {
      return add_prefix(b, x, y, spec).sum;
    });
    CHECK_THAT(cec(ripple, prefix), Catch::Contains("Networks are equivalent"));
  }
  check_multipliers(cec, 6);
}

// SAT-based equivalence of multipliers grows fast: 6×6 takes ABC about a second, 8×8 about
// 25 s, so the 8×8 proof is a hidden case (run it with `circuits_tests "[abc-slow]"`).
TEST_CASE("ABC cec: 8×8 array ≡ Dadda ≡ Wallace", "[.][circuits][arith][abc-slow]") {
  REQUIRE_ABC();
  TempDir tmp;
  auto cec = [&](const Circuit& a, const Circuit& b) {
    return abc("cec -n " + tmp.file("a.aig", write_aiger(a, AigerFormat::binary)) + " " +
               tmp.file("b.aig", write_aiger(b, AigerFormat::binary)));
  };
  check_multipliers(cec, 8);
}
