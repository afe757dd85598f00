#include "sim/core/exec/executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <random>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/exec/state.hpp"
#include "sim/core/exec/warp_runner.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::exec {
namespace {

// The order clusters run in: ascending, or a seeded Fisher-Yates shuffle (written out, since
// std::shuffle's sequence differs between standard libraries).
std::vector<std::uint64_t> cluster_order(std::uint64_t count, const ExecOptions& options) {
  std::vector<std::uint64_t> order(count);
  for (std::uint64_t i = 0; i < count; ++i) order[i] = i;
  if (options.order == BlockOrder::Random) {
    std::mt19937_64 rng(options.order_seed);
    for (std::uint64_t i = count; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  }
  return order;
}

class Executor {
 public:
  Executor(const ir::Module& module, const LaunchSpec& launch, const ExecOptions& options)
      : launch_(launch),
        options_(options),
        memory_(GlobalMemory::allocate(launch)),
        program_(decode(module, launch, memory_)),
        ctx_{program_, launch_, memory_, stats_, blocks_, nullptr} {
    stats_.per_branch.resize(program_.insts.size());
    stats_.per_memory.resize(program_.insts.size());
  }

  LaunchResult run(std::chrono::steady_clock::time_point started) {
    const auto simulating = std::chrono::steady_clock::now();
    const Dim3& c = launch_.cluster;
    const Dim3 clusters{launch_.grid.x / c.x, launch_.grid.y / c.y, launch_.grid.z / c.z};
    blocks_.resize(c.count());
    for (std::uint64_t linear : cluster_order(clusters.count(), options_)) {
      run_cluster(unflatten(linear, clusters));
    }
    const auto done = std::chrono::steady_clock::now();
    const HostTiming timing{std::chrono::duration<double>(simulating - started).count(),
                            std::chrono::duration<double>(done - simulating).count()};
    return LaunchResult{std::move(memory_), std::move(stats_), timing};
  }

 private:
  void run_cluster(const Dim3& cluster) {
    const Dim3& c = launch_.cluster;
    for (std::uint32_t rank = 0; rank < c.count(); ++rank) {
      const Dim3 local = unflatten(rank, c);
      const Dim3 index{cluster.x * c.x + local.x, cluster.y * c.y + local.y,
                       cluster.z * c.z + local.z};
      prepare_block(blocks_[rank], index, rank);
    }
    WarpRunner runner(ctx_, options_);
    for (;;) {
      bool ran = false;
      for (BlockState& b : blocks_) {
        ctx_.block = &b;
        for (WarpState& w : b.warps) {
          if (w.status == WarpStatus::Ready) {
            runner.run(w);
            ran = true;
          }
        }
      }
      const bool released = release_barriers();
      if (all_done()) return;
      if (!ran && !released) report_deadlock();
    }
  }

  void prepare_block(BlockState& b, const Dim3& index, std::uint32_t rank) {
    b.index = index;
    b.linear = flatten(index, launch_.grid);
    b.cluster_rank = rank;
    b.threads = launch_.threads_per_block();
    b.barrier_arrived = 0;
    b.exited_threads = 0;
    b.cluster_arrived = 0;
    b.shared.assign(program_.shared_bytes, 0);
    b.warps.resize(launch_.warps_per_block());
    for (std::uint32_t w = 0; w < b.warps.size(); ++w) prepare_warp(b, b.warps[w], w);
  }

  void prepare_warp(const BlockState& b, WarpState& w, std::uint32_t index) {
    w.index = index;
    const std::uint64_t first = std::uint64_t{index} * 32;
    const std::uint64_t count = std::min<std::uint64_t>(32, b.threads - first);
    w.lanes = count == 32 ? 0xffffffffu : (1u << count) - 1;
    w.exited = 0;
    w.status = WarpStatus::Ready;
    w.traced = options_.trace != nullptr && b.linear == options_.trace_block &&
               index == options_.trace_warp;
    w.stack.assign(1, SimtEntry{0, kExitPc, w.lanes});
    // Registers are not cleared between blocks: the verifier guarantees every register is written
    // on every path before it is read, so stale values are never seen.
    w.regs.resize(std::size_t{program_.register_slots} * 32);
    w.local.assign(program_.local_bytes * 32, 0);
    const Dim3& g = launch_.grid;
    const Dim3& blk = launch_.block;
    const std::uint64_t uniform[] = {blk.x,     blk.y, blk.z, b.index.x, b.index.y,
                                     b.index.z, g.x,   g.y,   g.z};
    std::uint64_t* reg = w.regs.data() + std::size_t{program_.special_base} * 32;
    auto fill = [&](ir::SpecialReg r, std::uint64_t v) {
      std::fill_n(reg + static_cast<std::size_t>(r) * 32, 32, v);
    };
    for (unsigned i = 0; i < 9; ++i) fill(static_cast<ir::SpecialReg>(3 + i), uniform[i]);
    fill(ir::SpecialReg::WarpId, index);
    fill(ir::SpecialReg::ClusterCtaRank, b.cluster_rank);
    fill(ir::SpecialReg::ClusterNctaRank, launch_.cluster.count());
    // Thread indices by counting, not dividing: x runs fastest, then y, then z.
    Dim3 tid = unflatten(first, blk);
    for (unsigned lane = 0; lane < 32; ++lane) {
      reg[static_cast<std::size_t>(ir::SpecialReg::TidX) * 32 + lane] = tid.x;
      reg[static_cast<std::size_t>(ir::SpecialReg::TidY) * 32 + lane] = tid.y;
      reg[static_cast<std::size_t>(ir::SpecialReg::TidZ) * 32 + lane] = tid.z;
      reg[static_cast<std::size_t>(ir::SpecialReg::LaneId) * 32 + lane] = lane;
      if (++tid.x == blk.x) {
        tid.x = 0;
        if (++tid.y == blk.y) {
          tid.y = 0;
          ++tid.z;
        }
      }
    }
  }

  // Releases every barrier that all live threads have reached.
  bool release_barriers() {
    bool released = false;
    std::uint64_t cluster_threads = 0, cluster_done = 0;
    for (BlockState& b : blocks_) {
      cluster_threads += b.threads;
      cluster_done += b.cluster_arrived + b.exited_threads;
      if (b.barrier_arrived != 0 && b.barrier_arrived + b.exited_threads == b.threads) {
        b.barrier_arrived = 0;
        released |= resume(b, WarpStatus::AtBarrier);
      }
    }
    bool cluster_waiting = false;
    for (const BlockState& b : blocks_) cluster_waiting |= b.cluster_arrived != 0;
    if (cluster_waiting && cluster_done == cluster_threads) {
      for (BlockState& b : blocks_) {
        b.cluster_arrived = 0;
        released |= resume(b, WarpStatus::AtClusterBarrier);
      }
    }
    return released;
  }

  static bool resume(BlockState& b, WarpStatus waiting) {
    bool any = false;
    for (WarpState& w : b.warps) {
      if (w.status != waiting) continue;
      ++w.stack.back().pc;
      w.status = WarpStatus::Ready;
      any = true;
    }
    return any;
  }

  bool all_done() const {
    for (const BlockState& b : blocks_) {
      for (const WarpState& w : b.warps) {
        if (w.status != WarpStatus::Done) return false;
      }
    }
    return true;
  }

  // Every warp waits and no barrier can open: name the barrier and the threads it waits for.
  [[noreturn]] void report_deadlock() {
    for (BlockState& b : blocks_) {
      for (const WarpState& w : b.warps) {
        if (w.status != WarpStatus::AtBarrier && w.status != WarpStatus::AtClusterBarrier) continue;
        const std::uint32_t waiting = w.stack.back().mask;
        const std::uint32_t missing = w.lanes & ~w.exited & ~waiting;
        const DecodedInst& at = program_.insts[w.stack.back().pc];
        std::string where = "another warp of the block never arrives";
        if (missing != 0) {
          const auto lane = static_cast<unsigned>(std::countr_zero(missing));
          std::uint32_t line = 0;
          for (const SimtEntry& e : w.stack) {
            if ((e.mask >> lane) & 1u)
              line = program_.insts[std::min<std::size_t>(e.pc, program_.insts.size() - 1)].line;
          }
          where = fmt::format(
              "{} lanes of warp {} (from lane {}) wait on the other side of a "
              "divergent branch, at line {}, and can never arrive",
              std::popcount(missing), w.index, lane, line);
        }
        ctx_.block = &b;
        fault(ctx_, w, at, static_cast<unsigned>(std::countr_zero(waiting)),
              fmt::format("deadlock: {} is reached by {} of the block's {} threads ({} exited); "
                          "{}",
                          ir::spelling(at.opcode), b.barrier_arrived + b.cluster_arrived, b.threads,
                          b.exited_threads, where));
      }
    }
    throw std::logic_error("deadlock without a waiting warp");
  }

  const LaunchSpec& launch_;
  const ExecOptions& options_;
  GlobalMemory memory_;
  Program program_;
  LaunchStats stats_;
  std::vector<BlockState> blocks_;
  ExecContext ctx_;
};

}  // namespace

LaunchResult execute(const ir::Module& module, const LaunchSpec& launch,
                     const ExecOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  return Executor(module, launch, options).run(started);
}

}  // namespace warpsim::exec
