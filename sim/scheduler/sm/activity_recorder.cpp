#include "sim/scheduler/sm/activity_recorder.hpp"

#include <algorithm>

namespace warpsim::scheduler {
namespace {

// Sorts changes by cycle, rounds each down to a multiple of `quantum` and sums those that fall
// on one cycle: a counter's value is unchanged at every multiple of the quantum.
void merge_changes(std::vector<std::pair<std::uint64_t, std::int64_t>>& changes,
                   std::uint64_t quantum) {
  for (auto& c : changes) c.first = c.first / quantum * quantum;
  std::stable_sort(changes.begin(), changes.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t kept = 0;
  for (const auto& c : changes) {
    if (kept != 0 && changes[kept - 1].first == c.first) {
      changes[kept - 1].second += c.second;
    } else {
      changes[kept++] = c;
    }
  }
  changes.resize(kept);
}

}  // namespace

ActivityRecorder::ActivityRecorder(bool on, std::size_t budget, std::uint32_t sm,
                                   std::uint32_t warps_per_block)
    : on_(on), budget_(std::max<std::size_t>(budget, 64)) {
  activity_.sm = sm;
  activity_.warps_per_block = warps_per_block;
}

void ActivityRecorder::segment(const TimelineSegment& s) {
  if (s.warp >= rows_.size()) rows_.resize(s.warp + 1, StateBinner(quantum_));
  StateBinner& row = rows_[s.warp];
  const std::size_t before = row.size();
  row.add(s);
  spans_ += row.size() - before;
  if (spans_ > budget_) coarsen_segments();
}

void ActivityRecorder::coarsen_segments() {
  while (spans_ > budget_ / 2) {
    quantum_ *= 4;
    spans_ = 0;
    for (StateBinner& row : rows_) {
      StateBinner coarser(quantum_);
      for (const TimelineSegment& s : row.spans()) coarser.add(s);
      coarser.absorb_open_bin(row);
      row = std::move(coarser);
      spans_ += row.size();
    }
  }
}

void ActivityRecorder::block_started(std::uint32_t slot, std::uint64_t block,
                                     std::uint64_t assigned, std::uint64_t started) {
  if (slot >= block_in_slot_.size()) block_in_slot_.resize(slot + 1, 0);
  block_in_slot_[slot] = activity_.blocks.size();
  activity_.blocks.push_back({slot, block, assigned, started, started});
}

void ActivityRecorder::block_retired(std::uint32_t slot, std::uint64_t at) {
  if (slot < block_in_slot_.size()) activity_.blocks[block_in_slot_[slot]].retired = at;
}

void ActivityRecorder::barrier_released(const BarrierRelease& b) {
  if (activity_.barriers.size() >= budget_) {
    activity_.events_dropped = true;
    return;
  }
  activity_.barriers.push_back(b);
}

void ActivityRecorder::counter_change(Changes& c, std::uint64_t cycle, std::int64_t change) {
  if (!on_) return;
  c.emplace_back(cycle / counter_quantum_ * counter_quantum_, change);
  if (c.size() <= budget_) return;
  merge_changes(c, counter_quantum_);
  while (c.size() > budget_ / 2) {
    counter_quantum_ *= 4;
    merge_changes(c, counter_quantum_);
  }
  Changes& other = &c == &memory_ ? resident_ : memory_;
  merge_changes(other, counter_quantum_);
}

std::vector<CounterSample> ActivityRecorder::samples(Changes& c) const {
  merge_changes(c, counter_quantum_);
  std::vector<CounterSample> out;
  std::int64_t value = 0;
  for (const auto& [cycle, change] : c) {
    value += change;
    out.push_back({cycle, value});
  }
  return out;
}

SmActivity ActivityRecorder::take(const std::array<std::uint64_t, kWarpStates>& state_cycles) {
  activity_.quantum = quantum_;
  activity_.counter_quantum = counter_quantum_;
  for (StateBinner& row : rows_) {
    std::vector<TimelineSegment>& spans = row.finish();
    activity_.segments.insert(activity_.segments.end(), spans.begin(), spans.end());
  }
  activity_.resident_warps = samples(resident_);
  activity_.memory_in_flight = samples(memory_);
  activity_.state_cycles = state_cycles;
  on_ = false;
  rows_.clear();
  return std::move(activity_);
}

}  // namespace warpsim::scheduler
