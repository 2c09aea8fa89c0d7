// Bit-parallel evaluation of boolean and threshold circuits: 64 input patterns per machine
// word. Threshold gates go through bit-sliced counters (circuits/eval/gate_ops.hpp): each
// weight is added into a two's-complement accumulator of B bit planes, B large enough for
// Σ|wᵢ| + |θ|, and the gate is the sign test of Σ wᵢxᵢ − θ.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "circuits/circuit.hpp"
#include "circuits/eval/gate_ops.hpp"

namespace rnncc {

// inputs[i] = word of input i. Constants must be 0 or 1. Throws std::invalid_argument for
// arithmetic gates (add, mul, …, positive), which have no boolean meaning.
std::vector<bits::Word> evaluate_bits(const Circuit& c, std::span<const bits::Word> inputs);

// Batch: patterns[w * inputs + i] = word w of input i; outputs likewise, one word per output.
// Runs on `threads` threads (0 = all cores).
std::vector<bits::Word> evaluate_bits_batch(const Circuit& c, std::span<const bits::Word> patterns,
                                            unsigned threads = 0);

// True when every gate is boolean, threshold, input or a 0/1 constant.
bool is_boolean(const Circuit& c);

}  // namespace rnncc
