// Plain gate-by-gate evaluation of a circuit over any number domain (algebra/domain.hpp):
// exact (Rational, Integer), mod p, fixed point. The reference the fast evaluators (bit-parallel
// here, CUDA later) are compared with.
//
// Gate semantics (docs/circuits.md, "Gates"): arithmetic gates use the domain's operations;
// boolean and threshold gates read nonzero as true and give 0 or 1; positive needs an ordered
// domain (mod p it throws DomainError).
#pragma once

#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "algebra/domain.hpp"
#include "algebra/error.hpp"
#include "circuits/circuit.hpp"

namespace rnncc {

// The value of every gate.
template <Domain K>
std::vector<typename K::Element> evaluate_gates(const Circuit& c, const K& k,
                                                std::span<const typename K::Element> inputs) {
  using E = typename K::Element;
  if (inputs.size() != c.inputs().size())
    throw std::invalid_argument("circuit has " + std::to_string(c.inputs().size()) +
                                " inputs, got " + std::to_string(inputs.size()) + " values");
  std::vector<E> v(c.size());
  auto truth = [&](GateId g) { return !k.is_zero(v[g]); };
  auto boolean = [&](bool b) { return b ? k.one() : k.zero(); };
  for (GateId id = 0; id < c.size(); ++id) {
    const auto ops = c.operands(id);
    switch (c.kind(id)) {
      case GateKind::constant:
        v[id] = k.from_rational(c.constant(id));
        break;
      case GateKind::input:
        v[id] = inputs[c.input_index(id)];
        break;
      case GateKind::add:
        v[id] = k.add(v[ops[0]], v[ops[1]]);
        break;
      case GateKind::sub:
        v[id] = k.sub(v[ops[0]], v[ops[1]]);
        break;
      case GateKind::neg:
        v[id] = k.neg(v[ops[0]]);
        break;
      case GateKind::mul:
        v[id] = k.mul(v[ops[0]], v[ops[1]]);
        break;
      case GateKind::sum: {
        E acc = v[ops[0]];
        for (std::size_t i = 1; i < ops.size(); ++i) acc = k.add(acc, v[ops[i]]);
        v[id] = acc;
        break;
      }
      case GateKind::product: {
        E acc = v[ops[0]];
        for (std::size_t i = 1; i < ops.size(); ++i) acc = k.mul(acc, v[ops[i]]);
        v[id] = acc;
        break;
      }
      case GateKind::and_: {
        bool r = true;
        for (GateId o : ops) r = r && truth(o);
        v[id] = boolean(r);
        break;
      }
      case GateKind::or_: {
        bool r = false;
        for (GateId o : ops) r = r || truth(o);
        v[id] = boolean(r);
        break;
      }
      case GateKind::xor_: {
        bool r = false;
        for (GateId o : ops) r ^= truth(o);
        v[id] = boolean(r);
        break;
      }
      case GateKind::not_:
        v[id] = boolean(!truth(ops[0]));
        break;
      case GateKind::maj: {
        std::size_t count = 0;
        for (GateId o : ops) count += truth(o);
        v[id] = boolean(2 * count > ops.size());
        break;
      }
      case GateKind::thr: {
        std::int64_t s = 0;
        const auto w = c.weights(id);
        for (std::size_t i = 0; i < ops.size(); ++i) s += truth(ops[i]) ? w[i] : 0;
        v[id] = boolean(s >= c.threshold(id));
        break;
      }
      case GateKind::positive:
        if constexpr (OrderedDomain<K>) {
          v[id] = boolean(k.sign(v[ops[0]]) > 0);
        } else {
          throw DomainError("gate " + std::to_string(id) + " (positive) is undefined in " +
                            k.name() + ", which has no order");
        }
        break;
      case GateKind::is_zero:
        v[id] = boolean(k.is_zero(v[ops[0]]));
        break;
    }
  }
  return v;
}

template <Domain K>
std::vector<typename K::Element> evaluate(const Circuit& c, const K& k,
                                          std::span<const typename K::Element> inputs) {
  const auto v = evaluate_gates(c, k, inputs);
  std::vector<typename K::Element> out;
  for (GateId o : c.outputs()) out.push_back(v[o]);
  return out;
}

// Evaluates a batch (one input vector per row) on `threads` threads (0 = all cores).
template <Domain K>
std::vector<std::vector<typename K::Element>> evaluate_batch(
    const Circuit& c, const K& k, const std::vector<std::vector<typename K::Element>>& rows,
    unsigned threads = 0) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<typename K::Element>> out(rows.size());
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex failure_mutex;
  for (unsigned w = 0; w < threads; ++w)
    pool.emplace_back([&, w] {
      try {
        for (std::size_t r = w; r < rows.size(); r += threads)
          out[r] = evaluate(c, k, std::span(rows[r]));
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    });
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace rnncc
