// The kernel source emitter (circuits/eval/kernel_source.hpp) on tiny programs — the structure of
// the emitted text — and, where rnncc is built with CUDA, NVRTC compiling it and the kernel cache
// (key, entry validation, corrupt and unwritable caches, NVRTC's failure), and the launch
// driver's bound on a chunk's stored outputs. No device needed:
// NVRTC compiles for sm_90 without a GPU. Not labelled `gpu`: it runs wherever it builds.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "circuits/eval/kernel_source.hpp"
#include "circuits/eval/program.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/support.hpp"
#if RNNCC_HAVE_CUDA
#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/launch_driver.hpp"
#endif

using namespace rnncc;

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// x0 ∧ ¬x1, output and its complement compared.
Program tiny_boolean() {
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input();
  const GateId g = b.and_(std::vector<GateId>{x0, b.not_(x1)});
  ProgramOptions po;
  po.compare_pairs = {{0, 1}};
  return lower_program(b.finish({g, b.not_(g)}), po);
}

Program tiny_arithmetic() {
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input();
  const GateId m = b.raw(GateKind::mul, std::vector<GateId>{x0, x1});
  const GateId s = b.raw(GateKind::add, std::vector<GateId>{m, b.constant(Rational(1, 3))});
  ProgramOptions po;
  po.compare_pairs = {{0, 1}};
  return lower_program(b.finish({s, m}), po);
}

}  // namespace

TEST_CASE("kernel source of a tiny boolean program", "[kernel_source]") {
  const Program p = tiny_boolean();
  const kernels::KernelSource ks = kernels::kernel_source(p, 1);
  REQUIRE(ks.boolean);
  REQUIRE(ks.parts.size() == 1);
  REQUIRE(ks.cross_values == 0);
  const std::string& s = ks.parts[0].source;
  CHECK(count(s, "extern \"C\" __global__ void __launch_bounds__(128, 1) rnncc_kernel(") == 1);
  CHECK(count(s, "patterns::bool_word(A.spec, first_word + w, ") == 2);  // two inputs
  CHECK(count(s, " & ~v") + count(s, "(~v") == 1);  // the inversion folded into the AND
  CHECK(count(s, "count_ones(A.ones + ") == 2);     // two outputs
  CHECK(count(s, "compare_words(A.d, 0, ") == 1);   // one pair
  CHECK(count(s, "A.cross[") == 0);
  // The pasted device functions: one definition with the CPU twin.
  CHECK(count(s, "RNNCC_HD std::uint64_t bool_word(") == 1);
  CHECK(count(s, "RNNCC_HD void add_masked(") == 1);
  CHECK(count(s, "struct BoolArgs {") == 1);
  CHECK(count(s, "#include") == 0);
}

TEST_CASE("kernel source: threshold gates inline the bit-sliced counter", "[kernel_source]") {
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input(), x2 = b.input();
  const std::vector<GateId> ops = {x0, b.not_(x1), x2};
  const GateId t = b.raw(GateKind::thr, ops, std::vector<std::int32_t>{3, -2, 5}, 4);
  const Program p = lower_program(b.finish({t}), {});
  const std::string s = kernels::kernel_source(p, 1).parts[0].source;
  // ¬x1 with weight −2 is folded: w = 2, θ = 4 − (−2) = 6.
  CHECK(count(s, "bits::add_masked(pl, ") == 4);  // 3 operands + θ
  CHECK(count(s, ", 2LL, ") == 1);
  CHECK(count(s, ", -6LL, ~0ull)") == 1);
  CHECK(count(s, "(bits::nonnegative(pl, ") == 1);
}

TEST_CASE("kernel source of a tiny arithmetic program mod 4 primes", "[kernel_source]") {
  const Program p = tiny_arithmetic();
  const kernels::KernelSource ks = kernels::kernel_source(p, 4);
  REQUIRE_FALSE(ks.boolean);
  REQUIRE(ks.primes == 4);
  const std::string& s = ks.parts[0].source;
  CHECK(count(s, "struct ModArgs {") == 1);
  CHECK(count(s, "const mont31::Field F3 = A.f[3];") == 1);
  CHECK(count(s, "= mont31::mul(") == 4);
  CHECK(count(s, "= mont31::add(") == 4);
  CHECK(count(s, "__ldg(A.constants + ") == 4);  // 1/3 once per prime
  CHECK(count(s, "patterns::int_value(A.spec, pattern0, ") == 2);
  CHECK(count(s, ") differs0 |= 1u << 0;") == 1);
  // Three patterns a thread: every instruction three times, one chain per pattern.
  kernels::SourceOptions so;
  so.patterns_per_thread = 3;
  const std::string s3 = kernels::kernel_source(p, 4, so).parts[0].source;
  CHECK(count(s3, "= mont31::mul(") == 12);
  for (const char* c : {"0", "1", "2"}) {
    CHECK(count(s3, std::string("patterns::int_value(A.spec, pattern") + c + ", ") == 2);
    CHECK(count(s3, std::string(") differs") + c + " |= 1u << 0;") == 1);
    CHECK(count(s3, std::string("const u64 at") + c + " = base + " + c +
                        "ull * blockDim.x + threadIdx.x;") == 1);
  }
  CHECK(count(s3, "pattern3") == 0);
  CHECK_THROWS_AS(kernels::kernel_source(p, 0), std::invalid_argument);
  CHECK_THROWS_AS(kernels::kernel_source(p, kernels::kMaxPrimes + 1), std::invalid_argument);
}

TEST_CASE("kernel source: partitions pass crossing values through the global buffer",
          "[kernel_source]") {
  std::mt19937_64 rng(7);
  const Circuit c = testing::random_boolean_circuit(rng, 6, 200, 6);
  ProgramOptions po;
  po.slot_capacity = 4;  // spills: renames in the compiled kernel
  const Program p = lower_program(c, po);
  kernels::SourceOptions so;
  so.max_gate_instructions = 16;
  const kernels::KernelSource ks = kernels::kernel_source(p, 1, so);
  REQUIRE(ks.parts.size() > 4);
  std::size_t stores = 0, gates = 0, loads = 0;
  for (std::size_t q = 0; q < ks.parts.size(); ++q) {
    const auto& part = ks.parts[q];
    CHECK(part.gate_instructions <= 16);
    if (q) CHECK(part.first == ks.parts[q - 1].last);
    stores += part.stores;
    loads += part.loads;
    gates += part.gate_instructions;
    CHECK(count(part.source, "] = v") == part.stores);
    CHECK(count(part.source, "= X[") == part.loads);  // boolean: 32-bit halves of the buffer
    if (q == 0) CHECK(part.loads == 0);
  }
  CHECK(ks.parts.back().last == p.code.size());
  CHECK(gates == p.gate_instructions);
  CHECK(stores == ks.cross_values);  // each crossing value stored once, by its partition
  CHECK(loads >= stores);
  // One kernel when unlimited.
  so.max_gate_instructions = 0;
  CHECK(kernels::kernel_source(p, 1, so).parts.size() == 1);
}

#if RNNCC_HAVE_CUDA

namespace {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             (name + "." + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

struct CacheEnv {
  std::string old;
  bool had;
  explicit CacheEnv(const std::string& v) {
    const char* e = std::getenv("RNNCC_KERNEL_CACHE");
    had = e != nullptr;
    if (had) old = e;
    setenv("RNNCC_KERNEL_CACHE", v.c_str(), 1);
  }
  ~CacheEnv() {
    if (had)
      setenv("RNNCC_KERNEL_CACHE", old.c_str(), 1);
    else
      unsetenv("RNNCC_KERNEL_CACHE");
  }
};

}  // namespace

TEST_CASE("NVRTC compiles the emitted kernels without a device", "[kernel_source][nvrtc]") {
  CacheEnv env("off");
  std::mt19937_64 rng(11);
  std::vector<std::string> sources = {kernels::kernel_source(tiny_boolean(), 1).parts[0].source,
                                      kernels::kernel_source(tiny_arithmetic(), 1).parts[0].source,
                                      kernels::kernel_source(tiny_arithmetic(), 4).parts[0].source};
  kernels::SourceOptions so;
  so.max_gate_instructions = 40;
  for (const auto& part :
       kernels::kernel_source(lower_program(testing::random_boolean_circuit(rng, 8, 120, 5), {}), 1,
                              so)
           .parts)
    sources.push_back(part.source);
  ProgramOptions po;
  po.compare_pairs = {{0, 1}};
  for (const auto& part :
       kernels::kernel_source(lower_program(testing::random_arithmetic_circuit(rng, 6, 80, 4), po),
                              3, so)
           .parts)
    sources.push_back(part.source);
  so.patterns_per_thread = 2;  // two patterns a thread, interleaved
  for (const auto& part :
       kernels::kernel_source(lower_program(testing::random_arithmetic_circuit(rng, 6, 80, 4), po),
                              2, so)
           .parts)
    sources.push_back(part.source);
  for (const std::string& s : sources) {
    const gpu::compiled::Cubin c = gpu::compiled::compile(s, 90);
    CHECK_FALSE(c.cached);
    CHECK(c.image.size() > 100);
    INFO(c.log);
    CHECK(c.log.find("warning") == std::string::npos);
  }
}

TEST_CASE("kernel cache: key, hits, corrupt and stale entries, unwritable directory",
          "[kernel_source][nvrtc]") {
  namespace cc = gpu::compiled;
  const std::string v = cc::nvrtc_version();
  const auto o90 = cc::nvrtc_options(90);
  const std::string k = cc::cache_key("src", v, 90, o90);
  CHECK(k.size() == 32);
  CHECK(k == cc::cache_key("src", v, 90, o90));
  CHECK(k != cc::cache_key("src!", v, 90, o90));
  CHECK(k != cc::cache_key("src", v + "1", 90, o90));
  CHECK(k != cc::cache_key("src", v, 100, o90));
  CHECK(k != cc::cache_key("src", v, 90, cc::nvrtc_options(100)));

  TempDir dir("rnncc-kernel-cache-test");
  CacheEnv env(dir.path.string());
  const std::string source = kernels::kernel_source(tiny_boolean(), 1).parts[0].source;
  const cc::Cubin first = cc::compile(source, 90);
  CHECK_FALSE(first.cached);
  const cc::Cubin second = cc::compile(source, 90);
  CHECK(second.cached);
  CHECK(second.image == first.image);
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) entries.push_back(e.path());
  REQUIRE(entries.size() == 1);
  const std::filesystem::path file = entries[0];
  const std::string key = file.stem().string();
  std::string why;
  REQUIRE(cc::read_entry(file, key, &why));

  auto rewrite = [&](auto&& edit) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    edit(bytes);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  };
  SECTION("a flipped byte of the image fails the checksum and is recompiled") {
    rewrite([](std::string& b) { b[b.size() - 10] ^= 0x5A; });
    CHECK_FALSE(cc::read_entry(file, key, &why));
    CHECK(why == "checksum mismatch");
    const cc::Cubin again = cc::compile(source, 90);
    CHECK_FALSE(again.cached);
    CHECK(again.image == first.image);
    CHECK(cc::read_entry(file, key));  // rewritten
  }
  SECTION("a truncated entry fails the length") {
    rewrite([](std::string& b) { b.resize(b.size() - 1); });
    CHECK_FALSE(cc::read_entry(file, key, &why));
    CHECK(why == "length mismatch");
    CHECK_FALSE(cc::compile(source, 90).cached);
  }
  SECTION("an entry under another key (stale) or with a bad header is not trusted") {
    CHECK_FALSE(cc::read_entry(file, std::string(32, '0'), &why));
    CHECK(why == "key mismatch");
    rewrite([](std::string& b) { b[0] = 'X'; });
    CHECK_FALSE(cc::read_entry(file, key, &why));
    CHECK(why == "bad header");
    CHECK_FALSE(cc::compile(source, 90).cached);
  }
  SECTION("an unwritable cache directory means no cache") {
    const std::filesystem::path blocker = dir.path / "a-file";
    std::ofstream(blocker) << "x";
    CacheEnv inner((blocker / "kernels").string());
    CHECK_FALSE(cc::cache_dir(&why));
    CHECK(why.find("not writable") != std::string::npos);
    const cc::Cubin c = cc::compile(source, 90);
    CHECK_FALSE(c.cached);
    CHECK_FALSE(cc::compile(source, 90).cached);
  }
}

TEST_CASE("NVRTC failure: the log is reported", "[kernel_source][nvrtc]") {
  CacheEnv env("off");
  gpu::compiled::set_source_hook([](std::string& s) { s += "\nthis is not C++;\n"; });
  try {
    gpu::compiled::compile(kernels::kernel_source(tiny_boolean(), 1).parts[0].source, 90);
    FAIL("NVRTC accepted a bad source");
  } catch (const gpu::compiled::CompileError& e) {
    CHECK(std::string(e.what()).find("NVRTC could not compile") != std::string::npos);
    CHECK(std::string(e.what()).find("error") != std::string::npos);
  }
  gpu::compiled::set_source_hook(nullptr);
}

#endif

#if RNNCC_HAVE_CUDA
TEST_CASE("the launch driver bounds a chunk's stored outputs by 256 MiB", "[launch_driver]") {
  using gpu::detail::store_limit;
  Program p;
  p.boolean = true;
  p.outputs = 8;
  RunOptions o;
  CHECK(store_limit(p, o) == std::numeric_limits<std::uint64_t>::max());  // nothing stored
  o.store = true;
  // Boolean: 8 bytes a word per output, 64 patterns a word: 2^28 / 64 words = 2^22 words.
  CHECK(store_limit(p, o) == 64 * (std::uint64_t{1} << 22));
  p.outputs = std::uint32_t{1} << 26;  // one word per output is already 512 MiB: one word
  CHECK(store_limit(p, o) == 64);
  // Arithmetic: 4 bytes per output and prime.
  p.boolean = false;
  p.outputs = 3;
  o.primes = {2147483647u, 2147483629u};
  CHECK(store_limit(p, o) == (std::uint64_t{1} << 28) / 24);
  p.outputs = 0;
  CHECK(store_limit(p, o) == std::numeric_limits<std::uint64_t>::max());
}
#endif
