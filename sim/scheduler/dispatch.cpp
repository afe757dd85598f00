#include "sim/scheduler/dispatch.hpp"

namespace warpsim::scheduler {

DispatchPlan plan_dispatch(std::uint64_t blocks, std::uint64_t sm_count,
                           std::uint64_t blocks_per_sm) {
  DispatchPlan p;
  p.blocks = blocks;
  p.resident_per_sm = blocks_per_sm;
  p.per_wave = blocks_per_sm * sm_count;
  if (p.per_wave == 0) return p;
  p.full_waves = blocks / p.per_wave;
  p.last_wave_blocks = blocks % p.per_wave;
  p.waves = static_cast<double>(blocks) / static_cast<double>(p.per_wave);
  return p;
}

}  // namespace warpsim::scheduler
