#include "sim/scheduler/engine/block_dispatcher.hpp"

#include <algorithm>

#include "sim/core/exec/block_setup.hpp"

namespace warpsim::scheduler {

GpcLayout gpc_layout(const config::GpuConfig& gpu) {
  const auto gpcs = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(gpu.timing.gpcs, std::max<std::uint64_t>(1, gpu.sm_count / 2)));
  const std::uint64_t tpcs = gpu.sm_count / 2;
  GpcLayout out;
  for (std::uint32_t g = 0; g < gpcs; ++g)
    out.first_sm.push_back(static_cast<std::uint32_t>(2 * (g * tpcs / gpcs)));
  out.first_sm.push_back(static_cast<std::uint32_t>(gpu.sm_count));
  return out;
}

BlockDispatcher::BlockDispatcher(const exec::LaunchSpec& launch, const config::TimingConfig& timing,
                                 const GpcLayout& gpcs, std::uint32_t blocks_per_sm,
                                 std::vector<std::unique_ptr<SmModel>>& sms)
    : launch_(launch),
      timing_(timing),
      gpcs_(gpcs),
      blocks_per_sm_(blocks_per_sm),
      cluster_size_(static_cast<std::uint32_t>(launch.cluster.count())),
      sms_(sms) {
  const exec::Dim3& c = launch_.cluster;
  total_clusters_ = (launch_.grid.x / c.x) * (launch_.grid.y / c.y) * (launch_.grid.z / c.z);
  // At most every SM slot holds a block of a different cluster.
  const std::uint64_t sm_count = gpcs_.first_sm.back();
  if (cluster_size_ > 1) pool_.resize(sm_count * blocks_per_sm_ / cluster_size_ + 1);
}

exec::Dim3 BlockDispatcher::block_index(std::uint64_t cluster, std::uint32_t rank) const {
  const exec::Dim3& c = launch_.cluster;
  const exec::Dim3 shape{launch_.grid.x / c.x, launch_.grid.y / c.y, launch_.grid.z / c.z};
  const exec::Dim3 at = exec::unflatten(cluster, shape);
  const exec::Dim3 local = exec::unflatten(rank, c);
  return {at.x * c.x + local.x, at.y * c.y + local.y, at.z * c.z + local.z};
}

void BlockDispatcher::retire(std::uint64_t cluster_id) {
  if (cluster_id == 0) return;
  ResidentCluster& c = pool_[cluster_id - 1];
  if (--c.remaining == 0) c.used = false;
}

void BlockDispatcher::release_cluster_barriers(std::uint64_t boundary) {
  for (std::size_t i = 0; i < pool_.size(); ++i) {
    ResidentCluster& c = pool_[i];
    std::uint64_t last_arrival = 0;
    for (const exec::BlockState& b : c.blocks)
      last_arrival = std::max(last_arrival, b.cluster_arrival_cycle);
    if (!c.used || !exec::release_cluster_barrier(c.blocks)) continue;
    const std::uint64_t release =
        std::max(boundary, last_arrival + timing_.cluster_barrier_latency);
    for (std::uint32_t s : c.sms) sms_[s]->resume_cluster(i + 1, release);
  }
}

void BlockDispatcher::dispatch_single_blocks(std::uint64_t at) {
  for (auto& sm : sms_) sm->start_queued_blocks(at);
  for (bool placed = true; placed && next_cluster_ < total_clusters_;) {
    placed = false;
    for (std::uint32_t s : breadth_order()) {
      if (next_cluster_ == total_clusters_) break;
      if (sms_[s]->free_slots() == 0) continue;
      sms_[s]->launch(block_index(next_cluster_++, 0), nullptr, 0, 0, at);
      placed = true;
    }
  }
  // While plenty remain, each SM also holds a queue to refill its slots between intervals.
  const std::uint64_t capacity = sms_.size() * blocks_per_sm_;
  for (std::uint32_t s : breadth_order()) {
    while (total_clusters_ - next_cluster_ > capacity && sms_[s]->queued() < blocks_per_sm_)
      sms_[s]->queue(block_index(next_cluster_++, 0));
  }
}

void BlockDispatcher::dispatch(std::uint64_t at) {
  if (cluster_size_ == 1) {
    dispatch_single_blocks(at);
    return;
  }
  const std::uint32_t gpcs = gpcs_.gpcs();
  while (next_cluster_ < total_clusters_) {
    std::uint32_t best = gpcs;
    std::pair<std::uint64_t, std::uint64_t> best_score{0, 0};
    for (std::uint32_t g = 0; g < gpcs; ++g) {
      std::pair<std::uint64_t, std::uint64_t> score{0, 0};
      for (std::uint32_t s = gpcs_.first_sm[g]; s < gpcs_.first_sm[g + 1]; ++s) {
        score.first += sms_[s]->free_slots() == blocks_per_sm_ ? 1u : 0u;
        score.second += sms_[s]->free_slots();
      }
      if (score.second >= cluster_size_ && (best == gpcs || score > best_score)) {
        best = g;
        best_score = score;
      }
    }
    if (best == gpcs || !place_cluster(best, at)) break;
  }
}

const std::vector<std::uint32_t>& BlockDispatcher::breadth_order() {
  if (!order_.empty()) return order_;
  for (std::uint32_t k = 0; order_.size() < sms_.size(); ++k) {
    for (std::uint32_t g = 0; g < gpcs_.gpcs(); ++g) {
      const std::uint32_t s = gpcs_.first_sm[g] + k;
      if (s < gpcs_.first_sm[g + 1]) order_.push_back(s);
    }
  }
  return order_;
}

bool BlockDispatcher::place_cluster(std::uint32_t g, std::uint64_t at) {
  // The emptiest SMs of the GPC first, one block each, then doubling up.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> free;  // (free slots, SM)
  for (std::uint32_t s = gpcs_.first_sm[g]; s < gpcs_.first_sm[g + 1]; ++s)
    free.emplace_back(sms_[s]->free_slots(), s);
  std::stable_sort(free.begin(), free.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t round = 0; chosen.size() < cluster_size_ && round < blocks_per_sm_; ++round) {
    for (auto& [slots, sm] : free) {
      if (chosen.size() == cluster_size_) break;
      if (slots == 0) continue;
      --slots;
      chosen.push_back(sm);
    }
  }
  if (chosen.size() < cluster_size_) return false;
  const auto slot =
      std::find_if(pool_.begin(), pool_.end(), [](const ResidentCluster& c) { return !c.used; });
  if (slot == pool_.end()) return false;
  slot->used = true;
  slot->remaining = cluster_size_;
  slot->sms = chosen;
  slot->blocks.resize(cluster_size_);
  const std::uint64_t id = static_cast<std::uint64_t>(slot - pool_.begin()) + 1;
  const std::uint64_t cluster = next_cluster_++;
  for (std::uint32_t rank = 0; rank < cluster_size_; ++rank) {
    sms_[chosen[rank]]->launch(block_index(cluster, rank), &slot->blocks, rank, id, at);
  }
  return true;
}

}  // namespace warpsim::scheduler
