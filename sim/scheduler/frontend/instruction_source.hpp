// The seam between the timing model and whatever executes the kernel's instructions. The
// timing model decides when a warp issues; a frontend says what each instruction is (its
// InstTiming: pipe, latency, registers, kind of work) and, at issue, executes it: the warp's
// functional state (pc, active lanes, status) moves on, its memory access is recorded for the
// memory side's timing, and its counters are counted. The IR executor is one frontend
// (ir_frontend.hpp); a frontend that runs the compiled SASS would be another.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/core/exec/state.hpp"
#include "sim/core/exec/stats.hpp"
#include "sim/scheduler/inst_timing.hpp"

namespace warpsim::scheduler {

// Where one SM's executed instructions report: its counters, the last instruction's memory
// access, and the global atomics that wait for the L2 to apply them.
struct SmExecution {
  exec::LaunchStats* stats = nullptr;
  exec::AccessRecord* access = nullptr;
  std::vector<exec::DeferredAtomic>* atomics = nullptr;
  std::uint32_t sm = 0;                  // the SM's index
  const std::uint64_t* cycle = nullptr;  // the SM's current cycle
};

// One SM's instruction source: used by the thread that simulates the SM only.
class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  // Sets up a block's functional state: every warp Ready at the first instruction.
  virtual void prepare_block(exec::BlockState& block, const exec::Dim3& index,
                             std::uint32_t rank) = 0;
  // Executes the next instruction of `warp` (Ready) of `block`, one of `cluster`'s blocks.
  // Throws exec::KernelFault when the instruction faults or the instruction budget is spent.
  virtual void execute(exec::BlockState& block, std::vector<exec::BlockState>* cluster,
                       exec::WarpState& warp) = 0;
  // True (once) where the last execute completed an mbarrier phase that warps of its block
  // waited for (WarpStatus::AtMemoryBarrier): those warps are Ready again.
  virtual bool take_memory_barrier_release() { return false; }
};

class Frontend {
 public:
  virtual ~Frontend() = default;
  // One entry per instruction, indexed by the warps' pc.
  virtual const std::vector<InstTiming>& instructions() const = 0;
  // Scoreboard slots (registers) per warp.
  virtual std::uint32_t register_slots() const = 0;
  virtual std::unique_ptr<InstructionSource> source_for_sm(const SmExecution& out) const = 0;
  // Faults located at `cluster`'s first waiting warp: a budget spent (`what` says which, and
  // how to raise it), or no warp able to run again (a barrier that cannot open).
  [[noreturn]] virtual void over_budget(exec::LaunchStats& stats,
                                        std::vector<exec::BlockState>& cluster,
                                        const std::string& what) const = 0;
  [[noreturn]] virtual void deadlock(exec::LaunchStats& stats,
                                     std::vector<exec::BlockState>& cluster) const = 0;
  // Whether the SMs must be simulated on one thread (for results that do not depend on the
  // order in which threads reach shared state).
  virtual bool needs_one_thread() const { return false; }
};

}  // namespace warpsim::scheduler
