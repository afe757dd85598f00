// Instructions across a warp's lanes: SHFL (PTX shfl.sync's lane arithmetic: b the lane or
// offset, c the clamp in bits 0-4 and the segment mask in bits 8-12), VOTE (ballot, any, all,
// uniform), MATCH.ANY and MATCH.ALL. Sources are read for every lane before any lane is written.
#include <array>
#include <bit>

#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

void shuffle(const Lanes& x) {
  // Pd, Rd, Ra, b, c
  std::array<std::uint32_t, kWarpSize> source{};
  for (unsigned lane = 0; lane < kWarpSize; ++lane) source[lane] = x.raw(x.op(2), lane);
  const auto mode = static_cast<ShflMode>(x.inst.mods.sub);
  x.each([&](unsigned lane) {
    const std::uint32_t b = x.raw(x.op(3), lane) & 0x1fu;
    const std::uint32_t c = x.raw(x.op(4), lane);
    const std::uint32_t segment = (c >> 8) & 0x1fu;
    const std::uint32_t max_lane = (lane & segment) | ((c & 0x1fu) & ~segment);
    const std::uint32_t min_lane = lane & segment;
    std::uint32_t j = lane;
    bool in_range = false;
    switch (mode) {
      case ShflMode::Up:
        j = lane - b;
        in_range = lane >= b && j >= max_lane;
        break;
      case ShflMode::Down:
        j = lane + b;
        in_range = j <= max_lane;
        break;
      case ShflMode::Bfly:
        j = lane ^ b;
        in_range = j <= max_lane;
        break;
      case ShflMode::Idx:
        j = min_lane | (b & ~segment);
        in_range = j <= max_lane;
        break;
    }
    if (!in_range) j = lane;
    x.set(x.op(1), lane, source[j & 0x1fu]);
    x.set_pred(x.op(0), lane, in_range);
  });
}

void vote(const Lanes& x) {
  // [Rd,] Pd, Pa (VOTEU: [URd,] UPd, Pa)
  const std::size_t first_pred =
      x.op(0).kind == OperandKind::Pred || x.op(0).kind == OperandKind::UPred ? 0 : 1;
  const Operand& source = x.op(first_pred + 1);
  std::uint32_t ballot = 0;
  for (std::uint32_t m = x.mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (x.pred(source, lane)) ballot |= 1u << lane;
  }
  bool r = false;
  switch (static_cast<VoteMode>(x.inst.mods.sub)) {
    case VoteMode::Any:
      r = ballot != 0;
      break;
    case VoteMode::All:
      r = ballot == x.mask;
      break;
    case VoteMode::Eq:
      r = ballot == 0 || ballot == x.mask;
      break;
  }
  x.each([&](unsigned lane) {
    if (first_pred == 1) x.set(x.op(0), lane, ballot);
    x.set_pred(x.op(first_pred), lane, r);
  });
}

void match_any(const Lanes& x) {
  const bool wide = data_bytes(x.inst.mods.type) == 8;
  std::array<std::uint64_t, kWarpSize> value{};
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    value[lane] = wide ? x.raw64(x.op(1), lane) : x.raw(x.op(1), lane);
  x.each([&](unsigned lane) {
    std::uint32_t same = 0;
    for (std::uint32_t m = x.mask; m != 0; m &= m - 1) {
      const auto other = static_cast<unsigned>(std::countr_zero(m));
      if (value[other] == value[lane]) same |= 1u << other;
    }
    x.set(x.op(0), lane, same);
  });
}

// MATCH.ALL [Pd,] Rd, Ra: the executing lanes in Rd where every one holds the same value, else
// 0; Pd whether they do (CUDA's __match_all_sync).
void match_all(const Lanes& x) {
  const bool with_pred = x.op(0).kind == OperandKind::Pred;
  const Operand& dest = x.op(with_pred ? 1 : 0);
  const Operand& source = x.op(with_pred ? 2 : 1);
  const bool wide = data_bytes(x.inst.mods.type) == 8;
  bool all = true, seen = false;
  std::uint64_t first = 0;
  for (std::uint32_t m = x.mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t v = wide ? x.raw64(source, lane) : x.raw(source, lane);
    if (seen && v != first) all = false;
    first = seen ? first : v;
    seen = true;
  }
  x.each([&](unsigned lane) {
    x.set(dest, lane, all ? x.mask : 0u);
    if (with_pred) x.set_pred(x.op(0), lane, all);
  });
}

// REDUX: one value for the warp, reduced over the executing lanes, into a uniform register.
void reduce(const Lanes& x) {
  const auto op = static_cast<ReduxOp>(x.inst.mods.sub);
  const bool is_signed = x.inst.mods.type == DataType::S32;
  bool first = true;
  std::uint32_t r = 0;
  for (std::uint32_t m = x.mask; m != 0; m &= m - 1) {
    const std::uint32_t v = x.raw(x.op(1), static_cast<unsigned>(std::countr_zero(m)));
    const bool less =
        is_signed ? static_cast<std::int32_t>(v) < static_cast<std::int32_t>(r) : v < r;
    if (first) {
      r = v;
    } else {
      switch (op) {
        case ReduxOp::Sum:
          r += v;
          break;
        case ReduxOp::Min:
          r = less ? v : r;
          break;
        case ReduxOp::Max:
          r = (!less && v != r) ? v : r;
          break;
        case ReduxOp::And:
          r &= v;
          break;
        case ReduxOp::Or:
          r |= v;
          break;
        case ReduxOp::Xor:
          r ^= v;
          break;
      }
    }
    first = false;
  }
  if (x.mask != 0) x.set(x.op(0), static_cast<unsigned>(std::countr_zero(x.mask)), r);
}

// B2R.RESULT Rd[, Pd]: the last BAR.RED's result. ptxas reads a count into Rd after
// BAR.RED.POPC (`B2R.RESULT R9`) and the outcome into Pd after .AND and .OR (`B2R.RESULT RZ,
// P1`), and `B2R.RESULT RZ` where the kernel never uses the result; what the other halves would
// hold is not known, so any other use is a fault.
void barrier_result(const Lanes& x) {
  const BarReduction r = x.w.barrier_reduction;
  const bool has_pred = x.inst.operands.size() == 2;
  const Operand& rd = x.op(0);
  const bool zero_reg = rd.kind == OperandKind::Reg && rd.index == kZeroReg;
  const unsigned first = static_cast<unsigned>(std::countr_zero(x.mask));
  if (r == BarReduction::None) x.fault(first, "B2R.RESULT before any BAR.RED");
  if (zero_reg && !has_pred) return;  // the result discarded
  if ((r == BarReduction::Popc && has_pred) || (r != BarReduction::Popc && !zero_reg) ||
      (r != BarReduction::Popc && !has_pred))
    x.fault(first,
            "B2R.RESULT reads a half of BAR.RED's result that is not modelled (a count "
            "after .POPC, a predicate after .AND and .OR are)");
  const bool outcome = r == BarReduction::And ? x.w.barrier_all : x.w.barrier_count != 0;
  x.each([&](unsigned lane) {
    if (r == BarReduction::Popc) {
      x.set(rd, lane, x.w.barrier_count);
    } else {
      x.set_pred(x.op(1), lane, outcome);
    }
  });
}

}  // namespace

void execute_warp_level(const Lanes& x) {
  switch (x.inst.op) {
    case Op::SHFL:
      return shuffle(x);
    case Op::VOTE:
      return vote(x);
    case Op::MATCH:
      return x.inst.mods.sub == 1 ? match_all(x) : match_any(x);
    case Op::REDUX:
      return reduce(x);
    case Op::B2R:
      return barrier_result(x);
    default:
      return x.fault(0, "not a warp-level instruction");
  }
}

}  // namespace warpsim::sass
