// The workloads `warpsim bench` and the Google Benchmark target time: the shared-memory
// transpose at 2048 x 2048 and vecAdd at 2^24 elements, from the embedded seed kernels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/core/exec/launch.hpp"
#include "sim/core/ir/frontend.hpp"

namespace warpsim::cli {

struct BenchWorkload {
  std::string name;
  std::unique_ptr<ir::LoadedModule> loaded;  // the spec points into it
  exec::LaunchSpec spec;
};

// `arch` (sm_90): the kernels' registers are what ptxas allocates for it where ptxas is found.
std::vector<BenchWorkload> bench_workloads(const std::string& arch);

}  // namespace warpsim::cli
