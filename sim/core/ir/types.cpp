#include "sim/core/ir/types.hpp"

#include <array>

namespace warpsim::ir {
namespace {

constexpr std::array<std::string_view, 7> kTypeNames = {"pred", "s32", "u32", "s64",
                                                        "u64",  "f32", "f64"};
constexpr std::array<std::string_view, 5> kSpaceNames = {"global", "shared", "const", "local",
                                                         "dsmem"};
constexpr std::array<std::string_view, 10> kAtomicNames = {"add", "min", "max", "exch", "cas",
                                                           "and", "or",  "xor", "inc",  "dec"};
constexpr std::array<std::string_view, 4> kShuffleNames = {"idx", "up", "down", "xor"};
constexpr std::array<std::string_view, 4> kVoteNames = {"ballot", "any", "all", "popc"};
// bar.red's spellings of the same modes (a ballot has none).
constexpr std::array<std::string_view, 4> kBarrierReductionNames = {"", "or", "and", "popc"};
constexpr std::array<std::string_view, 4> kRoundingNames = {"rn", "rz", "rm", "rp"};
constexpr std::array<std::string_view, kSpecialRegCount> kSpecialNames = {
    "tid.x",   "tid.y",   "tid.z",           "ntid.x",          "ntid.y",   "ntid.z",
    "ctaid.x", "ctaid.y", "ctaid.z",         "nctaid.x",        "nctaid.y", "nctaid.z",
    "laneid",  "warpid",  "cluster_ctarank", "cluster_nctarank"};

template <typename Enum, std::size_t N>
std::optional<Enum> lookup(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view name(ScalarType t) {
  return kTypeNames.at(static_cast<std::size_t>(t));
}
std::string_view name(Space s) {
  return kSpaceNames.at(static_cast<std::size_t>(s));
}
std::string_view name(AtomicOp op) {
  return kAtomicNames.at(static_cast<std::size_t>(op));
}
std::string_view name(ShuffleMode m) {
  return kShuffleNames.at(static_cast<std::size_t>(m));
}
std::string_view name(VoteMode m) {
  return kVoteNames.at(static_cast<std::size_t>(m));
}
std::string_view name(Rounding r) {
  return kRoundingNames.at(static_cast<std::size_t>(r));
}
std::string_view name(HalfFormat f) {
  switch (f) {
    case HalfFormat::F16:
      return "f16";
    case HalfFormat::BF16:
      return "bf16";
    case HalfFormat::None:
      break;
  }
  return "";
}
std::string_view name(SpecialReg r) {
  return kSpecialNames.at(static_cast<std::size_t>(r));
}

std::optional<ScalarType> parse_scalar_type(std::string_view s) {
  return lookup<ScalarType>(kTypeNames, s);
}
std::optional<Space> parse_space(std::string_view s) {
  return lookup<Space>(kSpaceNames, s);
}
std::optional<AtomicOp> parse_atomic_op(std::string_view s) {
  return lookup<AtomicOp>(kAtomicNames, s);
}
std::optional<ShuffleMode> parse_shuffle_mode(std::string_view s) {
  return lookup<ShuffleMode>(kShuffleNames, s);
}
std::optional<VoteMode> parse_vote_mode(std::string_view s) {
  const auto mode = lookup<VoteMode>(kVoteNames, s);
  if (mode == VoteMode::Popc) return std::nullopt;
  return mode;
}
std::optional<VoteMode> parse_barrier_reduction(std::string_view s) {
  if (s.empty()) return std::nullopt;
  return lookup<VoteMode>(kBarrierReductionNames, s);
}
std::string_view barrier_reduction_name(VoteMode m) {
  return kBarrierReductionNames.at(static_cast<std::size_t>(m));
}
std::optional<Rounding> parse_rounding(std::string_view s) {
  return lookup<Rounding>(kRoundingNames, s);
}
std::optional<HalfFormat> parse_half_format(std::string_view s) {
  if (s == "f16") return HalfFormat::F16;
  if (s == "bf16") return HalfFormat::BF16;
  return std::nullopt;
}
std::optional<SpecialReg> parse_special_reg(std::string_view s) {
  return lookup<SpecialReg>(kSpecialNames, s);
}

std::optional<NarrowType> parse_narrow_type(std::string_view s) {
  if (s == "u8") return NarrowType{ScalarType::U32, 1};
  if (s == "s8") return NarrowType{ScalarType::S32, 1};
  if (s == "u16") return NarrowType{ScalarType::U32, 2};
  if (s == "s16") return NarrowType{ScalarType::S32, 2};
  return std::nullopt;
}

unsigned storage_bytes(BufferType t) {
  switch (t.storage) {
    case Storage::Natural:
      return size_bytes(t.element);
    case Storage::Bits8:
      return 1;
    case Storage::Bits16:
    case Storage::F16:
    case Storage::BF16:
      return 2;
  }
  return 0;
}

HalfFormat half_format(Storage s) {
  return s == Storage::F16    ? HalfFormat::F16
         : s == Storage::BF16 ? HalfFormat::BF16
                              : HalfFormat::None;
}

std::string_view buffer_type_name(BufferType t) {
  switch (t.storage) {
    case Storage::Natural:
      return name(t.element);
    case Storage::Bits8:
      return narrow_type_name(t.element, 1);
    case Storage::Bits16:
      return narrow_type_name(t.element, 2);
    case Storage::F16:
      return "f16";
    case Storage::BF16:
      return "bf16";
  }
  return "";
}

std::optional<BufferType> parse_buffer_type(std::string_view s) {
  if (s == "f16") return BufferType{ScalarType::F32, Storage::F16};
  if (s == "bf16") return BufferType{ScalarType::F32, Storage::BF16};
  if (const auto narrow = parse_narrow_type(s))
    return BufferType{narrow->type, narrow->bytes == 1 ? Storage::Bits8 : Storage::Bits16};
  if (const auto t = parse_scalar_type(s)) return BufferType{*t};
  return std::nullopt;
}

std::string_view narrow_type_name(ScalarType type, std::uint8_t bytes) {
  const bool is_signed = type == ScalarType::S32;
  if (bytes == 1) return is_signed ? "s8" : "u8";
  return is_signed ? "s16" : "u16";
}

}  // namespace warpsim::ir
