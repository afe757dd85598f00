#include "sim/core/exec/block_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::exec {
namespace {

void prepare_warp(const Program& program_, const BlockState& b, WarpState& w, std::uint32_t index) {
  w.index = index;
  const std::uint64_t first = std::uint64_t{index} * kWarpSize;
  const std::uint64_t count = std::min<std::uint64_t>(kWarpSize, b.threads - first);
  w.lanes = count == kWarpSize ? kFullWarpMask : (1u << count) - 1;
  w.exited = 0;
  w.status = WarpStatus::Ready;
  w.traced = false;
  w.sync_epoch = 0;
  w.barrier_result_slot = kNoBarrierResult;
  w.stack.assign(1, SimtEntry{0, kExitPc, w.lanes});
  w.parked.clear();
  // Registers are not cleared between blocks: the verifier guarantees every register is written
  // on every path before it is read, so stale values are never seen.
  w.regs.resize(std::size_t{program_.register_slots} * kWarpSize);
  w.local.assign(program_.local_bytes * kWarpSize, 0);
  w.sources[static_cast<std::size_t>(OperandSource::Pool)] = program_.pool.data();
  w.sources[static_cast<std::size_t>(OperandSource::WarpSpecial)] =
      program_.warp_specials.data() + std::size_t{index} * kWarpSpecials.size() * kWarpSize;
  w.sources[static_cast<std::size_t>(OperandSource::BlockSpecial)] = b.specials.data();
}

// The lanes parked at a bar.sync go on with those that arrived last, at the same instruction
// (WarpRunner::arrive_at_barrier checked it), as one entry. Each group was on its way to a join
// (or, running apart, to its exit): the entry goes to the outermost of those joins, the one
// lowest in the stack, and the joins above it, whose lanes all run in the entry now, go.
void unpark(WarpState& w) {
  SimtEntry merged = w.stack.back();
  w.stack.pop_back();
  auto join_entry = [&](std::uint32_t join) {
    for (std::size_t i = w.stack.size(); i-- > 0;) {
      if (w.stack[i].pc == join) return i;
    }
    return w.stack.size();
  };
  std::size_t keep = w.stack.size();  // entries below the merged one's join stay
  auto take_join = [&](std::uint32_t join) {
    if (join == kExitPc) return;
    const std::size_t at = join_entry(join);
    if (merged.reconverge == kExitPc || at < keep) {
      merged.reconverge = join;
      keep = at + 1;
    }
  };
  take_join(merged.reconverge);
  for (const SimtEntry& p : w.parked) {
    merged.mask |= p.mask;
    take_join(p.reconverge);
  }
  w.stack.resize(std::min(keep, w.stack.size()));
  w.stack.push_back(merged);
  w.parked.clear();
}

bool resume(BlockState& b, WarpStatus waiting) {
  bool any = false;
  for (WarpState& w : b.warps) {
    if (w.status != waiting) continue;
    ++w.stack.back().pc;
    if (!w.parked.empty()) unpark(w);
    w.status = WarpStatus::Ready;
    any = true;
  }
  return any;
}

}  // namespace

void prepare_block(const Program& program_, const LaunchSpec& launch_, BlockState& b,
                   const Dim3& index, std::uint32_t rank) {
  b.index = index;
  b.linear = flatten(index, launch_.grid);
  b.cluster_rank = rank;
  b.threads = launch_.threads_per_block();
  b.barrier_arrived = 0;
  b.barrier_true = 0;
  b.exited_threads = 0;
  b.cluster_arrived = 0;
  b.barrier_epoch = 0;
  b.cluster_epoch = 0;
  b.shared.assign(program_.shared_bytes, 0);
  b.specials.resize(kBlockSpecials.size() * kWarpSize);
  auto fill = [&](ir::SpecialReg r, std::uint64_t v) {
    std::fill_n(b.specials.data() + special_slot(kBlockSpecials, r) * kWarpSize, kWarpSize, v);
  };
  fill(ir::SpecialReg::CtaidX, index.x);
  fill(ir::SpecialReg::CtaidY, index.y);
  fill(ir::SpecialReg::CtaidZ, index.z);
  fill(ir::SpecialReg::ClusterCtaRank, rank);
  b.warps.resize(launch_.warps_per_block());
  for (std::uint32_t w = 0; w < b.warps.size(); ++w) prepare_warp(program_, b, b.warps[w], w);
}

// A bar.red's result, written to each waiting warp's arrived lanes as the barrier opens.
void deliver_barrier_reduction(BlockState& b) {
  std::uint64_t value = b.barrier_true;  // popc
  if (b.barrier_mode == ir::VoteMode::All) value = b.barrier_true == b.barrier_arrived ? 1 : 0;
  if (b.barrier_mode == ir::VoteMode::Any) value = b.barrier_true != 0 ? 1 : 0;
  for (WarpState& w : b.warps) {
    if (w.status != WarpStatus::AtBarrier || w.barrier_result_slot == kNoBarrierResult) continue;
    std::uint64_t* result = w.write(w.barrier_result_slot);
    for_lanes(w.stack.back().mask, [&](unsigned lane) { result[lane] = value; });
    w.barrier_result_slot = kNoBarrierResult;
  }
}

std::uint32_t release_named_barriers(BlockState& b) {
  std::uint32_t released = 0;
  for (std::uint32_t id = 0; id < kNamedBarriers; ++id) {
    NamedBarrierPhase& n = b.named[id];
    if (n.expected == 0 || n.arrived < n.expected) continue;
    n = {};
    ++b.barrier_epoch;
    for (WarpState& w : b.warps) {
      if (w.status != WarpStatus::AtNamedBarrier || w.named_barrier != id) continue;
      ++w.stack.back().pc;
      w.status = WarpStatus::Ready;
      released |= 1u << w.index;
    }
  }
  return released;
}

bool release_block_barrier(BlockState& b) {
  if (b.barrier_arrived == 0 || b.barrier_arrived + b.exited_threads != b.threads) return false;
  if (b.barrier_opcode == ir::Opcode::BarRed) deliver_barrier_reduction(b);
  b.barrier_arrived = 0;
  b.barrier_true = 0;
  ++b.barrier_epoch;
  return resume(b, WarpStatus::AtBarrier);
}

bool release_cluster_barrier(std::vector<BlockState>& cluster) {
  std::uint64_t threads = 0, done = 0;
  bool waiting = false;
  for (const BlockState& b : cluster) {
    threads += b.threads;
    done += b.cluster_arrived + b.exited_threads;
    waiting |= b.cluster_arrived != 0;
  }
  if (!waiting || done != threads) return false;
  bool released = false;
  for (BlockState& b : cluster) {
    b.cluster_arrived = 0;
    ++b.barrier_epoch;
    ++b.cluster_epoch;
    released |= resume(b, WarpStatus::AtClusterBarrier);
  }
  return released;
}

bool release_barriers(std::vector<BlockState>& cluster) {
  bool released = false;
  for (BlockState& b : cluster) {
    released |= release_named_barriers(b) != 0;
    released |= release_block_barrier(b);
  }
  return release_cluster_barrier(cluster) || released;
}

// Every warp waits and no barrier can open: name the barrier and the threads it waits for.
[[noreturn]] void report_deadlock(ExecContext& ctx_, std::vector<BlockState>& blocks_) {
  for (BlockState& b : blocks_) {
    for (const WarpState& w : b.warps) {
      if (w.status == WarpStatus::AtNamedBarrier) {
        const NamedBarrierPhase& n = b.named[w.named_barrier];
        ctx_.block = &b;
        fault(ctx_, w, ctx_.program.insts[w.stack.back().pc],
              static_cast<unsigned>(std::countr_zero(w.stack.back().mask)),
              fmt::format("deadlock: barrier {} waits for {} threads and {} have arrived; no "
                          "other warp of the block can arrive",
                          w.named_barrier, n.expected, n.arrived));
      }
      if (w.status != WarpStatus::AtBarrier && w.status != WarpStatus::AtClusterBarrier) continue;
      const std::uint32_t waiting = w.stack.back().mask | w.parked_lanes();
      const std::uint32_t missing = w.lanes & ~w.exited & ~waiting;
      const DecodedInst& at = ctx_.program.insts[w.stack.back().pc];
      std::string where = "another warp of the block never arrives";
      if (missing != 0) {
        const auto lane = static_cast<unsigned>(std::countr_zero(missing));
        std::uint32_t line = 0;
        for (const SimtEntry& e : w.stack) {
          if ((e.mask >> lane) & 1u)
            line =
                ctx_.program.insts[std::min<std::size_t>(e.pc, ctx_.program.insts.size() - 1)].line;
        }
        where = fmt::format(
            "{} lanes of warp {} (from lane {}) wait on the other side of a "
            "divergent branch, at line {}, and can never arrive",
            std::popcount(missing), w.index, lane, line);
      }
      ctx_.block = &b;
      fault(ctx_, w, at, static_cast<unsigned>(std::countr_zero(waiting)),
            fmt::format("deadlock: {} is reached by {} of the block's {} threads ({} exited); "
                        "{}",
                        ir::spelling(at.opcode), b.barrier_arrived + b.cluster_arrived, b.threads,
                        b.exited_threads, where));
    }
  }
  throw std::logic_error("deadlock without a waiting warp");
}

}  // namespace warpsim::exec
