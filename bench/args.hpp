// What the benches' command lines share: a comma-separated list of numbers ("12,16,20").
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace rnncc::bench {

// The numbers of "a,b,c" in order; std::invalid_argument when an item is not a number.
template <class T = std::uint32_t>
std::vector<T> comma_list(const std::string& v) {
  std::vector<T> out;
  for (std::size_t at = 0; at < v.size();) {
    const std::size_t comma = std::min(v.find(',', at), v.size());
    out.push_back(static_cast<T>(std::stoull(v.substr(at, comma - at))));
    at = comma + 1;
  }
  return out;
}

}  // namespace rnncc::bench
