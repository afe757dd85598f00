// The 16-bit float instructions (ptxas's conversions of __half and __nv_bfloat16): F2F to or
// from a half, F2FP's packing, HADD2.F32, and the packed arithmetic of __half2 and
// __nv_bfloat162 (HADD2, HMUL2, HFMA2, HMNMX2). They round by the IR's cvt functions
// (sim/core/exec/half_float.cpp), so both frontends give the same bits.
#include <bit>
#include <cmath>
#include <limits>

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

namespace {

// Half `half` (0 the low) of a packed word, as a double (exact).
double half_value(std::uint32_t word, unsigned half, ir::HalfFormat format) {
  const auto bits = static_cast<std::uint16_t>(word >> (16u * half));
  return double{std::bit_cast<float>(exec::half_to_f32_bits(bits, format))};
}

// One source of a packed instruction: its two halves (H0 the low), as doubles (exact).
struct HalfPair {
  double h[2] = {0.0, 0.0};
};

// The packed source that starts at operand `at`: a register (R.H0_H0 and R.H1_H1 give one half
// to both), RZ, a constant word, or two immediates (the high half first, as nvdisasm prints
// them). `at` moves past it.
HalfPair packed_source(const Lanes& x, std::size_t& at, ir::HalfFormat format, unsigned lane) {
  const Operand& o = x.op(at);
  HalfPair p;
  if (o.kind == OperandKind::Imm) {
    const Operand& low = x.op(at + 1);
    p.h[1] = o.is_real ? o.real : static_cast<double>(o.value);
    p.h[0] = low.is_real ? low.real : static_cast<double>(low.value);
    at += 2;
    return p;
  }
  ++at;
  if (o.kind == OperandKind::Reg && o.index == kZeroReg) {
    p.h[0] = p.h[1] = o.negate ? -0.0 : 0.0;
    return p;
  }
  if (o.kind != OperandKind::Reg && o.kind != OperandKind::Const && o.kind != OperandKind::UReg)
    x.fault(lane, "a packed half operand other than a register, a constant or immediates");
  const std::uint32_t word = x.raw(o, lane);
  for (unsigned half = 0; half < 2; ++half) {
    double v = half_value(word, o.part_bytes == 2 ? o.part : half, format);
    if (o.absolute) v = std::fabs(v);
    p.h[half] = o.negate ? -v : v;
  }
  return p;
}

// a + b rounded to the half format once (a and b doubles whose sum the double may round): at a
// midpoint of two halves the double's rounding error says which way the exact sum lies, so the
// result is the correctly rounded one. A NaN sum is the canonical NaN.
std::uint16_t round_sum(double a, double b, ir::HalfFormat format) {
  const double s = a + b;
  if (std::isnan(s)) return exec::kGpuNanHalf;
  if (!std::isfinite(s)) return exec::encode_half(s, format, ir::Rounding::Nearest);
  const double bb = s - a;
  const double error = (a - (s - bb)) + (b - bb);  // Knuth's TwoSum: a + b = s + error
  const std::uint16_t down = exec::encode_half(s, format, ir::Rounding::Down);
  const std::uint16_t up = exec::encode_half(s, format, ir::Rounding::Up);
  if (error == 0.0 || down == up) return exec::encode_half(s, format, ir::Rounding::Nearest);
  if (half_value(down, 0, format) + half_value(up, 0, format) != 2.0 * s)
    return exec::encode_half(s, format, ir::Rounding::Nearest);
  return error > 0.0 ? up : down;
}

}  // namespace

std::uint32_t add_packed_halves(std::uint32_t a, std::uint32_t b, bool bf16) {
  const ir::HalfFormat format = bf16 ? ir::HalfFormat::BF16 : ir::HalfFormat::F16;
  std::uint32_t out = 0;
  for (unsigned half = 0; half < 2; ++half) {
    const std::uint16_t bits =
        round_sum(half_value(a, half, format), half_value(b, half, format), format);
    out |= std::uint32_t{bits} << (16u * half);
  }
  return out;
}

// HADD2 d, a, b; HMUL2 d, a, b; HFMA2 d, a, b, c (and .MMA); HMNMX2 d, a, b, P (P: min, !P:
// max): each half of d from the same half of the sources, rounded once to nearest (a product
// of two halves is exact in a double, and round_sum corrects the sum's double rounding). A
// NaN result is the canonical 0x7fff; min and max return the other operand of one NaN (.NAN:
// a NaN).
void packed_half_arithmetic(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const ir::HalfFormat format =
      m.type == DataType::BF16 ? ir::HalfFormat::BF16 : ir::HalfFormat::F16;
  const Op op = x.inst.op;
  x.each([&](unsigned lane) {
    std::size_t at = 1;
    const HalfPair a = packed_source(x, at, format, lane);
    const HalfPair b = packed_source(x, at, format, lane);
    HalfPair c;
    bool minimum = false;
    if (op == Op::HFMA2) c = packed_source(x, at, format, lane);
    if (op == Op::HMNMX2) {
      const Operand& p = x.op(at);
      if (p.kind != OperandKind::Pred) x.fault(lane, "HMNMX2 without its min/max predicate");
      minimum = x.pred(p, lane);
    }
    std::uint32_t out = 0;
    for (unsigned half = 0; half < 2; ++half) {
      const double u = a.h[half], v = b.h[half];
      std::uint16_t bits = 0;
      if (op == Op::HMNMX2) {
        const bool nan_u = std::isnan(u), nan_v = std::isnan(v);
        const bool either_nan = m.sub == kPropagateNan && (nan_u || nan_v);
        const bool take_u =
            nan_v || (!nan_u && (minimum ? (u < v || (u == v && std::signbit(u)))
                                         : (u > v || (u == v && !std::signbit(u)))));
        const double r = either_nan ? std::numeric_limits<double>::quiet_NaN() : take_u ? u : v;
        bits =
            std::isnan(r) ? exec::kGpuNanHalf : exec::encode_half(r, format, ir::Rounding::Nearest);
      } else {
        const double product = op == Op::HADD2 ? u : u * v;  // exact
        const double addend = op == Op::HADD2 ? v : op == Op::HMUL2 ? -0.0 : c.h[half];
        bits = round_sum(product, addend, format);
        // .RELU: a negative result (-0 included) is +0; a NaN stays the canonical one.
        if (op == Op::HFMA2 && m.sub == kRelu && bits != exec::kGpuNanHalf && (bits & 0x8000u) != 0)
          bits = 0;
        // .SAT (__hmul2_sat, __hfma2_sat): clamped to [+0, 1], a NaN to +0.
        if (m.saturate) {
          const double r = exec::decode_half(bits, format);
          if (std::isnan(r) || r <= 0.0) bits = 0;
          if (r > 1.0)
            bits =
                static_cast<std::uint16_t>(exec::encode_half(1.0, format, ir::Rounding::Nearest));
        }
      }
      out |= std::uint32_t{bits} << (16u * half);
    }
    x.set(x.op(0), lane, out);
  });
}

std::uint32_t integer_to_half(double value, DataType dest, Rounding r) {
  return exec::encode_half(value, half_format(dest), ir_rounding(r));
}

void packed_half_compare(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const ir::HalfFormat format =
      m.type == DataType::BF16 ? ir::HalfFormat::BF16 : ir::HalfFormat::F16;
  const bool to_register = x.inst.op == Op::HSET2;
  const std::uint32_t one = m.sub != kBooleanFloat           ? 0xffffu
                            : format == ir::HalfFormat::BF16 ? 0x3f80u
                                                             : 0x3c00u;
  x.each([&](unsigned lane) {
    std::size_t at = to_register ? 1 : 2;  // past Rd, or past Pd and Pq
    const HalfPair a = packed_source(x, at, format, lane);
    const HalfPair b = packed_source(x, at, format, lane);
    const Operand& c_operand = x.op(at);
    if (c_operand.kind != OperandKind::Pred && c_operand.kind != OperandKind::UPred)
      x.fault(lane, "a packed half compare without its combining predicate");
    const bool c = x.pred(c_operand, lane);
    auto combine = [&](bool v) {
      return m.bool_op == BoolOp::And ? v && c : m.bool_op == BoolOp::Or ? v || c : v != c;
    };
    bool r[2];
    for (unsigned half = 0; half < 2; ++half)
      r[half] = compare_float(m.compare, a.h[half], b.h[half]);
    if (to_register) {
      x.set(x.op(0), lane, (combine(r[0]) ? one : 0u) | (combine(r[1]) ? one : 0u) << 16);
    } else if (m.sub == kHalvesAnd) {
      x.set_pred(x.op(0), lane, combine(r[0] && r[1]));
      x.set_pred(x.op(1), lane, combine(!(r[0] && r[1])));  // as FSETP's second
    } else {
      x.set_pred(x.op(0), lane, combine(r[0]));
      x.set_pred(x.op(1), lane, combine(r[1]));
    }
  });
}

}  // namespace warpsim::sass
