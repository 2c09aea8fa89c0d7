// The PTX emitter (circuits/eval/ptx_source.hpp) without a device: the LUT network's plain twin
// against the program's (run_program) on random circuits with threshold gates, inversions,
// constants and compared pairs, with and without covering and at several partition sizes; tiny
// hand-checked networks; the text of the kernels checked as a program (every register defined
// before it is read, every row loaded stored by an earlier partition or the input kernel); and,
// where rnncc is built with CUDA, nvJitLink assembling every kernel for sm_90. Not labelled
// `gpu`: it runs wherever it builds.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "circuits/eval/program.hpp"
#include "circuits/eval/ptx_source.hpp"
#include "circuits/io/aiger.hpp"
#include "tests/circuits/eval/trial_patterns.hpp"
#include "tests/circuits/random_circuits.hpp"
#include "tests/gpu/gpu_testing.hpp"
#include "tests/support.hpp"
#if RNNCC_HAVE_CUDA
#include "circuits/eval/cuda/compiled.hpp"
#endif

using namespace rnncc;
using kernels::LutNetwork;
using kernels::NodeKind;
using kernels::PtxOptions;

namespace {

// Both twins keep the smallest mismatching patterns: those are compared too.
void require_same(const ProgramResult& a, const ProgramResult& b) {
  test::require_same_digest(a, b);
  REQUIRE(a.first_mismatches == b.first_mismatches);
}

// A random two-input netlist: ANDs (half), ORs and XORs with random inversions over recent gates
// (long single-reader chains, as in real AIGs; XORs keep the ANDs from folding to constants).
Circuit random_two_input(std::mt19937_64& rng, int inputs, int gates, int outputs) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (int i = 0; i < inputs; ++i) pool.push_back(b.input());
  for (int g = 0; g < gates; ++g) {
    auto pick = [&] {
      const GateId x = pool[pool.size() - 1 - rng() % std::min<std::size_t>(pool.size(), 40)];
      return rng() % 2 ? b.not_(x) : x;
    };
    const std::vector<GateId> ops = {pick(), pick()};
    const unsigned kind = rng() % 4;
    pool.push_back(kind < 2 ? b.and_(ops) : kind == 2 ? b.or_(ops) : b.xor_(ops));
  }
  return b.finish(std::vector<GateId>(pool.end() - outputs, pool.end()));
}

// The kernels' text read back as a program: each partition's registers are defined (ld or lop3)
// before they are read, the lop3 count is the partition's, and each row a partition loads is an
// input row or was stored by an earlier partition. Returns the lop3 total.
std::size_t check_text(const kernels::PtxProgram& prog) {
  std::set<std::uint32_t> written;  // rows stored by the partitions so far
  const std::regex lop3(R"(^\tlop3\.b32 %r(\d+), %r(\d+), %r(\d+), %r(\d+), 0x[0-9a-f]+;$)");
  const std::regex ld(R"(^\tld\.global\.nc\.u32 %r(\d+), \[%rd4\];$)");
  const std::regex st(R"(^\tst\.global\.u32 \[%rd4\], %r(\d+);$)");
  const std::regex in(R"(^\tcvt\.u32\.u64 %r(\d+), %x1;$)");  // an input computed here
  const std::regex addr(R"(^\tmad\.wide\.u32 %rd4, %r0, (\d+), %rd3;$)");
  std::size_t total = 0;
  for (const auto& part : prog.parts) {
    REQUIRE(part.ptx.find(".visible .entry rnncc_lut_kernel(") != std::string::npos);
    std::set<unsigned long> defined;
    std::set<std::uint32_t> stored_here;
    std::istringstream text(part.ptx);
    std::string line;
    std::uint32_t row = kernels::kNoNode;
    std::size_t luts = 0, loads = 0, stores = 0, inputs = 0;
    std::smatch m;
    while (std::getline(text, line)) {
      if (std::regex_match(line, m, addr)) {
        row = static_cast<std::uint32_t>(std::stoul(m[1]));
        REQUIRE(row < prog.rows);
      } else if (std::regex_match(line, m, ld)) {
        REQUIRE(written.count(row));  // loaded rows come from earlier kernels
        REQUIRE(defined.insert(std::stoul(m[1])).second);
        ++loads;
      } else if (std::regex_match(line, m, in)) {
        REQUIRE(defined.insert(std::stoul(m[1])).second);
        ++inputs;
      } else if (std::regex_match(line, m, lop3)) {
        for (int k = 2; k <= 4; ++k) REQUIRE(defined.count(std::stoul(m[k])));
        REQUIRE(defined.insert(std::stoul(m[1])).second);  // each register assigned once
        ++luts;
      } else if (std::regex_match(line, m, st)) {
        REQUIRE(defined.count(std::stoul(m[1])));
        REQUIRE(stored_here.insert(row).second);
        REQUIRE_FALSE(written.count(row));  // each row stored once
        ++stores;
      }
    }
    CHECK(luts == part.luts);
    CHECK(loads == part.loads);
    CHECK(stores == part.stores);
    CHECK(inputs == part.inputs);
    written.insert(stored_here.begin(), stored_here.end());
    total += luts;
  }
  // Every output and pair row is produced (a constant reads no row).
  for (const auto& rows : {prog.output_rows, prog.pair_rows})
    for (std::uint32_t r : rows)
      if (r != kernels::kNoNode && r != kernels::kRowZero && r != kernels::kRowOne)
        CHECK(written.count(r));
  CHECK(total == prog.net.luts);
  return total;
}

}  // namespace

TEST_CASE("apply_table is the lop3 encoding", "[ptx_source]") {
  const std::uint64_t a = 0xF0F0F0F0F0F0F0F0ull, b = 0xCCCCCCCCCCCCCCCCull,
                      c = 0xAAAAAAAAAAAAAAAAull;
  for (unsigned t = 0; t < 256; ++t) {
    // On the standard operands, lop3 returns its own table in every byte.
    const std::uint64_t r = kernels::apply_table(static_cast<std::uint8_t>(t), a, b, c);
    CHECK(r == 0x0101010101010101ull * t);
  }
  CHECK(kernels::apply_table(0x80, 0b1100, 0b1010, 0b1110) == 0b1000);  // a ∧ b ∧ c
  CHECK(kernels::apply_table(0x96, 0b1100, 0b1010, 0b0110) == 0b0000);  // a ⊕ b ⊕ c
  CHECK(kernels::apply_table(0xE8, 0b1100, 0b1010, 0b0110) == 0b1110);  // majority
}

TEST_CASE("covering merges a two-gate cone into one LUT, an output gate stays", "[ptx_source]") {
  // y0 = (x0 ∧ ¬x1) ∧ x2; y1 = s ∨ (s ⊕ x2) with s = x0 ∧ x1, itself output y2.
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input(), x2 = b.input();
  const GateId g = b.and_(std::vector<GateId>{x0, b.not_(x1)});
  const GateId y0 = b.and_(std::vector<GateId>{g, x2});
  const GateId s = b.and_(std::vector<GateId>{x0, x1});
  const GateId y1 = b.or_(std::vector<GateId>{s, b.xor_(std::vector<GateId>{s, x2})});
  const Program p = lower_program(b.finish({y0, y1, s}), {});
  PtxOptions plain;
  plain.cover = false;
  const LutNetwork flat = kernels::lut_network(p, plain);
  CHECK(flat.luts == 5);
  CHECK(flat.absorbed == 0);
  const LutNetwork net = kernels::lut_network(p);
  // y0 becomes one lop3 over (x2, x0, x1); y1 = s ∨ (s ⊕ x2) = s ∨ x2 absorbs the xor; s, an
  // output, is computed once and read: 3 LUTs.
  CHECK(net.luts == 3);
  CHECK(net.absorbed == 2);
  const kernels::LutNode& n0 = net.nodes[net.outputs[0]];
  REQUIRE(n0.kind == NodeKind::lut);
  CHECK(n0.arity == 3);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_exhaustive, 0, 2, 0, 0, 8};
  ro.store = true;
  const ProgramResult twin = run_program(p, ro);
  require_same(kernels::run_lut_network(net, ro), twin);
  require_same(kernels::run_lut_network(flat, ro), twin);
  // The hand-computed truth table of y0 over x = 0..7 (x0 the low bit): x0 ∧ ¬x1 ∧ x2 = x 5.
  REQUIRE(twin.stored.size() == 3);
  CHECK((twin.stored[0] & 0xFF) == 0b00100000);
}

TEST_CASE("constants fold into the tables, a threshold gate is its counter", "[ptx_source]") {
  // ¬(x0 ∧ 1) ⊕ 0 is ¬x0; maj(x0, x1, x2) and 2·x0 − 3·x1 + x2 ≥ 0 through the counter.
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input(), x2 = b.input();
  const GateId one = b.constant(Rational(1)), zero = b.constant(Rational(0));
  const GateId n =
      b.raw(GateKind::xor_,
            std::vector<GateId>{b.not_(b.raw(GateKind::and_, std::vector<GateId>{x0, one})), zero});
  const GateId mj = b.raw(GateKind::maj, std::vector<GateId>{x0, x1, x2});
  const std::vector<std::int32_t> w = {2, -3, 1};
  const GateId th = b.raw(GateKind::thr, std::vector<GateId>{x0, x1, x2}, w, 0);
  const GateId k = b.raw(GateKind::or_, std::vector<GateId>{x0, one});
  const Program p = lower_program(b.finish({n, mj, th, k}), {});
  const LutNetwork net = kernels::lut_network(p);
  // ¬x0 is one LUT of arity 1; the constant output reads no node but the constant.
  const kernels::LutNode& nn = net.nodes[net.outputs[0]];
  CHECK(nn.kind == NodeKind::lut);
  CHECK(nn.arity == 1);
  CHECK(nn.table == 0x0F);
  CHECK(net.nodes[net.outputs[3]].kind == NodeKind::constant);
  CHECK(net.nodes[net.outputs[3]].index == 1);
  for (std::size_t i = 0; i < net.nodes.size(); ++i)
    if (!net.dead[i] && net.nodes[i].kind == NodeKind::lut)
      for (unsigned q = 0; q < 3; ++q)
        CHECK(net.nodes[net.nodes[i].in[q]].kind != NodeKind::constant);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_exhaustive, 0, 2, 0, 0, 8};
  ro.store = true;
  const ProgramResult twin = run_program(p, ro);
  require_same(kernels::run_lut_network(net, ro), twin);
  // By hand, x = x0 + 2x1 + 4x2: maj → x ∈ {3, 5, 6, 7}; 2x0 − 3x1 + x2 ≥ 0 → x ∈ {0, 1, 4, 5, 7}.
  CHECK((twin.stored[1] & 0xFF) == 0b11101000);
  CHECK((twin.stored[2] & 0xFF) == 0b10110011);
}

TEST_CASE("the LUT network equals the program on random circuits, covered or not, partitioned",
          "[ptx_source]") {
  std::mt19937_64 rng(301);
  for (int trial = 0; trial < 12; ++trial) {
    const Circuit c = testing::random_boolean_circuit(rng, 5 + trial % 4, 200 + 40 * trial, 8);
    ProgramOptions po;
    po.slot_capacity = trial % 3 == 0 ? 4 : 96;  // spills are renames
    po.compare_pairs = {{0, 1}, {2, 2}, {3, 7}, {4, 5}};
    const Program p = lower_program(c, po);
    RunOptions ro;
    ro.patterns = testing::boolean_trial_patterns(trial, c.inputs().size(), 64 * 9 + 13);
    ro.store = true;
    ro.max_first_mismatches = 5;
    const ProgramResult twin = run_program(p, ro);
    for (bool cover : {false, true})
      for (std::size_t part : {std::size_t{0}, std::size_t{37}, std::size_t{4096}}) {
        INFO("trial " << trial << " cover " << cover << " partition " << part);
        PtxOptions o;
        o.cover = cover;
        o.max_gate_instructions = part;
        const kernels::PtxProgram prog = kernels::ptx_program(p, o);
        require_same(kernels::run_lut_network(prog.net, ro), twin);
        check_text(prog);
        if (part == 37) CHECK(prog.net.parts > 1);
      }
  }
}

TEST_CASE("covering a random netlist: fewer LUTs than gates, same function", "[ptx_source]") {
  std::mt19937_64 rng(302);
  const Program p = lower_program(random_two_input(rng, 32, 3000, 16), {});
  REQUIRE(p.gate_instructions > 1500);  // strash and dead gates leave 1 810
  PtxOptions plain;
  plain.cover = false;
  const LutNetwork flat = kernels::lut_network(p, plain);
  const LutNetwork net = kernels::lut_network(p);
  // One lop3 per gate, plus one per inverted output.
  CHECK(flat.luts >= p.gate_instructions);
  CHECK(flat.luts <= p.gate_instructions + p.outputs);
  // A merged table that ignores an input can leave that input with no reader: ≤, not =.
  CHECK(net.luts + net.absorbed <= flat.luts);
  CHECK(net.luts < flat.luts * 9 / 10);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 9, 2, 0, 0, 64 * 20};
  ro.store = true;
  require_same(kernels::run_lut_network(net, ro), run_program(p, ro));
  PtxOptions small;
  small.max_gate_instructions = 500;
  check_text(kernels::ptx_program(p, small));
  small.load_lookahead = 16;  // loads issued earlier: still before their readers
  const kernels::PtxProgram ahead = kernels::ptx_program(p, small);
  check_text(ahead);
  CHECK(ahead.parts[1].ptx.find("ld.global.nc.u32") < ahead.parts[1].ptx.find("lop3.b32"));
}

TEST_CASE("the EPFL multiplier (shipped) as LUT kernels", "[ptx_source]") {
  const char* env = std::getenv("RNNCC_EPFL_DIR");  // the device run stages the circuits
  const std::string path =
      (env ? std::string(env) : std::string(RNNCC_SOURCE_DIR) + "/tests/data/epfl") +
      "/multiplier.aig";
  const Program p = lower_program(load_aiger(path), {});
  const kernels::PtxProgram prog = kernels::ptx_program(p);
  CHECK(prog.net.luts < p.gate_instructions);
  CHECK(prog.parts.size() == (p.gate_instructions + 4095) / 4096);
  check_text(prog);
  RunOptions ro;
  ro.patterns = {patterns::Mode::bits_random, 4, 2, 0, 0, 64 * 4};
  ro.store = true;
  require_same(kernels::run_lut_network(prog.net, ro), run_program(p, ro));
}

TEST_CASE("PTX kernels refuse arithmetic programs", "[ptx_source]") {
  CircuitBuilder b;
  const GateId x0 = b.input(), x1 = b.input();
  const Program p =
      lower_program(b.finish({b.raw(GateKind::mul, std::vector<GateId>{x0, x1})}), {});
  REQUIRE_THROWS_WITH(kernels::ptx_program(p), Catch::Contains("boolean programs only"));
}

#if RNNCC_HAVE_CUDA
TEST_CASE("nvJitLink assembles the PTX kernels without a device", "[ptx_source][nvjitlink]") {
  setenv("RNNCC_KERNEL_CACHE", "off", 1);
  std::mt19937_64 rng(303);
  PtxOptions o;
  o.max_gate_instructions = 300;
  for (bool cover : {false, true}) {
    o.cover = cover;
    o.mode = cover ? patterns::Mode::bits_random : patterns::Mode::bits_exhaustive;
    const Program p =
        lower_program(testing::random_boolean_circuit(rng, 8, 400, 6), ProgramOptions{});
    for (const auto& part : kernels::ptx_program(p, o).parts) {
      const gpu::compiled::Cubin c = gpu::compiled::compile_ptx(part.ptx, 90);
      CHECK_FALSE(c.cached);
      CHECK(c.image.size() > 100);
    }
  }
  // A broken module: the error log is reported.
  REQUIRE_THROWS_WITH(gpu::compiled::compile_ptx(".version 8.0\n.target sm_90\nnot ptx;\n", 90),
                      Catch::Contains("nvJitLink could not assemble"));
  unsetenv("RNNCC_KERNEL_CACHE");
}

TEST_CASE("ptxas optimization levels: the options, the cache key and the cubins",
          "[ptx_source][nvjitlink]") {
  using gpu::compiled::nvjitlink_options;
  // Level 3 is ptxas's default and adds nothing, so the cache entries of before stay valid.
  CHECK(nvjitlink_options(90) == std::vector<std::string>{"-arch=sm_90", "-O3"});
  CHECK(nvjitlink_options(90, 3) == nvjitlink_options(90));
  CHECK(nvjitlink_options(90, 1) == std::vector<std::string>{"-arch=sm_90", "-O3", "-Xptxas=-O1"});
  REQUIRE_THROWS_WITH(nvjitlink_options(90, 4), Catch::Contains("0 to 3, got 4"));
  const std::string v = "nvJitLink " + gpu::compiled::nvjitlink_version();
  std::set<std::string> keys;
  for (std::uint32_t level : {0u, 1u, 2u, 3u})
    keys.insert(gpu::compiled::cache_key("ptx", v, 90, nvjitlink_options(90, level)));
  CHECK(keys.size() == 4);  // a lower level never reads a cubin assembled at another
  // Every level assembles the same kernel; -O0 keeps more instructions than -O3.
  setenv("RNNCC_KERNEL_CACHE", "off", 1);
  std::mt19937_64 rng(304);
  const Program p =
      lower_program(testing::random_boolean_circuit(rng, 8, 600, 6), ProgramOptions{});
  PtxOptions o;
  o.max_gate_instructions = 100000;
  const auto prog = kernels::ptx_program(p, o);
  REQUIRE(prog.parts.size() == 1);
  std::map<std::uint32_t, std::size_t> size;
  for (std::uint32_t level : {0u, 1u, 3u}) {
    const gpu::compiled::Cubin c = gpu::compiled::compile_ptx(prog.parts[0].ptx, 90, level);
    CHECK_FALSE(c.cached);
    size[level] = c.image.size();
  }
  CHECK(size[0] > size[3]);
  unsetenv("RNNCC_KERNEL_CACHE");
}
#endif
