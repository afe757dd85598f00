// The kernel's SASS as the timing model's frontend: the instructions ptxas compiled, each timed
// by its own scheduling controls (the stall count before the warp's next issue, the dependency
// scoreboards it sets and waits on) and its pipe, executed at issue by the SASS executor
// (sim/sass/), which gives branch outcomes and memory addresses.
//
// Scoreboards: a variable-latency instruction (memory, MUFU, S2R, conversions) releases
// scoreboard SBn when its result is ready; an instruction that waits on SBn does not issue
// before. Fixed-latency results need no scoreboard: ptxas's stall counts space their consumers.
#pragma once

#include <vector>

#include "sim/config/gpu_config.hpp"
#include "sim/sass/sass_machine.hpp"
#include "sim/sass/sass_run.hpp"
#include "sim/scheduler/frontend/instruction_source.hpp"

namespace warpsim::scheduler {

inline constexpr std::uint32_t kSassScoreboards = 6;
// A slot beside the scoreboards: released when the warp's asynchronous copies (LDGSTS) are done.
inline constexpr std::uint32_t kAsyncCopySlot = kSassScoreboards;

// The timing of each SASS instruction (exposed for tests).
std::vector<InstTiming> classify_sass(const sass::SassProgram& program,
                                      const config::TimingConfig& timing);

class SassFrontend final : public Frontend {
 public:
  // `memory` holds the launch's buffers; `constants` the module's constant data.
  SassFrontend(const sass::SassKernel& kernel, const exec::LaunchSpec& launch,
               exec::GlobalMemory& memory, const std::vector<std::uint8_t>& constants,
               const config::TimingConfig& timing, std::uint64_t max_warp_instructions);

  const std::vector<InstTiming>& instructions() const override { return insts_; }
  std::uint32_t register_slots() const override { return kSassScoreboards + 1; }
  std::unique_ptr<InstructionSource> source_for_sm(const SmExecution& out) const override;
  [[noreturn]] void over_budget(exec::LaunchStats& stats, std::vector<exec::BlockState>& cluster,
                                const std::string& what) const override;
  [[noreturn]] void deadlock(exec::LaunchStats& stats,
                             std::vector<exec::BlockState>& cluster) const override;
  // Global atomics wait for the L2 (the timing model applies them in one order), except a
  // global ATOM.CAST, which applies at issue: SMs on several threads would order those by chance.
  bool needs_one_thread() const override { return has_immediate_global_atomics_; }

 private:
  sass::SassLaunch launch_;
  std::vector<InstTiming> insts_;
  bool has_immediate_global_atomics_ = false;
  std::uint64_t budget_ = 0;  // warp instructions an SM may execute
};

}  // namespace warpsim::scheduler
