// Counters of one launch that do not depend on timing. Plain data; reports are printed elsewhere.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::exec {

struct BranchStats {
  std::uint64_t executions = 0;      // warp-level
  std::uint64_t divergent = 0;       // executions that split the warp
  std::uint64_t threads_taken = 0;   // threads that went to the first target
  std::uint64_t threads_not_taken = 0;
};

struct LaunchStats {
  std::uint64_t warp_instructions = 0;    // each instruction a warp issued with >= 1 active lane
  std::uint64_t thread_instructions = 0;  // summed over active lanes
  std::uint64_t branch_instructions = 0;  // br and jmp, warp-level
  std::uint64_t divergent_branches = 0;   // br executions whose lanes went both ways
  std::uint64_t barriers = 0;             // bar.sync executions, warp-level
  std::vector<BranchStats> per_branch;    // per decoded instruction (used for br only)
};

}  // namespace warpsim::exec
