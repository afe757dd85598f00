// The occupancy part of `warpsim run`: the kernel's registers (annotated or estimated) and
// shared memory, the resulting blocks per SM on the chosen GPU, and how the grid dispatches in
// waves.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/launch.hpp"
#include "sim/core/ir/register_estimate.hpp"
#include "sim/scheduler/dispatch.hpp"
#include "sim/scheduler/occupancy.hpp"

namespace warpsim::cli {

struct LaunchOccupancy {
  ir::RegisterCount registers;
  scheduler::KernelResources resources;
  scheduler::Occupancy occupancy;
  scheduler::DispatchPlan dispatch;
};

LaunchOccupancy launch_occupancy(const config::GpuConfig& gpu, const exec::LaunchSpec& launch);
void write_occupancy_section(std::ostream& out, const config::GpuConfig& gpu,
                             const LaunchOccupancy& o);
// Adds the occupancy metrics to `metrics`.
void add_occupancy_metrics(const LaunchOccupancy& o, nlohmann::json& metrics);
nlohmann::json config_json(const config::GpuConfig& gpu);

}  // namespace warpsim::cli
