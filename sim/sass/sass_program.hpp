// A kernel's SASS decoded for execution: each instruction of the listing (sass_listing.hpp) as
// an opcode, the modifiers that change what it computes, its guard and its operands, with
// branch targets resolved to instruction indices. Only forms whose semantics the executor
// implements decode; anything else is an error naming the instruction, its address and the
// kernel, so a result is never computed from guessed semantics.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/exec/stats.hpp"
#include "sim/sass/sass_listing.hpp"

namespace warpsim::sass {

// Base opcodes the executor runs (the listing's opcode before its first '.').
enum class Op : std::uint8_t {
  // integer
  IADD3,
  IMAD,
  IMADWIDE,
  LEA,
  SHF,
  LOP3,
  ISETP,
  IMNMX,
  IADDMNMX,
  IABS,
  VABSDIFF,  // |a - b| + c, signed unless .U32 (CUDA's __sad, __usad)
  // VABSDIFF4.U8 (or .S8) Rd, a, b, c: each byte's |a - b| (__vabsdiffu4, __vabsdiffs4), the
  // packed bytes plus c; with .ACC the four differences summed plus c.
  VABSDIFF4,
  POPC,
  FLO,
  BREV,
  BMSK,  // BMSK d, start, width: `width` one bits from bit `start` (.W: both modulo 32)
  // SGXT d, a, width: PTX's szext, a's low `width` bits sign-extended (.U32: zero-extended);
  // the width is limited to 32 (.W: taken modulo 32), and a width of 0 gives 0.
  SGXT,
  // IDP.4A.Ta.Tb d, a, b, c: c plus the dot product of a's and b's four bytes (__dp4a);
  // IDP.2A.LO|HI.Ta.Tb: c plus a's two 16-bit halves times b's low or high two bytes (__dp2a).
  IDP,
  PRMT,
  SEL,
  MOV,
  LEPC,  // LEPC Rd, label: the label's address (a call's return address) in Rd, Rd+1
  // floating point
  FADD,
  FMUL,
  FFMA,
  FMNMX,
  FSETP,
  FSEL,
  FCHK,
  MUFU,
  HFMA2,
  HADD2,   // packed, or HADD2.F32: two halves to an f32 sum (ptxas's cvt.f32.f16)
  HMUL2,   // packed halves (.BF16_V2: bfloat16)
  HMNMX2,  // packed min (predicate true) or max
  // HSETP2 Pd, Pq, a, b, Pc: each half compared, the low half's result to Pd and the high's to
  // Pq (.H_AND: both halves' to Pd), each combined with Pc; HSET2 Rd, a, b, Pc: each half of Rd
  // 0xffff where true (.BF: the format's 1.0), else 0.
  HSETP2,
  HSET2,
  // HMMA.16816.Tacc[.BF16] D, A, B, C: one warp's 16x8x16 matrix product D = A B + C (PTX
  // mma.sync.m16n8k16) on f16 (or bfloat16) A and B, the accumulator f32 or packed f16; also
  // .1688 (m16n8k8) and on tf32 .1684 and .1688 (HMMA.1684.F32.TF32). The shape: MmaShape.
  HMMA,
  // IMMA.16816.Ta.Tb (.16832, .8816) D, A.ROW, B.COL, C: the same on 8-bit integers (S8 or U8
  // each), the accumulator s32 (.SAT: clamped); DMMA.8x8x4: on doubles (mma.sync.m8n8k4.f64).
  IMMA,
  DMMA,
  // LDSM.16.M88.N Rd, [a] (.MT88: transposed): N (1, 2 or 4) 8x8 matrices of 16-bit elements
  // from shared memory, each row's address from one lane (PTX ldmatrix), spread over the warp.
  LDSM,
  DADD,
  DMUL,
  DFMA,
  DSETP,
  // conversions
  I2F,
  F2I,
  F2F,
  F2FP,  // two f32 values to two 16-bit floats packed in one register (.PACK_AB)
  FRND,
  // predicates
  PLOP3,
  P2R,
  R2P,
  // special registers, constants, uniform moves
  S2R,
  CS2R,
  S2UR,
  LDC,
  R2UR,
  // memory
  LDG,
  STG,
  LD,  // generic: global, or shared by the shared window's high word
  ST,
  QSPC,  // QSPC.E.S|G P, RZ, [addr]: whether a generic address is in that space
  LDS,
  STS,
  LDL,
  STL,
  ATOMG,
  REDG,
  ATOMS,
  LDGSTS,  // an asynchronous copy from global to shared memory (cp.async)
  // SYNCS.EXCH.64, .ARRIVE.TRANS64, .PHASECHK.TRANS64, .CCTL.IV: mbarrier's init, arrivals and
  // transaction counts, phase tests and waits, invalidation (sass_mbarrier.hpp)
  SYNCS,
  ARRIVES,  // ARRIVES.LDGSTSBAR.64: an arrival (or a transaction) once the thread's copies land
  ATOM,     // generic: global or (by the shared window's high word) shared memory of the cluster
  // warp-level
  SHFL,
  VOTE,
  MATCH,
  REDUX,
  B2R,  // B2R.RESULT: the last BAR.RED's result
  // control
  BRA,
  EXIT,
  BSSY,
  BSYNC,
  BREAK,
  WARPSYNC,
  BAR,
  CGABAR_ARV,   // UCGABAR_ARV: the warp's threads arrive at the cluster's barrier
  CGABAR_WAIT,  // UCGABAR_WAIT: they wait until that phase has every thread's arrival
  CALL,
  RET,
  BRX,  // BRX R, offset: an indirect jump (a switch's jump table), to R + offset + the next address
  // BMOV.32 Rd, Bn (.CLEAR: and empty Bn) / BMOV.32 Bn, Rs: a convergence barrier's lanes to a
  // register and back, as a function that may be called from divergent code saves them.
  BMOV,
  NANOSLEEP,  // __nanosleep: the warp waits a while (functionally nothing)
  BPT,        // BPT.TRAP: __trap() and a failed assert's end, a fault
  NOP,
  MEMBAR,
};

enum class OperandKind : std::uint8_t { Reg, UReg, Pred, UPred, Imm, Const, Mem, Special, Barrier };

inline constexpr std::uint8_t kZeroReg = 255;  // RZ
inline constexpr std::uint8_t kZeroUReg = 63;  // URZ
inline constexpr std::uint8_t kTruePred = 7;   // PT, UPT
// PR, the predicates P0-P6 as the bits of one word (P2R, R2P): a Pred operand of this index.
inline constexpr std::uint8_t kPredicateWord = 8;
inline constexpr std::uint8_t kNoReg = 0xfe;  // a memory operand without that part

enum class Special : std::uint8_t {
  TidX,
  TidY,
  TidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  LaneId,
  CgaCtaId,
  ClockLo,
  ClockHi,
  GlobalTimerLo,  // %globaltimer, nanoseconds (a try_wait loop's back-off reads it)
  GlobalTimerHi,
  LtMask,
  LeMask,
  EqMask,
  GeMask,
  GtMask,
  Zero,
  SharedWindowHigh,  // SR_SWINHI
  VirtualSm,
  WarpId
};

struct Operand {
  OperandKind kind = OperandKind::Imm;
  std::uint8_t index = 0;  // register, predicate, special or convergence barrier number
  bool negate = false;     // -R (arithmetic), !P (predicate)
  bool absolute = false;   // |R|
  bool invert = false;     // ~R
  bool wide = false;       // R.64 in an address
  // R.B0-R.B3, R.H0-R.H1: one byte or half of a register (I2F.U8 R0, R5.B1 converts byte 1).
  std::uint8_t part_bytes = 0;  // 1 or 2; 0: the whole register
  std::uint8_t part = 0;        // which byte or half
  std::uint64_t value = 0;      // Imm: the bits; Const: the byte offset; Mem: the offset (two's c.)
  double real = 0.0;            // Imm written as a floating-point literal (is_real)
  bool is_real = false;
  // Const: c[bank][reg + offset] (reg kNoReg when absent, ureg for a uniform index).
  // Mem: desc[ureg_desc][reg(.64) + ureg + offset], reg scaled by `scale`.
  std::uint8_t bank = 0;
  std::uint8_t reg = kNoReg;
  std::uint8_t ureg = kNoReg;
  std::uint8_t scale = 1;
};

// A constant at an offset no register moves: the same word on every lane.
inline bool is_fixed_constant(const Operand& o) {
  return o.kind == OperandKind::Const && (o.reg == kNoReg || o.reg == kZeroReg) &&
         (o.ureg == kNoReg || o.ureg == kZeroUReg);
}

enum class Compare : std::uint8_t {
  F,
  LT,
  EQ,
  LE,
  GT,
  NE,
  GE,
  T,
  NUM,
  NAN_,
  LTU,
  EQU,
  LEU,
  GTU,
  NEU,
  GEU
};
enum class BoolOp : std::uint8_t { And, Or, Xor };
enum class Rounding : std::uint8_t { Nearest, Zero, Down, Up };
// An integer or floating-point width and kind, from modifiers like .U32, .S64, .F16, .U8.
enum class DataType : std::uint8_t {
  U8,
  S8,
  U16,
  S16,
  U32,
  S32,
  U64,
  S64,
  F16,
  BF16,
  F32,
  F64,
  B128,
  F16X2,   // two packed f16 (an atomic's .F16x2)
  BF16X2,  // two packed bfloat16 (.BF16x2)
  // sm_90's vector atomics: two or four f32, eight f16 or four bfloat16 (.F32x2, .F32x4, .F16x8,
  // .BF16x4).
  F32X2,
  F32X4,
  F16X8,
  BF16X4,
};

inline unsigned data_bytes(DataType t) {
  switch (t) {
    case DataType::U8:
    case DataType::S8:
      return 1;
    case DataType::U16:
    case DataType::S16:
    case DataType::F16:
    case DataType::BF16:
      return 2;
    case DataType::U32:
    case DataType::S32:
    case DataType::F32:
    case DataType::F16X2:
    case DataType::BF16X2:
      return 4;
    case DataType::U64:
    case DataType::S64:
    case DataType::F64:
    case DataType::F32X2:
    case DataType::BF16X4:
      return 8;
    case DataType::B128:
    case DataType::F32X4:
    case DataType::F16X8:
      return 16;
  }
  return 4;
}

// The functions and modes that `Modifiers::sub` holds, per opcode.
enum class MufuFn : std::uint8_t { Rcp, Rsq, Sqrt, Ex2, Lg2, Sin, Cos, Tanh, Rcp64H, Rsq64H };
enum class ShflMode : std::uint8_t { Idx, Up, Down, Bfly };
enum class VoteMode : std::uint8_t { Any, All, Eq };
// Cast: compare and store (ATOMS.CAST.SPIN), giving 1 where it stored and 0 where not.
enum class AtomOp : std::uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas, Cast };
enum class BarKind : std::uint8_t { Sync, Arrive, Red };
// BAR.RED's operation (CUDA's __syncthreads_count, _and, _or), read back by B2R.RESULT.
enum class BarReduction : std::uint8_t { None, Popc, And, Or };
enum class ReduxOp : std::uint8_t { Sum, Min, Max, And, Or, Xor };
// DSETP.MIN and DSETP.MAX (ptxas's min.f64 and max.f64): Modifiers::sub; 0 is a comparison.
inline constexpr std::uint8_t kDsetpMin = 1;
inline constexpr std::uint8_t kDsetpMax = 2;
// BRA.DIV UR, target: Modifiers::sub. ptxas guards a fast path for a warp-synchronous operation
// (cooperative groups' tiled reductions) with it: the branch to the general path is taken
// where a lane of the member mask in UR is not executing with this instruction.
inline constexpr std::uint8_t kBraDivergent = 1;
// WARPSYNC.EXCLUSIVE Rmask (ptxas's code before a REDUX or a MATCH over a tile of the warp):
// the lanes waiting there are released by their masks' groups, each group running apart from
// the others until a convergence barrier joins them, so the reduction sees its tile alone.
inline constexpr std::uint8_t kWarpsyncExclusive = 1;
inline constexpr std::uint8_t kBmovClear = 1;  // BMOV.32.CLEAR
inline constexpr std::uint8_t kNopYield = 1;   // YIELD, decoded as a NOP (SassWarp::yield_waiting)
// CALL.ABS.NOINC R: a call to the 64-bit address in R (a runtime function, vprintf or
// __assertfail, whose address the loader put in constant bank 4); Modifiers::sub.
inline constexpr std::uint8_t kCallAbsolute = 1;
// Bytes per instruction on sm_70 and later: a code address is an instruction index times this.
inline constexpr std::uint32_t kInstructionBytes = 16;
// HSETP2.H_AND (both halves to one predicate) and HSET2.BF (1.0 for true): Modifiers::sub.
inline constexpr std::uint8_t kHalvesAnd = 1;
inline constexpr std::uint8_t kBooleanFloat = 1;
// VIADD.16x2 and VIMNMX.S16x2 (.U16x2): two 16-bit integers in each register, added (each
// source's - negating each half) or compared half by half (__vadd2, __vsub2, __vmins2).
inline constexpr std::uint8_t kPacked16 = 1;
// F2FP's 8-bit float forms (Modifiers::sub, or-ed): the format, .UNPACK_B (halves in, or out),
// and _MERGE_C (narrowing: the bytes merged into c).
inline constexpr std::uint8_t kFp8E4M3 = 1;
inline constexpr std::uint8_t kFp8E5M2 = 2;
inline constexpr std::uint8_t kFp8Unpack = 4;
inline constexpr std::uint8_t kFp8Merge = 8;
// HMNMX2.NAN (__hmin2_nan, __hmax2_nan): a NaN in either half gives NaN (Modifiers::sub).
inline constexpr std::uint8_t kPropagateNan = 1;
// HFMA2.RELU (PTX fma.rn.relu, __hfma2_relu): a negative result is +0 (Modifiers::sub).
inline constexpr std::uint8_t kRelu = 1;
// VABSDIFF4.ACC: the byte differences summed (Modifiers::sub).
inline constexpr std::uint8_t kAccumulate = 1;
// HMMA's and IMMA's shape (Modifiers::sub), M x N x K.
enum class MmaShape : std::uint8_t { M16N8K16, M16N8K8, M16N8K4, M16N8K32, M8N8K16 };
// SYNCS and ARRIVES: Modifiers::sub (sass_mbarrier.hpp decodes it).
// LDSM: Modifiers::sub holds the matrix count (1, 2, 4), plus this where transposed (.MT88).
inline constexpr std::uint8_t kLdsmTransposed = 8;

// What the modifiers say, decoded once; each opcode reads the fields it has.
struct Modifiers {
  Compare compare = Compare::F;
  BoolOp bool_op = BoolOp::And;
  Rounding rounding = Rounding::Nearest;
  DataType type = DataType::U32;  // memory width; integer compare/shift/convert source kind
  DataType dest = DataType::U32;  // conversions: the destination kind
  bool is_unsigned = false;       // .U32 on compares and multiplies
  bool extended = false;          // .X (carry in), .EX (chained compare)
  bool high = false;              // .HI
  bool left = false;              // SHF.L
  bool ftz = false;
  bool saturate = false;
  bool sx32 = false;         // LEA.HI .SX32: the high word is the low word's sign
  bool uniform = false;      // the uniform datapath's form (UIADD3, ULEA, ...): one value a warp
  bool wrap = false;         // SHF .W: the shift amount wraps; BMSK .W: start and width
  bool truncate = false;     // F2I/FRND .TRUNC, .FLOOR, .CEIL encoded in `rounding`
  bool count_lanes = false;  // ATOMS.POPC.INC: adds one per lane, no value operand
  BarReduction bar_reduction = BarReduction::None;  // BAR.RED.POPC, .AND, .OR
  std::uint8_t sub = 0;  // MUFU function, SHFL mode, VOTE mode, atomic op, BAR kind, PRMT mode
};

struct Instruction {
  Op op = Op::NOP;
  Modifiers mods;
  std::uint8_t guard = kTruePred;  // PT: always
  bool guard_negate = false;
  bool guard_uniform = false;
  // A form the executor does not model, on a path only divergent warps take (see
  // SassProgram::unmodelled): reaching it is a kernel fault naming it.
  bool unmodelled = false;
  std::vector<Operand> operands;
  std::uint32_t target = 0;  // BRA/BSSY/CALL: the instruction index it names
  std::uint32_t address = 0;
  const SassInstruction* listed = nullptr;     // its listing line (opcode, operands, controls)
  std::uint8_t mnemonic = 0;                   // its row of kMnemonics (sass_mnemonics.hpp)
  exec::SassPipe pipe = exec::SassPipe::None;  // what smsp__inst_executed_pipe_* counts it in
};

struct SassProgram {
  std::string kernel;
  std::vector<Instruction> insts;  // index = address / 16
  std::uint32_t registers = 0;     // R0 .. R(registers-1) used (at least 1)
  std::uint32_t uniform_registers = 0;
  // Instructions the executor does not model that no warp reaches but through a BRA.DIV (the
  // general paths ptxas compiles beside a warp-synchronous fast path, WARPSYNC.COLLECTIVE ...
  // ENDCOLLECTIVE): instruction index and why, as the decoder would have refused it. Anywhere
  // else such an instruction refuses the whole kernel.
  std::vector<std::pair<std::uint32_t, std::string>> unmodelled;
  // Each BRX's targets as nvdisasm lists them (BRANCH_TARGETS), by the BRX's index: a jump
  // elsewhere is a fault, not a guess.
  std::map<std::uint32_t, std::vector<std::uint32_t>> jump_targets;
};

struct DecodeError {
  std::string message;  // names the kernel, the instruction's address and its text
};

std::optional<SassProgram> decode_program(const SassFunction& f, DecodeError& error);

}  // namespace warpsim::sass
