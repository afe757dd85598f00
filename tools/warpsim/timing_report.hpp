// The timing part of `warpsim run --mode timing`: cycles, achieved occupancy, IPC, cache hit
// rates, DRAM traffic and the warp-state breakdown, as text and as JSON metrics (Nsight
// Compute's names where one exists).
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::cli {

void write_timing_text(std::ostream& out, const scheduler::TimingStats& t, std::uint64_t clock_mhz);
// Warp cycles in each state, by state name.
nlohmann::json warp_states_json(const scheduler::TimingStats& t);

}  // namespace warpsim::cli
