// run_sharded (algebra/sharded_run.hpp): the same payloads for any number of ranks, up to the
// first `last` block; a checkpoint resumes exactly the missing blocks; a torn last line is
// dropped; damaged files and other jobs' files are refused with FILE:LINE; an error on one rank
// reaches every rank with its type.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "algebra/sharded_run.hpp"
#include "tests/support.hpp"
#include "tests/thread_ranks.hpp"

using namespace rnncc;

namespace {

// A block's result: a function of its number only (so any schedule gives the same bytes).
std::string payload_of(std::uint64_t b) {
  std::mt19937_64 rng(b * 7919 + 1);
  return "block " + std::to_string(b) + " value " + std::to_string(rng() % 100000);
}

std::string temp_path(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() /
                 ("rnncc-sharded-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove(p);
  return p.string();
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("run_sharded: every number of ranks gives the serial fold", "[sharded]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 12; ++trial) {
    const std::uint64_t blocks = rng() % 40;
    // A failure at a random block (or none): blocks after the first are not returned.
    const std::uint64_t fail = rng() % 50, fail2 = fail + rng() % 5;
    std::vector<std::string> serial;
    for (std::uint64_t b = 0; b < std::min(blocks, fail + 1); ++b) serial.push_back(payload_of(b));
    for (int R = 1; R <= 4; ++R) {
      std::vector<std::atomic<int>> runs(blocks);
      ShardedRunOptions o;
      o.blocks = blocks;
      o.job = "test";
      const auto results = test::on_ranks<std::vector<std::string>>(R, [&](Ranks& ranks) {
        return run_sharded(ranks, o,
                           [&](std::uint64_t b) {
                             ++runs[b];
                             return BlockResult{payload_of(b), b == fail || b == fail2};
                           })
            .payloads;
      });
      INFO("blocks " << blocks << ", failure at " << fail << ", R = " << R);
      for (const auto& r : results) CHECK(r == serial);
      // Each block at most once; every block up to the failure exactly once; none from a round
      // after the failure's.
      for (std::uint64_t b = 0; b < blocks; ++b) {
        CHECK(runs[b] <= 1);
        if (b <= fail) CHECK(runs[b] == 1);
        if (b >= (fail / R + 1) * R) CHECK(runs[b] == 0);
      }
    }
  }
}

TEST_CASE("run_sharded: a killed run resumes from its checkpoint, on any number of ranks",
          "[sharded]") {
  const std::string path = temp_path("resume");
  ShardedRunOptions o;
  o.blocks = 37;
  o.job = "resume test";
  o.checkpoint = path;
  o.fsync_interval_seconds = 0;
  // The first run dies at block 20 (after the blocks of the earlier rounds are recorded).
  CHECK_THROWS_WITH(test::on_ranks<int>(3,
                                        [&](Ranks& ranks) {
                                          run_sharded(ranks, o, [&](std::uint64_t b) {
                                            if (b == 20) throw std::runtime_error("killed");
                                            return BlockResult{payload_of(b), false};
                                          });
                                          return 0;
                                        }),
                    Catch::Contains("killed") && Catch::Contains("rank 2"));
  // Rounds of 3: blocks 0..20 ran (18..20 in the failing round, 20 failing), so 0..19 are kept.
  std::set<std::uint64_t> ran;
  std::mutex m;
  const auto results = test::on_ranks<ShardedRunResult>(2, [&](Ranks& ranks) {
    return run_sharded(ranks, o, [&](std::uint64_t b) {
      std::lock_guard lock(m);
      ran.insert(b);
      return BlockResult{payload_of(b), false};
    });
  });
  std::set<std::uint64_t> missing;
  for (std::uint64_t b = 20; b < 37; ++b) missing.insert(b);
  CHECK(ran == missing);
  for (const auto& r : results) {
    CHECK(r.resumed == 20);
    REQUIRE(r.payloads.size() == 37);
    for (std::uint64_t b = 0; b < 37; ++b) CHECK(r.payloads[b] == payload_of(b));
  }
  // Complete: a third run reads everything and runs nothing.
  const ShardedRunResult again = run_sharded(single_rank(), o, [&](std::uint64_t) -> BlockResult {
    FAIL("no block should run");
    return {};
  });
  CHECK(again.resumed == 37);
  CHECK(again.payloads == results[0].payloads);
  std::filesystem::remove(path);
}

TEST_CASE("run_sharded: a torn last line is dropped, a damaged one refused", "[sharded]") {
  const std::string path = temp_path("torn");
  ShardedRunOptions o;
  o.blocks = 6;
  o.job = "torn test";
  o.checkpoint = path;
  auto block = [](std::uint64_t b) { return BlockResult{payload_of(b), b == 4}; };
  const auto full = run_sharded(single_rank(), o, block).payloads;
  REQUIRE(full.size() == 5);  // block 4 is the last one needed
  const std::string text = read(path);
  // Cut the file inside its last entry: that entry is run again, the rest read.
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text.substr(0, text.size() - 7);
  }
  std::vector<std::uint64_t> ran;
  const auto resumed = run_sharded(single_rank(), o, [&](std::uint64_t b) {
    ran.push_back(b);
    return block(b);
  });
  CHECK(ran == std::vector<std::uint64_t>{4});
  CHECK(resumed.payloads == full);
  CHECK(read(path) == text);  // rewritten without the torn line, then the entry appended again
  // A flipped byte in a middle entry: refused at its line.
  std::string damaged = text;
  const std::size_t line5 = [&] {
    std::size_t p = 0;
    for (int i = 0; i < 4; ++i) p = damaged.find('\n', p) + 1;
    return p;
  }();
  damaged[line5 + 8] ^= 1;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << damaged;
  }
  test::expect_input_error([&] { run_sharded(single_rank(), o, block); }, path + ":5",
                           "damaged checkpoint entry");
  // Another job's file, and a file that is no checkpoint.
  ShardedRunOptions other = o;
  other.job = "another test";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }
  test::expect_input_error([&] { run_sharded(single_rank(), other, block); }, path + ":2",
                           "a checkpoint of another job (\"torn test\"");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << "{\"not\": \"a checkpoint\"}\n";
  }
  test::expect_input_error([&] { run_sharded(single_rank(), o, block); }, path + ":1",
                           "not an rnncc checkpoint");
  // Every rank sees the refusal (no rank waits forever for rank 0).
  CHECK_THROWS_AS(test::on_ranks<int>(3,
                                      [&](Ranks& ranks) {
                                        run_sharded(ranks, o, block);
                                        return 0;
                                      }),
                  InputError);
  std::filesystem::remove(path);
}

TEST_CASE("run_sharded: an error on one rank is raised on every rank, with its type", "[sharded]") {
  ShardedRunOptions o;
  o.blocks = 9;
  o.job = "errors";
  std::atomic<int> input_errors = 0, memory_errors = 0;
  test::on_ranks<int>(3, [&](Ranks& ranks) {
    try {
      run_sharded(ranks, o, [&](std::uint64_t b) {
        if (b == 4) throw InputError("--batch", "too many");
        return BlockResult{payload_of(b), false};
      });
    } catch (const InputError& e) {
      CHECK(e.where() == "--batch");
      CHECK(std::string(e.what()) == "--batch: too many");
      ++input_errors;
    }
    try {
      run_sharded(ranks, o, [&](std::uint64_t b) {
        if (b == 7) throw std::bad_alloc();
        return BlockResult{payload_of(b), false};
      });
    } catch (const std::bad_alloc&) {
      ++memory_errors;
    }
    return 0;
  });
  CHECK(input_errors == 3);
  CHECK(memory_errors == 3);
  CHECK(describe(single_rank()) == "one process");
  CHECK(single_rank().all_gather("x") == std::vector<std::string>{"x"});
}
