// Deterministic WFAs ↔ PD linear RNNs ([MJLLS26] Merrill et al. 2026; reference
// constructions.md §4, last item; docs/constructions.md).
//
// Theorem. A WFA (f(w) = αᵀ M_{w₁} ⋯ M_{w_n} β, constructions/wfa.hpp) is deterministic iff α
// has one nonzero entry and every row of every M_σ has at most one nonzero entry. Then every
// column of A_σ = M_σᵀ has at most one nonzero entry, so A_σ = P_σ·diag(D_σ) with P_σ
// column-one-hot: a one-layer PD LRNN (S_0 = α, C = βᵀ, one token per symbol) computes f.
// Conversely a one-layer PD LRNN with one state column and one readout row is the WFA
// α = S_0, M_σ = A_σᵀ, β = Cᵀ, whose transitions are deterministic; with P_σ a permutation
// (and D_σ without zeros) it is a reversible one.
//
// Column-one-hot convention (docs/semantics.md, "Families"): P e_j = e_{image[j]}, i.e. column
// j of P has its one 1 in row image[j], and A = P·diag(D) has A[image[j]][j] = D_j. A DWFA arc
// p --σ/w--> q is (M_σ)_{pq} = w, so A_σ[q][p] = w: image[p] = q and D_p = w. A state p with
// no σ-arc gets a zero column: image[p] = p, D_p = 0.
//
// Claims (dwfa_to_pd): state size = number of states; steps per symbol = 1;
// "A_σ = P_σ·diag(D_σ) = M_σᵀ with P_σ column-one-hot" exact; the P kind (column-one-hot, or
// permutation for every symbol: informational, always ok).
// Claims (pd_to_dwfa_check): state size; steps per symbol = 1; "rows of M_σ have ≤ 1 nonzero"
// (always true of a PD layer); "one initial state": S_0 has exactly one nonzero entry. The
// last fails for a PD model whose S_0 is not one-hot: that model is a WFA with deterministic
// transitions but not a DWFA (pd_to_dwfa still extracts it, and its values still agree).
#pragma once

#include "constructions/construction.hpp"
#include "constructions/wfa.hpp"

namespace rnncc {

// The PD model of a deterministic WFA (make_pd with require_permutation = false; the layer's
// record says per symbol whether P_σ is a permutation, which model files write as P_kind).
// Encode and embedding are the identity (one token per symbol, input index (t−1)|Σ| + σ).
// Throws InputError (where = "") naming the reason when `a` is not deterministic: the states
// with initial weight, or the state and symbol with two arcs.
Construction dwfa_to_pd(const Wfa& a);

// The WFA of a one-layer PD model: α = S_0, M_σ = A_σᵀ, β = Cᵀ, states named "0".."d−1",
// the model's alphabet. Requires (InputError, where = "layer 0" or "layers", naming what is
// unsupported): exactly one layer, an lrnn/pd layer, one state column (m = 1), one readout
// row, no nonzero readout bias, no nonzero per-symbol readouts, B_σ = 0 for every symbol.
// Always succeeds on such a model; the result's deterministic() is true iff S_0 has exactly
// one nonzero entry (a PD model with another S_0 yields a WFA with deterministic transitions
// but several or no initial states).
Wfa pd_to_dwfa(const Model& m);

// Checks the extraction: X = the model itself, f = the WFA pd_to_dwfa extracts; identity
// encode and embedding; the claims listed above.
Construction pd_to_dwfa_check(const Model& m);

}  // namespace rnncc
