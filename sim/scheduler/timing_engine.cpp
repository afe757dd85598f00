#include "sim/scheduler/timing_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "sim/core/exec/executor.hpp"
#include "sim/core/ir/loop_unroll.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/scheduler/engine/block_dispatcher.hpp"
#include "sim/scheduler/engine/l2_resolver.hpp"
#include "sim/scheduler/engine/timing_collect.hpp"
#include "sim/scheduler/engine/worker_team.hpp"
#include "sim/scheduler/frontend/ir_frontend.hpp"
#include "sim/scheduler/sm/sm_model.hpp"

namespace warpsim::scheduler {
namespace {

// Each SM's L2 partition: the GPCs split evenly among the partitions (as laid out below).
std::vector<std::uint32_t> l2_partition_of_sms(const config::GpuConfig& gpu) {
  std::vector<std::uint32_t> out(gpu.sm_count);
  const std::uint64_t partitions = std::max<std::uint64_t>(1, gpu.timing.l2_partitions);
  for (std::uint64_t s = 0; s < gpu.sm_count; ++s)
    out[s] = static_cast<std::uint32_t>(s * partitions / gpu.sm_count);
  return out;
}

// One launch: the SMs simulated interval by interval (on the worker team's threads, by GPC),
// the memory system resolving each interval's requests, and the dispatcher handing out blocks.
class TimingEngine {
 public:
  TimingEngine(const FrontendFactory& make_frontend, const exec::LaunchSpec& launch,
               const config::GpuConfig& gpu, const Occupancy& occupancy,
               const TimingOptions& options)
      : launch_(launch),
        gpu_(gpu),
        options_(options),
        memory_(exec::GlobalMemory::allocate(launch)),
        frontend_owned_(make_frontend(memory_)),
        frontend_(*frontend_owned_),
        system_(gpu, l2_partition_of_sms(gpu)),
        gpcs_(gpc_layout(gpu)),
        blocks_per_sm_(static_cast<std::uint32_t>(occupancy.blocks_per_sm)),
        threads_(frontend_.needs_one_thread()
                     ? 1
                     : std::max<std::uint32_t>(1, std::min(options.threads, gpcs_.gpcs()))),
        dispatcher_(launch, gpu.timing, gpcs_, blocks_per_sm_, sms_),
        resolver_(system_, sms_, threads_) {
    SmSetup setup;
    setup.frontend = &frontend_;
    setup.timing = &gpu.timing;
    setup.warps_per_block = static_cast<std::uint32_t>(launch.warps_per_block());
    setup.sub_partitions = static_cast<std::uint32_t>(gpu.sub_partitions);
    setup.blocks_per_sm = blocks_per_sm_;
    const std::uint64_t shared = launch_shared_carveout(gpu, occupancy);
    setup.l1_bytes = gpu.timing.l1_bytes > shared ? gpu.timing.l1_bytes - shared : 0;
    setup.l2_flushed = options.flush_l2;
    const std::vector<std::uint32_t>& recorded = options.record_sms;
    setup.activity_budget = std::max<std::size_t>(
        kMinActivityBudget, options.activity_budget / std::max<std::size_t>(1, recorded.size()));
    for (std::uint32_t s = 0; s < gpu.sm_count; ++s) {
      setup.record_activity = std::find(recorded.begin(), recorded.end(), s) != recorded.end();
      sms_.push_back(std::make_unique<SmModel>(setup, s));
    }
    // From a flushed L2 every buffer is read from DRAM the first time.
    if (!options.flush_l2) resolver_.preload(memory_);
  }

  TimingResult run(std::chrono::steady_clock::time_point started) {
    const auto simulating = std::chrono::steady_clock::now();
    const std::uint64_t interval = gpu_.timing.l2_latency;
    std::atomic<std::uint64_t> end{0};
    // The SMs of whole GPCs per share: a cluster's blocks are all simulated by one thread.
    const std::function<void(std::uint32_t)> simulate = [&](std::uint32_t k) {
      const std::uint32_t first = gpcs_.first_sm[k * gpcs_.gpcs() / threads_];
      const std::uint32_t last = gpcs_.first_sm[(k + 1) * gpcs_.gpcs() / threads_];
      for (std::uint32_t s = first; s < last; ++s) {
        if (sms_[s]->idle()) {
          sms_[s]->pass_idle_interval(end.load());
          continue;
        }
        // The answers the L2 gave between intervals reach each SM first.
        sms_[s]->complete_requests();
        sms_[s]->run_until(end.load());
      }
    };
    const std::function<void(std::uint32_t)> resolve = [&](std::uint32_t k) {
      resolver_.resolve_share(k, threads_, end.load());
    };
    dispatcher_.dispatch(0);
    {
      WorkerTeam team(threads_);
      for (std::uint64_t t = 0;; t += interval) {
        end.store(t + interval);
        team.run(simulate);
        ++intervals_;
        check_interval(t + interval);
        if (resolver_.in_parallel(interval_requests_))
          team.run(resolve);
        else
          resolver_.resolve_all(t + interval);
        after_interval(t + interval);
        if (finished()) break;
      }
    }
    const auto done = std::chrono::steady_clock::now();
    TimingResult result;
    result.timing = collect_timing(sms_, system_.counters(), gpcs_, gpu_, options_);
    result.timing.intervals = intervals_;
    result.timing.threads = threads_;
    result.timing.blocks_per_sm = blocks_per_sm_;
    result.functional.memory = std::move(memory_);
    result.functional.stats = merge_stats();
    result.functional.timing = {std::chrono::duration<double>(simulating - started).count(),
                                std::chrono::duration<double>(done - simulating).count()};
    return result;
  }

 private:
  // After the SMs' share of the interval that ends at `boundary`: a kernel fault, the
  // instruction budget or the cycle limit stops it.
  void check_interval(std::uint64_t boundary) {
    for (auto& sm : sms_) {
      if (sm->fault()) throw *sm->fault();
    }
    std::uint64_t executed = 0;
    std::size_t requests = 0;
    for (auto& sm : sms_) {
      executed += sm->stats().warp_instructions;
      requests += sm->requests().size();
    }
    if (executed > options_.max_warp_instructions) {
      over_budget(
          fmt::format("more than {} warp instructions executed; the kernel may never "
                      "finish (raise the limit with --max-warp-insts)",
                      options_.max_warp_instructions));
    }
    if (boundary > options_.max_cycles) {
      over_budget(
          fmt::format("more than {} cycles simulated; the kernel may never finish (raise "
                      "the limit with --max-cycles)",
                      options_.max_cycles));
    }
    if (options_.progress != nullptr) {
      options_.progress->blocks(blocks_done_, launch_.blocks());
      options_.progress->instructions(executed);
    }
    interval_requests_ = requests;
  }

  // After the L2 has answered an interval's requests: blocks retire and start, cluster barriers
  // open, and a launch that can never finish is reported.
  void after_interval(std::uint64_t boundary) {
    for (auto& sm : sms_) {
      for (std::uint64_t id : sm->take_retired()) {
        dispatcher_.retire(id);
        ++blocks_done_;
      }
    }
    dispatcher_.release_cluster_barriers(boundary);
    dispatcher_.dispatch(boundary);
    check_deadlock();
  }

  [[noreturn]] void over_budget(const std::string& what) {
    for (auto& sm : sms_) {
      std::vector<exec::BlockState>* cluster = sm->waiting_cluster();
      if (cluster == nullptr) continue;
      frontend_.over_budget(sm->stats(), *cluster, what);
    }
    throw std::logic_error(what + ", with no resident block");
  }

  bool finished() const {
    if (!dispatcher_.all_placed() || interval_requests_ != 0) return false;
    return std::none_of(sms_.begin(), sms_.end(), [](const auto& sm) { return sm->busy(); });
  }

  // No warp anywhere can ever run again: some block waits at a barrier that cannot open.
  void check_deadlock() {
    if (interval_requests_ != 0) return;
    bool busy = false;
    for (auto& sm : sms_) {
      if (sm->issued_in_interval() || sm->has_runnable_warp()) return;
      busy |= sm->busy();
    }
    if (!busy) return;
    for (auto& sm : sms_) {
      std::vector<exec::BlockState>* cluster = sm->waiting_cluster();
      if (cluster != nullptr) frontend_.deadlock(sm->stats(), *cluster);
    }
  }

  exec::LaunchStats merge_stats() {
    exec::LaunchStats total;
    total.per_branch.resize(frontend_.instructions().size());
    total.per_memory.resize(frontend_.instructions().size());
    for (auto& sm : sms_) exec::add_launch_stats(total, sm->stats());
    return total;
  }

  const exec::LaunchSpec& launch_;
  const config::GpuConfig& gpu_;
  const TimingOptions& options_;
  exec::GlobalMemory memory_;
  std::unique_ptr<Frontend> frontend_owned_;
  const Frontend& frontend_;
  memory::MemorySystem system_;
  GpcLayout gpcs_;
  std::uint32_t blocks_per_sm_;
  std::uint32_t threads_;
  std::vector<std::unique_ptr<SmModel>> sms_;
  BlockDispatcher dispatcher_;
  L2Resolver resolver_;
  std::uint64_t intervals_ = 0;
  std::uint64_t blocks_done_ = 0;  // for progress reports
  std::size_t interval_requests_ = 0;
};

// The IR executor as the frontend of `launch` of `module`.
FrontendFactory ir_frontend(const ir::Module& module, const exec::LaunchSpec& launch,
                            const config::GpuConfig& gpu, const TimingOptions& options) {
  return [&module, &launch, &gpu, &options](exec::GlobalMemory& memory) {
    return std::make_unique<IrFrontend>(module, launch, memory, gpu.timing,
                                        options.max_warp_instructions);
  };
}

}  // namespace

TimingResult simulate_timing_with(const FrontendFactory& make_frontend,
                                  const exec::LaunchSpec& launch, const config::GpuConfig& gpu,
                                  const Occupancy& occupancy, const TimingOptions& options) {
  if (occupancy.blocks_per_sm == 0) throw std::invalid_argument("no block fits on an SM");
  return TimingEngine(make_frontend, launch, gpu, occupancy, options)
      .run(std::chrono::steady_clock::now());
}

TimingResult simulate_timing(const ir::Module& module, const exec::LaunchSpec& launch,
                             const config::GpuConfig& gpu, const Occupancy& occupancy,
                             const TimingOptions& options) {
  if (occupancy.blocks_per_sm == 0) throw std::invalid_argument("no block fits on an SM");
  const auto started = std::chrono::steady_clock::now();
  // The GPU runs the kernel as the compiler emits it: counted loops unrolled.
  ir::Kernel unrolled = *launch.kernel;
  const std::size_t loops =
      ir::unroll_loops(unrolled, static_cast<std::uint32_t>(gpu.timing.unroll_factor));
  if (loops == 0)
    return TimingEngine(ir_frontend(module, launch, gpu, options), launch, gpu, occupancy, options)
        .run(started);

  // The kernel as written gives the counters (and any fault, located in its own lines); the
  // unrolled one computes the same values, so its memory is the kernel's result.
  exec::ExecOptions as_written_options;
  as_written_options.max_warp_instructions = options.max_warp_instructions;
  exec::LaunchResult as_written = exec::execute(module, launch, as_written_options);
  ir::Module compiled = module;
  ir::Kernel* kernel = nullptr;
  for (ir::Kernel& k : compiled.kernels) {
    if (k.name == unrolled.name) {
      k = std::move(unrolled);
      kernel = &k;
      break;  // `unrolled` is moved from: compare no further kernel with it
    }
  }
  exec::LaunchSpec compiled_launch = launch;
  compiled_launch.kernel = kernel;
  TimingResult result = TimingEngine(ir_frontend(compiled, compiled_launch, gpu, options),
                                     compiled_launch, gpu, occupancy, options)
                            .run(started);
  result.functional.stats = std::move(as_written.stats);
  result.timing.unrolled_loops = loops;
  return result;
}

}  // namespace warpsim::scheduler
