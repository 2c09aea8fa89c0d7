// Fuzz target: read → write → read → equal, over every circuit format. The first byte picks
// the reader (its value mod 5: circuit JSON, AIGER (ascii or binary, by the header), BLIF,
// .bench, S-expression formula), the rest is the file. A circuit the reader accepts is written
// in every format that can hold it (circuit_file_text, what `rnncc convert` writes: .json always,
// .aag .aig .blif .bench for boolean and threshold circuits) and read back:
//   - JSON must give the same circuit gate for gate (the writer is exact);
//   - the netlist formats must give a circuit with the same inputs and outputs that computes
//     the same function on seeded patterns (all zeros, all ones, and 32 random ones);
// a mismatch aborts (a finding). Diagnostics (InputError, DomainError) from the first read are
// the expected answer to bad input; a diagnostic from a writer is an answer only where the
// format cannot hold the circuit (non-boolean gates), and reading back what rnncc wrote must
// never fail.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "algebra/modp.hpp"
#include "circuits/eval/evaluate.hpp"
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

// Boolean circuits: the outputs on 0/1 patterns, compared pattern by pattern.
void same_function(const Circuit& a, const Circuit& b, const std::string& format) {
  if (a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size())
    mismatch("inputs/outputs differ after", format);
  const ModP F(2147483647);
  std::mt19937_64 rng(a.size() * 0x9E3779B97F4A7C15ull + a.inputs().size());
  std::vector<std::uint64_t> x(a.inputs().size());
  for (int pattern = 0; pattern < 34; ++pattern) {
    for (auto& v : x) v = pattern == 0 ? 0 : pattern == 1 ? 1 : rng() & 1;
    if (evaluate(a, F, std::span<const std::uint64_t>(x)) !=
        evaluate(b, F, std::span<const std::uint64_t>(x)))
      mismatch("a different function after", format);
  }
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
  if (size == 0) return 0;
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
