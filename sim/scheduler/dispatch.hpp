// How a grid's blocks go to the SMs: in order, as many per SM as occupancy allows, a retired
// block's slot refilled by the next. With blocks of equal length that makes waves: each wave
// fills every SM, and the last holds what is left.
#pragma once

#include <cstdint>

namespace warpsim::scheduler {

struct DispatchPlan {
  std::uint64_t blocks = 0;
  std::uint64_t resident_per_sm = 0;  // blocks per SM at once (occupancy)
  std::uint64_t per_wave = 0;         // resident_per_sm x SMs
  std::uint64_t full_waves = 0;
  std::uint64_t last_wave_blocks = 0;  // 0 when the grid is a whole number of waves
  double waves = 0;                    // blocks / per_wave
};

DispatchPlan plan_dispatch(std::uint64_t blocks, std::uint64_t sm_count,
                           std::uint64_t blocks_per_sm);

}  // namespace warpsim::scheduler
