// The vocabulary every compiler shares (circuits/compile/common.hpp): one input layer named
// x[t,σ] in one order, one budget refusal, ⌈log₂⌉, the option parts. Checked across every route
// of compile_model, so a compiler that builds its own inputs or its own refusal shows up here.
#include <catch2/catch.hpp>
#include <optional>
#include <regex>
#include <string>

#include "algebra/error.hpp"
#include "circuits/compile/common.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

struct Route {
  const char* example;
  CircuitTarget target;
  std::optional<unsigned> log_c;
};

// One model per compiler compile_model routes to (target.hpp's table).
const Route kRoutes[] = {
    {"dplr_d3.json", CircuitTarget::arithmetic, std::nullopt},                   // compile_lrnn
    {"relu_counter.json", CircuitTarget::arithmetic, std::nullopt},              // nonlinear seq.
    {"hybrid_counter_attention.json", CircuitTarget::arithmetic, std::nullopt},  // attention arith
    {"s5_word_problem.json", CircuitTarget::boolean, std::nullopt},              // finite state
    {"dplr_d3.json", CircuitTarget::boolean, 1u},                                // lrnn boolean
    {"relu_counter.json", CircuitTarget::boolean, std::nullopt},                 // composed
    {"attention_most_recent_a.json", CircuitTarget::boolean, 1u},                // lowered thr
    {"majority_counter.json", CircuitTarget::threshold, std::nullopt},           // time-invariant
    {"attention_most_recent_a.json", CircuitTarget::threshold, 1u},              // unique-hard
};

TargetOptions options(const Route& r) {
  TargetOptions o;
  o.target = r.target;
  o.precision.log_c = r.log_c;
  return o;
}

}  // namespace

TEST_CASE("every compiler reads the one-hot inputs x[t,σ] in one order", "[circuits][common]") {
  std::size_t compilers = 0;
  for (const Route& r : kRoutes) {
    const Model m = load_model(test::example(r.example));
    const TargetOptions o = options(r);
    INFO(r.example << " " << to_string(r.target) << ": " << compiler_name(m, o));
    const std::size_t n = 3, S = m.alphabet.size();
    const Circuit c = compile_model(m, n, o).circuit;
    REQUIRE(c.inputs().size() == n * S);
    for (std::size_t t = 1; t <= n; ++t)
      for (std::size_t s = 0; s < S; ++s)
        REQUIRE(c.input_names()[(t - 1) * S + s] ==
                "x[" + std::to_string(t) + "," + m.alphabet.symbol(s) + "]");
    ++compilers;
  }
  REQUIRE(compilers == std::size(kRoutes));
}

TEST_CASE("every compiler refuses above its budget with one message shape",
          "[circuits][common][errors]") {
  const std::regex shape(
      "the circuit would have about [0-9]+ gates( \\([^)]*\\))?, more than the limit of ([0-9]+) "
      "\\(raise --max-gates to build it anyway\\)");
  for (const Route& r : kRoutes) {
    const Model m = load_model(test::example(r.example));
    TargetOptions o = options(r);
    INFO(r.example << " " << to_string(r.target) << ": " << compiler_name(m, o));
    const std::size_t n = 12;
    // The inputs alone fit (compile_model refuses n·|Σ| above the limit before any compiler),
    // the circuit does not: the compiler's own refusal is what is seen.
    o.compile.budget.max_gates = n * m.alphabet.size();
    const test::Diagnostic d = test::input_error_of([&] { (void)compile_model(m, n, o); });
    REQUIRE(d.where == "--max-gates");
    const std::string what = d.what.substr(d.what.find(": ") + 2);
    std::smatch match;
    REQUIRE(std::regex_match(what, match, shape));
    REQUIRE(match[2] == std::to_string(n * m.alphabet.size()));
  }
}

TEST_CASE("one budget default for every compiler", "[circuits][common]") {
  REQUIRE(kDefaultMaxGates == std::size_t{1} << 28);
  REQUIRE(Budget{}.max_gates == kDefaultMaxGates);
  REQUIRE(CompileOptions{}.budget.max_gates == kDefaultMaxGates);
  REQUIRE(TargetOptions{}.compile.budget.max_gates == kDefaultMaxGates);
  REQUIRE_NOTHROW(Budget{}.check(kDefaultMaxGates));
  REQUIRE_THROWS_WITH(Budget{.max_gates = 7}.check(8, "Q = 3"),
                      "--max-gates: the circuit would have about 8 gates (Q = 3), more than the "
                      "limit of 7 "
                      "(raise --max-gates to build it anyway)");
}

TEST_CASE("ceil_log2 and the input layer", "[circuits][common]") {
  const std::size_t want[] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4};
  for (std::size_t n = 0; n < std::size(want); ++n) REQUIRE(ceil_log2(n) == want[n]);
  REQUIRE(ceil_log2(std::size_t{1} << 40) == 40);
  REQUIRE(ceil_log2((std::size_t{1} << 40) + 1) == 41);
  CircuitBuilder b;
  const auto x = one_hot_inputs(b, 2, 3, {"a", "b"});  // the third symbol has no name
  const Circuit c = b.finish({x[1][2]}, {"y"});
  REQUIRE(c.input_names() ==
          std::vector<std::string>{"x[1,a]", "x[1,b]", "x[1,2]", "x[2,a]", "x[2,b]", "x[2,2]"});
  REQUIRE(x[1][2] == c.inputs()[5]);
}

TEST_CASE("precision parts: exact, log:C and a fixed format", "[circuits][common]") {
  Precision p;
  REQUIRE(p.exact());
  REQUIRE(to_string(p) == "exact");
  REQUIRE_THROWS_AS(p.format(8), std::logic_error);
  p = Precision::log(2);
  REQUIRE_FALSE(p.exact());
  REQUIRE(p.format(7).frac_bits == 6);  // 2·⌈log₂ 8⌉
  REQUIRE(p.format(7).int_bits == 6);   // I defaults to F
  p.int_bits = 3;
  REQUIRE(p.format(7).int_bits == 3);
  p.fixed = FixedFormat{5, 4, Rounding::toward_zero, Overflow::error};
  REQUIRE(p.format(1000).frac_bits == 5);  // a fixed format wins over log_c, for every n
  REQUIRE(p.format(1000).rounding == Rounding::toward_zero);
  REQUIRE(to_string(p) == "fixed:4.5");
}
