#include <fmt/format.h>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/fault.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::exec {

ExecFn select_exec(const DecodedInst& inst) {
  switch (ir::opcode_info(inst.opcode).latency) {
    case ir::LatencyClass::Memory:
    case ir::LatencyClass::Atomic:
      return select_memory(inst);
    case ir::LatencyClass::WarpWide:
      return select_warp_wide(inst);
    case ir::LatencyClass::Barrier:
    case ir::LatencyClass::Branch:
      return nullptr;  // the executor's own
    default:
      return select_alu(inst);
  }
}

void fault(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst, unsigned lane,
           const std::string& what) {
  FaultSite site;
  site.kernel = ctx.program.kernel->name;
  site.block = ctx.block->index;
  site.thread = std::int64_t{warp.index} * 32 + lane;
  site.thread_index = unflatten(static_cast<std::uint64_t>(site.thread), ctx.launch.block);
  site.line = inst.line;
  site.instruction = inst.source ? ir::to_string(*inst.source) : "";
  throw KernelFault(std::move(site), what);
}

}  // namespace warpsim::exec
