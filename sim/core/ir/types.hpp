// Scalar types, memory spaces and the small enumerations that instruction modifiers name.
// Contract: every enumeration here has exactly one spelling, returned by name() and accepted by
// the matching parse_*() function; parse_*(name(x)) == x for every value x.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::ir {

enum class ScalarType : std::uint8_t { Pred, S32, U32, S64, U64, F32, F64 };

// Bytes one element occupies in memory; a predicate is never stored, so it has no size.
constexpr unsigned size_bytes(ScalarType t) {
  switch (t) {
    case ScalarType::Pred:
      return 0;
    case ScalarType::S32:
    case ScalarType::U32:
    case ScalarType::F32:
      return 4;
    case ScalarType::S64:
    case ScalarType::U64:
    case ScalarType::F64:
      return 8;
  }
  return 0;
}
constexpr bool is_float(ScalarType t) {
  return t == ScalarType::F32 || t == ScalarType::F64;
}
constexpr bool is_signed_int(ScalarType t) {
  return t == ScalarType::S32 || t == ScalarType::S64;
}
constexpr bool is_int(ScalarType t) {
  return t == ScalarType::S32 || t == ScalarType::U32 || t == ScalarType::S64 ||
         t == ScalarType::U64;
}

// A register of type `have` may be read where `want` is expected: the same type, or two integer
// types of one width (s32/u32 share a 32-bit register, as PTX's relaxed rules allow).
constexpr bool operand_compatible(ScalarType want, ScalarType have) {
  if (want == have) return true;
  return is_int(want) && is_int(have) && size_bytes(want) == size_bytes(have);
}

enum class Space : std::uint8_t { Global, Shared, Const, Local, Dsmem };

enum class AtomicOp : std::uint8_t { Add, Min, Max, Exch, Cas, And, Or, Xor, Inc, Dec };
enum class ShuffleMode : std::uint8_t { Idx, Up, Down, Xor };
// What a vote or a barrier reduction computes. Popc is bar.red.popc's count of the true
// predicates (a vote has no such mode); bar.red.and and bar.red.or are All and Any.
enum class VoteMode : std::uint8_t { Ballot, Any, All, Popc };
// The rounding of a float add, sub, mul or fma: PTX's .rn (the default, to nearest even), .rz
// (toward zero), .rm (toward -inf), .rp (toward +inf).
enum class Rounding : std::uint8_t { Nearest, Zero, Down, Up };
// The 16-bit float formats cvt converts to and from (PTX's .f16 and .bf16): the IR holds such a
// value as the low 16 bits of a u32 register, as its 8- and 16-bit loads do (docs/ir.md).
enum class HalfFormat : std::uint8_t { None, F16, BF16 };

enum class SpecialReg : std::uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  ClusterCtaRank,
  ClusterNctaRank,
};
inline constexpr unsigned kSpecialRegCount = 16;

std::string_view name(ScalarType t);
std::string_view name(Space s);
std::string_view name(AtomicOp op);
std::string_view name(ShuffleMode m);
std::string_view name(VoteMode m);
std::string_view name(Rounding r);    // rn, rz, rm, rp
std::string_view name(HalfFormat f);  // f16, bf16 (None: "")
std::string_view name(SpecialReg r);  // without the leading '%'

std::optional<ScalarType> parse_scalar_type(std::string_view s);

// The narrow memory types of ld and st: "u8" -> (u32, 1), "s16" -> (s32, 2); nothing otherwise.
struct NarrowType {
  ScalarType type;
  std::uint8_t bytes;
};
std::optional<NarrowType> parse_narrow_type(std::string_view s);
std::string_view narrow_type_name(ScalarType type, std::uint8_t bytes);
// A launch buffer's elements: given and shown as `element` values, and stored as `storage` says:
// Natural, as `element`; or narrower, as 8- or 16-bit integers of its signedness (u8 .. s16, of
// u32 or s32 values) or as IEEE half or bfloat16 (f16, bf16, of f32 values rounded to nearest
// even), which a CUDA kernel's char, short, __half and __nv_bfloat16 pointers read.
enum class Storage : std::uint8_t { Natural, Bits8, Bits16, F16, BF16 };
struct BufferType {
  ScalarType element = ScalarType::F32;
  Storage storage = Storage::Natural;
  bool operator==(const BufferType&) const = default;
};
unsigned storage_bytes(BufferType t);             // bytes an element takes in memory
HalfFormat half_format(Storage s);                // F16, BF16; None for the others
std::string_view buffer_type_name(BufferType t);  // "f32", "u16", "bf16"
std::optional<BufferType> parse_buffer_type(std::string_view s);
std::optional<Space> parse_space(std::string_view s);
std::optional<AtomicOp> parse_atomic_op(std::string_view s);
std::optional<ShuffleMode> parse_shuffle_mode(std::string_view s);
std::optional<VoteMode> parse_vote_mode(std::string_view s);  // ballot, any, all
// bar.red's operation: popc, and (All) or or (Any).
std::optional<VoteMode> parse_barrier_reduction(std::string_view s);
std::string_view barrier_reduction_name(VoteMode m);
std::optional<Rounding> parse_rounding(std::string_view s);
std::optional<HalfFormat> parse_half_format(std::string_view s);  // f16, bf16
std::optional<SpecialReg> parse_special_reg(std::string_view s);  // without the leading '%'

}  // namespace warpsim::ir
