// Per decoded instruction, what the timing model needs: its pipe, its latency and issue
// interval, and the register slots it reads and writes (the scoreboard's operands).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/config/gpu_config.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/scheduler/timing_types.hpp"

namespace warpsim::scheduler {

struct InstTiming {
  Pipe pipe = Pipe::Int;
  std::uint32_t latency = 1;
  std::uint32_t interval = 1;
  // Issue cycles the compiled code spends before this instruction on work the IR does not show
  // (address arithmetic, special-register reads): its sub-partition issues nothing else then.
  std::uint32_t extra_issue = 0;
  std::uint8_t nreads = 0, nwrites = 0;
  std::uint32_t reads[16]{};
  std::uint32_t writes[4]{};
};

std::vector<InstTiming> classify(const exec::Program& program, const config::TimingConfig& t);

}  // namespace warpsim::scheduler
