// A kernel decoded once for execution: registers numbered into slots, immediates and scalar
// arguments placed in a pool of broadcast values, labels turned into instruction indices,
// memory references resolved to arrays with their shapes, and each instruction given the
// function that executes it. The hot loop reads only this.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/exec/global_memory.hpp"
#include "sim/core/exec/launch.hpp"

namespace warpsim::exec {

struct ExecContext;
struct WarpState;
struct DecodedInst;

// Executes one instruction for the lanes in `mask` (never 0).
using ExecFn = void (*)(ExecContext& ctx, WarpState& warp, const DecodedInst& inst,
                        std::uint32_t mask);

inline constexpr std::uint32_t kExitPc = std::numeric_limits<std::uint32_t>::max();

// Where a value operand's 32 lanes are read from. Special registers are kept out of the
// warps' registers, by what they vary with: the launch (in the pool), the warp's index in its
// block (one table per launch) or the block (one copy per block), so starting a block writes
// only its few block-wide values and reading one does not touch the warp's own storage.
enum class OperandSource : std::uint8_t { Register, Pool, WarpSpecial, BlockSpecial };
inline constexpr std::size_t kOperandSources = 4;

// A value operand: a slot of its source; `special` names the special register it reads.
struct OperandRef {
  std::uint32_t slot = 0;
  OperandSource source = OperandSource::Register;
  std::int8_t special = -1;  // an ir::SpecialReg, or -1
};

// The special registers a warp's index decides, and those its block decides, by slot.
inline constexpr std::array<ir::SpecialReg, 5> kWarpSpecials = {
    ir::SpecialReg::TidX, ir::SpecialReg::TidY, ir::SpecialReg::TidZ, ir::SpecialReg::LaneId,
    ir::SpecialReg::WarpId};
inline constexpr std::array<ir::SpecialReg, 4> kBlockSpecials = {
    ir::SpecialReg::CtaidX, ir::SpecialReg::CtaidY, ir::SpecialReg::CtaidZ,
    ir::SpecialReg::ClusterCtaRank};

// The slot of `r` in one of the lists above (the list's size when it is not there).
template <std::size_t N>
constexpr std::size_t special_slot(const std::array<ir::SpecialReg, N>& list, ir::SpecialReg r) {
  for (std::size_t k = 0; k < N; ++k) {
    if (list[k] == r) return k;
  }
  return N;
}

enum class ArrayKind : std::uint8_t { Global, Shared, Const, Local };

struct MemoryRef {
  ArrayKind kind = ArrayKind::Global;
  std::uint32_t array = 0;        // buffer, shared, constant or local array index
  std::uint64_t byte_offset = 0;  // shared/local: the array's offset in the block's/thread's memory
  std::vector<std::uint64_t> dims;  // bounds per index (a buffer: its element count)
  std::vector<OperandRef> index;
  std::vector<ir::ScalarType> index_type;
  bool has_rank = false;  // dsmem (by array with a rank operand, or by cluster address)
  // [base+displacement]: index[0] is a byte address (a global virtual address, or an offset in
  // the block's shared, the thread's local or the constant memory); `dims` is empty.
  bool by_address = false;
  std::int64_t displacement = 0;
  OperandRef rank;
  ir::ScalarType rank_type = ir::ScalarType::U32;
  std::string name;  // for fault reports
};

struct DecodedInst {
  ExecFn exec = nullptr;  // null for control flow and barriers, which the executor handles
  ir::Opcode opcode = ir::Opcode::Ret;
  ir::ScalarType type = ir::ScalarType::Pred;
  ir::ScalarType source_type = ir::ScalarType::Pred;
  ir::Space space = ir::Space::Global;
  ir::AtomicOp atomic_op = ir::AtomicOp::Add;
  ir::ShuffleMode shuffle_mode = ir::ShuffleMode::Idx;
  ir::VoteMode vote_mode = ir::VoteMode::Ballot;
  ir::Rounding rounding = ir::Rounding::Nearest;  // float add, sub, mul, fma; cvt to a half
  ir::HalfFormat half = ir::HalfFormat::None;     // cvt: ir::Instruction's
  std::uint8_t vector_width = 1;
  std::uint8_t narrow_bytes = 0;  // ld, st: an 8- or 16-bit access (ir::Instruction's)
  std::uint8_t ndst = 0;
  std::uint8_t nsrc = 0;
  std::array<std::uint32_t, 4> dst{};
  std::array<OperandRef, 4> src{};
  MemoryRef mem;
  // Bytes one lane's element occupies in memory: the narrow width, or the type's size.
  unsigned element_bytes() const { return narrow_bytes != 0 ? narrow_bytes : ir::size_bytes(type); }
  std::uint32_t target_true = 0;  // br: first instruction of the taken block; jmp: the target
  std::uint32_t target_false = 0;
  std::uint32_t reconverge = kExitPc;  // br: first instruction of the immediate post-dominator
  // br: which sides may reach a barrier before the join (ir::BarrierPaths), and whether, where
  // one side may, the lanes may run from the join to their exit apart: the executor runs such a
  // side after one that cannot, and then each side on to its exit.
  std::uint8_t barrier_sides = 0;
  static constexpr std::uint8_t kTakenSideBarrier = 1, kOtherSideBarrier = 2, kApartAfterJoin = 4;
  std::uint32_t block = 0;
  std::uint32_t line = 0;
  const ir::Instruction* source = nullptr;
};

struct SharedArrayLayout {
  std::string name;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

struct Program {
  const ir::Kernel* kernel = nullptr;
  std::vector<DecodedInst> insts;
  std::vector<std::uint32_t> block_start;   // per IR block: index of its first instruction
  std::uint32_t register_slots = 0;         // virtual registers
  std::vector<std::string> register_names;  // per virtual-register slot, without '%'
  std::vector<ir::ScalarType> register_types;
  std::vector<std::uint64_t> pool;  // broadcast values, 32 lanes per slot
  // Per warp index: kWarpSpecials, 32 lanes each.
  std::vector<std::uint64_t> warp_specials;
  // How each special register is read (by ir::SpecialReg).
  std::array<OperandRef, ir::kSpecialRegCount> special_operands{};
  std::vector<SharedArrayLayout> shared;        // static arrays, then the dynamic one
  std::uint64_t shared_bytes = 0;               // per block, static + dynamic
  std::uint64_t local_bytes = 0;                // per thread
  std::vector<std::uint8_t> constants;          // the constant bank
  std::vector<std::uint64_t> constant_offsets;  // per module constant
};

// Bytes of a kernel's static shared arrays as laid out in a block's shared memory (declaration
// order, each aligned to 16 bytes); dynamic shared memory starts after them.
std::uint64_t static_shared_bytes(const ir::Kernel& kernel);

// Requires a verified module. `memory` gives the buffers' sizes for bounds.
Program decode(const ir::Module& module, const LaunchSpec& launch, const GlobalMemory& memory);

// Picks the function that executes `inst` (the executor's instruction table).
ExecFn select_exec(const DecodedInst& inst);

// The module's constants laid out as the constant bank holds them: in declaration order, each
// 16-byte aligned (as the lowered PTX declares them, so ptxas places them at the same offsets);
// each one's offset in `offsets` when given.
std::vector<std::uint8_t> constant_image(const ir::Module& module,
                                         std::vector<std::uint64_t>* offsets = nullptr);

}  // namespace warpsim::exec
