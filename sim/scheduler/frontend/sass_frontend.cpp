#include "sim/scheduler/frontend/sass_frontend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/memory/constant_cache.hpp"
#include "sim/sass/sass_executor.hpp"
#include "sim/sass/sass_mbarrier.hpp"

namespace warpsim::scheduler {
namespace {

using sass::Op;

Pipe pipe_of(const sass::Instruction& inst) {
  // The uniform datapath's arithmetic and logic (UIADD3, ULOP3, UISETP, UMOV, ...) computes one
  // value a warp beside the INT32 lanes, which it does not hold up: branches.kir's loops, whose
  // counters are uniform, throttle on the INT pipe in the model where the H200 shows 0.4-0.8
  // warp cycles of math_pipe_throttle per instruction (results/waves/). Moves, bit counts and
  // the uniform reads of special registers, constants and registers are not its arithmetic.
  if (inst.mods.uniform && (inst.pipe == exec::SassPipe::Uniform || inst.op == Op::MOV))
    return Pipe::Uniform;
  switch (inst.op) {
    case Op::IMAD:
    case Op::IMADWIDE:
    case Op::IDP:
      return Pipe::IMul;
    case Op::FADD:
    case Op::FMUL:
    case Op::FFMA:
    case Op::FMNMX:
    case Op::FSETP:
    case Op::FSEL:
    case Op::FCHK:
    case Op::HFMA2:
    case Op::HADD2:
    case Op::HMUL2:
    case Op::HMNMX2:
    case Op::HSETP2:
    case Op::HSET2:
      return Pipe::Fp32;
    case Op::DADD:
    case Op::DMUL:
    case Op::DFMA:
    case Op::DSETP:
    // The tensor pipe is timed as the FP64 pipe, a pipe of its own beside the FP32 one (its
    // issue rate and latency not calibrated).
    case Op::HMMA:
    case Op::IMMA:
    case Op::DMMA:
      return Pipe::Fp64;
    case Op::MUFU:
    case Op::POPC:
    case Op::FLO:
    case Op::BREV:
    case Op::CS2R:
    case Op::B2R:  // a read from the barrier unit, variable latency (not calibrated)
      return Pipe::Sfu;
    case Op::I2F:
    case Op::F2I:
    case Op::F2F:
    case Op::FRND:
      return Pipe::Convert;
    case Op::F2FP:  // counted in the ALU pipe, as PRMT and SEL are
      return Pipe::Int;
    case Op::LDG:
    case Op::LDGSTS:
    case Op::STG:
    case Op::LD:
    case Op::ST:
    case Op::QSPC:
    case Op::ATOMG:
    case Op::REDG:
    case Op::ATOM:  // or the shared pipe, by its addresses (SmModel::issue_to_pipe)
      return Pipe::Global;
    case Op::LDL:
    case Op::STL:
      return Pipe::Local;
    case Op::LDS:
    case Op::LDSM:
    case Op::STS:
    case Op::ATOMS:
    case Op::SHFL:
    case Op::MATCH:
    case Op::REDUX:
    // S2R goes through the MIO queue as a shuffle does: on the H200 warps that start together
    // wait for their SR_TID/SR_CTAID reads as short scoreboard and MIO throttle, with no shared
    // memory in the kernel (copy_256, load_only_256: 2.3-3.1 and 0.7-1.8 warp cycles per
    // instruction, validation/h200/results/warp_states/).
    case Op::S2R:
    // mbarrier's operations work on shared memory, one word a warp (as a shuffle is timed).
    case Op::SYNCS:
    case Op::ARRIVES:
      return Pipe::Shared;
    case Op::LDC:
      return inst.mods.uniform ? Pipe::Int : Pipe::Const;
    case Op::BRA:
    case Op::BRX:
    case Op::BSSY:
    case Op::BSYNC:
    case Op::BREAK:
    case Op::BMOV:
    case Op::NANOSLEEP:
    case Op::BPT:
    case Op::WARPSYNC:
    case Op::CALL:
    case Op::RET:
      return Pipe::Branch;
    case Op::BAR:
    case Op::CGABAR_WAIT:
      return Pipe::Barrier;
    case Op::CGABAR_ARV:
      return Pipe::Uniform;
    case Op::EXIT:
      return Pipe::Exit;
    case Op::IADD3:
      // VIADD (sm_90) issues to the FMA pipe, as IMAD does, beside the ALU's IADD3.
      return inst.listed != nullptr && inst.listed->base() == "VIADD" ? Pipe::IMul : Pipe::Int;
    case Op::LEA:
    case Op::SHF:
    case Op::BMSK:
    case Op::SGXT:
    case Op::LOP3:
    case Op::ISETP:
    case Op::IMNMX:
    case Op::IADDMNMX:
    case Op::IABS:
    case Op::VABSDIFF:
    case Op::VABSDIFF4:
    case Op::PRMT:
    case Op::SEL:
    case Op::MOV:
    case Op::LEPC:
    case Op::PLOP3:
    case Op::P2R:
    case Op::R2P:
    case Op::S2UR:
    case Op::R2UR:
    case Op::VOTE:
    case Op::NOP:
    case Op::MEMBAR:
      return Pipe::Int;
  }
  return Pipe::Int;
}

bool is_64bit(sass::DataType t) {
  return t == sass::DataType::U64 || t == sass::DataType::S64 || t == sass::DataType::F64;
}

MemoryOp memory_op_of(Op op) {
  switch (op) {
    case Op::LDG:
    case Op::LD:
    case Op::LDGSTS:
    case Op::LDS:
    case Op::LDSM:
    case Op::LDL:
    case Op::ATOMS:
      return MemoryOp::Load;
    case Op::STG:
    case Op::ST:
    case Op::STS:
    case Op::STL:
      return MemoryOp::Store;
    // Timed in the L2's atomic units, where the timing model applies what the executor queued.
    case Op::ATOMG:
    case Op::REDG:
    case Op::ATOM:
      return MemoryOp::Atomic;
    default:
      return MemoryOp::None;
  }
}

// An atomic whose update is a floating-point add (scalar, packed halves or sm_90's vectors): the
// L2 applies consecutive ones on a word more slowly than integer updates.
bool is_float_add(const sass::Instruction& inst) {
  if (static_cast<sass::AtomOp>(inst.mods.sub) != sass::AtomOp::Add || inst.mods.count_lanes)
    return false;
  switch (inst.mods.type) {
    case sass::DataType::F16:
    case sass::DataType::BF16:
    case sass::DataType::F16X2:
    case sass::DataType::BF16X2:
    case sass::DataType::F32:
    case sass::DataType::F64:
    case sass::DataType::F32X2:
    case sass::DataType::F32X4:
    case sass::DataType::F16X8:
    case sass::DataType::BF16X4:
      return true;
    default:
      return false;
  }
}

// The SASS executor behind an SM: one SassBlock per resident block, mirrored into the
// exec::BlockState the timing model schedules (status, next pc, barrier arrivals).
class SassSource final : public InstructionSource {
 public:
  SassSource(const sass::SassLaunch& launch, const SmExecution& out, std::uint64_t budget)
      : launch_(launch),
        view_{out.sm, out.cycle},
        executor_(launch, *out.stats, out.access, out.atomics, &view_),
        budget_(budget) {}

  void prepare_block(exec::BlockState& b, const exec::Dim3& index, std::uint32_t rank) override {
    sass::SassBlock& s = block_of(b, true);
    // The shared memory lives in the timing model's block state, where the cluster's other
    // blocks (maybe on other SMs, but simulated by this thread) reach it.
    s.external_shared = &b.shared;
    s.peers.clear();
    const std::uint64_t linear = exec::flatten(index, launch_.spec->grid);
    executor_.prepare_block(s, index, linear, rank);
    b.index = index;
    b.linear = linear;
    b.cluster_rank = rank;
    b.threads = s.threads;
    b.barrier_arrived = b.exited_threads = b.cluster_arrived = 0;
    b.named = {};
    b.warps.resize(s.warps.size());
    for (std::size_t i = 0; i < s.warps.size(); ++i) {
      exec::WarpState& w = b.warps[i];
      w.index = static_cast<std::uint32_t>(i);
      w.lanes = s.warps[i].lanes;
      w.exited = 0;
      w.status = exec::WarpStatus::Ready;
      w.stack.assign(1, exec::SimtEntry{0, exec::kExitPc, w.lanes});
    }
  }

  void execute(exec::BlockState& block, std::vector<exec::BlockState>* cluster,
               exec::WarpState& warp) override {
    sass::SassBlock& s = block_of(block, false);
    if (s.peers.empty() && cluster != nullptr && cluster->size() > 1) {
      s.peers.resize(cluster->size());  // by rank: the cluster's blocks are in rank order
      for (std::size_t rank = 0; rank < cluster->size(); ++rank)
        s.peers[rank] = &(*cluster)[rank].shared;
    }
    // The timing model opened the cluster's barrier (exec::release_cluster_barrier).
    if (s.cluster_arrived != 0 && block.cluster_arrived == 0) executor_.open_cluster_barrier(s);
    // The timing model opened the block's barrier (exec::release_block_barrier): open it here.
    if (s.barrier_arrived != 0 && block.barrier_arrived == 0) executor_.open_block_barrier(s);
    for (std::uint32_t m = s.named_under_way; m != 0; m &= m - 1) {  // and its named ones
      const auto id = static_cast<unsigned>(std::countr_zero(m));
      if (block.named[id].expected == 0) executor_.open_named_barrier(s, id);
    }
    sass::SassWarp& w = s.warps[warp.index];
    executor_.step(s, w);
    w.polling = false;  // the timing model interleaves the warps anyway
    if (s.mbarrier_completed && sass::release_mbarrier_waits(s))
      release_memory_barrier_waiters(block, s);
    if (++executed_ > budget_) {
      executor_.fault_at_next(
          s, w,
          fmt::format("more than {} warp instructions executed on one SM; the kernel "
                      "may never finish (raise the limit with --max-warp-insts)",
                      budget_));
    }
    block.barrier_arrived = s.barrier_arrived;
    block.cluster_arrived = s.cluster_arrived;
    block.exited_threads = s.exited_threads;
    for (std::uint32_t m = s.named_under_way; m != 0; m &= m - 1) {
      const auto id = static_cast<unsigned>(std::countr_zero(m));
      block.named[id] = s.named[id];
    }
    warp.exited = w.exited;
    if (w.done()) {
      warp.status = exec::WarpStatus::Done;
    } else if (w.runnable() != 0) {
      warp.status = exec::WarpStatus::Ready;
      warp.stack.back().pc = sass::SassExecutor::next_pc(w);
    } else if (w.cluster_waiting != 0) {
      warp.status = exec::WarpStatus::AtClusterBarrier;
      warp.stack.back().pc = w.pc[static_cast<unsigned>(std::countr_zero(w.cluster_waiting))];
    } else if (w.block_waiting != 0) {
      warp.status =
          w.named_barrier >= 0 ? exec::WarpStatus::AtNamedBarrier : exec::WarpStatus::AtBarrier;
      warp.named_barrier = static_cast<std::uint32_t>(std::max<int>(0, w.named_barrier));
      warp.stack.back().pc = w.pc[static_cast<unsigned>(std::countr_zero(w.block_waiting))];
    } else if (w.mbarrier_waiting != 0) {
      // At the TRYWAIT while it waits (the lanes' program counters are past it already).
      warp.status = exec::WarpStatus::AtMemoryBarrier;
      warp.stack.back().pc = w.pc[static_cast<unsigned>(std::countr_zero(w.mbarrier_waiting))] - 1;
    } else {
      // Named at the convergence barrier its first waiting lane stands at, as the functional
      // run names it.
      const std::uint32_t stuck = w.waiting != 0 ? w.waiting : w.lanes & ~w.exited;
      const auto lane = static_cast<unsigned>(std::countr_zero(stuck));
      const auto& insts = launch_.program->insts;
      executor_.fault(s, w, lane, w.pc[lane] < insts.size() ? &insts[w.pc[lane]] : nullptr,
                      "a convergence barrier (BSYNC or WARPSYNC) never completes");
    }
  }

  bool take_memory_barrier_release() override { return std::exchange(released_, false); }

 private:
  // The warps an mbarrier's phase released run on from the instruction after their TRYWAIT.
  void release_memory_barrier_waiters(exec::BlockState& block, const sass::SassBlock& s) {
    for (std::size_t i = 0; i < s.warps.size(); ++i) {
      exec::WarpState& warp = block.warps[i];
      if (warp.status != exec::WarpStatus::AtMemoryBarrier || s.warps[i].runnable() == 0) continue;
      warp.status = exec::WarpStatus::Ready;
      warp.stack.back().pc = sass::SassExecutor::next_pc(s.warps[i]);
      released_ = true;
    }
  }

  const sass::SassLaunch& launch_;
  sass::SmView view_;  // before executor_, which keeps its address
  sass::SassExecutor executor_;
  bool released_ = false;
  // The SASS state of each of the SM's block slots, found by the slot's address: a short list
  // (at most the SM's resident blocks), searched from the last one found.
  sass::SassBlock& block_of(const exec::BlockState& b, bool create) {
    if (last_ < slots_.size() && slots_[last_] == &b) return *states_[last_];
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i] != &b) continue;
      last_ = i;
      return *states_[i];
    }
    if (!create) throw std::logic_error("a block executes that was never prepared");
    slots_.push_back(&b);
    states_.push_back(std::make_unique<sass::SassBlock>());
    last_ = slots_.size() - 1;
    return *states_.back();
  }
  std::vector<const exec::BlockState*> slots_;
  std::vector<std::unique_ptr<sass::SassBlock>> states_;
  std::size_t last_ = 0;
  std::uint64_t executed_ = 0;
  std::uint64_t budget_;
};

// A fault the timing model finds (a deadlock, the budget spent): named, where `w` is given, at
// the SASS instruction its warp stands at and that instruction's source line.
[[noreturn]] void fault_at(const sass::SassLaunch& launch, const exec::BlockState& b,
                           const std::string& what, const exec::WarpState* w = nullptr) {
  exec::FaultSite site;
  site.kernel = launch.spec->kernel->name;
  site.block = b.index;
  std::string where;
  const auto& insts = launch.program->insts;
  if (w != nullptr && !w->stack.empty() && w->stack.back().pc < insts.size()) {
    const std::uint32_t lanes = w->lanes & ~w->exited;
    site.thread = std::int64_t{w->index} * kWarpSize + (lanes != 0 ? std::countr_zero(lanes) : 0);
    site.thread_index =
        exec::unflatten(static_cast<std::uint64_t>(site.thread), launch.spec->block);
    where = sass::name_fault_instruction(site, &insts[w->stack.back().pc]);
  }
  throw exec::KernelFault(std::move(site), what + where);
}

// The first warp of `b` still running, for a fault that names where.
const exec::WarpState* running_warp(const exec::BlockState& b) {
  for (const exec::WarpState& w : b.warps) {
    if (w.status != exec::WarpStatus::Done) return &w;
  }
  return nullptr;
}

}  // namespace

std::vector<InstTiming> classify_sass(const sass::SassProgram& program,
                                      const config::TimingConfig& timing) {
  std::vector<InstTiming> out(program.insts.size());
  for (std::size_t i = 0; i < program.insts.size(); ++i) {
    const sass::Instruction& inst = program.insts[i];
    InstTiming& it = out[i];
    it.pipe = pipe_of(inst);
    pipe_latency(it.pipe, timing, it);
    if (inst.op == Op::S2R)
      it.latency = static_cast<std::uint32_t>(timing.sass_special_register_latency);
    if (it.pipe == Pipe::Convert && (is_64bit(inst.mods.type) || is_64bit(inst.mods.dest)))
      it.latency = static_cast<std::uint32_t>(timing.convert_f64_latency);
    it.memory_op = memory_op_of(inst.op);
    it.shuffle = inst.op == Op::SHFL || inst.op == Op::MATCH || inst.op == Op::REDUX ||
                 inst.op == Op::S2R || inst.op == Op::SYNCS || inst.op == Op::ARRIVES;
    if (it.memory_op != MemoryOp::None || inst.op == Op::ATOMS)
      it.access_bytes = static_cast<std::uint8_t>(sass::data_bytes(inst.mods.type));
    it.float_atomic = it.memory_op == MemoryOp::Atomic && is_float_add(inst);
    it.counting_scoreboards = true;
    it.cluster_barrier = inst.op == Op::CGABAR_WAIT;
    const auto constant =
        std::find_if(inst.operands.begin(), inst.operands.end(),
                     [](const sass::Operand& o) { return sass::is_fixed_constant(o); });
    if (it.pipe != Pipe::Const && constant != inst.operands.end())
      it.constant_line = memory::ImmediateConstants::key(constant->bank, constant->value);
    if (inst.listed == nullptr) continue;  // an address without an instruction (never run)
    const sass::Controls& c = inst.listed->controls;
    it.stall = c.stall;
    if (c.write_barrier) it.writes[it.nwrites++] = *c.write_barrier;
    // The asynchronous copies: each LDGSTS's data releases a slot of its own, and a DEPBAR
    // waits for it, so DEPBAR.LE SB0, N waits for every copy of the warp, as if N were 0 (the
    // copy groups ptxas counts in SB0 are not modelled: the copies a warp may leave in flight
    // are timed as waited for).
    if (inst.op == Op::LDGSTS) it.writes[it.nwrites++] = kAsyncCopySlot;
    if (inst.listed->base() == "DEPBAR") it.reads[it.nreads++] = kAsyncCopySlot;
    // ARRIVES arrives once the warp's copies have landed: it waits for them as DEPBAR does.
    if (inst.op == Op::ARRIVES) it.reads[it.nreads++] = kAsyncCopySlot;
    for (std::uint32_t b = 0; b < kSassScoreboards; ++b) {
      if ((static_cast<std::uint32_t>(c.wait_mask) >> b) & 1u) it.reads[it.nreads++] = b;
    }
  }
  return out;
}

SassFrontend::SassFrontend(const sass::SassKernel& kernel, const exec::LaunchSpec& launch,
                           exec::GlobalMemory& memory, const std::vector<std::uint8_t>& constants,
                           const config::TimingConfig& timing, std::uint64_t max_warp_instructions)
    : launch_(sass::make_launch(kernel, launch, memory, constants)),
      insts_(classify_sass(kernel.program, timing)),
      budget_(max_warp_instructions) {
  for (const sass::Instruction& inst : kernel.program.insts)
    has_immediate_global_atomics_ |= (inst.op == Op::ATOMG || inst.op == Op::ATOM) &&
                                     static_cast<sass::AtomOp>(inst.mods.sub) == sass::AtomOp::Cast;
}

std::unique_ptr<InstructionSource> SassFrontend::source_for_sm(const SmExecution& out) const {
  // Per SASS instruction, as the engine merges them (the report's per-line tables are the IR's).
  out.stats->per_branch.resize(insts_.size());
  out.stats->per_memory.resize(insts_.size());
  return std::make_unique<SassSource>(launch_, out, budget_);
}

void SassFrontend::over_budget(exec::LaunchStats& /*stats*/, std::vector<exec::BlockState>& cluster,
                               const std::string& what) const {
  fault_at(launch_, cluster.front(), what, running_warp(cluster.front()));
}

void SassFrontend::deadlock(exec::LaunchStats& /*stats*/,
                            std::vector<exec::BlockState>& cluster) const {
  for (const exec::BlockState& b : cluster) {
    for (const exec::WarpState& w : b.warps) {
      if (w.status != exec::WarpStatus::AtNamedBarrier) continue;
      const exec::NamedBarrierPhase& n = b.named[w.named_barrier];
      fault_at(launch_, b,
               fmt::format("deadlock: barrier {} waits for {} threads and {} have arrived; no "
                           "other warp of the block can arrive",
                           w.named_barrier, n.expected, n.arrived),
               &w);
    }
  }
  for (const exec::BlockState& b : cluster) {
    for (const exec::WarpState& w : b.warps) {
      if (w.status != exec::WarpStatus::AtMemoryBarrier) continue;
      fault_at(launch_, b,
               "deadlock: an mbarrier's phase never completes: its lanes wait for arrivals or "
               "transactions no thread makes (or, in timing mode, that another block of the "
               "cluster makes, which is not modelled)",
               &w);
    }
  }
  fault_at(launch_, cluster.front(),
           "no warp of the block can run again: a barrier some of its threads never reach",
           running_warp(cluster.front()));
}

}  // namespace warpsim::scheduler
