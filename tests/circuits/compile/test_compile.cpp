// Differential tests: the compiled circuit equals the reference semantics (rnn/evaluate.hpp) —
// every example, seeded random models of every family, every scan strategy; all strings up to
// length 6 (up to 4 exactly over Q with the acceptance test, 5 and 6 modulo a 61-bit prime),
// and random strings up to n = 256 modulo the prime.
#include <catch2/catch.hpp>

#include "algebra/exact.hpp"
#include "algebra/modp.hpp"
#include "circuits/compile/lrnn.hpp"
#include "circuits/eval/evaluate.hpp"
#include "rnn/evaluate.hpp"
#include "rnn/model_json.hpp"
#include "tests/random_models.hpp"

using namespace rnncc;
using namespace rnncc::test;

namespace {

std::vector<CompileOptions> all_strategies(bool chunked) {
  std::vector<CompileOptions> out;
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer}) {
    CompileOptions o;
    o.scan = k;
    out.push_back(o);
  }
  CompileOptions lf2;
  lf2.scan = ScanKind::ladner_fischer;
  lf2.scan.ladner_fischer_k = 2;
  out.push_back(lf2);
  CompileOptions dense;
  dense.structure = Structure::dense;
  dense.scan = ScanKind::sklansky;
  out.push_back(dense);
  if (chunked)
    for (std::size_t c : {1u, 3u, 4u}) {
      CompileOptions ch;
      ch.scan.chunk = c;
      out.push_back(ch);
    }
  return out;
}

std::string describe(const CompileOptions& o) {
  return to_string(o.scan) + (o.structure == Structure::dense ? "/dense" : "");
}

template <Domain K>
std::vector<typename K::Element> one_hot(const K& k, const std::vector<std::size_t>& w,
                                         std::size_t sigma) {
  std::vector<typename K::Element> x(w.size() * sigma, k.zero());
  for (std::size_t t = 0; t < w.size(); ++t) x[t * sigma + w[t]] = k.one();
  return x;
}

// Checks every output of `c` (all positions, then accept) against the model on `w`.
template <Domain K>
void check_against_model(const Model& model, const Circuit& c, const K& k,
                         const std::vector<std::size_t>& w, bool all_outputs, bool acceptance) {
  const auto trace = evaluate(model, k, w);
  const auto got =
      evaluate(c, k, std::span<const typename K::Element>(one_hot(k, w, model.alphabet.size())));
  std::size_t o = 0;
  for (std::size_t t = 0; t < w.size(); ++t) {
    if (!all_outputs && t + 1 != w.size()) continue;
    for (const auto& e : trace.outputs()[t].data()) REQUIRE(k.equal(got.at(o++), e));
  }
  if (acceptance) {
    auto acc = accepts(model.accept, k, trace.outputs().back());
    REQUIRE(acc.has_value());
    REQUIRE(k.equal(got.at(o++), *acc ? k.one() : k.zero()));
  }
  REQUIRE(o == got.size());
}

void all_strings(std::size_t sigma, std::size_t n,
                 const std::function<void(const std::vector<std::size_t>&)>& f) {
  std::vector<std::size_t> w(n, 0);
  while (true) {
    f(w);
    std::size_t i = 0;
    while (i < n && ++w[i] == sigma) w[i++] = 0;
    if (i == n) return;
  }
}

}  // namespace

TEST_CASE("every LRNN example: circuit = model on all strings up to length 6",
          "[circuits][compile][differential]") {
  RationalField Q;
  for (const char* name : {"parity_deltanet.json", "binary_value_wfa.json", "mamba_diagonal.json",
                           "s5_word_problem.json", "gated_deltanet.json", "rwkv7_overwrite.json"}) {
    Model model = load_model(example(name));
    const bool deltanet = std::get<LrnnLayer>(model.layers[0].layer).family == Family::deltanet;
    for (CompileOptions o : all_strategies(deltanet)) {
      for (std::size_t n = 1; n <= 6; ++n) {
        for (OutputMode mode : {OutputMode::last, OutputMode::all}) {
          o.outputs = mode;
          INFO(name << " " << describe(o) << " n=" << n);
          Circuit c = compile_lrnn(model, n, o).circuit;
          all_strings(model.alphabet.size(), n, [&](const std::vector<std::size_t>& w) {
            check_against_model(model, c, Q, w, mode == OutputMode::all, true);
          });
        }
      }
    }
  }
}

TEST_CASE("random models of every family: circuit = model, exact and mod p",
          "[circuits][compile][differential]") {
  std::mt19937_64 rng(2026);
  RationalField Q;
  ModP F(2305843009213693951ull);
  for (Family family : all_families) {
    for (int trial = 0; trial < 3; ++trial) {
      const std::size_t d = 1 + trial, m = 1 + rng() % 2, sigma = 2 + rng() % 2;
      Model model = single_layer_model(random_layer(rng, family, d, m, sigma), sigma);
      for (CompileOptions o : all_strategies(family == Family::deltanet)) {
        INFO(to_string(family) << " d=" << d << " m=" << m << " |Σ|=" << sigma << " "
                               << describe(o));
        o.outputs = OutputMode::all;
        for (std::size_t n = 1; n <= 4; ++n) {  // every string, exactly
          Circuit c = compile_lrnn(model, n, o).circuit;
          all_strings(sigma, n, [&](const std::vector<std::size_t>& w) {
            check_against_model(model, c, Q, w, true, true);
          });
        }
        o.acceptance = false;                   // positivity has no meaning mod p
        for (std::size_t n = 5; n <= 6; ++n) {  // every string of length 5 and 6, mod p
          Circuit c = compile_lrnn(model, n, o).circuit;
          all_strings(sigma, n, [&](const std::vector<std::size_t>& w) {
            check_against_model(model, c, F, w, true, false);
          });
        }
        for (std::size_t n : {7u, 33u, 100u, 256u}) {
          o.outputs = n == 33 ? OutputMode::all : OutputMode::last;
          Circuit c = compile_lrnn(model, n, o).circuit;
          for (int r = 0; r < 3; ++r)
            check_against_model(model, c, F, random_input(rng, n, sigma), n == 33, false);
        }
      }
    }
  }
}

TEST_CASE("stacked LRNN layers compile through the input map",
          "[circuits][compile][differential]") {
  std::mt19937_64 rng(77);
  RationalField Q;
  for (int trial = 0; trial < 5; ++trial) {
    LrnnLayer first = random_layer(rng, Family::dplr, 2, 1, 2);
    LrnnLayer second = random_layer(rng, Family::gla, 2, 1, 3);
    Model model = single_layer_model(first, 2);
    model.layers.push_back({InputMap{random_matrix(rng, 3, 2), random_matrix(rng, 3, 1)}, second});
    for (CompileOptions o : all_strategies(false))
      for (std::size_t n = 1; n <= 5; ++n) {
        Circuit c = compile_lrnn(model, n, o).circuit;
        all_strings(2, n, [&](const std::vector<std::size_t>& w) {
          check_against_model(model, c, Q, w, false, true);
        });
      }
  }
}

TEST_CASE("compile_lrnn diagnostics", "[circuits][compile][diagnostics]") {
  Model parity = load_model(example("parity_deltanet.json"));
  CompileOptions o;
  CHECK_THROWS_WITH(compile_lrnn(parity, 0, o), Catch::Contains("n ≥ 1"));
  o.budget.max_gates = 10;
  CHECK_THROWS_WITH(compile_lrnn(parity, 100, o),
                    Catch::Contains("would have about") && Catch::Contains("--max-gates"));
  Model relu = load_model(example("relu_counter.json"));
  CHECK_THROWS_WITH(compile_lrnn(relu, 4, CompileOptions{}), Catch::Contains("elman/relu"));
  CompileOptions chunked;
  chunked.scan.chunk = 4;
  CHECK_THROWS_WITH(compile_lrnn(load_model(example("mamba_diagonal.json")), 4, chunked),
                    Catch::Contains("chunked"));
  CHECK_THROWS_WITH(parse_scan("brent-kunk"), Catch::Contains("expected sequential"));
  CHECK_THROWS_WITH(parse_scan("chunked:0"), Catch::Contains("1..4096"));
  const Scan lf = parse_scan("ladner-fischer:3");
  CHECK(lf.kind == ScanKind::ladner_fischer);
  CHECK(lf.ladner_fischer_k == 3);
  CHECK(parse_scan("chunked:16").chunk == 16);
  // to_string spells what parse_scan reads.
  for (const char* text : {"sequential", "sklansky", "kogge-stone", "brent-kung", "ladner-fischer",
                           "ladner-fischer:3", "chunked:16"})
    CHECK(to_string(parse_scan(text)) == text);
}

TEST_CASE("regions tag every gate, combine levels follow the network", "[circuits][compile]") {
  Model model = load_model(example("binary_value_wfa.json"));
  CompileOptions o;
  o.scan = ScanKind::kogge_stone;
  CompiledCircuit cc = compile_lrnn(model, 16, o);
  const auto table = cc.region_table();
  REQUIRE(table.size() == cc.circuit.size());
  for (GateId g = 0; g < cc.circuit.size(); ++g) REQUIRE(cc.region_of(g) == table[g]);
  CHECK(cc.combine_levels == 4);
  std::size_t combines = 0;
  for (const Region& r : cc.regions) combines += r.kind == RegionKind::combine;
  CHECK(combines == prefix_node_count(ScanKind::kogge_stone, 16));
  for (GateId in : cc.circuit.inputs())
    CHECK(cc.regions[cc.region_of(in)].kind == RegionKind::input);
  CHECK(cc.regions[cc.region_of(cc.circuit.outputs().back())].kind == RegionKind::accept);
}
