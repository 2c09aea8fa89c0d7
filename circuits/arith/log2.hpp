// ⌈log₂ n⌉, the depth of a balanced fan-in-2 tree over n leaves: what the arithmetic blocks
// (prefix networks, adders, multipliers) and every compiler size their trees by.
#pragma once

#include <bit>
#include <cstddef>

namespace rnncc {

// ⌈log₂ n⌉ (0 for n ≤ 1).
constexpr std::size_t ceil_log2(std::size_t n) {
  return n <= 1 ? 0 : static_cast<std::size_t>(std::bit_width(n - 1));
}

}  // namespace rnncc
