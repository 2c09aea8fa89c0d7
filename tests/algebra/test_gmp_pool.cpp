// The GMP pool (algebra/gmp_pool.hpp): blocks of every size class are distinct, writable and
// reused; reallocate keeps the contents across classes and to and from malloc's sizes (against a
// plain twin, std::vector copies, on a seeded random sequence of operations); blocks freed by
// another thread; and exact arithmetic with the pool installed equals the same arithmetic
// before it, including values allocated before install() and freed after.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "algebra/gmp_pool.hpp"
#include "algebra/rational.hpp"
#include "tests/support.hpp"

using namespace rnncc;

namespace {

void fill(void* p, std::size_t bytes, unsigned char seed) {
  auto* b = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i < bytes; ++i) b[i] = static_cast<unsigned char>(seed + i * 7);
}

bool holds(const void* p, std::size_t bytes, unsigned char seed) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < bytes; ++i)
    if (b[i] != static_cast<unsigned char>(seed + i * 7)) return false;
  return true;
}

}  // namespace

TEST_CASE("gmp pool: blocks are distinct, writable and reused", "[algebra][gmp_pool]") {
  std::vector<std::pair<void*, std::size_t>> blocks;
  for (std::size_t bytes = 1; bytes <= 40; ++bytes)
    for (int k = 0; k < 50; ++k) {
      void* p = gmp_pool::allocate(bytes);
      fill(p, bytes, static_cast<unsigned char>(bytes + k));
      blocks.push_back({p, bytes});
    }
  std::size_t i = 0;
  for (std::size_t bytes = 1; bytes <= 40; ++bytes)
    for (int k = 0; k < 50; ++k, ++i) {
      INFO(bytes << " bytes, block " << k);
      CHECK(holds(blocks[i].first, bytes, static_cast<unsigned char>(bytes + k)));
    }
  // A released pooled block is the next one of its class (LIFO); a malloc-sized one is freed.
  void* p = gmp_pool::allocate(16);
  gmp_pool::release(p, 16);
  CHECK(gmp_pool::allocate(9) == p);  // 9..16 bytes share the class
  gmp_pool::release(p, 9);
  for (auto [b, bytes] : blocks) gmp_pool::release(b, bytes);
}

TEST_CASE("gmp pool: random allocate, reallocate, release equal a plain twin",
          "[algebra][gmp_pool]") {
  std::mt19937_64 rng(25);
  struct Live {
    void* block;
    std::vector<unsigned char> twin;  // what the block must hold
  };
  std::vector<Live> live;
  const std::size_t sizes[] = {1, 7, 8, 9, 16, 17, 24, 31, 32, 33, 40, 64, 200};
  for (int step = 0; step < 20000; ++step) {
    const int op = live.empty() ? 0 : static_cast<int>(rng() % 3);
    if (op == 0) {
      const std::size_t bytes = sizes[rng() % std::size(sizes)];
      Live l{gmp_pool::allocate(bytes), std::vector<unsigned char>(bytes)};
      for (auto& c : l.twin) c = static_cast<unsigned char>(rng());
      std::memcpy(l.block, l.twin.data(), bytes);
      live.push_back(std::move(l));
    } else {
      const std::size_t k = rng() % live.size();
      Live& l = live[k];
      REQUIRE(std::memcmp(l.block, l.twin.data(), l.twin.size()) == 0);
      if (op == 1) {
        const std::size_t bytes = sizes[rng() % std::size(sizes)];
        l.block = gmp_pool::reallocate(l.block, l.twin.size(), bytes);
        const std::size_t kept = std::min(bytes, l.twin.size());
        l.twin.resize(bytes);
        for (std::size_t i = kept; i < bytes; ++i) l.twin[i] = static_cast<unsigned char>(rng());
        REQUIRE(std::memcmp(l.block, l.twin.data(), kept) == 0);
        std::memcpy(static_cast<unsigned char*>(l.block) + kept, l.twin.data() + kept,
                    bytes - kept);
      } else {
        gmp_pool::release(l.block, l.twin.size());
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
  }
  for (const Live& l : live) {
    CHECK(std::memcmp(l.block, l.twin.data(), l.twin.size()) == 0);
    gmp_pool::release(l.block, l.twin.size());
  }
}

TEST_CASE("gmp pool: out of memory is std::bad_alloc, not an abort", "[algebra][gmp_pool]") {
#if defined(__SANITIZE_ADDRESS__)
  RNNCC_SKIP("AddressSanitizer aborts on a failed malloc (allocator_may_return_null=0)");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  RNNCC_SKIP("AddressSanitizer aborts on a failed malloc (allocator_may_return_null=0)");
#endif
#endif
  const std::size_t huge = ~std::size_t{0} / 2;
  CHECK_THROWS_AS(gmp_pool::allocate(huge), std::bad_alloc);
  void* p = gmp_pool::allocate(16);
  CHECK_THROWS_AS(gmp_pool::reallocate(p, 16, huge), std::bad_alloc);
  gmp_pool::release(p, 16);  // a failed reallocate leaves the block as it was
}

TEST_CASE("gmp pool: blocks freed by another thread", "[algebra][gmp_pool]") {
  std::vector<void*> made(4000);
  for (std::size_t i = 0; i < made.size(); ++i) {
    made[i] = gmp_pool::allocate(8 + i % 25);
    fill(made[i], 8 + i % 25, static_cast<unsigned char>(i));
  }
  std::vector<void*> again;
  std::thread t([&] {
    for (std::size_t i = 0; i < made.size(); ++i) {
      REQUIRE(holds(made[i], 8 + i % 25, static_cast<unsigned char>(i)));
      gmp_pool::release(made[i], 8 + i % 25);
    }
    for (int k = 0; k < 100; ++k) again.push_back(gmp_pool::allocate(16));
  });
  t.join();
  for (void* p : again) gmp_pool::release(p, 16);
  // This thread's lists still work.
  void* p = gmp_pool::allocate(24);
  fill(p, 24, 3);
  CHECK(holds(p, 24, 3));
  gmp_pool::release(p, 24);
}

TEST_CASE("gmp pool: installed, exact arithmetic is unchanged", "[algebra][gmp_pool]") {
  // Values and results computed with malloc's blocks, kept across install().
  std::mt19937_64 rng(7);
  std::vector<Rational> before;
  std::vector<Rational> want;
  for (int i = 0; i < 300; ++i) {
    const Rational a(Integer(static_cast<long long>(rng() % 2000001) - 1000000),
                     Integer(static_cast<long long>(rng() % 999 + 1)));
    before.push_back(a);
  }
  for (std::size_t i = 0; i + 1 < before.size(); ++i) {
    Rational x = before[i] * before[i + 1] + before[i] / (before[i + 1] == 0 ? 1 : before[i + 1]);
    for (int k = 0; k < 5; ++k) x = x * x - before[i];  // values up to hundreds of limbs
    want.push_back(x);
  }
  const std::string power = to_string(Integer(boost::multiprecision::pow(Integer(3), 200)));
  gmp_pool::install();
  for (std::size_t i = 0; i + 1 < before.size(); ++i) {
    Rational x = before[i] * before[i + 1] + before[i] / (before[i + 1] == 0 ? 1 : before[i + 1]);
    for (int k = 0; k < 5; ++k) x = x * x - before[i];
    CHECK(x == want[i]);
    CHECK(to_string(x) == to_string(want[i]));
  }
  before.clear();  // blocks from malloc, freed into the pool
  want.clear();
  Integer p = 1;
  for (int i = 0; i < 200; ++i) p *= 3;  // grows through every pooled size and past it
  CHECK(to_string(p) == power);
}
