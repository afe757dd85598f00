// The IR executor as the timing model's frontend: the decoded program's instructions, timed by
// classify(), executed by the functional WarpRunner at issue.
#pragma once

#include "sim/config/gpu_config.hpp"
#include "sim/core/exec/executor.hpp"
#include "sim/core/exec/program.hpp"
#include "sim/scheduler/frontend/instruction_source.hpp"

namespace warpsim::scheduler {

class IrFrontend final : public Frontend {
 public:
  // `memory` holds the launch's buffers (decoding binds the kernel's arrays to them); each SM's
  // executor faults past `max_warp_instructions` of its own.
  IrFrontend(const ir::Module& module, const exec::LaunchSpec& launch, exec::GlobalMemory& memory,
             const config::TimingConfig& timing, std::uint64_t max_warp_instructions);

  const std::vector<InstTiming>& instructions() const override { return insts_; }
  std::uint32_t register_slots() const override {
    return static_cast<std::uint32_t>(program_.register_slots);
  }
  std::unique_ptr<InstructionSource> source_for_sm(const SmExecution& out) const override;
  [[noreturn]] void over_budget(exec::LaunchStats& stats, std::vector<exec::BlockState>& cluster,
                                const std::string& what) const override;
  [[noreturn]] void deadlock(exec::LaunchStats& stats,
                             std::vector<exec::BlockState>& cluster) const override;

 private:
  const exec::LaunchSpec& launch_;
  exec::GlobalMemory& memory_;
  exec::Program program_;
  std::vector<InstTiming> insts_;
  exec::ExecOptions options_;
};

}  // namespace warpsim::scheduler
