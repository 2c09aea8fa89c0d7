// Internals of compile_lrnn shared by the scan (lrnn.cpp), the chunked form (chunked.cpp)
// and the cost formulas (cost.cpp). Not a public interface. (The region recorder and the other
// helpers every compiler uses are in circuits/compiled_circuit.hpp and common.hpp.)
#pragma once

#include <string>
#include <vector>

#include "algebra/matrix.hpp"
#include "circuits/circuit.hpp"
#include "circuits/compile/lrnn.hpp"

namespace rnncc::detail {

using GMat = Matrix<GateId>;

// A scan element: the affine map (A, B) of a segment. Dense keeps A; diagonal keeps diag;
// PD keeps P in A (0/1) and D in diag. Anchored segments start at position 1 and are already
// applied to S_0: only B = S_t is kept.
struct Element {
  bool anchored = false;
  GMat A;
  std::vector<GateId> diag;
  GMat B;
  std::uint32_t chain = 0;  // combines on the longest chain that produced it
};

class LayerCompiler {
 public:
  LayerCompiler(CircuitBuilder& builder, const LrnnLayer& l, CombineStructure s)
      : b(builder), layer(l), structure(s) {}
  // Σ_k c_k·z_k (+ base), folded.
  GateId lin(const std::vector<Rational>& coeffs, const std::vector<GateId>& z,
             const Rational* base = nullptr);
  Element leaf(const std::vector<GateId>& z);
  Element anchor(const Element& first);
  Element combine(const Element& later, const Element& earlier);
  GMat apply(const Element& u, const GMat& s, const GMat& offset);  // A_u·s + offset
  GMat readout(const GMat& state, const std::vector<GateId>& z);

  CircuitBuilder& b;
  const LrnnLayer& layer;
  const CombineStructure structure;

 private:
  std::vector<Rational>& coeffs_of(const std::vector<Matrix<Rational>>& per_feature, std::size_t i,
                                   std::size_t j);
  std::vector<GateId> terms_;
  std::vector<Rational> coeffs_;
};

// The chunked WY/UT form of a DeltaNet layer: S_t for every position.
std::vector<GMat> chunked_deltanet(LayerCompiler& lc, RegionRecorder& rec, std::uint32_t layer,
                                   const std::vector<std::vector<GateId>>& z, std::size_t chunk);

}  // namespace rnncc::detail
