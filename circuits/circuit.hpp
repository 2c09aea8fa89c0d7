// The circuit IR: a flat, append-only arena of gates with dense uint32_t ids, topological by
// construction (a gate names only smaller ids). Inputs and outputs are id lists.
//
// Storage (8 bytes a gate plus operands): a gate is {first, kind:8 | arity:24}. For `input`
// `first` is the input's index, for `constant` an index into the constant table; otherwise the
// operands are pool[first, first + arity). A `thr` gate stores after its operands the weights
// (int32, arity of them) and the threshold (int32). Derived data — depth, fan-out, regions —
// lives in side tables (circuits/analysis.hpp, circuits/compile/), never in the gate.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "algebra/rational.hpp"
#include "circuits/gate.hpp"

namespace rnncc {

using GateId = std::uint32_t;
inline constexpr GateId kNoGate = 0xFFFFFFFFu;

struct Gate {
  std::uint32_t first = 0;
  std::uint32_t kind_arity = 0;  // kind in the low 8 bits, arity above
  GateKind kind() const { return static_cast<GateKind>(kind_arity & 0xFF); }
  std::uint32_t arity() const { return kind_arity >> 8; }
};
static_assert(sizeof(Gate) == 8);

class Circuit {
 public:
  std::size_t size() const { return gates_.size(); }
  const Gate& gate(GateId id) const { return gates_[id]; }
  GateKind kind(GateId id) const { return gates_[id].kind(); }
  std::span<const GateId> operands(GateId id) const {
    const Gate& g = gates_[id];
    if (g.kind() == GateKind::input || g.kind() == GateKind::constant) return {};
    return {pool_.data() + g.first, g.arity()};
  }
  // thr gates only.
  std::span<const std::int32_t> weights(GateId id) const;
  std::int32_t threshold(GateId id) const;
  // constant gates only.
  const Rational& constant(GateId id) const { return constants_[gates_[id].first]; }
  // input gates only: the position in inputs().
  std::uint32_t input_index(GateId id) const { return gates_[id].first; }

  const std::vector<GateId>& inputs() const { return inputs_; }
  const std::vector<GateId>& outputs() const { return outputs_; }
  const std::vector<std::string>& input_names() const { return input_names_; }
  const std::vector<std::string>& output_names() const { return output_names_; }

  void set_outputs(std::vector<GateId> outputs, std::vector<std::string> names);
  // Bytes held by the arena (gates, operand pool, constants, id lists), for benchmarks.
  std::size_t memory_bytes() const;

 private:
  friend class CircuitBuilder;
  std::vector<Gate> gates_;
  std::vector<std::uint32_t> pool_;
  std::vector<Rational> constants_;
  std::vector<GateId> inputs_, outputs_;
  std::vector<std::string> input_names_, output_names_;
};

// Builds a circuit gate by gate. Every constructor hash-conses (a gate identical to an
// existing one returns the existing id; commutative operands are sorted first) and folds
// constants (docs/circuits.md, "Folding"): const∘const is evaluated over Q; x+0, x·1, x−0,
// --x, n-ary sums/products drop neutral constants and merge the others; x·0 = 0; a sum of two
// operands is an `add`, a product of two a `mul`, of one the operand itself; boolean gates
// absorb constants likewise, and fold repeated and complementary operands: x∧x = x∨x = x,
// x⊕x = 0, x∧¬x = 0, x∨¬x = 1, x⊕¬x = 1 (in an n-ary gate the rest stays: x⊕¬x⊕y = ¬y),
// ¬¬x = x. No rule uses facts about the inputs (such as one-hotness), so the
// circuit computes the same polynomial as the unfolded one.
class CircuitBuilder {
 public:
  CircuitBuilder();
  // Reserve room for about `gates` gates (and the hash table) up front.
  void reserve(std::size_t gates);

  GateId constant(const Rational& value);
  GateId input(std::string name = {});
  GateId add(GateId a, GateId b);
  GateId sub(GateId a, GateId b);
  GateId neg(GateId a);
  GateId mul(GateId a, GateId b);
  GateId sum(std::span<const GateId> operands);
  GateId product(std::span<const GateId> operands);
  GateId and_(std::span<const GateId> operands);
  GateId or_(std::span<const GateId> operands);
  GateId xor_(std::span<const GateId> operands);
  GateId not_(GateId a);
  GateId maj(std::span<const GateId> operands);
  GateId thr(std::span<const GateId> operands, std::span<const std::int32_t> weights,
             std::int32_t threshold);
  GateId positive(GateId a);
  GateId is_zero(GateId a);

  // Appends a gate exactly as given (no folding, no sharing), checking arity and that every
  // operand names an earlier gate. For readers of circuit files; throws std::invalid_argument.
  GateId raw(GateKind kind, std::span<const GateId> operands,
             std::span<const std::int32_t> weights = {}, std::int32_t threshold = 0);

  std::size_t size() const { return c_.gates_.size(); }
  const Circuit& view() const { return c_; }
  bool is_constant(GateId id) const { return c_.kind(id) == GateKind::constant; }
  // Gates requested vs gates created: the sharing the hash table found.
  std::size_t requests() const { return requests_; }
  std::size_t hash_table_bytes() const {
    return (chain_head_.capacity() + chain_next_.capacity()) * sizeof(GateId) +
           chain_len_.capacity() +
           constant_index_.size() * (sizeof(std::uint64_t) + sizeof(GateId) + 2 * sizeof(void*));
  }

  Circuit finish(std::vector<GateId> outputs, std::vector<std::string> names = {});

 private:
  GateId intern(GateKind kind, std::span<const GateId> ops,
                std::span<const std::int32_t> weights = {}, std::int32_t threshold = 0);
  GateId fold_nary(GateKind kind, std::span<const GateId> operands);
  GateId fold_boolean(GateKind kind, std::span<const GateId> operands);
  bool same(GateId id, GateKind kind, std::span<const std::uint32_t> words,
            std::size_t arity) const;
  GateId append(GateKind kind, std::uint32_t first,
                std::uint32_t arity);  // a new gate id, chains updated

  Circuit c_;
  // Hash-consing indexed by operand: every gate is filed in the chain of one of its non-constant
  // operands — the one whose chain is shortest when it is created; chain_head_[g] is the newest
  // gate filed under g, chain_next_[h] the next older one, chain_len_[g] the length (saturating).
  // A lookup walks the chains of the request's operands: short (a gate of high fan-out files
  // its users under their other operands) and recent, so they stay in cache, unlike a global
  // hash table whose every probe is a cache miss.
  std::vector<GateId> chain_head_, chain_next_;
  std::vector<std::uint8_t> chain_len_;
  std::unordered_multimap<std::uint64_t, GateId> constant_index_;  // hash of the value → gate
  std::size_t requests_ = 0;
  std::vector<std::uint32_t> scratch_;
  std::vector<GateId> scratch_ops_;
};

}  // namespace rnncc
