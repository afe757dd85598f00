#include "sim/scheduler/engine/request_order.hpp"

#include <algorithm>
#include <cstdint>

namespace warpsim::scheduler {

void RequestOrder::by_cycle(std::vector<memory::L2Request*>& requests) {
  if (requests.empty()) return;
  std::uint64_t low = UINT64_MAX, high = 0;
  for (const memory::L2Request* r : requests) {
    low = std::min(low, r->cycle);
    high = std::max(high, r->cycle);
  }
  // Cycles too far apart for buckets: a comparison sort, as stable.
  if (high - low > (std::uint64_t{1} << 22)) {
    std::stable_sort(
        requests.begin(), requests.end(),
        [](const memory::L2Request* a, const memory::L2Request* b) { return a->cycle < b->cycle; });
    return;
  }
  counts_.assign(high - low + 2, 0);
  for (const memory::L2Request* r : requests) ++counts_[r->cycle - low + 1];
  for (std::size_t i = 1; i < counts_.size(); ++i) counts_[i] += counts_[i - 1];
  sorted_.resize(requests.size());
  for (memory::L2Request* r : requests) sorted_[counts_[r->cycle - low]++] = r;
  requests.swap(sorted_);
}

}  // namespace warpsim::scheduler
