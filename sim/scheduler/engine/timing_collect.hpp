// The launch's timing statistics from its SMs' counters and the memory system's, once the last
// block has retired.
#pragma once

#include <memory>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/scheduler/engine/block_dispatcher.hpp"
#include "sim/scheduler/sm/sm_model.hpp"
#include "sim/scheduler/timing_engine.hpp"

namespace warpsim::scheduler {

// Closes every SM's accounting at the kernel's end and adds up their counters; `options` says
// which SMs' activity to hand over.
TimingStats collect_timing(std::vector<std::unique_ptr<SmModel>>& sms,
                           const memory::MemoryCounters& memory, const GpcLayout& gpcs,
                           const config::GpuConfig& gpu, const TimingOptions& options);

}  // namespace warpsim::scheduler
