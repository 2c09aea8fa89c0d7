// eval --against (verify/circuit_against_model.hpp): a compiled circuit against the function of
// its precision and scan — differential over every family and scan, a mutated circuit refuted with
// its first difference, and a diagnostic for every input it refuses.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "algebra/error.hpp"
#include "circuits/compile/lrnn_boolean.hpp"
#include "circuits/compile/target.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/circuit_against_model.hpp"

using namespace rnncc;

namespace {

TargetOptions boolean_target(ScanKind scan, unsigned log_c = 1) {
  TargetOptions t;
  t.target = CircuitTarget::boolean;
  t.precision = Precision::log(log_c);
  t.compile.scan = Scan(scan);
  return t;
}

AgainstModelOptions against(const TargetOptions& t, std::size_t strings = 64) {
  AgainstModelOptions o;
  o.target = t;
  o.strings = strings;
  o.seed = 7;
  o.threads = 1;
  return o;
}

}  // namespace

TEST_CASE(
    "a boolean circuit equals the scan-rounded function of its own scan, against another "
    "scan it is refuted and the report names the scans it does equal",
    "[verify][against_model]") {
  std::mt19937_64 rng(2028);
  const ScanKind scans[] = {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                            ScanKind::brent_kung, ScanKind::ladner_fischer};
  std::size_t refuted = 0;
  for (Family family : test::all_families) {
    const Model model =
        test::random_single_layer_model(rng, family, 2, family == Family::deltanet ? 2 : 1, 2);
    for (ScanKind scan : scans) {
      INFO("family " << static_cast<int>(family) << ", scan " << to_string(scan));
      const std::size_t n = 6;
      TargetOptions t = boolean_target(scan);
      t.compile.outputs = OutputMode::all;
      const CompiledCircuit c = compile_as_written(model, n, t);
      AgainstModelOptions own = against(t);
      own.exhaustive = true;  // 2^6 strings: every input the circuit has
      const AgainstModelReport r = check_circuit_against_model(c.circuit, model, own);
      CHECK(r.kind == "boolean");
      CHECK(r.length == n);
      CHECK(r.strings == 64);
      CHECK(r.differing == 0);
      CHECK(r.verdict() == "proved");
      // Against the sequential rule: refuted exactly when the scan-rounded functions differ on
      // some string (scan_disagreement counts it independently, on its own strings).
      const AgainstModelReport s = check_circuit_against_model(
          c.circuit, model, against(boolean_target(ScanKind::sequential), 200));
      BooleanLrnnOptions bo;
      bo.precision = Precision::log(1);
      bo.scan = Scan(scan);
      bo.outputs = OutputMode::all;
      if (s.differing > 0) {
        ++refuted;
        CHECK(scan != ScanKind::sequential);
        CHECK(s.verdict() == "refuted");
        REQUIRE(s.first);
        CHECK(s.first->circuit != s.first->reference);
        CHECK(std::find(s.agreeing_scans.begin(), s.agreeing_scans.end(), to_string(scan)) !=
              s.agreeing_scans.end());
        // The first differing string's reference value is what `run --scan sequential` prints.
        PrecisionSpec log1;
        log1.kind = PrecisionSpec::Kind::log;
        log1.log_c = 1;
        const RunReport seq = run_model(model, s.first->input, "input", log1);
        CHECK((seq.positions.size() == n));
      } else {
        CHECK(s.verdict() == "tested");
      }
    }
  }
  CHECK(refuted > 0);  // some tree scan differs from the sequential rule: not vacuous
}

TEST_CASE(
    "an exact arithmetic circuit equals the model's exact run, a mutated circuit is "
    "refuted at its first differing string",
    "[verify][against_model]") {
  std::mt19937_64 rng(2029);
  for (Family family : test::all_families) {
    INFO("family " << static_cast<int>(family));
    const Model model = test::random_single_layer_model(rng, family, 2, 1, 2);
    TargetOptions t;
    t.compile.outputs = OutputMode::all;
    const CompiledCircuit c = compile_as_written(model, 5, t);
    AgainstModelOptions o = against(t);
    o.exhaustive = true;
    const AgainstModelReport r = check_circuit_against_model(c.circuit, model, o);
    CHECK(r.kind == "arithmetic");
    CHECK(r.strings == 32);
    CHECK(r.differing == 0);
    CHECK(r.verdict() == "proved");
  }
  // Two outputs of a boolean circuit swapped (bits 0 and 1 of the last y entry): refuted on the
  // strings where those bits differ, and the report's values are the circuit's and the run's.
  const Model dplr = load_model(test::example("dplr_d3.json"));
  const TargetOptions t = boolean_target(ScanKind::brent_kung);
  CompiledCircuit c = compile_as_written(dplr, 8, t);
  std::vector<GateId> outs = c.circuit.outputs();
  std::vector<std::string> names = c.circuit.output_names();
  REQUIRE(names.at(0) == "y[8][0][0].b[0]");
  REQUIRE(names.at(1) == "y[8][0][0].b[1]");
  std::swap(outs[0], outs[1]);
  c.circuit.set_outputs(outs, names);
  AgainstModelOptions o = against(t);
  o.exhaustive = true;
  const AgainstModelReport r = check_circuit_against_model(c.circuit, dplr, o);
  CHECK(r.verdict() == "refuted");
  CHECK(r.differing > 0);
  CHECK(r.differing < r.strings);  // only where the two bits differ
  REQUIRE(r.first);
  CHECK(r.first->output == "y[8][0][0]");
  // The reference value is the scan-rounded run's, as `run --scan brent-kung` prints it.
  PrecisionSpec log1;
  log1.kind = PrecisionSpec::Kind::log;
  log1.log_c = 1;
  const RunReport want =
      run_with_scan(dplr, r.first->input, "input", log1, Scan(ScanKind::brent_kung));
  CHECK(want.positions.back().output[0][0] == r.first->reference);
  CHECK(r.first->circuit != r.first->reference);
  CHECK(r.agreeing_scans.empty());  // no scan's function has two bits swapped
}

TEST_CASE("eval --against refuses what it cannot check, naming the option",
          "[verify][against_model]") {
  const Model dplr = load_model(test::example("dplr_d3.json"));
  const Model relu = load_model(test::example("relu_counter.json"));
  const TargetOptions t = boolean_target(ScanKind::brent_kung);
  const CompiledCircuit c = compile_as_written(dplr, 8, t);
  // The wrong precision: log:2 gives wider words than the circuit's.
  test::expect_input_error(
      [&] {
        check_circuit_against_model(c.circuit, dplr,
                                    against(boolean_target(ScanKind::brent_kung, 2)));
      },
      "--precision", "the circuit's outputs have 9 bits");
  // An arithmetic circuit is checked over Q only.
  const CompiledCircuit a = compile_as_written(dplr, 4, TargetOptions{});
  test::expect_input_error([&] { check_circuit_against_model(a.circuit, dplr, against(t)); },
                           "--precision", "over Q");
  // Another model's alphabet: 3 symbols do not divide 16 inputs.
  Model three = dplr;
  three.alphabet = Alphabet({"a", "b", "c"}, "test");
  test::expect_input_error([&] { check_circuit_against_model(c.circuit, three, against(t)); },
                           "--against", "one-hot inputs");
  // Renamed inputs.
  CircuitBuilder b;
  std::vector<GateId> in;
  for (int k = 0; k < 4; ++k) in.push_back(b.input("i" + std::to_string(k)));
  const Circuit renamed = b.finish({in[0]}, {"accept"});
  test::expect_input_error([&] { check_circuit_against_model(renamed, dplr, against(t)); },
                           "--against", "x[1,0]");
  // No output to compare (only `valid`): refused, not vacuously proved.
  CircuitBuilder v;
  std::vector<GateId> vin;
  for (std::size_t k = 0; k < 4; ++k)
    vin.push_back(v.input(fmt::format("x[{},{}]", k / 2 + 1, dplr.alphabet.symbol(k % 2))));
  const Circuit only_valid = v.finish({vin[0]}, {"valid"});
  test::expect_input_error([&] { check_circuit_against_model(only_valid, dplr, against(t)); },
                           "--against", "no output");
  // Every string of Σ^n above the cap.
  AgainstModelOptions big = against(t);
  big.exhaustive = true;
  big.max_strings = 100;
  test::expect_input_error([&] { check_circuit_against_model(c.circuit, dplr, big); },
                           "--exhaustive", "--batch");
  // A model the LRNN boolean route does not compile (an Elman layer: the finite-state route).
  CircuitBuilder e;
  std::vector<GateId> ein;
  for (std::size_t k = 0; k < 2 * relu.alphabet.size(); ++k)
    ein.push_back(e.input(fmt::format("x[{},{}]", k / relu.alphabet.size() + 1,
                                      relu.alphabet.symbol(k % relu.alphabet.size()))));
  const Circuit elman = e.finish({ein[0]}, {"accept"});
  test::expect_input_error([&] { check_circuit_against_model(elman, relu, against(t)); },
                           "--against", "LRNN route");
}
