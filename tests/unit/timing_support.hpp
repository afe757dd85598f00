// Running a kernel through the timing model in tests: on the built-in H200 config, with
// config overrides, on a given number of simulation threads.
#pragma once

#include "sim/scheduler/timing_engine.hpp"
#include "tests/unit/run_support.hpp"
#include "tools/warpsim/config_options.hpp"
#include "tools/warpsim/occupancy_section.hpp"

namespace warpsim::test {

inline config::GpuConfig h200(const std::vector<std::string>& sets = {}) {
  std::ostringstream err;
  auto gpu = cli::load_gpu_config("h200", sets, err);
  INFO(err.str());
  REQUIRE(gpu.has_value());
  return *gpu;
}

inline scheduler::TimingResult run_timed(const KernelRun& k, const config::GpuConfig& gpu,
                                         std::uint32_t threads = 1) {
  const cli::LaunchOccupancy o = cli::launch_occupancy(gpu, k.spec);
  scheduler::TimingOptions options;
  options.threads = threads;
  return scheduler::simulate_timing(k.loaded.module, k.spec, gpu, o.occupancy, options);
}

// The deterministic counters, which the timing model must leave as the functional one finds them.
inline void check_same_counters(const exec::LaunchStats& a, const exec::LaunchStats& b) {
  CHECK(a.warp_instructions == b.warp_instructions);
  CHECK(a.thread_instructions == b.thread_instructions);
  CHECK(a.branch_instructions == b.branch_instructions);
  CHECK(a.divergent_branches == b.divergent_branches);
  CHECK(a.barriers == b.barriers);
  for (std::size_t k = 0; k < a.memory.global.size(); ++k) {
    CHECK(a.memory.global[k].requests == b.memory.global[k].requests);
    CHECK(a.memory.global[k].sectors == b.memory.global[k].sectors);
  }
  for (std::size_t k = 0; k < a.memory.shared.size(); ++k) {
    CHECK(a.memory.shared[k].wavefronts == b.memory.shared[k].wavefronts);
    CHECK(a.memory.dsmem[k].wavefronts == b.memory.dsmem[k].wavefronts);
  }
  REQUIRE(a.per_memory.size() == b.per_memory.size());
  for (std::size_t i = 0; i < a.per_memory.size(); ++i) {
    CHECK(a.per_memory[i].sectors == b.per_memory[i].sectors);
    CHECK(a.per_memory[i].wavefronts == b.per_memory[i].wavefronts);
  }
}

}  // namespace warpsim::test
