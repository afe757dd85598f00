// Adding up the functional counters of several SMs into the launch's.
#pragma once

#include "sim/core/exec/stats.hpp"

namespace warpsim::scheduler {

// Adds `part` to `total`; both have per-instruction vectors of the same size.
void add_stats(exec::LaunchStats& total, const exec::LaunchStats& part);

}  // namespace warpsim::scheduler
