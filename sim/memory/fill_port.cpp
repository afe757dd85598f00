#include "sim/memory/fill_port.hpp"

#include <algorithm>

namespace warpsim::memory {

std::uint64_t FillPort::deliver(std::uint64_t arrival, std::uint64_t bytes) {
  if (bytes_per_cycle_ == 0 || bytes == 0) return arrival;
  const std::uint64_t capacity = kBucketCycles * bytes_per_cycle_;
  // Buckets already forgotten are in the past: book from the first one kept.
  std::uint64_t bucket = std::max(arrival / kBucketCycles, first_bucket_);
  std::uint64_t left = bytes;
  for (;;) {
    const auto index = static_cast<std::size_t>(bucket - first_bucket_);
    if (index >= booked_.size()) booked_.resize(index + 1, 0);
    std::uint64_t& used = booked_[index];
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
  const std::uint64_t bucket = cycle / kBucketCycles;
  if (bucket <= first_bucket_) return;
  const std::uint64_t drop = std::min<std::uint64_t>(bucket - first_bucket_, booked_.size());
  booked_.erase(booked_.begin(), booked_.begin() + static_cast<std::ptrdiff_t>(drop));
  first_bucket_ = bucket;
}

}  // namespace warpsim::memory
