// The functional executor: runs every thread of a launch and returns its memory and counters.
// Blocks run cluster by cluster (a cluster's blocks together, so cluster.sync and distributed
// shared memory work); within a cluster each warp runs until it waits at a barrier or finishes,
// or has run kWarpQuantum instructions (below).
// Warps follow the SIMT reconvergence stack: a divergent branch splits the active mask and the
// two sides run one after the other until they meet at the branch's immediate post-dominator.
// Contract: the same inputs give the same memory and stats, whatever the block order option;
// faults of the simulated kernel are thrown as KernelFault, never as crashes.
#pragma once

#include <cstdint>
#include <iterator>
#include <list>

#include "sim/core/exec/check_hook.hpp"
#include "sim/core/exec/fault.hpp"
#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/core/exec/stats.hpp"

namespace warpsim::exec {

struct ExecContext;
struct WarpState;
struct DecodedInst;

// Observes one warp, instruction by instruction (warpsim step).
class TraceHook {
 public:
  virtual ~TraceHook() = default;
  // Called before `inst` executes for the traced warp; may block (waiting for the user).
  virtual void before(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst) = 0;
  // Called once when the traced warp has finished.
  virtual void finished(const ExecContext& ctx, const WarpState& warp) = 0;
};

// Told how far a launch has got, now and then, so a long run can show progress; the callee
// decides whether and when to show it. Contract: never changes what is simulated.
class ProgressHook {
 public:
  static constexpr std::uint64_t kInstructionStep = std::uint64_t{1} << 20;
  virtual ~ProgressHook() = default;
  // Blocks finished so far, of `total`.
  virtual void blocks(std::uint64_t done, std::uint64_t total) = 0;
  // Warp instructions executed so far: at least every kInstructionStep of them.
  virtual void instructions(std::uint64_t executed) = 0;
};

// How the functional executors (this one and the SASS one) share the machine. A warp runs for
// at most kWarpQuantum instructions at a time, so a warp spinning on a flag that another warp
// sets (a handshake through memory, with no barrier) lets the others run. A cluster whose warp
// was cut short so yields to the next cluster, started if need be, up to kThreadsInFlight
// threads in flight (about what an H200 holds: 132 SMs of 2,048), so a block may wait for a
// later block as it may on a GPU that holds both. Kernels whose warps never run that long between
// barriers run cluster by cluster, warp by warp, as they always did; the order depends on
// instruction counts only, so results do not depend on the host.
inline constexpr std::uint64_t kWarpQuantum = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kThreadsInFlight = std::uint64_t{1} << 18;

// The clusters the executors keep in flight at most: those whose threads fit kThreadsInFlight,
// and at least one.
inline std::uint64_t clusters_in_flight(std::uint64_t threads_per_cluster) {
  return threads_per_cluster >= kThreadsInFlight ? 1 : kThreadsInFlight / threads_per_cluster;
}

// Runs a launch's `count` clusters in turns, as above, at most `most` in flight:
// `start(cluster, position)` readies the cluster at that position of the launch in `cluster` (the
// storage a finished cluster left, reused, or a new one); `run_turn(cluster)` runs it until its
// warps are done (true) or one was cut short (false); `finished(n)` follows the n-th cluster to
// finish. A cluster stays where it is while others start and finish (a list's nodes).
template <typename Cluster, typename Start, typename RunTurn, typename Finished>
void run_clusters_in_turns(std::uint64_t count, std::uint64_t most, Start&& start,
                           RunTurn&& run_turn, Finished&& finished) {
  std::list<Cluster> in_flight, spare;
  std::uint64_t next = 0, done = 0;
  auto start_next = [&] {
    if (spare.empty()) spare.emplace_back();
    in_flight.splice(in_flight.end(), spare, spare.begin());
    start(in_flight.back(), next++);
    return std::prev(in_flight.end());
  };
  auto turn = in_flight.end();
  while (done < count) {
    if (turn == in_flight.end()) turn = in_flight.empty() ? start_next() : in_flight.begin();
    if (run_turn(*turn)) {
      const auto after = std::next(turn);
      spare.splice(spare.end(), in_flight, turn);
      turn = after;
      finished(++done);
    } else {
      ++turn;
    }
    // The next cluster starts once one finishes or yields, while there is room for it; the ones
    // in flight take turns after it.
    if (next < count && in_flight.size() < most) turn = start_next();
  }
}

enum class BlockOrder : std::uint8_t { Sequential, Random };

struct ExecOptions {
  std::uint64_t max_warp_instructions = 1'000'000'000;
  BlockOrder order = BlockOrder::Sequential;
  std::uint64_t order_seed = 1;
  TraceHook* trace = nullptr;
  CheckHook* check = nullptr;  // told of accesses and barriers, for the hazard checks
  ProgressHook* progress = nullptr;
  std::uint64_t trace_block = 0;  // linear block index
  std::uint32_t trace_warp = 0;
};

// Host time, kept apart from the stats because it differs from run to run.
struct HostTiming {
  double setup_seconds = 0;     // allocating and filling buffers, decoding
  double simulate_seconds = 0;  // running the threads
};

struct LaunchResult {
  GlobalMemory memory;
  LaunchStats stats;
  HostTiming timing;
};

// Requires a module that verified and a launch whose arguments match the kernel.
LaunchResult execute(const ir::Module& module, const LaunchSpec& launch,
                     const ExecOptions& options);

}  // namespace warpsim::exec
