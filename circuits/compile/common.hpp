// What every compiler in circuits/compile/ shares: the one-hot input layer, the parts their
// options are composed of (Scan, Precision, Budget — so options pass between compilers by part,
// with no per-field adapters), the gate-budget refusal, and the acceptance test; ⌈log₂⌉ from
// circuits/arith/log2.hpp.
//
// Every compiler's inputs are the one-hot indicators x[t,σ] = [w_t = σ] (t = 1..n, σ in
// alphabet order): input index (t−1)·|Σ| + id(σ), named "x[t,σ]" with σ the symbol's name.
// Circuits of different compilers for one model therefore read the same inputs in the same
// order, which is what lets them be compared (verify/, ABC's cec) and composed.
#pragma once

#include <bit>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algebra/fixed_point.hpp"
#include "algebra/memory.hpp"
#include "circuits/arith/log2.hpp"
#include "circuits/arith/prefix.hpp"
#include "circuits/circuit.hpp"
#include "rnn/alphabet.hpp"
#include "rnn/model.hpp"

namespace rnncc {

// last: the outputs after position n only; all: after every position t = 1..n.
enum class OutputMode { last, all };

// ---- the one-hot input layer ------------------------------------------------------------------

// "x[t,σ]".
std::string input_name(std::size_t t, std::string_view symbol);

// Creates the n·|Σ| inputs in index order and returns x[t−1][σ]. names[σ] names symbol σ; a
// symbol without a name (names shorter than |Σ|) is named by its id.
std::vector<std::vector<GateId>> one_hot_inputs(CircuitBuilder& b, std::size_t n,
                                                std::size_t symbols,
                                                const std::vector<std::string>& names = {});
inline std::vector<std::vector<GateId>> one_hot_inputs(CircuitBuilder& b, std::size_t n,
                                                       const Alphabet& alphabet) {
  return one_hot_inputs(b, n, alphabet.size(), alphabet.symbols());
}

// ---- option parts -----------------------------------------------------------------------------

// The prefix network a scan-based compiler uses (circuits/arith/prefix.hpp). chunk > 0 selects the
// chunked WY/UT form of a DeltaNet layer instead (compile_lrnn only; other compilers ignore it).
struct Scan {
  ScanKind kind = ScanKind::brent_kung;
  unsigned ladner_fischer_k =
      1;  // Brent–Kung levels around the Sklansky core (circuits/arith/prefix.hpp)
  std::size_t chunk = 0;
  Scan() = default;
  Scan(ScanKind k) : kind(k) {}  // NOLINT(google-explicit-constructor): `o.scan = ScanKind::…`
  PrefixNetwork network(std::size_t n) const { return prefix_network(kind, n, ladner_fischer_k); }
  std::size_t chain_depth(std::size_t n) const {
    return prefix_chain_depth(kind, n, ladner_fischer_k);
  }
};
// The --scan spelling: "brent-kung", "ladner-fischer:K", "chunked:C", …
std::string to_string(const Scan& s);
// Parses --scan: sequential | sklansky | kogge-stone | brent-kung | ladner-fischer[:K] |
// chunked:C (InputError naming `flag` otherwise).
Scan parse_scan(std::string_view text, const std::string& flag = "--scan");

// The number semantics (docs/semantics.md, "Log precision"; algebra/fixed_point.hpp):
// exact (over Q), or log precision with F = log_c·⌈log₂(n+1)⌉ fraction bits and I = int_bits
// (default F) integer bits, rounded by `rounding`, out-of-range results handled by `overflow`.
// `fixed` pins one format for every n instead (tests, hand-picked widths); it wins over log_c.
// A compiler that uses only part of this says which (threshold: F and rounding only).
struct Precision {
  std::optional<unsigned> log_c;  // nullopt (and no fixed format): exact
  std::optional<unsigned> int_bits;
  Rounding rounding = Rounding::nearest_even;
  Overflow overflow = Overflow::saturate;
  std::optional<FixedFormat> fixed;

  bool exact() const { return !log_c && !fixed; }
  // The format for inputs of length n: `fixed`, else log_precision(log_c, n, int_bits, rounding,
  // overflow). std::logic_error when exact (callers refuse exact first, naming their reason).
  FixedFormat format(std::size_t n) const;
  static Precision log(unsigned c) {
    Precision p;
    p.log_c = c;
    return p;
  }
};
std::string to_string(const Precision& p);  // "exact", "log:C" or "fixed:I.F"

// Compilers estimate their size before building anything and refuse larger circuits with an
// InputError on "--max-gates". One default for every compiler (and `rnncc compile`): 2^28 gates.
// `rnncc depth` passes a lower limit of its own.
inline constexpr std::size_t kDefaultMaxGates = std::size_t{1} << 28;
// The memory limit (--max-memory, in MiB; default: half the machine's memory,
// algebra/memory.hpp). compile_model estimates the peak memory of every route before it builds
// (target.hpp, estimate_compile_memory); compilers whose gates are large (threshold gates with
// hundreds of operands) also check gates × the bytes a gate they measured (check_memory).
struct Budget {
  std::size_t max_gates = kDefaultMaxGates;
  std::size_t max_memory_mib = default_max_memory_mib();
  // rnncc::check_memory("--max-memory", gates × bytes_a_gate, max_memory_mib, …): "compiling
  // would take about X MiB (G gates × B bytes a gate, measured for `measured_for`), more than
  // the limit of M MiB (raise --max-memory to run it anyway)".
  void check_memory(std::size_t gates, std::size_t bytes_a_gate,
                    const std::string& measured_for) const;
  // Throws InputError("--max-gates", "the circuit would have about E gates[ (detail)], more than
  // the limit of M (raise --max-gates to build it anyway)") when estimate > max_gates.
  void check(std::size_t estimate, const std::string& detail = {}) const;
};

// ---- shared checks and gates --------------------------------------------------------------------

// InputError("--length", …) for n = 0: every compiler needs n ≥ 1.
void check_length(std::size_t n);

namespace detail {

// The acceptance test of an arithmetic output v: positive(v) (PNC¹ style) or is_zero(v).
inline GateId acceptance_test(CircuitBuilder& b, Acceptance::Mode mode, GateId v) {
  return mode == Acceptance::Mode::positive ? b.positive(v) : b.is_zero(v);
}

}  // namespace detail

}  // namespace rnncc
