// The barriers of the SASS executor: BAR.SYNC 0 over the whole block (and BAR.RED's phase), the
// named barriers BAR.SYNC ID, COUNT and BAR.ARV ID, COUNT, the cluster's barrier, and the warp's
// convergence barriers (BSYNC, WARPSYNC).
#include <bit>

#include "sim/sass/sass_executor.hpp"
#include "sim/sass/sass_lanes.hpp"
#include "sim/sass/sass_warp_progress.hpp"

namespace warpsim::sass {

void SassExecutor::arrive_named(const Lanes& x, SassBlock& block, SassWarp& w, std::uint32_t mask,
                                std::uint32_t active) {
  // BAR.SYNC ID, COUNT and BAR.ARV ID, COUNT (PTX's bar.sync and bar.arrive with a thread
  // count): the IR's named barriers, with the same checks (opcodes.def).
  const Instruction& inst = x.inst;
  if (mask == 0) return advance(w, active);  // predicated off in every lane
  const auto first = static_cast<unsigned>(std::countr_zero(mask));
  const std::uint32_t id = x.u32(inst.operands[0], first);
  const std::uint32_t count = x.u32(inst.operands[1], first);
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (x.u32(inst.operands[0], lane) != id || x.u32(inst.operands[1], lane) != count)
      x.fault(lane, "the barrier's id or thread count differs between lanes");
  }
  if (mask != (w.lanes & ~w.exited))
    x.fault(first,
            "a named barrier reached by part of a warp: the warp's threads must arrive "
            "together");
  if (const auto why =
          exec::named_arrival_error(block.named, id, count, block.threads, block.barrier_arrived))
    x.fault(first, *why);
  ++stats_.barriers;
  exec::arrive(block.named[id], count);
  block.named_under_way |= 1u << id;
  if (inst.mods.sub == static_cast<std::uint8_t>(BarKind::Arrive)) return advance(w, active);
  w.block_waiting |= mask;
  w.named_barrier = static_cast<std::int8_t>(id);
  advance(w, active & ~mask);
}

void SassExecutor::open_named_barrier(SassBlock& block, unsigned id) const {
  for (SassWarp& w : block.warps) {
    if (w.block_waiting == 0 || w.named_barrier != static_cast<std::int8_t>(id)) continue;
    w.together = 0;
    advance(w, w.block_waiting);
    regroup(w, w.block_waiting);
    w.block_waiting = 0;
    w.named_barrier = -1;
  }
  block.named[id] = {};
  block.named_under_way &= ~(1u << id);
}

bool SassExecutor::release_named_barriers(SassBlock& block) const {
  bool released = false;
  for (std::uint32_t m = block.named_under_way; m != 0; m &= m - 1) {
    const auto id = static_cast<unsigned>(std::countr_zero(m));
    const exec::NamedBarrierPhase& b = block.named[id];
    if (b.arrived < b.expected) continue;
    for (const SassWarp& w : block.warps)
      released |= w.block_waiting != 0 && w.named_barrier == static_cast<std::int8_t>(id);
    open_named_barrier(block, id);
  }
  return released;
}

bool SassExecutor::release_block_barrier(SassBlock& block) const {
  if (block.barrier_arrived == 0 || block.barrier_arrived < block.threads - block.exited_threads)
    return false;
  open_block_barrier(block);
  return true;
}

void SassExecutor::open_block_barrier(SassBlock& block) const {
  for (SassWarp& w : block.warps) {
    if (w.named_barrier >= 0) continue;  // waiting at a named barrier
    if (w.block_waiting != 0 && block.barrier_reduction != BarReduction::None) {
      w.barrier_reduction = block.barrier_reduction;
      w.barrier_count = static_cast<std::uint32_t>(block.barrier_true);
      w.barrier_all = block.barrier_true == block.barrier_arrived;
    }
    w.together = 0;
    advance(w, w.block_waiting);
    if (w.block_waiting != 0) regroup(w, w.block_waiting);
    w.apart &= ~w.block_waiting;
    w.block_waiting = 0;
  }
  block.barrier_arrived = 0;
  block.barrier_true = 0;
}

bool SassExecutor::release_cluster_barrier(const std::vector<SassBlock*>& cluster) const {
  std::uint64_t threads = 0, done = 0, arrived = 0;
  for (const SassBlock* b : cluster) {
    threads += b->threads;
    done += b->cluster_arrived + b->exited_threads;
    arrived += b->cluster_arrived;
  }
  if (arrived == 0 || done != threads) return false;
  for (SassBlock* b : cluster) open_cluster_barrier(*b);
  return true;
}

void SassExecutor::open_cluster_barrier(SassBlock& block) const {
  block.cluster_arrived = 0;
  ++block.cluster_phase;
  for (SassWarp& w : block.warps) {
    if (w.cluster_waiting == 0) continue;
    w.together = 0;
    advance(w, w.cluster_waiting);
    regroup(w, w.cluster_waiting);
    w.cluster_waiting = 0;
    w.cluster_arrival_pending = false;
  }
}

void SassExecutor::release_convergence(SassWarp& w, bool after_exit) const {
  const SassProgram& p = *launch_.program;
  const std::uint32_t live = w.lanes & ~w.exited;
  w.waiting &= live;
  std::uint32_t pending = w.waiting;
  bool released_exclusive = false;
  while (pending != 0) {
    const auto first = static_cast<unsigned>(std::countr_zero(pending));
    const std::uint32_t pc = w.pc[first];
    const Instruction& inst = p.insts[pc];
    // An exclusive WARPSYNC releases the lanes of one mask together, apart from the others.
    const bool exclusive = inst.op == Op::WARPSYNC && inst.mods.sub == kWarpsyncExclusive &&
                           !inst.operands.empty() && inst.operands[0].kind == OperandKind::Reg &&
                           inst.operands[0].index != kZeroReg;
    const std::uint32_t* mask_of =
        exclusive ? w.r.data() + std::size_t{inst.operands[0].index} * kWarpSize : nullptr;
    // A BSYNC's lanes arrive at its barrier, whichever BSYNC of that barrier they wait at:
    // ptxas gives two regions in the two sides of a branch one barrier register, and a side
    // whose lanes call a slow path lets the other side's lanes set it and wait at their own
    // BSYNC meanwhile (the division and square-root slow paths in divergent code).
    const bool by_barrier = inst.op == Op::BSYNC;
    const unsigned barrier = by_barrier ? inst.operands.at(0).index : 0;
    std::uint32_t arrived = 0;
    for (std::uint32_t m = pending; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      const Instruction& at = p.insts[w.pc[lane]];
      const bool same =
          by_barrier ? at.op == Op::BSYNC && at.operands.at(0).index == barrier : w.pc[lane] == pc;
      if (same && (mask_of == nullptr || mask_of[lane] == mask_of[first])) arrived |= 1u << lane;
    }
    pending &= ~arrived;
    if (by_barrier && ((static_cast<unsigned>(w.barrier_broken) >> barrier) & 1u) != 0) {
      // A barrier a YIELD broke: the lanes go on as they came (their groups kept), leaving it.
      w.waiting &= ~arrived;
      w.barrier[barrier] &= ~arrived;
      if ((w.barrier[barrier] & live) == 0)
        w.barrier_open &= static_cast<std::uint16_t>(~(1u << barrier));
      advance(w, arrived);
      continue;
    }
    std::uint32_t needed = live;
    if (by_barrier) {
      needed &= w.barrier[barrier];
    } else if (!inst.operands.empty()) {
      Operand o = inst.operands[0];
      needed &= o.kind == OperandKind::Imm ? static_cast<std::uint32_t>(o.value)
                                           : w.r[std::size_t{o.index} * kWarpSize +
                                                 static_cast<unsigned>(std::countr_zero(arrived))];
    }
    if ((needed & ~arrived) != 0) continue;
    // Lanes waiting at a BSYNC of a barrier that a callee's frame has since saved (BMOV.CLEAR)
    // and set for its own lanes are not in its mask: they wait on for the restored one.
    if (by_barrier && needed != 0) arrived &= needed;
    w.waiting &= ~arrived;
    if (!by_barrier) w.apart &= ~arrived;  // a WARPSYNC joins them again
    if (exclusive && released_exclusive) {
      // The GPU releases one mask's lanes per execution of an exclusive WARPSYNC; the others
      // run it again once the released group waits (the instruction counts of tile_sum_redux
      // on sm_90, validation/h200/results/h100_2026_12_05b/).
      regroup(w, arrived);
      w.exclusive_left |= arrived;
      continue;
    }
    released_exclusive = released_exclusive || exclusive;
    if (after_exit && inst.op == Op::WARPSYNC) {
      // Released because the lanes it waited for exited, not arrived: the GPU issues the
      // WARPSYNC once more, a CBU instruction no branch count shows (exit_order.cu,
      // validation/h200/results/h100_2026_12_07b/).
      ++w.executed;
      ++stats_.warp_instructions;
      ++stats_.sass.instructions;
      ++stats_.sass.pipes[static_cast<std::size_t>(Pipe::Cbu)];
    }
    if (by_barrier) w.barrier_open &= static_cast<std::uint16_t>(~(1u << barrier));
    advance(w, arrived);
    // Lanes released from BSYNCs at different addresses go on as one group per address.
    regroup_by_address(w, arrived);
    if (exclusive) w.exclusive_groups = true;
    if (arrived == live) w.exclusive_groups = false;  // the whole warp together again
  }
}

void SassExecutor::yield_apart(SassWarp& w, std::uint32_t lanes) const {
  for (std::uint32_t open = w.barrier_open; open != 0; open &= open - 1) {
    const auto b = static_cast<unsigned>(std::countr_zero(open));
    if ((w.barrier[b] & lanes) != 0) w.barrier_broken |= static_cast<std::uint16_t>(1u << b);
  }
  w.apart |= lanes;
  w.yield_waiting |= lanes;
  // Lanes that waited at a barrier it broke go on now, as later arrivals will.
  release_convergence(w);
}

void SassExecutor::end_yield(SassWarp& w) {
  regroup_by_address(w, w.yield_waiting);  // one group per YIELD
  advance(w, w.yield_waiting);
  w.yield_waiting = 0;
}

}  // namespace warpsim::sass
