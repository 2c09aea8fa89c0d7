#include "circuits/circuit.hpp"

#include <algorithm>
#include <stdexcept>

namespace rnncc {

std::optional<GateKind> parse_gate_kind(std::string_view text) {
  for (std::size_t i = 0; i < kGateKindCount; ++i)
    if (kGateKinds[i].name == text) return static_cast<GateKind>(i);
  return std::nullopt;
}

std::span<const std::int32_t> Circuit::weights(GateId id) const {
  const Gate& g = gates_[id];
  return {reinterpret_cast<const std::int32_t*>(pool_.data() + g.first + g.arity()), g.arity()};
}

std::int32_t Circuit::threshold(GateId id) const {
  const Gate& g = gates_[id];
  return static_cast<std::int32_t>(pool_[g.first + 2 * g.arity()]);
}

void Circuit::set_outputs(std::vector<GateId> outputs, std::vector<std::string> names) {
  for (GateId o : outputs)
    if (o >= gates_.size())
      throw std::invalid_argument("output names gate " + std::to_string(o) +
                                  ", which does not exist");
  if (!names.empty() && names.size() != outputs.size())
    throw std::invalid_argument("one name per output");
  outputs_ = std::move(outputs);
  output_names_ = std::move(names);
}

std::size_t Circuit::memory_bytes() const {
  std::size_t bytes = gates_.capacity() * sizeof(Gate) + pool_.capacity() * sizeof(std::uint32_t) +
                      constants_.capacity() * sizeof(Rational) +
                      (inputs_.capacity() + outputs_.capacity()) * sizeof(GateId);
  for (const auto& s : input_names_) bytes += sizeof(std::string) + s.capacity();
  return bytes;
}

namespace {

std::uint64_t hash_rational(const Rational& q) {
  std::uint64_t h = 0x51ED270B27A1F6A1ull;
  auto limbs = [&](const Integer& z) {
    const auto* p = z.backend().data();
    h = (h ^ static_cast<std::uint64_t>(p->_mp_size)) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < std::abs(p->_mp_size); ++i) h = (h ^ p->_mp_d[i]) * 0x9E3779B97F4A7C15ull;
  };
  limbs(numerator(q));
  limbs(denominator(q));
  return h ^ (h >> 29);
}

bool truthy(const Rational& q) {
  return q != 0;
}

}  // namespace

CircuitBuilder::CircuitBuilder() = default;

void CircuitBuilder::reserve(std::size_t gates) {
  c_.gates_.reserve(gates);
  c_.pool_.reserve(gates * 5 / 2);  // binary gates take 2 words, the sums of a scan 3–5
  chain_head_.reserve(gates);
  chain_next_.reserve(gates);
  chain_len_.reserve(gates);
}

GateId CircuitBuilder::append(GateKind kind, std::uint32_t first, std::uint32_t arity) {
  const GateId id = static_cast<GateId>(c_.gates_.size());
  if (id == kNoGate) throw std::length_error("circuit exceeds 2^32 − 1 gates");
  if (arity > kUnbounded) throw std::length_error("gate fan-in exceeds 2^24 − 1");
  c_.gates_.push_back({first, static_cast<std::uint32_t>(kind) | arity << 8});
  chain_head_.push_back(kNoGate);
  chain_next_.push_back(kNoGate);
  chain_len_.push_back(0);
  return id;
}

bool CircuitBuilder::same(GateId id, GateKind kind, std::span<const std::uint32_t> words,
                          std::size_t arity) const {
  const Gate& g = c_.gates_[id];
  if (g.kind() != kind || g.arity() != arity) return false;
  return std::equal(words.begin(), words.end(), c_.pool_.begin() + g.first);
}

GateId CircuitBuilder::intern(GateKind kind, std::span<const GateId> ops,
                              std::span<const std::int32_t> weights, std::int32_t threshold) {
  ++requests_;
  scratch_.assign(ops.begin(), ops.end());
  if (kind == GateKind::thr) {
    for (std::int32_t w : weights) scratch_.push_back(static_cast<std::uint32_t>(w));
    scratch_.push_back(static_cast<std::uint32_t>(threshold));
  }
  // Search every operand's chain (an existing copy is filed under one of them); file a new gate
  // under the non-constant operand with the shortest chain. Constants are never keys: their
  // fan-out is unbounded.
  GateId key = kNoGate;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const GateId o = ops[i];
    if (is_constant(o) || (i > 0 && o == ops[i - 1])) continue;
    for (GateId g = chain_head_[o]; g != kNoGate; g = chain_next_[g])
      if (same(g, kind, scratch_, ops.size())) return g;
    if (key == kNoGate || chain_len_[o] < chain_len_[key]) key = o;
  }
  if (key == kNoGate) key = ops[0];  // all operands constant (maj of constants)
  const GateId id = append(kind, static_cast<std::uint32_t>(c_.pool_.size()),
                           static_cast<std::uint32_t>(ops.size()));
  c_.pool_.insert(c_.pool_.end(), scratch_.begin(), scratch_.end());
  chain_next_[id] = chain_head_[key];
  chain_head_[key] = id;
  if (chain_len_[key] < 255) ++chain_len_[key];
  return id;
}

GateId CircuitBuilder::constant(const Rational& value) {
  ++requests_;
  const std::uint64_t h = hash_rational(value);
  auto [lo, hi] = constant_index_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (c_.constant(it->second) == value) return it->second;
  const GateId id = append(GateKind::constant, static_cast<std::uint32_t>(c_.constants_.size()), 0);
  c_.constants_.push_back(value);
  constant_index_.emplace(h, id);
  return id;
}

GateId CircuitBuilder::input(std::string name) {
  const GateId id = append(GateKind::input, static_cast<std::uint32_t>(c_.inputs_.size()), 0);
  c_.inputs_.push_back(id);
  c_.input_names_.push_back(std::move(name));
  return id;
}

GateId CircuitBuilder::add(GateId a, GateId b) {
  const GateId ops[2] = {std::min(a, b), std::max(a, b)};
  if (!is_constant(a) && !is_constant(b)) return intern(GateKind::add, ops);  // nothing to fold
  return fold_nary(GateKind::sum, ops);
}

GateId CircuitBuilder::sub(GateId a, GateId b) {
  if (is_constant(a) && is_constant(b)) return constant(c_.constant(a) - c_.constant(b));
  if (is_constant(b) && c_.constant(b) == 0) return a;
  if (a == b) return constant(Rational(0));
  if (is_constant(a) && c_.constant(a) == 0) return neg(b);
  const GateId ops[2] = {a, b};
  return intern(GateKind::sub, ops);
}

GateId CircuitBuilder::neg(GateId a) {
  if (is_constant(a)) return constant(-c_.constant(a));
  if (c_.kind(a) == GateKind::neg) return c_.operands(a)[0];
  const GateId ops[1] = {a};
  return intern(GateKind::neg, ops);
}

GateId CircuitBuilder::mul(GateId a, GateId b) {
  const GateId ops[2] = {std::min(a, b), std::max(a, b)};
  if (!is_constant(a) && !is_constant(b)) return intern(GateKind::mul, ops);  // nothing to fold
  return fold_nary(GateKind::product, ops);
}

GateId CircuitBuilder::sum(std::span<const GateId> operands) {
  return fold_nary(GateKind::sum, operands);
}
GateId CircuitBuilder::product(std::span<const GateId> operands) {
  return fold_nary(GateKind::product, operands);
}

// Sums and products: merge constant operands into one, drop the neutral element, absorb 0 in
// products, then pick the kind by the number of operands left.
GateId CircuitBuilder::fold_nary(GateKind kind, std::span<const GateId> operands) {
  const bool is_sum = kind == GateKind::sum;
  if (!operands.empty() &&
      std::none_of(operands.begin(), operands.end(), [&](GateId o) { return is_constant(o); })) {
    if (operands.size() == 1) return operands[0];
    scratch_ops_.assign(operands.begin(), operands.end());
    std::sort(scratch_ops_.begin(), scratch_ops_.end());
    if (scratch_ops_.size() == 2)
      return intern(is_sum ? GateKind::add : GateKind::mul, scratch_ops_);
    return intern(kind, scratch_ops_);
  }
  Rational acc(is_sum ? 0 : 1);
  bool any_constant = false;
  std::vector<GateId> ops;
  ops.reserve(operands.size());
  for (GateId o : operands) {
    if (is_constant(o)) {
      any_constant = true;
      if (is_sum)
        acc += c_.constant(o);
      else
        acc *= c_.constant(o);
    } else {
      ops.push_back(o);
    }
  }
  if (!is_sum && any_constant && acc == 0) return constant(Rational(0));
  if (any_constant && acc != (is_sum ? 0 : 1)) ops.push_back(constant(acc));
  if (ops.empty()) return constant(acc);
  if (ops.size() == 1) return ops[0];
  std::sort(ops.begin(), ops.end());
  if (ops.size() == 2) return intern(is_sum ? GateKind::add : GateKind::mul, ops);
  return intern(kind, ops);
}

GateId CircuitBuilder::fold_boolean(GateKind kind, std::span<const GateId> operands) {
  std::vector<GateId> ops;
  bool parity = false;
  for (GateId o : operands) {
    if (!is_constant(o)) {
      ops.push_back(o);
      continue;
    }
    const bool v = truthy(c_.constant(o));
    if (kind == GateKind::and_ && !v) return constant(Rational(0));
    if (kind == GateKind::or_ && v) return constant(Rational(1));
    if (kind == GateKind::xor_) parity ^= v;
  }
  std::sort(ops.begin(), ops.end());
  if (kind != GateKind::xor_) {
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());  // x∧x = x, x∨x = x
  } else {
    // x⊕x = 0: equal operands cancel in pairs.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < ops.size();) {
      std::size_t j = i;
      while (j < ops.size() && ops[j] == ops[i]) ++j;
      if ((j - i) % 2) ops[kept++] = ops[i];
      i = j;
    }
    ops.resize(kept);
  }
  // An operand beside its negation: x∧¬x = 0, x∨¬x = 1, x⊕¬x = 1 (the pair drops, the parity
  // flips). Operands are distinct now; a pair is dropped only if neither member already was
  // (in raw-built ¬¬x, ¬x would pair twice).
  std::vector<GateId> dropped;
  const auto was_dropped = [&](GateId g) {
    return std::find(dropped.begin(), dropped.end(), g) != dropped.end();
  };
  for (GateId o : ops) {
    if (c_.kind(o) != GateKind::not_) continue;
    const GateId x = c_.operands(o)[0];
    if (!std::binary_search(ops.begin(), ops.end(), x)) continue;
    if (kind == GateKind::and_) return constant(Rational(0));
    if (kind == GateKind::or_) return constant(Rational(1));
    if (was_dropped(o) || was_dropped(x)) continue;
    dropped.push_back(o);
    dropped.push_back(x);
    parity = !parity;
  }
  if (!dropped.empty()) std::erase_if(ops, was_dropped);
  if (ops.empty())
    return constant(Rational(kind == GateKind::and_ ? 1 : kind == GateKind::or_ ? 0 : parity));
  GateId g = ops.size() == 1 ? ops[0] : intern(kind, ops);
  if (kind == GateKind::xor_ && parity) return not_(g);
  return g;
}

GateId CircuitBuilder::and_(std::span<const GateId> operands) {
  return fold_boolean(GateKind::and_, operands);
}
GateId CircuitBuilder::or_(std::span<const GateId> operands) {
  return fold_boolean(GateKind::or_, operands);
}
GateId CircuitBuilder::xor_(std::span<const GateId> operands) {
  return fold_boolean(GateKind::xor_, operands);
}

GateId CircuitBuilder::not_(GateId a) {
  if (is_constant(a)) return constant(Rational(truthy(c_.constant(a)) ? 0 : 1));
  if (c_.kind(a) == GateKind::not_) return c_.operands(a)[0];
  const GateId ops[1] = {a};
  return intern(GateKind::not_, ops);
}

GateId CircuitBuilder::maj(std::span<const GateId> operands) {
  if (operands.empty()) throw std::invalid_argument("maj needs at least one operand");
  std::vector<GateId> ops(operands.begin(), operands.end());
  std::sort(ops.begin(), ops.end());
  return intern(GateKind::maj, ops);
}

GateId CircuitBuilder::thr(std::span<const GateId> operands, std::span<const std::int32_t> weights,
                           std::int32_t threshold) {
  if (operands.size() != weights.size()) throw std::invalid_argument("thr: one weight per operand");
  // Constants move into the threshold; zero weights drop; the rest sorted by operand.
  std::vector<std::pair<GateId, std::int64_t>> terms;
  std::int64_t t = threshold;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (weights[i] == 0) continue;
    if (is_constant(operands[i]))
      t -= truthy(c_.constant(operands[i])) ? weights[i] : 0;
    else
      terms.emplace_back(operands[i], weights[i]);
  }
  if (terms.empty()) return constant(Rational(0 >= t ? 1 : 0));
  if (t < INT32_MIN || t > INT32_MAX) throw std::overflow_error("thr: threshold exceeds 32 bits");
  std::sort(terms.begin(), terms.end());
  std::vector<GateId> ops;
  std::vector<std::int64_t> wide;  // merged in 64 bits: −2^31 + −2^31 must not wrap
  for (auto& [g, w] : terms) {
    if (!ops.empty() && ops.back() == g) {  // x·w₁ + x·w₂ = x·(w₁ + w₂)
      wide.back() += w;
      continue;
    }
    ops.push_back(g);
    wide.push_back(w);
  }
  std::vector<std::int32_t> ws;
  for (std::int64_t w : wide) {
    if (w < INT32_MIN || w > INT32_MAX) throw std::overflow_error("thr: a weight exceeds 32 bits");
    ws.push_back(static_cast<std::int32_t>(w));
  }
  return intern(GateKind::thr, ops, ws, static_cast<std::int32_t>(t));
}

GateId CircuitBuilder::positive(GateId a) {
  if (is_constant(a)) return constant(Rational(c_.constant(a) > 0 ? 1 : 0));
  const GateId ops[1] = {a};
  return intern(GateKind::positive, ops);
}

GateId CircuitBuilder::is_zero(GateId a) {
  if (is_constant(a)) return constant(Rational(c_.constant(a) == 0 ? 1 : 0));
  const GateId ops[1] = {a};
  return intern(GateKind::is_zero, ops);
}

GateId CircuitBuilder::raw(GateKind kind, std::span<const GateId> operands,
                           std::span<const std::int32_t> weights, std::int32_t threshold) {
  const GateKindInfo& ki = info(kind);
  if (kind == GateKind::input || kind == GateKind::constant)
    throw std::invalid_argument("raw(): use input() or constant()");
  if (operands.size() < ki.min_arity || operands.size() > ki.max_arity)
    throw std::invalid_argument(std::string(ki.name) + " takes " + std::to_string(ki.min_arity) +
                                (ki.max_arity == ki.min_arity ? "" : " or more") +
                                " operands, got " + std::to_string(operands.size()));
  const GateId next = static_cast<GateId>(c_.gates_.size());
  for (GateId o : operands)
    if (o >= next)
      throw std::invalid_argument("operand " + std::to_string(o) + " of gate " +
                                  std::to_string(next) +
                                  " is not an earlier gate (circuits are topological)");
  if (kind == GateKind::thr && weights.size() != operands.size())
    throw std::invalid_argument("thr needs one weight per operand");
  const GateId id = append(kind, static_cast<std::uint32_t>(c_.pool_.size()),
                           static_cast<std::uint32_t>(operands.size()));
  c_.pool_.insert(c_.pool_.end(), operands.begin(), operands.end());
  if (kind == GateKind::thr) {
    for (std::int32_t w : weights) c_.pool_.push_back(static_cast<std::uint32_t>(w));
    c_.pool_.push_back(static_cast<std::uint32_t>(threshold));
  }
  return id;
}

Circuit CircuitBuilder::finish(std::vector<GateId> outputs, std::vector<std::string> names) {
  c_.set_outputs(std::move(outputs), std::move(names));
  chain_head_ = {};
  chain_next_ = {};
  chain_len_ = {};
  constant_index_ = {};
  return std::move(c_);
}

}  // namespace rnncc
