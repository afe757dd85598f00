// Vocabulary of the timing model: the pipes an instruction issues to, and the states a warp is
// in each cycle (Nsight Compute's warp-state breakdown).
#pragma once

#include <array>
#include <cstdint>

namespace warpsim::scheduler {

enum class Pipe : std::uint8_t {
  Int,
  Uniform,  // the uniform datapath (UIADD3, ULOP3, ...): one per sub-partition, beside Int
  Fp32,
  IMul,
  Fp64,
  Sfu,
  Convert,
  Branch,  // per sub-partition, fixed latency
  Global,  // L1 tag stage, then L1/L2/DRAM
  Local,   // per-thread memory, served by L1
  Shared,  // the SM's shared-memory pipe (MIO)
  Const,
  Barrier,
  Exit,
  Count
};
inline constexpr std::size_t kPipes = static_cast<std::size_t>(Pipe::Count);

enum class WarpState : std::uint8_t {
  Selected,          // issued this cycle
  NotSelected,       // could issue; the scheduler picked another warp
  LongScoreboard,    // waits for a global or local load (L1/L2/DRAM)
  ShortScoreboard,   // waits for a shared-memory load, shuffle or other MIO result
  Wait,              // waits for a fixed-latency result (ALU, FMA, conversion)
  MathPipeThrottle,  // its pipe is busy with earlier instructions
  MioThrottle,       // the shared-memory pipe's queue is full
  LgThrottle,        // the L1 tag stage or its miss queue is full
  BranchResolving,   // a branch's target is not yet fetched
  Barrier,           // at bar.sync or cluster.sync
  Launching,         // its block was just assigned and is being set up
  Drain,             // finished, waiting for its memory operations before exiting
  ImcMiss,           // an operand's constant is not yet in the immediate-constant cache
  Count
};
inline constexpr std::size_t kWarpStates = static_cast<std::size_t>(WarpState::Count);

inline const char* warp_state_name(WarpState s) {
  static constexpr std::array<const char*, kWarpStates> names = {
      "selected",           "not_selected", "long_scoreboard", "short_scoreboard", "wait",
      "math_pipe_throttle", "mio_throttle", "lg_throttle",     "branch_resolving", "barrier",
      "launching",          "drain",        "imc_miss"};
  return names[static_cast<std::size_t>(s)];
}

}  // namespace warpsim::scheduler
