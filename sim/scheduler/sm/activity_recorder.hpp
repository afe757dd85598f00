// Records what one SM did over time (SmActivity), for the SMs a picture or trace shows. Memory
// stays bounded: when the warps' spans outnumber the budget, every warp's spans are merged into
// bins four times coarser (StateBinner); when a counter's changes do, both counters' changes
// move to multiples of a coarser quantum, where their values stay exact. The result depends only on
// what the SM did, so it is the same on any number of threads.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/scheduler/activity.hpp"

namespace warpsim::scheduler {

class ActivityRecorder {
 public:
  ActivityRecorder(bool on, std::size_t budget, std::uint32_t sm, std::uint32_t warps_per_block);
  bool on() const { return on_; }
  void segment(const TimelineSegment& s);
  void block_started(std::uint32_t slot, std::uint64_t block, std::uint64_t assigned,
                     std::uint64_t started);
  void block_retired(std::uint32_t slot, std::uint64_t at);
  void barrier_released(const BarrierRelease& b);
  void resident_change(std::uint64_t cycle, std::int64_t change) {
    counter_change(resident_, cycle, change);
  }
  void memory_change(std::uint64_t cycle, std::int64_t change) {
    counter_change(memory_, cycle, change);
  }
  // The record, with the SM's exact per-state cycles; recording stops.
  SmActivity take(const std::array<std::uint64_t, kWarpStates>& state_cycles);

 private:
  using Changes = std::vector<std::pair<std::uint64_t, std::int64_t>>;  // (cycle, change)
  void counter_change(Changes& c, std::uint64_t cycle, std::int64_t change);
  void coarsen_segments();
  std::vector<CounterSample> samples(Changes& c) const;

  bool on_;
  std::size_t budget_;
  std::uint64_t quantum_ = 1;
  std::size_t spans_ = 0;  // spans held by rows_, open bins included
  std::vector<StateBinner> rows_;
  std::vector<std::size_t> block_in_slot_;  // index into activity_.blocks of each slot's block
  std::uint64_t counter_quantum_ = 1;       // both counters', so their samples line up
  Changes resident_, memory_;
  SmActivity activity_;
};

}  // namespace warpsim::scheduler
