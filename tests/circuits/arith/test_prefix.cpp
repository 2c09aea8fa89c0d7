// Prefix networks: every schedule is a valid prefix network, and its node count and chain depth
// equal the closed forms of docs/circuits.md, for every n up to 300.
#include <catch2/catch.hpp>

#include "circuits/arith/prefix.hpp"

using namespace rnncc;

TEST_CASE("schedules are valid prefix networks with the documented counts", "[circuits][prefix]") {
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer}) {
    for (unsigned lf : {1u, 2u, 3u}) {
      if (k != ScanKind::ladner_fischer && lf > 1) continue;
      for (std::size_t n = 1; n <= 300; ++n) {
        INFO(to_string(k) << " k=" << lf << " n=" << n);
        PrefixNetwork net = prefix_network(k, n, lf);
        PrefixShape s = analyse(net, n);
        REQUIRE(s.valid);
        REQUIRE(s.nodes == prefix_node_count(k, n, lf));
        REQUIRE(s.chain_depth == prefix_chain_depth(k, n, lf));
      }
    }
  }
}

TEST_CASE("prefix network figures at powers of two (constructions.md §2)", "[circuits][prefix]") {
  for (std::size_t L = 1; L <= 10; ++L) {
    const std::size_t n = std::size_t{1} << L;
    CHECK(prefix_node_count(ScanKind::sequential, n) == n - 1);
    CHECK(prefix_node_count(ScanKind::sklansky, n) == n / 2 * L);
    CHECK(prefix_node_count(ScanKind::kogge_stone, n) == n * L - n + 1);
    CHECK(prefix_node_count(ScanKind::brent_kung, n) == 2 * n - 2 - L);
    CHECK(prefix_chain_depth(ScanKind::sklansky, n) == L);
    CHECK(prefix_chain_depth(ScanKind::kogge_stone, n) == L);
    CHECK(prefix_chain_depth(ScanKind::brent_kung, n) == (L == 1 ? 1 : 2 * L - 2));
    // Ladner–Fischer sits between Sklansky and Brent–Kung
    CHECK(prefix_node_count(ScanKind::ladner_fischer, n, 1) <=
          prefix_node_count(ScanKind::sklansky, n));
    CHECK(prefix_node_count(ScanKind::ladner_fischer, n, 1) >=
          prefix_node_count(ScanKind::brent_kung, n));
    CHECK(prefix_node_count(ScanKind::ladner_fischer, n, 64) ==
          prefix_node_count(ScanKind::brent_kung, n));
  }
}

TEST_CASE("run_prefix computes all prefixes of a non-commutative monoid", "[circuits][prefix]") {
  // Strings under concatenation: v[i] must become x_i x_{i−1} … x_0 (later on the left).
  for (ScanKind k : {ScanKind::sequential, ScanKind::sklansky, ScanKind::kogge_stone,
                     ScanKind::brent_kung, ScanKind::ladner_fischer})
    for (std::size_t n : {1u, 2u, 5u, 16u, 37u}) {
      std::vector<std::string> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = std::string(1, static_cast<char>('a' + i % 26));
      std::vector<std::string> expect(n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j-- > 0;) expect[i] += v[j];
      run_prefix(prefix_network(k, n), v, [](const std::string& later, const std::string& earlier) {
        return later + earlier;
      });
      REQUIRE(v == expect);
    }
}
