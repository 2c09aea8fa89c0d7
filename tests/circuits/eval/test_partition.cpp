// Kernel cuts (circuits/eval/partition.hpp): the fixed rule as the emitters always cut;
// min_traffic against its plain twin (every cut set searched) on seeded random programs, with its
// kernels within their bounds; a program checked by hand; the PTX and CUDA C++ emitters cutting
// where partition_cuts says, their loads and stores as cross_traffic counts them.
#include <catch2/catch.hpp>
#include <random>

#include "circuits/eval/kernel_source.hpp"
#include "circuits/eval/partition.hpp"
#include "circuits/eval/program.hpp"
#include "circuits/eval/ptx_source.hpp"
#include "tests/circuits/random_circuits.hpp"

using namespace rnncc;
using namespace rnncc::kernels;

namespace {

std::size_t gates_of(const Program& p, std::size_t from, std::size_t to) {
  std::size_t g = 0;
  for (std::size_t i = from; i < to; ++i) g += is_gate_instruction(p.code[i].op());
  return g;
}

// Every kernel holds [lo, hi] gates but the last (≤ hi); every cut is at a gate.
void check_bounds(const Program& p, const std::vector<std::size_t>& cuts, std::size_t lo,
                  std::size_t hi) {
  REQUIRE(cuts.front() == 0);
  REQUIRE(cuts.back() == p.code.size());
  for (std::size_t q = 0; q + 1 < cuts.size(); ++q) {
    INFO("kernel " << q << " of " << cuts.size() - 1);
    const std::size_t g = gates_of(p, cuts[q], cuts[q + 1]);
    CHECK(g <= hi);
    if (q + 2 < cuts.size()) CHECK(g >= lo);
    if (q > 0) CHECK(is_gate_instruction(p.code[cuts[q]].op()));
  }
}

}  // namespace

TEST_CASE("fixed cuts: a kernel every max_gates gates, as the emitters cut", "[partition]") {
  std::mt19937_64 rng(71);
  const Program p =
      lower_program(testing::random_boolean_circuit(rng, 10, 700, 6), ProgramOptions{});
  const std::size_t G = gates_of(p, 0, p.code.size());
  for (std::size_t max : {std::size_t{0}, std::size_t{37}, std::size_t{100}, G, G + 5}) {
    PartitionOptions o;
    o.max_gates = max;
    const auto cuts = partition_cuts(p, o);
    const std::size_t kernels = max == 0 ? 1 : (G + max - 1) / max;
    REQUIRE(cuts.size() == kernels + 1);
    for (std::size_t q = 0; q + 2 < cuts.size(); ++q)
      CHECK(gates_of(p, cuts[q], cuts[q + 1]) == max);
    // The PTX network and the CUDA C++ sources have as many kernels.
    PtxOptions po;
    po.max_gate_instructions = max;
    CHECK(lut_network(p, po).parts == kernels);
    SourceOptions so;
    so.max_gate_instructions = max;
    const KernelSource ks = kernel_source(p, 1, so);
    REQUIRE(ks.parts.size() == kernels);
    for (std::size_t q = 0; q < kernels; ++q) {
      CHECK(ks.parts[q].first == cuts[q]);
      CHECK(ks.parts[q].last == cuts[q + 1]);
    }
  }
}

TEST_CASE("min_traffic equals the search over every cut set, within the kernel bounds",
          "[partition]") {
  std::mt19937_64 rng(72);
  for (int trial = 0; trial < 40; ++trial) {
    const bool boolean = trial % 4 != 3;
    const Circuit c = boolean
                          ? testing::random_boolean_circuit(rng, 6 + trial % 7, 60 + 9 * trial, 5)
                          : testing::random_arithmetic_circuit(rng, 6, 80 + 5 * trial, 4);
    ProgramOptions lo_opts;
    lo_opts.slot_capacity = trial % 3 == 0 ? 5 : 96;  // spills rename values across kernels
    const Program p = lower_program(c, lo_opts);
    const std::size_t G = gates_of(p, 0, p.code.size());
    PartitionOptions o;
    o.rule = PartitionRule::min_traffic;
    o.max_gates = std::max<std::size_t>(G / 5, 8);
    o.stride = 1 + trial % 4;
    o.inputs_cross = trial % 2 == 0;
    if (trial % 5 == 0) o.min_gates = o.max_gates / 3;
    INFO("trial " << trial << ": " << G << " gates, kernels of ≤ " << o.max_gates << ", stride "
                  << o.stride);
    const auto cuts = partition_cuts(p, o);
    const std::size_t lo = o.min_gates ? o.min_gates : o.max_gates / 2;
    check_bounds(p, cuts, lo, o.max_gates);
    const std::size_t traffic = cross_traffic(p, cuts, o.inputs_cross).total();
    const std::size_t grid_points = (G - 1) / std::min(o.stride, o.max_gates - lo + 1);
    if (grid_points <= 16) CHECK(traffic == min_traffic_search(p, o));
    // Never more than the fixed rule (on the grid or not).
    PartitionOptions fixed = o;
    fixed.rule = PartitionRule::fixed;
    CHECK(traffic <= cross_traffic(p, partition_cuts(p, fixed), o.inputs_cross).total());
  }
}

TEST_CASE("min_traffic by hand: the cut goes where one value is live", "[partition]") {
  // x0 … x3 feed a chain of ANDs whose left half keeps four values live and whose right half one:
  // g1 = x0∧x1, g2 = x2∧x3, g3 = g1∧g2 (three live values before g3), then g4..g8 = g∧x3 chain.
  CircuitBuilder b;
  std::vector<GateId> x;
  for (int i = 0; i < 4; ++i) x.push_back(b.input());
  const GateId g1 = b.and_(std::vector{x[0], x[1]}), g2 = b.and_(std::vector{x[2], x[3]});
  GateId g = b.and_(std::vector{g1, g2});
  for (int i = 0; i < 5; ++i) g = b.xor_(std::vector{g, x[i % 4]});
  const Program p = lower_program(b.finish({g}), ProgramOptions{});
  const std::size_t G = gates_of(p, 0, p.code.size());
  REQUIRE(G == 8);
  PartitionOptions o;
  o.rule = PartitionRule::min_traffic;
  o.max_gates = 6;
  o.min_gates = 2;
  o.stride = 1;
  o.inputs_cross = false;  // PTX: inputs are computed again in each kernel
  const auto cuts = partition_cuts(p, o);
  REQUIRE(cuts.size() == 3);  // two kernels
  // After the first three gates or later only the running value crosses: one store, one load.
  CHECK(cross_traffic(p, cuts, false).values == 1);
  CHECK(cross_traffic(p, cuts, false).loads == 1);
  CHECK(min_traffic_search(p, o) == 2);
  // The cut at gate 2 (between g2 and g3) lets g1 and g2 both cross.
  const std::vector<std::size_t> early = {0, 0, p.code.size()};
  std::vector<std::size_t> at2 = early;
  std::size_t seen = 0;
  for (std::size_t i = 0; i < p.code.size(); ++i)
    if (is_gate_instruction(p.code[i].op()) && seen++ == 2) at2[1] = i;
  CHECK(cross_traffic(p, at2, false).values == 2);
  CHECK(cross_traffic(p, at2, false).loads == 2);
}

TEST_CASE("partition options are checked", "[partition]") {
  std::mt19937_64 rng(73);
  const Program p =
      lower_program(testing::random_boolean_circuit(rng, 6, 200, 4), ProgramOptions{});
  PartitionOptions o;
  o.rule = PartitionRule::min_traffic;
  o.max_gates = 20;
  o.min_gates = 30;
  REQUIRE_THROWS_WITH(partition_cuts(p, o), Catch::Contains("min_gates 30 exceeds max_gates 20"));
  o.min_gates = 0;
  o.stride = 0;
  REQUIRE_THROWS_WITH(partition_cuts(p, o), Catch::Contains("stride must be positive"));
}

TEST_CASE("min_traffic cuts give the PTX and CUDA C++ kernels the same semantics", "[partition]") {
  std::mt19937_64 rng(74);
  for (int trial = 0; trial < 6; ++trial) {
    const Program p = lower_program(testing::random_boolean_circuit(rng, 8, 500 + 100 * trial, 6),
                                    ProgramOptions{});
    PtxOptions po;
    po.max_gate_instructions = 90;
    po.partition = PartitionRule::min_traffic;
    const LutNetwork net = lut_network(p, po);
    CHECK(net.parts > 1);
    RunOptions ro;
    ro.patterns = {patterns::Mode::bits_random, static_cast<std::uint64_t>(trial), 2, 0, 0, 640};
    ro.store = true;
    const ProgramResult twin = run_program(p, ro), lut = run_lut_network(net, ro);
    CHECK(lut.ones == twin.ones);
    CHECK(lut.stored == twin.stored);
    // The CUDA C++ kernels' cross values, loads and stores are what cross_traffic counts for
    // partition_cuts' cuts.
    PartitionOptions o;
    o.rule = PartitionRule::min_traffic;
    o.max_gates = 90;
    SourceOptions so;
    so.max_gate_instructions = 90;
    so.partition = PartitionRule::min_traffic;
    const KernelSource ks = kernel_source(p, 1, so);
    const CrossTraffic t = cross_traffic(p, partition_cuts(p, o), true);
    CHECK(ks.cross_values == t.values);
    std::size_t loads = 0, stores = 0;
    for (const Partition& q : ks.parts) loads += q.loads, stores += q.stores;
    CHECK(stores == t.values);
    CHECK(loads == t.loads);
  }
}
