// The SM's block launcher: blocks assigned to free slots start one after another. It starts one
// block every block_launch_cycles; a block of a multi-block cluster takes
// cluster_block_launch_cycles (the cluster is placed as a whole). An SM starts at most
// blocks_starting blocks at once (a further one waits until the oldest one's warps issue), and
// the first that many of a launch come first_wave_block_cycles apart (first_wave_warp_cycles
// per warp for large blocks): the GPU's SMs each start six blocks of 8 warps 31 cycles apart
// and the seventh about 500 cycles after the first; blocks of 1 warp 24 apart, of 32 warps 98
// (validation/h200/timing/probes/warp_clocks.cu).
#pragma once

#include <cstdint>
#include <deque>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/state.hpp"

namespace warpsim::scheduler {

// A block assigned to a slot at `assigned`, whose warps may issue from `start` on.
struct StartingBlock {
  exec::Dim3 index;
  std::uint32_t slot = 0;
  std::uint32_t rank = 0;
  std::uint64_t start = 0;
  std::uint64_t assigned = 0;  // when the SM was given it
};

class BlockLauncher {
 public:
  BlockLauncher(const config::TimingConfig& timing, std::uint32_t warps_per_block)
      : timing_(timing), warps_per_block_(warps_per_block) {}

  // Queues a block assigned at `at` (`in_cluster`: one of a multi-block cluster); returns it.
  const StartingBlock& assign(const exec::Dim3& index, std::uint32_t slot, std::uint32_t rank,
                              bool in_cluster, std::uint64_t at);
  bool empty() const { return starting_.empty(); }
  // The first queued block's start (the queue must not be empty).
  std::uint64_t next_start() const { return starting_.front().start; }
  // Removes and returns the first queued block (the queue must not be empty).
  StartingBlock pop();

 private:
  const config::TimingConfig& timing_;
  std::uint32_t warps_per_block_;
  std::deque<StartingBlock> starting_;
  std::uint64_t free_ = 0;                // when it can start the next block
  std::uint64_t first_wave_started_ = 0;  // the launch's first blocks, started quickly
};

}  // namespace warpsim::scheduler
