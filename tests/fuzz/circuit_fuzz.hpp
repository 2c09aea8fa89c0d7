// What the circuit fuzz targets share: after a reader accepted its input, the circuit goes
// where `rnncc stats`, `rnncc convert` and `rnncc eval` send it — the report (analysis), the
// JSON writer (names must be UTF-8), bulk evaluation and exact outputs (the device program's
// CPU twin) — on a few patterns, one thread, so a crash in what a reader feeds is a finding of
// the reader's target. Diagnostics (InputError, DomainError) are answers; anything else escapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "algebra/error.hpp"
#include "circuits/compiled_circuit.hpp"
#include "circuits/eval/bulk.hpp"
#include "circuits/io/circuit_json.hpp"
#include "circuits/measure/report.hpp"

namespace rnncc::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `f`, swallowing the diagnostics (the expected answer to bad input).
template <class F>
void diagnosed(F&& f) {
  try {
    f();
  } catch (const InputError&) {
  } catch (const DomainError&) {
  }
}

inline void exercise(const CompiledCircuit& cc) {
  const CircuitReport r = report_circuit(cc);
  (void)to_json(r).dump();
  (void)format_text(r);
  (void)circuit_to_json(cc).dump();
  BulkOptions o;
  o.threads = 1;
  o.batch = 64;
  diagnosed([&] { (void)evaluate_bulk(cc.circuit, o); });
  o.batch = 4;
  diagnosed([&] { (void)evaluate_exact(cc.circuit, o); });
}

inline void exercise(const Circuit& c) {
  CompiledCircuit cc;
  cc.circuit = c;
  exercise(cc);
}

}  // namespace rnncc::fuzz
