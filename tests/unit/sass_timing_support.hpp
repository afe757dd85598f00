// A kernel of the IR compiled by ptxas and timed on its SASS, as `run --mode timing --frontend
// sass` times it, for the SASS timing tests.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda_backend/ptx.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/sass/sass_run.hpp"
#include "sim/scheduler/frontend/sass_frontend.hpp"
#include "sim/scheduler/timing_engine.hpp"
#include "tests/unit/run_support.hpp"
#include "tests/unit/timing_support.hpp"

namespace warpsim::test {

// The kernel's IR lowered to PTX and compiled for sm_90.
inline sass::SassKernel compiled(const KernelRun& k) {
  std::string error;
  auto kernel = sass::compile_sass(cuda::lower_to_ptx(k.loaded.module, "sm_90"), "sm_90",
                                   k.spec.kernel->name, error);
  INFO(error);
  REQUIRE(kernel.has_value());
  return std::move(*kernel);
}

// The launch timed on the H200 config on `threads` simulation threads.
inline scheduler::TimingResult time_on_sass(const KernelRun& k, const sass::SassKernel& kernel,
                                            std::uint32_t threads) {
  const config::GpuConfig gpu = h200();
  const std::vector<std::uint8_t> constants = exec::constant_image(k.loaded.module);
  scheduler::TimingOptions options;
  options.threads = threads;
  return scheduler::simulate_timing_with(
      [&](exec::GlobalMemory& memory) {
        return std::make_unique<scheduler::SassFrontend>(kernel, k.spec, memory, constants,
                                                         gpu.timing, options.max_warp_instructions);
      },
      k.spec, gpu, cli::launch_occupancy(gpu, k.spec).occupancy, options);
}

}  // namespace warpsim::test
