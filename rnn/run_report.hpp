// `rnncc run`: evaluates a model on input strings under a chosen semantics and reports the
// outputs per position (and the state trace), independent of the number domain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "algebra/precision.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// Largest numerator and denominator bit length over every state entry of every layer.
struct BitGrowth {
  std::size_t numerator_bits = 0, denominator_bits = 0;
};

using TextMatrix = std::vector<std::vector<std::string>>;  // rows of entries in text form

struct PositionReport {
  std::size_t position = 0;  // 1-based
  std::string symbol;
  TextMatrix output;               // y_t of the last layer
  std::optional<bool> accept;      // of the prefix ending here; nullopt: undefined (mod p, > 0)
  std::vector<TextMatrix> states;  // per layer, S_t (attention layers: empty)
  // Per layer: the attended positions M(t) of an attention layer (1-based; unique_hard: the one
  // picked), nullopt for the other layers.
  std::vector<std::optional<std::vector<std::size_t>>> attended;
  std::optional<BitGrowth> bits;  // exact runs only
};

struct RunReport {
  std::string input;
  std::string semantics;  // "exact", "fixed(I=..,F=..,..)", "mod p"
  std::vector<PositionReport> positions;
  std::optional<bool> accepted;       // of the whole input
  std::optional<BitGrowth> max_bits;  // exact runs only
};

// Tokenizes `input` (InputError naming `where` on a bad or empty string), then evaluates.
// Throws DomainError when the semantics cannot represent a value (p | denominator, overflow
// under the `error` policy, ReLU mod p).
RunReport run_model(const Model& model, std::string_view input, const std::string& where,
                    const PrecisionSpec& precision);

std::string format_text(const Model& model, const std::vector<RunReport>& runs, bool trace);
nlohmann::ordered_json to_json(const Model& model, const std::vector<RunReport>& runs, bool trace);

// An upper bound on Trace::work() of evaluate(model, k, w) for |w| = n (saturating), in
// operations of the domain: per position, layer 1 combines one feature's parameters (one-hot
// input), a deeper layer every feature's; a dense LRNN step costs d²·m (diagonal families d·m),
// its readout r·d·m; Elman d·(d + k) + r·d; LSTM four gates; attention scores the visible
// positions, (h + 3)·n²/2 over n positions without a window. Tested against the counted work
// (tests/rnn/test_run_report.cpp: counted ≤ estimate ≤ 2 × counted + a small constant).
std::uint64_t estimate_evaluation_work(const Model& model, std::uint64_t n);

// What `rnncc run` of one input will cost, before it runs (docs/reliability.md, "Limits").
//   operations   estimate_evaluation_work(model, n);
//   bits         exact runs: an upper bound on the bits (numerator + denominator) of the largest
//                value, from the input itself: an LRNN state entry S_t = N_t / Q_t with
//                Q_t = D_{w_t}·Q_{t−1} (D_σ the common denominator of A_σ and B_σ) and
//                |S_t| ≤ ‖A_σ‖∞·|S_{t−1}| + ‖B_σ‖∞, so bits ≤ log₂|S_t| + 2·log₂ Q_t + 2 — exact
//                for doubling or decaying models (binary value, S4 decay), an overestimate where
//                reduced fractions cancel; deeper and nonlinear layers add their parameters'
//                bits. Where it is lower, the growth measured on an exact prefix (at most 1024
//                positions and about 2·10^4 operations) extrapolated at 1.25 times its rate. Log
//                precision: I + F; mod p: the bits of p;
//   work         operations, each counted as kExactOperationWork × (1 + bits/256) on exact
//                rationals and at log precision (the limbs one operation touches, mean bits over
//                the positions), kModularOperationWork mod p; plus kEntryTextWork × (1 + bits/256)
//                for each kept entry (the report writes every state and output as text);
//   memory_bytes what the run keeps: every position's state and output entries, as numbers and
//                twice as text (the report's, the printed output's), growing with their bits,
//                plus the attended positions of averaging attention (n²/2 without a window).
// Tested against the counted operations and the measured bits (tests/rnn/test_run_report.cpp).
struct RunEstimate {
  std::uint64_t positions = 0, operations = 0, bits = 0, work = 0, memory_bytes = 0;
};
// Weights of the work units (about 3.5 ns each: --max-work's 2^34 is a minute or so), measured
// with `rnncc run` (user time, docs/reliability.md): an operation on small exact rationals
// (or fixed-point Integers) about 100 ns, one modulo p a few ns, an entry kept as a number and
// written as text about 1 µs.
inline constexpr std::uint64_t kExactOperationWork = 32;
inline constexpr std::uint64_t kModularOperationWork = 2;
inline constexpr std::uint64_t kEntryTextWork = 256;
RunEstimate estimate_run(const Model& model, const std::vector<std::size_t>& ids,
                         const PrecisionSpec& precision);

// One-line summary of the stack, e.g. "lrnn/deltanet d=1 m=1".
std::string describe_layers(const Model& model);

}  // namespace rnncc
