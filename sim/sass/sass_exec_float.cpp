// Floating-point and conversion instructions: IEEE arithmetic in the instruction's rounding
// mode (.RN default, .RZ/.RM/.RP by the host's rounding modes; this file is compiled with
// -frounding-math so no operation moves across a mode change), .FTZ flushing subnormal inputs
// and results to zero, .SAT clamping to [0, 1]. The multi-function unit (MUFU) is modelled as
// the IR's approximations are: in double precision, rounded once (docs/ir.md); MUFU.RCP is the
// correctly rounded reciprocal, which the Newton steps ptxas places after it keep exact.
#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <numbers>

#include "sim/core/exec/approx_lowered.hpp"
#include "sim/core/exec/gpu_nan.hpp"
#include "sim/core/exec/half_float.hpp"
#include "sim/sass/sass_lanes.hpp"

namespace warpsim::sass {
namespace {

int host_mode(Rounding r) {
  switch (r) {
    case Rounding::Zero:
      return FE_TOWARDZERO;
    case Rounding::Down:
      return FE_DOWNWARD;
    case Rounding::Up:
      return FE_UPWARD;
    case Rounding::Nearest:
      break;
  }
  return FE_TONEAREST;
}

// fn() evaluated in rounding mode `r`.
template <typename Fn>
auto rounded(Rounding r, Fn&& fn) {
  if (r == Rounding::Nearest) return fn();
  const int saved = std::fegetround();
  std::fesetround(host_mode(r));
  const auto v = fn();
  std::fesetround(saved);
  return v;
}

float finish(const Modifiers& m, float v) {
  if (m.ftz) v = exec::flush_f32(v);
  if (m.saturate) v = std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, 0.0f), 1.0f);
  return v;
}

}  // namespace

bool compare_float(Compare c, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (c) {
    case Compare::F:
      return false;
    case Compare::LT:
      return !unordered && a < b;
    case Compare::EQ:
      return !unordered && a == b;
    case Compare::LE:
      return !unordered && a <= b;
    case Compare::GT:
      return !unordered && a > b;
    case Compare::NE:
      return !unordered && a != b;
    case Compare::GE:
      return !unordered && a >= b;
    case Compare::T:
      return true;
    case Compare::NUM:
      return !unordered;
    case Compare::NAN_:
      return unordered;
    case Compare::LTU:
      return unordered || a < b;
    case Compare::EQU:
      return unordered || a == b;
    case Compare::LEU:
      return unordered || a <= b;
    case Compare::GTU:
      return unordered || a > b;
    case Compare::NEU:
      return unordered || a != b;
    case Compare::GEU:
      return unordered || a >= b;
  }
  return false;
}

namespace {

// A SETP's two predicates, each combined with its c operand by the instruction's bool op.
void set_predicates(const Lanes& x, unsigned lane, bool first, bool second) {
  const bool c = x.pred(x.op(4), lane);
  const BoolOp op = x.inst.mods.bool_op;
  auto combine = [&](bool v) {
    return op == BoolOp::And ? v && c : op == BoolOp::Or ? v || c : v != c;
  };
  x.set_pred(x.op(0), lane, combine(first));
  x.set_pred(x.op(1), lane, combine(second));
}

void set_compare(const Lanes& x, unsigned lane, bool r) {
  set_predicates(x, lane, r, !r);
}

// FCHK: whether a/b needs the division's slow path, by the operands' exponent fields (ea, eb),
// as an H100 decides it (kernels_cuda/coverage/fchk_probe.cu's 28 launches, one warp each, its
// counts 20 or 66 instructions; validation/h200/results/h100_2026_12_07d/):
// - b zero or subnormal, or its exponent field 1 or 252 and above (the reciprocal's step would
//   leave the normal range);
// - a infinite or NaN, zero or subnormal, or below 2^-102 (field 24 or less: the fast path's
//   remainder a - b q, about a 2^-24, would fall below the normal numbers and round; a sweep of
//   the fast path's five FFMAs against IEEE division finds wrong quotients up to field 19). A
//   zero dividend takes it too: mandelbrot's 3.0f * px / width runs the slow path once in each
//   of the 396 warps holding a px or py of 0 (validation/h200/results/sass_classes/);
// - the fields 127 or more apart (the quotient may overflow: 126 measured fast), or 125 or more
//   the other way (-125 measured slow, -120 fast; -124 to -121 are not measured).
bool division_needs_slow_path(float a, float b) {
  const int ea = static_cast<int>((std::bit_cast<std::uint32_t>(a) >> 23) & 0xffu);
  const int eb = static_cast<int>((std::bit_cast<std::uint32_t>(b) >> 23) & 0xffu);
  if (eb <= 1 || eb >= 252 || ea == 255 || ea <= 24) return true;
  const int difference = ea - eb;
  return difference >= 127 || difference <= -125;
}

// The unit's functions as exec::unit_function models them for both executors (MUFU.SIN and
// .COS take the angle in turns: ptxas multiplies by 1/(2 pi) before them).
static_assert(static_cast<int>(MufuFn::Lg2) == static_cast<int>(exec::UnitFunction::Lg2) &&
                  static_cast<int>(MufuFn::Tanh) == static_cast<int>(exec::UnitFunction::Tanh),
              "MufuFn's f32 functions in exec::UnitFunction's order");
float multi_function(MufuFn fn, float a) {
  return exec::unit_function(static_cast<exec::UnitFunction>(fn), a);
}

// A double's high word in and out: the reciprocal (square root) seeds of the double divisions.
std::uint32_t multi_function_high(MufuFn fn, std::uint32_t high) {
  if (fn == MufuFn::Rsq64H) return exec::reciprocal_sqrt_seed(high);
  const double d = std::bit_cast<double>(std::uint64_t{high} << 32);
  return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(1.0 / d) >> 32);
}

// A NaN converts to 0, and to a signed 64-bit integer to the most negative one, as the H200's
// F2I does (kernels_cuda/textbook/rounding.cu, validated bit for bit).
template <typename Int>
Int to_integer(double v, Rounding r) {
  if (std::isnan(v)) {
    return std::is_same_v<Int, std::int64_t> ? std::numeric_limits<Int>::min() : Int{0};
  }
  const double t = r == Rounding::Zero   ? std::trunc(v)
                   : r == Rounding::Down ? std::floor(v)
                   : r == Rounding::Up   ? std::ceil(v)
                                         : std::nearbyint(v);
  if (t <= static_cast<double>(std::numeric_limits<Int>::min()))
    return std::numeric_limits<Int>::min();
  if (t >= static_cast<double>(std::numeric_limits<Int>::max()))
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(t);
}

void float_to_int(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const Operand& source = x.op(1);
  const bool half = m.type == DataType::F16 || m.type == DataType::BF16;
  x.each([&](unsigned lane) {
    // F2I.F16 (cvt.rzi.s32.f16): the register's low half, or the half R.H1 names.
    const double v =
        m.type == DataType::F64 ? x.f64(source, lane)
        : half                  ? exec::decode_half(
                                      static_cast<std::uint16_t>(x.raw(source, lane) >>
                                                (source.part_bytes == 2 ? 16u * source.part : 0u)),
                     m.type == DataType::BF16 ? ir::HalfFormat::BF16 : ir::HalfFormat::F16)
               : double{x.f32(source, lane)};
    switch (m.dest) {
      case DataType::U32:
        return x.set(x.op(0), lane, to_integer<std::uint32_t>(v, m.rounding));
      case DataType::S64:
        return x.set64(x.op(0), lane,
                       static_cast<std::uint64_t>(to_integer<std::int64_t>(v, m.rounding)));
      case DataType::U64:
        return x.set64(x.op(0), lane, to_integer<std::uint64_t>(v, m.rounding));
      // 8 and 16 bits: saturated to the narrow range, held sign- or zero-extended (ptxas stores
      // F2I.S16's register as C's (unsigned)(short) without extending it).
      case DataType::S16:
        return x.set(
            x.op(0), lane,
            static_cast<std::uint32_t>(std::int32_t{to_integer<std::int16_t>(v, m.rounding)}));
      case DataType::U16:
        return x.set(x.op(0), lane, to_integer<std::uint16_t>(v, m.rounding));
      case DataType::S8:
        return x.set(
            x.op(0), lane,
            static_cast<std::uint32_t>(std::int32_t{to_integer<std::int8_t>(v, m.rounding)}));
      case DataType::U8:
        return x.set(x.op(0), lane, to_integer<std::uint8_t>(v, m.rounding));
      default:
        return x.set(x.op(0), lane,
                     static_cast<std::uint32_t>(to_integer<std::int32_t>(v, m.rounding)));
    }
  });
}

void int_to_float(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  const Operand& source = x.op(1);
  x.each([&](unsigned lane) {
    std::uint64_t bits = data_bytes(m.type) == 8 ? x.raw64(source, lane) : x.u32(source, lane);
    // R.B1 or R.H0: that byte or half, as the low bits the type then reads.
    if (source.part_bytes != 0) bits >>= 8u * source.part_bytes * source.part;
    const bool is_signed = m.type == DataType::S32 || m.type == DataType::S64 ||
                           m.type == DataType::S16 || m.type == DataType::S8;
    std::int64_t s = static_cast<std::int64_t>(bits);
    if (m.type == DataType::S32) s = static_cast<std::int32_t>(bits);
    if (m.type == DataType::S16) s = static_cast<std::int16_t>(bits);
    if (m.type == DataType::S8)
      s = static_cast<std::int64_t>(bits & 0xffu) - ((bits & 0x80u) ? 256 : 0);
    const std::uint64_t u = data_bytes(m.type) == 8
                                ? bits
                                : bits & ((std::uint64_t{1} << (8 * data_bytes(m.type))) - 1);
    if (is_half(m.dest)) {  // I2F.F16, I2F.BF16: __int2half_rn and the like
      x.set(x.op(0), lane,
            integer_to_half(is_signed ? static_cast<double>(s) : static_cast<double>(u), m.dest,
                            m.rounding));
    } else if (m.dest == DataType::F64) {
      x.set64(x.op(0), lane, std::bit_cast<std::uint64_t>(rounded(m.rounding, [&] {
                return is_signed ? static_cast<double>(s) : static_cast<double>(u);
              })));
    } else {
      x.set(x.op(0), lane, std::bit_cast<std::uint32_t>(rounded(m.rounding, [&] {
              return is_signed ? static_cast<float>(s) : static_cast<float>(u);
            })));
    }
  });
}

void float_to_float(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  if (is_half(m.type) || is_half(m.dest)) return convert_half(x);
  x.each([&](unsigned lane) {
    if (m.dest == DataType::F64) {
      x.set64(x.op(0), lane, std::bit_cast<std::uint64_t>(double{x.f32(x.op(1), lane)}));
    } else if (m.type == DataType::F64) {
      const double v = x.f64(x.op(1), lane);
      x.set(x.op(0), lane, std::bit_cast<std::uint32_t>(finish(m, rounded(m.rounding, [&] {
                                                                 return static_cast<float>(v);
                                                               }))));
    } else {
      x.set(x.op(0), lane, std::bit_cast<std::uint32_t>(finish(m, x.f32(x.op(1), lane))));
    }
  });
}

void round_to_integral(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  auto integral = [&](double v) {
    return m.rounding == Rounding::Zero   ? std::trunc(v)
           : m.rounding == Rounding::Down ? std::floor(v)
           : m.rounding == Rounding::Up   ? std::ceil(v)
                                          : std::nearbyint(v);
  };
  // FRND of a NaN writes the canonical NaN (0x7fffffff, 0xfff8000000000000 for F64), whatever
  // the NaN read, as on the H200 (kernels_cuda/textbook/rounding.cu).
  x.each([&](unsigned lane) {
    if (m.dest == DataType::F64) {
      const double v = x.f64(x.op(1), lane);
      x.set64(x.op(0), lane,
              std::isnan(v) ? 0xfff8000000000000ull : std::bit_cast<std::uint64_t>(integral(v)));
    } else {
      const float v = x.f32(x.op(1), lane);
      x.set(x.op(0), lane,
            std::isnan(v)
                ? 0x7fffffffu
                : std::bit_cast<std::uint32_t>(finish(m, static_cast<float>(integral(v)))));
    }
  });
}

// DSETP.MIN/.MAX Pd, Pe, a, b, c, ptxas's min.f64 and max.f64 (two SELs on Pd pick a's or b's
// words, and Pe sets the quiet bit of the picked high word): Pd where a is the result of PTX's
// min or max (exec/gpu_nan.hpp: a NaN loses to a number, -0 is below +0, of two NaNs the second
// is the result, as the H200 gives it), Pe where both are NaN. Both combined with c, as a
// comparison's are.
void select_min_max(const Lanes& x, unsigned lane) {
  const double a = x.f64(x.op(2), lane), b = x.f64(x.op(3), lane);
  const double r = exec::gpu_min_max(a, b, x.inst.mods.sub == kDsetpMin);
  const bool pick_a =
      !std::isnan(a) && std::bit_cast<std::uint64_t>(r) == std::bit_cast<std::uint64_t>(a);
  set_predicates(x, lane, pick_a, std::isnan(a) && std::isnan(b));
}

// An f64 NaN result as the H200 gives it: a NaN source's register bits (without the operand's -
// or |.|: `DADD R, -RZ, -R` of a NaN gives it unchanged), quieted, the second source before
// the first (and DFMA's addend last); the default NaN when no source is NaN. Fitted to the
// H200's results with two NaN operands in validation/h200/results/nan_bits/ (four of four).
double gpu_nan_of(const Lanes& x, unsigned lane) {
  for (const std::size_t i : {std::size_t{2}, std::size_t{1}, std::size_t{3}}) {
    if (i == 3 && x.inst.op != Op::DFMA) break;
    const double v = std::bit_cast<double>(x.raw64(x.op(i), lane));
    if (std::isnan(v)) return exec::quieted(v);
  }
  return std::bit_cast<double>(exec::kGpuNanF64);
}

void double_arithmetic(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  x.each([&](unsigned lane) {
    // DSETP Pd, Pe, a, b, c: its sources follow two predicates.
    if (x.inst.op == Op::DSETP && m.sub != 0) return select_min_max(x, lane);
    if (x.inst.op == Op::DSETP) {
      return set_compare(x, lane,
                         compare_float(m.compare, x.f64(x.op(2), lane), x.f64(x.op(3), lane)));
    }
    const double a = x.f64(x.op(1), lane), b = x.f64(x.op(2), lane);
    const double r = rounded(m.rounding, [&] {
      if (x.inst.op == Op::DADD) return a + b;
      if (x.inst.op == Op::DMUL) return a * b;
      return std::fma(a, b, x.f64(x.op(3), lane));
    });
    x.set64(x.op(0), lane, std::bit_cast<std::uint64_t>(std::isnan(r) ? gpu_nan_of(x, lane) : r));
  });
}

}  // namespace

void execute_float(const Lanes& x) {
  const Modifiers& m = x.inst.mods;
  // Every f32 NaN result is the H200's 0x7fffffff (exec/gpu_nan.hpp).
  auto put = [&](unsigned lane, float v) {
    const float r = finish(m, v);
    x.set(x.op(0), lane, std::isnan(r) ? exec::kGpuNanF32 : std::bit_cast<std::uint32_t>(r));
  };
  switch (x.inst.op) {
    case Op::FADD:
      return x.each([&](unsigned lane) {
        const float a = x.f32(x.op(1), lane), b = x.f32(x.op(2), lane);
        put(lane, rounded(m.rounding, [&] { return a + b; }));
      });
    case Op::FMUL:
      return x.each([&](unsigned lane) {
        const float a = x.f32(x.op(1), lane), b = x.f32(x.op(2), lane);
        put(lane, rounded(m.rounding, [&] { return a * b; }));
      });
    case Op::FFMA:
      return x.each([&](unsigned lane) {
        const float a = x.f32(x.op(1), lane), b = x.f32(x.op(2), lane), c = x.f32(x.op(3), lane);
        put(lane, rounded(m.rounding, [&] { return std::fma(a, b, c); }));
      });
    case Op::FMNMX:
      return x.each([&](unsigned lane) {
        const float a = x.f32(x.op(1), lane), b = x.f32(x.op(2), lane);
        put(lane, exec::gpu_min_max(a, b, x.pred(x.op(3), lane)));
      });
    case Op::FSEL:
      // The chosen source's bits with its |.| and - applied (nvcc's sinf selects -R7).
      return x.each([&](unsigned lane) {
        const Operand& chosen = x.pred(x.op(3), lane) ? x.op(1) : x.op(2);
        std::uint32_t v = x.raw(chosen, lane);
        if (chosen.absolute) v &= 0x7fffffffu;
        if (chosen.negate) v ^= 0x80000000u;
        x.set(x.op(0), lane, v);
      });
    case Op::FSETP:
      return x.each([&](unsigned lane) {
        set_compare(x, lane, compare_float(m.compare, x.f32(x.op(2), lane), x.f32(x.op(3), lane)));
      });
    case Op::FCHK:
      return x.each([&](unsigned lane) {
        x.set_pred(x.op(0), lane,
                   division_needs_slow_path(x.f32(x.op(1), lane), x.f32(x.op(2), lane)));
      });
    case Op::MUFU: {
      const auto fn = static_cast<MufuFn>(m.sub);
      if (fn == MufuFn::Rcp64H || fn == MufuFn::Rsq64H) {
        // A double immediate (ptxas's MUFU.RCP64H R3, 10 for x / 10.0) gives its high word.
        const Operand& a = x.op(1);
        const bool double_immediate = a.kind == OperandKind::Imm && a.is_real;
        const auto immediate_high =
            static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(a.real) >> 32);
        return x.each([&](unsigned lane) {
          x.set(x.op(0), lane,
                multi_function_high(fn, double_immediate ? immediate_high : x.u32(a, lane)));
        });
      }
      return x.each([&](unsigned lane) { put(lane, multi_function(fn, x.f32(x.op(1), lane))); });
    }
    case Op::HFMA2:
    case Op::HMUL2:
    case Op::HMNMX2:
      return packed_half_arithmetic(x);
    case Op::HSETP2:
    case Op::HSET2:
      return packed_half_compare(x);
    case Op::HMMA:
    case Op::IMMA:
    case Op::DMMA:
      return matrix_multiply_accumulate(x);
    case Op::DADD:
    case Op::DMUL:
    case Op::DFMA:
    case Op::DSETP:
      return double_arithmetic(x);
    case Op::I2F:
      return int_to_float(x);
    case Op::F2I:
      return float_to_int(x);
    case Op::F2F:
      return float_to_float(x);
    case Op::F2FP:
      return (m.sub & (kFp8E4M3 | kFp8E5M2)) != 0 ? convert_fp8(x) : pack_halves(x);
    case Op::HADD2:
      return m.type == DataType::F32 ? add_halves_to_single(x) : packed_half_arithmetic(x);
    case Op::FRND:
      return round_to_integral(x);
    default:
      return x.fault(0, "not a floating-point instruction");
  }
}

}  // namespace warpsim::sass
