// The spans of time each warp of one SM spends in each state, for the timeline picture; on
// only for the SM the picture shows, and bounded so a long launch cannot exhaust memory.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/scheduler/timing_types.hpp"

namespace warpsim::scheduler {

// A span of one warp's time in one state.
struct TimelineSegment {
  std::uint32_t warp = 0;  // slot * warps per block + warp index
  std::uint64_t block = 0;
  std::uint64_t start = 0, end = 0;
  WarpState state = WarpState::Wait;
};

class TimelineRecorder {
 public:
  static constexpr std::size_t kMaxSegments = 400'000;

  explicit TimelineRecorder(bool on) : on_(on) {}
  bool on() const { return on_ && segments_.size() < kMaxSegments; }
  void record(const TimelineSegment& s) { segments_.push_back(s); }
  const std::vector<TimelineSegment>& segments() const { return segments_; }

 private:
  bool on_;
  std::vector<TimelineSegment> segments_;
};

}  // namespace warpsim::scheduler
