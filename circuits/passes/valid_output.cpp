#include "circuits/passes/valid_output.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "circuits/passes/raw_copy.hpp"

namespace rnncc {

namespace {

// (any, many) of the indicators x[lo, hi) of one position (the header's tree); many = kNoGate
// stands for the constant 0 of a single indicator, so that no constant gate is made.
struct Count {
  GateId any, many;
};

Count count_tree(CircuitBuilder& b, const std::vector<GateId>& x, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return {x[lo], kNoGate};
  const std::size_t mid = lo + (hi - lo) / 2;
  const Count l = count_tree(b, x, lo, mid), r = count_tree(b, x, mid, hi);
  std::vector<GateId> many{b.and_(std::vector<GateId>{l.any, r.any})};
  for (GateId m : {l.many, r.many})
    if (m != kNoGate) many.push_back(m);
  // many_l ∨ many_r first, then ∨ (any_l ∧ any_r): fan-in 2 throughout.
  GateId below = kNoGate;
  if (many.size() == 3) below = b.or_(std::vector<GateId>{many[1], many[2]});
  if (many.size() == 2) below = many[1];
  return {b.or_(std::vector<GateId>{l.any, r.any}),
          below == kNoGate ? many[0] : b.or_(std::vector<GateId>{below, many[0]})};
}

// ∧ of bits[lo, hi) by a balanced tree of fan-in-2 ANDs.
GateId and_tree(CircuitBuilder& b, const std::vector<GateId>& bits, std::size_t lo,
                std::size_t hi) {
  if (hi - lo == 1) return bits[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  return b.and_(std::vector<GateId>{and_tree(b, bits, lo, mid), and_tree(b, bits, mid, hi)});
}

}  // namespace

CompiledCircuit with_valid_output(const CompiledCircuit& cc, std::size_t symbols) {
  const Circuit& c = cc.circuit;
  const std::size_t inputs = c.inputs().size();
  if (symbols == 0 || inputs == 0 || inputs % symbols != 0)
    throw std::logic_error("with_valid_output: " + std::to_string(inputs) +
                           " inputs are not n one-hot groups of " + std::to_string(symbols));
  const auto& names = c.output_names();
  if (std::find(names.begin(), names.end(), "valid") != names.end())
    throw std::logic_error("with_valid_output: the circuit has an output named \"valid\" already");

  // The circuit copied gate by gate in id order: a builder-made circuit has no two equal gates,
  // so every gate keeps its id and the regions stay valid as they are.
  CircuitBuilder b;
  b.reserve(c.size() + 4 * inputs + 1);
  std::vector<GateId> map(c.size(), kNoGate);
  for (GateId id = 0; id < c.size(); ++id)
    map[id] = c.kind(id) == GateKind::input ? b.input(c.input_names()[c.input_index(id)])
                                            : copy_gate_raw(b, c, id, map);
  bool same_ids = true;
  for (GateId id = 0; id < c.size(); ++id) same_ids = same_ids && map[id] == id;

  const std::size_t first_new = b.size(), copied_requests = b.requests();
  const std::size_t n = inputs / symbols;
  std::vector<GateId> positions;
  positions.reserve(n);
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<GateId> x(symbols);
    for (std::size_t s = 0; s < symbols; ++s) x[s] = map[c.inputs()[t * symbols + s]];
    const Count k = count_tree(b, x, 0, symbols);
    positions.push_back(k.many == kNoGate ? k.any
                                          : b.and_(std::vector<GateId>{k.any, b.not_(k.many)}));
  }
  const GateId valid = and_tree(b, positions, 0, n);

  CompiledCircuit out;
  out.combine_levels = cc.combine_levels;
  out.requested_gates = cc.requested_gates + (b.requests() - copied_requests);
  out.hash_table_bytes = std::max(cc.hash_table_bytes, b.hash_table_bytes());
  out.dead_gates_swept = cc.dead_gates_swept;
  out.dead_gates_note = cc.dead_gates_note;
  if (same_ids) {
    out.regions = cc.regions;
    if (b.size() > first_new)
      out.regions.push_back({.kind = RegionKind::valid,
                             .first_gate = static_cast<std::uint32_t>(first_new),
                             .layer = 0,
                             .level = 0,
                             .target = 0,
                             .source = 0});
  }
  std::vector<GateId> outs;
  outs.reserve(c.outputs().size() + 1);
  for (GateId o : c.outputs()) outs.push_back(map[o]);
  outs.push_back(valid);
  std::vector<std::string> out_names = names;
  out_names.resize(c.outputs().size());
  out_names.push_back("valid");
  out.circuit = b.finish(std::move(outs), std::move(out_names));
  return out;
}

}  // namespace rnncc
