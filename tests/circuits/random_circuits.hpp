// Seeded random circuits of every gate kind, for differential tests of the evaluators (the
// bit-parallel and bulk CPU evaluators, the device program and its CUDA kernels).
#pragma once

#include <random>
#include <vector>

#include "circuits/circuit.hpp"

namespace rnncc::testing {

// Boolean and threshold gates (and, or, xor of arity 2..6, not, maj, thr), built raw (no
// folding), over `inputs` inputs and the constant 1; the last `outputs` gates are the outputs.
inline Circuit random_boolean_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates,
                                      std::size_t outputs = 8) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (std::size_t i = 0; i < inputs; ++i) pool.push_back(b.input());
  pool.push_back(b.constant(Rational(1)));
  for (std::size_t g = 0; g < gates; ++g) {
    std::vector<GateId> ops;
    const std::size_t k = 1 + rng() % 6;
    for (std::size_t i = 0; i < k; ++i) ops.push_back(pool[rng() % pool.size()]);
    GateId id;
    switch (rng() % 6) {
      case 0:
        id = b.raw(GateKind::not_, std::span(ops).first(1));
        break;
      case 1:
        id = ops.size() >= 2 ? b.raw(GateKind::and_, ops) : b.not_(ops[0]);
        break;
      case 2:
        id = ops.size() >= 2 ? b.raw(GateKind::or_, ops) : b.not_(ops[0]);
        break;
      case 3:
        id = ops.size() >= 2 ? b.raw(GateKind::xor_, ops) : b.not_(ops[0]);
        break;
      case 4:
        id = b.raw(GateKind::maj, ops);
        break;
      default: {
        std::vector<std::int32_t> w;
        for (std::size_t i = 0; i < ops.size(); ++i)
          w.push_back(static_cast<std::int32_t>(rng() % 41) - 20);
        id = b.raw(GateKind::thr, ops, w, static_cast<std::int32_t>(rng() % 31) - 15);
      }
    }
    pool.push_back(id);
  }
  std::vector<GateId> outs(pool.end() - static_cast<std::ptrdiff_t>(outputs), pool.end());
  return b.finish(outs);
}

// Arithmetic gates (add, sub, neg, mul, sum, product) with small rational constants, mixed
// with the truth-valued gates that have a meaning mod p (and, or, xor, not, maj, thr, is_zero).
inline Circuit random_arithmetic_circuit(std::mt19937_64& rng, std::size_t inputs,
                                         std::size_t gates, std::size_t outputs = 6,
                                         bool truth_gates = true) {
  CircuitBuilder b;
  std::vector<GateId> pool;
  for (std::size_t i = 0; i < inputs; ++i) pool.push_back(b.input());
  for (int c = 0; c < 3; ++c)
    pool.push_back(
        b.constant(Rational(static_cast<int>(rng() % 7) - 3, 1 + static_cast<int>(rng() % 4))));
  for (std::size_t g = 0; g < gates; ++g) {
    auto pick = [&] {  // favour recent gates, so the circuit is deep
      const std::size_t n = pool.size();
      return rng() % 3 ? pool[n - 1 - rng() % std::min<std::size_t>(n, 12)] : pool[rng() % n];
    };
    std::vector<GateId> ops;
    const std::size_t k = 3 + rng() % 3;
    for (std::size_t i = 0; i < k; ++i) ops.push_back(pick());
    const unsigned kinds = truth_gates ? 13 : 6;
    GateId id;
    switch (rng() % kinds) {
      case 0:
        id = b.raw(GateKind::add, std::span(ops).first(2));
        break;
      case 1:
        id = b.raw(GateKind::sub, std::span(ops).first(2));
        break;
      case 2:
        id = b.raw(GateKind::neg, std::span(ops).first(1));
        break;
      case 3:
        id = b.raw(GateKind::mul, std::span(ops).first(2));
        break;
      case 4:
        id = b.raw(GateKind::sum, ops);
        break;
      case 5:
        id = b.raw(GateKind::product, std::span(ops).first(3));
        break;
      case 6:
        id = b.raw(GateKind::and_, std::span(ops).first(2));
        break;
      case 7:
        id = b.raw(GateKind::or_, ops);
        break;
      case 8:
        id = b.raw(GateKind::xor_, std::span(ops).first(3));
        break;
      case 9:
        id = b.raw(GateKind::not_, std::span(ops).first(1));
        break;
      case 10:
        id = b.raw(GateKind::is_zero, std::span(ops).first(1));
        break;
      case 11:
        id = b.raw(GateKind::maj, ops);
        break;
      default: {
        std::vector<std::int32_t> w;
        for (std::size_t i = 0; i < ops.size(); ++i)
          w.push_back(static_cast<std::int32_t>(rng() % 9) - 4);
        id = b.raw(GateKind::thr, ops, w, static_cast<std::int32_t>(rng() % 5) - 2);
      }
    }
    pool.push_back(id);
  }
  std::vector<GateId> outs(pool.end() - static_cast<std::ptrdiff_t>(outputs), pool.end());
  return b.finish(outs);
}

}  // namespace rnncc::testing
