// Which values may differ between the threads of one block, which branches may therefore split
// a block's threads, and which blocks run while such a split is open.
//
// A value varies when it reads %tid, %laneid or %warpid, the result of an atomic, or another
// varying value; a load varies when its address does. A register written inside the region of a
// varying branch (between the branch and its immediate post-dominator) varies too, since threads
// that skipped the write keep the old value. Parameters, %ntid, %ctaid, %nctaid and the cluster
// registers are the same for every thread of a block.
// Contract: conservative — a branch reported uniform is uniform on every execution. The work is
// bounded: past kMaxUniformityWork block and instruction visits (about 1,800 levels of nested
// varying branches) the analysis stops and says so in `incomplete`.
#pragma once

#include <vector>

#include "sim/core/ir/cfg.hpp"

namespace warpsim::ir {

inline constexpr std::size_t kMaxUniformityWork = 5'000'000;

struct Uniformity {
  bool incomplete = false;           // stopped at kMaxUniformityWork: the fields below are partial
  std::vector<bool> varying_branch;  // per block: its terminator is a varying `br`
  std::vector<bool> under_divergence;  // per block: inside the region of a varying branch
  // For a block under divergence, one varying branch whose region holds it (for messages).
  std::vector<std::size_t> diverged_by;
};

Uniformity analyze_uniformity(const Kernel& kernel, const Cfg& cfg);

}  // namespace warpsim::ir
