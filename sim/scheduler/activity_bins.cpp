#include <algorithm>

#include "sim/scheduler/activity.hpp"

namespace warpsim::scheduler {

void StateBinner::emit(const TimelineSegment& s) {
  if (!out_.empty()) {
    TimelineSegment& prev = out_.back();
    if (prev.state == s.state && prev.block == s.block && prev.end == s.start) {
      prev.end = s.end;
      prev.sub_partition = s.sub_partition;
      return;
    }
  }
  out_.push_back(s);
}

void StateBinner::open_bin(const TimelineSegment& s, std::uint64_t bin) {
  open_ = true;
  bin_ = bin;
  lo_ = s.start;
  hi_ = s.start;
  cycles_.fill(0);
  last_ = s;
}

void StateBinner::close_bin() {
  if (!open_) return;
  open_ = false;
  const auto dominant = std::max_element(cycles_.begin(), cycles_.end());
  if (*dominant == 0) return;
  TimelineSegment s = last_;
  s.start = lo_;
  s.end = hi_;
  s.state = static_cast<WarpState>(dominant - cycles_.begin());
  emit(s);
}

void StateBinner::add(const TimelineSegment& s) {
  if (s.end <= s.start) return;
  if (quantum_ == 1) {
    emit(s);
    return;
  }
  const auto state = static_cast<std::size_t>(s.state);
  std::uint64_t at = s.start;
  const std::uint64_t bin = at / quantum_;
  if (open_ && bin != bin_) close_bin();
  if (!open_) open_bin(s, bin);
  const std::uint64_t bin_end = (bin + 1) * quantum_;
  const std::uint64_t first = std::min(s.end, bin_end);
  cycles_[state] += first - at;
  hi_ = first;
  last_ = s;
  at = first;
  if (at == s.end) return;
  // The span covers the rest of this bin, then whole bins, then perhaps part of one more.
  close_bin();
  const std::uint64_t whole = (s.end - at) / quantum_ * quantum_;
  if (whole != 0) {
    TimelineSegment full = s;
    full.start = at;
    full.end = at + whole;
    emit(full);
    at += whole;
  }
  if (at < s.end) {
    TimelineSegment rest = s;
    rest.start = at;
    open_bin(rest, at / quantum_);
    cycles_[state] += s.end - at;
    hi_ = s.end;
  }
}

void StateBinner::absorb_open_bin(const StateBinner& finer) {
  if (!finer.open_) return;
  const std::uint64_t bin = finer.lo_ / quantum_;
  if (open_ && bin != bin_) close_bin();
  if (!open_) {
    TimelineSegment s = finer.last_;
    s.start = finer.lo_;
    open_bin(s, bin);
  }
  for (std::size_t k = 0; k < kWarpStates; ++k) cycles_[k] += finer.cycles_[k];
  hi_ = std::max(hi_, finer.hi_);
  last_ = finer.last_;
}

std::vector<TimelineSegment>& StateBinner::finish() {
  close_bin();
  return out_;
}

std::vector<TimelineSegment> bin_segments(const std::vector<TimelineSegment>& segments,
                                          std::uint64_t quantum) {
  std::vector<TimelineSegment> out;
  std::size_t i = 0;
  while (i < segments.size()) {
    StateBinner binner(quantum);
    const std::uint32_t warp = segments[i].warp;
    for (; i < segments.size() && segments[i].warp == warp; ++i) binner.add(segments[i]);
    const std::vector<TimelineSegment>& spans = binner.finish();
    out.insert(out.end(), spans.begin(), spans.end());
  }
  return out;
}

}  // namespace warpsim::scheduler
