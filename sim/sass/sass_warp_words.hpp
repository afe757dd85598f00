// A whole warp's operands at once: each source read into 32 words before the instruction
// computes, each result written back under the executing lanes' mask. The instructions that
// dominate ordinary kernels (address arithmetic, compares, moves) run through these as plain
// loops over 32 lanes, with no per-lane operand decoding. A uniform instruction goes through
// them too: x.run then holds its one lane. Internal to the SASS executor.
#pragma once

#include <array>
#include <cstdint>

#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {

using LaneWords = std::array<std::uint32_t, kWarpSize>;
using LaneWords64 = std::array<std::uint64_t, kWarpSize>;

// SR_TID.X, .Y or .Z of every lane: the first lane's index unflattened, then counted up lane
// by lane (x first), which spares a division per lane.
inline void thread_indices(const Lanes& x, Special which, LaneWords& out) {
  const exec::Dim3& shape = x.launch.spec->block;
  exec::Dim3 tid = exec::unflatten(std::uint64_t{x.w.index} * kWarpSize, shape);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const std::uint64_t v = which == Special::TidX ? tid.x : which == Special::TidY ? tid.y : tid.z;
    out[l] = static_cast<std::uint32_t>(v);
    if (++tid.x < shape.x) continue;
    tid.x = 0;
    if (++tid.y < shape.y) continue;
    tid.y = 0;
    ++tid.z;
  }
}

// Whether a special register reads differently on the lanes of one warp.
inline bool lane_dependent(Special s) {
  switch (s) {
    case Special::TidX:
    case Special::TidY:
    case Special::TidZ:
    case Special::LaneId:
    case Special::LtMask:
    case Special::LeMask:
    case Special::EqMask:
    case Special::GeMask:
    case Special::GtMask:
      return true;
    default:
      return false;
  }
}

// The operand's 32 bits on every lane, no modifier applied. Lanes outside x.run get the
// register's value, or 0 for an operand whose value would need the lane's own offset (an
// indexed constant: reading it where no lane runs could fault where the GPU does not).
inline void read_raw(const Lanes& x, const Operand& o, LaneWords& out) {
  switch (o.kind) {
    case OperandKind::Reg:
      if (o.index == kZeroReg) {
        out.fill(0);
      } else {
        const std::uint32_t* r = x.w.r.data() + std::size_t{o.index} * kWarpSize;
        for (unsigned l = 0; l < kWarpSize; ++l) out[l] = r[l];
      }
      return;
    case OperandKind::UReg:
    case OperandKind::Imm:
      out.fill(x.raw_slow(o, 0));  // no lane's own: the switch once, not the operand table
      return;
    case OperandKind::Special:
      if (const auto which = static_cast<Special>(o.index);
          which == Special::TidX || which == Special::TidY || which == Special::TidZ)
        return thread_indices(x, which, out);
      if (!lane_dependent(static_cast<Special>(o.index))) {
        out.fill(x.special(o, 0));  // the block's index, the clock, ...: one value a warp
        return;
      }
      for (unsigned l = 0; l < kWarpSize; ++l) out[l] = x.special(o, l);
      return;
    case OperandKind::Const:
      if (is_fixed_constant(o)) {
        // One word for every lane, read once (and only where a lane runs, as the GPU would).
        out.fill(x.run != 0 ? x.raw(o, static_cast<unsigned>(std::countr_zero(x.run))) : 0u);
        return;
      }
      [[fallthrough]];
    default:
      out.fill(0);
      for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
        const auto l = static_cast<unsigned>(std::countr_zero(m));
        out[l] = x.raw(o, l);
      }
      return;
  }
}

// An integer source: ~ and - applied, as Lanes::u32.
inline void read_u32(const Lanes& x, const Operand& o, LaneWords& out) {
  read_raw(x, o, out);
  if (o.invert)
    for (std::uint32_t& v : out) v = ~v;
  if (o.negate)
    for (std::uint32_t& v : out) v = ~v + 1u;
}

// A 64-bit source, as Lanes::raw64.
inline void read_raw64(const Lanes& x, const Operand& o, LaneWords64& out) {
  if (o.kind == OperandKind::Reg && o.index != kZeroReg) {
    const std::uint32_t* lo = x.w.r.data() + std::size_t{o.index} * kWarpSize;
    const std::uint32_t* hi = lo + kWarpSize;
    for (unsigned l = 0; l < kWarpSize; ++l) out[l] = lo[l] | std::uint64_t{hi[l]} << 32;
    return;
  }
  if (o.kind == OperandKind::Reg || o.kind == OperandKind::UReg || o.kind == OperandKind::Imm) {
    out.fill(x.raw64(o, 0));
    return;
  }
  if (is_fixed_constant(o) && x.run != 0) {
    // One value for every lane (a constant at a fixed offset read once, where a lane runs).
    out.fill(x.raw64(o, 0));
    return;
  }
  out.fill(0);
  for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    out[l] = x.raw64(o, l);
  }
}

// A predicate source on every lane, as a lane mask (! applied).
inline std::uint32_t read_pred(const Lanes& x, const Operand& o) {
  std::uint32_t bits = kFullWarpMask;
  if (o.kind == OperandKind::Pred && o.index != kTruePred) {
    bits = x.w.pred[o.index];
  } else if (o.kind == OperandKind::UPred && o.index != kTruePred) {
    bits = ((x.w.upred >> o.index) & 1u) != 0 ? kFullWarpMask : 0u;
  }
  return o.negate ? ~bits : bits;
}

// Writes v to the destination on the executing lanes.
inline void write_words(const Lanes& x, const Operand& d, const LaneWords& v) {
  if (d.kind != OperandKind::Reg) {
    for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      x.set(d, l, v[l]);
    }
    return;
  }
  if (d.index == kZeroReg) return;
  std::uint32_t* r = x.w.r.data() + std::size_t{d.index} * kWarpSize;
  if (x.run == kFullWarpMask) {
    for (unsigned l = 0; l < kWarpSize; ++l) r[l] = v[l];
    return;
  }
  for (unsigned l = 0; l < kWarpSize; ++l) r[l] = ((x.run >> l) & 1u) != 0 ? v[l] : r[l];
}

// Writes a register pair's 64 bits on the executing lanes, as Lanes::set64.
inline void write_words64(const Lanes& x, const Operand& d, const LaneWords64& v) {
  if (d.kind != OperandKind::Reg || d.index == kZeroReg) {
    for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      x.set64(d, l, v[l]);
    }
    return;
  }
  std::uint32_t* lo = x.w.r.data() + std::size_t{d.index} * kWarpSize;
  std::uint32_t* hi = lo + kWarpSize;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (((x.run >> l) & 1u) == 0) continue;
    lo[l] = static_cast<std::uint32_t>(v[l]);
    hi[l] = static_cast<std::uint32_t>(v[l] >> 32);
  }
}

// Sets a predicate destination on the executing lanes to the lanes of `bits`.
inline void write_pred(const Lanes& x, const Operand& d, std::uint32_t bits) {
  if (d.index == kTruePred) return;
  if (d.kind == OperandKind::Pred) {
    std::uint32_t& p = x.w.pred[d.index];
    p = (p & ~x.run) | (bits & x.run);
    return;
  }
  for (std::uint32_t m = x.run; m != 0; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    x.set_pred(d, l, ((bits >> l) & 1u) != 0);
  }
}

}  // namespace warpsim::sass
