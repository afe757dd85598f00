#include "sim/scheduler/engine/timing_collect.hpp"

#include <algorithm>

namespace warpsim::scheduler {

TimingStats collect_timing(std::vector<std::unique_ptr<SmModel>>& sms,
                           const memory::MemoryCounters& m, const GpcLayout& gpcs,
                           const config::GpuConfig& gpu, const TimingOptions& options) {
  TimingStats st;
  std::uint64_t kernel_end = 0;
  for (auto& sm : sms) kernel_end = std::max(kernel_end, sm->counters().last_retire);
  std::uint64_t active = 0, warp_cycles = 0;
  for (auto& sm : sms) {
    sm->finish(kernel_end);
    const SmCounters& c = sm->counters();
    active += c.active_cycles;
    warp_cycles += c.warp_cycles;
    st.issued += c.issued;
    st.compiled_extra += c.compiled_extra;
    st.l1_sector_lookups += c.l1_sector_lookups;
    st.l1_sector_hits += c.l1_sector_hits;
    for (std::size_t k = 0; k < kWarpStates; ++k) st.warp_state_cycles[k] += c.warp_state_cycles[k];
  }
  st.l2_sector_lookups = m.l2_sector_lookups;
  st.l2_sector_hits = m.l2_sector_hits;
  st.dram_read_bytes = m.dram_read_bytes;
  st.dram_write_bytes = m.dram_write_bytes;
  st.kernel_cycles = kernel_end;
  // A launch spread over several GPCs takes longer to start and finish than one on a single
  // GPC: each further GPC that runs a block adds gpc_launch_cycles.
  std::uint64_t gpcs_used = 0;
  for (std::uint32_t g = 0; g < gpcs.gpcs(); ++g) {
    bool used = false;
    for (std::uint32_t s = gpcs.first_sm[g]; s < gpcs.first_sm[g + 1]; ++s)
      used = used || sms[s]->counters().issued != 0;
    gpcs_used += used ? 1 : 0;
  }
  st.elapsed_cycles = kernel_end + gpu.timing.launch_overhead_cycles +
                      (gpcs_used > 1 ? gpcs_used - 1 : 0) * gpu.timing.gpc_launch_cycles;
  st.sm_active_cycles_avg = static_cast<double>(active) / static_cast<double>(sms.size());
  const double peak = static_cast<double>(gpu.max_warps_per_sm());
  st.achieved_occupancy =
      active == 0 ? 0.0
                  : 100.0 * static_cast<double>(warp_cycles) / static_cast<double>(active) / peak;
  st.ipc = active == 0 ? 0.0 : static_cast<double>(st.issued) / static_cast<double>(active);
  st.l2_flushed = options.flush_l2;
  for (std::uint32_t s = 0; s < sms.size(); ++s) {
    if (std::find(options.record_sms.begin(), options.record_sms.end(), s) !=
        options.record_sms.end()) {
      st.activity.push_back(sms[s]->take_activity());
    }
  }
  return st;
}

}  // namespace warpsim::scheduler
