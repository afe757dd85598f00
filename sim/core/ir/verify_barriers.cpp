// A barrier that only part of a block can reach deadlocks it: warn where one sits inside the
// region of a branch whose condition varies between threads, unless the threads of one side
// of that branch run to their exit without waiting for the others, or every thread of both
// sides comes to that barrier or exits (by different paths: a loop of barriers with a return
// inside).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ir/barrier_paths.hpp"
#include "sim/core/ir/uniformity.hpp"
#include "sim/core/ir/verify_context.hpp"

namespace warpsim::ir {

void verify_barriers(KernelContext& ctx, const Cfg& cfg) {
  const Uniformity u = analyze_uniformity(ctx.kernel, cfg);
  if (u.incomplete) {
    ctx.diags.error(ctx.kernel.loc,
                    "kernel '" + ctx.kernel.name +
                        "': its branches are nested too deeply to analyse for divergence (over " +
                        std::to_string(kMaxUniformityWork) +
                        " block visits, about 1,800 levels of nested branches that depend on "
                        "the thread)");
    return;
  }
  const BarrierPaths paths(ctx.kernel, cfg);
  // Threads on a side of the branch that reaches neither a barrier nor a warp-wide instruction
  // before the kernel ends exit without waiting for the others, and a barrier counts exited
  // threads as arrived (CUDA's `if (i >= n) return;`).
  // Found once per branch: the blocks under one branch share the answer.
  std::vector<std::int8_t> side_exits(ctx.kernel.blocks.size(), -1);
  auto a_side_exits = [&](std::size_t branch) {
    if (side_exits[branch] < 0) {
      side_exits[branch] = 0;
      for (const std::size_t side : cfg.successors[branch]) {
        if (paths.runs_apart_to_exit(side)) side_exits[branch] = 1;
      }
    }
    return side_exits[branch] == 1;
  };
  for (std::size_t b = 0; b < ctx.kernel.blocks.size(); ++b) {
    if (!u.under_divergence[b] || !cfg.reachable[b]) continue;
    const std::size_t diverged_by = u.diverged_by[b];
    if (a_side_exits(diverged_by)) continue;
    const BasicBlock& branch_block = ctx.kernel.blocks[diverged_by];
    // Searched only for a block that holds a barrier, once.
    std::optional<bool> all_arrive;
    for (const Instruction& inst : ctx.kernel.blocks[b].instructions) {
      if (opcode_info(inst.opcode).latency != LatencyClass::Barrier) continue;
      // Named barriers are for subsets of the block: a branch on the warp picks who arrives.
      if (inst.opcode == Opcode::BarNamed || inst.opcode == Opcode::BarArrive) continue;
      if (!all_arrive)
        all_arrive = paths.every_thread_arrives(diverged_by, b, cfg.ipdom[diverged_by]);
      if (*all_arrive) break;
      const Instruction* branch = terminator(branch_block);
      ctx.diags.warning(inst.loc, std::string(spelling(inst.opcode)) +
                                      " may be reached by only some threads: it lies under the "
                                      "branch at line " +
                                      std::to_string(branch ? branch->loc.line : 0) +
                                      ", whose condition differs between threads; threads that "
                                      "never arrive leave the others waiting");
    }
  }
}

}  // namespace warpsim::ir
