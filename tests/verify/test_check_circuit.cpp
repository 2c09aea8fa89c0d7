// Check circuits: for the WFA constructions (general, DPLR, DeltaNet) of the example WFAs, the
// DWFA → PD construction, matmul3 and the formula constructions, the check circuit evaluated
// exactly on EVERY string of each length gives X's output = f's output = target.value(w); a
// corrupted DPLR parameter and the flawed matmul3 schedule make the two outputs differ; the
// circuit has n·|Σ| inputs; the smallest scan is chosen (sequential for DPLR); constructions
// a check circuit cannot carry are refused with a reason.
#include <catch2/catch.hpp>

#include "algebra/exact.hpp"
#include "circuits/analysis.hpp"
#include "circuits/eval/evaluate.hpp"
#include "circuits/io/sexpr.hpp"
#include "constructions/barrington.hpp"
#include "constructions/ben_or_cleve.hpp"
#include "constructions/dwfa_pd.hpp"
#include "constructions/graph_walk.hpp"
#include "constructions/matmul3.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/families.hpp"
#include "rnn/model_json.hpp"
#include "tests/support.hpp"
#include "verify/check_circuit.hpp"

using namespace rnncc;

namespace {

const RationalField Q;

std::vector<Rational> one_hot(const std::vector<std::size_t>& w, std::size_t symbols) {
  std::vector<Rational> x(w.size() * symbols, Rational(0));
  for (std::size_t t = 0; t < w.size(); ++t) x[t * symbols + w[t]] = 1;
  return x;
}

// [X's output, f's output] of the check circuit on w.
std::vector<Rational> run(const CheckCircuit& cc, const std::vector<std::size_t>& w) {
  const auto x = one_hot(w, cc.symbols);
  return evaluate(cc.circuit, Q, std::span<const Rational>(x));
}

// Every string of length n: both outputs equal f(w).
void check_every_string(const Construction& c, std::size_t n) {
  INFO(c.name << ", n = " << n);
  std::string why;
  const auto cc = build_check_circuit(c, n, &why);
  INFO(why);
  REQUIRE(cc);
  CHECK(cc->n == n);
  CHECK(cc->symbols == c.target.alphabet.size());
  CHECK(cc->circuit.inputs().size() == n * c.target.alphabet.size());
  REQUIRE(cc->circuit.outputs().size() == 2);
  CHECK(cc->pairs == std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}});
  CHECK(cc->modulus == c.modulus);
  for (const auto& w : test::all_strings(c.target.alphabet.size(), n, n)) {
    const auto out = run(*cc, w);
    const Rational f = c.target.value(w);
    INFO("w = " << c.target.alphabet.join(w));
    CHECK(out[0] == f);
    CHECK(out[1] == f);
  }
}

}  // namespace

TEST_CASE("input forms are exact on one-hot inputs: forms(onehot(w)) = onehot(encode(w))",
          "[verify][check-circuit][constructions]") {
  std::vector<std::pair<Construction, std::size_t>> cases;  // construction, longest n
  for (const char* file : {"wfa_count_ab.att", "wfa_binary_value.att"})
    for (WfaFamily family : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet})
      cases.emplace_back(wfa_to_lrnn(load_wfa(test::example(file)), family), 4);
  cases.emplace_back(dwfa_to_pd(load_wfa(test::example("dwfa_mod3.att"))), 4);
  for (bool bos : {true, false}) {
    Matmul3Options o;
    o.init_on_bos = bos;
    cases.emplace_back(matmul3(o), 2);
    cases.emplace_back(matmul3_stacked(o), 2);
  }
  const Formula maj = load_formula(test::example("formula_majority3.sexp"));
  cases.emplace_back(barrington(maj), maj.variables);
  const Formula poly = load_formula(test::example("formula_poly.sexp"));
  cases.emplace_back(ben_or_cleve(poly, {Rational(0), Rational(1), Rational(-2, 3)}),
                     poly.variables);
  for (const auto& [c, longest] : cases) {
    INFO(c.name);
    REQUIRE(c.input_forms);
    const std::size_t S = c.target.alphabet.size(), SX = c.model.alphabet.size();
    const std::size_t lo = c.target.fixed_length.value_or(1);
    for (std::size_t n = lo; n <= longest; ++n) {
      const std::vector<InputSource> forms = c.input_forms(n);
      for (const auto& w : test::all_strings(S, n, n)) {
        const auto x = one_hot(w, S);
        const auto want = one_hot(c.encode(w), SX);
        REQUIRE(forms.size() == want.size());
        bool same = true;
        for (std::size_t i = 0; i < forms.size() && same; ++i) {
          Rational v = forms[i].constant;
          for (std::uint32_t var : forms[i].variables) v += x.at(var);
          same = v == want[i];
        }
        INFO("w = " << c.target.alphabet.join(w));
        CHECK(same);
      }
    }
  }
}

TEST_CASE("check circuits of the WFA constructions equal f on every string of length 1..5",
          "[verify][check-circuit]") {
  for (const char* file : {"wfa_count_ab.att", "wfa_binary_value.att"}) {
    const Wfa a = load_wfa(test::example(file));
    for (WfaFamily family : {WfaFamily::general, WfaFamily::dplr, WfaFamily::deltanet}) {
      const Construction c = wfa_to_lrnn(a, family);
      REQUIRE(c.input_forms);
      for (std::size_t n = 1; n <= 5; ++n) check_every_string(c, n);
    }
  }
}

TEST_CASE("check circuits of DWFA → PD equal f on every string of length 1..5",
          "[verify][check-circuit]") {
  const Construction c = dwfa_to_pd(load_wfa(test::example("dwfa_mod3.att")));
  REQUIRE(c.input_forms);
  for (std::size_t n = 1; n <= 5; ++n) check_every_string(c, n);
}

TEST_CASE("check circuits of matmul3 (BOS + 9 tokens per matrix) equal f up to length 3",
          "[verify][check-circuit]") {
  for (bool stacked : {false, true}) {
    Matmul3Options o;
    o.modulus = 29;
    const Construction c = stacked ? matmul3_stacked(o) : matmul3(o);
    REQUIRE(c.input_forms);
    for (std::size_t n = 1; n <= 3; ++n) check_every_string(c, n);  // exact, so mod 29 too
  }
}

TEST_CASE("check circuits of Barrington and Ben-Or–Cleve equal the formula on every assignment",
          "[verify][check-circuit]") {
  const Formula maj = load_formula(test::example("formula_majority3.sexp"));
  const Construction b = barrington(maj);
  REQUIRE(b.input_forms);
  check_every_string(b, maj.variables);

  const Formula poly = load_formula(test::example("formula_poly.sexp"));
  const Construction boc = ben_or_cleve(poly, {Rational(0), Rational(1), Rational(-2, 3)});
  REQUIRE(boc.input_forms);
  check_every_string(boc, poly.variables);
}

TEST_CASE("the check circuit has n·|Σ| inputs, named x[t,σ] in f's order",
          "[verify][check-circuit]") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  const Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
  const std::size_t S = a.alphabet.size();
  const std::size_t K = c.encode({0}).size();
  REQUIRE(K > 1);  // X reads K·n tokens over |Σ|·K symbols, the circuit only f's n·|Σ|
  for (std::size_t n : {1, 4, 9}) {
    const auto cc = build_check_circuit(c, n);
    REQUIRE(cc);
    CHECK(cc->circuit.inputs().size() == n * S);
    CHECK(cc->circuit.input_names().front() == "x[1," + a.alphabet.symbol(0) + "]");
    CHECK(cc->circuit.input_names().back() ==
          "x[" + std::to_string(n) + "," + a.alphabet.symbol(S - 1) + "]");
    CHECK(cc->circuit.output_names() == std::vector<std::string>{"X", "f"});
    // Only live gates: every gate but the inputs feeds an output.
    const auto live = live_table(cc->circuit);
    for (GateId g = 0; g < cc->circuit.size(); ++g)
      if (cc->circuit.kind(g) != GateKind::input) CHECK(live[g]);
  }
}

TEST_CASE("a corrupted DPLR parameter makes the check circuit's outputs differ",
          "[verify][check-circuit][negative]") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
  const auto& layer = std::get<LrnnLayer>(c.model.layers[0].layer);
  // Rebuild the layer from its DPLR parameters (D, a, b) with one entry of one a changed.
  LayerFrame frame{layer.d,           layer.m,
                   layer.features,    layer.initial_state,
                   layer.readout,     layer.readout_feature,
                   layer.readout_bias};
  std::vector<DplrStep> steps;
  for (std::size_t f = 0; f < layer.features; ++f) {
    const auto& p = std::get<DplrParams>(layer.record[f]);
    steps.push_back({p.D, p.a, p.b, layer.B[f]});
  }
  std::size_t corrupted = steps.size();
  for (std::size_t f = 0; f < steps.size() && corrupted == steps.size(); ++f)
    for (Rational& x : steps[f].a)
      if (x != 0) {  // a transvection I + c e_i e_jᵀ (a = −c e_i): change c
        x += 1;
        corrupted = f;
        break;
      }
  REQUIRE(corrupted < steps.size());
  INFO("corrupted sub-step " << c.model.alphabet.symbol(corrupted));
  c.model.layers[0].layer = make_dplr(std::move(frame), std::move(steps));
  const std::size_t K = c.encode({0}).size();
  CHECK_FALSE(check_factor_products(a, std::get<LrnnLayer>(c.model.layers[0].layer), K).ok);

  std::size_t differing = 0, strings = 0;
  for (std::size_t n = 1; n <= 5; ++n) {
    const auto cc = build_check_circuit(c, n);
    REQUIRE(cc);
    for (const auto& w : test::all_strings(a.alphabet.size(), n, n)) {
      const auto out = run(*cc, w);
      ++strings;
      differing += out[0] != out[1];
      CHECK(out[1] == c.target.value(w));  // f's side is untouched
      // X's side is the corrupted model, exactly (its reference evaluator agrees).
      CHECK(out[0] == evaluate(c.model, Q, c.encode(w)).outputs().back()(0, 0));
    }
  }
  INFO(differing << " of " << strings << " strings differ");
  CHECK(differing > 0);
}

TEST_CASE("the flawed matmul3 schedule gives differing outputs from length 3 on",
          "[verify][check-circuit][negative]") {
  Matmul3Options o;
  o.init_on_bos = false;
  const Construction c = matmul3(o);
  for (std::size_t n = 1; n <= 3; ++n) {
    const auto cc = build_check_circuit(c, n);
    REQUIRE(cc);
    std::size_t differing = 0;
    for (const auto& w : test::all_strings(c.target.alphabet.size(), n, n)) {
      const auto out = run(*cc, w);
      differing += out[0] != out[1];
    }
    if (n < 3)
      CHECK(differing == 0);
    else
      CHECK(differing > 0);
  }
}

TEST_CASE("the check circuit is built with the scan that gives the fewest gates",
          "[verify][check-circuit]") {
  const Wfa a = load_wfa(test::example("wfa_count_ab.att"));
  CompileOptions sequential, brent_kung;
  sequential.scan = ScanKind::sequential;
  brent_kung.scan = ScanKind::brent_kung;
  SECTION("DPLR: sequential (matrix–vector combines) beats Brent–Kung, with the same values") {
    const Construction c = wfa_to_lrnn(a, WfaFamily::dplr);
    for (std::size_t n : {4, 32}) {
      const auto seq = build_check_circuit(c, n, sequential);
      const auto tree = build_check_circuit(c, n, brent_kung);
      const auto best = build_check_circuit(c, n);
      REQUIRE(seq);
      REQUIRE(tree);
      REQUIRE(best);
      INFO("n = " << n << ": sequential " << seq->circuit.size() << " gates, brent-kung "
                  << tree->circuit.size());
      CHECK(seq->scan == ScanKind::sequential);
      CHECK(seq->circuit.size() < tree->circuit.size());
      CHECK(best->scan == ScanKind::sequential);
      CHECK(best->circuit.size() == seq->circuit.size());
      if (n == 4)
        for (const auto& w : test::all_strings(2, n, n)) CHECK(run(*seq, w) == run(*tree, w));
    }
  }
  SECTION("general: f is built from the WFA's weights, so only a right model shares its gates") {
    // f's circuit used to be compile_lrnn of the same general model, so X's output and f's were
    // one gate whatever the model. Now f comes from the WFA's weights (wfa_circuit): a right
    // model may still hash-cons into the same gates (the same polynomial, built the same way —
    // a proof of equality), a corrupted one may not.
    Construction c = wfa_to_lrnn(a, WfaFamily::general);
    const auto seq = build_check_circuit(c, 16, sequential);
    const auto best = build_check_circuit(c, 16);
    REQUIRE(seq);
    REQUIRE(best);
    CHECK(best->circuit.size() <= seq->circuit.size());
    std::get<LrnnLayer>(c.model.layers[0].layer).A[1](2, 1) = 2;  // M_b's 1→2 arc, doubled
    const auto broken = build_check_circuit(c, 4);
    REQUIRE(broken);
    CHECK(broken->circuit.outputs()[0] != broken->circuit.outputs()[1]);
    std::size_t differing = 0;
    for (const auto& w : test::all_strings(2, 4, 4)) {
      const auto out = run(*broken, w);
      differing += out[0] != out[1];
    }
    CHECK(differing > 0);
  }
}

TEST_CASE("constructions a check circuit cannot carry are refused with a reason",
          "[verify][check-circuit][diagnostics]") {
  std::string why;
  SECTION("no input forms") {
    Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::dplr);
    c.input_forms = nullptr;
    CHECK_FALSE(build_check_circuit(c, 3, &why));
    CHECK_THAT(why, Catch::Contains("input forms"));
  }
  SECTION("the embedding serves when input forms are not set") {
    Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::general);
    c.input_forms = nullptr;
    REQUIRE(c.embedding);
    CHECK(build_check_circuit(c, 3, &why));
  }
  SECTION("no target circuit") {
    Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::general);
    c.target.circuit = nullptr;
    CHECK_FALSE(build_check_circuit(c, 3, &why));
    CHECK_THAT(why, Catch::Contains("no circuit"));
  }
  SECTION("a promise") {
    Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::general);
    c.target.promise = [](const std::vector<std::size_t>&) { return true; };
    CHECK_FALSE(build_check_circuit(c, 3, &why));
    CHECK_THAT(why, Catch::Contains("promise"));
  }
  SECTION("a length outside a fixed-length domain") {
    const Construction c = barrington(load_formula(test::example("formula_majority3.sexp")));
    CHECK_FALSE(build_check_circuit(c, 2, &why));
    CHECK_THAT(why, Catch::Contains("length 3"));
    CHECK_THROWS_AS(c.input_forms(2), std::invalid_argument);
  }
  SECTION("non-LRNN layers") {
    Construction c = wfa_to_lrnn(load_wfa(test::example("wfa_count_ab.att")), WfaFamily::general);
    c.model = load_model(test::example("relu_counter.json"));
    CHECK_FALSE(build_check_circuit(c, 3, &why));
    CHECK_THAT(why, Catch::Contains("not an LRNN layer"));
  }
  SECTION("graph walk (the encoding's length depends on the instance)") {
    const Construction c = graph_walk(3, GraphWalkVariant::final_with_promise);
    CHECK_FALSE(c.input_forms);
    CHECK_FALSE(build_check_circuit(c, 4, &why));
    CHECK_FALSE(why.empty());
  }
}
