// R ranks as R threads of one process: the test twin of MPI's world (algebra/ranks.hpp), so the
// suites check that a sharded computation gives the same bytes for every R without mpirun
// (tests/cli/mpi_ranks.sh runs the real thing).
#pragma once

#include <barrier>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "algebra/ranks.hpp"

namespace rnncc::test {

class ThreadRanks final : public Ranks {
 public:
  struct Shared {
    explicit Shared(int ranks) : size(ranks), sync(ranks), slots(static_cast<std::size_t>(ranks)) {}
    int size;
    std::barrier<> sync;
    std::vector<std::string> slots;
  };
  ThreadRanks(std::shared_ptr<Shared> shared, int rank) : shared_(std::move(shared)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return shared_->size; }
  std::vector<std::string> all_gather(const std::string& mine) override {
    shared_->slots[static_cast<std::size_t>(rank_)] = mine;
    shared_->sync.arrive_and_wait();
    std::vector<std::string> all = shared_->slots;
    shared_->sync.arrive_and_wait();
    return all;
  }
  std::string broadcast(const std::string& from_rank_0) override {
    if (rank_ == 0) shared_->slots[0] = from_rank_0;
    shared_->sync.arrive_and_wait();
    std::string s = shared_->slots[0];
    shared_->sync.arrive_and_wait();
    return s;
  }

 private:
  std::shared_ptr<Shared> shared_;
  int rank_;
};

// Runs work(ranks) on R threads, one rank each; returns each rank's result, in rank order, and
// rethrows the lowest rank's exception.
template <class T>
std::vector<T> on_ranks(int R, const std::function<T(Ranks&)>& work) {
  auto shared = std::make_shared<ThreadRanks::Shared>(R);
  std::vector<T> out(static_cast<std::size_t>(R));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(R));
  std::vector<std::thread> threads;
  for (int r = 0; r < R; ++r)
    threads.emplace_back([&, r] {
      ThreadRanks ranks(shared, r);
      try {
        out[static_cast<std::size_t>(r)] = work(ranks);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace rnncc::test
