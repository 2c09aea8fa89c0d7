// The vocabulary every compiler in circuits/compile/ returns: a circuit plus the region each gate
// came from (scan leaf, combine, readout, …), and the recorder the compilers fill that side table
// with. io/, report, viz, verify and bench include this header, not a compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc {

// Where a gate came from (side table of the compiled circuit).
// valid: the input-validity tree (circuits/passes/valid_output.hpp).
enum class RegionKind : std::uint8_t {
  input,
  leaf,
  combine,
  readout,
  input_map,
  chunk,
  accept,
  valid
};
std::string to_string(RegionKind k);
struct Region {
  RegionKind kind = RegionKind::input;
  std::uint32_t first_gate = 0;  // the region holds gates [first_gate, next region's first_gate)
  std::uint32_t layer = 0;
  std::uint32_t level = 0;   // combine: chain depth of the result; leaf/readout: position
  std::uint32_t target = 0;  // combine: v[target] = v[target] ∘ v[source]; chunk: chunk index
  std::uint32_t source = 0;
};

// One step a circuit went through after its compiler (circuits/passes/pipeline.hpp): the stage
// of the declared pipeline ("as written", "write c.aig"), the pass and its parameters as text,
// and the circuit's gates (its arena size, inputs and constants included) before and after.
// The compiler itself is the first record of a compiled circuit: stage "compile", gates_before 0.
struct PassRecord {
  std::string stage, pass, params;
  std::size_t gates_before = 0, gates_after = 0;
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
  // Set by sweep_dead_gates (circuits/passes/dead_gates.hpp): the dead gates it removed, and
  // where the compiler's structure made them, why (compile_as_written, circuits/compile/
  // target.hpp: what `rnncc compile` and `rnncc.compile` return, write and measure). Unset for a
  // circuit as a compiler built it or as a file holds it.
  std::optional<std::size_t> dead_gates_swept;
  std::string dead_gates_note;
  // What was done to the circuit since its compiler, in order (run_pipeline): empty for a
  // circuit as a compiler built it (compile_model) or as a file holds it.
  std::vector<PassRecord> passes;
};

// The combine levels the regions record: for each layer the deepest combine region's level (the
// chain depth of its result), summed over the layers — CompiledCircuit::combine_levels of a
// compiler that records its combines, and what a circuit file's regions say (circuits/io). 0
// when no region is a combine.
std::size_t combine_levels_of(const std::vector<Region>& regions);

namespace detail {

// Fills CompiledCircuit::regions while a compiler builds: every gate created after enter(r)
// belongs to r. A region that created no gate is dropped when the next one is entered.
struct RegionRecorder {
  CircuitBuilder& b;
  std::vector<Region>& regions;
  void enter(Region r);  // gates created from now on belong to r
  // A region that is not a combine (leaf, readout, accept, …) at `level` (a position).
  void enter_at(RegionKind kind, std::uint32_t layer, std::uint32_t level) {
    enter({.kind = kind, .layer = layer, .level = level, .target = 0, .source = 0});
  }
  // A combine of a prefix network: v[target] = v[target] ∘ v[source] at chain depth `level`.
  void enter_combine(std::uint32_t layer, std::uint32_t level, std::size_t target,
                     std::size_t source) {
    enter({.kind = RegionKind::combine,
           .layer = layer,
           .level = level,
           .target = static_cast<std::uint32_t>(target),
           .source = static_cast<std::uint32_t>(source)});
  }
};

// Closes a compilation: the builder's statistics and the finished circuit go into `out`.
inline void finish_compiled(CompiledCircuit& out, CircuitBuilder& b, std::vector<GateId> outputs,
                            std::vector<std::string> names) {
  out.requested_gates = b.requests();
  out.hash_table_bytes = b.hash_table_bytes();
  out.circuit = b.finish(std::move(outputs), std::move(names));
}

}  // namespace detail

}  // namespace rnncc
