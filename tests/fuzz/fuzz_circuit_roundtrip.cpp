// Fuzz target: read → write → read → equal, over every circuit format. The first byte picks
// the reader (its value mod 5: circuit JSON, AIGER (ascii or binary, by the header), BLIF,
// .bench, S-expression formula), the rest is the file. A circuit the reader accepts is written
// in every format that can hold it (circuit_file_text, what `rnncc convert` writes: .json always,
// .aag .aig .blif .bench for boolean and threshold circuits) and read back:
//   - JSON must give the same circuit gate for gate (the writer is exact);
//   - the netlist formats must give a circuit with the same inputs and outputs that computes
//     the same function on 64 seeded patterns (all zeros, all ones, and 62 random ones), one
//     bit-parallel pass per circuit;
// a mismatch aborts (a finding). Diagnostics (InputError, DomainError) from the first read are
// the expected answer to bad input; a diagnostic from a writer is an answer only where the
// format cannot hold the circuit (non-boolean gates), and reading back what rnncc wrote must
// never fail.
//
// Inputs over 16 KiB are skipped: the readers' handling of large files is the per-format
// targets' job, and here every netlist format lowers threshold gates to AND/OR/NOT again —
// a 64 KiB JSON threshold gate of 3000 31-bit weights lowers to 63 000 gates, four times,
// seconds per input under ASan (a slow unit on a loaded 2-core CI machine, not a defect:
// `rnncc convert` does the same in 0.06 s in the Release build).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "circuits/eval/bitparallel.hpp"
#include "circuits/io/aiger.hpp"
#include "circuits/io/blif.hpp"
#include "circuits/io/iscas.hpp"
#include "circuits/io/sexpr.hpp"
#include "tests/fuzz/circuit_fuzz.hpp"

namespace {

using namespace rnncc;

[[noreturn]] void mismatch(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "circuit_roundtrip: %s %s\n", what, detail.c_str());
  std::abort();
}

bool same_structure(const Circuit& a, const Circuit& b) {
  if (a.size() != b.size() || a.inputs() != b.inputs() || a.outputs() != b.outputs() ||
      a.input_names() != b.input_names() || a.output_names() != b.output_names())
    return false;
  for (GateId g = 0; g < a.size(); ++g) {
    if (a.kind(g) != b.kind(g)) return false;
    const auto x = a.operands(g), y = b.operands(g);
    if (!std::equal(x.begin(), x.end(), y.begin(), y.end())) return false;
    if (a.kind(g) == GateKind::constant && a.constant(g) != b.constant(g)) return false;
    if (a.kind(g) == GateKind::thr) {
      const auto v = a.weights(g), w = b.weights(g);
      if (!std::equal(v.begin(), v.end(), w.begin(), w.end()) || a.threshold(g) != b.threshold(g))
        return false;
    }
  }
  return true;
}

// Boolean circuits: the outputs on 64 patterns of 0/1 inputs (bit p of every word is pattern
// p: pattern 0 all zeros, pattern 1 all ones, the rest seeded random), compared word by word.
void same_function(const Circuit& a, const Circuit& b, const std::string& format) {
  if (a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size())
    mismatch("inputs/outputs differ after", format);
  std::mt19937_64 rng(a.size() * 0x9E3779B97F4A7C15ull + a.inputs().size());
  std::vector<bits::Word> x(a.inputs().size());
  for (auto& v : x) v = (rng() & ~std::uint64_t{3}) | 2;
  if (evaluate_bits(a, x) != evaluate_bits(b, x)) mismatch("a different function after", format);
}

Circuit read(unsigned selector, std::string_view text) {
  switch (selector % 5) {
    case 0:
      return circuit_from_json(text, "fuzz.json").circuit;
    case 1:
      return parse_aiger(text, "fuzz.aag");
    case 2:
      return parse_blif(text, "fuzz.blif");
    case 3:
      return parse_bench(text, "fuzz.bench");
    default:
      return parse_formula(text, "fuzz.sexp").circuit;
  }
}

void round_trip(const Circuit& c) {
  CompiledCircuit cc;
  cc.circuit = c;
  const std::string json = circuit_file_text(cc, "rt.json");
  try {
    if (!same_structure(c, circuit_from_json(json, "rt.json").circuit))
      mismatch("JSON does not read back as the same circuit");
  } catch (const InputError& e) {
    mismatch("rnncc's own JSON is refused:", e.what());
  }
  for (const char* path : {"rt.aag", "rt.aig", "rt.blif", "rt.bench"}) {
    std::string text;
    try {
      text = circuit_file_text(cc, path);
    } catch (const InputError&) {
      continue;  // not a boolean circuit: this format cannot hold it
    }
    const std::string p = path;
    Circuit back;
    try {
      back = p.ends_with(".blif")    ? parse_blif(text, p)
             : p.ends_with(".bench") ? parse_bench(text, p)
                                     : parse_aiger(text, p);
    } catch (const InputError& e) {
      mismatch("rnncc's own file is refused:", e.what());
    }
    same_function(c, back, p);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 16384) return 0;
  Circuit c;
  try {
    c = read(data[0], rnncc::fuzz::text_of(data + 1, size - 1));
  } catch (const InputError&) {
    return 0;
  } catch (const DomainError&) {
    return 0;
  }
  round_trip(c);
  return 0;
}
