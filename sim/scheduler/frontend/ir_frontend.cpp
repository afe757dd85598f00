#include "sim/scheduler/frontend/ir_frontend.hpp"

#include <algorithm>
#include <string>

#include "sim/core/exec/block_setup.hpp"
#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/warp_runner.hpp"

namespace warpsim::scheduler {
namespace {

class IrSource final : public InstructionSource {
 public:
  IrSource(const exec::Program& program, const exec::LaunchSpec& launch, exec::GlobalMemory& memory,
           const exec::ExecOptions& options, const SmExecution& out)
      : program_(program),
        launch_(launch),
        ctx_{program, launch, memory, *out.stats, nullptr, nullptr, out.access, out.atomics},
        runner_(ctx_, options) {}

  void prepare_block(exec::BlockState& block, const exec::Dim3& index,
                     std::uint32_t rank) override {
    exec::prepare_block(program_, launch_, block, index, rank);
  }

  void execute(exec::BlockState& block, std::vector<exec::BlockState>* cluster,
               exec::WarpState& warp) override {
    ctx_.block = &block;
    ctx_.cluster = cluster;
    runner_.step(warp);
  }

 private:
  const exec::Program& program_;
  const exec::LaunchSpec& launch_;
  exec::ExecContext ctx_;
  exec::WarpRunner runner_;
};

}  // namespace

IrFrontend::IrFrontend(const ir::Module& module, const exec::LaunchSpec& launch,
                       exec::GlobalMemory& memory, const config::TimingConfig& timing,
                       std::uint64_t max_warp_instructions)
    : launch_(launch),
      memory_(memory),
      program_(exec::decode(module, launch, memory)),
      insts_(classify(program_, timing)) {
  options_.max_warp_instructions = max_warp_instructions;
}

std::unique_ptr<InstructionSource> IrFrontend::source_for_sm(const SmExecution& out) const {
  out.stats->per_branch.resize(program_.insts.size());
  out.stats->per_memory.resize(program_.insts.size());
  return std::make_unique<IrSource>(program_, launch_, memory_, options_, out);
}

void IrFrontend::over_budget(exec::LaunchStats& stats, std::vector<exec::BlockState>& cluster,
                             const std::string& what) const {
  exec::ExecContext ctx{program_, launch_, memory_, stats, &cluster, &cluster[0]};
  const exec::WarpState& w = cluster[0].warps[0];
  const std::uint32_t pc = w.stack.empty() ? 0u : w.stack.back().pc;
  exec::fault(ctx, w, program_.insts[std::min<std::size_t>(pc, program_.insts.size() - 1)], 0,
              what);
}

void IrFrontend::deadlock(exec::LaunchStats& stats, std::vector<exec::BlockState>& cluster) const {
  exec::ExecContext ctx{program_, launch_, memory_, stats, &cluster, nullptr};
  exec::report_deadlock(ctx, cluster);
}

}  // namespace warpsim::scheduler
