// compile_model (circuits/compile/target.hpp): every row of the routing table picks the compiler
// it names; routes that transform a circuit (unique-hard attention lowered to and/or/xor/not)
// compute the same function as the circuit they transform, on every string up to length 5;
// routed circuits agree with the reference evaluator; estimates bound the built size; every
// refusal says why; the flag parsers.
#include <catch2/catch.hpp>

#include "algebra/error.hpp"
#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/compile/attention.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;
using rnncc::test::one_hot;

namespace {

const RationalField Q;

TargetOptions target(CircuitTarget t, std::optional<unsigned> log_c = std::nullopt) {
  TargetOptions o;
  o.target = t;
  o.precision.log_c = log_c;
  return o;
}

}  // namespace

TEST_CASE("compile_model routes each model and target to its compiler", "[circuits][target]") {
  const Model dplr = load_model(test::example("dplr_d3.json"));
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  const Model relu = load_model(test::example("relu_counter.json"));
  const Model uhat = load_model(test::example("attention_most_recent_a.json"));
  const Model hybrid = load_model(test::example("hybrid_counter_attention.json"));
  const Model majority = load_model(test::example("majority_counter.json"));
  const auto A = CircuitTarget::arithmetic, B = CircuitTarget::boolean,
             T = CircuitTarget::threshold;
  CHECK(compiler_name(dplr, target(A)) == "compile_lrnn");
  CHECK(compiler_name(relu, target(A)) == "compile_nonlinear_sequential");
  CHECK(compiler_name(hybrid, target(A)) == "compile_attention_arith");
  CHECK(compiler_name(uhat, target(A)) == "compile_attention_arith");
  CHECK(compiler_name(s5, target(B)) == "compile_finite_state");
  CHECK(compiler_name(dplr, target(B, 1)) == "compile_lrnn_boolean");
  CHECK(compiler_name(s5, target(B, 2)) == "compile_lrnn_boolean");
  CHECK(compiler_name(relu, target(B)) == "compile_nonlinear_composed");
  CHECK(compiler_name(uhat, target(B, 1)) ==
        "compile_unique_hard_threshold + lower_threshold_gates");
  CHECK(compiler_name(majority, target(T)) == "compile_time_invariant_threshold");
  CHECK(compiler_name(majority, target(T, 1)) == "compile_time_invariant_threshold");
  CHECK(compiler_name(uhat, target(T, 1)) == "compile_unique_hard_threshold");
}

TEST_CASE(
    "boolean unique-hard attention: the lowered circuit computes the threshold circuit's function",
    "[circuits][target]") {
  const Model uhat = load_model(test::example("attention_most_recent_a.json"));
  for (std::size_t n = 1; n <= 5; ++n) {
    const Circuit lowered = compile_model(uhat, n, target(CircuitTarget::boolean, 1)).circuit;
    const Circuit thr = compile_model(uhat, n, target(CircuitTarget::threshold, 1)).circuit;
    const CircuitStats s = compute_stats(lowered);
    REQUIRE(s.by_kind[static_cast<std::size_t>(GateKind::thr)] == 0);
    REQUIRE(s.by_kind[static_cast<std::size_t>(GateKind::maj)] == 0);
    REQUIRE(lowered.outputs().size() == thr.outputs().size());
    for (const auto& w : test::all_strings(2, n, n)) {
      const auto x = one_hot(w, 2);
      REQUIRE(evaluate(lowered, Q, std::span<const Rational>(x)) ==
              evaluate(thr, Q, std::span<const Rational>(x)));
    }
  }
}

TEST_CASE("routed circuits agree with the reference evaluator", "[circuits][target]") {
  // boolean, exact: the S₅ word problem through its finite-state machine
  const Model s5 = load_model(test::example("s5_word_problem.json"));
  std::mt19937_64 rng(71);
  const std::size_t S = s5.alphabet.size(), n = 12;
  const Circuit c = compile_model(s5, n, target(CircuitTarget::boolean)).circuit;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::size_t> w(n);
    for (auto& s : w) s = rng() % S;
    const bool want = accepts(s5.accept, Q, evaluate(s5, Q, w).outputs().back()).value();
    REQUIRE(evaluate(c, Q, std::span<const Rational>(one_hot(w, S))).back() == Rational(want));
  }
  // threshold, exact: the majority counter is its own convolution
  const Model maj = load_model(test::example("majority_counter.json"));
  const Circuit t = compile_model(maj, 8, target(CircuitTarget::threshold)).circuit;
  for (const auto& w : test::all_strings(2, 8, 8)) {
    const bool want = accepts(maj.accept, Q, evaluate(maj, Q, w).outputs().back()).value();
    REQUIRE(evaluate(t, Q, std::span<const Rational>(one_hot(w, 2))).back() == Rational(want));
  }
}

TEST_CASE("estimates bound the circuits compile_model builds", "[circuits][target]") {
  struct Case {
    const char* example;
    CircuitTarget target;
    std::optional<unsigned> log_c;
  };
  for (const Case& k :
       {Case{"dplr_d3.json", CircuitTarget::arithmetic, std::nullopt},
        Case{"dplr_d3.json", CircuitTarget::boolean, 1u},
        Case{"hybrid_counter_attention.json", CircuitTarget::arithmetic, std::nullopt},
        Case{"majority_counter.json", CircuitTarget::threshold, 1u},
        Case{"mamba_diagonal.json", CircuitTarget::threshold, std::nullopt},
        Case{"attention_most_recent_a.json", CircuitTarget::threshold, 1u}}) {
    const Model m = load_model(test::example(k.example));
    for (std::size_t n : {3u, 16u}) {
      const auto est = estimate_model_gates(m, n, target(k.target, k.log_c));
      INFO(k.example << " n = " << n);
      REQUIRE(est.has_value());
      REQUIRE(compile_model(m, n, target(k.target, k.log_c)).circuit.size() <= *est);
    }
  }
  // the finite-state routes explore their state sets, so they have no estimate short of that
  REQUIRE_FALSE(estimate_model_gates(load_model(test::example("relu_counter.json")), 8,
                                     target(CircuitTarget::boolean))
                    .has_value());
}

TEST_CASE("compile_model refuses what no compiler handles, saying why",
          "[circuits][target][errors]") {
  const Model dplr = load_model(test::example("dplr_d3.json"));
  const Model relu = load_model(test::example("relu_counter.json"));
  const Model uhat = load_model(test::example("attention_most_recent_a.json"));
  const Model hybrid = load_model(test::example("hybrid_counter_attention.json"));
  REQUIRE_THROWS_WITH(compile_model(dplr, 4, target(CircuitTarget::arithmetic, 1)),
                      Catch::Contains("arithmetic circuits compute over Q exactly"));
  REQUIRE_THROWS_WITH(compile_model(dplr, 4, target(CircuitTarget::boolean)),
                      Catch::Contains("use --precision log:C"));
  REQUIRE_THROWS_WITH(compile_model(dplr, 4, target(CircuitTarget::threshold)),
                      Catch::Contains("TC⁰ = NC¹"));
  REQUIRE_THROWS_WITH(compile_model(relu, 4, target(CircuitTarget::threshold)),
                      Catch::Contains("L-complete"));
  REQUIRE_THROWS_WITH(compile_model(uhat, 4, target(CircuitTarget::threshold)),
                      Catch::Contains("attention compiles at log precision"));
  REQUIRE_THROWS_WITH(compile_model(uhat, 4, target(CircuitTarget::boolean)),
                      Catch::Contains("attention compiles at log precision"));
  REQUIRE_THROWS_WITH(compile_model(hybrid, 4, target(CircuitTarget::boolean, 1)),
                      Catch::Contains("hybrids: use --target arith"));
  REQUIRE_THROWS_WITH(compile_model(hybrid, 4, target(CircuitTarget::threshold, 1)),
                      Catch::Contains("--target threshold compiles one time-invariant LRNN"));
  Model none = dplr;
  none.layers.clear();
  REQUIRE_THROWS_WITH(compile_model(none, 4, target(CircuitTarget::arithmetic)),
                      Catch::Contains("no layers"));
}

TEST_CASE("target and precision flags parse or say what they expect",
          "[circuits][target][errors]") {
  REQUIRE(parse_target("arith") == CircuitTarget::arithmetic);
  REQUIRE(parse_target("boolean") == CircuitTarget::boolean);
  REQUIRE(parse_target("threshold") == CircuitTarget::threshold);
  REQUIRE_THROWS_WITH(parse_target("tc0"), Catch::Contains("expected arith, boolean or threshold"));
  Precision o;
  o.rounding = Rounding::toward_zero;
  parse_target_precision("log:3", o);
  REQUIRE(o.log_c == 3u);
  REQUIRE(o.rounding == Rounding::toward_zero);  // only C is parsed; the rest is kept
  REQUIRE(to_string(o) == "log:3");
  parse_target_precision("exact", o);
  REQUIRE_FALSE(o.log_c.has_value());
  REQUIRE(o.exact());
  for (const char* bad : {"log:0", "log:65", "log:", "log:2x", "LOG:1", "mod:8"})
    REQUIRE_THROWS_WITH(parse_target_precision(bad, o), Catch::Contains("expected exact or log:C"));
  REQUIRE_THROWS_WITH(parse_target_precision("mod:7", o),
                      Catch::Contains("circuits are compiled exact or at log:C"));
  // Integer bits belong to log:C: refused with exact, not silently unused (issue 25).
  TargetText text;
  text.int_bits = 3;
  REQUIRE_THROWS_WITH(parse_target_options(text),
                      "--int-bits: applies to log:C precision only (the compile uses exact)");
  REQUIRE_THROWS_WITH(parse_target_options(text, ""),
                      "int_bits: applies to log:C precision only (the compile uses exact)");
  text.precision = "log:2";
  REQUIRE(parse_target_options(text).precision.int_bits == 3u);
}

TEST_CASE("the memory estimate bounds the circuit's arena, and refuses with its numbers",
          "[target][memory]") {
  // Routes whose probes the estimate builds (n_b = n/4, n_a = n/16): the peak estimate is at
  // least the arena the built circuit uses (compiled_arena_bytes: what is resident; the
  // capacity Circuit::memory_bytes adds is what the builder reserved from the gate estimate
  // and never touched), and the extrapolated arena within a factor 2 of it either way.
  struct Case {
    const char* model;
    TargetOptions options;
    std::size_t n;
  };
  const std::vector<Case> cases = {
      {"s5_word_problem.json", target(CircuitTarget::boolean), 512},
      {"s5_word_problem.json", target(CircuitTarget::arithmetic), 256},
      {"dplr_d3.json", target(CircuitTarget::arithmetic), 1024},
      {"relu_counter.json", target(CircuitTarget::arithmetic), 1024},
      {"attention_most_recent_a.json", target(CircuitTarget::arithmetic), 256},
      {"attention_most_recent_a.json", target(CircuitTarget::threshold, 1), 256},
  };
  for (const Case& c : cases) {
    INFO(c.model << " n = " << c.n);
    const Model m = load_model(test::example(c.model));
    const CompileMemoryEstimate e = estimate_compile_memory(m, c.n, c.options);
    REQUIRE(e.bytes > 0);
    const CompiledCircuit built = compile_model(m, c.n, c.options);
    const std::uint64_t used = compiled_arena_bytes(built);
    CHECK(e.bytes >= used);
    CHECK(2 * e.arena_bytes >= used);
    CHECK(e.arena_bytes <= 2 * used);
  }
  // Too short to probe: no estimate (the gate budgets bound it).
  CHECK(estimate_compile_memory(load_model(test::example("dplr_d3.json")), 64,
                                target(CircuitTarget::arithmetic))
            .bytes == 0);
  // The refusal names the estimate, how it was made, and the option.
  TargetOptions tight = target(CircuitTarget::boolean);
  tight.compile.budget.max_memory_mib = 1;
  test::expect_input_error(
      [&] { compile_model(load_model(test::example("s5_word_problem.json")), 20000, tight); },
      "--max-memory", "compiling would take about ");
  test::expect_input_error(
      [&] { compile_model(load_model(test::example("s5_word_problem.json")), 20000, tight); },
      "--max-memory", "measured for compile_finite_state), more than the limit of 1 MiB");
}

TEST_CASE("the report's memory estimate scales with the arena, by circuit class",
          "[target][memory]") {
  const Model m = load_model(test::example("dplr_d3.json"));
  const CompiledCircuit arith = compile_model(m, 64, target(CircuitTarget::arithmetic));
  std::string detail;
  CHECK(estimate_report_memory(arith, &detail) == 3 * compiled_arena_bytes(arith));
  CHECK_THAT(detail, Catch::Contains("measured for arithmetic circuits"));
  const CompiledCircuit boolean = compile_model(load_model(test::example("s5_word_problem.json")),
                                                64, target(CircuitTarget::boolean));
  CHECK(estimate_report_memory(boolean) == 12 * compiled_arena_bytes(boolean));
}
