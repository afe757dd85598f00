// The block barriers of the SASS executor: BAR.SYNC 0 over the whole block (and BAR.RED's
// phase), and the named barriers BAR.SYNC ID, COUNT and BAR.ARV ID, COUNT.
#include <fmt/format.h>

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
  const std::uint64_t block_threads = (block.threads + 31) / 32 * 32;
  if (id >= block.named.size()) x.fault(first, fmt::format("barrier id {} is outside 0-15", id));
  if (count == 0 || count % 32 != 0 || count > block_threads)
    x.fault(first, fmt::format("barrier thread count {} is not a multiple of 32 between 32 and "
                               "the block's {} threads",
                               count, block_threads));
  if (mask != (w.lanes & ~w.exited))
    x.fault(first,
            "a named barrier reached by part of a warp: the warp's threads must arrive "
            "together");
  SassBlock::NamedBarrier& b = block.named[id];
  if (id == 0 && block.barrier_arrived != 0)
    x.fault(first,
            "BAR.SYNC 0 with a thread count meets threads waiting at BAR.SYNC 0 without "
            "one: one phase of barrier 0 is one kind");
  if (b.arrived != 0 && b.expected != count)
    x.fault(first, fmt::format("barrier {} counts to {} here, to {} for the warps already arrived",
                               id, count, b.expected));
  ++stats_.barriers;
  b.expected = count;
  b.arrived += 32;
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
}

bool SassExecutor::release_named_barriers(SassBlock& block) const {
  bool released = false;
  for (unsigned id = 0; id < block.named.size(); ++id) {
    const SassBlock::NamedBarrier& b = block.named[id];
    if (b.expected == 0 || b.arrived < b.expected) continue;
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
    w.block_waiting = 0;
  }
  block.barrier_arrived = 0;
  block.barrier_true = 0;
}

}  // namespace warpsim::sass
