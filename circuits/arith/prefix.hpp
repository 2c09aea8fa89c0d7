// Prefix networks, generic over the associative operator (docs/circuits.md, "Prefix networks").
//
// A network over positions 0..n−1 is a list of levels; a node (i, j) with j < i replaces
// v[i] by v[i] ∘ v[j] (v[j] the earlier segment, ∘ composes "later after earlier"). Nodes of
// one level read values from before that level. After the last level v[i] = x_i ∘ … ∘ x_0 for
// every i. run_prefix() executes a network with any combine function, so the same schedules
// drive affine-map composition, permutation composition and boolean matrix products.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rnncc {

enum class ScanKind { sequential, sklansky, kogge_stone, brent_kung, ladner_fischer };
std::string to_string(
    ScanKind k);  // "sequential" "sklansky" "kogge-stone" "brent-kung" "ladner-fischer"

struct PrefixNode {
  std::size_t target, source;  // v[target] = v[target] ∘ v[source]
};
using PrefixNetwork = std::vector<std::vector<PrefixNode>>;  // levels

// ladner_fischer_k: Brent–Kung levels before and after a Sklansky core on the 2^k-strided
// positions; k = 0 is Sklansky, k ≥ ⌈log₂ n⌉ is Brent–Kung.
PrefixNetwork prefix_network(ScanKind kind, std::size_t n, unsigned ladner_fischer_k = 1);

// Closed forms (docs/circuits.md, "Prefix networks"); tests compare them with the schedules.
std::size_t prefix_node_count(ScanKind kind, std::size_t n, unsigned ladner_fischer_k = 1);
// Longest chain of combines, i.e. the network's depth.
std::size_t prefix_chain_depth(ScanKind kind, std::size_t n, unsigned ladner_fischer_k = 1);

// Measured from a schedule: nodes, nonempty levels, longest chain; and whether it is a valid
// prefix network (every v[i] ends as the full prefix, each segment contiguous).
struct PrefixShape {
  std::size_t nodes = 0, levels = 0, chain_depth = 0;
  bool valid = false;
};
PrefixShape analyse(const PrefixNetwork& net, std::size_t n);

// Executes `net` on values v (size n): v[target] = combine(v[target], v[source]) for every node,
// level by level (combine(later, earlier) -> value). Compilers that tag regions walk the levels
// themselves (compile_lrnn enters a combine region before each node).
template <class T, class Combine>
void run_prefix(const PrefixNetwork& net, std::vector<T>& v, Combine&& combine) {
  for (const auto& level : net)
    for (const PrefixNode& node : level) v[node.target] = combine(v[node.target], v[node.source]);
}

}  // namespace rnncc
