#include "circuits/compiled_circuit.hpp"

#include <algorithm>
#include <map>

namespace rnncc {

std::string to_string(RegionKind k) {
  switch (k) {
    case RegionKind::input:
      return "input";
    case RegionKind::leaf:
      return "leaf";
    case RegionKind::combine:
      return "combine";
    case RegionKind::readout:
      return "readout";
    case RegionKind::input_map:
      return "input_map";
    case RegionKind::chunk:
      return "chunk";
    case RegionKind::accept:
      return "accept";
    case RegionKind::valid:
      return "valid";
  }
  return "?";
}

std::size_t combine_levels_of(const std::vector<Region>& regions) {
  std::map<std::uint32_t, std::size_t> deepest;  // layer → its deepest combine level
  for (const Region& r : regions)
    if (r.kind == RegionKind::combine)
      deepest[r.layer] = std::max<std::size_t>(deepest[r.layer], r.level);
  std::size_t levels = 0;
  for (const auto& [layer, level] : deepest) levels += level;
  return levels;
}

std::uint32_t CompiledCircuit::region_of(GateId g) const {
  auto it = std::upper_bound(regions.begin(), regions.end(), g,
                             [](GateId id, const Region& r) { return id < r.first_gate; });
  return static_cast<std::uint32_t>(it - regions.begin()) - 1;
}

std::vector<std::uint32_t> CompiledCircuit::region_table() const {
  std::vector<std::uint32_t> table(circuit.size(), 0);
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const std::size_t end = r + 1 < regions.size() ? regions[r + 1].first_gate : circuit.size();
    for (std::size_t g = regions[r].first_gate; g < end; ++g)
      table[g] = static_cast<std::uint32_t>(r);
  }
  return table;
}

namespace detail {

void RegionRecorder::enter(Region r) {
  r.first_gate = static_cast<std::uint32_t>(b.size());
  if (!regions.empty() && regions.back().first_gate == r.first_gate && regions.size() > 1)
    regions.pop_back();  // the previous region created no gate: drop it
  regions.push_back(r);
}

}  // namespace detail

}  // namespace rnncc
