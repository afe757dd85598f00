// The mutable state of a running launch: warps with their SIMT stacks and registers, blocks with
// their shared memory and barrier, and the context every instruction executes in.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/core/exec/check_hook.hpp"
#include "sim/core/exec/named_barrier.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/exec/stats.hpp"
#include "sim/core/gpu_constants.hpp"

namespace warpsim::exec {

// One entry of the SIMT reconvergence stack: lanes `mask` run from `pc` until they reach
// `reconverge`, where the entry is popped and the lanes rejoin the entry below.
struct SimtEntry {
  std::uint32_t pc = 0;
  std::uint32_t reconverge = kExitPc;
  std::uint32_t mask = 0;
};

// AtMemoryBarrier: lanes wait for an mbarrier's phase (the SASS frontend's TRYWAIT); the
// instruction source says when they may go on (InstructionSource::take_memory_barrier_release).
enum class WarpStatus : std::uint8_t {
  Ready,
  AtBarrier,
  AtNamedBarrier,
  AtClusterBarrier,
  AtMemoryBarrier,
  Done
};

inline constexpr std::uint32_t kNoBarrierResult = std::numeric_limits<std::uint32_t>::max();

struct WarpState {
  std::uint32_t index = 0;   // warp index within its block
  std::uint32_t lanes = 0;   // lanes that hold a thread (a partial last warp has fewer)
  std::uint32_t exited = 0;  // lanes whose thread has returned
  WarpStatus status = WarpStatus::Ready;
  bool traced = false;           // `warpsim step` watches this warp
  std::uint32_t sync_epoch = 0;  // bar.warp.sync instructions passed (for the hazard checks)
  // Waiting at a bar.red: the register slot its result goes to when the barrier opens.
  std::uint32_t barrier_result_slot = kNoBarrierResult;
  std::uint32_t named_barrier = 0;  // waiting at bar.sync ID, COUNT: the ID
  std::vector<SimtEntry> stack;
  // Lanes that reached a bar.sync while other lanes of the warp, on the other side of a
  // divergent branch, had still to run there: they wait, off the stack, until the barrier opens
  // (the GPU counts a barrier's threads, not its warps, and runs each side on its own).
  std::vector<SimtEntry> parked;
  std::uint32_t parked_lanes() const {
    std::uint32_t waiting = 0;
    for (const SimtEntry& p : parked) waiting |= p.mask;
    return waiting;
  }
  std::vector<std::uint64_t> regs;  // slot * 32 + lane
  std::vector<std::uint8_t> local;  // lane * local_bytes + offset
  // Where the other operand sources start for this warp (by OperandSource; the pool, its warp
  // index's special registers, its block's), set by prepare_warp.
  std::array<const std::uint64_t*, kOperandSources> sources{};

  const std::uint64_t* read(const OperandRef& op) const {
    const std::uint64_t* base = op.source == OperandSource::Register
                                    ? regs.data()
                                    : sources[static_cast<std::size_t>(op.source)];
    return base + std::size_t{op.slot} * kWarpSize;
  }
  std::uint64_t* write(std::uint32_t slot) { return regs.data() + std::size_t{slot} * kWarpSize; }
};

struct BlockState {
  Dim3 index;
  std::uint64_t linear = 0;
  std::uint32_t cluster_rank = 0;
  std::vector<std::uint8_t> shared;
  std::vector<std::uint64_t> specials;  // kBlockSpecials, 32 lanes each
  std::vector<WarpState> warps;
  std::uint64_t threads = 0;
  std::uint64_t barrier_arrived = 0;  // threads waiting at bar.sync or bar.red
  // The kind of the barrier phase under way (bar.sync, or bar.red and its mode: one phase is
  // one kind), and for bar.red how many arriving threads brought a true predicate.
  ir::Opcode barrier_opcode = ir::Opcode::BarSync;
  ir::VoteMode barrier_mode = ir::VoteMode::Popc;
  std::uint64_t barrier_true = 0;
  NamedBarriers named{};              // bar.sync ID, COUNT and bar.arrive: each barrier's phase
  std::uint64_t cluster_arrived = 0;  // threads waiting at cluster.sync
  std::uint64_t cluster_arrival_cycle = 0;  // timing model: when the last of them arrived
  std::uint64_t exited_threads = 0;         // threads that executed ret
  // Barriers this block has passed (bar.sync and cluster.sync), and cluster barriers alone:
  // two accesses are ordered by a barrier when these differ between them.
  std::uint32_t barrier_epoch = 0;
  std::uint32_t cluster_epoch = 0;
};

// What the last memory instruction touched, for the timing model (filled only when asked).
struct AccessRecord {
  ArrayKind kind = ArrayKind::Global;
  bool remote = false;                 // dsmem
  std::uint32_t mask = 0;              // active lanes
  unsigned wavefronts = 0;             // shared and dsmem
  unsigned sectors = 0;                // global
  unsigned lines = 0;                  // global; dsmem: 128-byte segments in other blocks
  std::uint64_t addresses[kWarpSize];  // global: each active lane's address; const: its bank offset
};

// A global atomic whose update waits for the timing model to reach the L2 (so atomics from
// SMs simulated on different threads apply in one order): every lane located and checked, the
// update applied later by `apply`, which also writes the old values to `warp` when asked.
struct DeferredAtomic {
  void (*apply)(DeferredAtomic& a) = nullptr;
  ir::AtomicOp op = ir::AtomicOp::Add;
  std::uint32_t mask = 0;
  std::uint32_t dst = 0;
  bool has_dst = false;
  WarpState* warp = nullptr;
  std::uint8_t* data[kWarpSize];
  std::uint64_t value[kWarpSize];
  std::uint64_t replacement[kWarpSize];
  // The SASS executor's: its operation and type codes, and where the old values go (lane l's
  // word at results[l], the next register's at results[kWarpSize + l], ...), or null.
  std::uint8_t code_op = 0, code_type = 0;
  std::uint32_t* results = nullptr;
};

struct ExecContext {
  const Program& program;
  const LaunchSpec& launch;
  GlobalMemory& global;
  LaunchStats& stats;
  std::vector<BlockState>* cluster;  // the blocks of the running cluster, by rank
  BlockState* block = nullptr;       // the block of the warp being executed
  AccessRecord* access = nullptr;    // timing mode: filled by every memory instruction
  // Timing mode: global atomics are located and queued here instead of applied.
  std::vector<DeferredAtomic>* deferred_atomics = nullptr;
  CheckHook* check = nullptr;  // the hazard checks, when asked for (functional mode)
};

class TraceHook;

}  // namespace warpsim::exec
