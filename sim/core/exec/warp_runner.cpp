#include "sim/core/exec/warp_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "sim/core/exec/exec_ops.hpp"

namespace warpsim::exec {

bool WarpRunner::run(WarpState& w, std::uint64_t quantum) {
  const std::uint64_t stop = ctx_.stats.warp_instructions + quantum;
  while (w.status == WarpStatus::Ready) {
    if (ctx_.stats.warp_instructions >= stop) return true;
    step(w);
  }
  if (w.traced && w.status == WarpStatus::Done) options_.trace->finished(ctx_, w);
  return false;
}

void WarpRunner::step(WarpState& w) {
  LaunchStats& stats = ctx_.stats;
  SimtEntry& top = w.stack.back();
  const DecodedInst& d = ctx_.program.insts[top.pc];
  if (w.traced) options_.trace->before(ctx_, w, d);
  if (++stats.warp_instructions > checkpoint_) checkpoint(w, d);
  stats.thread_instructions += static_cast<unsigned>(std::popcount(top.mask));
  if (d.exec != nullptr) {
    d.exec(ctx_, w, d, top.mask);
    ++top.pc;
    return;
  }
  switch (d.opcode) {
    case ir::Opcode::Jmp:
      ++stats.branch_instructions;
      jump(w, d.target_true);
      if (!w.parked.empty()) settle_parked(w);
      break;
    case ir::Opcode::Br:
      branch(w, d);
      if (!w.parked.empty()) settle_parked(w);
      break;
    case ir::Opcode::Ret:
      retire(w);
      break;
    case ir::Opcode::BarSync:
    case ir::Opcode::BarRed:
      arrive_at_barrier(w, d, top.mask);
      break;
    case ir::Opcode::BarNamed:
    case ir::Opcode::BarArrive:
      arrive_at_named_barrier(w, d, top.mask);
      break;
    case ir::Opcode::ClusterSync:
      if (ctx_.check != nullptr) ctx_.check->barrier(ctx_, w, d, top.mask);
      ctx_.block->cluster_arrived += static_cast<unsigned>(std::popcount(top.mask));
      w.status = WarpStatus::AtClusterBarrier;
      break;
    default:
      throw std::logic_error("instruction without an executor");
  }
}

void WarpRunner::arrive_at_barrier(WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  BlockState& block = *ctx_.block;
  const bool reduces = d.opcode == ir::Opcode::BarRed;
  if (block.barrier_arrived != 0 &&
      (block.barrier_opcode != d.opcode || (reduces && block.barrier_mode != d.vote_mode))) {
    const std::string waiting =
        block.barrier_opcode == ir::Opcode::BarRed
            ? fmt::format("bar.red.{}", ir::barrier_reduction_name(block.barrier_mode))
            : std::string("bar.sync");
    fault(ctx_, w, d, static_cast<unsigned>(std::countr_zero(mask)),
          fmt::format("this barrier meets {} threads waiting at {}: one barrier phase must be one "
                      "kind of barrier",
                      block.barrier_arrived, waiting));
  }
  if (block.named[0].arrived != 0)
    fault(ctx_, w, d, static_cast<unsigned>(std::countr_zero(mask)),
          fmt::format("this barrier meets {} threads counted at bar.sync 0, {}: one phase of "
                      "barrier 0 is one kind",
                      block.named[0].arrived, block.named[0].expected));
  ++ctx_.stats.barriers;
  block.barrier_opcode = d.opcode;
  block.barrier_mode = d.vote_mode;
  block.barrier_arrived += static_cast<unsigned>(std::popcount(mask));
  if (reduces) {
    const std::uint64_t* p = w.read(d.src[0]);
    for_lanes(mask, [&](unsigned lane) { block.barrier_true += p[lane] != 0 ? 1u : 0u; });
    w.barrier_result_slot = d.dst[0];
  }
  if (!reduces && park_at_barrier(w)) return;
  // The warp waits: every lane is here, parked or arriving now, or some never run (a deadlock).
  std::uint32_t together = mask;
  for (const SimtEntry& p : w.parked) together |= p.pc == w.stack.back().pc ? p.mask : 0;
  if (ctx_.check != nullptr) ctx_.check->barrier(ctx_, w, d, together);
  for (const SimtEntry& p : w.parked) {
    if (p.pc != w.stack.back().pc)
      fault(ctx_, w, d, static_cast<unsigned>(std::countr_zero(mask)),
            fmt::format("lanes {:#010x} of warp {} wait at the barrier at line {} while these "
                        "lanes reach another one: a block's threads must reach the same "
                        "__syncthreads()",
                        p.mask, w.index, ctx_.program.insts[p.pc].line));
  }
  w.status = WarpStatus::AtBarrier;
}

bool WarpRunner::park_at_barrier(WarpState& w) {
  const std::uint32_t arrived = w.stack.back().mask | w.parked_lanes();
  if (w.stack.size() < 2) return false;
  exit_at_returning_join(w, w.stack.size() - 2, arrived);
  if ((w.lanes & ~w.exited & ~arrived) == 0) return false;  // the whole warp is there
  // The lanes still to arrive must run next, apart from those that arrived: the entry below is
  // the other side of a divergent branch, not a join the arrived lanes wait at too.
  const SimtEntry& next = w.stack[w.stack.size() - 2];
  if ((next.mask & arrived) != 0 || next.pc == next.reconverge) return false;
  w.parked.push_back(w.stack.back());
  w.stack.pop_back();
  return true;
}

void WarpRunner::rejoin_parked(WarpState& w) {
  // The lanes left to run reached a join that the parked lanes must reach too: the stack cannot
  // run them on past it, so they wait there with the parked lanes (a deadlock if the barrier
  // needs them, reported as such).
  w.stack.push_back(w.parked.back());
  w.parked.pop_back();
  w.status = WarpStatus::AtBarrier;
}

void WarpRunner::arrive_at_named_barrier(WarpState& w, const DecodedInst& d, std::uint32_t mask) {
  BlockState& block = *ctx_.block;
  const auto first = static_cast<unsigned>(std::countr_zero(mask));
  // ID and COUNT: the same in every lane.
  std::uint64_t value[2];
  for (unsigned k = 0; k < 2; ++k) {
    const std::uint64_t* v = w.read(d.src[k]);
    value[k] = v[first] & 0xffffffffu;
    for_lanes(mask, [&](unsigned lane) {
      if ((v[lane] & 0xffffffffu) != value[k])
        fault(ctx_, w, d, lane,
              fmt::format("the barrier's {} differs between lanes ({} in lane {}, {} in lane {})",
                          k == 0 ? "id" : "thread count", value[k], first, v[lane] & 0xffffffffu,
                          lane));
    });
  }
  const std::uint64_t id = value[0], count = value[1];
  const std::uint32_t live = w.lanes & ~w.exited;
  if (mask != live)
    fault(ctx_, w, d, first,
          fmt::format("a named barrier reached by part of a warp (lanes {:#010x} of {:#010x}): "
                      "the warp's threads must arrive together",
                      mask, live));
  if (const auto why =
          named_arrival_error(block.named, id, count, block.threads, block.barrier_arrived))
    fault(ctx_, w, d, first, *why);
  if (ctx_.check != nullptr) ctx_.check->barrier(ctx_, w, d, mask);
  ++ctx_.stats.barriers;
  arrive(block.named[id], count);
  if (d.opcode == ir::Opcode::BarArrive) {
    ++w.stack.back().pc;
    return;
  }
  w.named_barrier = static_cast<std::uint32_t>(id);
  w.status = WarpStatus::AtNamedBarrier;
}

void WarpRunner::jump(WarpState& w, std::uint32_t target) {
  w.stack.back().pc = target;
  while (w.stack.back().pc == w.stack.back().reconverge) w.stack.pop_back();
}

void WarpRunner::branch(WarpState& w, const DecodedInst& d) {
  LaunchStats& stats = ctx_.stats;
  const std::uint32_t mask = w.stack.back().mask;
  const std::uint64_t* p = w.read(d.src[0]);
  std::uint32_t taken = 0;
  for_lanes(mask, [&](unsigned l) { taken |= (p[l] != 0 ? 1u : 0u) << l; });
  const std::uint32_t not_taken = mask & ~taken;
  BranchStats& bs = stats.per_branch[static_cast<std::size_t>(&d - ctx_.program.insts.data())];
  ++bs.executions;
  bs.threads_taken += static_cast<unsigned>(std::popcount(taken));
  bs.threads_not_taken += static_cast<unsigned>(std::popcount(not_taken));
  ++stats.branch_instructions;
  if (not_taken == 0) return jump(w, d.target_true);
  if (taken == 0) return jump(w, d.target_false);

  ++bs.divergent;
  ++stats.divergent_branches;
  SimtEntry& top = w.stack.back();
  const std::uint32_t join = d.reconverge == kExitPc ? top.reconverge : d.reconverge;
  if (top.reconverge == join) {
    w.stack.pop_back();  // the entry below already waits at `join` with these lanes
  } else {
    top.pc = join;
  }
  // The side pushed last runs first. A side that may reach a barrier before the join runs after
  // one that cannot, so that the other side's lanes have returned, or wait at the join, by the
  // time the barrier counts the block's threads (the GPU schedules the two sides independently).
  SimtEntry sides[] = {{d.target_false, join, not_taken}, {d.target_true, join, taken}};
  const std::uint8_t barrier_sides =
      d.barrier_sides & (DecodedInst::kTakenSideBarrier | DecodedInst::kOtherSideBarrier);
  if (barrier_sides == DecodedInst::kTakenSideBarrier) std::swap(sides[0], sides[1]);
  if ((d.barrier_sides & DecodedInst::kApartAfterJoin) != 0) {
    // Nothing after the join needs the lanes together: each side runs on to its exit, so the
    // barrier counts the first side's lanes as exited. ptxas's code does the same (CUDA's
    // `if (i >= n) { ...; return; }` before a __syncthreads(), the tails merged or not).
    for (SimtEntry& side : sides) {
      side.reconverge = kExitPc;
      w.stack.push_back(side);
    }
    return;
  }
  for (const SimtEntry& side : sides) {
    if (side.pc != join) w.stack.push_back(side);
  }
  // Lanes that branch straight to a join that returns (CUDA's `if (i >= n) return;`) return
  // first, as their own entry, instead of waiting at the join: the GPU's code exits them there
  // (ptxas's @P EXIT).
  if (join != kExitPc && ctx_.program.insts[join].opcode == ir::Opcode::Ret) {
    for (const SimtEntry& side : sides) {
      if (side.pc == join) w.stack.push_back({join, kExitPc, side.mask});
    }
  }
  while (w.stack.back().pc == w.stack.back().reconverge) w.stack.pop_back();
}

void WarpRunner::retire(WarpState& w) {
  remove_exited(w, w.stack.back().mask);
  while (!w.stack.empty() && w.stack.back().pc == w.stack.back().reconverge) w.stack.pop_back();
  if (!w.parked.empty()) {
    settle_parked(w);
  } else if (w.stack.empty()) {
    w.status = WarpStatus::Done;
  }
}

void WarpRunner::settle_parked(WarpState& w) {
  const std::uint32_t parked = w.parked_lanes();
  if (!w.stack.empty()) exit_at_returning_join(w, w.stack.size() - 1, parked);
  if (w.stack.empty() || (w.stack.back().mask & parked) != 0) rejoin_parked(w);
}

void WarpRunner::exit_at_returning_join(WarpState& w, std::size_t entry, std::uint32_t waiting) {
  const SimtEntry& e = w.stack[entry];
  if ((e.mask & waiting) == 0 || ctx_.program.insts[e.pc].opcode != ir::Opcode::Ret) return;
  const std::uint32_t leaving = e.mask & ~waiting;
  if (leaving == 0) return;
  // Their ret is counted as the thread instruction it is; the warp instruction is the one the
  // other lanes execute at the join.
  ctx_.stats.thread_instructions += static_cast<unsigned>(std::popcount(leaving));
  remove_exited(w, leaving);
}

void WarpRunner::remove_exited(WarpState& w, std::uint32_t leaving) {
  w.exited |= leaving;
  ctx_.block->exited_threads += static_cast<unsigned>(std::popcount(leaving));
  for (SimtEntry& e : w.stack) e.mask &= ~leaving;
  std::erase_if(w.stack, [](const SimtEntry& e) { return e.mask == 0; });
}

std::uint64_t WarpRunner::next_checkpoint() const {
  if (options_.progress == nullptr) return options_.max_warp_instructions;
  return std::min(options_.max_warp_instructions,
                  ctx_.stats.warp_instructions + ProgressHook::kInstructionStep);
}

void WarpRunner::checkpoint(const WarpState& w, const DecodedInst& d) {
  if (ctx_.stats.warp_instructions > options_.max_warp_instructions) over_budget(w, d);
  options_.progress->instructions(ctx_.stats.warp_instructions);
  checkpoint_ = next_checkpoint();
}

void WarpRunner::over_budget(const WarpState& w, const DecodedInst& d) {
  fault(ctx_, w, d, static_cast<unsigned>(std::countr_zero(w.stack.back().mask)),
        fmt::format("more than {} warp instructions executed; the kernel may never finish "
                    "(raise the limit with --max-warp-insts)",
                    options_.max_warp_instructions));
}

}  // namespace warpsim::exec
