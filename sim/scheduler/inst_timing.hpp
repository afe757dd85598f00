// Per instruction, what the timing model needs to know of it before it runs: its pipe, its
// latency and issue interval, the register slots it reads and writes (the scoreboard's
// operands) and what kind of work it is. An instruction source (instruction_source.hpp) gives
// one per instruction; classify() makes them for the IR executor's program.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/scheduler/timing_types.hpp"

namespace warpsim::scheduler {

// What a memory instruction does, for the global-memory path.
enum class MemoryOp : std::uint8_t { None, Load, Store, Atomic };

struct InstTiming {
  Pipe pipe = Pipe::Int;
  MemoryOp memory_op = MemoryOp::None;
  // An unconditional jump the compiler's block layout removes: executed without an issue slot.
  bool layout_jump = false;
  bool cluster_barrier = false;   // Pipe::Barrier: cluster-wide rather than the block's
  bool shuffle = false;           // Pipe::Shared: a register exchange, one wavefront
  std::uint8_t access_bytes = 0;  // bytes each lane accesses (memory instructions)
  bool float_atomic = false;      // an atomic whose update is a floating-point add
  std::uint32_t latency = 1;
  std::uint32_t interval = 1;
  // Issue cycles the compiled code spends before this instruction on work the IR does not show
  // (address arithmetic, special-register reads): its sub-partition issues nothing else then.
  std::uint32_t extra_issue = 0;
  // Compiled code (the SASS frontend): cycles before the warp's next instruction may issue (the
  // stall count ptxas encoded; 0: no such constraint), and whether `writes` are scoreboards that
  // several instructions may set at once, so an instruction does not wait for its own writes.
  std::uint8_t stall = 0;
  bool counting_scoreboards = false;
  std::uint8_t nreads = 0, nwrites = 0;
  // SASS: the immediate-constant cache line an operand reads at a fixed offset (c[bank][offset]
  // of any instruction but LDC, which goes through the constant cache's load path), as
  // ImmediateConstants keys it; kNoConstantLine when none.
  static constexpr std::uint32_t kNoConstantLine = UINT32_MAX;
  std::uint32_t constant_line = kNoConstantLine;
  std::uint32_t reads[16]{};
  std::uint32_t writes[4]{};
};

std::vector<InstTiming> classify(const exec::Program& program, const config::TimingConfig& t);

// A pipe's latency and issue interval from the config, into `out`.
void pipe_latency(Pipe p, const config::TimingConfig& t, InstTiming& out);

}  // namespace warpsim::scheduler
