// The timing model of one launch: every SM simulated cycle by cycle (idle cycles skipped),
// blocks handed out as slots free, L1 misses resolved in the shared L2 and DRAM between
// intervals. SMs are spread over threads by GPC (a cluster's blocks stay in one GPC, so the
// thread that simulates a block also simulates its cluster's); between intervals one thread
// resolves memory, atomics, cluster barriers and dispatch in a fixed order, so every statistic
// is the same on any number of threads.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/core/ir/module.hpp"
#include "sim/scheduler/activity.hpp"
#include "sim/scheduler/frontend/instruction_source.hpp"
#include "sim/scheduler/occupancy.hpp"
#include "sim/scheduler/timing_types.hpp"

namespace warpsim::scheduler {

struct TimingOptions {
  std::uint32_t threads = 1;
  std::uint64_t max_warp_instructions = 1'000'000'000;
  // Simulated cycles after which a launch that has not finished is stopped as one that may never
  // finish (a warp spinning on a flag nobody sets costs little host time per cycle, but many).
  std::uint64_t max_cycles = 100'000'000;
  // The SMs whose activity (warp states, blocks, counters) is recorded for a picture or a
  // trace, and the spans they keep at most in all (each its share, at least kMinActivityBudget).
  std::vector<std::uint32_t> record_sms;
  std::size_t activity_budget = 600'000;
  // The L2 starts empty, the launch's buffers, code and constants in DRAM (Nsight Compute's
  // default cache control, which flushes the caches before each pass; the command line's
  // default too), rather than as the host's copies leave them (the calibration's state).
  bool flush_l2 = false;
  exec::ProgressHook* progress = nullptr;  // told of blocks done and instructions, per interval
};

struct TimingStats {
  std::uint64_t elapsed_cycles = 0;  // gpc__cycles_elapsed.max: launch overhead included
  std::uint64_t kernel_cycles = 0;   // first block start to last block end
  double sm_active_cycles_avg = 0;   // sm__cycles_active.avg
  double achieved_occupancy = 0;     // sm__warps_active.avg.pct_of_peak_sustained_active, in %
  double ipc = 0;                    // sm__inst_executed.avg.per_cycle_active
  std::uint64_t issued = 0;          // instructions of the kernel as timed (unrolled loops)
  std::size_t unrolled_loops = 0;    // loops the compiler model unrolled (timing.unroll_factor)
  std::uint64_t compiled_extra = 0;  // the compiled code's address and S2R instructions, issued too
  std::uint64_t l1_sector_lookups = 0, l1_sector_hits = 0;
  std::uint64_t l2_sector_lookups = 0, l2_sector_hits = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  std::array<std::uint64_t, kWarpStates> warp_state_cycles{};
  std::uint64_t intervals = 0;
  std::uint32_t threads = 1;
  bool l2_flushed = false;  // the launch started from an empty L2 (TimingOptions::flush_l2)
  std::uint64_t blocks_per_sm = 0;
  std::vector<SmActivity> activity;  // of TimingOptions::record_sms, in SM order
};

struct TimingResult {
  exec::LaunchResult functional;
  TimingStats timing;
};

// Requires a verified module, a matching launch and the launch's occupancy on `gpu` (at least
// one block per SM). Kernel faults are thrown as exec::KernelFault.
TimingResult simulate_timing(const ir::Module& module, const exec::LaunchSpec& launch,
                             const config::GpuConfig& gpu, const Occupancy& occupancy,
                             const TimingOptions& options);

// The same with another instruction source: `make_frontend` is given the launch's buffers.
using FrontendFactory = std::function<std::unique_ptr<Frontend>(exec::GlobalMemory& memory)>;
TimingResult simulate_timing_with(const FrontendFactory& make_frontend,
                                  const exec::LaunchSpec& launch, const config::GpuConfig& gpu,
                                  const Occupancy& occupancy, const TimingOptions& options);

}  // namespace warpsim::scheduler
