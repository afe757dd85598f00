#include "sim/scheduler/inst_timing.hpp"

#include <algorithm>
#include <stdexcept>

namespace warpsim::scheduler {
namespace {

// Every opcode is listed (no default), so an opcode added to opcodes.def without a pipe does
// not compile.
Pipe pipe_of(const exec::DecodedInst& d) {
  using ir::Opcode;
  const bool f64 = d.type == ir::ScalarType::F64 || d.type == ir::ScalarType::S64 ||
                   d.type == ir::ScalarType::U64;
  switch (d.opcode) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
      switch (d.mem.kind) {
        case exec::ArrayKind::Global:
          return Pipe::Global;
        case exec::ArrayKind::Local:
          return Pipe::Local;
        case exec::ArrayKind::Shared:
          return Pipe::Shared;
        case exec::ArrayKind::Const:
          return Pipe::Const;
      }
      return Pipe::Global;
    case Opcode::Shfl:
    case Opcode::ShflSync:
      return Pipe::Shared;
    case Opcode::Vote:
    case Opcode::VoteSync:
    case Opcode::ReduxSync:  // a warp-wide reduction, timed as a vote (not calibrated on its own)
    case Opcode::MatchAny:   // a warp-wide compare, timed as a vote (not calibrated on its own)
    case Opcode::WarpSync:   // a converged warp's own barrier, timed as a vote (not calibrated)
      return Pipe::Int;
    case Opcode::BarSync:
    case Opcode::BarRed:
    case Opcode::BarNamed:   // timed as bar.sync (not calibrated on its own)
    case Opcode::BarArrive:  // likewise
    case Opcode::ClusterSync:
      return Pipe::Barrier;
    case Opcode::Br:
    case Opcode::Jmp:
      return Pipe::Branch;
    case Opcode::Ret:
      return Pipe::Exit;
    case Opcode::Cvt:
      return Pipe::Convert;
    case Opcode::Div:
    case Opcode::Rem:
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
      return Pipe::Sfu;
    case Opcode::Mul:
    case Opcode::MulHi:
    case Opcode::Mad:
    case Opcode::Fma:
      if (d.type == ir::ScalarType::F64) return Pipe::Fp64;
      return d.type == ir::ScalarType::F32 ? Pipe::Fp32 : Pipe::IMul;
    case Opcode::Add:
    case Opcode::Sub:
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
    case Opcode::Bitcast:
      if (d.type == ir::ScalarType::F64) return Pipe::Fp64;
      if (d.type == ir::ScalarType::F32) return Pipe::Fp32;
      // 64-bit integer arithmetic takes two 32-bit operations.
      return f64 ? Pipe::IMul : Pipe::Int;
  }
  throw std::logic_error("no pipe for an opcode");
}

// Which instructions lie in a loop: between a backward branch and its target (the IR keeps
// its blocks in source order, so a loop's body is the range a branch jumps back over).
std::vector<bool> in_loops(const exec::Program& program) {
  std::vector<bool> in(program.insts.size(), false);
  for (std::size_t pc = 0; pc < program.insts.size(); ++pc) {
    const exec::DecodedInst& d = program.insts[pc];
    if (d.opcode != ir::Opcode::Br && d.opcode != ir::Opcode::Jmp) continue;
    // The farthest target back covers a nearer one's range too.
    const std::uint32_t back =
        d.opcode == ir::Opcode::Br ? std::min(d.target_true, d.target_false) : d.target_true;
    if (back <= pc)
      std::fill(in.begin() + back, in.begin() + static_cast<std::ptrdiff_t>(pc) + 1, true);
  }
  return in;
}

}  // namespace

void pipe_latency(Pipe p, const config::TimingConfig& t, InstTiming& out) {
  auto set = [&](std::uint64_t latency, std::uint64_t interval) {
    out.latency = static_cast<std::uint32_t>(latency);
    out.interval = static_cast<std::uint32_t>(interval);
  };
  switch (p) {
    case Pipe::Int:
      return set(t.int_latency, t.int_interval);
    case Pipe::Uniform:
      // One value a warp, so not the 16 lanes' two cycles a warp instruction of Int; its
      // latency as Int's (assumed).
      return set(t.int_latency, 1);
    case Pipe::Fp32:
      return set(t.fp32_latency, t.fp32_interval);
    case Pipe::IMul:
      return set(t.imul_latency, t.imul_interval);
    case Pipe::Fp64:
      return set(t.fp64_latency, t.fp64_interval);
    case Pipe::Sfu:
      return set(t.sfu_latency, t.sfu_interval);
    case Pipe::Convert:
      return set(t.convert_latency, t.convert_interval);
    case Pipe::Branch:
      return set(t.branch_latency, t.branch_interval);
    case Pipe::Const:
      return set(t.const_latency, 1);
    case Pipe::Local:  // set by the memory system as it serves the request
      return set(1, 1);
    case Pipe::Shared:
      return set(t.shared_latency, 1);
    case Pipe::Barrier:
      return set(t.barrier_latency, 1);
    case Pipe::Global:  // set by the memory system as it serves the request
    case Pipe::Exit:
      return set(1, 1);
    case Pipe::Count:
      break;
  }
  throw std::logic_error("no latency for a pipe");
}

std::vector<InstTiming> classify(const exec::Program& program, const config::TimingConfig& t) {
  std::vector<InstTiming> out(program.insts.size());
  // Outside loops every address is computed in full; in a loop the compiler strength-reduces
  // it to an increment per iteration (or an offset in the instruction), which the IR's own
  // loop arithmetic stands for.
  const std::vector<bool> looped = in_loops(program);
  std::array<bool, ir::kSpecialRegCount> special_read{};
  for (std::size_t i = 0; i < program.insts.size(); ++i) {
    const exec::DecodedInst& d = program.insts[i];
    InstTiming& it = out[i];
    it.pipe = pipe_of(d);
    pipe_latency(it.pipe, t, it);
    it.memory_op = d.opcode == ir::Opcode::Ld     ? MemoryOp::Load
                   : d.opcode == ir::Opcode::St   ? MemoryOp::Store
                   : d.opcode == ir::Opcode::Atom ? MemoryOp::Atomic
                                                  : MemoryOp::None;
    it.layout_jump = d.opcode == ir::Opcode::Jmp;
    it.cluster_barrier = d.opcode == ir::Opcode::ClusterSync;
    it.shuffle = d.opcode == ir::Opcode::Shfl || d.opcode == ir::Opcode::ShflSync;
    if (it.memory_op != MemoryOp::None)
      it.access_bytes = static_cast<std::uint8_t>(d.element_bytes() * d.vector_width);
    it.float_atomic = it.memory_op == MemoryOp::Atomic && d.atomic_op == ir::AtomicOp::Add &&
                      ir::is_float(d.type);
    if ((d.opcode == ir::Opcode::Div || d.opcode == ir::Opcode::Rem) && ir::is_int(d.type)) {
      it.latency = static_cast<std::uint32_t>(d.opcode == ir::Opcode::Div ? t.int_div_latency
                                                                          : t.int_rem_latency);
      it.interval = static_cast<std::uint32_t>(t.int_div_interval);
    }
    if (it.pipe == Pipe::Convert &&
        (d.type == ir::ScalarType::F64 || d.source_type == ir::ScalarType::F64))
      it.latency = static_cast<std::uint32_t>(t.convert_f64_latency);
    auto read = [&](const exec::OperandRef& op) {
      if (op.source != exec::OperandSource::Register) return;  // never written: never waited for
      if (it.nreads == std::size(it.reads)) throw std::logic_error("too many operands");
      if (std::find(it.reads, it.reads + it.nreads, op.slot) == it.reads + it.nreads)
        it.reads[it.nreads++] = op.slot;
    };
    for (unsigned s = 0; s < d.nsrc; ++s) read(d.src[s]);
    for (const exec::OperandRef& op : d.mem.index) read(op);
    if (d.mem.has_rank) read(d.mem.rank);
    for (unsigned k = 0; k < d.ndst; ++k) it.writes[it.nwrites++] = d.dst[k];
    // The compiled code reads each special register once (an S2R), where the IR first uses it;
    // an imported kernel (its instructions carry a CUDA origin) reads them with PTX's own movs.
    const bool imported = d.source != nullptr && d.source->origin.known();
    for (unsigned s = 0; s < d.nsrc && !imported; ++s) {
      const exec::OperandRef& op = d.src[s];
      if (op.special < 0) continue;
      // Not negative here, so the index is the register's number.
      const auto which = static_cast<std::uint8_t>(op.special);
      if (special_read[which]) continue;
      special_read[which] = true;
      it.extra_issue += static_cast<std::uint32_t>(t.special_register_issue);
    }
    // An access by byte address carries its address arithmetic in the code itself.
    if (!looped[i] && !d.mem.by_address &&
        (d.opcode == ir::Opcode::Ld || d.opcode == ir::Opcode::St ||
         d.opcode == ir::Opcode::Atom)) {
      if (d.mem.kind == exec::ArrayKind::Global)
        it.extra_issue += static_cast<std::uint32_t>(t.global_address_issue);
      else if (d.mem.kind == exec::ArrayKind::Shared)
        it.extra_issue += static_cast<std::uint32_t>(t.shared_address_issue);
    }
  }
  return out;
}

}  // namespace warpsim::scheduler
