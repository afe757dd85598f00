#include "tools/warpsim/occupancy_section.hpp"

#include <fmt/format.h>

#include <limits>
#include <ostream>

#include "sim/core/exec/program.hpp"

namespace warpsim::cli {

LaunchOccupancy launch_occupancy(const config::GpuConfig& gpu, const exec::LaunchSpec& launch) {
  LaunchOccupancy o;
  o.registers = ir::registers_per_thread(*launch.kernel);
  o.resources = {launch.threads_per_block(), o.registers.registers,
                 exec::static_shared_bytes(*launch.kernel), launch.dynamic_smem};
  o.occupancy = scheduler::compute_occupancy(gpu, o.resources);
  o.dispatch = scheduler::plan_dispatch(launch.blocks(), gpu.sm_count, o.occupancy.blocks_per_sm);
  return o;
}

void write_occupancy_section(std::ostream& out, const config::GpuConfig& gpu,
                             const LaunchOccupancy& o) {
  const scheduler::Occupancy& occ = o.occupancy;
  out << fmt::format("occupancy on {} ({} SMs)\n", gpu.name, gpu.sm_count);
  out << fmt::format(
      "  {} registers per thread ({}), {} B static + {} B dynamic shared memory "
      "per block\n",
      o.registers.registers,
      o.registers.estimated    ? "an estimate from liveness, not compiled by ptxas"
      : o.registers.from_ptxas ? "as ptxas allocates them"
                               : "the kernel's regs()",
      o.resources.static_shared_bytes, o.resources.dynamic_shared_bytes);
  if (occ.blocks_per_sm == 0) {
    out << "  no block fits on an SM: " << occ.reason << '\n';
    return;
  }
  out << fmt::format(
      "  {} blocks per SM, limited by {}; {} of {} warps: theoretical occupancy "
      "{:.2f} %\n",
      occ.blocks_per_sm, scheduler::limiter_name(occ.binding), occ.warps_per_sm,
      occ.max_warps_per_sm, 100.0 * occ.occupancy());
  const scheduler::DispatchPlan& d = o.dispatch;
  out << fmt::format("  dispatch: {} blocks per wave, {:.3g} waves ({} full", d.per_wave, d.waves,
                     d.full_waves);
  if (d.last_wave_blocks != 0) out << fmt::format(", then {} blocks", d.last_wave_blocks);
  out << ")\n";
}

void add_occupancy_metrics(const LaunchOccupancy& o, nlohmann::json& m) {
  auto value = [](std::uint64_t v) {
    return v == std::numeric_limits<std::uint64_t>::max() ? nlohmann::json(nullptr)
                                                          : nlohmann::json(v);
  };
  const scheduler::Occupancy& occ = o.occupancy;
  m["launch__registers_per_thread"] = o.registers.registers;
  m["launch__shared_mem_per_block_static"] = o.resources.static_shared_bytes;
  m["launch__shared_mem_per_block_dynamic"] = o.resources.dynamic_shared_bytes;
  m["launch__occupancy_limit_warps"] = value(occ.limit_warps);
  m["launch__occupancy_limit_blocks"] = value(occ.limit_blocks);
  m["launch__occupancy_limit_registers"] = value(occ.limit_registers);
  m["launch__occupancy_limit_shared_mem"] = value(occ.limit_shared);
  m["sm__maximum_warps_per_active_cycle_pct"] = 100.0 * occ.occupancy();
  m["launch__waves_per_multiprocessor"] = o.dispatch.waves;
  m["blocks_per_sm"] = occ.blocks_per_sm;
}

nlohmann::json config_json(const config::GpuConfig& gpu) {
  nlohmann::json keys = nlohmann::json::object();
  for (const auto& e : gpu.entries) keys[e.key] = e.value;
  return {{"name", gpu.name}, {"source", gpu.source}, {"keys", keys}};
}

}  // namespace warpsim::cli
