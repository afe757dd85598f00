#include "sim/scheduler/sm/sm_model.hpp"

#include <algorithm>

#include "sim/core/exec/block_setup.hpp"

namespace warpsim::scheduler {
namespace {

using memory::kNever;

SharedPipeTiming shared_pipe_timing(const config::TimingConfig& c) {
  return {c.mio_queue_cycles,
          c.shared_cycles_per_wavefront,
          c.shared_partition_cycles_per_wavefront,
          c.dsmem_cycles_per_request,
          c.dsmem_bytes_per_cycle,
          c.dsmem_latency};
}

memory::ConstantTiming constant_timing(const config::TimingConfig& c) {
  return {c.const_miss_latency, c.const_first_miss_latency, c.const_serial_cycles,
          c.cold_const_first_cycles, c.cold_const_cycles};
}

}  // namespace

SmModel::SmModel(const SmSetup& setup, std::uint32_t index)
    : s_(setup),
      insts_(setup.frontend->instructions()),
      index_(index),
      warps_per_block_(setup.warps_per_block),
      source_(setup.frontend->source_for_sm({&stats_, &access_, &atomics_, index, &now_})),
      slots_(setup.blocks_per_sm),
      by_id_(std::size_t{setup.blocks_per_sm} * setup.warps_per_block),
      earliest_(by_id_.size(), 0),
      throttled_on_(by_id_.size(), Pipe::Count),
      shared_(shared_pipe_timing(*setup.timing)),
      l1_(*setup.timing, setup.l1_bytes, index),
      constants_(constant_timing(*setup.timing), setup.l2_flushed),
      immediate_constants_(setup.timing->sass_immediate_constant_miss_latency),
      launcher_(*setup.timing, setup.warps_per_block),
      activity_(setup.record_activity, setup.activity_budget, index, setup.warps_per_block) {
  if (setup.sub_partitions > SharedPipe::kMaxPartitions)
    throw std::invalid_argument("more sub-partitions than the shared pipe serves");
  for (std::uint32_t p = 0; p < setup.sub_partitions; ++p) {
    partitions_.push_back(
        {WarpScheduler(setup.timing->scheduler,
                       static_cast<std::uint32_t>(setup.timing->two_level_active_warps)),
         {}});
  }
}

exec::BlockState& SmModel::block_of(std::uint32_t slot) {
  BlockSlot& b = slots_[slot];
  return (*b.cluster)[b.rank];
}
exec::WarpState& SmModel::exec_warp(std::uint32_t warp) {
  return *by_id_[warp].exec;
}

Pipe SmModel::throttle_pipe(const WarpTiming& w, WarpState s) const {
  if (s == WarpState::MathPipeThrottle) return insts_[w.pc].pipe;
  return s == WarpState::MioThrottle ? Pipe::Shared : Pipe::Count;
}

void SmModel::change_state(WarpTiming& w, std::uint32_t warp, WarpState s, std::uint64_t at) {
  throttled_on_[warp] = throttle_pipe(w, s);
  if (at < w.state_since) {
    w.state = s;
    return;
  }
  counters_.warp_state_cycles[static_cast<std::size_t>(w.state)] += at - w.state_since;
  if (activity_.on()) {
    activity_.segment({warp, block_of(warp / warps_per_block_).linear, w.state_since, at, w.state,
                       static_cast<std::uint8_t>(w.sub_partition)});
  }
  w.state = s;
  w.state_since = at;
}

bool SmModel::evaluate_operands_and_pipe(WarpTiming& t, std::uint32_t warp, std::uint64_t at) {
  const InstTiming& it = insts_[t.pc];
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
      const RegisterSlot& r = t.slots[slot];
      const std::uint64_t ready = r.unanswered != 0 ? kNever : r.ready;
      if (ready > t.operands_ready) {
        t.operands_ready = ready;
        t.operands_wait = r.producer;
      }
    };
    for (unsigned i = 0; i < it.nreads; ++i) check(it.reads[i]);
    if (!it.counting_scoreboards) {
      for (unsigned i = 0; i < it.nwrites; ++i) check(it.writes[i]);
    }
    t.operands_known = true;
  }
  const std::uint64_t wait = t.operands_ready > at ? t.operands_ready : 0;
  const WarpState why = t.operands_wait;
  if (wait != 0) {
    set_state(t, warp, why, at);
    set_earliest(t, wait);
    return false;
  }
  if (it.constant_line != InstTiming::kNoConstantLine) {
    const std::uint64_t there = immediate_constants_.ready(it.constant_line, at);
    if (there > at) {
      set_state(t, warp, WarpState::ImcMiss, at);
      set_earliest(t, there);
      return false;
    }
  }
  const SubPartition& p = partitions_[t.sub_partition];
  std::uint64_t free_at = 0;
  WarpState throttle = WarpState::MathPipeThrottle;
  switch (it.pipe) {
    case Pipe::Shared:
      free_at = shared_.queue_full_until(t.sub_partition, at);
      throttle = WarpState::MioThrottle;
      break;
    case Pipe::Global:
    case Pipe::Local:
      throttle = WarpState::LgThrottle;
      free_at = l1_.throttled_until(at, now_);
      break;
    case Pipe::Barrier:
    case Pipe::Exit:
    case Pipe::Const:
      break;
    case Pipe::Int:
    case Pipe::Uniform:
    case Pipe::Fp32:
    case Pipe::IMul:
    case Pipe::Fp64:
    case Pipe::Sfu:
    case Pipe::Convert:
    case Pipe::Branch:
    case Pipe::Count:
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
  const std::uint64_t free_at = on == Pipe::Shared
                                    ? shared_.queue_full_until(partition_index(p), at)
                                    : pipe_booked_until(p, on, at);
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
      now_ = launcher_.empty() ? end : std::min(end, std::max(now_, launcher_.next_start()));
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
            const std::uint64_t could_issue_from = earliest_[w];
            const bool ok = evaluate(w, now_);
            if (ok) {
              // Since its wait ended it was ready, but not asked (another warp issued first).
              if (could_issue_from > t.state_since && could_issue_from < now_)
                set_state(t, w, WarpState::NotSelected, could_issue_from);
              set_state(t, w, WarpState::NotSelected, now_);
            }
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
    std::uint64_t next = launcher_.empty() ? end : std::min(end, launcher_.next_start());
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
  set_state(t, warp, WarpState::Selected, now_);
  const InstTiming& it = insts_[t.pc];
  // The global atomic it queued, if any: a frontend queues each one it leaves to the L2 (the
  // SASS executor not an ATOMG.CAST, nor an atomic whose lanes are all predicated off).
  const std::size_t atomics_before = atomics_.size();
  source_->execute(block_of(slot), slots_[slot].cluster, w);
  queued_atomic_ =
      atomics_.size() > atomics_before ? static_cast<std::int32_t>(atomics_.size()) - 1 : -1;
  ++counters_.issued;
  t.operands_known = false;
  if (source_->take_memory_barrier_release()) wake_memory_barrier_waiters(slot);
  // An unconditional jump is a layout artefact of the IR: the compiler places blocks so that it
  // mostly disappears (loops rotated, fall-through), so it is executed without an issue slot.
  if (w.status == exec::WarpStatus::Ready && insts_[w.stack.back().pc].layout_jump) {
    source_->execute(block_of(slot), slots_[slot].cluster, w);
    ++counters_.issued;
  }
  mirror(t, w);
  if (it.extra_issue != 0) {
    partitions_[t.sub_partition].issuing_until = now_ + 1 + it.extra_issue;
    counters_.compiled_extra += it.extra_issue;
  }
  issue_to_pipe(warp, it);
  // Lanes parked at a barrier (the IR executor's) are joined by the warp's last lanes, which
  // came there by a branch or exited: the barrier may open now.
  if (w.status == exec::WarpStatus::AtBarrier && it.pipe != Pipe::Barrier)
    block_barrier_check(slot);
  if (w.status == exec::WarpStatus::Done) {
    warp_finished(warp);
    return;
  }
  // The compiled code's stall count: no instruction of this warp issues sooner.
  if (it.stall > 1 && now_ + it.stall > t.next_issue) {
    t.next_issue = now_ + it.stall;
    t.next_issue_state = WarpState::Wait;
  }
  set_earliest(t, 0);
  // Whatever it waits for next is its state from the next cycle.
  if (w.status == exec::WarpStatus::Ready) {
    // Ready at once: until the scheduler picks it, it waits on others (not_selected).
    if (evaluate(warp, now_ + 1)) set_state(t, warp, WarpState::NotSelected, now_ + 1);
  } else
    set_state(t, warp, WarpState::Barrier, now_ + 1);
}

void SmModel::issue_to_pipe(std::uint32_t warp, const InstTiming& it) {
  WarpTiming& t = timing_warp(warp);
  SubPartition& sp = partitions_[t.sub_partition];
  auto result_at = [&](std::uint64_t ready, WarpState producer) {
    // On the SASS frontend only variable-latency instructions (S2R, LDC, MUFU, conversions, shared
    // memory) set a scoreboard, and the GPU calls a wait on one of those a short scoreboard;
    // fixed latencies are the compiled stall counts (next_issue).
    if (it.counting_scoreboards && producer == WarpState::Wait)
      producer = WarpState::ShortScoreboard;
    for (unsigned i = 0; i < it.nwrites; ++i) {
      RegisterSlot& r = t.slots[it.writes[i]];
      r.ready = std::max(r.ready, ready);
      r.producer = producer;
    }
  };
  // A generic access (SASS's ATOM) is global or shared by its addresses: the executor said which.
  const bool generic_shared = it.pipe == Pipe::Global && access_.kind == exec::ArrayKind::Shared;
  switch (generic_shared ? Pipe::Shared : it.pipe) {
    case Pipe::Global:
      issue_global(warp, it);
      break;
    case Pipe::Local:
      issue_local(warp, it);
      break;
    case Pipe::Shared: {
      const unsigned wavefronts = it.shuffle ? 1 : std::max(1u, access_.wavefronts);
      result_at(shared_.serve(t.sub_partition, now_, wavefronts, access_.remote, access_.lines) +
                    (generic_shared ? s_.timing->shared_latency : it.latency),
                WarpState::ShortScoreboard);
      access_.remote = false;
      break;
    }
    case Pipe::Const:
      result_at(now_ + it.latency + constants_.read(access_.mask, access_.addresses, now_),
                WarpState::Wait);
      break;
    case Pipe::Branch:
      sp.pipe_free[static_cast<std::size_t>(it.pipe)] = now_ + it.interval;
      t.next_issue = now_ + it.latency;
      t.next_issue_state = WarpState::BranchResolving;
      break;
    case Pipe::Barrier:
      issue_barrier(warp, it);
      break;
    case Pipe::Exit:
      break;
    case Pipe::Int:
    case Pipe::Uniform:
    case Pipe::Fp32:
    case Pipe::IMul:
    case Pipe::Fp64:
    case Pipe::Sfu:
    case Pipe::Convert:
    case Pipe::Count:
      sp.pipe_free[static_cast<std::size_t>(it.pipe)] = now_ + it.interval;
      result_at(now_ + it.latency, WarpState::Wait);
      break;
  }
}

void SmModel::issue_barrier(std::uint32_t warp, const InstTiming& it) {
  const std::uint32_t slot = warp / warps_per_block_;
  if (!it.cluster_barrier) {
    block_barrier_check(slot);
    return;
  }
  BlockSlot& b = slots_[slot];
  block_of(slot).cluster_arrival_cycle = now_;
  if (b.cluster == &b.own && exec::release_cluster_barrier(b.own)) {
    barrier_released(slot, true);
    mirror_block(b);
    for (WarpTiming& o : b.warps) {
      o.next_issue = now_ + s_.timing->cluster_barrier_latency;
      o.next_issue_state = WarpState::Barrier;
      set_earliest(o, 0);
    }
  }
}

}  // namespace warpsim::scheduler
