#include "sim/scheduler/warp_scheduler.hpp"

#include <algorithm>

namespace warpsim::scheduler {

void WarpScheduler::remove(std::uint32_t warp) {
  const auto it = std::find(order_.begin(), order_.end(), warp);
  if (it == order_.end()) return;
  const auto i = static_cast<std::size_t>(it - order_.begin());
  order_.erase(it);
  if (last_ > i) --last_;
  if (warp == last_warp_) last_warp_ = UINT32_MAX;
}

void WarpScheduler::demote(std::size_t i) {
  const std::uint32_t w = order_[i];
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(i));
  order_.push_back(w);
}

void WarpScheduler::promote(std::size_t from, std::size_t to) {
  const auto first = order_.begin() + static_cast<std::ptrdiff_t>(to);
  const auto last = order_.begin() + static_cast<std::ptrdiff_t>(from);
  std::rotate(first, last, last + 1);
}

}  // namespace warpsim::scheduler
