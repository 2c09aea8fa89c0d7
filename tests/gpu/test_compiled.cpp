// Compiled GPU kernels (PTX through nvJitLink with and without covering, and CUDA C++ through
// NVRTC; circuits/eval/cuda/compiled.hpp) == the CPU twin (run_program),
// bit for bit: random boolean circuits with threshold gates and inversions, random AIGs and the
// EPFL multiplier, arithmetic circuits mod 1 and 4 primes, partitioned programs (small partitions
// forced), chunked launches; the kernel cache's hit / corrupt / unwritable behaviour on the device
// path; NVRTC's failure falling back to the interpreter. Labelled `gpu`; without a device every
// test prints "SKIPPED: <reason>".
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/io/aiger.hpp"
#include "tests/circuits/eval/trial_patterns.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/gpu/gpu_testing.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

using test::device;

void require_same(const ProgramResult& g, const ProgramResult& c) {
  test::require_same_digest(g, c);
  // Some mismatching patterns: each one a real mismatch of the twin's full list is not kept, so
  // check they lie at or after the first one.
  for (std::uint64_t m : g.first_mismatches) REQUIRE(m >= *c.first_mismatch);
}

// Every test in this file runs with its own cache directory (not the user's).
struct TempCache {
  std::filesystem::path path;
  TempCache()
      : path(std::filesystem::temp_directory_path() /
             ("rnncc-compiled-test." + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(path);
    setenv("RNNCC_KERNEL_CACHE", path.c_str(), 1);
  }
  ~TempCache() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
    unsetenv("RNNCC_KERNEL_CACHE");
  }
};

// How a boolean program is compiled: PTX with covering, PTX without, CUDA C++.
struct Flavour {
  gpu::BooleanKernels kernels = gpu::BooleanKernels::ptx;
  bool cover = true;
};
const Flavour kFlavours[] = {{gpu::BooleanKernels::ptx, true},
                             {gpu::BooleanKernels::ptx, false},
                             {gpu::BooleanKernels::cuda_cpp, true}};

ProgramResult compiled(const Program& p, const RunOptions& ro, std::size_t part = 4096,
                       gpu::Timing* t = nullptr, std::uint64_t chunk = std::uint64_t{1} << 30,
                       Flavour f = {}, std::uint32_t patterns_per_thread = 1) {
  gpu::LaunchConfig lc;
  lc.kernel = gpu::KernelChoice::compiled;
  lc.patterns_per_thread = patterns_per_thread;
  lc.boolean_kernels = f.kernels;
  lc.lut_cover = f.cover;
  lc.max_gate_instructions = part;
  lc.chunk_patterns = chunk;
  gpu::Timing local;
  gpu::Timing& tm = t ? *t : local;
  ProgramResult r = gpu::run_program_gpu(p, ro, lc, &tm);
  REQUIRE(tm.path.rfind("compiled", 0) == 0);
  REQUIRE(tm.notice.empty());
  if (p.boolean)
    REQUIRE(tm.compiler ==
            (f.kernels == gpu::BooleanKernels::ptx ? "PTX (nvJitLink)" : "CUDA C++ (NVRTC)"));
  return r;
}

const std::vector<std::uint32_t> kPrimes4 = {2147483647u, 2147483629u, 2147483587u, 2147483579u};

}  // namespace

TEST_CASE("compiled boolean kernels equal the CPU twin on random circuits", "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(201);
  for (int trial = 0; trial < 8; ++trial) {
    const Circuit c = testing::random_boolean_circuit(rng, 5 + trial, 300 + 60 * trial, 8);
    ProgramOptions po;
    po.slot_capacity = trial % 2 ? 4 : 96;  // spills become renames
    po.compare_pairs = {{0, 1}, {2, 2}, {3, 7}};
    const Program p = lower_program(c, po);
    RunOptions ro;
    ro.patterns = testing::boolean_trial_patterns(trial, c.inputs().size(), 64 * 300 - 5,
                                                  trial % 3 == 0 ? 128u : 0u);
    ro.store = true;
    const ProgramResult twin = run_program(p, ro);
    for (std::size_t part : {std::size_t{16384}, std::size_t{37}})
      for (const Flavour& f : kFlavours) {
        INFO("trial " << trial << " partition " << part << " kernels "
                      << static_cast<int>(f.kernels) << " cover " << f.cover);
        require_same(compiled(p, ro, part, nullptr, std::uint64_t{1} << 30, f), twin);
      }
  }
}

TEST_CASE("compiled kernels on AIGs: random and the EPFL multiplier, partitioned", "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(202);
  // A random AIG: two-input ANDs with random inversions, 3000 gates.
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (int i = 0; i < 64; ++i) pool.push_back(b.input());
  for (int g = 0; g < 3000; ++g) {
    auto pick = [&] {
      const GateId x = pool[pool.size() - 1 - rng() % std::min<std::size_t>(pool.size(), 200)];
      return rng() % 2 ? b.not_(x) : x;
    };
    pool.push_back(b.and_(std::vector<GateId>{pick(), pick()}));
  }
  std::vector<Circuit> aigs;
  aigs.push_back(b.finish(std::vector<GateId>(pool.end() - 32, pool.end())));
  const char* env = std::getenv("RNNCC_EPFL_DIR");
  const std::filesystem::path epfl =
      env ? std::filesystem::path(env)
          : std::filesystem::path(RNNCC_SOURCE_DIR) / "tests" / "data" / "epfl";  // shipped
  if (std::filesystem::exists(epfl / "multiplier.aig"))
    aigs.push_back(load_aiger((epfl / "multiplier.aig").string()));
  else
    WARN("EPFL multiplier not found at " << epfl.string() << ": random AIG only");
  for (const Circuit& c : aigs) {
    const Program p = lower_program(c, {});
    RunOptions ro;
    ro.patterns = {patterns::Mode::bits_random, 7, 2, 0, 0, 64 * 1000 + 17};
    const ProgramResult twin = run_program(p, ro);
    for (const Flavour& f : kFlavours) {
      require_same(compiled(p, ro, 4096, nullptr, std::uint64_t{1} << 30, f), twin);
      require_same(compiled(p, ro, 2048, nullptr, std::uint64_t{1} << 30, f), twin);
    }
  }
}

TEST_CASE("compiled arithmetic kernels equal the CPU twin mod 1 and 4 primes", "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(203);
  for (int trial = 0; trial < 6; ++trial) {
    const Circuit c = testing::random_arithmetic_circuit(rng, 2 * (3 + trial % 4), 150, 6);
    ProgramOptions po;
    po.slot_capacity = trial % 3 == 0 ? 5 : 96;
    po.compare_pairs = {{0, 1}, {4, 4}, {2, 5}};
    const Program p = lower_program(c, po);
    for (std::size_t np : {std::size_t{1}, std::size_t{4}}) {
      RunOptions ro;
      ro.primes.assign(kPrimes4.begin(), kPrimes4.begin() + static_cast<std::ptrdiff_t>(np));
      ro.store = true;
      const std::uint32_t L = static_cast<std::uint32_t>(c.inputs().size() / 2);
      ro.patterns = testing::arithmetic_trial_patterns(trial, L, 5, 3000, true);
      const ProgramResult twin = run_program(p, ro);
      INFO("trial " << trial << " primes " << np);
      require_same(compiled(p, ro), twin);
      require_same(compiled(p, ro, 23), twin);
      // Several patterns a thread, interleaved: the same digests (partitions of 23 → 16).
      for (std::uint32_t k : {2u, 3u}) {
        INFO("patterns per thread " << k);
        require_same(compiled(p, ro, 4096, nullptr, std::uint64_t{1} << 30, {}, k), twin);
        require_same(compiled(p, ro, 23, nullptr, std::uint64_t{1} << 30, {}, k), twin);
      }
    }
  }
}

TEST_CASE("a large circuit split into many kernels, chunked launches", "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(204);
  const Circuit c = testing::random_boolean_circuit(rng, 40, 12000, 16);
  ProgramOptions po;
  po.compare_pairs = {{0, 1}, {5, 9}};
  const Program p = lower_program(c, po);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 3, 2, 0, 0, 64 * 5000 + 1};
  const ProgramResult twin = run_program(p, ro);
  gpu::Timing t;
  require_same(compiled(p, ro, 1000, &t, 64 * 1024, {gpu::BooleanKernels::cuda_cpp, true}), twin);
  CHECK(t.kernels >= 3);
  CHECK(t.cross_values > 0);
  CHECK(t.launches == t.kernels * 5);  // 5 chunks of 1024 words
  // PTX: the sink kernel after the LUT kernels, 5 chunks.
  require_same(compiled(p, ro, 1000, &t, 64 * 1024), twin);
  CHECK(t.kernels >= 3);
  CHECK(t.cross_values > 0);
  CHECK(t.luts > 0);
  CHECK(t.launches == (t.kernels + 1) * 5);
}

TEST_CASE("kernel cache on the device path: hit, corrupt entries, unwritable directory", "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(205);
  const Program p = lower_program(testing::random_boolean_circuit(rng, 10, 500, 6), {});
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, 64 * 200};
  const ProgramResult twin = run_program(p, ro);
  for (const Flavour& fl : {kFlavours[0], kFlavours[2]}) {
    INFO("kernels " << static_cast<int>(fl.kernels));
    TempCache fresh;
    gpu::Timing t;
    auto compiled = [&](const Program& q, const RunOptions& r, std::size_t part, gpu::Timing* tm) {
      return ::compiled(q, r, part, tm, std::uint64_t{1} << 30, fl);
    };
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled");
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled (cached)");
    // Corrupt every entry: recompiled, same result, then cached again.
    for (const auto& e : std::filesystem::directory_iterator(fresh.path)) {
      std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(-20, std::ios::end);
      f.put('\x7F');
    }
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled");
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled (cached)");
    // Unwritable: no cache, compiled every time.
    const std::filesystem::path blocker = fresh.path / "a-file";
    std::ofstream(blocker) << "x";
    setenv("RNNCC_KERNEL_CACHE", (blocker / "kernels").c_str(), 1);
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled");
    require_same(compiled(p, ro, 200, &t), twin);
    CHECK(t.path == "compiled");
  }
}

TEST_CASE(
    "NVRTC or nvJitLink failure falls back to the interpreter with a notice, automatic choice",
    "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(206);
  const Program p = lower_program(testing::random_boolean_circuit(rng, 10, 300, 6), {});
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, 64 * 100};
  const ProgramResult twin = run_program(p, ro);
  gpu::LaunchConfig lc;
  lc.kernel = gpu::KernelChoice::compiled;
  gpu::Timing t;
  gpu::compiled::set_source_hook([](std::string& s) { s += "\nnot C++ at all;\n"; });
  const ProgramResult r = gpu::run_program_gpu(p, ro, lc, &t);
  lc.boolean_kernels = gpu::BooleanKernels::cuda_cpp;
  gpu::Timing tc;
  const ProgramResult rc = gpu::run_program_gpu(p, ro, lc, &tc);
  lc.boolean_kernels = gpu::BooleanKernels::ptx;
  gpu::compiled::set_source_hook(nullptr);
  require_same(r, twin);
  require_same(rc, twin);
  CHECK(t.path == "interpreter");
  CHECK(t.notice.find("nvJitLink could not assemble") != std::string::npos);
  CHECK(tc.path == "interpreter");
  CHECK(tc.notice.find("NVRTC could not compile") != std::string::npos);
  // Automatic: a small batch runs on the interpreter.
  lc.kernel = gpu::KernelChoice::automatic;
  require_same(gpu::run_program_gpu(p, ro, lc, &t), twin);
  CHECK(t.path == "interpreter");
  // The float shadow is the interpreter's: compiled falls back with a notice.
  const Program a = lower_program(testing::random_arithmetic_circuit(rng, 6, 60, 3), {});
  RunOptions ao;
  ao.primes = {2147483647u};
  ao.magnitude = true;
  ao.patterns = {patterns::Mode::bits_random, 1, 2, 0, 0, 500};
  lc.kernel = gpu::KernelChoice::compiled;
  require_same(gpu::run_program_gpu(a, ao, lc, &t), run_program(a, ao));
  CHECK(t.path == "interpreter");
  CHECK(t.notice.find("float shadow") != std::string::npos);
}

TEST_CASE("background compile: interpreter chunks, then the compiled kernels, same digests",
          "[gpu]") {
  REQUIRE_DEVICE();
  TempCache cache;
  std::mt19937_64 rng(207);
  ProgramOptions po;
  po.compare_pairs = {{0, 1}, {2, 3}};
  const Program p = lower_program(testing::random_boolean_circuit(rng, 12, 1500, 8), po);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 5, 2, 0, 0, 64 * 3000 + 17};
  ro.store = true;
  const ProgramResult twin = run_program(p, ro);
  gpu::LaunchConfig lc;
  lc.kernel = gpu::KernelChoice::background;
  lc.chunk_patterns = 64 * 256;
  lc.background_wait_after_chunks = 3;  // three interpreter chunks, then wait for the kernels
  for (const Flavour& f : {kFlavours[0], kFlavours[2]}) {
    lc.boolean_kernels = f.kernels;
    gpu::Timing t;
    require_same(gpu::run_program_gpu(p, ro, lc, &t), twin);  // stored words in order
    CHECK(t.path == "interpreter, then compiled");
    CHECK(t.switched_at == 3 * 64 * 256);
    CHECK(t.notice.empty());
  }
  // Arithmetic mod 4 primes: sums merged mod each prime.
  const Program a = lower_program(testing::random_arithmetic_circuit(rng, 8, 150, 5), po);
  RunOptions ao;
  ao.primes = kPrimes4;
  ao.patterns = {patterns::Mode::strings_random, 3, 2, 4, 0, 5000};
  lc.chunk_patterns = 1000;  // chunks of 960 strings
  lc.background_wait_after_chunks = 2;
  gpu::Timing t;
  require_same(gpu::run_program_gpu(a, ao, lc, &t), run_program(a, ao));
  CHECK(t.path == "interpreter, then compiled");
  CHECK(t.switched_at == 2 * 960);
  // A compile failure in the background: every pattern interpreted, with the notice.
  lc.chunk_patterns = 64 * 256;
  gpu::compiled::set_source_hook([](std::string& s) { s += "\nnot a kernel;\n"; });
  const ProgramResult r = gpu::run_program_gpu(p, ro, lc, &t);
  gpu::compiled::set_source_hook(nullptr);
  require_same(r, twin);
  CHECK(t.path == "interpreter");
  CHECK(t.switched_at == ro.patterns.count);
  CHECK(t.notice.find("could not") != std::string::npos);
  // The interpreter done first (one chunk, no waiting): the compile is cancelled, same digests.
  RunOptions one = ro;
  one.patterns.count = 64 * 100;
  lc.background_wait_after_chunks = 0;
  for (const Flavour& f : {kFlavours[0], kFlavours[2]}) {
    lc.boolean_kernels = f.kernels;
    TempCache fresh;  // nothing cached: the kernels take longer than one chunk
    require_same(gpu::run_program_gpu(p, one, lc, &t), run_program(p, one));
    CHECK((t.path == "interpreter" || t.path == "interpreter, then compiled"));
    CHECK(t.notice.empty());
  }
}
