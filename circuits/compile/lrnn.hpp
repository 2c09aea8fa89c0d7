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

#include <string>

#include "circuits/compile/common.hpp"
#include "circuits/compiled_circuit.hpp"
#include "rnn/model.hpp"

namespace rnncc {

enum class Structure { automatic, dense };

struct CompileOptions {
  Scan scan;  // scan.chunk > 0: the chunked WY/UT form of a deltanet layer instead of a scan
  OutputMode outputs = OutputMode::last;
  Structure structure = Structure::automatic;
  bool acceptance = true;
  Budget budget;
};

// Throws InputError for n = 0, a model with non-LRNN layers, chunked form on a non-deltanet
// layer, or an estimate above options.budget (the message gives the estimate).
CompiledCircuit compile_lrnn(const Model& model, std::size_t n, const CompileOptions& options);

// Upper bound on the operations compile_lrnn creates (generic parameters; folding and sharing
// only lower it): docs/circuits.md, "Size".
std::size_t estimate_lrnn_gates(const Model& model, std::size_t n, const CompileOptions& options);

// The structure a layer compiles with.
enum class CombineStructure { dense, diagonal, pd };
CombineStructure combine_structure(const LrnnLayer& layer, Structure requested);
std::string to_string(CombineStructure s);

}  // namespace rnncc
