#include "sim/scheduler/sm/block_launcher.hpp"

#include <algorithm>

namespace warpsim::scheduler {

const StartingBlock& BlockLauncher::assign(const exec::Dim3& index, std::uint32_t slot,
                                           std::uint32_t rank, bool in_cluster, std::uint64_t at) {
  const std::uint64_t limit = timing_.blocks_starting;
  std::uint64_t start = std::max(at, free_);
  if (starting_.size() >= limit) start = std::max(start, starting_[starting_.size() - limit].start);
  const bool first_wave = !in_cluster && first_wave_started_ < limit;
  if (first_wave) ++first_wave_started_;
  free_ = start + (in_cluster   ? timing_.cluster_block_launch_cycles
                   : first_wave ? std::max(timing_.first_wave_block_cycles,
                                           timing_.first_wave_warp_cycles * warps_per_block_)
                                : timing_.block_launch_cycles);
  starting_.push_back({index, slot, rank, start + timing_.block_launch_latency, at});
  return starting_.back();
}

StartingBlock BlockLauncher::pop() {
  const StartingBlock next = starting_.front();
  starting_.pop_front();
  return next;
}

}  // namespace warpsim::scheduler
