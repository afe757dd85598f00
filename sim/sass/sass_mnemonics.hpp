// Every SASS mnemonic the decoder knows, one row each: the Op it executes as, whether it is the
// uniform datapath's form, and the pipeline whose smsp__inst_executed_pipe_* counter counts it
// on the GPU (None: a pipe warpsim does not report, or none; the pipes need not add up to
// smsp__inst_executed). Opcodes that only order or hint (NOP, DEPBAR, MEMBAR, ...) execute as
// Op::NOP. The pipes were read off the H200: Nsight Compute's definitions (alu: logic, bit
// manipulation, compares, integer adds, moves; fma: FP32 arithmetic and integer multiplies;
// xu: MUFU, conversions and bit counts; lsu: memory and shuffles; adu: constant loads, block
// barriers; cbu: convergence barriers and exits) as a start, each row then settled by fitting
// the pipe counters of 92 launches (validation/h200/results/sass_classes/, docs/sass.md). Two
// rules depend on the operands, not the mnemonic (instruction_pipe below): S2R of a block
// index (SR_CTAID.*, SR_CgaCtaId) goes to the ADU, of a thread or lane index to the LSU; HFMA2.MMA
// (ptxas's way to set a register) runs on the tensor pipe, not the FMA pipe. RET counts in two
// pipes (`also`): the CBU and the ADU, and so does WARPSYNC with a register mask (second_pipe
// below). MATCH counts in the ADU, and an executed NOP in no reported pipe: both read off the
// second held-out set (validation/h200/results/heldout2/); R2UR in the ALU, not the uniform
// pipe, read off tile_reduce_cg and trig_f64 (results/import_new_2026_12_04/); with each, every
// fitted and checked launch still as exact as before. Not settled by the data: a warp-aggregated
// atomic's REDUX and UFLO, of which exactly one counts in the ADU (here REDUX) and the other in no
// reported pipe; only reduce_warp_shuffle runs them, once each per warp. The cluster's
// instructions, read off clusterHist (validation/h200/results/h100_2026_12_05/, an H100: the
// pipes are sm_90's): per warp the GPU counts one ADU instruction more than the generic ATOM
// (once a warp) gives it, four more in the ADU and four fewer in the CBU than with UCGABAR_ARV,
// UCGABAR_WAIT in none and ERRBAR, CGAERRBAR in the CBU (each twice a warp). So the ATOM is an
// ADU instruction, and of the four barriers two count in the ADU. kernels_cuda/coverage/
// local_sort.cu (validation/h200/results/h100_2026_12_06b/: __threadfence's ERRBAR and
// CGAERRBAR once a warp, no cluster barrier) counts one ADU instruction a warp more than with
// neither error barrier there, so one error barrier and one UCGABAR count in the ADU: these rows
// take the arrive and the cluster's error barrier (which of each pair, the data cannot tell).
// VOTEU counts in the uniform pipe (coverage/atomics_64.cu: 16 of its 48), though in
// coverage/warp_cg.cu, whose 16 VOTEUs the GPU's per-instruction counts show executed, the GPU's
// uniform pipe counted none: not understood.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/core/exec/stats.hpp"
#include "sim/sass/sass_program.hpp"

namespace warpsim::sass {

using Pipe = exec::SassPipe;

struct Mnemonic {
  std::string_view name;
  Op op;
  bool uniform;
  Pipe pipe;
  Pipe also = Pipe::None;  // a second pipe whose counter counts it too
};

inline constexpr Mnemonic kMnemonics[] = {
    {"IADD3", Op::IADD3, false, Pipe::Alu},
    {"UIADD3", Op::IADD3, true, Pipe::Uniform},
    {"VIADD", Op::IADD3, false, Pipe::Fma},
    {"IMAD", Op::IMAD, false, Pipe::Fma},
    {"UIMAD", Op::IMAD, true, Pipe::Uniform},
    {"LEA", Op::LEA, false, Pipe::Alu},
    {"ULEA", Op::LEA, true, Pipe::Uniform},
    {"SHF", Op::SHF, false, Pipe::Alu},
    {"USHF", Op::SHF, true, Pipe::Uniform},
    {"LOP3", Op::LOP3, false, Pipe::Alu},
    {"ULOP3", Op::LOP3, true, Pipe::Uniform},
    {"ISETP", Op::ISETP, false, Pipe::Alu},
    {"UISETP", Op::ISETP, true, Pipe::Uniform},
    {"IMNMX", Op::IMNMX, false, Pipe::Alu},
    {"VIMNMX", Op::IMNMX, false, Pipe::Alu},
    // VIMNMX3 d, a, b, c, P: the minimum (or maximum) of three; the ALU, as VIMNMX (not
    // measured on a GPU).
    {"VIMNMX3", Op::IMNMX, false, Pipe::Alu},
    {"UIMNMX", Op::IMNMX, true, Pipe::Uniform},
    {"VIADDMNMX", Op::IADDMNMX, false, Pipe::Alu},
    {"REDUX", Op::REDUX, false, Pipe::Adu},
    {"IABS", Op::IABS, false, Pipe::Alu},
    // VABSDIFF's pipe is not settled by the pipe counters (no measured kernel runs it): the ALU,
    // as for IABS and the other integer compares.
    {"VABSDIFF", Op::VABSDIFF, false, Pipe::Alu},
    {"POPC", Op::POPC, false, Pipe::Xu},
    {"UPOPC", Op::POPC, true, Pipe::None},
    {"FLO", Op::FLO, false, Pipe::Xu},
    {"UFLO", Op::FLO, true, Pipe::None},
    {"BREV", Op::BREV, false, Pipe::Xu},
    // The ALU and the uniform pipe, as LOP3 and SHF (not measured on a GPU).
    {"BMSK", Op::BMSK, false, Pipe::Alu},
    // The FMA pipe, as IMAD (not measured on a GPU).
    {"IDP", Op::IDP, false, Pipe::Fma},
    {"UBMSK", Op::BMSK, true, Pipe::Uniform},
    // The ALU and the uniform pipe, as BMSK (not measured on a GPU).
    {"SGXT", Op::SGXT, false, Pipe::Alu},
    {"USGXT", Op::SGXT, true, Pipe::Uniform},
    {"UBREV", Op::BREV, true, Pipe::Uniform},
    {"PRMT", Op::PRMT, false, Pipe::Alu},
    {"UPRMT", Op::PRMT, true, Pipe::Uniform},
    {"SEL", Op::SEL, false, Pipe::Alu},
    {"USEL", Op::SEL, true, Pipe::Uniform},
    {"MOV", Op::MOV, false, Pipe::Alu},
    {"MOV32I", Op::MOV, false, Pipe::Alu},
    // The ALU, as a move (not measured on a GPU).
    {"LEPC", Op::LEPC, false, Pipe::Alu},
    {"UMOV", Op::MOV, true, Pipe::None},
    {"FADD", Op::FADD, false, Pipe::Fma},
    {"FMUL", Op::FMUL, false, Pipe::Fma},
    {"FFMA", Op::FFMA, false, Pipe::Fma},
    {"FMNMX", Op::FMNMX, false, Pipe::Alu},
    {"FSETP", Op::FSETP, false, Pipe::Alu},
    {"FSEL", Op::FSEL, false, Pipe::Alu},
    {"FCHK", Op::FCHK, false, Pipe::Xu},
    {"MUFU", Op::MUFU, false, Pipe::Xu},
    {"HFMA2", Op::HFMA2, false, Pipe::Fp16},
    {"HADD2", Op::HADD2, false, Pipe::Fp16},
    {"HMUL2", Op::HMUL2, false, Pipe::Fp16},
    // In the ALU, as FMNMX (the H200's counts on kernels_cuda/sass_only/half2_arith.cu).
    {"HMNMX2", Op::HMNMX2, false, Pipe::Alu},
    // The compares in the ALU, as FSETP (read off kernels_cuda/sass_only/half_compare.cu on an
    // H100: 40 ALU instructions more and 40 FMA and FP16 ones fewer than in the FP16 pipe), and
    // VABSDIFF4 in the ALU, as VABSDIFF (consistent with the same kernel's ALU count).
    {"HSETP2", Op::HSETP2, false, Pipe::Alu},
    {"HSET2", Op::HSET2, false, Pipe::Alu},
    {"VABSDIFF4", Op::VABSDIFF4, false, Pipe::Alu},
    // The tensor pipe, which warpsim does not report (not measured on a GPU).
    {"HMMA", Op::HMMA, false, Pipe::None},
    {"IMMA", Op::IMMA, false, Pipe::None},
    {"DMMA", Op::DMMA, false, Pipe::None},
    {"DADD", Op::DADD, false, Pipe::Fp64},
    {"DMUL", Op::DMUL, false, Pipe::Fp64},
    {"DFMA", Op::DFMA, false, Pipe::Fp64},
    {"DSETP", Op::DSETP, false, Pipe::Fp64},
    {"I2F", Op::I2F, false, Pipe::Xu},
    {"I2FP", Op::I2F, false, Pipe::Alu},
    {"F2I", Op::F2I, false, Pipe::Xu},
    {"F2F", Op::F2F, false, Pipe::Xu},
    {"F2FP", Op::F2FP, false, Pipe::Alu},
    {"FRND", Op::FRND, false, Pipe::Xu},
    {"PLOP3", Op::PLOP3, false, Pipe::Alu},
    {"UPLOP3", Op::PLOP3, true, Pipe::Uniform},
    {"P2R", Op::P2R, false, Pipe::Alu},
    {"R2P", Op::R2P, false, Pipe::Alu},
    {"S2R", Op::S2R, false, Pipe::Lsu},
    {"CS2R", Op::CS2R, false, Pipe::Alu},
    {"S2UR", Op::S2UR, true, Pipe::Adu},
    {"LDC", Op::LDC, false, Pipe::Adu},
    {"ULDC", Op::LDC, true, Pipe::None},
    {"R2UR", Op::R2UR, true, Pipe::Alu},
    {"LDG", Op::LDG, false, Pipe::Lsu},
    {"STG", Op::STG, false, Pipe::Lsu},
    // Generic loads and stores, and the space query before a fallback (not measured on a GPU).
    {"LD", Op::LD, false, Pipe::Lsu},
    {"ST", Op::ST, false, Pipe::Lsu},
    {"QSPC", Op::QSPC, false, Pipe::Lsu},
    {"LDS", Op::LDS, false, Pipe::Lsu},
    // The LSU, as LDS (not measured on a GPU).
    {"LDSM", Op::LDSM, false, Pipe::Lsu},
    {"STS", Op::STS, false, Pipe::Lsu},
    {"LDL", Op::LDL, false, Pipe::Lsu},
    {"STL", Op::STL, false, Pipe::Lsu},
    {"ATOMG", Op::ATOMG, false, Pipe::Lsu},
    {"REDG", Op::REDG, false, Pipe::Lsu},
    {"RED", Op::REDG, false, Pipe::Lsu},
    {"ATOMS", Op::ATOMS, false, Pipe::Lsu},
    {"ATOM", Op::ATOM, false, Pipe::Adu},
    // The asynchronous copy's: LDGSTS and its commit (LDGDEPBAR) in the LSU, its wait (DEPBAR)
    // in no reported pipe, read off async_copy_pipeline (results/h100_2026_12_05b/).
    {"LDGSTS", Op::LDGSTS, false, Pipe::Lsu},
    {"LDGDEPBAR", Op::NOP, false, Pipe::Lsu},
    // mbarrier's (sass_mbarrier.hpp): SYNCS in the ADU, ARRIVES (cp.async's arrival) in the
    // LSU, read off barrier_copy, pipeline_stages and mbarrier_probe on an H100
    // (results/h100_2026_12_06c/ with both in the LSU, _06d/ with both in the ADU).
    {"SYNCS", Op::SYNCS, false, Pipe::Adu},
    {"ARRIVES", Op::ARRIVES, false, Pipe::Lsu},
    {"SHFL", Op::SHFL, false, Pipe::Lsu},
    {"VOTE", Op::VOTE, false, Pipe::Alu},
    {"VOTEU", Op::VOTE, true, Pipe::Uniform},
    {"MATCH", Op::MATCH, false, Pipe::Adu},
    {"BRA", Op::BRA, false, Pipe::None},
    {"EXIT", Op::EXIT, false, Pipe::Cbu},
    {"BSSY", Op::BSSY, false, Pipe::Cbu},
    {"BSYNC", Op::BSYNC, false, Pipe::Cbu},
    {"BREAK", Op::BREAK, false, Pipe::Cbu},
    {"WARPSYNC", Op::WARPSYNC, false, Pipe::Cbu},
    {"BAR", Op::BAR, false, Pipe::Adu},
    {"B2R", Op::B2R, false, Pipe::Adu},
    {"UCGABAR_ARV", Op::CGABAR_ARV, true, Pipe::Adu},
    {"UCGABAR_WAIT", Op::CGABAR_WAIT, true, Pipe::None},
    {"CALL", Op::CALL, false, Pipe::Cbu},
    // The CBU, as the other convergence barrier instructions (not measured on a GPU).
    {"BMOV", Op::BMOV, false, Pipe::Cbu},
    {"NANOSLEEP", Op::NANOSLEEP, false, Pipe::Cbu},
    {"BPT", Op::BPT, false, Pipe::Cbu},
    {"BRX", Op::BRX, false, Pipe::Cbu, Pipe::Adu},
    {"RET", Op::RET, false, Pipe::Cbu, Pipe::Adu},
    {"NOP", Op::NOP, false, Pipe::None},
    {"DEPBAR", Op::NOP, false, Pipe::None},
    {"YIELD", Op::NOP, false, Pipe::Cbu},
    {"MEMBAR", Op::NOP, false, Pipe::Lsu},
    {"ERRBAR", Op::NOP, false, Pipe::None},
    {"CCTL", Op::NOP, false, Pipe::Lsu},
    {"FENCE", Op::NOP, false, Pipe::Lsu},
    {"CGAERRBAR", Op::NOP, false, Pipe::Adu},
};
inline constexpr std::size_t kMnemonicCount = std::size(kMnemonics);
static_assert(kMnemonicCount < 256, "Instruction::mnemonic is one byte");

// The row of `name`, if the decoder knows it.
inline std::optional<std::uint8_t> find_mnemonic(std::string_view name) {
  for (std::size_t i = 0; i < kMnemonicCount; ++i) {
    if (kMnemonics[i].name == name) return static_cast<std::uint8_t>(i);
  }
  return std::nullopt;
}

// The pipe of a decoded instruction: its mnemonic's, except for the operand-dependent rules
// above.
inline Pipe instruction_pipe(const Instruction& inst, bool mma) {
  const Pipe pipe = kMnemonics[inst.mnemonic].pipe;
  if (inst.op == Op::S2R && inst.operands.size() == 2 &&
      inst.operands[1].kind == OperandKind::Special) {
    const auto sr = static_cast<Special>(inst.operands[1].index);
    if (sr == Special::CtaidX || sr == Special::CtaidY || sr == Special::CtaidZ ||
        sr == Special::CgaCtaId)
      return Pipe::Adu;
  }
  if (inst.op == Op::HFMA2 && mma) return Pipe::None;
  return pipe;
}

// The second pipe whose counter also counts `inst`: the row's, and for WARPSYNC with a
// register mask (a shuffle or vote with a member mask computed at run time) the ADU beside the
// CBU, where WARPSYNC.ALL counts in the CBU alone.
inline Pipe second_pipe(const Instruction& inst) {
  if (inst.op == Op::WARPSYNC && !inst.operands.empty() &&
      inst.operands[0].kind == OperandKind::Reg)
    return Pipe::Adu;
  return kMnemonics[inst.mnemonic].also;
}

// The memory class smsp__sass_inst_executed_op_* counts `op` in, if any.
inline std::optional<exec::SassOpClass> op_class(Op op) {
  using C = exec::SassOpClass;
  switch (op) {
    case Op::LDG:
      return C::GlobalLd;
    case Op::STG:
      return C::GlobalSt;
    case Op::ATOMG:
      return C::GlobalAtom;
    case Op::REDG:
      return C::GlobalRed;
    case Op::LDL:
      return C::LocalLd;
    case Op::STL:
      return C::LocalSt;
    default:
      return std::nullopt;
  }
}

}  // namespace warpsim::sass
