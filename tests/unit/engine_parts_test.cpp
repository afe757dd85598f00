// Pieces of the parallel timing engine: the order an interval's L2 requests are resolved in,
// and the barrier its threads meet at.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "sim/scheduler/engine/request_order.hpp"
#include "sim/scheduler/engine/spin_barrier.hpp"

namespace warpsim::scheduler {
namespace {

// Requests as gathered (SM by SM, each SM's in sequence) with these cycles; `seq` numbers them
// in that order, so a stable sort by cycle must keep equal cycles in increasing `seq`.
std::vector<std::uint32_t> ordered_seqs(const std::vector<std::uint64_t>& cycles) {
  std::vector<memory::L2Request> requests(cycles.size());
  std::vector<memory::L2Request*> pointers;
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    requests[i].cycle = cycles[i];
    requests[i].seq = static_cast<std::uint32_t>(i);
    pointers.push_back(&requests[i]);
  }
  RequestOrder order;
  order.by_cycle(pointers);
  std::vector<std::uint32_t> seqs;
  for (const memory::L2Request* r : pointers) seqs.push_back(r->seq);
  return seqs;
}

TEST_CASE("an interval's requests are put in cycle order, gathering order kept among equals") {
  // Cycles 5, 3, 5, 1, 3: cycle 1 (index 3), then 3 (indices 1, 4), then 5 (0, 2).
  CHECK(ordered_seqs({5, 3, 5, 1, 3}) == std::vector<std::uint32_t>{3, 1, 4, 0, 2});
  // Cycles too far apart for the counting sort take the comparison sort: the same order.
  const std::uint64_t far = std::uint64_t{1} << 40;
  CHECK(ordered_seqs({far + 5, 3, far + 5, 1, 3}) == std::vector<std::uint32_t>{3, 1, 4, 0, 2});
  CHECK(ordered_seqs({}).empty());
}

TEST_CASE("no thread leaves the barrier before every thread has reached it") {
  // Each thread counts itself in before each of 2,000 meetings; whoever leaves meeting r must
  // see all threads x (r + 1) arrivals. A thread that left early would see fewer. Two threads
  // spin while they wait (on a machine of two or more cores), more than the cores sleep.
  constexpr std::uint32_t kRounds = 2000;
  for (const std::uint32_t threads :
       {2u, 3u, 2 * std::max(1u, std::thread::hardware_concurrency())}) {
    CAPTURE(threads);
    SpinBarrier barrier(threads);
    std::atomic<std::uint32_t> arrivals{0};
    std::atomic<std::uint32_t> early{0};
    auto work = [&] {
      for (std::uint32_t r = 0; r < kRounds; ++r) {
        arrivals.fetch_add(1);
        barrier.arrive_and_wait();
        if (arrivals.load() < threads * (r + 1)) early.fetch_add(1);
        barrier.arrive_and_wait();  // nobody counts in for the next round before all have looked
      }
    };
    {
      std::vector<std::jthread> workers;
      for (std::uint32_t k = 0; k < threads; ++k) workers.emplace_back(work);
    }
    CHECK(arrivals.load() == threads * kRounds);
    CHECK(early.load() == 0);
  }
}

}  // namespace
}  // namespace warpsim::scheduler
