// The warp scheduler of one SM sub-partition: among the warps that can issue this cycle, picks
// one by policy. LRR (loose round robin) starts after the warp that issued last; GTO (greedy
// then oldest) keeps issuing from the same warp until it stalls, then takes the oldest; the
// two-level scheduler picks round robin among a small active set and moves a warp that waits
// for global memory to the back of the pending ones.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/gpu_config.hpp"

namespace warpsim::scheduler {

class WarpScheduler {
 public:
  WarpScheduler(config::SchedulerPolicy policy, std::uint32_t active_set)
      : policy_(policy), active_set_(active_set) {}

  // Warps are added in age order (block launch order, then warp index).
  void add(std::uint32_t warp) { order_.push_back(warp); }
  void remove(std::uint32_t warp);
  bool empty() const { return order_.empty(); }
  const std::vector<std::uint32_t>& warps() const { return order_; }

  // `ready(w)` says whether warp w can issue now (and records its state when it cannot);
  // `long_wait(w)` whether it waits for global memory. Every warp is asked at most once.
  // Returns the chosen warp, or UINT32_MAX.
  template <typename Ready, typename LongWait>
  std::uint32_t pick(Ready&& ready, LongWait&& long_wait) {
    const std::size_t n = order_.size();
    if (n == 0) return UINT32_MAX;
    switch (policy_) {
      case config::SchedulerPolicy::GreedyThenOldest: {
        if (last_warp_ != UINT32_MAX && ready(last_warp_)) return last_warp_;
        for (std::size_t i = 0; i < n; ++i) {
          if (order_[i] == last_warp_) continue;
          if (ready(order_[i])) return choose(i);
        }
        return UINT32_MAX;
      }
      case config::SchedulerPolicy::LooseRoundRobin: {
        std::size_t i = (last_ + 1) % n;
        for (std::size_t k = 0; k < n; ++k) {
          if (ready(order_[i])) return choose(i);
          if (++i == n) i = 0;
        }
        return UINT32_MAX;
      }
      case config::SchedulerPolicy::TwoLevel: {
        const std::size_t active = std::min<std::size_t>(active_set_, n);
        for (std::size_t i = 0; i < active; ++i) {
          if (active < n && long_wait(order_[i])) demote(i);
        }
        std::size_t next = (last_ + 1) % active;
        for (std::size_t k = 0; k < active; ++k) {
          if (ready(order_[next])) return choose(next);
          if (++next == active) next = 0;
        }
        // None of the active set can issue: promote the first pending warp that can.
        for (std::size_t i = active; i < n; ++i) {
          if (!ready(order_[i])) continue;
          promote(i, active - 1);
          return choose(active - 1);
        }
        return UINT32_MAX;
      }
    }
    return UINT32_MAX;
  }

 private:
  std::uint32_t choose(std::size_t i) {
    last_ = i;
    last_warp_ = order_[i];
    return last_warp_;
  }
  void demote(std::size_t i);
  // Moves the warp at `from` to position `to` (to < from), shifting the ones between back.
  void promote(std::size_t from, std::size_t to);

  config::SchedulerPolicy policy_;
  std::uint32_t active_set_;
  std::vector<std::uint32_t> order_;
  std::size_t last_ = 0;
  std::uint32_t last_warp_ = UINT32_MAX;
};

}  // namespace warpsim::scheduler
