// Which side of a branch can reach a barrier before the branch's join. A warp that diverges
// runs one side, then the other; if the side run first stops at a block barrier, the lanes of
// the other side (still to run) never arrive and the block deadlocks, where the GPU, which
// schedules the two sides independently, runs the other side's lanes to their exit. The IR
// executor therefore runs a side that holds a barrier after one that does not, and lets the
// lanes of each side run on to their exit when nothing after the join needs them together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/ir/cfg.hpp"

namespace warpsim::ir {

class BarrierPaths {
 public:
  BarrierPaths(const Kernel& kernel, const Cfg& cfg);
  // Whether some path from block `from` reaches a barrier (block-wide, named or cluster) before
  // it reaches block `join` (Cfg::kExit or kNoPostDominator: anywhere before the kernel ends).
  bool reaches_barrier(std::size_t from, std::size_t join) const {
    return reaches(from, join, kBarrier);
  }
  // Whether the lanes reaching block `from` may run from there to their exit apart: no path
  // from it reaches a barrier or a warp-wide instruction (a shuffle, vote or warp.sync, which
  // would see the lanes apart where the GPU's code has them together).
  bool runs_apart_to_exit(std::size_t from) const {
    return from < cfg_.size() && !reaches(from, Cfg::kExit, kBarrier | kWarpWide);
  }
  // Whether every thread that takes either side of `branch` arrives at the barrier in block
  // `barrier` or exits: no path from a side comes to `join` (the branch's join), back to the
  // branch, or to another barrier without passing `barrier`, save one that runs on to its exit
  // apart (a `return` on one side, the rest reaching the barrier by different paths).
  bool every_thread_arrives(std::size_t branch, std::size_t barrier, std::size_t join) const;

 private:
  static constexpr std::uint8_t kBarrier = 1, kWarpWide = 2;
  bool reaches(std::size_t from, std::size_t stop, std::uint8_t kinds) const;
  const Cfg& cfg_;
  std::vector<std::uint8_t> kinds_;  // per block: kBarrier | kWarpWide it holds
  std::uint8_t present_ = 0;         // the kinds any block holds: most kernels hold no barrier
};

}  // namespace warpsim::ir
