#include "sim/sass/sass_executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/sass/sass_mbarrier.hpp"
#include "sim/sass/sass_warp_progress.hpp"
#include "sim/sass/sass_warp_words.hpp"

namespace warpsim::sass {
namespace {

enum class Family : std::uint8_t { Integer, Float, Memory, WarpLevel, Barrier, Control };

Family family(Op op) {
  switch (op) {
    case Op::IADD3:
    case Op::IMAD:
    case Op::IMADWIDE:
    case Op::LEA:
    case Op::SHF:
    case Op::LOP3:
    case Op::ISETP:
    case Op::IMNMX:
    case Op::IADDMNMX:
    case Op::IABS:
    case Op::VABSDIFF:
    case Op::VABSDIFF4:
    case Op::POPC:
    case Op::FLO:
    case Op::BREV:
    case Op::BMSK:
    case Op::SGXT:
    case Op::IDP:
    case Op::PRMT:
    case Op::SEL:
    case Op::MOV:
    case Op::LEPC:
    case Op::PLOP3:
    case Op::P2R:
    case Op::R2P:
    case Op::S2R:
    case Op::CS2R:
    case Op::S2UR:
    case Op::LDC:
    case Op::R2UR:
      return Family::Integer;
    case Op::FADD:
    case Op::FMUL:
    case Op::FFMA:
    case Op::FMNMX:
    case Op::FSETP:
    case Op::FSEL:
    case Op::FCHK:
    case Op::MUFU:
    case Op::HFMA2:
    case Op::HMUL2:
    case Op::HMNMX2:
    case Op::HSETP2:
    case Op::HSET2:
    case Op::HMMA:
    case Op::IMMA:
    case Op::DMMA:
    case Op::HADD2:
    case Op::DADD:
    case Op::DMUL:
    case Op::DFMA:
    case Op::DSETP:
    case Op::I2F:
    case Op::F2I:
    case Op::F2F:
    case Op::F2FP:
    case Op::FRND:
      return Family::Float;
    case Op::LDG:
    case Op::STG:
    case Op::LD:
    case Op::ST:
    case Op::QSPC:
    case Op::LDS:
    case Op::LDSM:
    case Op::STS:
    case Op::LDL:
    case Op::STL:
    case Op::ATOMG:
    case Op::REDG:
    case Op::ATOMS:
    case Op::ATOM:
    case Op::LDGSTS:
      return Family::Memory;
    case Op::SYNCS:
    case Op::ARRIVES:
      return Family::Barrier;
    case Op::SHFL:
    case Op::VOTE:
    case Op::MATCH:
    case Op::REDUX:
    case Op::B2R:
      return Family::WarpLevel;
    case Op::BRA:
    case Op::EXIT:
    case Op::BSSY:
    case Op::BSYNC:
    case Op::BREAK:
    case Op::BMOV:
    case Op::NANOSLEEP:
    case Op::BPT:
    case Op::WARPSYNC:
    case Op::BAR:
    case Op::CGABAR_ARV:
    case Op::CGABAR_WAIT:
    case Op::CALL:
    case Op::RET:
    case Op::BRX:
    case Op::NOP:
    case Op::MEMBAR:
      return Family::Control;
  }
  return Family::Control;
}

}  // namespace

SassExecutor::SassExecutor(const SassLaunch& launch, exec::LaunchStats& stats,
                           exec::AccessRecord* access,
                           std::vector<exec::DeferredAtomic>* deferred_atomics, const SmView* sm)
    : launch_(launch),
      stats_(stats),
      access_(access),
      deferred_atomics_(deferred_atomics),
      sm_(sm) {
  if (stats_.sass.per_mnemonic.size() < kMnemonicCount)
    stats_.sass.per_mnemonic.resize(kMnemonicCount);
  // Memory statistics by SASS instruction (run_on_sass maps them onto the IR's lines).
  const std::vector<Instruction>& insts = launch.program->insts;
  if (stats_.per_memory.size() < insts.size()) stats_.per_memory.resize(insts.size());
  if (stats_.sass.per_instruction.size() < insts.size())
    stats_.sass.per_instruction.resize(insts.size());
  steps_.reserve(insts.size());
  for (const Instruction& inst : insts) {
    const auto c = op_class(inst.op);
    steps_.push_back({static_cast<std::uint8_t>(family(inst.op)),
                      c ? static_cast<std::uint8_t>(*c) : kNoOpClass, second_pipe(inst)});
  }
}

void SassExecutor::fault(const SassBlock& block, const SassWarp& warp, unsigned lane,
                         const Instruction* inst, const std::string& what) const {
  exec::FaultSite site;
  site.kernel = launch_.program->kernel;
  site.block = block.index;
  site.thread = static_cast<std::int64_t>(std::uint64_t{warp.index} * kWarpSize + lane);
  site.thread_index = exec::unflatten(static_cast<std::uint64_t>(site.thread), launch_.spec->block);
  const std::string where = name_fault_instruction(site, inst);
  throw exec::KernelFault(std::move(site), what + where);
}

void SassExecutor::fault_at_next(const SassBlock& block, const SassWarp& warp,
                                 const std::string& what) const {
  const auto [pc, lanes] = next_group(warp);
  const bool running = pc < launch_.program->insts.size() && lanes != 0;
  fault(block, warp, running ? static_cast<unsigned>(std::countr_zero(lanes)) : 0,
        running ? &launch_.program->insts[pc] : nullptr, what);
}

std::string name_fault_instruction(exec::FaultSite& site, const Instruction* inst) {
  if (inst == nullptr || inst->listed == nullptr) return {};
  const SassInstruction& s = *inst->listed;
  site.instruction = fmt::format("/*{:04x}*/ {}{}{} {}", s.address, s.guard,
                                 s.guard.empty() ? "" : " ", s.opcode, s.operands);
  site.line = s.source_line;
  return " at SASS " + site.instruction;
}

void SassExecutor::unmodelled(const SassBlock& block, const SassWarp& warp, std::uint32_t pc,
                              std::uint32_t active) const {
  std::string why;
  for (const auto& [index, message] : launch_.program->unmodelled) {
    if (index == pc) why = message;
  }
  fault(block, warp, static_cast<unsigned>(std::countr_zero(active)), &launch_.program->insts[pc],
        why +
            "; the warp took the path ptxas compiles for lanes that do not run together "
            "(--frontend ir runs the IR instead)");
}

void SassExecutor::prepare_block(SassBlock& block, const exec::Dim3& index, std::uint64_t linear,
                                 std::uint32_t rank) const {
  const SassProgram& p = *launch_.program;
  block.index = index;
  block.linear = linear;
  block.rank = rank;
  block.memory().assign(launch_.shared_bytes, 0);
  block.threads = launch_.spec->threads_per_block();
  block.exited_threads = 0;
  block.barrier_arrived = 0;
  block.named = {};
  block.named_under_way = 0;
  block.barrier_true = 0;
  block.barrier_reduction = BarReduction::None;
  block.cluster_arrived = 0;
  block.cluster_phase = 0;
  block.mbarrier_completed = false;
  block.warps.resize(launch_.spec->warps_per_block());
  for (std::size_t i = 0; i < block.warps.size(); ++i) {
    SassWarp& w = block.warps[i];
    w.index = static_cast<std::uint32_t>(i);
    const std::uint64_t first = std::uint64_t{w.index} * kWarpSize;
    const std::uint64_t present = std::min<std::uint64_t>(kWarpSize, block.threads - first);
    w.lanes = present == kWarpSize ? kFullWarpMask : (1u << present) - 1u;
    w.exited = w.waiting = w.block_waiting = w.cluster_waiting = w.mbarrier_waiting = 0;
    w.mbarrier_parity = 0;
    w.polling = false;
    w.cluster_phase_joined = 0;
    w.cluster_arrival_pending = false;
    w.named_barrier = -1;
    w.pc.fill(0);
    w.barrier.fill(0);
    w.barrier_open = 0;
    w.group.fill(0);
    w.groups = 0;
    w.yield_waiting = 0;
    w.barrier_broken = 0;
    w.apart = 0;
    w.together = 0;
    w.pred.fill(0);
    w.pred[kTruePred] = kFullWarpMask;
    w.upred = 0;
    w.r.assign(std::size_t{p.registers} * kWarpSize, 0);
    w.ur.assign(p.uniform_registers + 1, 0);
    w.local.assign(std::size_t{launch_.local_bytes} * kWarpSize, 0);
    w.executed = 0;
    w.barrier_reduction = BarReduction::None;
  }
}

namespace {

// Whether every lane of `runnable` is at `pc` in the group of `group`: a converged warp, the
// common case. A whole warp is checked in one branch-free pass (an OR over the lanes, which
// vectorises), part of one lane by lane.
bool all_together(const SassWarp& w, std::uint32_t runnable, std::uint32_t pc,
                  std::uint32_t group) {
  if (runnable == kFullWarpMask) {
    std::uint32_t differs = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      differs |= (w.pc[lane] ^ pc) | (w.group[lane] ^ group);
    return differs == 0;
  }
  for (std::uint32_t m = runnable; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (w.pc[lane] != pc || w.group[lane] != group) return false;
  }
  return true;
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> SassExecutor::search_next_group(const SassWarp& w,
                                                                        std::uint32_t runnable) {
  if (runnable != 0) {
    const auto lane = static_cast<unsigned>(std::countr_zero(runnable));
    if (all_together(w, runnable, w.pc[lane], w.group[lane])) return {w.pc[lane], runnable};
  }
  std::uint32_t pc = UINT32_MAX;
  unsigned first = 0;
  // Groups an exclusive WARPSYNC made share the code (and the uniform registers, which a
  // REDUX writes): the lowest lane's group runs on until it waits, then the next. So do groups
  // of lanes a YIELD set apart.
  const bool one_group = (w.exclusive_groups || (runnable & w.apart) != 0) && runnable != 0;
  const std::uint32_t running =
      one_group ? w.group[static_cast<unsigned>(std::countr_zero(runnable))] : 0;
  for (std::uint32_t m = runnable; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (one_group && w.group[lane] != running) continue;
    if (w.pc[lane] < pc) {
      pc = w.pc[lane];
      first = lane;
    }
  }
  std::uint32_t active = 0;
  for (std::uint32_t m = runnable; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (w.pc[lane] == pc && w.group[lane] == w.group[first]) active |= 1u << lane;
  }
  return {pc, active};
}

void SassExecutor::step(SassBlock& block, SassWarp& w) {
  const SassProgram& p = *launch_.program;
  const std::uint32_t runnable = w.runnable();
  if ((w.first_side & runnable) == 0) w.first_side = 0;  // it ran until it waited or exited
  const auto [pc, active] = next_group(w);
  w.together = 0;
  if (pc >= p.insts.size())
    fault(block, w, 0, nullptr, "the warp ran past the kernel's last instruction");
  const Instruction& inst = p.insts[pc];
  if (inst.unmodelled) unmodelled(block, w, pc, active);
  std::uint32_t guard = kFullWarpMask;
  if (inst.guard != kTruePred) {
    guard = inst.guard_uniform ? (((w.upred >> inst.guard) & 1u) ? kFullWarpMask : 0u)
                               : w.pred[inst.guard];
  }
  if (inst.guard_negate) guard = ~guard;
  const std::uint32_t mask = active & guard;
  ++w.executed;
  ++stats_.warp_instructions;
  stats_.thread_instructions += static_cast<unsigned>(std::popcount(active));
  exec::SassClassStats& classes = stats_.sass;
  ++classes.instructions;
  ++classes.per_mnemonic[inst.mnemonic];
  ++classes.per_instruction[pc];
  const StepInfo& info = steps_[pc];
  ++classes.pipes[static_cast<std::size_t>(inst.pipe)];
  if (info.also != exec::SassPipe::None) ++classes.pipes[static_cast<std::size_t>(info.also)];
  // The memory classes count instructions with a lane left by the guard; the pipes count every
  // executed one, predicated off or not (as the GPU's counters do).
  if (info.op_class != kNoOpClass && mask != 0) ++classes.ops[info.op_class];
  const auto f = static_cast<Family>(info.family);
  if (f == Family::Control) {
    control(block, w, inst, active, mask);
  } else {
    const Lanes x{launch_, stats_, block, w, inst, mask, access_, deferred_atomics_, sm_};
    if (f == Family::Integer) execute_integer(x);
    if (f == Family::Float) execute_float(x);
    if (f == Family::Memory) execute_memory(x);
    if (f == Family::WarpLevel) execute_warp_level(x);
    if (f == Family::Barrier) execute_mbarrier(x);
    advance(w, active);
    // The lanes that ran together go on together to the next instruction.
    if (active == runnable) {
      w.together = active;
      w.together_pc = pc + 1;
    }
  }
  if (w.yield_waiting != 0 && w.runnable() == 0) end_yield(w);
}

void SassExecutor::control(SassBlock& block, SassWarp& w, const Instruction& inst,
                           std::uint32_t active, std::uint32_t mask) {
  const Lanes x{launch_, stats_, block, w, inst, mask, access_, deferred_atomics_, sm_};
  switch (inst.op) {
    case Op::BRA: {
      std::uint32_t taken = mask;
      if (inst.mods.sub == kBraDivergent) {
        const std::uint32_t members = x.raw(inst.operands.at(0), 0);
        if ((members & ~active) == 0) taken = 0;
      } else if (!inst.operands.empty()) {
        std::uint32_t cond = 0;
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
          const auto lane = static_cast<unsigned>(std::countr_zero(m));
          if (x.pred(inst.operands[0], lane)) cond |= 1u << lane;
        }
        taken = cond;
      }
      ++stats_.branch_instructions;  // predicated off or not, as the GPU counts branches
      if (taken != 0 && taken != active) {
        ++stats_.divergent_branches;
        regroup(w, taken);
        // The fall-through (the lower program counter) runs first unless the taken side has
        // fewer lanes (sass_machine.hpp's first_side). Only outside ptxas's convergence regions:
        // where a BSSY has set a barrier for these lanes the lowest program counter's order
        // gives the GPU's counts (fp8forms' nested branches, on an H100).
        const bool forward = inst.target > inst.address / kInstructionBytes;
        bool in_region = false;
        for (const std::uint32_t lanes : w.barrier) in_region = in_region || (lanes & active) != 0;
        if (forward && !in_region && std::popcount(taken) < std::popcount(active & ~taken))
          w.first_side = taken;
      }
      advance(w, active & ~taken);
      for (std::uint32_t m = taken; m != 0; m &= m - 1)
        w.pc[static_cast<unsigned>(std::countr_zero(m))] = inst.target;
      // A branch every lane took, or none did, keeps a converged warp together.
      if (active == w.runnable() && (taken == 0 || taken == active)) {
        w.together = active;
        w.together_pc = w.pc[static_cast<unsigned>(std::countr_zero(active))];
      }
      return;
    }
    case Op::BRX:
      return jump_indirect(x, w, active, mask);
    case Op::CALL:
      ++stats_.branch_instructions;  // the GPU's op_branch counts BRA, CALL and RET
      // A runtime function: done here, its lanes on at the next instruction, where its
      // return address (LEPC's) points.
      if (inst.mods.sub == kCallAbsolute) {
        call_runtime(x);
        return advance(w, active);
      }
      advance(w, active & ~mask);
      // CALL.REL through a register (a function pointer): each lane to the address it holds,
      // from the kernel's start as RET's return addresses are; lanes with different targets go
      // apart, as after RET.
      for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        w.pc[lane] = !inst.operands.empty() && inst.operands[0].kind == OperandKind::Reg
                         ? x.raw(inst.operands[0], lane) / kInstructionBytes
                         : inst.target;
      }
      return;
    case Op::RET:
      ++stats_.branch_instructions;
      advance(w, active & ~mask);
      for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        const auto lane = static_cast<unsigned>(std::countr_zero(m));
        w.pc[lane] = x.raw(inst.operands.at(0), lane) / kInstructionBytes;
      }
      return;
    case Op::EXIT:
      w.exited |= mask;
      block.exited_threads += static_cast<unsigned>(std::popcount(mask));
      advance(w, active & ~mask);
      return release_convergence(w, true);
    case Op::BSSY: {
      // The first group to run it sets the barrier; groups of the same warp that reach it apart
      // before its BSYNC released add theirs (ptxas's division slow path joins diverged lanes
      // at a BSSY: the BSYNC waits for them all, none left waiting for lanes gone on).
      const unsigned index = inst.operands.at(0).index;
      const auto bit = static_cast<std::uint16_t>(1u << index);
      w.barrier[index] = (w.barrier_open & bit) != 0 ? w.barrier[index] | active : active;
      if ((w.barrier_open & bit) == 0) w.barrier_broken &= static_cast<std::uint16_t>(~bit);
      w.barrier_open |= bit;
      return advance(w, active);
    }
    case Op::BREAK:
      w.barrier[inst.operands.at(0).index] &= ~mask;
      advance(w, active);
      return release_convergence(w);
    case Op::NANOSLEEP:  // the scheduler's wait; the timing model issues it as a branch
      w.polling = true;  // a wait loop's back-off: let the others run first
      return advance(w, active);
    case Op::BPT:
      if (mask != 0)
        x.fault(static_cast<unsigned>(std::countr_zero(mask)),
                "the kernel trapped (BPT.TRAP: __trap(), or a failed assert)");
      return advance(w, active);
    case Op::BMOV: {
      const Operand& to = inst.operands.at(0);
      const Operand& from = inst.operands.at(1);
      if (to.kind == OperandKind::Barrier) {  // restore: the lanes as the register holds them
        if (mask != 0) {
          w.barrier[to.index] = x.raw(from, static_cast<unsigned>(std::countr_zero(mask)));
          // A restored barrier (after a call) is the caller's, still waiting for its BSYNC.
          const auto bit = static_cast<std::uint16_t>(1u << to.index);
          w.barrier_open =
              w.barrier[to.index] != 0 ? (w.barrier_open | bit) : (w.barrier_open & ~bit);
        }
      } else {
        const std::uint32_t lanes = w.barrier[from.index];
        for (std::uint32_t m = mask; m != 0; m &= m - 1)
          x.set(to, static_cast<unsigned>(std::countr_zero(m)), lanes);
        if (inst.mods.sub == kBmovClear && mask != 0) {
          w.barrier[from.index] = 0;
          w.barrier_open &= static_cast<std::uint16_t>(~(1u << from.index));
        }
      }
      return advance(w, active);
    }
    case Op::BSYNC:
    case Op::WARPSYNC:
      if ((active & w.exclusive_left) != 0) {
        // A group an exclusive WARPSYNC left behind runs it again, which the GPU counts as two
        // instructions: this one and a branch (in the CBU) back to it (release_convergence).
        w.exclusive_left &= ~active;
        ++w.executed;
        ++stats_.warp_instructions;
        ++stats_.sass.instructions;
        ++stats_.sass.pipes[static_cast<std::size_t>(Pipe::Cbu)];
        ++stats_.branch_instructions;
      }
      w.waiting |= mask;
      advance(w, active & ~mask);
      return release_convergence(w);
    case Op::BAR: {
      const bool reduces = inst.mods.sub == static_cast<std::uint8_t>(BarKind::Red);
      const bool named = inst.operands.size() == 2 && !reduces;
      if (named) return arrive_named(x, block, w, mask, active);
      if ((inst.mods.sub != static_cast<std::uint8_t>(BarKind::Sync) && !reduces) ||
          inst.operands.size() != (reduces ? 2u : 1u) ||
          inst.operands[0].kind != OperandKind::Imm || inst.operands[0].value != 0)
        x.fault(0, "only BAR.SYNC 0 and BAR.RED 0 over the whole block are modelled");
      const unsigned first = static_cast<unsigned>(std::countr_zero(mask));
      if (block.barrier_arrived != 0 && block.barrier_reduction != inst.mods.bar_reduction)
        x.fault(first, fmt::format("this barrier meets {} threads waiting at another kind of "
                                   "barrier (BAR.SYNC and BAR.RED.POPC, .AND, .OR): one barrier "
                                   "phase must be one kind",
                                   block.barrier_arrived));
      block.barrier_reduction = inst.mods.bar_reduction;
      for (std::uint32_t m = reduces ? mask : 0; m != 0; m &= m - 1) {
        if (x.pred(inst.operands[1], static_cast<unsigned>(std::countr_zero(m))))
          ++block.barrier_true;
      }
      ++stats_.barriers;
      // The barrier marks the warp's arrival (PTX: it waits for the non-exited threads of its
      // warp): lanes the guard turns off wait and count with the others rather than running on
      // alone, so the instructions after it run once for the group (loop_return's counts on
      // the H100, validation/h200/results/h100_2026_12_07/).
      const std::uint32_t arriving = mask != 0 ? active : 0;
      w.block_waiting |= arriving;
      block.barrier_arrived += static_cast<unsigned>(std::popcount(arriving));
      return advance(w, active & ~arriving);
    }
    case Op::CGABAR_ARV: {
      // The cluster barrier (PTX's barrier.cluster.arrive and .wait, cooperative groups'
      // cluster.sync()): the lanes arrive in the phase under way; UCGABAR_WAIT then waits for it.
      if (w.cluster_arrival_pending)
        x.fault(static_cast<unsigned>(std::countr_zero(mask)),
                "UCGABAR_ARV twice without UCGABAR_WAIT between");
      ++stats_.barriers;
      block.cluster_arrived += static_cast<unsigned>(std::popcount(mask));
      w.cluster_phase_joined = block.cluster_phase;
      w.cluster_arrival_pending = true;
      return advance(w, active);
    }
    case Op::CGABAR_WAIT:
      if (!w.cluster_arrival_pending)
        x.fault(static_cast<unsigned>(std::countr_zero(mask)), "UCGABAR_WAIT without an arrival");
      if (block.cluster_phase > w.cluster_phase_joined) {  // that phase is over already
        w.cluster_arrival_pending = false;
        return advance(w, active);
      }
      w.cluster_waiting |= mask;
      return advance(w, active & ~mask);
    case Op::NOP:
      if (inst.mods.sub == kNopYield && active != (w.lanes & ~w.exited))
        return yield_apart(w, active);
      return advance(w, active);
    case Op::MEMBAR:
      return advance(w, active);
    default:
      x.fault(0, "not a control instruction");
  }
}

void SassExecutor::jump_indirect(const Lanes& x, SassWarp& w, std::uint32_t active,
                                 std::uint32_t mask) {
  const Instruction& inst = x.inst;
  const std::uint32_t index = inst.address / 16;
  const std::vector<std::uint32_t>& targets = launch_.program->jump_targets.at(index);
  // The GPU serialises a divergent BRX: each execution jumps the lanes of the lowest lane's
  // target, and the others run the BRX again (each execution an instruction in the ADU and the
  // CBU; op_branch counts the BRX once, on its first execution by the group). Read off
  // switch_jump_table on sm_90 (validation/h200/results/h100_2026_12_05b/).
  const bool again_execution = (active & w.brx_left) != 0;
  if (!again_execution) ++stats_.branch_instructions;
  advance(w, active & ~mask);
  std::uint32_t first_target = UINT32_MAX;
  std::uint32_t taken = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    // PC-relative: the register holds the target's offset in the kernel less the offset, which
    // the instruction adds back with the next instruction's address.
    const std::uint32_t address =
        x.raw(inst.operands[0], lane) + x.raw(inst.operands[1], lane) + inst.address + 16;
    const std::uint32_t target = address / 16;
    if (address % 16 != 0 || std::find(targets.begin(), targets.end(), target) == targets.end())
      x.fault(lane, fmt::format("BRX jumps to /*{:04x}*/, none of its branch targets", address));
    if (first_target == UINT32_MAX) first_target = target;
    if (target == first_target) taken |= 1u << lane;
  }
  const std::uint32_t again = mask & ~taken;
  if (again != 0) {
    if (!again_execution) ++stats_.divergent_branches;
    regroup(w, taken);
  }
  w.brx_left = (w.brx_left & ~active) | again;
  for (std::uint32_t m = taken; m != 0; m &= m - 1)
    w.pc[static_cast<unsigned>(std::countr_zero(m))] = first_target;
}

}  // namespace warpsim::sass
