#include "sim/scheduler/sm_model.hpp"

#include <algorithm>
#include <bit>

#include "sim/core/exec/block_setup.hpp"

namespace warpsim::scheduler {
namespace {

using memory::kNever;
constexpr std::size_t kMaxTimelineSegments = 400'000;
// The constant cache's line, and the bank's size (the verifier keeps constants within it).
constexpr std::uint64_t kConstLineBytes = 64;
constexpr std::uint64_t kConstBankBytes = 64 * 1024;

}  // namespace

SmModel::SmModel(const SmSetup& setup, std::uint32_t index)
    : s_(setup),
      index_(index),
      warps_per_block_(static_cast<std::uint32_t>(setup.launch->warps_per_block())),
      ctx_{*setup.program, *setup.launch, *setup.memory, stats_,
           nullptr,        nullptr,       &access_,      &atomics_},
      runner_(ctx_, options_),
      slots_(setup.blocks_per_sm),
      by_id_(setup.blocks_per_sm * setup.launch->warps_per_block()),
      earliest_(by_id_.size(), 0),
      throttled_on_(by_id_.size(), Pipe::Count),
      l1_(setup.l1_bytes, setup.timing->l1_ways),
      const_lines_seen_(kConstBankBytes / kConstLineBytes / 64, 0),
      fill_port_(setup.timing->sm_l2_bytes_per_cycle) {
  options_.max_warp_instructions = setup.max_warp_instructions;
  stats_.per_branch.resize(setup.program->insts.size());
  stats_.per_memory.resize(setup.program->insts.size());
  for (std::uint32_t p = 0; p < setup.sub_partitions; ++p) {
    partitions_.push_back(
        {WarpScheduler(setup.timing->scheduler,
                       static_cast<std::uint32_t>(setup.timing->two_level_active_warps)),
         {}});
  }
}

std::uint32_t SmModel::free_slots() const {
  std::uint32_t n = 0;
  for (const BlockSlot& b : slots_) n += b.busy ? 0 : 1;
  return n;
}

exec::BlockState& SmModel::block_of(std::uint32_t slot) {
  BlockSlot& b = slots_[slot];
  return (*b.cluster)[b.rank];
}
exec::WarpState& SmModel::exec_warp(std::uint32_t warp) {
  return *by_id_[warp].exec;
}
SmModel::WarpTiming& SmModel::timing_warp(std::uint32_t warp) {
  return *by_id_[warp].timing;
}

void SmModel::settle_residency(std::uint64_t until) {
  // Warps are in flight from launch_latency_in_flight before their first possible issue until
  // they exit. Cycles with any warp in flight are active; warps in flight summed over cycles
  // give achieved occupancy. Events at or before `until` are final: later ones are kept.
  std::stable_sort(residency_events_.begin(), residency_events_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t used = 0;
  auto advance = [&](std::uint64_t to) {
    if (to <= residency_since_) return;
    const std::uint64_t span = to - residency_since_;
    counters_.warp_cycles += in_flight_warps_ * span;
    if (in_flight_warps_ != 0) counters_.active_cycles += span;
    residency_since_ = to;
  };
  for (; used < residency_events_.size() && residency_events_[used].first <= until; ++used) {
    advance(residency_events_[used].first);
    in_flight_warps_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_flight_warps_) +
                                                  residency_events_[used].second);
  }
  advance(until);
  residency_events_.erase(residency_events_.begin(),
                          residency_events_.begin() + static_cast<std::ptrdiff_t>(used));
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
  // The SM's block launcher starts one block every block_launch_cycles; a block of a
  // multi-block cluster takes cluster_block_launch_cycles (the cluster is placed as a whole).
  // An SM starts at most blocks_starting blocks at once (a further one waits until the oldest
  // one's warps issue), and the first that many of a launch come first_wave_block_cycles apart
  // (first_wave_warp_cycles per warp for large blocks): the GPU's SMs each start six blocks of
  // 8 warps 31 cycles apart and the seventh about 500 cycles after the first; blocks of 1 warp
  // 24 apart, of 32 warps 98 (validation/h200/timing/probes/warp_clocks.cu).
  const std::uint64_t limit = s_.timing->blocks_starting;
  std::uint64_t start = std::max(at, launcher_free_);
  if (starting_.size() >= limit) start = std::max(start, starting_[starting_.size() - limit].start);
  const bool first_wave = cluster == nullptr && first_wave_started_ < limit;
  if (first_wave) ++first_wave_started_;
  launcher_free_ = start + (cluster != nullptr ? s_.timing->cluster_block_launch_cycles
                            : first_wave       ? std::max(s_.timing->first_wave_block_cycles,
                                                          s_.timing->first_wave_warp_cycles *
                                                              warps_per_block_)
                                               : s_.timing->block_launch_cycles);
  const std::uint64_t first_issue = start + s_.timing->block_launch_latency;
  starting_.push_back(
      {index, static_cast<std::uint32_t>(found - slots_.begin()), rank, first_issue});
  // The end of the launch (the SM setting up the block's warps) already counts them in flight:
  // the GPU's empty blocks stay in flight about a hundred cycles each. The configuration keeps
  // this within the latency, so the event is never before `at`.
  residency_events_.emplace_back(first_issue - s_.timing->launch_latency_in_flight,
                                 warps_per_block_);
}

void SmModel::start_blocks() {
  while (!starting_.empty() && starting_.front().start <= now_) {
    const Starting next = starting_.front();
    starting_.pop_front();
    activate(next);
  }
}

void SmModel::activate(const Starting& start) {
  BlockSlot& b = slots_[start.slot];
  exec::prepare_block(*s_.program, *s_.launch, (*b.cluster)[b.rank], start.index, start.rank);
  b.warps.resize(warps_per_block_);
  b.live_warps = warps_per_block_;
  const std::size_t slots = s_.program->register_slots;
  exec::BlockState& block = (*b.cluster)[b.rank];
  for (std::uint32_t w = 0; w < warps_per_block_; ++w)
    by_id_[start.slot * warps_per_block_ + w] = {&b.warps[w], &block.warps[w]};
  for (std::uint32_t w = 0; w < warps_per_block_; ++w)
    b.warps[w].earliest = &earliest_[start.slot * warps_per_block_ + w];
  resident_warps_ += warps_per_block_;
  if (!code_ready_) {
    code_ready_ = start.start + (s_.l2_flushed ? s_.timing->cold_code_cycles : 0);
  }
  ++blocks_activated_;
  for (std::uint32_t w = 0; w < warps_per_block_; ++w) {
    WarpTiming& t = b.warps[w];
    t.ready.assign(slots, 0);
    t.producer.assign(slots, WarpState::Wait);
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

Pipe SmModel::throttle_pipe(const WarpTiming& w, WarpState s) const {
  if (s == WarpState::MathPipeThrottle) return (*s_.insts)[w.pc].pipe;
  return s == WarpState::MioThrottle ? Pipe::Shared : Pipe::Count;
}

void SmModel::change_state(WarpTiming& w, std::uint32_t warp, WarpState s, std::uint64_t at) {
  throttled_on_[warp] = throttle_pipe(w, s);
  if (at < w.state_since) {
    w.state = s;
    return;
  }
  counters_.warp_state_cycles[static_cast<std::size_t>(w.state)] += at - w.state_since;
  if (s_.timeline && timeline_.size() < kMaxTimelineSegments) {
    timeline_.push_back(
        {warp, block_of(warp / warps_per_block_).linear, w.state_since, at, w.state});
  }
  w.state = s;
  w.state_since = at;
}

void SmModel::mirror(WarpTiming& t, const exec::WarpState& w) {
  t.at_barrier =
      w.status == exec::WarpStatus::AtBarrier || w.status == exec::WarpStatus::AtClusterBarrier;
  if (!w.stack.empty()) t.pc = w.stack.back().pc;
}

void SmModel::mirror_block(BlockSlot& b) {
  std::vector<exec::WarpState>& warps = (*b.cluster)[b.rank].warps;
  for (std::size_t i = 0; i < b.warps.size(); ++i) {
    if (b.warps[i].active) mirror(b.warps[i], warps[i]);
  }
}

void SmModel::set_earliest(WarpTiming& t, std::uint64_t cycle) {
  defer(*t.earliest, partitions_[t.sub_partition], cycle);
}

std::uint64_t SmModel::outstanding_misses() {
  while (!in_flight_.empty() && in_flight_.top() <= now_) in_flight_.pop();
  return unresolved_ + in_flight_.size();
}

// Whether `warp` can issue at cycle `at`; when not, records why and from when to ask again.
bool SmModel::evaluate(std::uint32_t warp, std::uint64_t at) {
  WarpTiming& t = timing_warp(warp);
  if (t.at_barrier) {
    set_state(t, warp, WarpState::Barrier, at);
    set_earliest(t, kNever);
    return false;
  }
  if (at < t.next_issue) {
    set_state(t, warp, t.next_issue_state, at);
    set_earliest(t, t.next_issue);
    return false;
  }
  const InstTiming& it = (*s_.insts)[t.pc];
  if (it.pipe == Pipe::Exit && (t.pending != 0 || at < t.drain_until)) {
    // A warp exits once its stores have reached the L2.
    set_state(t, warp, WarpState::Drain, at);
    set_earliest(t, t.pending != 0 ? kNever : t.drain_until);
    return false;
  }
  // When the instruction's registers are ready: computed once per instruction (and again after
  // a memory answer changes a register's ready cycle), then reused while the warp waits.
  if (!t.operands_known) {
    t.operands_ready = 0;
    t.operands_wait = WarpState::Wait;
    auto check = [&](std::uint32_t slot) {
      if (t.ready[slot] > t.operands_ready) {
        t.operands_ready = t.ready[slot];
        t.operands_wait = t.producer[slot];
      }
    };
    for (unsigned i = 0; i < it.nreads; ++i) check(it.reads[i]);
    for (unsigned i = 0; i < it.nwrites; ++i) check(it.writes[i]);
    t.operands_known = true;
  }
  const std::uint64_t wait = t.operands_ready > at ? t.operands_ready : 0;
  const WarpState why = t.operands_wait;
  if (wait != 0) {
    set_state(t, warp, why, at);
    set_earliest(t, wait);
    return false;
  }
  const config::TimingConfig& c = *s_.timing;
  const SubPartition& p = partitions_[t.sub_partition];
  std::uint64_t free_at = 0;
  WarpState throttle = WarpState::MathPipeThrottle;
  switch (it.pipe) {
    case Pipe::Shared:
      free_at = shared_queue_full_until(p, at);
      throttle = WarpState::MioThrottle;
      break;
    case Pipe::Global:
    case Pipe::Local:
      throttle = WarpState::LgThrottle;
      if (lsu_free_ > at + c.lg_queue_cycles) {
        free_at = lsu_free_ - c.lg_queue_cycles;
      } else if (outstanding_misses() >= c.l1_max_outstanding_lines) {
        free_at = in_flight_.empty() ? kNever : in_flight_.top();
      }
      break;
    case Pipe::Barrier:
    case Pipe::Exit:
    case Pipe::Const:
      break;
    default:
      free_at = pipe_booked_until(p, it.pipe, at);
      break;
  }
  if (free_at != 0) {
    set_state(t, warp, throttle, at);
    set_earliest(t, free_at);
    return false;
  }
  set_earliest(t, at);
  return true;
}

bool SmModel::still_throttled(std::uint32_t warp, SubPartition& p, std::uint64_t at) {
  const Pipe on = throttled_on_[warp];
  if (on == Pipe::Count) return false;
  const std::uint64_t free_at =
      on == Pipe::Shared ? shared_queue_full_until(p, at) : pipe_booked_until(p, on, at);
  if (free_at == 0) return false;
  defer(earliest_[warp], p, free_at);
  return true;
}

void SmModel::run_until(std::uint64_t end) {
  issued_in_interval_ = false;
  if (fault_) return;
  while (now_ < end) {
    start_blocks();
    if (resident_warps_ == 0) {
      now_ = starting_.empty() ? end : std::min(end, std::max(now_, starting_.front().start));
      continue;
    }
    bool issued = false;
    for (SubPartition& p : partitions_) {
      if (now_ < p.wake || now_ < p.issuing_until) continue;  // nothing can issue here yet
      const std::uint32_t chosen = p.scheduler.pick(
          [&](std::uint32_t w) {
            if (earliest_[w] > now_) return false;
            if (still_throttled(w, p, now_)) return false;
            WarpTiming& t = timing_warp(w);
            const bool ok = evaluate(w, now_);
            if (ok) set_state(t, w, WarpState::NotSelected, now_);
            return ok;
          },
          [&](std::uint32_t w) { return timing_warp(w).state == WarpState::LongScoreboard; });
      if (chosen == UINT32_MAX) {
        // Every warp was asked and none can issue: sleep until the first might.
        std::uint64_t wake = kNever;
        for (std::uint32_t w : p.scheduler.warps()) wake = std::min(wake, earliest_[w]);
        p.wake = wake;
        continue;
      }
      // Warps after the chosen one were not asked; they stay as they were and are asked again
      // next cycle (their `earliest` has passed).
      try {
        issue(chosen);
      } catch (exec::KernelFault& f) {
        fault_.emplace(std::move(f));
        return;
      }
      issued = true;
    }
    if (issued) {
      issued_in_interval_ = true;
      ++now_;
      continue;
    }
    // Nothing could issue: jump to the first cycle at which some warp might. Every partition
    // either slept (its wake is later) or asked all its warps and set its wake to their
    // earliest, so the wakes bound the jump.
    std::uint64_t next = starting_.empty() ? end : std::min(end, starting_.front().start);
    for (const SubPartition& p : partitions_)
      next = std::min(next, std::max(p.wake, p.issuing_until));
    now_ = std::max(now_ + 1, next);
  }
  now_ = std::min(now_, end);
}

void SmModel::issue(std::uint32_t warp) {
  WarpTiming& t = timing_warp(warp);
  exec::WarpState& w = exec_warp(warp);
  const std::uint32_t slot = warp / warps_per_block_;
  BlockSlot& b = slots_[slot];
  set_state(t, warp, WarpState::Selected, now_);
  const std::uint32_t pc = t.pc;
  const exec::DecodedInst& d = s_.program->insts[pc];
  const InstTiming& it = (*s_.insts)[pc];
  ctx_.block = &block_of(slot);
  ctx_.cluster = b.cluster;
  runner_.step(w);
  ++counters_.issued;
  t.operands_known = false;
  // An unconditional jump is a layout artefact of the IR: the compiler places blocks so that it
  // mostly disappears (loops rotated, fall-through), so it is executed without an issue slot.
  if (w.status == exec::WarpStatus::Ready &&
      s_.program->insts[w.stack.back().pc].opcode == ir::Opcode::Jmp) {
    runner_.step(w);
    ++counters_.issued;
  }
  mirror(t, w);
  const config::TimingConfig& c = *s_.timing;
  auto result_at = [&](std::uint64_t ready, WarpState producer) {
    for (unsigned i = 0; i < it.nwrites; ++i) {
      t.ready[it.writes[i]] = ready;
      t.producer[it.writes[i]] = producer;
    }
  };
  if (it.extra_issue != 0) {
    partitions_[t.sub_partition].issuing_until = now_ + 1 + it.extra_issue;
    counters_.compiled_extra += it.extra_issue;
  }
  switch (it.pipe) {
    case Pipe::Global:
      issue_global(warp, d, it);
      break;
    case Pipe::Local: {
      const std::uint64_t start = std::max(now_, lsu_free_);
      lsu_free_ = start + c.lsu_cycles_per_line;
      result_at(start + it.latency, WarpState::LongScoreboard);
      break;
    }
    case Pipe::Shared: {
      // The SM's pipe serves every partition; each partition's path to it is slower.
      const unsigned wavefronts =
          d.opcode == ir::Opcode::Shfl ? 1 : std::max(1u, access_.wavefronts);
      SubPartition& sp = partitions_[t.sub_partition];
      const std::uint64_t start = std::max({now_, shared_free_, sp.shared_free});
      // Another block's shared memory is reached through the cluster's network: each 128-byte
      // segment of other blocks at the network's rate, whatever the bank conflicts, and at
      // least a fixed time per access.
      const std::uint64_t busy =
          access_.remote
              ? std::max<std::uint64_t>(
                    c.dsmem_cycles_per_request,
                    (std::uint64_t{access_.lines} * 128 + c.dsmem_bytes_per_cycle - 1) /
                        c.dsmem_bytes_per_cycle)
              : wavefronts * c.shared_cycles_per_wavefront;
      shared_free_ = start + busy;
      sp.shared_free =
          start + std::max(busy, wavefronts * c.shared_partition_cycles_per_wavefront);
      result_at(std::max(shared_free_, sp.shared_free) + it.latency +
                    (access_.remote ? c.dsmem_latency : 0),
                WarpState::ShortScoreboard);
      access_.remote = false;
      break;
    }
    case Pipe::Const: {
      // A line not yet read by this SM in the launch comes from memory first; lanes reading
      // different addresses are served one address after another.
      bool miss = false;
      std::uint32_t addresses = 0;
      for (std::uint32_t m = access_.mask; m != 0; m &= m - 1) {
        const int lane = std::countr_zero(m);
        bool repeated = false;
        for (std::uint32_t before = access_.mask & ((1u << lane) - 1); before != 0 && !repeated;
             before &= before - 1)
          repeated = access_.addresses[std::countr_zero(before)] == access_.addresses[lane];
        addresses += repeated ? 0 : 1;
        const std::uint64_t line = access_.addresses[lane] / kConstLineBytes;
        std::uint64_t& word = const_lines_seen_[line / 64];
        miss |= (word >> (line % 64) & 1u) == 0;
        word |= std::uint64_t{1} << (line % 64);
      }
      std::uint64_t miss_cost = 0;
      if (miss) {
        const bool first = !const_missed_;
        miss_cost = first ? c.const_first_miss_latency : c.const_miss_latency;
        if (s_.l2_flushed) miss_cost += first ? c.cold_const_first_cycles : c.cold_const_cycles;
        const_missed_ = true;
      }
      const std::uint64_t serial = (std::max(addresses, 1u) - 1) * c.const_serial_cycles;
      result_at(now_ + it.latency + miss_cost + serial, WarpState::Wait);
      break;
    }
    case Pipe::Branch:
      partitions_[t.sub_partition].pipe_free[static_cast<std::size_t>(it.pipe)] =
          now_ + it.interval;
      t.next_issue = now_ + it.latency;
      t.next_issue_state = WarpState::BranchResolving;
      break;
    case Pipe::Barrier:
      if (d.opcode == ir::Opcode::BarSync) {
        block_barrier_check(slot);
        break;
      }
      block_of(slot).cluster_arrival_cycle = now_;
      if (b.cluster == &b.own && exec::release_cluster_barrier(b.own)) {
        mirror_block(b);
        for (WarpTiming& o : b.warps) {
          o.next_issue = now_ + c.cluster_barrier_latency;
          o.next_issue_state = WarpState::Barrier;
          set_earliest(o, 0);
        }
      }
      break;
    case Pipe::Exit:
      break;
    default:
      partitions_[t.sub_partition].pipe_free[static_cast<std::size_t>(it.pipe)] =
          now_ + it.interval;
      result_at(now_ + it.latency, WarpState::Wait);
      break;
  }
  if (w.status == exec::WarpStatus::Done) {
    warp_finished(warp);
    return;
  }
  set_earliest(t, 0);
  // Whatever it waits for next is its state from the next cycle.
  if (w.status == exec::WarpStatus::Ready)
    evaluate(warp, now_ + 1);
  else
    set_state(t, warp, WarpState::Barrier, now_ + 1);
}

void SmModel::block_barrier_check(std::uint32_t slot) {
  BlockSlot& b = slots_[slot];
  if (!exec::release_block_barrier(block_of(slot))) return;
  mirror_block(b);
  for (WarpTiming& o : b.warps) {
    if (!o.active) continue;
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
  residency_events_.emplace_back(now_ + 1, -1);
  if (--b.live_warps != 0) {
    block_barrier_check(slot);
    return;
  }
  b.busy = false;
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

void SmModel::resume_cluster(std::uint64_t cluster_id, std::uint64_t at) {
  for (BlockSlot& b : slots_) {
    if (!b.busy || b.cluster_id != cluster_id) continue;
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
  if (!starting_.empty()) return true;
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
  settle_residency(at);
}

}  // namespace warpsim::scheduler
