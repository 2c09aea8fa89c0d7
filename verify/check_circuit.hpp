// Check circuits: one arithmetic circuit that carries "X computes f" for every string of one
// length, for bulk evaluation (GPU) on every or on random strings (docs/constructions.md,
// "Verifying").
//
// For a construction (X, f, encode) and a length n, the check circuit has the n·|Σ| one-hot
// inputs x[t,σ] of f (input index (t−1)·|Σ| + σ, t = 1..n) and two outputs:
//     output 0 = X's compared entry y_T[out_row][out_col] on encode(w)    (T = |encode(w)|),
//     output 1 = f(w),
// built as  X_circuit(forms(x))  and  f_circuit(x):  X is compiled for length T (compile_lrnn,
// last output, no acceptance test) and inlined with its T·|Σ_X| inputs replaced by the
// construction's input forms (constant + Σ of f's inputs; Construction::input_forms), which are
// exact on one-hot inputs, so on x = onehot(w) output 0 is exactly X(encode(w)). f's own
// circuit (Target::circuit) is inlined on the same inputs. Both go through one builder, so
// sharing and constant folding apply across them: tokens a position cannot hold fold to 0 and
// the coefficients they select vanish.
//
// The claim "X computes f on Σⁿ" is then: for every one-hot x, output(pair.first) =
// output(pair.second), exactly over Q, or modulo `modulus` when the construction sets one
// (X runs in F_p; every denominator in either circuit must be invertible mod p).
//
// Scan. Only y_T is needed. For X alone a sequential scan gives the fewest gates: its prefix
// composites are anchored at S_0 from the first position on, so every combine is a
// matrix–vector product A_t·S_{t−1} (d²m multiplications), whereas a tree scan also composes
// unanchored maps A₂A₁ (d³ each); its depth, linear in T, does not matter to a gate-by-gate
// evaluator. But X and f go through one builder, and where X's circuit is f's (the general WFA
// construction, whose f is compile_lrnn of the same model with Brent–Kung) a tree scan shares
// everything and the two outputs become one gate. So build_check_circuit builds with
// sequential, Brent–Kung and Sklansky and keeps the smallest circuit (ties: the earlier). For
// the DPLR construction of examples/wfa_count_ab.att (K = 6) at n = 32: sequential 1325 gates,
// Brent–Kung 1871; for the general one: sequential 401, Brent–Kung 254 (shared with f).
// The overload taking CompileOptions compiles X with exactly the scan given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.hpp"
#include "circuits/compile/lrnn.hpp"
#include "constructions/construction.hpp"

namespace rnncc {

struct CheckCircuit {
  Circuit circuit;  // inputs: n·symbols one-hot indicators; outputs: "X", "f"
  std::size_t n = 0;
  std::size_t symbols = 0;  // |Σ| of f
  // Output indices that must be equal on every one-hot input: {(0, 1)}.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  // If set, equality is modulo this (the construction's modulus).
  std::optional<std::uint64_t> modulus;
  ScanKind scan = ScanKind::sequential;  // the prefix network X was compiled with
};

// The check circuit of `c` for length n, the smallest over the scans above. Returns nullopt, with
// the reason in *why_not when given, when X has non-LRNN layers, f has no circuit, c has neither
// input_forms nor an embedding (an embedding is exact on one-hot inputs, so it serves as input
// forms), f carries a promise (a check circuit claims equality on every string), n is not f's fixed
// length, or encode(w) is empty for |w| = n. Throws InputError when compile_lrnn refuses
// (an estimate above options.budget) and std::logic_error when the input forms or f's
// circuit have the wrong number of entries (a construction bug).
std::optional<CheckCircuit> build_check_circuit(const Construction& c, std::size_t n,
                                                std::string* why_not = nullptr);
// The same with X compiled under `options` (scan, structure, budget; outputs and acceptance
// are overridden: last output, no test).
std::optional<CheckCircuit> build_check_circuit(const Construction& c, std::size_t n,
                                                CompileOptions options,
                                                std::string* why_not = nullptr);

}  // namespace rnncc
