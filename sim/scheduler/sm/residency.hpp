// Warps in flight on one SM over time, for sm__cycles_active and achieved occupancy: a warp is
// in flight from shortly before its first possible issue until it exits. Cycles with any warp
// in flight are active; warps in flight summed over cycles give achieved occupancy.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace warpsim::scheduler {

class Residency {
 public:
  // From `cycle` on, `change` more warps (or fewer) are in flight. Events may come out of
  // order, but never before the last settled cycle.
  void change(std::uint64_t cycle, std::int64_t change) { events_.emplace_back(cycle, change); }
  // Counts every cycle up to `until`; events at or before it are final, later ones are kept.
  void settle(std::uint64_t until);
  // No warp in flight and no change to come: settling later counts nothing more.
  bool settled() const { return in_flight_ == 0 && events_.empty(); }
  std::uint64_t active_cycles() const { return active_cycles_; }
  std::uint64_t warp_cycles() const { return warp_cycles_; }

 private:
  std::vector<std::pair<std::uint64_t, std::int64_t>> events_;  // (cycle, change)
  std::uint64_t in_flight_ = 0, since_ = 0;
  std::uint64_t active_cycles_ = 0, warp_cycles_ = 0;
};

}  // namespace warpsim::scheduler
