// One SM's path from the L2: it delivers at most `bytes_per_cycle` of answers, so a burst of
// misses (a block of 1,024 threads loading at once) arrives spread out, the last answer well
// after the first. Answers may be booked in any order (a DRAM miss booked before a later hit
// that arrives first): time is kept in small buckets, each with the bytes already booked in
// it, and an answer takes the first free capacity at or after its arrival.
// Contract: deliver() never returns less than `arrival`; 0 bytes per cycle means unlimited.
#pragma once

#include <cstdint>
#include <deque>

namespace warpsim::memory {

class FillPort {
 public:
  explicit FillPort(std::uint64_t bytes_per_cycle = 0) : bytes_per_cycle_(bytes_per_cycle) {}

  // When an answer of `bytes` that reaches the SM's side of the L2 path at `arrival` is in.
  std::uint64_t deliver(std::uint64_t arrival, std::uint64_t bytes);
  // Forgets the buckets before `cycle` (no answer arrives before it any more).
  void forget_before(std::uint64_t cycle);

 private:
  static constexpr std::uint64_t kBucketCycles = 4;
  std::uint64_t bytes_per_cycle_ = 0;
  std::uint64_t first_bucket_ = 0;    // the bucket booked_[0] stands for
  std::deque<std::uint64_t> booked_;  // bytes delivered in each bucket from first_bucket_ on
};

}  // namespace warpsim::memory
