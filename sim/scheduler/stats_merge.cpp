#include "sim/scheduler/stats_merge.hpp"

namespace warpsim::scheduler {

void add_stats(exec::LaunchStats& total, const exec::LaunchStats& part) {
  total.warp_instructions += part.warp_instructions;
  total.thread_instructions += part.thread_instructions;
  total.branch_instructions += part.branch_instructions;
  total.divergent_branches += part.divergent_branches;
  total.barriers += part.barriers;
  for (std::size_t k = 0; k < total.memory.global.size(); ++k) {
    exec::GlobalOpStats& g = total.memory.global[k];
    const exec::GlobalOpStats& p = part.memory.global[k];
    g.requests += p.requests;
    g.sectors += p.sectors;
    g.ideal_sectors += p.ideal_sectors;
    g.lines += p.lines;
  }
  auto add_shared = [](auto& into, const auto& from) {
    for (std::size_t k = 0; k < into.size(); ++k) {
      into[k].instructions += from[k].instructions;
      into[k].wavefronts += from[k].wavefronts;
      into[k].ideal_wavefronts += from[k].ideal_wavefronts;
    }
  };
  add_shared(total.memory.shared, part.memory.shared);
  add_shared(total.memory.dsmem, part.memory.dsmem);
  for (std::size_t i = 0; i < total.per_branch.size(); ++i) {
    exec::BranchStats& b = total.per_branch[i];
    const exec::BranchStats& p = part.per_branch[i];
    b.executions += p.executions;
    b.divergent += p.divergent;
    b.threads_taken += p.threads_taken;
    b.threads_not_taken += p.threads_not_taken;
  }
  for (std::size_t i = 0; i < total.per_memory.size(); ++i) {
    exec::MemoryLineStats& m = total.per_memory[i];
    const exec::MemoryLineStats& p = part.per_memory[i];
    m.executions += p.executions;
    m.requests += p.requests;
    m.sectors += p.sectors;
    m.ideal_sectors += p.ideal_sectors;
    m.wavefronts += p.wavefronts;
    m.ideal_wavefronts += p.ideal_wavefronts;
  }
}

}  // namespace warpsim::scheduler
