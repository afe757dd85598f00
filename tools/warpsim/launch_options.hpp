// Which launch to run and how the command line changes it: --launch NAME, --grid, --block and
// --arg name=value (a scalar literal, or a buffer as in a launch block: f32[1024] random(seed =
// 3)).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/exec/launch.hpp"
#include "sim/core/ir/frontend.hpp"
#include "tools/warpsim/options.hpp"

namespace warpsim::cli {

struct LaunchOverrides {
  std::string command = "run";      // for messages: "warpsim <command>: error: ..."
  std::string launch_name;          // empty: the file's first launch
  std::optional<std::string> grid;  // "x[,y[,z]]"; nothing: keep the launch block's
  std::optional<std::string> block;
  std::optional<std::string> cluster;
  std::optional<std::uint64_t> dynamic_smem;  // bytes
  std::vector<std::string> args;
};

// --launch, --grid, --block, --cluster, --dynamic-smem and --arg, as run and step take them.
void add_launch_shape_options(boost::program_options::options_description& desc);
// What those options ask for; `command` names the command in messages.
LaunchOverrides launch_overrides(const CommandLine& cl, const std::string& command);

// "x[,y[,z]]" of non-negative integers; missing ones are 1.
std::optional<ir::Dim3> parse_dim3(const std::string& text);

// Timing-simulation threads for --threads N: N, or one per core for 0.
std::uint32_t simulation_threads(unsigned requested);

// --cache-control as Nsight Compute names it: "all" (the caches flushed before the launch: true)
// or "none" (the L2 as the host's copies leave it: false); nothing after an error naming
// `command`.
std::optional<bool> parse_cache_control(const std::string& value, const std::string& command,
                                        std::ostream& err);
inline constexpr const char* kCacheControlHelp =
    "all (the L2 flushed first, so the launch's buffers, code and constants start in DRAM: "
    "Nsight Compute's default, and a state the GPU measures alike whatever ran before) or none "
    "(the buffers start in the L2, as the host's copies leave them)";

// The launch to execute; nothing after printing located errors to `err`. The returned spec
// points into `loaded.module`, which must outlive it.
std::optional<exec::LaunchSpec> resolve_launch(const ir::LoadedModule& loaded,
                                               const LaunchOverrides& overrides, std::ostream& err);

}  // namespace warpsim::cli
