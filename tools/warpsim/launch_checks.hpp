// Checks made before a launch allocates anything, so a launch that cannot run is refused with a
// reason (exit 2) rather than failing halfway or exhausting the host: one of its blocks must
// fit an SM of the chosen GPU, and its buffers must fit this machine's memory.
#pragma once

#include <iosfwd>
#include <string>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/launch.hpp"
#include "tools/warpsim/occupancy_section.hpp"

namespace warpsim::cli {

// Reports "warpsim <command>: error: ..." and returns false when the launch cannot run.
bool launch_can_run(const config::GpuConfig& gpu, const exec::LaunchSpec& spec,
                    const LaunchOccupancy& occupancy, const std::string& command,
                    std::ostream& err);

}  // namespace warpsim::cli
