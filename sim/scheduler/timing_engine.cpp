#include "sim/scheduler/timing_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <thread>

#include "sim/core/exec/block_setup.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/core/ir/loop_unroll.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/scheduler/inst_timing.hpp"
#include "sim/scheduler/request_order.hpp"
#include "sim/scheduler/spin_barrier.hpp"

namespace warpsim::scheduler {
namespace {

// The blocks of one multi-block cluster, resident in one GPC.
struct ResidentCluster {
  std::vector<exec::BlockState> blocks;
  std::vector<std::uint32_t> sms;
  std::uint32_t remaining = 0;
  bool used = false;
};

// Each SM's L2 partition: the GPCs split evenly among the partitions (as laid out below).
std::vector<std::uint32_t> l2_partition_of_sms(const config::GpuConfig& gpu) {
  std::vector<std::uint32_t> out(gpu.sm_count);
  const std::uint64_t partitions = std::max<std::uint64_t>(1, gpu.timing.l2_partitions);
  for (std::uint64_t s = 0; s < gpu.sm_count; ++s)
    out[s] = static_cast<std::uint32_t>(s * partitions / gpu.sm_count);
  return out;
}

class TimingEngine {
 public:
  TimingEngine(const ir::Module& module, const exec::LaunchSpec& launch,
               const config::GpuConfig& gpu, const Occupancy& occupancy,
               const TimingOptions& options)
      : launch_(launch),
        gpu_(gpu),
        options_(options),
        memory_(exec::GlobalMemory::allocate(launch)),
        program_(exec::decode(module, launch, memory_)),
        insts_(classify(program_, gpu.timing)),
        system_(gpu, l2_partition_of_sms(gpu)),
        blocks_per_sm_(static_cast<std::uint32_t>(occupancy.blocks_per_sm)),
        cluster_size_(static_cast<std::uint32_t>(launch.cluster.count())) {
    total_clusters_ = cluster_grid();
    SmSetup setup;
    setup.program = &program_;
    setup.launch = &launch_;
    setup.memory = &memory_;
    setup.timing = &gpu.timing;
    setup.insts = &insts_;
    setup.sub_partitions = static_cast<std::uint32_t>(gpu.sub_partitions);
    setup.blocks_per_sm = blocks_per_sm_;
    const std::uint64_t shared = launch_shared_carveout(gpu, occupancy);
    setup.l1_bytes = gpu.timing.l1_bytes > shared ? gpu.timing.l1_bytes - shared : 0;
    setup.max_warp_instructions = options.max_warp_instructions;
    setup.l2_flushed = options.flush_l2;
    for (std::uint32_t s = 0; s < gpu.sm_count; ++s) {
      setup.timeline = options.timeline && s == options.timeline_sm;
      sms_.push_back(std::make_unique<SmModel>(setup, s));
    }
    const auto gpcs = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        gpu.timing.gpcs, std::max<std::uint64_t>(1, gpu.sm_count / 2)));
    // GPCs hold whole TPCs (pairs of SMs), so a GPC always has an even number of SMs (but the
    // last when the GPU has an odd count): two-block clusters then fill every SM.
    const std::uint64_t tpcs = gpu.sm_count / 2;
    for (std::uint32_t g = 0; g < gpcs; ++g)
      gpc_first_sm_.push_back(static_cast<std::uint32_t>(2 * (g * tpcs / gpcs)));
    gpc_first_sm_.push_back(static_cast<std::uint32_t>(gpu.sm_count));
    threads_ = std::max<std::uint32_t>(1, std::min(options.threads, gpcs));
    if (cluster_size_ > 1) pool_.resize(gpu.sm_count * blocks_per_sm_ / cluster_size_ + 1);
    side_requests_.resize(system_.sides());
    side_order_.resize(system_.sides());
    if (options.flush_l2) {
      // Nothing to do: every buffer is read from DRAM the first time.
    } else if (parallel_sides()) {
      on_sides([&](std::uint32_t side) {
        for (const exec::GlobalBuffer& b : memory_.buffers)
          system_.preload(b.base_address, b.bytes.size(), side);
      });
    } else {
      for (const exec::GlobalBuffer& b : memory_.buffers)
        system_.preload(b.base_address, b.bytes.size());
    }
  }

  TimingResult run(std::chrono::steady_clock::time_point started) {
    const auto simulating = std::chrono::steady_clock::now();
    const std::uint64_t interval = gpu_.timing.l2_latency;
    std::uint64_t t = 0;
    dispatch(0);
    std::atomic<std::uint64_t> end{0};
    std::atomic<bool> stop{false};
    // What the workers do between two crossings of the barrier: simulate their SMs for an
    // interval, or resolve their memory sides' requests of one.
    enum class Phase { Simulate, Resolve };
    std::atomic<Phase> phase{Phase::Simulate};
    SpinBarrier sync(threads_);
    std::vector<std::exception_ptr> errors(threads_);
    auto simulate_share = [&](std::uint32_t k) {
      const std::uint32_t gpcs = static_cast<std::uint32_t>(gpc_first_sm_.size() - 1);
      const std::uint32_t first = gpc_first_sm_[k * gpcs / threads_];
      const std::uint32_t last = gpc_first_sm_[(k + 1) * gpcs / threads_];
      try {
        for (std::uint32_t s = first; s < last; ++s) {
          // The answers the L2 gave between intervals reach each SM first.
          sms_[s]->complete_requests();
          sms_[s]->run_until(end.load());
        }
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    auto resolve_share = [&](std::uint32_t k) {
      try {
        const std::uint32_t sides = system_.sides();
        for (std::uint32_t side = k * sides / threads_; side < (k + 1) * sides / threads_; ++side)
          resolve_side(side, end.load());
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    // Runs one phase on every thread, this one taking share 0.
    auto run_phase = [&](Phase p) {
      phase.store(p);
      sync.arrive_and_wait();
      if (p == Phase::Simulate)
        simulate_share(0);
      else
        resolve_share(0);
      sync.arrive_and_wait();
      for (std::exception_ptr& e : errors) {
        if (e) std::rethrow_exception(e);
      }
    };
    std::vector<std::jthread> workers;
    for (std::uint32_t k = 1; k < threads_; ++k) {
      workers.emplace_back([&, k] {
        for (;;) {
          sync.arrive_and_wait();
          if (stop.load()) return;
          if (phase.load() == Phase::Simulate)
            simulate_share(k);
          else
            resolve_share(k);
          sync.arrive_and_wait();
        }
      });
    }
    auto stop_workers = [&] {
      stop.store(true);
      sync.arrive_and_wait();
      workers.clear();
    };
    try {
      for (;;) {
        end.store(t + interval);
        run_phase(Phase::Simulate);
        ++intervals_;
        check_interval();
        if (sides_in_parallel()) {
          run_phase(Phase::Resolve);
        } else {
          resolve_memory(t + interval);
        }
        after_interval(t + interval);
        t += interval;
        if (finished()) break;
      }
    } catch (...) {
      stop_workers();
      throw;
    }
    stop_workers();
    const auto done = std::chrono::steady_clock::now();
    TimingResult result;
    result.timing = collect();
    result.functional.memory = std::move(memory_);
    result.functional.stats = merge_stats();
    result.functional.timing = {std::chrono::duration<double>(simulating - started).count(),
                                std::chrono::duration<double>(done - simulating).count()};
    return result;
  }

 private:
  std::uint64_t cluster_grid() const {
    const exec::Dim3& c = launch_.cluster;
    return (launch_.grid.x / c.x) * (launch_.grid.y / c.y) * (launch_.grid.z / c.z);
  }

  exec::Dim3 block_index(std::uint64_t cluster, std::uint32_t rank) const {
    const exec::Dim3& c = launch_.cluster;
    const exec::Dim3 shape{launch_.grid.x / c.x, launch_.grid.y / c.y, launch_.grid.z / c.z};
    const exec::Dim3 at = exec::unflatten(cluster, shape);
    const exec::Dim3 local = exec::unflatten(rank, c);
    return {at.x * c.x + local.x, at.y * c.y + local.y, at.z * c.z + local.z};
  }

  // After the SMs' share of an interval: a kernel fault or the instruction budget stops it.
  void check_interval() {
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
      over_budget();
    }
    if (options_.progress != nullptr) {
      options_.progress->blocks(blocks_done_, launch_.blocks());
      options_.progress->instructions(executed);
    }
    pending_requests_ = requests != 0;
    interval_requests_ = requests;
  }

  // After the L2 has answered an interval's requests: blocks retire and start, cluster barriers
  // open, and a launch that can never finish is reported.
  void after_interval(std::uint64_t boundary) {
    for (auto& sm : sms_) {
      for (std::uint64_t id : sm->take_retired()) {
        retire(id);
        ++blocks_done_;
      }
    }
    release_cluster_barriers(boundary);
    dispatch(boundary);
    check_deadlock();
  }

  [[noreturn]] void over_budget() {
    for (auto& sm : sms_) {
      std::vector<exec::BlockState>* cluster = sm->waiting_cluster();
      if (cluster == nullptr) continue;
      exec::ExecContext ctx{program_, launch_, memory_, sm->stats(), cluster, &(*cluster)[0]};
      const exec::WarpState& w = (*cluster)[0].warps[0];
      const auto& pc = w.stack.empty() ? 0u : w.stack.back().pc;
      exec::fault(ctx, w, program_.insts[std::min<std::size_t>(pc, program_.insts.size() - 1)], 0,
                  "more than " + std::to_string(options_.max_warp_instructions) +
                      " warp instructions executed; the kernel may never finish (raise the limit "
                      "with --max-warp-insts)");
    }
    throw std::logic_error("instruction budget exceeded with no resident block");
  }

  // All of an interval's requests, in (cycle, SM, sequence) order, on this thread.
  void resolve_memory(std::uint64_t boundary) {
    std::vector<memory::L2Request*>& all = side_requests_[0];
    all.clear();
    for (auto& sm : sms_) {
      for (memory::L2Request& r : sm->requests()) all.push_back(&r);
    }
    side_order_[0].by_cycle(all);
    system_.resolve(all, boundary, [&](const memory::L2Request& r) {
      exec::DeferredAtomic& a = sms_[r.sm]->atomics()[static_cast<std::size_t>(r.atomic)];
      a.apply(a);
    });
  }

  // One memory side's requests of the interval, in the same order: the sides share no state,
  // so resolving them on different threads gives the serial outcome.
  void resolve_side(std::uint32_t side, std::uint64_t boundary) {
    std::vector<memory::L2Request*>& mine = side_requests_[side];
    mine.clear();
    for (auto& sm : sms_) {
      for (memory::L2Request& r : sm->requests())
        if (system_.side_of(r.line) == side) mine.push_back(&r);
    }
    side_order_[side].by_cycle(mine);
    system_.resolve_side(mine, boundary);
  }

  // Whether the L2's memory sides are worked on by threads of their own.
  bool parallel_sides() const { return threads_ > 1 && system_.sides() > 1; }

  // Whether this interval's requests are resolved side by side: with more than one thread and
  // side, enough requests to be worth a barrier, and no atomics (an atomic is applied at a
  // slice that may be on another side than its line).
  bool sides_in_parallel() const {
    if (!parallel_sides() || interval_requests_ < kParallelResolveRequests) return false;
    return std::all_of(sms_.begin(), sms_.end(),
                       [](const std::unique_ptr<SmModel>& sm) { return sm->atomics().empty(); });
  }

  // Runs `work(side)` for every memory side at once: the first on this thread, the others on
  // threads of their own.
  template <typename Work>
  void on_sides(Work&& work) {
    const std::uint32_t sides = system_.sides();
    std::vector<std::exception_ptr> errors(sides);
    {
      std::vector<std::jthread> helpers;
      for (std::uint32_t side = 1; side < sides; ++side) {
        helpers.emplace_back([&, side] {
          try {
            work(side);
          } catch (...) {
            errors[side] = std::current_exception();
          }
        });
      }
      try {
        work(0);
      } catch (...) {
        errors[0] = std::current_exception();
      }
    }
    for (std::exception_ptr& e : errors) {
      if (e) std::rethrow_exception(e);
    }
  }

  // Below this many requests in an interval, the threads' meeting costs more than it saves.
  static constexpr std::size_t kParallelResolveRequests = 512;

  void retire(std::uint64_t cluster_id) {
    if (cluster_id == 0) return;
    ResidentCluster& c = pool_[cluster_id - 1];
    if (--c.remaining == 0) c.used = false;
  }

  void release_cluster_barriers(std::uint64_t boundary) {
    for (std::size_t i = 0; i < pool_.size(); ++i) {
      ResidentCluster& c = pool_[i];
      std::uint64_t last_arrival = 0;
      for (const exec::BlockState& b : c.blocks)
        last_arrival = std::max(last_arrival, b.cluster_arrival_cycle);
      if (!c.used || !exec::release_cluster_barrier(c.blocks)) continue;
      const std::uint64_t release =
          std::max(boundary, last_arrival + gpu_.timing.cluster_barrier_latency);
      for (std::uint32_t s : c.sms) sms_[s]->resume_cluster(i + 1, release);
    }
  }

  void dispatch(std::uint64_t at) {
    const std::uint32_t gpcs = static_cast<std::uint32_t>(gpc_first_sm_.size() - 1);
    if (cluster_size_ == 1) {
      for (auto& sm : sms_) sm->start_queued_blocks(at);
      // Breadth first: one block per SM per pass, SMs of different GPCs in turn.
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
      return;
    }
    // Each cluster to the GPC with the most empty SMs (then the most free slots), so clusters
    // spread over SMs before any SM takes a second block.
    while (next_cluster_ < total_clusters_) {
      std::uint32_t best = gpcs;
      std::pair<std::uint64_t, std::uint64_t> best_score{0, 0};
      for (std::uint32_t g = 0; g < gpcs; ++g) {
        std::pair<std::uint64_t, std::uint64_t> score{0, 0};
        for (std::uint32_t s = gpc_first_sm_[g]; s < gpc_first_sm_[g + 1]; ++s) {
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

  std::vector<std::uint32_t> breadth_order() {
    if (!order_.empty()) return order_;
    const std::uint32_t gpcs = static_cast<std::uint32_t>(gpc_first_sm_.size() - 1);
    for (std::uint32_t k = 0; order_.size() < sms_.size(); ++k) {
      for (std::uint32_t g = 0; g < gpcs; ++g) {
        const std::uint32_t s = gpc_first_sm_[g] + k;
        if (s < gpc_first_sm_[g + 1]) order_.push_back(s);
      }
    }
    return order_;
  }

  // Places the next cluster's blocks on SMs of GPC `g` with a free slot each, if it fits.
  bool place_cluster(std::uint32_t g, std::uint64_t at) {
    // The emptiest SMs of the GPC first, one block each, then doubling up.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> free;  // (free slots, SM)
    for (std::uint32_t s = gpc_first_sm_[g]; s < gpc_first_sm_[g + 1]; ++s)
      free.emplace_back(sms_[s]->free_slots(), s);
    std::stable_sort(free.begin(), free.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::uint32_t> chosen;
    for (std::uint32_t round = 0; chosen.size() < cluster_size_ && round < blocks_per_sm_;
         ++round) {
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

  bool finished() const {
    if (next_cluster_ < total_clusters_ || pending_requests_) return false;
    for (const auto& sm : sms_) {
      if (sm->busy()) return false;
    }
    return true;
  }

  // No warp anywhere can ever run again: some block waits at a barrier that cannot open.
  void check_deadlock() {
    if (pending_requests_) return;
    bool busy = false;
    for (auto& sm : sms_) {
      if (sm->issued_in_interval() || sm->has_runnable_warp()) return;
      busy |= sm->busy();
    }
    if (!busy) return;
    for (auto& sm : sms_) {
      std::vector<exec::BlockState>* cluster = sm->waiting_cluster();
      if (cluster == nullptr) continue;
      exec::ExecContext ctx{program_, launch_, memory_, sm->stats(), cluster, nullptr};
      exec::report_deadlock(ctx, *cluster);
    }
  }

  exec::LaunchStats merge_stats() {
    exec::LaunchStats total;
    total.per_branch.resize(program_.insts.size());
    total.per_memory.resize(program_.insts.size());
    for (auto& sm : sms_) exec::add_launch_stats(total, sm->stats());
    return total;
  }

  TimingStats collect() {
    TimingStats st;
    std::uint64_t kernel_end = 0;
    for (auto& sm : sms_) kernel_end = std::max(kernel_end, sm->counters().last_retire);
    std::uint64_t active = 0, warp_cycles = 0;
    for (auto& sm : sms_) {
      sm->finish(kernel_end);
      const SmCounters& c = sm->counters();
      active += c.active_cycles;
      warp_cycles += c.warp_cycles;
      st.issued += c.issued;
      st.compiled_extra += c.compiled_extra;
      st.l1_sector_lookups += c.l1_sector_lookups;
      st.l1_sector_hits += c.l1_sector_hits;
      for (std::size_t k = 0; k < kWarpStates; ++k)
        st.warp_state_cycles[k] += c.warp_state_cycles[k];
    }
    const memory::MemoryCounters& m = system_.counters();
    st.l2_sector_lookups = m.l2_sector_lookups;
    st.l2_sector_hits = m.l2_sector_hits;
    st.dram_read_bytes = m.dram_read_bytes;
    st.dram_write_bytes = m.dram_write_bytes;
    st.kernel_cycles = kernel_end;
    // A launch spread over several GPCs takes longer to start and finish than one on a single
    // GPC: each further GPC that runs a block adds gpc_launch_cycles.
    std::uint64_t gpcs_used = 0;
    for (std::size_t g = 0; g + 1 < gpc_first_sm_.size(); ++g) {
      bool used = false;
      for (std::uint32_t s = gpc_first_sm_[g]; s < gpc_first_sm_[g + 1]; ++s)
        used = used || sms_[s]->counters().issued != 0;
      gpcs_used += used ? 1 : 0;
    }
    st.elapsed_cycles = kernel_end + gpu_.timing.launch_overhead_cycles +
                        (gpcs_used > 1 ? gpcs_used - 1 : 0) * gpu_.timing.gpc_launch_cycles;
    st.sm_active_cycles_avg = static_cast<double>(active) / static_cast<double>(sms_.size());
    const double peak = static_cast<double>(gpu_.max_warps_per_sm());
    st.achieved_occupancy =
        active == 0 ? 0.0
                    : 100.0 * static_cast<double>(warp_cycles) / static_cast<double>(active) / peak;
    st.ipc = active == 0 ? 0.0 : static_cast<double>(st.issued) / static_cast<double>(active);
    st.intervals = intervals_;
    st.threads = threads_;
    st.l2_flushed = options_.flush_l2;
    st.blocks_per_sm = blocks_per_sm_;
    if (options_.timeline && options_.timeline_sm < sms_.size()) {
      st.timeline_sm = options_.timeline_sm;
      st.timeline = sms_[options_.timeline_sm]->timeline();
    }
    return st;
  }

  const exec::LaunchSpec& launch_;
  const config::GpuConfig& gpu_;
  const TimingOptions& options_;
  exec::GlobalMemory memory_;
  exec::Program program_;
  std::vector<InstTiming> insts_;
  memory::MemorySystem system_;
  std::uint32_t blocks_per_sm_;
  std::uint32_t cluster_size_;
  std::vector<std::unique_ptr<SmModel>> sms_;
  std::vector<std::uint32_t> gpc_first_sm_;
  std::vector<std::uint32_t> order_;
  std::vector<ResidentCluster> pool_;
  std::uint32_t threads_ = 1;
  std::uint64_t total_clusters_ = 0, next_cluster_ = 0;
  std::uint64_t intervals_ = 0;
  std::uint64_t blocks_done_ = 0;  // for progress reports
  bool pending_requests_ = false;
  std::size_t interval_requests_ = 0;
  // By memory side (the serial path uses the first): an interval's requests and their sorting.
  std::vector<std::vector<memory::L2Request*>> side_requests_;
  std::vector<RequestOrder> side_order_;
};

}  // namespace

TimingResult simulate_timing(const ir::Module& module, const exec::LaunchSpec& launch,
                             const config::GpuConfig& gpu, const Occupancy& occupancy,
                             const TimingOptions& options) {
  if (occupancy.blocks_per_sm == 0) throw std::invalid_argument("no block fits on an SM");
  const auto started = std::chrono::steady_clock::now();
  // The GPU runs the kernel as the compiler emits it: counted loops unrolled.
  ir::Kernel unrolled = *launch.kernel;
  const std::size_t loops =
      ir::unroll_loops(unrolled, static_cast<std::uint32_t>(gpu.timing.unroll_factor));
  if (loops == 0) return TimingEngine(module, launch, gpu, occupancy, options).run(started);

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
    }
  }
  exec::LaunchSpec compiled_launch = launch;
  compiled_launch.kernel = kernel;
  TimingResult result =
      TimingEngine(compiled, compiled_launch, gpu, occupancy, options).run(started);
  result.functional.stats = std::move(as_written.stats);
  result.timing.unrolled_loops = loops;
  return result;
}

}  // namespace warpsim::scheduler
