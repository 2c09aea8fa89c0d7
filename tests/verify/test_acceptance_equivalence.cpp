// equiv --compare accept (verify/acceptance_equivalence.hpp) and symbols matched by name
// (verify/equivalence_report.hpp), against plain twins: acceptance evaluated string by string.
#include <catch2/catch.hpp>

#include <random>

#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/acceptance_equivalence.hpp"
#include "verify/certificate.hpp"
#include "verify/equivalence_report.hpp"

using namespace rnncc;

namespace {

// The binary-value model (v' = 2v + b over {0, 1}) with readout y = c·v + k, accepting y > 0
// (or y = 0).
SubjectFile binary_value(const std::string& c, const std::string& k, bool zero = false,
                         bool reversed = false) {
  const std::string a0 = R"("0": { "A": [["2", "0"], ["0", "1"]] })";
  const std::string a1 = R"("1": { "A": [["2", "1"], ["0", "1"]] })";
  const std::string text =
      R"({"format": "rnncc-model/1", "name": "bv", "alphabet": )" +
      std::string(reversed ? R"(["1", "0"])" : R"(["0", "1"])") +
      R"(, "layers": [{"kind": "lrnn", "family": "general", "d": 2, "initial_state": ["0", "1"],
          "symbols": {)" +
      a0 + ", " + a1 + R"(}, "readout": [[")" + c + R"(", ")" + k + R"("]]}],
        "accept": {"mode": ")" +
      (zero ? "zero" : "positive") + R"("}})";
  return parse_subject_file(text, "bv.json");
}

// Plain twin: the shortest, lex-least word of length ≤ L accepted by exactly one.
std::optional<std::vector<std::size_t>> first_disagreement(const SubjectFile& a,
                                                           const SubjectFile& b, std::size_t L) {
  const LinearRepresentation ra = subject_representation(a), rb = subject_representation(b);
  const auto accept = [](const SubjectFile& s, const Rational& y) {
    return std::get<Model>(s.content).accept.mode == Acceptance::Mode::zero ? y == 0 : y > 0;
  };
  for (std::size_t n = 1; n <= L; ++n)
    for (const auto& w : test::all_strings(2, n, n))
      if (accept(a, evaluate_prefixes(ra, w).back()[0]) !=
          accept(b, evaluate_prefixes(rb, w).back()[0]))
        return w;
  return std::nullopt;
}

}  // namespace

TEST_CASE(
    "compare accept: equal outputs prove it, different outputs only test it, a shift refutes") {
  const SubjectFile v = binary_value("1", "0");
  // Twice the value: different outputs, the same accepted strings — not decidable here: tested.
  const SubjectFile twice = binary_value("2", "0");
  AcceptanceParams p;
  p.max_length = 6;
  AcceptanceResult r = decide_acceptance(v, twice, equivalence_inputs(v, twice, "auto"), p);
  REQUIRE(r.verdict == "tested");
  REQUIRE(r.outputs_equal == false);
  REQUIRE(r.searched_up_to == 6);
  REQUIRE(r.strings_searched == 126);  // 2 + 4 + … + 64
  REQUIRE(!first_disagreement(v, twice, 6));
  // The same model: equal outputs, proved.
  r = decide_acceptance(v, v, equivalence_inputs(v, v, "auto"), p);
  REQUIRE(r.verdict == "proved");
  REQUIRE_THAT(r.method, Catch::Contains("imply equal acceptance"));
  // y = v − 1: "1" has v = 1 → y = 0, rejected; the shortest disagreement, as the twin finds.
  for (const auto& [c, k] : {std::pair{"1", "-1"}, std::pair{"1", "-5"}, std::pair{"-1", "3"}}) {
    const SubjectFile shifted = binary_value(c, k);
    r = decide_acceptance(v, shifted, equivalence_inputs(v, shifted, "auto"), p);
    const auto twin = first_disagreement(v, shifted, 6);
    INFO(c << " " << k);
    REQUIRE(twin);
    REQUIRE(r.verdict == "refuted");
    REQUIRE(r.counterexample->input == *twin);
    REQUIRE(r.accepts.first != r.accepts.second);
  }
  // Same outputs, different rules (y > 0 against y = 0): equal outputs do not decide it.
  const SubjectFile zero = binary_value("1", "0", true);
  r = decide_acceptance(v, zero, equivalence_inputs(v, zero, "auto"), p);
  REQUIRE(r.verdict == "refuted");
  REQUIRE(r.counterexample->input == *first_disagreement(v, zero, 6));
  // Too long a search: refused before it starts.
  p.max_length = 40;
  test::expect_input_error(
      [&] { decide_acceptance(v, twice, equivalence_inputs(v, twice, "auto"), p); },
      "--accept-length", "over 2^24");
}

TEST_CASE("compare accept: finite-state models are decided by the product search") {
  // Parity-like WFAs over {a, b}: f = 1 on even |w|_b, −1 on odd; g = 5 and −2: different
  // outputs, the same accepted strings (y > 0) — proved; g' = −1 and 1 swapped — refuted at "a".
  auto wfa = [](const std::string& even, const std::string& odd) {
    return parse_subject_file("0 0 a\n0 1 b\n1 1 a\n1 0 b\n0 " + even + "\n1 " + odd + "\n",
                              "p.att");
  };
  const SubjectFile f = wfa("1", "-1"), g = wfa("5", "-2"), h = wfa("-1", "1");
  const EquivalenceInputs in = equivalence_inputs(f, g, "auto");
  AcceptanceResult r = decide_acceptance(f, g, in, {});
  REQUIRE(r.verdict == "proved");
  REQUIRE_THAT(r.method, Catch::Contains("over the accept verdicts"));
  r = decide_acceptance(f, h, equivalence_inputs(f, h, "auto"), {});
  REQUIRE(r.verdict == "refuted");
  REQUIRE(r.counterexample->input == std::vector<std::size_t>{0});
}

TEST_CASE("equiv matches symbols by name: a reordered alphabet is permuted, not refused") {
  const SubjectFile v = binary_value("1", "0"), r = binary_value("1", "0", false, true);
  const EquivalenceInputs in = equivalence_inputs(v, r, "auto");
  REQUIRE(in.reordered);
  REQUIRE(in.g->symbols == in.f->symbols);
  REQUIRE(decide_equivalence(*in.f, *in.g).equivalent);
  // Matched by position instead, the same files differ ("1" read as "0").
  LinearRepresentation by_position = subject_representation(r);
  by_position.symbols = in.f->symbols;
  REQUIRE(!decide_equivalence(*in.f, by_position).equivalent);
  // The product search permutes too (the parity WFAs, one with its alphabet read as {b, a}).
  const SubjectFile p = parse_subject_file("0 0 a\n0 1 b\n1 1 a\n1 0 b\n0 1\n1 -1\n", "p.att");
  const SubjectFile q = parse_subject_file("0 1 b\n0 0 a\n1 1 a\n1 0 b\n0 1\n1 -1\n", "q.att");
  const EquivalenceInputs pm = equivalence_inputs(p, q, "product");
  REQUIRE(pm.reordered);
  REQUIRE(pm.mg->symbols == pm.mf->symbols);
  REQUIRE(decide_finite_equivalence(*pm.mf, *pm.mg).equivalent);
  // Different symbol sets: refused, naming the symbols only one side has.
  const SubjectFile other = parse_subject_file("0 0 a\n0 0 1\n0 1\n", "o.att");
  test::expect_input_error([&] { equivalence_inputs(v, other, "auto"); }, "",
                           "only in A: {0}, only in B: {a}");
}
