// GPU == CPU, bit for bit: the CUDA kernels (circuits/eval/cuda/) against the CPU twin of the
// device program (circuits/eval/program.hpp), which tests/circuits/eval/test_program.cpp checks
// against the plain evaluators. Random circuits of every gate kind, every compiled LRNN family
// of the examples, the EPFL circuits. Labelled `gpu`; without a device every test prints
// "SKIPPED: <reason>" and ctest reports it as skipped.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "circuits/compile/lrnn.hpp"
#include "circuits/compile/target.hpp"
#include "circuits/eval/bitparallel.hpp"
#include "circuits/eval/bulk.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/io/aiger.hpp"
#include "constructions/wfa.hpp"
#include "constructions/wfa_to_lrnn.hpp"
#include "rnn/model_json.hpp"
#include "tests/circuits/eval/trial_patterns.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/gpu/gpu_testing.hpp"
#include "tests/random_models.hpp"
#include "tests/support.hpp"
#include "verify/device_check.hpp"

using namespace rnncc;

namespace {

using test::device;

void require_same(const ProgramResult& g, const ProgramResult& c) {
  test::require_same_digest(g, c);
}

// The repository root: RNNCC_SOURCE_DIR from the environment (the device machine runs a copy
// of the tree elsewhere), else where it was built.
std::filesystem::path source_dir() {
  const char* env = std::getenv("RNNCC_SOURCE_DIR");
  return env ? std::filesystem::path(env) : std::filesystem::path(RNNCC_SOURCE_DIR);
}

const std::vector<std::uint32_t> kPrimes = {2147483647u, 2147483629u, 2147483587u};

}  // namespace

TEST_CASE("GPU boolean kernel equals the CPU twin on random circuits of every kind", "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(101);
  for (int trial = 0; trial < 12; ++trial) {
    const Circuit c = testing::random_boolean_circuit(rng, 5 + trial, 300 + 50 * trial, 8);
    for (auto [threads, words] :
         std::vector<std::pair<std::uint32_t, std::uint32_t>>{{32, 1}, {128, 1}, {64, 2}}) {
      for (std::uint32_t capacity :
           {4u, gpu::slot_capacity(device(), true, false, threads, 1, words)}) {
        ProgramOptions po;
        po.slot_capacity = capacity;
        po.compare_pairs = {{0, 1}, {2, 2}, {3, 7}};
        const Program p = lower_program(c, po);
        RunOptions ro;
        ro.patterns = testing::boolean_trial_patterns(trial, c.inputs().size(), 64 * 300 - 5);
        ro.store = true;
        gpu::LaunchConfig lc;
        lc.threads = threads;
        lc.words_per_thread = words;
        const ProgramResult g = gpu::run_program_gpu(p, ro, lc);
        const ProgramResult cpu = run_program(p, ro);
        require_same(g, cpu);
        if (!g.first_mismatches.empty()) {  // samples are mismatching patterns
          RunOptions one = ro;
          for (std::uint64_t s : g.first_mismatches) {
            one.patterns.first = s / 64 * 64;
            one.patterns.count = 64;
            const ProgramResult r = run_program(p, one);
            const bool found = std::find(r.first_mismatches.begin(), r.first_mismatches.end(), s) !=
                               r.first_mismatches.end();
            REQUIRE(found);
          }
        }
      }
    }
  }
}

TEST_CASE("GPU arithmetic kernel equals the CPU twin mod several primes, shadow included",
          "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(102);
  for (int trial = 0; trial < 12; ++trial) {
    const Circuit c = testing::random_arithmetic_circuit(rng, 2 * (3 + trial % 4), 150, 6);
    for (bool shadow : {false, true}) {
      ProgramOptions po;
      po.slot_capacity =
          trial % 3 == 0 ? 5 : gpu::slot_capacity(device(), false, shadow, 128, kPrimes.size());
      po.compare_pairs = {{0, 1}, {4, 4}, {2, 5}};
      const Program p = lower_program(c, po);
      RunOptions ro;
      ro.primes = kPrimes;
      ro.magnitude = shadow;
      ro.store = true;
      const std::uint32_t L = static_cast<std::uint32_t>(c.inputs().size() / 2);
      ro.patterns = testing::arithmetic_trial_patterns(trial, L, 5, 3000, true);
      require_same(gpu::run_program_gpu(p, ro), run_program(p, ro));
    }
  }
}

TEST_CASE("GPU chunked launches equal one launch", "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(103);
  const Circuit bc = testing::random_boolean_circuit(rng, 12, 400, 4);
  ProgramOptions po;
  po.compare_pairs = {{0, 1}};
  const Program bp = lower_program(bc, po);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_exhaustive, 0, 2, 0, 0, 4096};
  ro.store = true;
  gpu::LaunchConfig small;
  small.chunk_patterns = 640;
  require_same(gpu::run_program_gpu(bp, ro, small), gpu::run_program_gpu(bp, ro));
  small.words_per_thread = 2;  // chunks of 10 words: the last unit of two words is half empty
  require_same(gpu::run_program_gpu(bp, ro, small), run_program(bp, ro));
  small.words_per_thread = 1;
  const Circuit ac = testing::random_arithmetic_circuit(rng, 10, 200, 3);
  po.slot_capacity = gpu::slot_capacity(device(), false, true, 128, kPrimes.size());
  const Program ap = lower_program(ac, po);
  RunOptions aro;
  aro.primes = kPrimes;
  aro.magnitude = true;
  aro.store = true;
  aro.patterns = {patterns::Mode::strings_exhaustive, 0, 2, 5, 0, 32};
  small.chunk_patterns = 64;
  aro.patterns = {patterns::Mode::strings_random, 9, 2, 5, 0, 1000};
  require_same(gpu::run_program_gpu(ap, aro, small), run_program(ap, aro));
}

TEST_CASE("GPU evaluation of every compiled example family equals the CPU twin", "[gpu]") {
  REQUIRE_DEVICE();
  const std::filesystem::path dir = source_dir() / "examples";
  std::size_t compiled = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json" ||
        e.path().filename().string().find(".wfa.") != std::string::npos)
      continue;
    Model m;
    try {
      m = load_model(e.path().string());
    } catch (const std::exception&) {
      continue;  // not a model file
    }
    CompileOptions co;
    co.acceptance = false;
    co.outputs = OutputMode::all;
    CompiledCircuit cc;
    try {
      cc = compile_lrnn(m, 5, co);
    } catch (const std::exception&) {
      continue;  // non-LRNN layers
    }
    INFO(e.path().filename().string());
    ProgramOptions po;
    po.slot_capacity = gpu::slot_capacity(device(), false, true, 128, kPrimes.size());
    const Program p = lower_program(cc.circuit, po);
    RunOptions ro;
    ro.primes = kPrimes;
    ro.store = true;
    ro.magnitude = true;
    ro.patterns = {patterns::Mode::strings_exhaustive,
                   0,
                   static_cast<std::uint32_t>(m.alphabet.size()),
                   5,
                   0,
                   1};
    for (std::uint32_t t = 0; t < 5; ++t) ro.patterns.count *= ro.patterns.radix;
    ro.patterns.count = std::min<std::uint64_t>(ro.patterns.count, 20000);
    require_same(gpu::run_program_gpu(p, ro), run_program(p, ro));
    ++compiled;
  }
  REQUIRE(compiled >= 5);
}

TEST_CASE("GPU evaluation of the EPFL circuits equals bit-parallel CPU evaluation", "[gpu]") {
  REQUIRE_DEVICE();
  const char* env = std::getenv("RNNCC_EPFL_DIR");
  const std::filesystem::path dir =
      env ? std::filesystem::path(env) : source_dir() / "tests" / "data" / "epfl";  // 13 shipped
  if (!std::filesystem::exists(dir))
    RNNCC_SKIP("the EPFL circuits are not at " << dir.string() << " (set RNNCC_EPFL_DIR)");
  // Every .aig the folder holds (13 shipped; the whole suite, 20, where RNNCC_EPFL_DIR names it).
  std::size_t held = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    held += e.path().extension() == ".aig";
  REQUIRE(held > 0);
  std::size_t checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".aig") continue;
    INFO(e.path().filename().string());
    const Circuit c = load_aiger(e.path().string());
    ProgramOptions po;
    po.slot_capacity = gpu::slot_capacity(device(), true, false, 128);
    const Program p = lower_program(c, po);
    RunOptions ro;
    ro.patterns = {patterns::Mode::bits_random, 7, 2, 0, 0, 64 * 64};
    ro.store = true;
    const ProgramResult g = gpu::run_program_gpu(p, ro);
    // Against the bit-parallel evaluator, word by word.
    const std::size_t ni = c.inputs().size(), no = c.outputs().size();
    std::vector<bits::Word> in(64 * ni);
    for (std::uint64_t w = 0; w < 64; ++w)
      for (std::uint32_t i = 0; i < ni; ++i)
        in[w * ni + i] = patterns::bool_word(ro.patterns, w, i);
    const auto expect = evaluate_bits_batch(c, in);
    REQUIRE(g.stored.size() == expect.size());
    for (std::size_t k = 0; k < expect.size(); ++k) REQUIRE(g.stored[k] == expect[k]);
    (void)no;
    ++checked;
  }
  REQUIRE(checked == held);
}

TEST_CASE("GPU device checks of constructions equal the CPU twin's", "[gpu]") {
  REQUIRE_DEVICE();
  const Wfa a = load_wfa((source_dir() / "examples" / "wfa_count_ab.att").string());
  Construction good = wfa_to_lrnn(a, WfaFamily::dplr);
  Construction bad = good;
  auto& layer = std::get<LrnnLayer>(bad.model.layers[0].layer);
  layer.A[layer.features - 1](0, 0) += 1;  // a wrong DPLR factor
  for (const Construction* c : {&good, &bad}) {
    for (std::size_t n : {3u, 8u, 13u}) {
      for (bool exhaustive : {true, false}) {
        DeviceCheckOptions o;
        o.length = n;
        o.exhaustive = exhaustive;
        o.random = 5000;
        o.seed = n;
        o.device = CheckDevice::gpu;
        const DeviceCheckReport g = device_check(*c, o);
        o.device = CheckDevice::cpu;
        const DeviceCheckReport cpu = device_check(*c, o);
        INFO((c == &good ? "good" : "bad")
             << " n = " << n << (exhaustive ? " exhaustive" : " random"));
        REQUIRE(g.strings == cpu.strings);
        REQUIRE(g.mismatches == cpu.mismatches);
        REQUIRE(g.first_counterexample == cpu.first_counterexample);
        REQUIRE(g.primes == cpu.primes);
        REQUIRE(g.exact == cpu.exact);
        REQUIRE(g.log2_bound == cpu.log2_bound);
        if (c == &good) REQUIRE(g.mismatches == 0);
      }
    }
  }
}

TEST_CASE("rnncc eval's bulk digest is the same on the GPU and the CPU", "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(104);
  for (int trial = 0; trial < 4; ++trial) {
    const Circuit c = trial % 2 ? testing::random_arithmetic_circuit(rng, 8, 200, 4)
                                : testing::random_boolean_circuit(rng, 14, 500, 6);
    for (bool exhaustive : {false, true}) {
      BulkOptions o;
      o.exhaustive = exhaustive;
      o.batch = 10000;
      o.seed = static_cast<std::uint64_t>(trial);
      o.device = BulkDevice::gpu;
      const BulkResult g = evaluate_bulk(c, o);
      o.device = BulkDevice::cpu;
      const BulkResult cpu = evaluate_bulk(c, o);
      REQUIRE(g.notice.empty());
      REQUIRE(g.device == device().name);
      REQUIRE(g.per_output == cpu.per_output);
      REQUIRE(g.fingerprint == cpu.fingerprint);
    }
  }
}

TEST_CASE("exact outputs reconstructed from GPU residues equal the CPU twin's", "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(105);
  for (int trial = 0; trial < 4; ++trial) {
    const Circuit c = testing::random_arithmetic_circuit(rng, 6, 30, 3, false);
    BulkOptions o;
    o.exhaustive = trial % 2 == 0;
    o.batch = 500;
    o.seed = static_cast<std::uint64_t>(trial);
    o.device = BulkDevice::gpu;
    const ExactOutputs g = evaluate_exact(c, o);
    o.device = BulkDevice::cpu;
    const ExactOutputs cpu = evaluate_exact(c, o);
    REQUIRE(g.device == device().name);
    REQUIRE(g.primes == cpu.primes);
    REQUIRE(g.values == cpu.values);
  }
}

TEST_CASE("GPU evaluation of random models of every LRNN family equals the CPU twin", "[gpu]") {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(106);
  for (Family family : test::all_families) {
    for (int trial = 0; trial < 2; ++trial) {
      const std::size_t d = 2 + trial, m = 1 + rng() % 2, sigma = 2 + rng() % 2;
      const Model model =
          test::single_layer_model(test::random_layer(rng, family, d, m, sigma), sigma);
      INFO(to_string(family) << " d=" << d);
      for (ScanKind scan : {ScanKind::sequential, ScanKind::brent_kung}) {
        CompileOptions co;
        co.scan = scan;
        co.acceptance = false;
        co.outputs = OutputMode::all;
        const Circuit c = compile_lrnn(model, 6, co).circuit;
        ProgramOptions po;
        po.slot_capacity = gpu::slot_capacity(device(), false, true, 256, kPrimes.size());
        const Program p = lower_program(c, po);
        RunOptions ro;
        ro.primes = kPrimes;
        ro.store = true;
        ro.magnitude = true;
        ro.patterns = {
            patterns::Mode::strings_random, 3, static_cast<std::uint32_t>(sigma), 6, 0, 3000};
        gpu::LaunchConfig lc;
        lc.threads = 256;
        require_same(gpu::run_program_gpu(p, ro, lc), run_program(p, ro));
      }
    }
  }
}

TEST_CASE("GPU evaluation of compiled boolean and threshold circuits equals the CPU twin",
          "[gpu]") {
  REQUIRE_DEVICE();
  // Every route of compile_model that yields a boolean or threshold circuit: wide threshold
  // gates (fan-in n, weights up to the int32 limit the compilers keep), adders and Dadda trees
  // of the boolean LRNN, lowered thresholds, composed transition functions.
  struct Case {
    const char* example;
    CircuitTarget target;
    std::optional<unsigned> log_c;
    std::size_t n;
  };
  std::size_t checked = 0;
  for (const Case& k : {Case{"majority_counter.json", CircuitTarget::threshold, std::nullopt, 256},
                        Case{"mamba_diagonal.json", CircuitTarget::threshold, 1u, 64},
                        Case{"mamba_diagonal.json", CircuitTarget::threshold, std::nullopt, 24},
                        Case{"attention_most_recent_a.json", CircuitTarget::threshold, 1u, 128},
                        Case{"attention_most_recent_a.json", CircuitTarget::boolean, 1u, 32},
                        Case{"dplr_d3.json", CircuitTarget::boolean, 1u, 16},
                        Case{"s5_word_problem.json", CircuitTarget::boolean, std::nullopt, 64},
                        Case{"relu_counter.json", CircuitTarget::boolean, std::nullopt, 64}}) {
    INFO(k.example << " " << to_string(k.target) << " n = " << k.n);
    TargetOptions o;
    o.target = k.target;
    o.precision.log_c = k.log_c;
    const Model m = load_model((source_dir() / "examples" / k.example).string());
    const Circuit c = compile_model(m, k.n, o).circuit;
    for (std::uint32_t words : {1u, 2u}) {
      ProgramOptions po;
      po.slot_capacity = gpu::slot_capacity(device(), true, false, 128, 1, words);
      const Program p = lower_program(c, po);
      RunOptions ro;
      // random 0/1 assignments (the boolean kernel generates bits; these circuits compute their
      // function on every assignment, one-hot or not)
      for (std::uint64_t seed : {17u, 18u}) {
        ro.patterns = {patterns::Mode::bits_random, seed, 2, 0, 0, 64 * 64 * 3};
        ro.store = true;
        gpu::LaunchConfig lc;
        lc.threads = 128;
        lc.words_per_thread = words;
        require_same(gpu::run_program_gpu(p, ro, lc), run_program(p, ro));
        ++checked;
      }
    }
  }
  REQUIRE(checked == 32);
}
