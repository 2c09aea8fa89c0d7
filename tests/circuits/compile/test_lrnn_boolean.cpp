// compile_lrnn_boolean (circuits/compile/lrnn_boolean): a one-layer LRNN at log precision as a
// fan-in-2 boolean circuit through the prefix scan. The circuit, evaluated bit-parallel, equals
// the plain twin evaluate_scan_rounded bit for bit on every string of length ≤ 5 (seeded random
// models of five families, three scans, both roundings, both overflow policies) and on random
// strings of length 32–64; with the sequential scan it equals rnn's reference evaluator at log
// precision (raw values, verdicts, DomainError ⇔ overflow flag); Brent–Kung's scan-rounded
// function differs from the sequential one on some model and string; measured depth ≤ stated,
// size ≤ estimate; every refusal.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <random>

#include "algebra/error.hpp"
#include "algebra/fixed_point.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using Strings = std::vector<std::vector<std::size_t>>;

namespace {

// What the circuit says about one string.
struct Decoded {
  std::vector<Matrix<Integer>> outputs;  // the y_t it outputs (y_n only, or every y_t)
  bool overflow = false, accept = false;
};

// Evaluates the circuit on all `strings` (length n each) and decodes the outputs by their order
// (names checked separately).
std::vector<Decoded> run(const CompiledCircuit& cc, const Model& model, const Strings& strings,
                         const BooleanLrnnOptions& o) {
  const Circuit& c = cc.circuit;
  const std::size_t n = strings.at(0).size(), sigma = model.alphabet.size();
  const std::size_t inputs = c.inputs().size(), words = (strings.size() + 63) / 64;
  REQUIRE(inputs == n * sigma);
  std::vector<bits::Word> patterns(words * inputs, 0);
  for (std::size_t k = 0; k < strings.size(); ++k)
    for (std::size_t t = 0; t < n; ++t)
      patterns[(k / 64) * inputs + t * sigma + strings[k][t]] |= bits::Word{1} << (k % 64);
  const auto result = evaluate_bits_batch(c, patterns, 1);
  const LrnnLayer& l = std::get<LrnnLayer>(model.layers[0].layer);
  const FixedFormat f = boolean_lrnn_format(n, o);
  const std::size_t W = 1 + f.int_bits + f.frac_bits, outputs = c.outputs().size();
  const std::size_t positions = o.outputs == OutputMode::all ? n : 1;
  std::vector<Decoded> out(strings.size());
  for (std::size_t k = 0; k < strings.size(); ++k) {
    auto bit = [&](std::size_t pos) { return (result[(k / 64) * outputs + pos] >> (k % 64)) & 1; };
    std::size_t pos = 0;
    for (std::size_t t = 0; t < positions; ++t) {
      Matrix<Integer> y(l.readout.rows(), l.m);
      for (std::size_t i = 0; i < y.rows(); ++i)
        for (std::size_t j = 0; j < y.cols(); ++j) {
          Integer v = 0;
          for (std::size_t b = 0; b < W; ++b, ++pos)
            if (bit(pos)) v += Integer(1) << b;
          if (v >= (Integer(1) << (W - 1))) v -= Integer(1) << W;
          y(i, j) = v;
        }
      out[k].outputs.push_back(y);
    }
    if (o.precision.overflow == Overflow::error) out[k].overflow = bit(pos++);
    out[k].accept = bit(pos++);
    REQUIRE(pos == outputs);
  }
  return out;
}

// Circuit == twin on every string, all outputs; depth ≤ stated; size ≤ estimate; fan-in 2.
void check_against_twin(const Model& model, const Strings& strings, const BooleanLrnnOptions& o) {
  const std::size_t n = strings.at(0).size();
  const CompiledCircuit cc = compile_lrnn_boolean(model, n, o);
  const Circuit& c = cc.circuit;
  const CircuitStats stats = compute_stats(c);
  CHECK(stats.max_fanin <= 2);
  CHECK(stats.by_kind[static_cast<std::size_t>(GateKind::positive)] == 0);
  CHECK(stats.bounded_fanin_depth <= lrnn_boolean_depth_bound(model, n, o));
  CHECK(c.size() <= estimate_lrnn_boolean_gates(model, n, o));
  const auto got = run(cc, model, strings, o);
  for (std::size_t k = 0; k < strings.size(); ++k) {
    INFO("string " << k << " of length " << n);
    const ScanRoundedResult want = evaluate_scan_rounded(model, strings[k], o);
    if (o.outputs == OutputMode::all) {
      for (std::size_t t = 0; t < n; ++t) REQUIRE(got[k].outputs[t] == want.outputs[t]);
    } else {
      REQUIRE(got[k].outputs[0] == want.outputs.back());
    }
    if (o.precision.overflow == Overflow::error) REQUIRE(got[k].overflow == want.overflow);
    REQUIRE(got[k].accept == want.accept);
  }
}

Model random_model(std::mt19937_64& rng, Family family, std::size_t d, std::size_t m,
                   std::size_t sigma) {
  return test::random_single_layer_model(rng, family, d, m, sigma);
}

}  // namespace

TEST_CASE("boolean LRNN: circuit = scan-rounded twin on every string of length ≤ 5",
          "[circuits][lrnn_boolean]") {
  std::mt19937_64 rng(71);
  const Family families[] = {Family::diagonal, Family::pd, Family::dplr, Family::deltanet,
                             Family::general};
  const ScanKind scans[] = {ScanKind::sequential, ScanKind::brent_kung, ScanKind::sklansky};
  std::size_t combo = 0;
  for (Family family : families) {
    const Model model = random_model(rng, family, 2, family == Family::deltanet ? 2 : 1, 2);
    for (ScanKind scan : scans)
      for (Rounding rounding : {Rounding::nearest_even, Rounding::toward_zero})
        for (Overflow overflow : {Overflow::saturate, Overflow::error}) {
          BooleanLrnnOptions o;
          o.scan = scan;
          o.precision.rounding = rounding;
          o.precision.overflow = overflow;
          o.outputs = ++combo % 2 ? OutputMode::all : OutputMode::last;
          o.adder.carry_tree = combo % 3 ? ScanKind::sklansky : ScanKind::brent_kung;
          if (combo % 4 == 0) o.precision.int_bits = 1;  // overflow often
          INFO(to_string(family) << ", " << to_string(scan) << ", " << to_string(rounding) << ", "
                                 << to_string(overflow));
          for (std::size_t n = 1; n <= 5; ++n)
            check_against_twin(model, test::all_strings(2, n, n), o);
        }
  }
}

TEST_CASE("boolean LRNN, sequential scan: exactly the reference evaluator at log precision",
          "[circuits][lrnn_boolean]") {
  std::mt19937_64 rng(72);
  std::size_t raised = 0, accepted = 0, total = 0;
  for (Family family : {Family::diagonal, Family::dplr, Family::general, Family::gla}) {
    const Model model = random_model(rng, family, 2, 1, 3);
    for (Overflow overflow : {Overflow::saturate, Overflow::error})
      for (Rounding rounding : {Rounding::nearest_even, Rounding::toward_zero}) {
        BooleanLrnnOptions o;
        o.scan = ScanKind::sequential;
        o.precision.overflow = overflow;
        o.precision.rounding = rounding;
        o.outputs = OutputMode::all;
        for (std::size_t n = 1; n <= 4; ++n) {
          const Strings strings = test::all_strings(3, n, n);
          const CompiledCircuit cc = compile_lrnn_boolean(model, n, o);
          const auto got = run(cc, model, strings, o);
          const FixedPoint k(boolean_lrnn_format(n, o));
          for (std::size_t s = 0; s < strings.size(); ++s) {
            INFO(to_string(family) << " n = " << n << " string " << s);
            ++total;
            try {
              const auto trace = evaluate(model, k, strings[s]);
              REQUIRE_FALSE(got[s].overflow);
              for (std::size_t t = 0; t < n; ++t)
                for (std::size_t i = 0; i < trace.outputs()[t].rows(); ++i)
                  REQUIRE(got[s].outputs[t](i, 0) == trace.outputs()[t](i, 0).raw);
              REQUIRE(got[s].accept == *accepts(model.accept, k, trace.outputs().back()));
              accepted += got[s].accept;
            } catch (const DomainError&) {
              REQUIRE(overflow == Overflow::error);
              REQUIRE(got[s].overflow);
              ++raised;
            }
          }
        }
      }
  }
  CHECK(raised > 0);  // the overflow flag was exercised both ways
  CHECK(raised < total / 2);
  CHECK(accepted > 0);
}

TEST_CASE("boolean LRNN: Brent–Kung's scan-rounded function differs from the sequential one",
          "[circuits][lrnn_boolean]") {
  // Rounding is not associative: round(round(A₃A₂)·S₁ + …) ≠ round(A₃·round(A₂S₁ + B₂) + B₃).
  std::mt19937_64 rng(73);
  bool found = false;
  for (int trial = 0; trial < 50 && !found; ++trial) {
    const Model model = random_model(rng, Family::dplr, 2, 1, 2);
    BooleanLrnnOptions seq, bk;
    seq.scan = ScanKind::sequential;
    bk.scan = ScanKind::brent_kung;
    const std::size_t n = 4;
    for (const auto& w : test::all_strings(2, n, n)) {
      const auto a = evaluate_scan_rounded(model, w, seq), b = evaluate_scan_rounded(model, w, bk);
      if (a.outputs.back() == b.outputs.back()) continue;
      found = true;
      // The circuits reproduce each function on that string.
      const Strings one{w};
      const auto cs = run(compile_lrnn_boolean(model, n, seq), model, one, seq);
      const auto cb = run(compile_lrnn_boolean(model, n, bk), model, one, bk);
      CHECK(cs[0].outputs[0] == a.outputs.back());
      CHECK(cb[0].outputs[0] == b.outputs.back());
      CHECK(cs[0].outputs[0] != cb[0].outputs[0]);
      break;
    }
  }
  CHECK(found);
}

TEST_CASE("boolean LRNN: random strings of length 32 and 64", "[circuits][lrnn_boolean]") {
  std::mt19937_64 rng(74);
  struct Run {
    Family family;
    std::size_t n;
    ScanKind scan;
  };
  for (const Run& r :
       {Run{Family::dplr, 32, ScanKind::brent_kung}, Run{Family::diagonal, 64, ScanKind::sklansky},
        Run{Family::pd, 32, ScanKind::ladner_fischer},
        Run{Family::deltanet, 32, ScanKind::kogge_stone}}) {
    const Model model = random_model(rng, r.family, 2, 1, 3);
    BooleanLrnnOptions o;
    o.scan = r.scan;
    o.precision.overflow = Overflow::error;
    Strings strings;
    for (int k = 0; k < 64; ++k) strings.push_back(test::random_input(rng, r.n, 3));
    INFO(to_string(r.family) << " n = " << r.n);
    check_against_twin(model, strings, o);
  }
}

TEST_CASE("boolean LRNN: names, hand-checked tiny model", "[circuits][lrnn_boolean]") {
  // d = 1 counter: S_t = S_{t−1} + [x_t = a]/2, y = S − 1/2, S_0 = 0; accept y > 0.
  LayerFrame f;
  f.d = 1;
  f.features = 2;
  f.initial_state = Matrix<Rational>(1, 1, Rational(0));
  f.readout = Matrix<Rational>(1, 1, Rational(1));
  f.readout_bias = Matrix<Rational>(1, 1, Rational(-1, 2));
  LrnnLayer l = make_diagonal(Family::diagonal, f,
                              {{{Rational(1)}, Matrix<Rational>(1, 1, Rational(1, 2))},
                               {{Rational(1)}, Matrix<Rational>(1, 1, Rational(0))}});
  const Model model = test::single_layer_model(l, 2);
  BooleanLrnnOptions o;
  o.precision.overflow = Overflow::error;
  const CompiledCircuit cc = compile_lrnn_boolean(model, 3, o);  // F = 2, I = 2: W = 5
  const Circuit& c = cc.circuit;
  CHECK(c.input_names()[0] == "x[1,a]");
  CHECK(c.input_names()[5] == "x[3,b]");
  REQUIRE(c.output_names().size() == 5 + 2);
  CHECK(c.output_names()[0] == "y[3][0][0].b[0]");
  CHECK(c.output_names()[4] == "y[3][0][0].b[4]");
  CHECK(c.output_names()[5] == "overflow");
  CHECK(c.output_names()[6] == "accept");
  // "aab": S = 1, y = 1/2: raw 2 at F = 2; accepted. "bbb": y = −1/2, raw −2, rejected.
  const auto got = run(cc, model, {{0, 0, 1}, {1, 1, 1}}, o);
  CHECK(got[0].outputs[0](0, 0) == 2);
  CHECK(got[0].accept);
  CHECK(got[1].outputs[0](0, 0) == -2);
  CHECK_FALSE(got[1].accept);
  CHECK_FALSE(got[0].overflow);
}

TEST_CASE("boolean LRNN: refusals", "[circuits][lrnn_boolean][errors]") {
  std::mt19937_64 rng(75);
  const Model model = random_model(rng, Family::dplr, 2, 1, 2);
  BooleanLrnnOptions o;
  using testing_error = InputError;
  CHECK_THROWS_WITH(compile_lrnn_boolean(model, 0, o), Catch::Contains("n ≥ 1"));
  Model stack = model;
  stack.layers.push_back({InputMap{Matrix<Rational>(2, 2, Rational(1)), {}},
                          std::get<LrnnLayer>(model.layers[0].layer)});
  CHECK_THROWS_WITH(compile_lrnn_boolean(stack, 3, o), Catch::Contains("one-layer"));
  Model elman = model;
  ElmanLayer e;
  e.d = 1;
  e.features = 2;
  elman.layers[0].layer = e;
  CHECK_THROWS_WITH(compile_lrnn_boolean(elman, 3, o), Catch::Contains("LRNN layers only"));
  Model per_symbol = model;
  auto& l = std::get<LrnnLayer>(per_symbol.layers[0].layer);
  l.readout_feature.assign(2, l.readout);
  CHECK_THROWS_WITH(compile_lrnn_boolean(per_symbol, 3, o), Catch::Contains("per-symbol"));
  CHECK_THROWS_AS(evaluate_scan_rounded(per_symbol, std::vector<std::size_t>{0}, o), testing_error);
  BooleanLrnnOptions exact = o;
  exact.precision = Precision{};
  CHECK_THROWS_WITH(compile_lrnn_boolean(model, 3, exact), Catch::Contains("log precision"));
  BooleanLrnnOptions zero_int = o;
  zero_int.precision.int_bits = 0;
  CHECK_THROWS_WITH(compile_lrnn_boolean(model, 3, zero_int), Catch::Contains("integer bit"));
  BooleanLrnnOptions small = o;
  small.budget.max_gates = 1000;
  test::expect_input_error([&] { compile_lrnn_boolean(model, 8, small); }, "--max-gates",
                           "limit of 1000");
  CHECK_THROWS_WITH(evaluate_scan_rounded(model, std::vector<std::size_t>{0, 7}, o),
                    Catch::Contains("out of range"));
}

TEST_CASE(
    "run --scan computes the compiled circuit's function, the compile note appears exactly "
    "when the scan-rounded function differs from the sequential rule",
    "[circuits][lrnn_boolean][scan_function]") {
  std::mt19937_64 rng(2027);
  const Scan scans[] = {Scan(ScanKind::sequential), Scan(ScanKind::sklansky),
                        Scan(ScanKind::kogge_stone), Scan(ScanKind::brent_kung),
                        Scan(ScanKind::ladner_fischer)};
  const std::size_t n = 8;
  std::size_t differing_in_all = 0;
  for (Family family : test::all_families) {  // every family, every scan
    const Model model = random_model(rng, family, 2, family == Family::deltanet ? 2 : 1, 2);
    const LrnnLayer& l = std::get<LrnnLayer>(model.layers[0].layer);
    PrecisionSpec spec;
    spec.kind = PrecisionSpec::Kind::log;
    spec.log_c = 1;
    for (const Scan& scan : scans) {
      INFO("family " << static_cast<int>(family) << ", scan " << to_string(scan));
      BooleanLrnnOptions o;
      o.precision = Precision::log(1);
      o.scan = scan;
      o.outputs = OutputMode::all;
      Strings strings(24, std::vector<std::size_t>(n));
      for (auto& w : strings)
        for (auto& x : w) x = rng() % 2;
      // The circuit's outputs, decoded, against `run --scan`'s report, entry by entry as text.
      const auto got = run(compile_lrnn_boolean(model, n, o), model, strings, o);
      const FixedPoint k(boolean_lrnn_format(n, o));
      for (std::size_t s = 0; s < strings.size(); ++s) {
        const RunReport r =
            run_with_scan(model, model.alphabet.join(strings[s]), "input", spec, scan);
        REQUIRE(r.positions.size() == n);
        for (std::size_t t = 0; t < n; ++t)
          for (std::size_t i = 0; i < got[s].outputs[t].rows(); ++i)
            for (std::size_t j = 0; j < got[s].outputs[t].cols(); ++j)
              REQUIRE(r.positions[t].output[i][j] == k.to_string({got[s].outputs[t](i, j)}));
        REQUIRE(r.accepted == got[s].accept);
        if (scan.kind == ScanKind::sequential)  // the reference evaluator itself
          REQUIRE(r.semantics ==
                  run_model(model, model.alphabet.join(strings[s]), "input", spec).semantics);
      }
      // The disagreement rate, recounted on the same seeded strings with the reference run.
      o.outputs = OutputMode::last;
      const ScanDisagreement d = scan_disagreement(model, n, o, 60, 5);
      std::mt19937_64 same(5);
      std::size_t differing = 0;
      std::vector<std::size_t> w(n);
      for (std::size_t s = 0; s < d.strings; ++s) {
        for (auto& x : w) x = static_cast<std::size_t>(same() % l.features);
        const std::string text = model.alphabet.join(w);
        const RunReport a = run_with_scan(model, text, "input", spec, scan),
                        b = run_model(model, text, "input", spec);
        differing +=
            a.positions.back().output != b.positions.back().output || a.accepted != b.accepted;
      }
      CHECK(d.strings == 60);
      CHECK(d.differing == differing);
      if (scan.kind == ScanKind::sequential) CHECK(d.differing == 0);
      const std::string note = scan_function_note(d, n, scan);
      CHECK(note.empty() == (d.differing == 0));
      if (!note.empty()) CHECK_THAT(note, Catch::Contains("rnncc run --scan " + to_string(scan)));
      differing_in_all += d.differing;
    }
  }
  CHECK(differing_in_all > 0);  // some tree scan differs: the check above is not vacuous
  // What has no scan-rounded function is refused, naming --scan; exact runs ignore the scan.
  const Model stack = load_model(test::example("relu_counter.json"));  // an Elman layer
  PrecisionSpec log1;
  log1.kind = PrecisionSpec::Kind::log;
  test::expect_input_error(
      [&] { run_with_scan(stack, "ab", "input", log1, Scan(ScanKind::brent_kung)); }, "--scan",
      "one LRNN layer");
  const Model parity = load_model(test::example("parity_deltanet.json"));
  CHECK(run_with_scan(parity, "0110", "input", PrecisionSpec{}, Scan(ScanKind::sklansky))
            .positions.back()
            .output == run_model(parity, "0110", "input", PrecisionSpec{}).positions.back().output);
}
