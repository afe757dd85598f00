#include "tools/warpsim/timing_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "tools/warpsim/run_report.hpp"

namespace warpsim::cli {
namespace {

using scheduler::kWarpStates;
using scheduler::WarpState;

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

void write_timing_text(std::ostream& out, const scheduler::TimingStats& t,
                       std::uint64_t clock_mhz) {
  out << "timing\n";
  out << fmt::format("  gpc__cycles_elapsed.max {} cycles", with_commas(t.elapsed_cycles));
  if (clock_mhz != 0) {
    out << fmt::format(" ({:.2f} us at {} MHz)",
                       static_cast<double>(t.elapsed_cycles) / static_cast<double>(clock_mhz),
                       clock_mhz);
  }
  out << fmt::format(
      "; kernel body {} cycles (first block's start to the last block's end; the rest is "
      "launch overhead)\n",
      with_commas(t.kernel_cycles));
  out << fmt::format("  sm__cycles_active.avg {:.1f}\n", t.sm_active_cycles_avg);
  out << fmt::format(
      "  achieved occupancy {:.2f} % (sm__warps_active.avg.pct_of_peak_sustained_active)\n",
      t.achieved_occupancy);
  out << fmt::format("  IPC {:.3f} warp instructions per active SM cycle\n", t.ipc);
  out << fmt::format("  warp instructions issued {}", with_commas(t.issued));
  if (t.unrolled_loops != 0) {
    out << fmt::format(
        " (as compiled: {} loop{} unrolled, timing.unroll_factor; "
        "the counts above are the kernel's as written)",
        t.unrolled_loops, t.unrolled_loops == 1 ? "" : "s");
  }
  if (t.compiled_extra != 0) {
    out << fmt::format(
        "; with the compiled code's address arithmetic and special-register "
        "reads {}",
        with_commas(t.issued + t.compiled_extra));
  }
  out << "\n";
  out << fmt::format("  L1 hit rate {:.1f} % of {} global and local load sectors\n",
                     percent(t.l1_sector_hits, t.l1_sector_lookups),
                     with_commas(t.l1_sector_lookups));
  out << fmt::format("  L2 hit rate {:.1f} % of {} sectors\n",
                     percent(t.l2_sector_hits, t.l2_sector_lookups),
                     with_commas(t.l2_sector_lookups));
  out << fmt::format("  DRAM read {} B, written {} B ({})\n", with_commas(t.dram_read_bytes),
                     with_commas(t.dram_write_bytes),
                     t.l2_flushed ? "from an empty L2: the buffers start in DRAM"
                                  : "the buffers start in the L2, as the host's copies leave them");
  std::uint64_t total = 0;
  for (std::uint64_t c : t.warp_state_cycles) total += c;
  out << "warp states (warp cycles, and per issued instruction)\n";
  std::vector<std::size_t> order(kWarpStates);
  for (std::size_t k = 0; k < kWarpStates; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return t.warp_state_cycles[a] > t.warp_state_cycles[b];
  });
  for (std::size_t k : order) {
    const std::uint64_t c = t.warp_state_cycles[k];
    if (c == 0) continue;
    out << fmt::format(
        "  {:<20} {:>16} {:6.1f} % {:8.2f}\n",
        scheduler::warp_state_name(static_cast<WarpState>(k)), with_commas(c), percent(c, total),
        t.issued == 0 ? 0.0 : static_cast<double>(c) / static_cast<double>(t.issued));
  }
  out << fmt::format("  ({} blocks per SM, {} simulation intervals, {} thread{})\n",
                     t.blocks_per_sm, t.intervals, t.threads, t.threads == 1 ? "" : "s");
}

nlohmann::json warp_states_json(const scheduler::TimingStats& t) {
  nlohmann::json states = nlohmann::json::object();
  for (std::size_t k = 0; k < kWarpStates; ++k) {
    states[scheduler::warp_state_name(static_cast<WarpState>(k))] = t.warp_state_cycles[k];
  }
  return states;
}

}  // namespace warpsim::cli
