// Work in numbered tasks over the host's threads: each thread takes the next task number from an
// atomic counter when it finishes one (dynamic scheduling, for tasks of uneven cost) and keeps
// its own state, made once per thread (scratch buffers, a partial result). With one thread the
// caller runs every task itself and no thread is made.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace rnncc {

// Runs run(state, k) for every task k in [0, tasks) on min(threads, tasks) threads (at least
// one), each with its own state = make(); returns the states, one per thread used, for the caller
// to merge.
template <class Make, class Run>
auto run_tasks(std::uint64_t tasks, unsigned threads, Make&& make, Run&& run) {
  threads =
      static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, tasks)));
  std::vector<decltype(make())> states;
  states.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) states.push_back(make());
  std::atomic<std::uint64_t> next{0};
  auto work = [&](unsigned id) {
    for (std::uint64_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < tasks;)
      run(states[id], k);
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i) pool.emplace_back(work, i);
    for (auto& th : pool) th.join();
  }
  return states;
}

}  // namespace rnncc
