#include <fmt/format.h>

#include "sim/core/exec/exec_ops.hpp"
#include "sim/core/exec/fault.hpp"
#include "sim/core/gpu_constants.hpp"
#include "sim/core/ir/printer.hpp"

namespace warpsim::exec {

// Every opcode is listed (no default), so an opcode added to opcodes.def without an executor
// does not compile.
ExecFn select_exec(const DecodedInst& inst) {
  using ir::Opcode;
  // A cvt to a 16-bit float rounds in its own function (exec_alu.cpp), in any mode.
  if (inst.rounding != ir::Rounding::Nearest && inst.half == ir::HalfFormat::None) {
    return select_rounded(inst);
  }
  switch (inst.opcode) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::MulHi:
    case Opcode::Mad:
    case Opcode::Fma:
    case Opcode::Div:
    case Opcode::Rem:
    case Opcode::Min:
    case Opcode::Max:
    case Opcode::Neg:
    case Opcode::Abs:
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Eq:
    case Opcode::Ne:
    case Opcode::Lt:
    case Opcode::Le:
    case Opcode::Gt:
    case Opcode::Ge:
    case Opcode::Select:
    case Opcode::Mov:
    case Opcode::Popc:
    case Opcode::Clz:
    case Opcode::Brev:
    case Opcode::Sqrt:
    case Opcode::Rcp:
    case Opcode::RsqrtApprox:
    case Opcode::RcpApprox:
    case Opcode::Ex2Approx:
    case Opcode::Lg2Approx:
    case Opcode::SqrtApprox:
    case Opcode::SinApprox:
    case Opcode::CosApprox:
    case Opcode::DivApprox:
    case Opcode::DivFull:
    case Opcode::Bitcast:
    case Opcode::Cvt:
      return select_alu(inst);
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
      return select_memory(inst);
    case Opcode::Shfl:
    case Opcode::Vote:
    case Opcode::ShflSync:
    case Opcode::VoteSync:
    case Opcode::MatchAny:
    case Opcode::ReduxSync:
    case Opcode::WarpSync:
      return select_warp_wide(inst);
    case Opcode::BarSync:
    case Opcode::BarRed:
    case Opcode::BarNamed:
    case Opcode::BarArrive:
    case Opcode::ClusterSync:
    case Opcode::Br:
    case Opcode::Jmp:
    case Opcode::Ret:
      return nullptr;  // the executor's own
  }
  return nullptr;
}

void fault(const ExecContext& ctx, const WarpState& warp, const DecodedInst& inst, unsigned lane,
           const std::string& what) {
  FaultSite site;
  site.kernel = ctx.program.kernel->name;
  site.block = ctx.block->index;
  site.thread = std::int64_t{warp.index} * kWarpSize + lane;
  site.thread_index = unflatten(static_cast<std::uint64_t>(site.thread), ctx.launch.block);
  site.line = inst.line;
  if (inst.source != nullptr) site.origin = inst.source->origin;
  site.instruction = inst.source ? ir::to_string(*inst.source) : "";
  throw KernelFault(std::move(site), what);
}

}  // namespace warpsim::exec
