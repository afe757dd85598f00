#include "sim/scheduler/sm/residency.hpp"

#include <algorithm>

namespace warpsim::scheduler {

void Residency::settle(std::uint64_t until) {
  std::stable_sort(events_.begin(), events_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t used = 0;
  auto advance = [&](std::uint64_t to) {
    if (to <= since_) return;
    const std::uint64_t span = to - since_;
    warp_cycles_ += in_flight_ * span;
    if (in_flight_ != 0) active_cycles_ += span;
    since_ = to;
  };
  for (; used < events_.size() && events_[used].first <= until; ++used) {
    advance(events_[used].first);
    in_flight_ =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(in_flight_) + events_[used].second);
  }
  advance(until);
  events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(used));
}

}  // namespace warpsim::scheduler
