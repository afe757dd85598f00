// The opcode table (opcodes.def) as C++: the one description of the instruction set.
// Contract: opcode_info(op) is defined for every Opcode; find_opcode(spelling) finds exactly the
// spellings in the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/core/ir/types.hpp"

namespace warpsim::ir {

enum class Opcode : std::uint8_t {
#define X(e, spelling, mods, types, result, sig, latency) e,
#include "sim/core/ir/opcodes.def"
#undef X
};

enum class ModifierPattern : std::uint8_t {
  None,
  Type,
  TypePair,
  SpaceType,
  AtomicType,
  ShuffleType,
  Vote,
  ReduceType,       // .op.T: redux.sync.add.u32 (the operation held as an AtomicOp)
  BarrierReduction  // .op: bar.red.popc, bar.red.and, bar.red.or (held as a VoteMode)
};

// What an instruction defines.
enum class ResultRule : std::uint8_t {
  None,      // nothing
  Same,      // one register of the instruction type (cvt: the destination type)
  Pred,      // one predicate
  Loaded,    // one register per vector element, of the instruction type
  Optional,  // atom: the old value when a destination is written, else nothing (a reduction)
  VoteMode,  // vote.ballot, bar.red.popc: u32; vote.any / vote.all, bar.red.and / .or: pred
  Mask,      // match.any: a u32 mask of lanes, whatever the instruction type
};

// Which pipeline an instruction occupies; the timing model maps a class (and type) to latency.
enum class LatencyClass : std::uint8_t {
  Alu,
  Mul,
  Fma,
  Div,
  Convert,
  Memory,
  Atomic,
  WarpWide,
  Barrier,
  Branch
};

using TypeSet = std::uint8_t;  // bit i set: ScalarType(i) allowed
constexpr TypeSet type_bit(ScalarType t) {
  return static_cast<TypeSet>(1u << static_cast<unsigned>(t));
}
inline constexpr TypeSet kNoType = 0;
inline constexpr TypeSet kPred = type_bit(ScalarType::Pred);
inline constexpr TypeSet kInts = type_bit(ScalarType::S32) | type_bit(ScalarType::U32) |
                                 type_bit(ScalarType::S64) | type_bit(ScalarType::U64);
inline constexpr TypeSet kFloats = type_bit(ScalarType::F32) | type_bit(ScalarType::F64);
inline constexpr TypeSet kF32 = type_bit(ScalarType::F32);
inline constexpr TypeSet kIntOrFloat = kInts | kFloats;
inline constexpr TypeSet kIntOrPred = kInts | kPred;
inline constexpr TypeSet kAnyValue = kInts | kFloats | kPred;
inline constexpr TypeSet kSignedOrFloat =
    type_bit(ScalarType::S32) | type_bit(ScalarType::S64) | kFloats;
inline constexpr TypeSet kInt32 = type_bit(ScalarType::S32) | type_bit(ScalarType::U32);
inline constexpr TypeSet k32Bit =
    type_bit(ScalarType::S32) | type_bit(ScalarType::U32) | type_bit(ScalarType::F32);

constexpr bool contains(TypeSet set, ScalarType t) {
  return (set & type_bit(t)) != 0;
}

struct OpcodeInfo {
  std::string_view spelling;
  ModifierPattern modifiers;
  TypeSet types;
  ResultRule result;
  std::string_view signature;  // see opcodes.def
  LatencyClass latency;
  bool is_terminator;
};

const OpcodeInfo& opcode_info(Opcode op);
std::optional<Opcode> find_opcode(std::string_view spelling);
inline std::string_view spelling(Opcode op) {
  return opcode_info(op).spelling;
}

}  // namespace warpsim::ir
