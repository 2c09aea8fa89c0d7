// Size and depth of compile_lrnn's circuits as functions of n, d, m, |Σ| and the scan
// (docs/circuits.md, "Size" and "Depth"). Exact for generic parameters — every coefficient
// nonzero, ≠ 1 and free of coincidences, S_0 and C generic — where no folding or sharing can
// happen; otherwise upper bounds. Computed from the model and the prefix schedule, never from
// a circuit, so tests can compare them with measurements.
#pragma once

#include <cstddef>

#include "circuits/analysis.hpp"
#include "circuits/compile/lrnn.hpp"

namespace rnncc {

struct CombineCost {
  std::size_t full = 0;      // operations of a combine whose earlier operand is not anchored
  std::size_t anchored = 0;  // … whose earlier operand is anchored (B part only)
};
CombineCost combine_cost(CombineStructure s, std::size_t d, std::size_t m);

struct SizeBreakdown {
  std::size_t leaves = 0, anchor = 0, combines = 0, readout = 0, input_maps = 0, chunks = 0,
              accept = 0;
  std::size_t total() const {
    return leaves + anchor + combines + readout + input_maps + chunks + accept;
  }
};
SizeBreakdown predict_size(const Model& model, std::size_t n, const CompileOptions& options);

// Depth of the compiled circuit by the two-track recurrence over the prefix schedule
// (A-part and B-part depths per segment). Single-layer models, scans only.
std::uint32_t predict_depth(const Model& model, std::size_t n, const CompileOptions& options,
                            FaninModel fanin);

}  // namespace rnncc
