#include "sim/core/exec/executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "sim/core/exec/block_setup.hpp"
#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/exec/state.hpp"
#include "sim/core/exec/warp_runner.hpp"

namespace warpsim::exec {
namespace {

// The order clusters run in: ascending, or a seeded pseudo-random permutation. The permutation
// is computed per position (a Feistel network over the next power of four, walking the cycle
// until it lands inside the range), so memory stays constant in the grid size: a list of
// 2^31 clusters would take 16 GB.
class ClusterOrder {
 public:
  ClusterOrder(std::uint64_t count, const ExecOptions& options)
      : count_(count), random_(options.order == BlockOrder::Random) {
    if (!random_) return;
    while ((std::uint64_t{1} << (2 * half_bits_)) < count) ++half_bits_;
    std::mt19937_64 rng(options.order_seed);  // its sequence is fixed by the C++ standard
    for (std::uint64_t& k : keys_) k = rng();
  }

  std::uint64_t operator[](std::uint64_t position) const {
    if (!random_) return position;
    std::uint64_t x = position;
    do {
      x = permute(x);
    } while (x >= count_);
    return x;
  }

 private:
  std::uint64_t permute(std::uint64_t x) const {
    const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
    std::uint64_t left = x >> half_bits_, right = x & mask;
    for (const std::uint64_t key : keys_) {
      std::uint64_t h = (right + key) * 0x9E3779B97F4A7C15ull;
      h ^= h >> 29;
      const std::uint64_t next = left ^ (h & mask);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }

  std::uint64_t count_;
  bool random_;
  unsigned half_bits_ = 1;
  std::uint64_t keys_[4] = {};
};

class Executor {
 public:
  Executor(const ir::Module& module, const LaunchSpec& launch, const ExecOptions& options)
      : launch_(launch),
        options_(options),
        memory_(GlobalMemory::allocate(launch)),
        program_(decode(module, launch, memory_)),
        ctx_{program_, launch_, memory_, stats_, nullptr, nullptr} {
    ctx_.check = options.check;
    stats_.per_branch.resize(program_.insts.size());
    stats_.per_memory.resize(program_.insts.size());
  }

  LaunchResult run(std::chrono::steady_clock::time_point started) {
    const auto simulating = std::chrono::steady_clock::now();
    const Dim3& c = launch_.cluster;
    const Dim3 clusters{launch_.grid.x / c.x, launch_.grid.y / c.y, launch_.grid.z / c.z};
    const ClusterOrder order(clusters.count(), options_);
    run_clusters_in_turns<std::vector<BlockState>>(
        clusters.count(), clusters_in_flight(c.count() * launch_.block.count()),
        [&](std::vector<BlockState>& blocks, std::uint64_t position) {
          blocks.resize(c.count());
          start_cluster(blocks, unflatten(order[position], clusters));
        },
        [&](std::vector<BlockState>& blocks) { return run_turn(blocks); },
        [&](std::uint64_t finished) {
          if (options_.progress == nullptr) return;
          options_.progress->blocks(finished * c.count(), launch_.blocks());
          options_.progress->instructions(stats_.warp_instructions);
        });
    const auto done = std::chrono::steady_clock::now();
    const HostTiming timing{std::chrono::duration<double>(simulating - started).count(),
                            std::chrono::duration<double>(done - simulating).count()};
    return LaunchResult{std::move(memory_), std::move(stats_), timing};
  }

 private:
  void start_cluster(std::vector<BlockState>& blocks, const Dim3& cluster) {
    const Dim3& c = launch_.cluster;
    ctx_.cluster = &blocks;
    for (std::uint32_t rank = 0; rank < c.count(); ++rank) {
      const Dim3 local = unflatten(rank, c);
      const Dim3 index{cluster.x * c.x + local.x, cluster.y * c.y + local.y,
                       cluster.z * c.z + local.z};
      prepare_block(blocks[rank], index, rank);
    }
  }

  // Runs the cluster's warps, then opens the barriers that can open, until every warp is done
  // (true) or a warp ran a whole quantum (false: the cluster yields to the others).
  bool run_turn(std::vector<BlockState>& blocks) {
    ctx_.cluster = &blocks;
    WarpRunner runner(ctx_, options_);
    for (;;) {
      bool ran = false, cut = false;
      for (BlockState& b : blocks) {
        ctx_.block = &b;
        for (WarpState& w : b.warps) {
          if (w.status == WarpStatus::Ready) {
            cut = runner.run(w, kWarpQuantum) || cut;
            ran = true;
          }
        }
      }
      const bool released = exec::release_barriers(blocks);
      if (all_done(blocks)) return true;
      if (!ran && !released) exec::report_deadlock(ctx_, blocks);
      if (cut) return false;
    }
  }

  void prepare_block(BlockState& b, const Dim3& index, std::uint32_t rank) {
    exec::prepare_block(program_, launch_, b, index, rank);
    for (WarpState& w : b.warps) {
      w.traced = options_.trace != nullptr && b.linear == options_.trace_block &&
                 w.index == options_.trace_warp;
    }
    if (ctx_.check != nullptr) ctx_.check->block_started(ctx_, b);
  }

  static bool all_done(const std::vector<BlockState>& blocks) {
    for (const BlockState& b : blocks) {
      for (const WarpState& w : b.warps) {
        if (w.status != WarpStatus::Done) return false;
      }
    }
    return true;
  }

  const LaunchSpec& launch_;
  const ExecOptions& options_;
  GlobalMemory memory_;
  Program program_;
  LaunchStats stats_;
  ExecContext ctx_;
};

}  // namespace

LaunchResult execute(const ir::Module& module, const LaunchSpec& launch,
                     const ExecOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  return Executor(module, launch, options).run(started);
}

}  // namespace warpsim::exec
