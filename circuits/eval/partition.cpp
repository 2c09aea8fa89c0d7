// Kernel cuts of a device program; the rules and the recurrence are in partition.hpp.
#include "circuits/eval/partition.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

namespace rnncc::kernels {

namespace {

constexpr std::int64_t kNoDef = kNoDefinition;

// The gate instructions' positions in the program.
std::vector<std::size_t> gate_positions(const Program& p) {
  std::vector<std::size_t> g;
  for (std::size_t i = 0; i < p.code.size(); ++i)
    if (is_gate_instruction(p.code[i].op())) g.push_back(i);
  return g;
}

}  // namespace

std::vector<std::vector<std::int64_t>> operand_definitions(const Program& p) {
  std::vector<std::int64_t> slot_def(p.slots, kNoDef), spill_def(p.spill_slots, kNoDef);
  auto def_at = [&](std::uint32_t loc) -> std::int64_t& {
    return loc_kind(loc) == LocKind::slot ? slot_def.at(loc_index(loc))
                                          : spill_def.at(loc_index(loc));
  };
  std::vector<std::vector<std::int64_t>> defs(p.code.size());
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    const Instr& in = p.code[i];
    for (std::uint32_t loc : operand_locations(p, in))
      defs[i].push_back(loc_kind(loc) == LocKind::constant ? kNoDef : def_at(loc));
    switch (in.op()) {
      case ProgOp::output:
      case ProgOp::compare:
        break;
      case ProgOp::spill:
        def_at(in.d) = defs[i][0];
        break;
      default:
        def_at(in.d) = static_cast<std::int64_t>(i);
    }
  }
  return defs;
}

namespace {

// A spill is no reader of the value it renames.
bool reads_value(const Instr& in) {
  return in.op() != ProgOp::spill;
}

// The fixed rule: a cut at every max_gates-th gate.
std::vector<std::size_t> fixed_cuts(const Program& p, std::size_t max_gates) {
  std::vector<std::size_t> cuts = {0};
  std::size_t gates = 0;
  for (std::size_t i = 0; i < p.code.size(); ++i) {
    if (!is_gate_instruction(p.code[i].op())) continue;
    if (max_gates && gates >= max_gates) {
      cuts.push_back(i);
      gates = 0;
    }
    ++gates;
  }
  cuts.push_back(p.code.size());
  return cuts;
}

struct Grid {
  std::size_t lo, hi, stride;
};

Grid grid_of(const PartitionOptions& o) {
  const std::size_t hi = o.max_gates, lo = o.min_gates ? o.min_gates : hi / 2;
  if (o.stride == 0) throw std::invalid_argument("partition stride must be positive");
  if (lo > hi)
    throw std::invalid_argument("partition: min_gates " + std::to_string(lo) +
                                " exceeds max_gates " + std::to_string(hi));
  // Some multiple of the stride lies in [lo, hi], so every kernel size on the grid is allowed.
  return {lo, hi, std::max<std::size_t>(1, std::min(o.stride, hi - lo + 1))};
}

// Instruction cuts from gate cuts (ascending gate indices).
std::vector<std::size_t> instruction_cuts(const Program& p, const std::vector<std::size_t>& at) {
  const std::vector<std::size_t> gates = gate_positions(p);
  std::vector<std::size_t> cuts = {0};
  for (std::size_t k : at) cuts.push_back(gates[k]);
  cuts.push_back(p.code.size());
  return cuts;
}

}  // namespace

bool is_gate_instruction(ProgOp op) {
  return op != ProgOp::input && op != ProgOp::spill && op != ProgOp::output &&
         op != ProgOp::compare;
}

std::vector<std::uint32_t> operand_locations(const Program& p, const Instr& in) {
  switch (in.op()) {
    case ProgOp::input:
      return {};
    case ProgOp::spill:
    case ProgOp::output:
    case ProgOp::neg:
    case ProgOp::not1:
    case ProgOp::is_zero:
      return {in.a};
    case ProgOp::compare:
      return {in.a, in.d};
    case ProgOp::thr: {
      std::vector<std::uint32_t> r;
      for (std::uint32_t q = 0; q < in.b; ++q)
        r.push_back(static_cast<std::uint32_t>(p.aux[in.a + q]));
      return r;
    }
    default:
      return {in.a, in.b};
  }
}

std::vector<ValueReads> value_reads(const Program& p, bool inputs_cross) {
  const std::size_t n = p.code.size();
  std::vector<std::size_t> key(n, 0);  // κ(i): the last gate at or before i (0 before the first)
  std::size_t gates = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (is_gate_instruction(p.code[i].op())) ++gates;
    key[i] = gates ? gates - 1 : 0;
  }
  std::vector<std::vector<std::size_t>> reads(n);  // per defining instruction
  const auto defs = operand_definitions(p);
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t d : reads_value(p.code[i]) ? defs[i] : std::vector<std::int64_t>{})
      if (d != kNoDef && key[i] > key[static_cast<std::size_t>(d)])
        reads[static_cast<std::size_t>(d)].push_back(key[i]);
  std::vector<ValueReads> values;
  for (std::size_t i = 0; i < n; ++i) {
    if (reads[i].empty()) continue;
    if (!inputs_cross && p.code[i].op() == ProgOp::input) continue;
    std::sort(reads[i].begin(), reads[i].end());
    reads[i].erase(std::unique(reads[i].begin(), reads[i].end()), reads[i].end());
    values.push_back({key[i], std::move(reads[i])});
  }
  return values;
}

CrossTraffic cross_traffic(const Program& p, const std::vector<std::size_t>& cuts,
                           bool inputs_cross) {
  const std::size_t n = p.code.size();
  auto kernel_of = [&](std::size_t i) {
    return static_cast<std::size_t>(std::upper_bound(cuts.begin(), cuts.end(), i) - cuts.begin()) -
           1;
  };
  const auto defs = operand_definitions(p);
  std::vector<std::set<std::size_t>> readers(n);  // the later kernels reading each value
  for (std::size_t i = 0; i < n; ++i)
    for (std::int64_t d : reads_value(p.code[i]) ? defs[i] : std::vector<std::int64_t>{})
      if (d != kNoDef && kernel_of(static_cast<std::size_t>(d)) != kernel_of(i))
        readers[static_cast<std::size_t>(d)].insert(kernel_of(i));
  CrossTraffic t;
  for (std::size_t i = 0; i < n; ++i)
    if (!readers[i].empty() && (inputs_cross || p.code[i].op() != ProgOp::input)) {
      ++t.values;
      t.loads += readers[i].size();
    }
  return t;
}

std::vector<std::size_t> partition_cuts(const Program& p, const PartitionOptions& o) {
  if (o.rule == PartitionRule::fixed || o.max_gates == 0) return fixed_cuts(p, o.max_gates);
  const Grid g = grid_of(o);
  const std::size_t G = gate_positions(p).size();
  if (G <= g.hi) return fixed_cuts(p, 0);
  const std::vector<ValueReads> values = value_reads(p, o.inputs_cross);
  std::vector<std::vector<std::uint32_t>> defined_at(G), read_at(G);  // value numbers by key
  for (std::size_t v = 0; v < values.size(); ++v) {
    defined_at[values[v].a].push_back(static_cast<std::uint32_t>(v));
    for (std::size_t r : values[v].reads) read_at[r].push_back(static_cast<std::uint32_t>(v));
  }
  // f over the grid points k = j·stride < G (j = 0: the start), then the end G.
  const std::size_t points = (G - 1) / g.stride + 1;
  constexpr std::size_t kInf = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> f(points + 1, kInf), from(points + 1, 0);
  f[0] = 0;
  std::vector<std::size_t> seen(values.size(), kInf), loading(values.size(), kInf);
  for (std::size_t j = 1; j <= points; ++j) {
    const std::size_t k = j < points ? j * g.stride : G;
    if (j < points && k < g.lo) continue;
    // Sweep k′ = a down from k − 1: stores(a, k) and loads(a, k) of the kernel [a, k).
    std::size_t stores = 0, loads = 0;
    const std::size_t bottom = k > g.hi ? k - g.hi : 0;
    for (std::size_t a = k; a-- > bottom;) {
      for (std::uint32_t v : read_at[a])  // its largest read below k: loaded for k′ ≤ a
        if (seen[v] != j) {
          seen[v] = j;
          loading[v] = j;
          ++loads;
        }
      for (std::uint32_t v : defined_at[a]) {
        if (loading[v] == j) {  // defined in the kernel now: no load
          loading[v] = kInf;
          --loads;
        }
        stores += values[v].reads.back() >= k;
      }
      if (a % g.stride || (j < points && k - a < g.lo)) continue;
      const std::size_t i = a / g.stride;
      if (f[i] != kInf && f[i] + stores + loads < f[j]) {
        f[j] = f[i] + stores + loads;
        from[j] = i;
      }
    }
  }
  std::vector<std::size_t> fixed = fixed_cuts(p, o.max_gates);
  if (f[points] == kInf) return fixed;  // no cut set on the grid fits
  std::vector<std::size_t> at;
  for (std::size_t j = from[points]; j != 0; j = from[j]) at.push_back(j * g.stride);
  std::reverse(at.begin(), at.end());
  // The fixed cuts are on the grid only when the stride divides max_gates: never worse than them.
  if (cross_traffic(p, fixed, o.inputs_cross).total() < f[points]) return fixed;
  return instruction_cuts(p, at);
}

std::size_t min_traffic_search(const Program& p, const PartitionOptions& o) {
  const Grid g = grid_of(o);
  const std::size_t G = gate_positions(p).size();
  if (o.max_gates == 0 || G <= g.hi)
    return cross_traffic(p, fixed_cuts(p, 0), o.inputs_cross).total();
  std::vector<std::size_t> grid;
  for (std::size_t k = g.stride; k < G; k += g.stride) grid.push_back(k);
  if (grid.size() > 24) throw std::invalid_argument("min_traffic_search: more than 24 grid points");
  std::size_t best = cross_traffic(p, fixed_cuts(p, o.max_gates), o.inputs_cross).total();
  for (std::uint32_t mask = 0; mask < (1u << grid.size()); ++mask) {
    std::vector<std::size_t> at;
    for (std::size_t q = 0; q < grid.size(); ++q)
      if (mask >> q & 1u) at.push_back(grid[q]);
    bool ok = true;
    std::size_t prev = 0;
    for (std::size_t k : at) {
      ok = ok && k - prev >= g.lo && k - prev <= g.hi;
      prev = k;
    }
    ok = ok && G - prev <= g.hi;
    if (ok)
      best = std::min(best, cross_traffic(p, instruction_cuts(p, at), o.inputs_cross).total());
  }
  return best;
}

}  // namespace rnncc::kernels
