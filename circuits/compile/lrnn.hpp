// compile_lrnn: an LRNN model (a stack of LRNN layers) and a length n become an explicit
// arithmetic circuit over Q (constructions.md §2; docs/circuits.md).
//
// Inputs are the one-hot indicators x[t,σ] (t = 1..n, σ in alphabet order: input index
// (t−1)·|Σ| + id(σ)). Each position's affine map F_t = (A(x_t), B(x_t)) has entries
// A(x_t)_ij = Σ_σ (A_σ)_ij·x[t,σ] (constant-folded). The first map is applied to S_0 at once
// ("anchored": only its B part is kept); a prefix network then composes
//     (A₂,B₂)∘(A₁,B₁) = (A₂A₁, A₂B₁ + B₂)
// and an anchored composite needs only A₂B₁ + B₂ (a matrix-vector product). Structure-aware
// combines: diagonal maps compose entrywise; PD maps stay (P, D) with P₂P₁ and
// D = (P₁ᵀ D₂ P₁)·D₁; everything else is a dense matrix product. The outputs are y_n (or every
// y_t) and, last, the acceptance test positive(y) or is_zero(y).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/circuit.hpp"
#include "circuits/compile/prefix.hpp"
#include "rnn/model.hpp"

namespace rnncc {

enum class Structure { automatic, dense };
enum class OutputMode { last, all };

struct CompileOptions {
  ScanKind scan = ScanKind::brent_kung;
  unsigned ladner_fischer_k = 1;
  std::size_t chunk = 0;  // > 0: the chunked WY/UT form of a deltanet layer instead of a scan
  OutputMode outputs = OutputMode::last;
  Structure structure = Structure::automatic;
  bool acceptance = true;
  std::size_t max_gates = std::size_t{1} << 28;  // refuse larger estimates (≈ 8 GiB)
};

// Where a gate came from (side table of the compiled circuit).
enum class RegionKind : std::uint8_t { input, leaf, combine, readout, input_map, chunk, accept };
std::string to_string(RegionKind k);
struct Region {
  RegionKind kind = RegionKind::input;
  std::uint32_t first_gate = 0;  // the region holds gates [first_gate, next region's first_gate)
  std::uint32_t layer = 0;
  std::uint32_t level = 0;   // combine: chain depth of the result; leaf/readout: position
  std::uint32_t target = 0;  // combine: v[target] = v[target] ∘ v[source]; chunk: chunk index
  std::uint32_t source = 0;
};

struct CompiledCircuit {
  Circuit circuit;
  // Regions in creation order; gates are created region by region, so a region is an id range
  // (run-length side table: 4 bytes a region instead of 4 bytes a gate).
  std::vector<Region> regions;
  // The region of gate g (binary search), and the expanded per-gate table.
  std::uint32_t region_of(GateId g) const;
  std::vector<std::uint32_t> region_table() const;
  std::size_t combine_levels = 0;    // longest chain of combines (over layers, summed)
  std::size_t requested_gates = 0;   // builder requests, before sharing
  std::size_t hash_table_bytes = 0;  // the builder's hash table at its largest (freed after)
};

// Throws InputError for n = 0, a model with non-LRNN layers, chunked form on a non-deltanet
// layer, or an estimate above options.max_gates (the message gives the estimate).
CompiledCircuit compile_lrnn(const Model& model, std::size_t n, const CompileOptions& options);

// Upper bound on the operations compile_lrnn creates (generic parameters; folding and sharing
// only lower it): docs/circuits.md, "Size".
std::size_t estimate_operations(const Model& model, std::size_t n, const CompileOptions& options);

// Parses --scan: sequential | sklansky | kogge-stone | brent-kung | ladner-fischer[:K] |
// chunked:C, into options (InputError naming `flag` otherwise).
void parse_scan(std::string_view text, CompileOptions& options, const std::string& flag = "--scan");

// The structure a layer compiles with.
enum class CombineStructure { dense, diagonal, pd };
CombineStructure combine_structure(const LrnnLayer& layer, Structure requested);
std::string to_string(CombineStructure s);

}  // namespace rnncc
