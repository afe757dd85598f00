// Hands the launch's blocks to the SMs, as the GPU's work distributor does: single blocks
// breadth first (one per SM per pass, SMs of different GPCs in turn), each SM also holding a
// queue of blocks to refill its slots between intervals; clusters whole to one GPC, the one with
// the most empty SMs (then the most free slots). It keeps the resident clusters' blocks, and
// opens a cluster's barrier once all its blocks have arrived.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/scheduler/sm/sm_model.hpp"

namespace warpsim::scheduler {

// Which SMs make up each GPC: GPCs hold whole TPCs (pairs of SMs), so a GPC always has an even
// number of SMs (but the last when the GPU has an odd count): two-block clusters then fill
// every SM. first_sm[g] is GPC g's first SM; first_sm[gpcs] the SM count.
struct GpcLayout {
  std::vector<std::uint32_t> first_sm;
  std::uint32_t gpcs() const { return static_cast<std::uint32_t>(first_sm.size() - 1); }
};
GpcLayout gpc_layout(const config::GpuConfig& gpu);

class BlockDispatcher {
 public:
  BlockDispatcher(const exec::LaunchSpec& launch, const config::TimingConfig& timing,
                  const GpcLayout& gpcs, std::uint32_t blocks_per_sm,
                  std::vector<std::unique_ptr<SmModel>>& sms);

  // Places what fits at cycle `at` (between intervals).
  void dispatch(std::uint64_t at);
  bool all_placed() const { return next_cluster_ == total_clusters_; }
  // A block of cluster `cluster_id` retired (0: a cluster of one).
  void retire(std::uint64_t cluster_id);
  // Resumes the clusters whose blocks have all arrived at their barrier, no sooner than
  // `boundary`.
  void release_cluster_barriers(std::uint64_t boundary);

 private:
  exec::Dim3 block_index(std::uint64_t cluster, std::uint32_t rank) const;
  void dispatch_single_blocks(std::uint64_t at);
  const std::vector<std::uint32_t>& breadth_order();
  bool place_cluster(std::uint32_t g, std::uint64_t at);

  // The blocks of one multi-block cluster, resident in one GPC.
  struct ResidentCluster {
    std::vector<exec::BlockState> blocks;
    std::vector<std::uint32_t> sms;
    std::uint32_t remaining = 0;
    bool used = false;
  };

  const exec::LaunchSpec& launch_;
  const config::TimingConfig& timing_;
  const GpcLayout& gpcs_;
  std::uint32_t blocks_per_sm_;
  std::uint32_t cluster_size_;
  std::vector<std::unique_ptr<SmModel>>& sms_;
  std::vector<std::uint32_t> order_;
  std::vector<ResidentCluster> pool_;
  std::uint64_t total_clusters_ = 0, next_cluster_ = 0;
};

}  // namespace warpsim::scheduler
