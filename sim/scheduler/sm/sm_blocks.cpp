// The SM's block slots: blocks assigned, started by the block launcher, their warps set up on
// the sub-partitions, released from barriers, retired; and the SM's end-of-launch accounting.
#include <algorithm>

#include "sim/core/exec/block_setup.hpp"
#include "sim/scheduler/sm/sm_model.hpp"

namespace warpsim::scheduler {

std::uint32_t SmModel::free_slots() const {
  std::uint32_t n = 0;
  for (const BlockSlot& b : slots_) n += b.busy ? 0 : 1;
  return n;
}

void SmModel::launch(const exec::Dim3& index, std::vector<exec::BlockState>* cluster,
                     std::uint32_t rank, std::uint64_t cluster_id, std::uint64_t at) {
  const auto found =
      std::find_if(slots_.begin(), slots_.end(), [](const BlockSlot& b) { return !b.busy; });
  if (found == slots_.end()) throw std::logic_error("launch on a full SM");
  BlockSlot& b = *found;
  b.busy = true;
  if (cluster == nullptr) {
    b.own.resize(1);
    b.cluster = &b.own;
    b.rank = 0;
  } else {
    b.cluster = cluster;
    b.rank = rank;
  }
  b.cluster_id = cluster_id;
  const StartingBlock& starting = launcher_.assign(
      index, static_cast<std::uint32_t>(found - slots_.begin()), rank, cluster != nullptr, at);
  // The end of the launch (the SM setting up the block's warps) already counts them in flight:
  // the GPU's empty blocks stay in flight about a hundred cycles each. The configuration keeps
  // this within the latency, so the event is never before `at`.
  in_flight(starting.start - s_.timing->launch_latency_in_flight, warps_per_block_);
}

void SmModel::activate(const StartingBlock& start) {
  BlockSlot& b = slots_[start.slot];
  source_->prepare_block((*b.cluster)[b.rank], start.index, start.rank);
  b.warps.resize(warps_per_block_);
  b.live_warps = warps_per_block_;
  const std::size_t slots = s_.frontend->register_slots();
  exec::BlockState& block = (*b.cluster)[b.rank];
  for (std::uint32_t w = 0; w < warps_per_block_; ++w)
    by_id_[start.slot * warps_per_block_ + w] = {&b.warps[w], &block.warps[w]};
  for (std::uint32_t w = 0; w < warps_per_block_; ++w)
    b.warps[w].earliest = &earliest_[start.slot * warps_per_block_ + w];
  resident_warps_ += warps_per_block_;
  if (activity_.on())
    activity_.block_started(start.slot, block.linear, start.assigned, start.start);
  if (!code_ready_) {
    code_ready_ = start.start + (s_.l2_flushed ? s_.timing->cold_code_cycles : 0);
  }
  ++blocks_activated_;
  for (std::uint32_t w = 0; w < warps_per_block_; ++w) {
    WarpTiming& t = b.warps[w];
    t.slots.assign(slots, RegisterSlot{});
    t.next_issue = std::max(start.start, *code_ready_);
    t.next_issue_state = WarpState::Launching;
    t.sub_partition = sub_partition_of(start.slot, w);
    set_earliest(t, 0);
    t.state = WarpState::Launching;
    throttled_on_[start.slot * warps_per_block_ + w] = Pipe::Count;
    t.state_since = start.start;
    t.pending = 0;
    t.drain_until = 0;
    t.operands_known = false;
    t.active = true;
    mirror(t, block.warps[w]);
    partitions_[t.sub_partition].scheduler.add(start.slot * warps_per_block_ + w);
  }
}

std::uint32_t SmModel::sub_partition_of(std::uint32_t slot, std::uint32_t warp) const {
  // A block's warps take consecutive warp slots, slot i on sub-partition i mod P. A block of a
  // whole number of P warps has each group of P rotated by one more sub-partition than the
  // SM's block before it: on the H200 such blocks' first warps spread evenly over the four
  // (validation/h200/timing/probes/warp_slots.cu), so where only warp 0 of each block works
  // (example_syncthreads' sum) those warps do not share one scheduler. Other sizes keep the
  // slot's sub-partition.
  const std::uint32_t p = s_.sub_partitions;
  if (warps_per_block_ % p != 0) return (slot * warps_per_block_ + warp) % p;
  return static_cast<std::uint32_t>((warp + blocks_activated_) % p);
}

void SmModel::mirror_block(BlockSlot& b) {
  std::vector<exec::WarpState>& warps = (*b.cluster)[b.rank].warps;
  for (std::size_t i = 0; i < b.warps.size(); ++i) {
    if (b.warps[i].active) mirror(b.warps[i], warps[i]);
  }
}

void SmModel::wake_memory_barrier_waiters(std::uint32_t slot) {
  BlockSlot& b = slots_[slot];
  const std::vector<exec::WarpState>& warps = (*b.cluster)[b.rank].warps;
  for (std::size_t i = 0; i < b.warps.size(); ++i) {
    WarpTiming& o = b.warps[i];
    if (!o.active || !o.at_barrier || warps[i].status != exec::WarpStatus::Ready) continue;
    mirror(o, warps[i]);
    // As a block barrier's warps: woken after the barrier's latency (not measured for mbarrier).
    o.next_issue = now_ + s_.timing->barrier_latency;
    o.next_issue_state = WarpState::Barrier;
    set_earliest(o, 0);
  }
}

void SmModel::block_barrier_check(std::uint32_t slot) {
  BlockSlot& b = slots_[slot];
  // A named barrier releases its own warps; the others run on.
  std::uint32_t released = exec::release_named_barriers(block_of(slot));
  if (released == 0) {
    if (!exec::release_block_barrier(block_of(slot))) return;
    released = ~0u;
  }
  barrier_released(slot, false);
  mirror_block(b);
  for (std::size_t i = 0; i < b.warps.size(); ++i) {
    WarpTiming& o = b.warps[i];
    if (!o.active || (released >> i & 1u) == 0) continue;
    o.next_issue = now_ + s_.timing->barrier_latency;
    o.next_issue_state = WarpState::Barrier;
    set_earliest(o, 0);
  }
}

void SmModel::warp_finished(std::uint32_t warp) {
  WarpTiming& t = timing_warp(warp);
  set_state(t, warp, WarpState::Selected, now_);
  set_state(t, warp, WarpState::Drain, now_ + 1);
  t.active = false;
  partitions_[t.sub_partition].scheduler.remove(warp);
  const std::uint32_t slot = warp / warps_per_block_;
  BlockSlot& b = slots_[slot];
  --resident_warps_;
  in_flight(now_ + 1, -1);
  if (--b.live_warps != 0) {
    block_barrier_check(slot);
    return;
  }
  b.busy = false;
  if (activity_.on()) activity_.block_retired(slot, now_ + 1);
  counters_.last_retire = std::max(counters_.last_retire, now_ + 1);
  retired_.push_back(b.cluster_id);
  start_queued_blocks(now_ + 1);
}

void SmModel::start_queued_blocks(std::uint64_t at) {
  while (!queued_.empty() && free_slots() != 0) {
    launch(queued_.front(), nullptr, 0, 0, at);
    queued_.pop_front();
  }
}

std::vector<std::uint64_t> SmModel::take_retired() {
  std::vector<std::uint64_t> out;
  out.swap(retired_);
  return out;
}

void SmModel::barrier_released(std::uint32_t slot, bool cluster) {
  if (activity_.on()) activity_.barrier_released({slot, block_of(slot).linear, now_, cluster});
}

void SmModel::resume_cluster(std::uint64_t cluster_id, std::uint64_t at) {
  for (BlockSlot& b : slots_) {
    if (!b.busy || b.cluster_id != cluster_id) continue;
    if (activity_.on()) {
      activity_.barrier_released(
          {static_cast<std::uint32_t>(&b - slots_.data()), (*b.cluster)[b.rank].linear, at, true});
    }
    mirror_block(b);
    for (WarpTiming& t : b.warps) {
      if (!t.active) continue;
      t.next_issue = at;
      t.next_issue_state = WarpState::Barrier;
      set_earliest(t, 0);
    }
  }
}

bool SmModel::has_runnable_warp() const {
  if (!launcher_.empty()) return true;
  for (const BlockSlot& b : slots_) {
    if (!b.busy) continue;
    for (const exec::WarpState& w : (*b.cluster)[b.rank].warps) {
      if (w.status == exec::WarpStatus::Ready) return true;
    }
  }
  return !queued_.empty();
}

std::vector<exec::BlockState>* SmModel::waiting_cluster() {
  for (BlockSlot& b : slots_) {
    if (b.busy) return b.cluster;
  }
  return nullptr;
}

void SmModel::finish(std::uint64_t at) {
  now_ = std::max(now_, at);
  residency_.settle(at);
  counters_.active_cycles = residency_.active_cycles();
  counters_.warp_cycles = residency_.warp_cycles();
  counters_.l1_sector_lookups = l1_.sector_lookups();
  counters_.l1_sector_hits = l1_.sector_hits();
}

}  // namespace warpsim::scheduler
