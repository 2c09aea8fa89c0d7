// The iterated 3×3 matrix product, computed by an RWKV-7 style LRNN of overwrites
// [MJLLS26 Thm 5, as corrected in docs/errata.md].
//
// Theorem. The iterated product of 3×3 integer matrices is complete for arithmetic NC¹, and
// "is entry (0,0) of M₁⋯M_N positive?" is PNC¹-complete [CMTV98]. [MJLLS26] (Merrill, Jiang,
// Li, Lin, Sabharwal, "Why Are Linear RNNs More Parallelizable?", arXiv 2603.03612, Thm 5)
// shows that a DPLR LRNN (RWKV-7) computes it, so DPLR LRNNs are PNC¹-hard. An independent
// audit (reference §5) found that the printed schedule must initialize on a BOS token; this
// file builds both the audited model and the flawed one, so the checker can tell them apart.
//
// Target f (alphabet = generator names "M0", "M1", …): f(w) = (M_{w₁}·M_{w₂}⋯M_{w_n})[0][0]
// exactly over Q (the empty product is I, so f(ε) = 1). With `modulus` set, verify compares
// modulo it; the model's parameters are the generators' entries (and 0, ±1), so its F_p run is
// the exact run reduced mod p (docs/semantics.md, "Mod p") wherever p divides no denominator —
// which the builder checks. The default generators (and the paper's) have entries in {−1, 0, 1};
// any rational entries work (Matmul3Options::generators, a generator file).
//
// Model (column-vector convention S_t = A(z_t)S_{t−1} + B(z_t), docs/semantics.md), one
// `rwkv7` layer, d = 18, m = 1, no constant coordinate:
//   - state = two buffers of 9 coordinates, buffer b ∈ {0,1} holds vec_row(P) at coordinates
//     9b + 3r + k (entry (r, k) of P). Before matrix i (1-based) the product P_{i−1} =
//     M_{w₁}⋯M_{w_{i−1}} lies in the ACTIVE buffer, buffer 0 for odd i and buffer 1 for even i.
//   - each token performs one overwrite x_j ← ⟨c, x⟩, i.e. A = I − e_j e_jᵀ + e_j cᵀ with
//     c_j = 0, B = 0; in make_rwkv7's form diag(w) + a bᵀ: w = 1, a = e_j, b = c − e_j.
//   - matrix i = A takes 9 tokens p = 0..8: token p writes entry (r, s) = (p / 3, p mod 3) of
//     P·A into the inactive buffer, reading row r of P from the active buffer with the weights
//     of column s of A: c = Σ_k A[k][s]·e_{active(r,k)}. Reads and writes are in different
//     buffers, so c_j = 0, and the 9 writes do not disturb each other. After token 8 the
//     inactive buffer holds vec(P_i) and the roles swap.
//   - BOS: w = 0, a = b = 0 (A = 0, the zero projection), B = vec(I) in buffer 0: an affine
//     reset that is still of RWKV-7 form diag(w) + a bᵀ (w = 0) with a free B, so the whole layer
//     is one family.
// Token alphabet (Σ × [9] × parity): "BOS" and "p<p>:<col>:<odd|even>" — p the sub-position
// 0..8, col the three entries A[0][s] A[1][s] A[2][s] of the column s = p mod 3 written with
// '+', '0', '-', and odd/even the parity of the matrix index i (odd reads buffer 0 and writes
// buffer 1), e.g. "p5:+0-:even"; a column with another entry is written "[2;1/2;-3]"
// (canonical rationals), e.g. "p5:[2;1/2;-3]:even". Of the 9·27·2 = 486 possible overwrite tokens
// the model keeps those some generator uses (a column col at sub-position p exists iff col is
// column p mod 3 of a generator), at most 9·|G|·2, so that the reference evaluator's cost stays
// proportional to what is used; the 7 default generators give 120 overwrite tokens + BOS = 121
// symbols. encode(w) = BOS, then 9 tokens per matrix. Readout: per-symbol (y_t = (C + C_{token})
// S_t, C = 0): a token with p < 8 and BOS read entry (0,0) of the active buffer, a token with p = 8
// reads entry (0,0) of the buffer it has just completed. So at every position y_t = (product of the
// completed matrices)[0][0], and the readout needs no knowledge of the parity of n. (A fixed
// readout summing both buffers' (0,0) would need the inactive buffer kept at 0, which costs extra
// clearing overwrites.)
//
// Claims (measured on the built model by matmul3()): state dimension = 18, layers = 1,
// tokens per matrix = 9 (from encode, for every generator), BOS tokens = 1, max over non-BOS
// tokens of rank(A_σ − I) ≤ 1 and of rank(A_σ − diag(A_σ)) ≤ 1 (identity plus rank one,
// DPLR), non-BOS tokens with B_σ ≠ 0 = 0, alphabet size ≤ 9·27·2 + 1 = 487 (entries in
// {−1, 0, 1}; otherwise ≤ 18·|G| + 1, one token per sub-position, parity and generator).
//
// The flawed variant (init_on_bos = false) models the printed schedule: no BOS, S_0 = 0, and
// the initialization is done by the first data token, i.e. every token "p0:<col>:odd" sets
// buffer 0 to vec(I) before its overwrite (A = diag(w), w = 0 on buffer 0 and on the written
// coordinate, B = vec(I) + A[0][0]·e_9 — still RWKV-7 form, but not identity + rank one). An
// LRNN's map depends only on the token, and "sub-position 0 of an odd matrix" is the same
// token at matrices 1, 3, 5, …: the reset fires again at matrix 3 and the model computes
// (M_{w_i}⋯M_{w_n})[0][0] with i the last odd index ≤ n. Strings of length ≤ 2 are right;
// the shortest counterexamples have length 3: with the default generators the first is
// M0 M2 M0, f = 2, model 1 (tests/constructions/test_matmul3.cpp finds it). Its claims are
// measured the same way, so "BOS tokens = 0" holds, and the rank and B claims fail on the
// initializing tokens (rank(A − I) = 10). Note that rnncc also allows S_0 = vec(I), which
// would need neither BOS nor a reset; RWKV-7 starts from the zero state, as does this model.
//
// matmul3_stacked(): the same upper layer, fed by a lower layer that supplies the sub-position
// and parity. The input alphabet is "BOS" and the column tokens "c:<col>"; encode(w) = BOS,
// then for each matrix its columns 0,1,2,0,1,2,0,1,2. Layer 1 is a `pd` layer (d = 18) that
// counts data tokens mod 18 with a cyclic permutation (BOS resets it to e_17, "position −1");
// its per-symbol readout C_col maps the counter's one-hot e_q to the one-hot of the upper
// feature (p = q mod 9, col, parity = q div 9), and the InputMap (identity) hands that one-hot
// to layer 2, which is exactly matmul3()'s layer (same features, same order). A column at a
// sub-position where no generator has it (never in encode's image) has no upper feature: there
// z = 0 and layer 2's map is S ↦ 0. Default generators: 19 input symbols (18 columns + BOS),
// layer 1 d = 18, layer 2 d = 18 with 121 features. Claims add layers = 2, counter state
// dimension = 18 and "counter maps of data tokens that are not permutations = 0".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "constructions/construction.hpp"
#include "constructions/generators_file.hpp"

namespace rnncc {

struct Matmul3Options {
  // Set: verify compares modulo it (e.g. 29, the prime of [MJLLS26]'s experiments).
  std::optional<std::uint64_t> modulus;
  // false: the flawed printed schedule (no BOS; the first data token initializes), see above.
  bool init_on_bos = true;
  // The target alphabet: 3×3 matrices over Q, row-major, named "M0", "M1", … (at most
  // max_generators; a generator file, constructions/generators_file.hpp, reads them).
  // Empty: default_matmul3_generators().
  std::vector<Matrix3> generators;
};

// Seven matrices M0..M6: M0..M5 drawn from std::mt19937_64(3612) (entries rng() mod 3 − 1,
// redrawn until M0 is singular and nonzero, det M1 = −1, det M2..M5 ∉ {0, −1}, all distinct
// and ≠ I), and M6 = I.
std::vector<Matrix3> default_matmul3_generators();

// The one-layer RWKV-7 model. Throws InputError for more than max_generators generators, and
// (where "--modulus") when the modulus divides the denominator of an entry.
Construction matmul3(const Matmul3Options& options);

// Two layers: a position counter mod 18 under the overwrite layer (see above).
Construction matmul3_stacked(const Matmul3Options& options);

}  // namespace rnncc
