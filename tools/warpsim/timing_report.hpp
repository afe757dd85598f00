// The timing part of `warpsim run --mode timing`: cycles, achieved occupancy, IPC, cache hit
// rates, DRAM traffic and the warp-state breakdown, as text and as JSON metrics (Nsight
// Compute's names where one exists); and the per-warp timeline of one SM as SVG or HTML.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::cli {

void write_timing_text(std::ostream& out, const scheduler::TimingStats& t, std::uint64_t clock_mhz);
// Warp cycles in each state, by state name.
nlohmann::json warp_states_json(const scheduler::TimingStats& t);
// One row per warp slot, time across, coloured by state; HTML when `path` ends in .html.
std::string timeline_picture(const scheduler::TimingStats& t, const std::string& kernel, bool html);

}  // namespace warpsim::cli
