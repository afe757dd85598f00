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

}  // namespace warpsim::test
