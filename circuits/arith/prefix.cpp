#include "circuits/arith/prefix.hpp"

#include <algorithm>
#include <stdexcept>

#include "circuits/arith/log2.hpp"

namespace rnncc {

namespace {

// Brent–Kung up-sweep level l: i = 2^(l+1)·t + 2^(l+1) − 1 < n, from i − 2^l.
void up_level(PrefixNetwork& net, std::size_t n, unsigned l) {
  std::vector<PrefixNode> level;
  const std::size_t step = std::size_t{1} << (l + 1), half = std::size_t{1} << l;
  for (std::size_t i = step - 1; i < n; i += step) level.push_back({i, i - half});
  if (!level.empty()) net.push_back(std::move(level));
}

// Brent–Kung down-sweep level l: i = 2^(l+1)·t + 3·2^l − 1 < n, from i − 2^l.
void down_level(PrefixNetwork& net, std::size_t n, unsigned l) {
  std::vector<PrefixNode> level;
  const std::size_t step = std::size_t{1} << (l + 1), half = std::size_t{1} << l;
  for (std::size_t i = 3 * half - 1; i < n; i += step) level.push_back({i, i - half});
  if (!level.empty()) net.push_back(std::move(level));
}

// Sklansky on the positions stride·t + stride − 1 (t = 0..m−1).
void sklansky_core(PrefixNetwork& net, std::size_t n, std::size_t stride) {
  const std::size_t m = n / stride;
  for (unsigned l = 0; l < ceil_log2(m); ++l) {
    std::vector<PrefixNode> level;
    for (std::size_t t = 0; t < m; ++t)
      if (t >> l & 1) {
        std::size_t src = (t >> l << l) - 1;
        level.push_back({stride * t + stride - 1, stride * src + stride - 1});
      }
    if (!level.empty()) net.push_back(std::move(level));
  }
}

}  // namespace

std::string to_string(ScanKind k) {
  switch (k) {
    case ScanKind::sequential:
      return "sequential";
    case ScanKind::sklansky:
      return "sklansky";
    case ScanKind::kogge_stone:
      return "kogge-stone";
    case ScanKind::brent_kung:
      return "brent-kung";
    case ScanKind::ladner_fischer:
      return "ladner-fischer";
  }
  return "?";
}

PrefixNetwork prefix_network(ScanKind kind, std::size_t n, unsigned k) {
  PrefixNetwork net;
  const auto L = static_cast<unsigned>(ceil_log2(n));
  switch (kind) {
    case ScanKind::sequential:
      for (std::size_t i = 1; i < n; ++i) net.push_back({{i, i - 1}});
      break;
    case ScanKind::sklansky:
      sklansky_core(net, n, 1);
      break;
    case ScanKind::kogge_stone:
      for (unsigned l = 0; l < L; ++l) {
        std::vector<PrefixNode> level;
        const std::size_t s = std::size_t{1} << l;
        for (std::size_t i = n; i-- > s;) level.push_back({i, i - s});
        net.push_back(std::move(level));
      }
      break;
    case ScanKind::brent_kung:
      for (unsigned l = 0; l < L; ++l) up_level(net, n, l);
      for (unsigned l = L; l-- > 0;) down_level(net, n, l);
      break;
    case ScanKind::ladner_fischer: {
      const unsigned kk = std::min(k, L);
      for (unsigned l = 0; l < kk; ++l) up_level(net, n, l);
      sklansky_core(net, n, std::size_t{1} << kk);
      for (unsigned l = kk; l-- > 0;) down_level(net, n, l);
      break;
    }
  }
  return net;
}

namespace {
// Σ over levels of #{0 ≤ i < n : bit l of i is set} — the Sklansky node count.
std::size_t sklansky_nodes(std::size_t n) {
  std::size_t total = 0;
  for (unsigned l = 0; l < ceil_log2(n); ++l) {
    const std::size_t block = std::size_t{1} << (l + 1), half = std::size_t{1} << l;
    total += n / block * half + (n % block > half ? n % block - half : 0);
  }
  return total;
}
std::size_t up_nodes(std::size_t n, unsigned levels) {
  std::size_t total = 0;
  for (unsigned l = 0; l < levels; ++l) total += n >> (l + 1);
  return total;
}
std::size_t down_nodes(std::size_t n, unsigned levels) {
  std::size_t total = 0;
  for (unsigned l = 0; l < levels; ++l) {
    const std::size_t half = std::size_t{1} << l;
    if (n > half) total += (n - half) >> (l + 1);
  }
  return total;
}
}  // namespace

std::size_t prefix_node_count(ScanKind kind, std::size_t n, unsigned k) {
  if (n <= 1) return 0;
  const auto L = static_cast<unsigned>(ceil_log2(n));
  switch (kind) {
    case ScanKind::sequential:
      return n - 1;
    case ScanKind::sklansky:
      return sklansky_nodes(n);
    case ScanKind::kogge_stone:
      return static_cast<std::size_t>(L) * n - ((std::size_t{1} << L) - 1);
    case ScanKind::brent_kung:
      return up_nodes(n, L) + down_nodes(n, L);
    case ScanKind::ladner_fischer: {
      const unsigned kk = std::min(k, L);
      return up_nodes(n, kk) + sklansky_nodes(n >> kk) + down_nodes(n, kk);
    }
  }
  return 0;
}

std::size_t prefix_chain_depth(ScanKind kind, std::size_t n, unsigned k) {
  if (n <= 1) return 0;
  const auto L = static_cast<unsigned>(ceil_log2(n));
  switch (kind) {
    case ScanKind::sequential:
      return n - 1;
    case ScanKind::sklansky:
    case ScanKind::kogge_stone:
      return L;
    case ScanKind::brent_kung:
    case ScanKind::ladner_fischer: {
      // Up-sweep levels 0..u−1 then the core then down-sweep: a chain climbs the up-sweep,
      // crosses the core, and descends the nonempty down-sweep levels. Computed on the shape
      // (documented as a recurrence in docs/circuits.md) for non-powers of two.
      return analyse(prefix_network(kind, n, k), n).chain_depth;
    }
  }
  return 0;
}

PrefixShape analyse(const PrefixNetwork& net, std::size_t n) {
  PrefixShape s;
  std::vector<std::size_t> start(n), chain(n, 0);
  for (std::size_t i = 0; i < n; ++i) start[i] = i;
  bool ok = true;
  for (const auto& level : net) {
    if (level.empty()) continue;
    ++s.levels;
    std::vector<std::size_t> new_start = start, new_chain = chain;
    for (const PrefixNode& node : level) {
      if (node.source >= node.target || node.target >= n) ok = false;
      // contiguity: the earlier segment must end right before the later one starts
      if (ok && node.source + 1 != start[node.target]) ok = false;
      new_start[node.target] = start[node.source];
      new_chain[node.target] = std::max(chain[node.target], chain[node.source]) + 1;
      ++s.nodes;
    }
    start = std::move(new_start);
    chain = std::move(new_chain);
  }
  for (std::size_t i = 0; i < n; ++i) {
    ok = ok && start[i] == 0;
    s.chain_depth = std::max(s.chain_depth, chain[i]);
  }
  s.valid = ok;
  return s;
}

}  // namespace rnncc
