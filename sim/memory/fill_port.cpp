#include "sim/memory/fill_port.hpp"

#include <algorithm>

namespace warpsim::memory {

std::uint64_t FillPort::deliver(std::uint64_t arrival, std::uint64_t bytes) {
  if (bytes_per_cycle_ == 0 || bytes == 0) return arrival;
  const std::uint64_t capacity = kBucketCycles * bytes_per_cycle_;
  std::uint64_t bucket = arrival / kBucketCycles;
  std::uint64_t left = bytes;
  for (;;) {
    std::uint64_t& used = booked_[bucket];
    const std::uint64_t take = std::min(left, capacity - std::min(capacity, used));
    used += take;
    left -= take;
    if (left == 0) {
      // The answer is complete once the bucket's bytes up to and including it have passed.
      const std::uint64_t end =
          bucket * kBucketCycles + (used + bytes_per_cycle_ - 1) / bytes_per_cycle_;
      return std::max(arrival, end);
    }
    ++bucket;
  }
}

void FillPort::forget_before(std::uint64_t cycle) {
  booked_.erase(booked_.begin(), booked_.lower_bound(cycle / kBucketCycles));
}

}  // namespace warpsim::memory
