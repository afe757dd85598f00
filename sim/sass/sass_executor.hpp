// Executes a decoded SASS kernel (sass_program.hpp) warp by warp on the state of
// sass_machine.hpp: one step runs the warp's next instruction on the lanes at its lowest
// program counter, as the hardware's convergence barriers schedule them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/core/exec/fault.hpp"
#include "sim/core/exec/state.hpp"
#include "sim/sass/sass_machine.hpp"
#include "sim/sass/sass_mnemonics.hpp"

namespace warpsim::sass {

// Names `inst` in `site` (its listed text and source line); the " at SASS ..." a fault's message
// ends with, or nothing where the instruction is not known.
std::string name_fault_instruction(exec::FaultSite& site, const Instruction* inst);

struct Lanes;

class SassExecutor {
 public:
  // `access`, when given, receives each memory instruction's lanes and addresses (the timing
  // model's memory side reads them). `deferred_atomics`, when given, receives each global
  // atomic instead of its update (the timing model applies it when its L2 reaches it). `sm`,
  // when given, is the SM the timing model runs the warps on, and its clock.
  SassExecutor(const SassLaunch& launch, exec::LaunchStats& stats,
               exec::AccessRecord* access = nullptr,
               std::vector<exec::DeferredAtomic>* deferred_atomics = nullptr,
               const SmView* sm = nullptr);

  // A block's state: shared memory zeroed, every warp at the first instruction.
  void prepare_block(SassBlock& block, const exec::Dim3& index, std::uint64_t linear,
                     std::uint32_t rank) const;
  // Runs the next instruction of `warp`, which has runnable lanes. Throws exec::KernelFault.
  void step(SassBlock& block, SassWarp& warp);
  // Opens the block's barrier when every thread not exited waits at it; true when it opened.
  bool release_block_barrier(SassBlock& block) const;
  // Opens it whatever the count (the timing model decided it opens).
  void open_block_barrier(SassBlock& block) const;
  // Opens named barrier `id` (its phase complete): its waiting warps run on.
  void open_named_barrier(SassBlock& block, unsigned id) const;
  // Opens every named barrier whose phase is complete; true when warps were released.
  bool release_named_barriers(SassBlock& block) const;
  // Opens the cluster's barrier (its blocks by rank) when every thread not exited has arrived;
  // true when it opened.
  bool release_cluster_barrier(const std::vector<SassBlock*>& cluster) const;
  // Ends the block's part of the cluster barrier's phase (the timing model decided it opens).
  void open_cluster_barrier(SassBlock& block) const;
  // The instruction the warp runs next (its lowest runnable program counter).
  static std::uint32_t next_pc(const SassWarp& warp) {
    return next_group(warp).first;  // UINT32_MAX when no lane can run
  }
  // What step runs next: the lowest lane's group at the lowest program counter (pc, lanes).
  // Inline, the converged warp's answer (asked twice per instruction); the search otherwise.
  static std::pair<std::uint32_t, std::uint32_t> next_group(const SassWarp& warp) {
    const std::uint32_t any = warp.runnable();
    const std::uint32_t runnable = (warp.first_side & any) != 0 ? warp.first_side & any : any;
    if (runnable != 0 && warp.together == runnable) return {warp.together_pc, runnable};
    return search_next_group(warp, runnable);
  }
  static std::pair<std::uint32_t, std::uint32_t> search_next_group(const SassWarp& warp,
                                                                   std::uint32_t runnable);

  [[noreturn]] void fault(const SassBlock& block, const SassWarp& warp, unsigned lane,
                          const Instruction* inst, const std::string& what) const;
  // The same, at the instruction the warp runs next (a loop that does not end), where one can.
  [[noreturn]] void fault_at_next(const SassBlock& block, const SassWarp& warp,
                                  const std::string& what) const;

 private:
  // A warp reached an instruction the executor does not model (SassProgram::unmodelled).
  [[noreturn]] void unmodelled(const SassBlock& block, const SassWarp& warp, std::uint32_t pc,
                               std::uint32_t active) const;
  void control(SassBlock& block, SassWarp& warp, const Instruction& inst, std::uint32_t active,
               std::uint32_t mask);
  // Releases the lanes at a BSYNC or WARPSYNC whose lanes are all there; `after_exit`: called
  // because lanes exited.
  void release_convergence(SassWarp& warp, bool after_exit = false) const;
  // A YIELD run by `lanes`, part of the warp (SassWarp::yield_waiting); and the lanes waiting at
  // YIELDs going on, joined per YIELD, once no other lane of the warp can run.
  void yield_apart(SassWarp& w, std::uint32_t lanes) const;
  static void end_yield(SassWarp& w);
  // BRX: each lane to its jump-table target, the lanes of each target a group of their own.
  void jump_indirect(const Lanes& x, SassWarp& warp, std::uint32_t active, std::uint32_t mask);
  // BAR.SYNC ID, COUNT or BAR.ARV ID, COUNT by `mask` of the warp's `active` lanes.
  void arrive_named(const Lanes& x, SassBlock& block, SassWarp& warp, std::uint32_t mask,
                    std::uint32_t active);
  // What step needs of each instruction beyond its decoding, found once per launch: its
  // family of instructions, its memory class (kNoOpClass: none) and its second pipe.
  struct StepInfo {
    std::uint8_t family = 0;
    std::uint8_t op_class = 0;
    exec::SassPipe also = exec::SassPipe::None;
  };
  static constexpr std::uint8_t kNoOpClass = 0xff;

  const SassLaunch& launch_;
  exec::LaunchStats& stats_;
  exec::AccessRecord* access_;
  std::vector<exec::DeferredAtomic>* deferred_atomics_;
  const SmView* sm_;
  std::vector<StepInfo> steps_;
};

}  // namespace warpsim::sass
