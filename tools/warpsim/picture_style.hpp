// What every picture shares: one colour per warp state (the same in every picture and legend,
// told apart also by colour-blind readers), the states in the order of Nsight Compute's
// warp-state table, axis ticks at round numbers, and text made safe for SVG.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scheduler/timing_types.hpp"

namespace warpsim::cli {

const char* warp_state_colour(scheduler::WarpState s);
// Nsight Compute's warp-state table lists states by name (the Profiling Guide's "Warp Stall
// Reasons"); launching, which it has no row for, comes last.
const std::array<scheduler::WarpState, scheduler::kWarpStates>& warp_states_in_table_order();
// At most about `most` ticks from 0 to `end`, 1, 2 or 5 times a power of ten apart.
std::vector<std::uint64_t> axis_ticks(std::uint64_t end, std::uint64_t most);
std::string svg_escape(std::string_view text);

}  // namespace warpsim::cli
