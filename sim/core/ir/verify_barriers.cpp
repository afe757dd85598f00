// A barrier that only part of a block can reach deadlocks it: warn where one sits inside the
// region of a branch whose condition varies between threads.
#include <string>

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
  for (std::size_t b = 0; b < ctx.kernel.blocks.size(); ++b) {
    if (!u.under_divergence[b] || !cfg.reachable[b]) continue;
    const BasicBlock& branch_block = ctx.kernel.blocks[u.diverged_by[b]];
    for (const Instruction& inst : ctx.kernel.blocks[b].instructions) {
      if (opcode_info(inst.opcode).latency != LatencyClass::Barrier) continue;
      // Named barriers are for subsets of the block: a branch on the warp picks who arrives.
      if (inst.opcode == Opcode::BarNamed || inst.opcode == Opcode::BarArrive) continue;
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
