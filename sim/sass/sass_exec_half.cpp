// The 16-bit float instructions (ptxas's conversions of __half and __nv_bfloat16): F2F to or
// from a half, F2FP's packing, HADD2.F32, HFMA2.MMA's immediates. They round by the IR's cvt
// functions (sim/core/exec/half_float.cpp), so both frontends give the same bits.
#include <bit>
#include <cmath>

#include "sim/core/exec/gpu_nan.hpp"
#include "sim/core/exec/half_float.hpp"
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

ir::HalfFormat half_format(DataType t) {
  return t == DataType::F16    ? ir::HalfFormat::F16
         : t == DataType::BF16 ? ir::HalfFormat::BF16
                               : ir::HalfFormat::None;
}

ir::Rounding ir_rounding(Rounding r) {
  return r == Rounding::Zero   ? ir::Rounding::Zero
         : r == Rounding::Down ? ir::Rounding::Down
         : r == Rounding::Up   ? ir::Rounding::Up
                               : ir::Rounding::Nearest;
}

// A float operand (F32 or F64 by `type`) as a double, exactly.
double float_operand(const Lanes& x, const Operand& o, DataType type, unsigned lane) {
  return type == DataType::F64 ? x.f64(o, lane) : double{x.f32(o, lane)};
}

}  // namespace

// F2F to or from a 16-bit float (the low half of the register).
void convert_half(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  if (const ir::HalfFormat to = half_format(m.dest); to != ir::HalfFormat::None) {
    return x.each([&](unsigned lane) {
      const double v = float_operand(x, x.op(1), m.type, lane);
      const ir::Rounding r = ir_rounding(m.rounding);
      x.set(x.op(0), lane,
            m.type == DataType::F64 ? exec::encode_half_from_f64(v, to, r)
                                    : exec::encode_half(v, to, r));
    });
  }
  const ir::HalfFormat from = half_format(m.type);
  x.each([&](unsigned lane) {
    const std::uint32_t single =
        exec::half_to_f32_bits(static_cast<std::uint16_t>(x.u32(x.op(1), lane)), from);
    if (m.dest == DataType::F64) {
      x.set64(x.op(0), lane, std::bit_cast<std::uint64_t>(double{std::bit_cast<float>(single)}));
    } else {
      x.set(x.op(0), lane, single);
    }
  });
}

// F2FP.F16.F32.PACK_AB d, a, b (and .BF16): a's 16-bit float in the high half, b's in the low.
void pack_halves(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const ir::HalfFormat to = half_format(m.dest);
  if (to == ir::HalfFormat::None || m.type != DataType::F32)
    x.fault(0, "F2FP other than from F32 to F16 or BF16 is not modelled");
  const ir::Rounding r = ir_rounding(m.rounding);
  x.each([&](unsigned lane) {
    const std::uint32_t high = exec::encode_half(double{x.f32(x.op(1), lane)}, to, r);
    const std::uint32_t low = exec::encode_half(double{x.f32(x.op(2), lane)}, to, r);
    x.set(x.op(0), lane, high << 16 | low);
  });
}

// HADD2.F32 d, a, b: the halves a and b (one half of a register each, or RZ) summed in f32. ptxas
// converts f16 to f32 so, adding -RZ; the sum of two halves is exact in f32 but for a NaN, which
// gives the canonical NaN.
void add_halves_to_single(const Lanes& x) {
  if (x.inst.mods.type != DataType::F32 || x.count() != 3)
    x.fault(0, "HADD2 other than HADD2.F32 is not modelled");
  auto half_value = [&](const Operand& o, unsigned lane) {
    if (o.kind == OperandKind::Reg && o.index == kZeroReg) return o.negate ? -0.0f : 0.0f;
    if (o.kind != OperandKind::Reg || o.part_bytes != 2)
      x.fault(0, "HADD2.F32 of other than a register half is not modelled");
    const auto bits = static_cast<std::uint16_t>(x.raw(o, lane) >> (16u * o.part));
    float v = std::bit_cast<float>(exec::half_to_f32_bits(bits, ir::HalfFormat::F16));
    if (o.absolute) v = std::fabs(v);
    return o.negate ? -v : v;
  };
  x.each([&](unsigned lane) {
    const float sum = half_value(x.op(1), lane) + half_value(x.op(2), lane);
    x.set(x.op(0), lane, std::isnan(sum) ? exec::kGpuNanF32 : std::bit_cast<std::uint32_t>(sum));
  });
}

bool is_half(DataType t) {
  return t == DataType::F16 || t == DataType::BF16;
}

std::uint32_t half_immediate_bits(double v) {
  // Exactly representable (the immediates are halves as printed), so rounding is exact.
  return exec::encode_half(v, ir::HalfFormat::F16, ir::Rounding::Nearest);
}

}  // namespace warpsim::sass
