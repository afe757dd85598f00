// One SM of the timing model: resident blocks in slots, their warps spread over the
// sub-partitions (warp slot i to partition i mod P), each partition's scheduler issuing at most
// one instruction per cycle. An instruction issues when its registers are ready (scoreboard),
// its pipe is free and, for memory, the queue in front of the shared pipe or the L1 has room.
// Issuing executes it functionally at once (results never depend on timing) and sets when its
// destinations become ready: a fixed latency for the ALU pipes; after the shared pipe has
// processed every wavefront for shared memory; after the L1, or the L2/DRAM, for global memory.
// Requests that miss in L1 are collected and resolved between simulation intervals (the L2 is
// shared by all SMs); an interval is never longer than the L2 latency, so no answer is due
// inside the interval that asked. Cycles in which no warp can issue are skipped.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "sim/core/exec/fault.hpp"
#include "sim/core/exec/state.hpp"
#include "sim/memory/constant_cache.hpp"
#include "sim/memory/sector_cache.hpp"
#include "sim/scheduler/frontend/instruction_source.hpp"
#include "sim/scheduler/inst_timing.hpp"
#include "sim/scheduler/sm/activity_recorder.hpp"
#include "sim/scheduler/sm/block_launcher.hpp"
#include "sim/scheduler/sm/l1_unit.hpp"
#include "sim/scheduler/sm/residency.hpp"
#include "sim/scheduler/sm/shared_pipe.hpp"
#include "sim/scheduler/warp_scheduler.hpp"

namespace warpsim::scheduler {

struct SmSetup {
  const Frontend* frontend = nullptr;
  const config::TimingConfig* timing = nullptr;
  std::uint32_t warps_per_block = 1;
  std::uint32_t sub_partitions = 4;
  std::uint32_t blocks_per_sm = 1;
  std::uint64_t l1_bytes = 0;
  bool record_activity = false;     // for a picture or trace of this SM
  std::size_t activity_budget = 0;  // spans (and events of each kind) kept at most
  bool l2_flushed = false;          // the launch's code and constant lines start in DRAM
};

struct SmCounters {
  std::array<std::uint64_t, kWarpStates> warp_state_cycles{};
  std::uint64_t issued = 0;
  std::uint64_t compiled_extra = 0;  // issue cycles of InstTiming::extra_issue
  std::uint64_t active_cycles = 0;
  std::uint64_t warp_cycles = 0;  // resident warps summed over cycles
  std::uint64_t l1_sector_lookups = 0, l1_sector_hits = 0;
  std::uint64_t last_retire = 0;
};

class SmModel {
 public:
  SmModel(const SmSetup& setup, std::uint32_t index);
  SmModel(const SmModel&) = delete;
  SmModel& operator=(const SmModel&) = delete;

  // Launching blocks (between intervals only).
  std::uint32_t free_slots() const;
  // Starts a block in a free slot: `cluster` holds the blocks of its cluster by rank, or is
  // null for a cluster of one (the slot keeps its own). Warps may issue from `at` on.
  void launch(const exec::Dim3& index, std::vector<exec::BlockState>* cluster, std::uint32_t rank,
              std::uint64_t cluster_id, std::uint64_t at);
  // Blocks of single-block clusters this SM starts by itself when a slot frees mid-interval.
  void queue(const exec::Dim3& index) { queued_.push_back(index); }
  std::size_t queued() const { return queued_.size(); }
  // Starts queued blocks in free slots at `at` (between intervals).
  void start_queued_blocks(std::uint64_t at);
  std::uint64_t now() const { return now_; }

  // Simulates up to cycle `end` (exclusive).
  void run_until(std::uint64_t end);

  // Between intervals: this interval's L2 requests, then their answers.
  std::vector<memory::L2Request>& requests() { return l1_.requests(); }
  std::vector<exec::DeferredAtomic>& atomics() { return atomics_; }
  void complete_requests();
  // Clusters whose blocks retired since the last call (their ids), then forgotten.
  std::vector<std::uint64_t> take_retired();
  // After the engine released a cluster barrier: warps of `cluster_id` issue again from `at`.
  void resume_cluster(std::uint64_t cluster_id, std::uint64_t at);

  bool busy() const { return resident_warps_ != 0 || !queued_.empty() || !launcher_.empty(); }
  // Nothing resident, starting, queued or in flight: an interval changes nothing here but the
  // clock, so the engine passes it with pass_idle_interval instead of complete_requests and
  // run_until (the same result, without visiting the SM's state).
  bool idle() const {
    return !busy() && !fault_ && l1_.quiet() && atomics_.empty() && residency_.settled();
  }
  void pass_idle_interval(std::uint64_t end) {
    issued_in_interval_ = false;
    now_ = std::max(now_, end);
  }
  bool issued_in_interval() const { return issued_in_interval_; }
  // Any resident warp that is not waiting at a barrier.
  bool has_runnable_warp() const;
  // A resident warp waiting at a barrier and its cluster, for deadlock reports.
  std::vector<exec::BlockState>* waiting_cluster();
  std::optional<exec::KernelFault>& fault() { return fault_; }
  exec::LaunchStats& stats() { return stats_; }
  const SmCounters& counters() const { return counters_; }
  // What the SM did over time, if recorded (after finish); recording stops.
  SmActivity take_activity() { return activity_.take(counters_.warp_state_cycles); }
  // Closes open state spans and counts residency up to `at` (the end of the launch).
  void finish(std::uint64_t at);

 private:
  // A register slot's last known write: the cycle it is available, and how many writes to it
  // wait for an answer between intervals. A slot is ready once every write to it is: a SASS
  // scoreboard counts several loads at once.
  struct RegisterSlot {
    std::uint64_t ready = 0;
    std::uint16_t unanswered = 0;
    WarpState producer = WarpState::Wait;  // what a wait on that register is called
  };
  // What the scheduler reads each time it asks a warp comes first and fits one 64-byte host
  // cache line: the SMs' states are visited in turn, so each ask is likely a cache miss.
  struct alignas(64) WarpTiming {
    std::uint64_t next_issue = 0;
    std::uint64_t* earliest = nullptr;  // no use asking before this cycle (in earliest_)
    std::uint64_t state_since = 0;
    std::uint64_t drain_until = 0;  // its last store reaches the L2
    std::uint64_t operands_ready = 0;
    // Copies of the functional warp's next pc and barrier wait, kept current wherever those
    // change (issue, block start, barrier release), so that asking whether the warp can issue
    // reads this record alone: the scheduler asks several times per issued instruction.
    std::uint32_t pc = 0;
    std::uint32_t pending = 0;  // registers (or stores) whose ready cycle is not yet known
    std::uint32_t sub_partition = 0;
    WarpState next_issue_state = WarpState::Launching;
    WarpState state = WarpState::Launching;
    WarpState operands_wait = WarpState::Wait;
    bool operands_known = false;  // operands_ready is for the instruction at the pc
    bool active = false;
    bool at_barrier = false;
    // Per register slot (the SASS frontend: per scoreboard), in one allocation: a wait on
    // the warp's registers reads one more host cache line or two, not one per field.
    std::vector<RegisterSlot> slots;
  };
  struct BlockSlot {
    bool busy = false;
    std::vector<exec::BlockState> own;
    std::vector<exec::BlockState>* cluster = nullptr;
    std::uint32_t rank = 0;
    std::uint64_t cluster_id = 0;
    std::uint32_t live_warps = 0;
    std::vector<WarpTiming> warps;
  };
  struct SubPartition {
    WarpScheduler scheduler;
    std::array<std::uint64_t, kPipes> pipe_free{};
    std::uint64_t wake = 0;           // no warp here can issue before (a lower bound)
    std::uint64_t issuing_until = 0;  // busy issuing the compiled code's extra instructions
  };
  exec::BlockState& block_of(std::uint32_t slot);
  exec::WarpState& exec_warp(std::uint32_t warp);
  WarpTiming& timing_warp(std::uint32_t warp) { return *by_id_[warp].timing; }
  void set_state(WarpTiming& w, std::uint32_t warp, WarpState s, std::uint64_t at) {
    if (s != w.state) change_state(w, warp, s, at);
  }
  void change_state(WarpTiming& w, std::uint32_t warp, WarpState s, std::uint64_t at);
  // Whether `warp` can issue at cycle `at`; when not, records why and from when to ask again.
  // Inline, the checks most asks end at (a barrier, the stall count) before the rest: called
  // for every ask.
  bool evaluate(std::uint32_t warp, std::uint64_t at) {
    WarpTiming& t = timing_warp(warp);
    if (t.at_barrier) {
      set_state(t, warp, WarpState::Barrier, at);
      set_earliest(t, memory::kNever);
      return false;
    }
    if (at < t.next_issue) {
      set_state(t, warp, t.next_issue_state, at);
      set_earliest(t, t.next_issue);
      return false;
    }
    return evaluate_operands_and_pipe(t, warp, at);
  }
  // The rest of evaluate: the registers it reads, an immediate constant, and its pipe.
  bool evaluate_operands_and_pipe(WarpTiming& t, std::uint32_t warp, std::uint64_t at);
  // Whether warp `warp` of partition `p`, found waiting for a busy arithmetic or shared pipe,
  // still does at `at`: then only its `earliest` moves (nothing else evaluate checks can have
  // changed meanwhile). Reads throttled_on_, not the warp's WarpTiming.
  bool still_throttled(std::uint32_t warp, SubPartition& p, std::uint64_t at);
  // The pipe a warp entering state `s` waits for (throttled_on_'s value).
  Pipe throttle_pipe(const WarpTiming& w, WarpState s) const;
  // When an arithmetic pipe of partition `p` is free, if later than `at` (else 0).
  static std::uint64_t pipe_booked_until(const SubPartition& p, Pipe pipe, std::uint64_t at) {
    const std::uint64_t f = p.pipe_free[static_cast<std::size_t>(pipe)];
    return f > at ? f : 0;
  }
  void set_earliest(WarpTiming& t, std::uint64_t cycle) {
    defer(*t.earliest, partitions_[t.sub_partition], cycle);
  }
  std::uint32_t partition_index(const SubPartition& p) const {
    return static_cast<std::uint32_t>(&p - partitions_.data());
  }
  // A warp's `earliest` (in earliest_) set to `cycle`, its partition woken no later.
  static void defer(std::uint64_t& earliest, SubPartition& p, std::uint64_t cycle) {
    earliest = cycle;
    p.wake = std::min(p.wake, cycle);
  }
  // Inline, as the next few: called for every issued instruction or simulated cycle.
  static void mirror(WarpTiming& t, const exec::WarpState& w) {
    t.at_barrier = w.status == exec::WarpStatus::AtBarrier ||
                   w.status == exec::WarpStatus::AtNamedBarrier ||
                   w.status == exec::WarpStatus::AtClusterBarrier ||
                   w.status == exec::WarpStatus::AtMemoryBarrier;
    if (!w.stack.empty()) t.pc = w.stack.back().pc;
  }
  // After a barrier released some of the slot's warps.
  void mirror_block(BlockSlot& b);
  // After an mbarrier's phase released the slot's warps that waited for it.
  void wake_memory_barrier_waiters(std::uint32_t slot);
  void issue(std::uint32_t warp);
  // The issued instruction's work in its pipe: when its results are ready, and what else it
  // holds (pipes, the warp's next issue, barriers).
  void issue_to_pipe(std::uint32_t warp, const InstTiming& it);
  // The L1 unit's view of `it` by `warp`: the recorded lanes at `addresses`, touching `lines`.
  GlobalAccess access_of(std::uint32_t warp, const InstTiming& it, const std::uint64_t* addresses,
                         unsigned lines) const;
  void issue_global(std::uint32_t warp, const InstTiming& it);
  void issue_local(std::uint32_t warp, const InstTiming& it);
  // A global or local access `a` of `it` into the L1 unit; its registers wait for the answer.
  void issue_access(std::uint32_t warp, const InstTiming& it, const GlobalAccess& a);
  void issue_barrier(std::uint32_t warp, const InstTiming& it);
  void warp_finished(std::uint32_t warp);
  void block_barrier_check(std::uint32_t slot);
  void start_blocks() {
    while (!launcher_.empty() && launcher_.next_start() <= now_) activate(launcher_.pop());
  }
  // The sub-partition of warp `warp` of the block starting in `slot` (blocks_activated_ counts
  // it already).
  std::uint32_t sub_partition_of(std::uint32_t slot, std::uint32_t warp) const;
  void activate(const StartingBlock& b);
  // Warps in flight change from `cycle` on (residency, and the recorded counter).
  void in_flight(std::uint64_t cycle, std::int64_t change) {
    residency_.change(cycle, change);
    if (activity_.on()) activity_.resident_change(cycle, change);
  }
  // A global or local access is in flight from `from` to `to` (for the recorded counter).
  void memory_in_flight(std::uint64_t from, std::uint64_t to) {
    if (!activity_.on() || to <= from) return;
    activity_.memory_change(from, 1);
    activity_.memory_change(to, -1);
  }
  void barrier_released(std::uint32_t slot, bool cluster);

  // Local memory's addresses as the timing model places them: above every buffer's, a window for
  // each SM and within it for each warp slot (frames of up to 2^32 / 128 bytes a thread).
  static constexpr std::uint64_t kLocalWindow = std::uint64_t{1} << 60;
  static constexpr unsigned kLocalSmShift = 44;
  static constexpr unsigned kLocalWarpShift = 32;
  SmSetup s_;
  const std::vector<InstTiming>& insts_;
  std::uint32_t index_;
  std::uint32_t warps_per_block_;
  exec::LaunchStats stats_;
  exec::AccessRecord access_;
  std::vector<exec::DeferredAtomic> atomics_;
  std::int32_t queued_atomic_ = -1;  // the instruction being issued queued atomics_[this]
  std::unique_ptr<InstructionSource> source_;
  std::vector<BlockSlot> slots_;
  // Each warp slot's timing and functional state, by id (slot * warps per block + warp).
  struct WarpRef {
    WarpTiming* timing = nullptr;
    exec::WarpState* exec = nullptr;
  };
  std::vector<WarpRef> by_id_;
  std::vector<std::uint64_t> earliest_;  // by id, contiguous: the scheduler's hot loop reads it
  // By id, mirroring WarpTiming::state: the arithmetic pipe a MathPipeThrottle warp waits for,
  // Pipe::Shared for MioThrottle, Pipe::Count otherwise. Asking a throttled warp again, the
  // most frequent ask, then touches no WarpTiming.
  std::vector<Pipe> throttled_on_;
  std::vector<SubPartition> partitions_;
  std::uint64_t now_ = 0;
  // The pipes the scheduler asks about for throttled warps, beside the cycle.
  SharedPipe shared_;
  L1Unit l1_;
  memory::ConstantCache constants_;
  memory::ImmediateConstants immediate_constants_;
  BlockLauncher launcher_;
  Residency residency_;
  ActivityRecorder activity_;
  std::deque<exec::Dim3> queued_;
  std::uint64_t blocks_activated_ = 0;  // this launch's blocks whose warps have started here
  // When the SM's first instructions have arrived; set at its first block (from a flushed L2
  // they come from DRAM, timing.cold_code_cycles after that block starts).
  std::optional<std::uint64_t> code_ready_;
  std::uint64_t resident_warps_ = 0;  // warps of started blocks that have not exited
  bool issued_in_interval_ = false;
  std::vector<std::uint64_t> retired_;
  std::optional<exec::KernelFault> fault_;
  SmCounters counters_;
};

}  // namespace warpsim::scheduler
