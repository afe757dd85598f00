// What one SM did over time, for the timeline picture and the trace: each warp's spans of state,
// each block's residency in its slot, barrier releases, and two counters (resident warps, memory
// requests in flight). Recorded only for the SMs asked for, within a budget: past it, spans are
// merged into bins of `quantum` cycles, each bin showing the state that held most of its cycles.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/scheduler/timing_types.hpp"

namespace warpsim::scheduler {

// The fewest spans an SM records, however many SMs share TimingOptions::activity_budget.
inline constexpr std::size_t kMinActivityBudget = 4096;

// A span of one warp's time in one state.
struct TimelineSegment {
  std::uint32_t warp = 0;  // slot * warps per block + warp index
  std::uint64_t block = 0;
  std::uint64_t start = 0, end = 0;
  WarpState state = WarpState::Wait;
  std::uint8_t sub_partition = 0;
};

// A block's stay in a slot: assigned at `assigned`, its warps issuing from `started`, its last
// warp retired at `retired`.
struct BlockSpan {
  std::uint32_t slot = 0;
  std::uint64_t block = 0;
  std::uint64_t assigned = 0, started = 0, retired = 0;
};

struct BarrierRelease {
  std::uint32_t slot = 0;
  std::uint64_t block = 0;
  std::uint64_t cycle = 0;
  bool cluster = false;
};

// A counter's value from `cycle` on.
struct CounterSample {
  std::uint64_t cycle = 0;
  std::int64_t value = 0;
};

struct SmActivity {
  std::uint32_t sm = 0;
  std::uint32_t warps_per_block = 1;
  std::uint64_t quantum = 1;              // 1: every span as simulated
  std::uint64_t counter_quantum = 1;      // the counters' changes at multiples of this
  std::vector<TimelineSegment> segments;  // by warp, each warp's in time order
  std::vector<BlockSpan> blocks;          // in order of assignment
  std::vector<BarrierRelease> barriers;   // in time order
  std::vector<CounterSample> resident_warps;
  std::vector<CounterSample> memory_in_flight;  // global/local warp requests not yet answered
  std::array<std::uint64_t, kWarpStates> state_cycles{};  // exact, whatever the quantum
  bool events_dropped = false;  // barrier releases or counter changes beyond their budget
};

// Merges one warp's time-ordered spans into bins of `quantum` cycles: a bin takes the state
// that held most of its cycles (the earlier state on a tie) and spans [first cycle, last cycle]
// of what fell into it; consecutive bins of one state and block merge into one span.
class StateBinner {
 public:
  explicit StateBinner(std::uint64_t quantum) : quantum_(quantum == 0 ? 1 : quantum) {}
  void add(const TimelineSegment& s);
  // Takes in another binner's open bin (its quantum must divide this one's).
  void absorb_open_bin(const StateBinner& finer);
  // Closes the open bin; the spans so far.
  std::vector<TimelineSegment>& finish();
  std::size_t size() const { return out_.size() + (open_ ? 1 : 0); }
  const std::vector<TimelineSegment>& spans() const { return out_; }

 private:
  void open_bin(const TimelineSegment& s, std::uint64_t bin);
  void close_bin();
  void emit(const TimelineSegment& s);

  std::uint64_t quantum_;
  std::vector<TimelineSegment> out_;
  bool open_ = false;
  std::uint64_t bin_ = 0, lo_ = 0, hi_ = 0;
  std::array<std::uint64_t, kWarpStates> cycles_{};
  TimelineSegment last_;  // warp, block and sub-partition of the bin's latest span
};

// All warps' spans (grouped by warp, each in time order) merged into bins of `quantum` cycles.
std::vector<TimelineSegment> bin_segments(const std::vector<TimelineSegment>& segments,
                                          std::uint64_t quantum);

}  // namespace warpsim::scheduler
